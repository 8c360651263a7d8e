//! The banded QP solver against Clarabel (issue 21): the same racing lines, every waypoint
//! within 1e-6 m, on the Race Stack's f, a MapZoo track and generated tracks.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::{compute_lines, LineKind, QpSolver, RacelineParams, RacelineResult, Walls};
use proptest::prelude::*;

use crate::support::synthetic_track;

/// Waypoint tolerance between the two solvers, metres.
const TOL_M: f64 = 1e-6;

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

/// Largest distance between corresponding waypoints of every line (same counts required).
fn max_gap(a: &RacelineResult, b: &RacelineResult) -> Result<f64, String> {
    let mut worst: f64 = 0.0;
    for kind in LineKind::EVERY {
        let (la, lb) = (a.waypoints(kind), b.waypoints(kind));
        if la.len() != lb.len() {
            return Err(format!("{kind:?}: {} vs {} waypoints", la.len(), lb.len()));
        }
        let mut w: f64 = 0.0;
        for (p, q) in la.iter().zip(lb) {
            w = w.max((p.x_m - q.x_m).hypot(p.y_m - q.y_m));
        }
        eprintln!("{kind:?}: {w:e}");
        worst = worst.max(w);
    }
    Ok(worst)
}

fn assert_same(track: &str, cl: &[Waypoint], walls: Option<&Walls>, params: &RacelineParams) {
    let c = run(cl, walls, params, QpSolver::Clarabel);
    let b = run(cl, walls, params, QpSolver::Banded);
    let gap = max_gap(&c, &b).unwrap_or_else(|e| panic!("{track}: {e}"));
    eprintln!("{track}: banded vs clarabel, largest waypoint gap {gap:.3e} m");
    assert!(gap <= TOL_M, "{track}: waypoints {gap:e} m apart");
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
        let gap = max_gap(&c, &b);
        prop_assert!(gap.is_ok(), "{:?}", gap);
        let gap = gap.unwrap();
        prop_assert!(gap <= TOL_M, "waypoints {} m apart", gap);
    }
}
