//! Stages 7–11 end to end ([`mapzoo_raceline::compute`]) on smooth synthetic
//! tracks: clearance from the walls, the SP's own safety width, the walls a
//! result carries.

use mapzoo_raceline::{
    compute, reftrack_from_waypoints, walls_from_centerline, LineKind, RacelineParams, Walls,
};
use proptest::prelude::*;

use crate::support::synthetic_track;

/// Regression: on a smooth ellipse of uniform width most SP shifts sit on their bound; Clarabel
/// stalled there (InsufficientProgress) at the tight tolerances. Found by the clearance property below.
#[test]
fn shortest_path_on_a_uniform_ellipse_is_solved() {
    let cl = synthetic_track(6.0, 0.0, 0.0, 0.0, 1.0);
    let params = RacelineParams {
        safety_width: 0.5,
        safety_width_sp: 0.5,
        ..RacelineParams::mapzoo()
    };
    let r = compute(&cl, None, &params).unwrap();
    assert!(
        r[LineKind::Sp].length_m < r[LineKind::Iqp].length_m,
        "SP {} m is not shorter than IQP {} m",
        r[LineKind::Sp].length_m,
        r[LineKind::Iqp].length_m
    );
    for w in &r[LineKind::Iqp].waypoints {
        assert!(w.d_right.min(w.d_left) >= 0.25 - 0.02, "{w:?}");
    }
    // The SP's α is smoothed after the QP (TUM's 7-point average), so it may cut its bound slightly.
    for w in &r[LineKind::Sp].waypoints {
        assert!(w.d_right.min(w.d_left) > 0.0, "{w:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// No racing-line point closer to a wall than safety_width/2 − 0.02 m.
    #[test]
    fn racing_line_keeps_clear_of_walls(
        radius in 6.0f64..10.0,
        a2 in 0.0f64..0.2,
        a3 in 0.0f64..0.06,
        phase in 0.0f64..6.0,
        width in 1.0f64..1.6,
        safety_width in 0.5f64..1.4,
    ) {
        let cl = synthetic_track(radius, a2, a3, phase, width);
        let params = RacelineParams { safety_width, safety_width_sp: safety_width, ..RacelineParams::mapzoo() };
        let r = compute(&cl, None, &params).unwrap();
        for w in &r[LineKind::Iqp].waypoints {
            prop_assert!(w.d_right.min(w.d_left) >= safety_width / 2.0 - 0.02, "{w:?}");
        }
    }
}

/// With different safety widths the IQP comes from `safety_width` and the SP from a second IQP
/// at `safety_width_sp`: each equals the run with both widths set to that one value.
#[test]
fn sp_width_only_changes_the_sp() {
    let cl = synthetic_track(8.0, 0.15, 0.04, 1.0, 1.4);
    let both = |iqp_w: f64, sp_w: f64| {
        let params = RacelineParams {
            safety_width: iqp_w,
            safety_width_sp: sp_w,
            ..RacelineParams::mapzoo()
        };
        compute(&cl, None, &params).unwrap()
    };
    let mixed = both(0.7, 1.2);
    let narrow = both(0.7, 0.7);
    let wide = both(1.2, 1.2);
    assert_eq!(
        mixed[LineKind::Iqp].waypoints,
        narrow[LineKind::Iqp].waypoints
    );
    assert_eq!(mixed[LineKind::Sp].waypoints, wide[LineKind::Sp].waypoints);
    assert_ne!(
        mixed[LineKind::Iqp].lap_time_s,
        wide[LineKind::Iqp].lap_time_s
    );
}

/// The result carries the walls its widths were measured to: the rebuilt ones without walls,
/// the given ones otherwise (so callers need not rebuild them).
#[test]
fn result_carries_the_walls_used() {
    let cl = synthetic_track(7.0, 0.1, 0.03, 0.5, 1.3);
    let rebuilt = walls_from_centerline(&reftrack_from_waypoints(&cl)).unwrap();
    let params = RacelineParams::mapzoo();
    let r = compute(&cl, None, &params).unwrap();
    assert_eq!(r.walls, rebuilt);
    let given = Walls {
        right: rebuilt.right.iter().step_by(2).copied().collect(),
        left: rebuilt.left.iter().step_by(2).copied().collect(),
        obstacles: Vec::new(),
    };
    assert_eq!(compute(&cl, Some(&given), &params).unwrap().walls, given);
}

/// Regression (issue 25): on a 3 m wide circle of radius 50 or 100 m the SP's interior point
/// stalled (InsufficientProgress) whatever the spacing of the points (1 cm to 10 cm), and the
/// error blamed the width. The shortest path round a circle is its inner bound: radius
/// r − (half width − safety width / 2), whatever the spacing.
#[test]
fn shortest_path_round_a_circle_is_its_inner_bound() {
    let params = RacelineParams::mapzoo();
    let half = 1.5;
    for (r, spacing) in [(50.0, 0.01), (50.0, 0.1), (100.0, 0.1)] {
        let n = (std::f64::consts::TAU * r / spacing).round() as usize;
        let result = compute(&mapzoo_synth::tracks::circle(r, n, half), None, &params)
            .unwrap_or_else(|e| panic!("r {r} m, spacing {spacing} m: {e}"));
        let inner = std::f64::consts::TAU * (r - (half - params.safety_width_sp / 2.0));
        let sp = result[LineKind::Sp].length_m;
        assert!(
            (sp - inner).abs() < 1e-3 * inner,
            "r {r} m, spacing {spacing} m: SP {sp} m, inner bound {inner} m"
        );
        // the knots sit on the bound; the spline between them may cut a few cm inside it
        for w in &result[LineKind::Sp].waypoints {
            let room = w.d_right.min(w.d_left);
            assert!(room >= params.safety_width_sp / 2.0 - 0.05, "{w:?}");
        }
    }
}

/// Issue 25: a run tells its observer the estimated work first, then each IQP iteration in
/// order (1, 2, … up to one whose error is within the allowed), then the SP stage; the work
/// grows with the lap.
#[test]
fn a_run_reports_its_work_and_each_iqp_iteration() {
    use mapzoo_raceline::progress::{observe, Event, Work};
    use std::sync::{Arc, Mutex};
    let params = RacelineParams {
        safety_width: 0.5,
        safety_width_sp: 0.5,
        ..RacelineParams::mapzoo()
    };
    let line = crate::support::synthetic_track(6.0, 0.0, 0.0, 0.0, 1.0);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    observe(
        Arc::new(move |e: &Event| sink.lock().unwrap().push(*e)),
        || compute(&line, None, &params).unwrap(),
    );
    let events = events.lock().unwrap().clone();
    let Some(Event::Estimate(work)) = events.first() else {
        panic!("no estimate first: {events:?}");
    };
    let length: f64 = line
        .windows(2)
        .map(|w| (w[1].x_m - w[0].x_m).hypot(w[1].y_m - w[0].y_m))
        .sum();
    assert_eq!(*work, Work::of(length, &params));
    assert!(work.knots as f64 >= length / params.stepsize_reg);
    assert!(!work.is_long(), "{work:?}");
    let iterations: Vec<(usize, f64)> = events
        .iter()
        .filter_map(|e| match *e {
            Event::IqpIteration {
                iteration,
                max,
                error,
                allowed,
            } => {
                assert_eq!(
                    (max, allowed),
                    (params.iqp_iters_max, params.iqp_curverror_allowed)
                );
                Some((iteration, error))
            }
            _ => None,
        })
        .collect();
    assert!(iterations.len() >= params.iqp_iters_min, "{events:?}");
    for (k, (i, _)) in iterations.iter().enumerate() {
        assert_eq!(*i, k + 1, "{events:?}");
    }
    assert!(iterations.last().unwrap().1 <= params.iqp_curverror_allowed);
    let sp_at = events
        .iter()
        .position(|e| *e == Event::Stage(mapzoo_raceline::Stage::Sp))
        .expect("the SP stage is reported");
    let last_iteration = events
        .iter()
        .rposition(|e| matches!(e, Event::IqpIteration { .. }))
        .unwrap();
    assert!(sp_at > last_iteration, "{events:?}");
    // a 100× longer lap is about 100× the work
    let long = Work::of(100.0 * length, &params);
    assert!(long.knots >= 99 * work.knots && long.seconds > 99.0 * work.seconds);
}

/// A centerline that closes the loop by repeating its first point (as many tools write one)
/// gives the lines of the open loop: the copy is not a point (it used to make the spline
/// system singular: "zero pivot").
#[test]
fn a_closing_copy_of_the_first_point_is_dropped() {
    let open = mapzoo_synth::tracks::oval(1.2);
    let mut closed = open.clone();
    closed.push(open[0]);
    let params = RacelineParams::mapzoo();
    let a = compute(&open, None, &params).unwrap();
    let b = compute(&closed, None, &params).unwrap();
    assert_eq!(a.lines, b.lines);
}

/// On a long track (F1TENTH Sakhir's centerline, ~2,200 knots: degenerate IQP QPs, warm
/// starts whose polish fails) the lines are the same bits whether an IQP QP's cold start runs
/// beside its warm start (a lone thread on a machine of two cores or more) or after it
/// (inside a thread pool, as a batch runs its tracks).
#[test]
fn a_long_track_gives_the_same_lines_with_the_attempts_side_by_side() {
    let Some(data) = mapzoo_format::testdata::reference_data_or_skip(
        "a_long_track_gives_the_same_lines_with_the_attempts_side_by_side",
    ) else {
        return;
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        cores >= 2,
        "two cores are needed to run the attempts side by side ({cores} here)"
    );
    let path = data.join("f1tenth/Sakhir/Sakhir_centerline.csv");
    let centerline = mapzoo_format::read_centerline_any(&path).expect("Sakhir's centerline");
    let params = RacelineParams::mapzoo();
    let alone = compute(&centerline, None, &params).expect("Sakhir builds");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let pooled = pool
        .install(|| compute(&centerline, None, &params))
        .expect("Sakhir builds");
    for kind in LineKind::ALL {
        let bits = |r: &mapzoo_raceline::RacelineResult| -> Vec<[u64; 3]> {
            r[kind]
                .waypoints
                .iter()
                .map(|w| [w.x_m.to_bits(), w.y_m.to_bits(), w.vx_mps.to_bits()])
                .collect()
        };
        assert_eq!(bits(&alone), bits(&pooled), "{kind:?} line");
    }
}
