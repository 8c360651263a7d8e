//! Bad input and bad parameters give typed errors that say where and what to
//! change, never panics (issue 4: infeasible, crossing normals, solver, NaN).

use mapzoo_format::Waypoint;
use mapzoo_raceline::{compute, OptimizeError, RacelineParams, Stage};
use mapzoo_synth::tracks::oval;

#[test]
fn nan_in_the_centerline_is_named() {
    let mut cl = oval(1.2);
    cl[42].d_left = f64::NAN;
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(
            err,
            OptimizeError::NonFinite {
                what: "d_left",
                index: 42,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("d_left") && err.to_string().contains("42"));
}

#[test]
fn nan_in_a_wall_is_named() {
    let cl = oval(1.2);
    let track = mapzoo_raceline::reftrack_from_waypoints(&cl);
    let mut walls = mapzoo_raceline::walls_from_centerline(&track).unwrap();
    walls.left[7][1] = f64::INFINITY;
    let err = compute(&cl, Some(&walls), &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(
            err,
            OptimizeError::NonFinite {
                what: "left wall",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn too_few_points_is_an_error() {
    let cl = oval(1.2)[..2].to_vec();
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(err, OptimizeError::TooFewPoints { found: 2, .. }),
        "{err:?}"
    );
}

#[test]
fn narrow_track_says_where_and_how_narrow() {
    let mut cl = oval(1.2);
    // pinch the track near index 300 only
    for w in &mut cl[290..310] {
        w.d_right = 0.4;
        w.d_left = 0.4;
    }
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    match err {
        OptimizeError::Infeasible {
            x,
            y,
            width,
            safety_width,
            ..
        } => {
            assert_eq!(safety_width, 1.2);
            assert!(width < 1.2, "{width}");
            let p = cl[300];
            assert!(
                (x - p.x_m).hypot(y - p.y_m) < 2.0,
                "reported ({x}, {y}), pinch at ({}, {})",
                p.x_m,
                p.y_m
            );
        }
        other => panic!("expected Infeasible, got {other:?}"),
    }
}

#[test]
fn tight_curvature_limit_names_where_the_line_cannot_straighten() {
    // a 5 m × 8 m oval cannot be driven with curvature ≤ 0.01 1/m
    let params = RacelineParams {
        curvlim: 0.01,
        ..RacelineParams::mapzoo()
    };
    let err = compute(&oval(1.2), None, &params).unwrap_err();
    match err {
        OptimizeError::TooTight {
            stage: Stage::Iqp,
            kappa,
            curvlim,
            room,
            ..
        } => {
            assert!(kappa.abs() > curvlim, "{err:?}");
            // the oval is 2.4 m wide everywhere: 2.4 − 1.2 of room
            assert!((room - 1.2).abs() < 1e-6, "{err:?}");
        }
        ref other => panic!("expected TooTight, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("s = ") && msg.contains("curvlim"), "{msg}");
}

#[test]
fn parameters_are_validated_once_up_front() {
    let bad = [
        RacelineParams {
            safety_width: 0.0,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            v_max: f64::NAN,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            v_max: 100.0,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            dyn_model_exp: 3.0,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            k_reg: 5,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            iqp_iters_min: 0,
            ..RacelineParams::mapzoo()
        },
        RacelineParams {
            ggv: vec![[0.0, 12.0, 12.0], [0.0, 12.0, 12.0]],
            ..RacelineParams::mapzoo()
        },
    ];
    for p in bad {
        let err = p.validate().unwrap_err();
        assert!(
            matches!(err, OptimizeError::InvalidParameter { .. }),
            "{err:?}"
        );
        assert!(compute(&oval(1.2), None, &p).is_err());
    }
    assert!(RacelineParams::mapzoo().validate().is_ok());
    assert!(RacelineParams::racestack().validate().is_ok());
}

#[test]
fn resampling_steps_have_bounds() {
    type Set = fn(&mut RacelineParams, f64);
    let fields: [(&str, Set); 4] = [
        ("stepsize_prep", |p, v| p.stepsize_prep = v),
        ("stepsize_reg", |p, v| p.stepsize_reg = v),
        ("stepsize_interp_after_opt", |p, v| {
            p.stepsize_interp_after_opt = v
        }),
        ("wall_resample_step", |p, v| p.wall_resample_step = v),
    ];
    for (name, set) in fields {
        for bad in [1e-9, 0.0005, 10.5, 1e6, f64::NAN, f64::INFINITY, -0.1] {
            let mut p = RacelineParams::mapzoo();
            set(&mut p, bad);
            match p.validate() {
                Err(OptimizeError::InvalidParameter { name: n, .. }) => {
                    assert_eq!(n, name, "{name} = {bad}")
                }
                other => panic!("{name} = {bad}: {other:?}"),
            }
        }
        for good in [0.001, 0.05, 10.0] {
            let mut p = RacelineParams::mapzoo();
            set(&mut p, good);
            assert!(p.validate().is_ok(), "{name} = {good}");
        }
    }
}

#[test]
fn far_centerline_point_is_named() {
    let mut cl = oval(1.2);
    cl[100].x_m = 2.0e6;
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(
            err,
            OptimizeError::FarPoint {
                what: "centerline",
                index: 100,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("point 100"), "{err}");
    let mut cl = oval(1.2);
    cl[30].d_right = 5.0e6;
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(
            err,
            OptimizeError::WidthOutOfRange {
                what: "d_right",
                index: 30,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn absurdly_long_lap_is_named() {
    // one point 60 km out: every coordinate is below the 1000 km limit, the lap is ≈ 120 km
    let mut cl = oval(1.2);
    cl[100].x_m = 60_000.0;
    let err = compute(&cl, None, &RacelineParams::mapzoo()).unwrap_err();
    match &err {
        OptimizeError::TooLong {
            what: "centerline",
            index,
            ..
        } => assert!([99, 100].contains(index), "{err}"),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("lap length"), "{err}");
}

#[test]
fn far_wall_point_is_named_and_a_stray_one_is_harmless() {
    let cl = oval(1.2);
    let track = mapzoo_raceline::reftrack_from_waypoints(&cl);
    let walls = mapzoo_raceline::walls_from_centerline(&track).unwrap();
    let mut far = walls.clone();
    far.right[7] = [3.0e6, 0.0];
    let err = compute(&cl, Some(&far), &RacelineParams::mapzoo()).unwrap_err();
    assert!(
        matches!(
            err,
            OptimizeError::FarPoint {
                what: "right wall",
                index: 7,
                ..
            }
        ),
        "{err:?}"
    );
    // a stray point 14 km off (outside the oval) is accepted: the nearest-point grid grows
    // its cell instead of allocating 4·10⁸ cells
    let mut stray = walls.clone();
    let at = stray.right.len() / 8;
    stray.right.insert(at, [10_000.0, 10_000.0]);
    let r = compute(&cl, Some(&stray), &RacelineParams::mapzoo());
    assert!(r.is_ok(), "{:?}", r.err());
}

#[test]
fn sampling_that_would_need_millions_of_points_is_refused() {
    // a 4 km lap: at 1 mm steps the reference line would have 4 million points
    let big: Vec<Waypoint> = oval(1.2)
        .into_iter()
        .map(|w| Waypoint {
            x_m: 100.0 * w.x_m,
            y_m: 100.0 * w.y_m,
            ..w
        })
        .collect();
    for (param, p) in [
        (
            "stepsize_prep",
            RacelineParams {
                stepsize_prep: 0.001,
                ..RacelineParams::mapzoo()
            },
        ),
        (
            "wall_resample_step",
            RacelineParams {
                wall_resample_step: 0.001,
                ..RacelineParams::mapzoo()
            },
        ),
    ] {
        let err = compute(&big, None, &p).unwrap_err();
        assert!(
            matches!(err, OptimizeError::TooManySamples { param: q, .. } if q == param),
            "{param}: {err:?}"
        );
        assert!(err.to_string().contains(param), "{err}");
    }
}

#[test]
fn round_trip_through_serde_keeps_every_field() {
    let p = RacelineParams::racestack();
    let text = toml::to_string(&p).unwrap();
    let back: RacelineParams = toml::from_str(&text).unwrap();
    assert_eq!(back, p);
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Arbitrary point clouds and widths give Ok or a typed error, never a panic.
        #[test]
        fn compute_never_panics(
            pts in prop::collection::vec((-20.0f64..20.0, -20.0f64..20.0, -1.0f64..3.0, -1.0f64..3.0), 0..40),
            sw in 0.1f64..2.0,
        ) {
            let cl: Vec<Waypoint> = pts
                .iter()
                .enumerate()
                .map(|(i, &(x, y, r, l))| Waypoint { id: i as i64, x_m: x, y_m: y, d_right: r, d_left: l, ..Waypoint::default() })
                .collect();
            let params = RacelineParams { safety_width: sw, safety_width_sp: sw, ..RacelineParams::mapzoo() };
            let _ = compute(&cl, None, &params);
        }

        /// Circles of any size, sampled coarsely or finely, never panic either.
        #[test]
        fn circles_never_panic(radius in 0.05f64..30.0, n in 3usize..400, width in 0.0f64..3.0) {
            let cl: Vec<Waypoint> = (0..n)
                .map(|i| {
                    let t = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
                    Waypoint { id: i as i64, x_m: radius * t.cos(), y_m: radius * t.sin(), d_right: width, d_left: width, ..Waypoint::default() }
                })
                .collect();
            let _ = compute(&cl, None, &RacelineParams::racestack());
        }
    }
}

/// Shifting a tight circle inwards past its centre folds the line: the error says where,
/// to which side and by how much.
#[test]
fn folding_line_is_reported_with_its_place() {
    use mapzoo_raceline::reference::check_folds;
    use mapzoo_raceline::{ClosedSpline, RefTrack};
    let n = 40;
    let xy: Vec<[f64; 2]> = (0..n)
        .map(|i| {
            let t = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            [t.cos(), t.sin()]
        })
        .collect();
    let rt = RefTrack {
        xy: xy.clone(),
        w_right: vec![2.0; n],
        w_left: vec![2.0; n],
    };
    let normals = ClosedSpline::through_scaled(&xy).unwrap().normals();
    // counter-clockwise: right is outwards, so a shift of −1.5 m crosses the centre
    let mut alpha = vec![0.0; n];
    assert!(check_folds(&rt, &normals, &alpha, Stage::Iqp).is_ok());
    alpha[10] = -1.5;
    alpha[11] = -1.5;
    let err = check_folds(&rt, &normals, &alpha, Stage::Iqp).unwrap_err();
    match &err {
        OptimizeError::CrossingNormals {
            side,
            distance,
            x,
            y,
            ..
        } => {
            assert_eq!(*side, "left");
            assert!((distance - 1.5).abs() < 1e-12);
            assert!(x.hypot(*y) > 0.99);
        }
        other => panic!("expected CrossingNormals, got {other:?}"),
    }
    assert!(err.to_string().contains("s_reg"), "{err}");
}
