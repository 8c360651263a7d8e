//! The track shape: the random loop (evenly spaced, never touching itself) and given centerlines with their widths.

use mapzoo_synth::{generate, CenterlineSpec, Side, SpurSpec, SynthOptions, FREE, OCCUPIED};
use proptest::prelude::*;

use crate::support::{opts, px};

#[test]
fn truth_centerline_is_evenly_spaced_and_starts_at_the_origin() {
    let map = generate(&opts(9)).expect("generate");
    let t = &map.truth;
    let p0 = t.centerline[0];
    assert!(p0.x.abs() < 1e-9 && p0.y.abs() < 1e-9 && p0.psi.abs() < 1e-9);
    assert!(t.counter_clockwise);
    assert!((t.lap_length - 50.0).abs() < 1e-9);
    let n = t.centerline.len();
    assert_eq!(n, 500);
    let mut total = 0.0;
    for i in 0..n {
        let (a, b) = (&t.centerline[i], &t.centerline[(i + 1) % n]);
        let d = (b.x - a.x).hypot(b.y - a.y);
        assert!((d - 0.1).abs() < 2e-3, "spacing {d} at {i}");
        total += d;
        assert!(a.width() >= 1.6 - 1e-9 && a.width() <= 3.0 + 1e-9);
    }
    // The polyline is a chord approximation of the true curve: slightly shorter.
    assert!(total <= 50.0 && total > 49.99, "{total}");
    // Headings follow the polyline, curvature integrates to one full turn.
    let turn: f64 = t.centerline.iter().map(|p| p.kappa * 0.1).sum();
    assert!((turn - std::f64::consts::TAU).abs() < 0.01, "{turn}");
}

/// A given clockwise circle with per-point widths: the widths are honoured
/// and "outer" resolves to the left of the driving direction.
#[test]
fn given_clockwise_centerline_with_widths() {
    let n = 240;
    let (points, widths): (Vec<[f64; 2]>, Vec<f64>) = (0..n)
        .map(|i| {
            let a = -std::f64::consts::TAU * i as f64 / n as f64;
            (
                [10.0 * a.cos(), 10.0 * a.sin()],
                2.0 + 0.4 * (3.0 * a).cos(),
            )
        })
        .unzip();
    let o = SynthOptions {
        centerline: CenterlineSpec::Points {
            points: points.clone(),
            widths: Some(widths.clone()),
        },
        resolution: 0.05,
        spurs: vec![SpurSpec {
            s: 3.0,
            side: Side::Outer,
            length: 1.0,
            width: 0.3,
            angle: 0.0,
        }],
        ..SynthOptions::default()
    };
    let map = generate(&o).expect("generate");
    let t = &map.truth;
    assert!(!t.counter_clockwise);
    assert_eq!(t.spurs[0].side, Side::Left);
    let tip = t.spurs[0].tip;
    assert!(
        tip[0].hypot(tip[1]) > 11.0,
        "the spur points away from the infield"
    );
    let res = map.meta.resolution;
    for i in (0..n).step_by(7) {
        let [x, y] = points[i];
        let r = x.hypot(y);
        let (ux, uy) = (x / r, y / r);
        for (off, want) in [
            (widths[i] / 2.0 - 1.5 * res, FREE),
            (widths[i] / 2.0 + 1.5 * res, OCCUPIED),
            (-widths[i] / 2.0 + 1.5 * res, FREE),
            (-widths[i] / 2.0 - 1.5 * res, OCCUPIED),
        ] {
            let (c, rr) = px(&map, x + ux * off, y + uy * off);
            assert_eq!(map.pixel(c, rr), Some(want), "point {i}, offset {off:.3}");
        }
    }
    let (c, r) = px(&map, 0.0, 0.0);
    assert_eq!(map.pixel(c, r), Some(OCCUPIED), "the infield");
    let bad = SynthOptions {
        centerline: CenterlineSpec::Points {
            points,
            widths: Some(widths[1..].to_vec()),
        },
        ..SynthOptions::default()
    };
    assert!(generate(&bad)
        .unwrap_err()
        .to_string()
        .contains("centerline.widths"));
}

/// Whether segments p1p2 and q1q2 properly intersect.
fn segments_cross(p1: [f64; 2], p2: [f64; 2], q1: [f64; 2], q2: [f64; 2]) -> bool {
    let orient = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    };
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random loops never self-intersect, and parts that are not neighbours
    /// along the lap stay more than a track width apart.
    #[test]
    fn random_centerlines_never_touch_themselves(seed in any::<u64>()) {
        let o = SynthOptions { seed, ..SynthOptions::default() };
        let map = generate(&o).expect("generate");
        let pts = &map.truth.centerline;
        let lap = map.truth.lap_length;
        prop_assert!((40.0..=150.0).contains(&lap));
        let n = pts.len();
        let w_max = pts.iter().map(|p| p.width()).fold(0.0, f64::max);
        for i in 0..n {
            for j in i + 1..n {
                let ds = (pts[j].s - pts[i].s).abs();
                if ds.min(lap - ds) <= std::f64::consts::PI * w_max {
                    continue;
                }
                let d = (pts[i].x - pts[j].x).hypot(pts[i].y - pts[j].y);
                prop_assert!(d > (pts[i].width() + pts[j].width()) / 2.0,
                    "points {} and {} are {:.3} m apart", i, j, d);
            }
        }
        let seg = |i: usize| ([pts[i].x, pts[i].y], [pts[(i + 1) % n].x, pts[(i + 1) % n].y]);
        for i in (0..n).step_by(3) {
            for j in i + 2..n {
                if (j + 1) % n == i { continue; }
                let ((a, b), (c, d)) = (seg(i), seg(j));
                prop_assert!(!segments_cross(a, b, c, d), "segments {} and {} cross", i, j);
            }
        }
    }
}
