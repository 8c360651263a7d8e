//! The banded QP solver against Clarabel (issue 21): the same racing lines on the Race
//! Stack's f, a MapZoo track and generated tracks. The IQP and SP lines end in the active-set
//! polish, which makes each QP's answer exact whichever solver found the active set: every
//! waypoint within 1e-6 m (they agree to ~1e-11 m). So do the min-time steps
//! (`QpProblem::solve_step`): on a degenerate step (a weakly active row) two interior points
//! within the solvers' 1e-10 tolerance differ by up to ~2e-6 m in the shifts, their polishes
//! are the same minimiser (a step whose polish does not hold keeps its interior point). The
//! min-time lines within 1e-5 m (f 4e-11 m, MapZoo Austin 2e-9 m; one generated track
//! 1.3e-6 m), the lap within 1e-6 s.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::{compute_lines, LineKind, QpSolver, RacelineParams, RacelineResult, Walls};
use proptest::prelude::*;

use crate::support::synthetic_track;

/// Waypoint tolerance between the two solvers' IQP and SP lines, metres.
const TOL_M: f64 = 1e-6;
/// Waypoint tolerance between the two solvers' min-time lines, metres.
const TOL_MINTIME_M: f64 = 1e-5;
/// Lap-time tolerance between the two solvers' min-time lines, seconds.
const TOL_MINTIME_S: f64 = 1e-6;

fn run(
    cl: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
    solver: QpSolver,
) -> RacelineResult {
    let mut p = params.clone();
    p.qp_solver = solver;
    compute_lines(cl, walls, &p, &LineKind::EVERY).expect("compute")
}

/// Where two results differ beyond the tolerances: `None` when every line agrees (same
/// waypoint count, every waypoint within its tolerance), else what differs. Also returns the
/// largest gap of the IQP and SP lines and of the min-time line, metres.
fn compare(a: &RacelineResult, b: &RacelineResult) -> (Option<String>, f64, f64) {
    let (mut polished, mut mintime) = (0.0f64, 0.0f64);
    for kind in LineKind::EVERY {
        let (la, lb) = (a.waypoints(kind), b.waypoints(kind));
        if la.len() != lb.len() {
            let what = format!("{kind:?}: {} vs {} waypoints", la.len(), lb.len());
            return (Some(what), polished, mintime);
        }
        let gap = la
            .iter()
            .zip(lb)
            .map(|(p, q)| (p.x_m - q.x_m).hypot(p.y_m - q.y_m))
            .fold(0.0, f64::max);
        if kind == LineKind::Mintime {
            mintime = gap;
        } else {
            polished = polished.max(gap);
        }
    }
    let lap = |r: &RacelineResult| r.line(LineKind::Mintime).map(|l| l.lap_time_s);
    let dlap = (lap(a).unwrap_or(0.0) - lap(b).unwrap_or(0.0)).abs();
    let what = if polished > TOL_M {
        Some(format!("IQP/SP waypoints {polished:e} m apart"))
    } else if mintime > TOL_MINTIME_M {
        Some(format!("min-time waypoints {mintime:e} m apart"))
    } else if dlap > TOL_MINTIME_S {
        Some(format!("min-time laps {dlap:e} s apart"))
    } else {
        None
    };
    (what, polished, mintime)
}

fn assert_same(track: &str, cl: &[Waypoint], walls: Option<&Walls>, params: &RacelineParams) {
    let c = run(cl, walls, params, QpSolver::Clarabel);
    let b = run(cl, walls, params, QpSolver::Banded);
    let (what, polished, mintime) = compare(&c, &b);
    eprintln!(
        "{track}: banded vs clarabel, largest waypoint gap IQP/SP {polished:.3e} m, min-time {mintime:.3e} m"
    );
    assert!(what.is_none(), "{track}: {}", what.unwrap_or_default());
}

#[test]
fn banded_lines_match_clarabel_on_f() {
    let Some(data) = reference_data_or_skip("banded_lines_match_clarabel_on_f") else {
        return;
    };
    let gw = GlobalWaypoints::read(&data.join("racestack/f/global_waypoints.json")).expect("json");
    let walls = Walls {
        right: gw.right_bound(),
        left: gw.left_bound(),
        obstacles: Vec::new(),
    };
    assert_same(
        "f",
        &gw.centerline.wpnts,
        Some(&walls),
        &RacelineParams::racestack(),
    );
}

#[test]
fn banded_lines_match_clarabel_on_mapzoo_austin() {
    let Some(data) = reference_data_or_skip("banded_lines_match_clarabel_on_mapzoo_austin") else {
        return;
    };
    let path = data.join("mapzoo/Austin/Austin_centerline.csv");
    let cl = mapzoo_format::read_waypoint_csv(&path).expect("centerline csv");
    assert_same("Austin", &cl, None, &RacelineParams::mapzoo());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Generated loops of several sizes and shapes: the banded lines are Clarabel's.
    #[test]
    fn banded_lines_match_clarabel_on_generated_tracks(
        radius in 5.0f64..14.0,
        a2 in 0.0f64..0.25,
        a3 in 0.0f64..0.1,
        phase in 0.0f64..6.0,
        width in 0.8f64..1.6,
    ) {
        let cl = synthetic_track(radius, a2, a3, phase, width);
        let params = RacelineParams::racestack();
        let c = run(&cl, None, &params, QpSolver::Clarabel);
        let b = run(&cl, None, &params, QpSolver::Banded);
        let (what, _, _) = compare(&c, &b);
        prop_assert!(what.is_none(), "{}", what.unwrap_or_default());
    }
}
