//! Read and write speed of the file formats on a synthetic 1,500-waypoint track
//! (the size of a MapZoo track), so the benches run without reference data;
//! one module per source module benched.

use criterion::criterion_group;
use mapzoo_format::Waypoint;

pub(crate) mod global;
pub(crate) mod waypoint;

/// `n` waypoints on a circle of `radius` metres, speed around `speed` m/s.
pub fn circle(n: usize, radius: f64, speed: f64) -> Vec<Waypoint> {
    (0..n)
        .map(|i| {
            let t = i as f64 / n as f64 * std::f64::consts::TAU;
            Waypoint {
                id: i as i64,
                s_m: radius * t,
                x_m: radius * t.cos(),
                y_m: radius * t.sin(),
                d_right: 1.0 + 0.1 * t.sin(),
                d_left: 1.0 - 0.1 * t.sin(),
                psi_rad: t + std::f64::consts::FRAC_PI_2,
                kappa_radpm: 1.0 / radius,
                vx_mps: speed * (1.0 + 0.2 * (3.0 * t).sin()),
                ax_mps2: 0.6 * speed * (3.0 * t).cos(),
                ..Default::default()
            }
        })
        .collect()
}

criterion_group!(benches, global::bench, waypoint::bench);
