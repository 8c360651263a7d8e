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
