//! Seamless lines (`RacelineParams::seamless`, issue 24): turning the centerline's start by any
//! number of waypoints changes no lap by 0.05 % or more and moves no waypoint of a line more
//! than 1 cm from the other run's line (nearest point on its polyline), on generated tracks
//! and on the Race Stack's f; the reference-exact run does move on f (so the property is not
//! empty). And the SP's difference on MapZoo (issue 24 item 2): from the published Austin IQP
//! line with its published wall distances, the SP stage gives the published SP figures.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::Waypoint;
use mapzoo_raceline::{compute, LineKind, RacelineParams, RacelineResult, RefTrack, Walls};
use proptest::prelude::*;

use crate::parity::{published_csv, racestack_input};
use crate::support::synthetic_track;

/// Distance from `p` to the closed polyline through `line`'s waypoints, metres.
fn distance_to_polyline(p: [f64; 2], line: &[Waypoint]) -> f64 {
    line.windows(2)
        .map(|w| {
            let (a, b) = ([w[0].x_m, w[0].y_m], [w[1].x_m, w[1].y_m]);
            let d = [b[0] - a[0], b[1] - a[1]];
            let len2 = d[0] * d[0] + d[1] * d[1];
            let t = if len2 > 0.0 {
                (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p[0] - a[0] - t * d[0]).hypot(p[1] - a[1] - t * d[1])
        })
        .fold(f64::INFINITY, f64::min)
}

/// Largest distance of a waypoint of `a` from the line `b`, metres.
fn max_gap(a: &[Waypoint], b: &[Waypoint]) -> f64 {
    a.iter()
        .map(|w| distance_to_polyline([w.x_m, w.y_m], b))
        .fold(0.0, f64::max)
}

/// The centerline turned to start `k` waypoints later (ids and arc lengths from the new start).
fn turned(cl: &[Waypoint], k: usize) -> Vec<Waypoint> {
    let mut out = cl.to_vec();
    out.rotate_left(k % cl.len());
    for (i, w) in out.iter_mut().enumerate() {
        w.id = i as i64;
        w.s_m = i as f64 * 0.1;
    }
    out
}

/// The largest relative lap change and waypoint gap over the IQP and SP lines of two runs.
fn difference(a: &RacelineResult, b: &RacelineResult) -> (f64, f64) {
    let mut lap: f64 = 0.0;
    let mut gap: f64 = 0.0;
    for kind in [LineKind::Iqp, LineKind::Sp] {
        let (la, lb) = (&a[kind], &b[kind]);
        lap = lap.max((la.lap_time_s - lb.lap_time_s).abs() / la.lap_time_s);
        gap = gap.max(max_gap(&la.waypoints, &lb.waypoints));
        gap = gap.max(max_gap(&lb.waypoints, &la.waypoints));
    }
    (lap, gap)
}

/// A seamless run's lines begin at the waypoint nearest the centerline's first point.
fn assert_starts_near_first(r: &RacelineResult, cl: &[Waypoint]) {
    for kind in [LineKind::Iqp, LineKind::Sp] {
        let wp = &r[kind].waypoints;
        let d = |w: &Waypoint| (w.x_m - cl[0].x_m).hypot(w.y_m - cl[0].y_m);
        let nearest = wp.iter().map(d).fold(f64::INFINITY, f64::min);
        assert_eq!(
            d(&wp[0]),
            nearest,
            "{kind:?} does not start nearest the start"
        );
        assert_eq!(wp[0].s_m, 0.0);
        assert_eq!(wp.last().map(|w| w.s_m), Some(r[kind].length_m));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn seamless_line_does_not_depend_on_the_start(
        radius in 6.0f64..10.0,
        a2 in 0.0f64..0.2,
        a3 in 0.0f64..0.06,
        phase in 0.0f64..6.0,
        width in 1.2f64..1.6,
        turn in 1usize..100_000,
    ) {
        let cl = synthetic_track(radius, a2, a3, phase, width);
        let params = RacelineParams { seamless: true, ..RacelineParams::mapzoo() };
        let base = compute(&cl, None, &params).unwrap();
        let moved_cl = turned(&cl, turn);
        let moved = compute(&moved_cl, None, &params).unwrap();
        let (lap, gap) = difference(&base, &moved);
        prop_assert!(lap < 5e-4, "lap changed by {:.4} %", lap * 100.0);
        prop_assert!(gap < 0.01, "a waypoint moved {gap} m");
        assert_starts_near_first(&moved, &moved_cl);
    }
}

#[test]
fn seamless_f_does_not_depend_on_the_start() {
    let Some(data) = reference_data_or_skip("seamless_f") else {
        return;
    };
    let (cl, walls, _) = racestack_input(&data.join("racestack/f"));
    let run = |cl: &[Waypoint], seamless: bool, walls: &Walls| {
        let params = RacelineParams {
            seamless,
            ..RacelineParams::racestack()
        };
        compute(cl, Some(walls), &params).expect("compute f")
    };
    let base = run(&cl, true, &walls);
    let exact = run(&cl, false, &walls);
    let mut exact_moves: f64 = 0.0;
    for k in [1, cl.len() / 3, 2 * cl.len() / 3 + 7] {
        let moved_cl = turned(&cl, k);
        let moved = run(&moved_cl, true, &walls);
        let (lap, gap) = difference(&base, &moved);
        println!(
            "f turned by {k}: seamless lap change {:.5} %, gap {gap:.2e} m",
            lap * 100.0
        );
        assert!(
            lap < 5e-4,
            "turned by {k}: lap changed by {:.4} %",
            lap * 100.0
        );
        assert!(gap < 0.01, "turned by {k}: a waypoint moved {gap} m");
        assert_starts_near_first(&moved, &moved_cl);
        let (exact_lap, _) = difference(&exact, &run(&moved_cl, false, &walls));
        exact_moves = exact_moves.max(exact_lap);
    }
    println!(
        "f: reference-exact lap change up to {:.4} %",
        exact_moves * 100.0
    );
    assert!(
        exact_moves >= 5e-4,
        "the reference-exact line should move with the start on f"
    );
}

/// Issue 24 item 2: the SP on MapZoo differs from the published one only by the walls. The
/// published Austin racing line is the IQP line (ours to 1e-7 m) with d_right / d_left measured
/// to the published walls, i.e. exactly the SP's reference as the Race Stack builds it; from
/// it the SP stage gives the published SP lap and top speed.
#[test]
fn austin_sp_from_published_walls_matches_published() {
    let Some(data) = reference_data_or_skip("austin_sp_published_walls") else {
        return;
    };
    let line = mapzoo_format::read_waypoint_csv(&data.join("mapzoo/Austin/Austin_racing_line.csv"))
        .expect("Austin racing line");
    let published = published_csv(&data, "Austin");
    let params = RacelineParams::mapzoo();
    let cent2 = RefTrack {
        xy: line.iter().map(|w| [w.x_m, w.y_m]).collect(),
        w_right: line.iter().map(|w| w.d_right).collect(),
        w_left: line.iter().map(|w| w.d_left).collect(),
    };
    let reference = mapzoo_raceline::prep(&cent2, &params).expect("prep");
    let (normals, alpha) =
        mapzoo_raceline::sp(&reference, params.safety_width_sp, &params).expect("sp");
    let traj = mapzoo_raceline::sample(&reference.xy, &normals, &alpha, 0.1)
        .expect("sample")
        .with_velocity(&params.vehicle());
    println!(
        "Austin SP from the published walls: {:.4} s, {:.4} m/s (published {} s, {} m/s)",
        traj.lap_time,
        traj.v_max(),
        published.sp_lap,
        published.sp_vmax
    );
    assert!((traj.lap_time - published.sp_lap).abs() < 6e-5);
    assert!((traj.v_max() - published.sp_vmax).abs() < 6e-5);
}
