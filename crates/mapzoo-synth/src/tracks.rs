//! Small test tracks shared by the workspace's tests (feature `testing`):
//! closed ovals as MapZoo centerlines with constant widths, so the tests of
//! the racing lines and of the CLI draw the same tracks from one place.

use mapzoo_format::Waypoint;
use mapzoo_geom::resample_closed_numpy;

/// The closed curve x = a·cos t, y = b·sin t + wobble·sin 2t at `n` equal steps
/// of t from 0, metres (last point not repeated; counter-clockwise for a, b > 0).
pub fn oval_points(a: f64, b: f64, wobble: f64, n: usize) -> Vec<[f64; 2]> {
    (0..n)
        .map(|i| {
            let t = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            let y = if wobble == 0.0 {
                b * t.sin()
            } else {
                b * t.sin() + wobble * (2.0 * t).sin()
            };
            [a * t.cos(), y]
        })
        .collect()
}

/// A centerline along the dense closed polyline `dense`: resampled every
/// ≈`spacing` metres from point 0 (the Race Stack's `resample_closed`,
/// [`resample_closed_numpy`]), ids
/// and `s_m = spacing·i`, `d_right = d_left = half_width` metres, the rest 0.
pub fn centerline_along(dense: &[[f64; 2]], spacing: f64, half_width: f64) -> Vec<Waypoint> {
    resample_closed_numpy(dense, spacing)
        .iter()
        .enumerate()
        .map(|(i, p)| Waypoint {
            id: i as i64,
            s_m: spacing * i as f64,
            x_m: p[0],
            y_m: p[1],
            d_right: half_width,
            d_left: half_width,
            ..Waypoint::default()
        })
        .collect()
}

/// The oval: an ellipse of semi-axes 8 m × 5 m (≈41 m lap), counter-clockwise,
/// waypoints every ≈0.1 m, `half_width` metres to each wall.
pub fn oval(half_width: f64) -> Vec<Waypoint> {
    centerline_along(&oval_points(8.0, 5.0, 0.0, 3000), 0.1, half_width)
}

/// The wobbly oval: semi-axes 9 m × 5 m with a 0.8 m second harmonic across
/// (≈46 m lap, no symmetry across x), counter-clockwise, waypoints every ≈0.1 m,
/// `half_width` metres to each wall.
pub fn wobbly_oval(half_width: f64) -> Vec<Waypoint> {
    centerline_along(&oval_points(9.0, 5.0, 0.8, 4000), 0.1, half_width)
}

/// A circle of radius `r` metres through `n` points at equal angles from +x, counter-clockwise,
/// `half_width` metres to each wall (heading, curvature and speed left at 0).
pub fn circle(r: f64, n: usize, half_width: f64) -> Vec<Waypoint> {
    (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            Waypoint {
                id: i as i64,
                s_m: r * t,
                d_m: 0.0,
                x_m: r * t.cos(),
                y_m: r * t.sin(),
                d_right: half_width,
                d_left: half_width,
                psi_rad: 0.0,
                kappa_radpm: 0.0,
                vx_mps: 0.0,
                ax_mps2: 0.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ovals_are_evenly_spaced_closed_loops() {
        for (cl, a) in [(oval(1.0), 8.0), (wobbly_oval(1.0), 9.0)] {
            let n = cl.len();
            for i in 0..n {
                let (a, b) = (&cl[i], &cl[(i + 1) % n]);
                let d = (b.x_m - a.x_m).hypot(b.y_m - a.y_m);
                assert!((d - 0.1).abs() < 2e-3, "step {i}: {d}");
            }
            assert_eq!([cl[0].x_m, cl[0].y_m], [a, 0.0]);
        }
    }
}
