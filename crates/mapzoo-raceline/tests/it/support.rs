//! Test tracks shared by the modules: smooth closed loops with uneven spacing, and
//! centerlines with exact walls along them.

use std::time::Instant;

use mapzoo_format::Waypoint;
use mapzoo_raceline::{
    compute, mintime, LineKind, MintimeSolution, RacelineParams, Trajectory, Walls,
};

/// A smooth closed loop r(θ) = R·(1 + a2·cos(2θ + φ2) + a3·cos(3θ + φ3)), counter-clockwise,
/// sampled at `n` angles with a random jitter of the angle (uneven spacing).
pub fn loop_points(
    n: usize,
    radius: f64,
    a2: f64,
    a3: f64,
    phase: f64,
    jitter: &[f64],
) -> Vec<[f64; 2]> {
    (0..n)
        .map(|i| {
            let th =
                (i as f64 + 0.3 * jitter[i % jitter.len()]) * 2.0 * std::f64::consts::PI / n as f64;
            let r = radius
                * (1.0 + a2 * (2.0 * th + phase).cos() + a3 * (3.0 * th + 2.0 * phase).cos());
            [r * th.cos(), 1.3 * r * th.sin()]
        })
        .collect()
}

/// A synthetic track: smooth loop centerline at ≈0.1 m, exact walls at ± width along the normals.
pub fn synthetic_track(radius: f64, a2: f64, a3: f64, phase: f64, width: f64) -> Vec<Waypoint> {
    let dense = loop_points(4000, radius, a2, a3, phase, &[0.0]);
    mapzoo_synth::tracks::centerline_along(&dense, 0.1, width)
}

/// The line through `knots` (closed spline, unscaled), sampled every `step` and timed with our
/// velocity profile, as the min-time step times its candidates: (lap, samples, their curvature).
pub fn timed_spline(
    knots: &[[f64; 2]],
    step: f64,
    vehicle: &mapzoo_raceline::Vehicle,
) -> Option<(f64, Vec<[f64; 2]>, Vec<f64>)> {
    let spline = mapzoo_raceline::ClosedSpline::through(knots, None).ok()?;
    let sampled = spline.sample(step);
    let kappa: Vec<f64> = sampled
        .segment
        .iter()
        .zip(&sampled.t)
        .map(|(&i, &t)| spline.heading_curvature(i, t).1)
        .collect();
    let el = sampled.el_lengths_closed();
    let v = mapzoo_raceline::velocity_profile(&kappa, &el, vehicle);
    let ax = mapzoo_raceline::ax_profile(&v, &el);
    let lap = mapzoo_raceline::lap_time(&v, &ax, &el);
    Some((lap, sampled.points, kappa))
}

/// A track's IQP and SP laps, its IQP line and walls, and the min-time line from that IQP line.
pub struct Solved {
    /// The IQP lap, seconds.
    pub iqp: f64,
    /// The IQP line as the min-time step starts from it (≈0.1 m, timed).
    pub iqp_line: Trajectory,
    /// The SP lap, seconds.
    pub sp: f64,
    pub walls: Walls,
    pub sol: MintimeSolution,
    /// Wall time of the min-time step alone, seconds.
    pub seconds: f64,
}

/// The IQP and SP lines of the centerline `cl`, then the min-time line from the IQP line.
pub fn solve(cl: &[Waypoint], walls: Option<&Walls>, params: &RacelineParams) -> Solved {
    let r = compute(cl, walls, params).unwrap();
    let vehicle = params.vehicle();
    let resampled = r.walls.resampled(params.wall_resample_step);
    let iqp_line = Trajectory::from_waypoints(&r[LineKind::Iqp].waypoints);
    let t = Instant::now();
    let sol = mintime(&iqp_line, &resampled, params, &vehicle).unwrap();
    Solved {
        iqp: r[LineKind::Iqp].lap_time_s,
        iqp_line,
        sp: r[LineKind::Sp].lap_time_s,
        walls: r.walls.clone(),
        sol,
        seconds: t.elapsed().as_secs_f64(),
    }
}
