//! A failed run says what would build (issue 11, item 7): the narrowest point
//! of the whole loop, and a safety width or curvature limit that was run and
//! built, the next step of which does not.

use mapzoo_format::Waypoint;
use mapzoo_raceline::{compute, OptimizeError, RacelineParams};
use mapzoo_synth::tracks::oval;

/// The oval with two pinches: `first` wide at index 100, `second` wide at index 300.
fn pinched(first: f64, second: f64) -> Vec<Waypoint> {
    let mut cl = oval(1.2);
    for (range, width) in [(95..105, first), (295..305, second)] {
        for w in &mut cl[range] {
            w.d_right = width / 2.0;
            w.d_left = width / 2.0;
        }
    }
    cl
}

fn with_widths(w: f64) -> RacelineParams {
    RacelineParams {
        safety_width: w,
        safety_width_sp: w,
        ..RacelineParams::mapzoo()
    }
}

#[test]
fn too_narrow_names_the_narrowest_point_not_the_first() {
    // Both pinches are narrower than the safety width 1.2 m; the second is narrower.
    let cl = pinched(1.0, 0.8);
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    let OptimizeError::Infeasible {
        x,
        y,
        width,
        ref remedy,
        ..
    } = err
    else {
        panic!("expected too narrow, got {err:?}");
    };
    let p = cl[300];
    assert!(
        (x - p.x_m).hypot(y - p.y_m) < 2.0,
        "named ({x:.2}, {y:.2}), the narrowest pinch is at ({:.2}, {:.2})",
        p.x_m,
        p.y_m
    );
    assert!((width - 0.8).abs() < 0.05, "width {width}");
    // The width named builds, 0.01 m more does not.
    let w = remedy.safety_width.expect("a safety width that builds");
    assert_eq!(remedy.safety_width_sp, Some(w));
    assert!(
        w <= width + 1e-9,
        "suggested {w} above the narrowest width {width}"
    );
    compute(&cl, None, &with_widths(w)).unwrap();
    assert!(compute(&cl, None, &with_widths(w + 0.01)).is_err());
    let msg = err.to_string();
    assert!(
        msg.contains("narrowest point") && msg.contains(&format!("{w:.2} m")),
        "{msg}"
    );
    assert_eq!(
        err.hint(),
        Some(mapzoo_format::Hint::SafetyWidths { iqp: w, sp: w })
    );
}

#[test]
fn too_tight_names_a_curvature_limit_that_builds() {
    let params = RacelineParams {
        curvlim: 0.01,
        ..RacelineParams::mapzoo()
    };
    let cl = oval(1.2);
    let err = compute(&cl, None, &params).unwrap_err();
    let OptimizeError::TooTight { ref remedy, .. } = err else {
        panic!("expected too tight, got {err:?}");
    };
    let c = remedy.curvlim.expect("a curvature limit that builds");
    let at = |curvlim: f64| {
        compute(
            &cl,
            None,
            &RacelineParams {
                curvlim,
                ..params.clone()
            },
        )
    };
    at(c).unwrap();
    assert!(at(c - 0.05).is_err(), "{c} − 0.05 builds too");
    assert!(
        err.to_string().contains(&format!("curvlim = {c:.2}")),
        "{err}"
    );
}
