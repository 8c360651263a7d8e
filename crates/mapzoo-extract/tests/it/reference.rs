//! Extraction against published reference data (issue 3 acceptance): the Race
//! Stack maps f, hangar and circle with their published centerlines, and the 18
//! F1TENTH maps with their TUM centerlines. Skipped with a notice where
//! ../shared/data is absent.

use std::path::Path;

use mapzoo_extract::{extract, ExtractParams, Extraction, StartPose};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{read_gray_png, OccupancyMap};
use mapzoo_format::{FreeRule, GlobalWaypoints, MapMeta, Waypoint};
use mapzoo_geom::{closed_length, Norm};

use crate::support::dist_to_loop;

fn mean_dist(from: &[[f64; 2]], to: &[[f64; 2]]) -> f64 {
    from.iter().map(|&p| dist_to_loop(to, p)).sum::<f64>() / from.len() as f64
}

fn xy(w: &[Waypoint]) -> Vec<[f64; 2]> {
    w.iter().map(|p| [p.x_m, p.y_m]).collect()
}

/// Mean free width of `map` across the points `line` (world): twice the distance to the
/// nearest non-free pixel centre, minus one pixel, metres.
fn mean_free_width(map: &OccupancyMap, line: &[[f64; 2]]) -> f64 {
    let reach = (3.0 / map.resolution).ceil() as i64;
    let total: f64 = line
        .iter()
        .map(|p| {
            let (c, r) = map.world_to_pixel(p[0], p[1]);
            let (c, r) = (c.round() as i64, r.round() as i64);
            let mut best = f64::INFINITY;
            for dr in -reach..=reach {
                for dc in -reach..=reach {
                    if !map.is_free(c + dc, r + dr) {
                        best = best.min(((dr * dr + dc * dc) as f64).sqrt());
                    }
                }
            }
            (2.0 * best - 1.0) * map.resolution
        })
        .sum();
    total / line.len() as f64
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

/// Extraction of `map` with default parameters from the start pose of `published`.
fn extract_from_published_start(
    track: &str,
    map: &OccupancyMap,
    published: &[Waypoint],
) -> Extraction {
    extract(
        map,
        &ExtractParams::default(),
        Some(start_of(published)),
        false,
    )
    .unwrap_or_else(|e| panic!("{track}: {e}"))
}

fn racestack_case(data: &Path, track: &str, image: Option<&str>) {
    let dir = data.join("racestack").join(track);
    let yaml = dir.join(format!("{track}.yaml"));
    let meta = MapMeta::read(&yaml).expect("published yaml");
    let png = image.map_or_else(|| meta.image_path(&yaml), |name| dir.join(name));
    let (w, h, gray) = read_gray_png(&png).expect("published png");
    let map = OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::Nonzero);
    let global = GlobalWaypoints::read(&dir.join("global_waypoints.json")).expect("published json");
    let published = global.centerline.wpnts.clone();
    let ex = extract_from_published_start(track, &map, &published);
    let ours = &ex.centerline;
    // The walls are the published bound pixels exactly. hangar's (older) file lists them the
    // other way round from its own d_right / d_left, which ours match.
    let (pr, pl) = (global.right_bound(), global.left_bound());
    let same = |a: &[[f64; 2]], b: &[[f64; 2]]| {
        a.len() == b.len() && mean_dist(a, b) < 1e-6 && mean_dist(b, a) < 1e-6
    };
    let (r, l) = (&ex.right_wall, &ex.left_wall);
    let as_published = same(r, &pr) && same(l, &pl);
    assert!(
        as_published || (same(r, &pl) && same(l, &pr)),
        "{track}: walls ({} / {} points) are not the published bounds ({} / {})",
        r.len(),
        l.len(),
        pr.len(),
        pl.len()
    );
    eprintln!("{track}: walls equal the published bounds, labelled as published: {as_published}");
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
    // Heading and curvature, waypoint by waypoint (the start pose puts our waypoint k at the
    // published one), except the two at each end where the Race Stack differences one-sidedly.
    let (mut dpsi, mut dkappa) = (0.0f64, 0.0f64);
    if ours.len() == published.len() {
        for k in 2..ours.len() - 2 {
            let e = (ours[k].psi_rad - published[k].psi_rad).rem_euclid(std::f64::consts::TAU);
            let e = e.min(std::f64::consts::TAU - e);
            dpsi = dpsi.max(e);
            dkappa = dkappa.max((ours[k].kappa_radpm - published[k].kappa_radpm).abs());
            assert!(
                ours[k].psi_rad >= -std::f64::consts::FRAC_PI_2
                    && ours[k].psi_rad < 1.5 * std::f64::consts::PI,
                "{track}: psi {} outside the Race Stack's range",
                ours[k].psi_rad
            );
        }
    }
    eprintln!(
        "{track}: {} points (published {}), mean distance {d_ours:.5} / {d_pub:.5} m, mean |Δd_right| {dr:.2e} m, |Δd_left| {dl:.2e} m, max |Δpsi| {dpsi:.2e} rad, max |Δkappa| {dkappa:.2e} 1/m, timings {:?}",
        ours.len(),
        published.len(),
        ex.timings
    );
    assert!(
        count_err <= 0.02,
        "{track}: point count off by {:.1} %",
        100.0 * count_err
    );
    assert!(
        d_ours <= 0.05 && d_pub <= 0.05,
        "{track}: mean distance {d_ours} / {d_pub} m"
    );
    assert!(
        dr <= 0.05 && dl <= 0.05,
        "{track}: widths off by {dr} / {dl} m"
    );
    // Beyond the acceptance bounds: the Race Stack's own numbers. f and circle agree to
    // 1e-12; hangar's published file comes from an older Race Stack (no est_lap_time) whose
    // smoothing seam lay elsewhere (against today's tools/pyref it agrees to 1e-8 m).
    assert_eq!(ours.len(), published.len(), "{track}: waypoint count");
    assert!(
        d_ours < 1e-4 && d_pub < 1e-4 && dr < 1e-4 && dl < 1e-4,
        "{track}: positions {d_ours} / {d_pub} m, widths {dr} / {dl} m"
    );
    assert!(
        dpsi < 5e-3 && dkappa < 5e-2,
        "{track}: psi / kappa off by {dpsi} / {dkappa}"
    );
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
        assert!(
            p.values().iter().all(|v| v.is_finite()),
            "{track}: non-finite at {i}"
        );
        assert!(p.d_right > 0.0 && p.d_left > 0.0, "{track}: widths at {i}");
        let q = &c[(i + 1) % n];
        let step = (q.x_m - p.x_m).hypot(q.y_m - p.y_m);
        assert!(
            step <= spacing + 1e-9 && step > 0.5 * spacing,
            "{track}: step {step} at {i}"
        );
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

#[test]
fn f1tenth_maps() {
    let Some(data) = reference_data_or_skip("f1tenth_maps") else {
        return;
    };
    let root = data.join("f1tenth");
    let mut tracks: Vec<String> = std::fs::read_dir(&root)
        .expect("f1tenth folder")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    tracks.sort();
    assert_eq!(tracks.len(), 18, "the 18 F1TENTH maps");
    let mut failures = Vec::new();
    for track in &tracks {
        let dir = root.join(track);
        let yaml = dir.join(format!("{track}_map.yaml"));
        let (_, map) = OccupancyMap::load(&yaml, FreeRule::MapServer).expect("map");
        let published =
            mapzoo_format::read_tum_centerline(&dir.join(format!("{track}_centerline.csv")))
                .expect("centerline");
        let pub_xy: Vec<[f64; 2]> = published.iter().map(|p| [p.x_m, p.y_m]).collect();
        let (a, b) = (pub_xy[0], pub_xy[1]);
        let start = StartPose {
            x: a[0],
            y: a[1],
            yaw: (b[1] - a[1]).atan2(b[0] - a[0]),
        };
        let ex = match extract(&map, &ExtractParams::default(), Some(start), false) {
            Ok(ex) => ex,
            Err(e) => {
                failures.push(format!("{track}: {e}"));
                continue;
            }
        };
        check_invariants(track, &ex, 0.1);
        let ours = xy(&ex.centerline);
        let (len_ours, len_pub) = (
            closed_length(&ours, Norm::Hypot),
            closed_length(&pub_xy, Norm::Hypot),
        );
        let len_err = (len_ours - len_pub).abs() / len_pub;
        let d = mean_dist(&ours, &pub_xy);
        let d_back = mean_dist(&pub_xy, &ours);
        // Widths: the maps are not all drawn 2.2 m wide (their free width runs from 1.3 m on
        // Montreal to 2.5 m on BrandsHatch); the reference is the free width of the PNG itself
        // across the published centerline (2 × distance to the nearest non-free pixel centre
        // − 1 px), against ours + 1 px (our distances end at boundary pixel centres).
        let free_width = mean_free_width(&map, &pub_xy);
        let width = ex
            .centerline
            .iter()
            .map(|p| p.d_right + p.d_left)
            .sum::<f64>()
            / ex.centerline.len() as f64
            + map.resolution;
        eprintln!(
            "{track}: {} points, length {len_ours:.2} m (published {len_pub:.2}), mean distance {d:.4} / {d_back:.4} m, width {width:.3} m (map {free_width:.3} m, nominal 2.2), opening r={} px, {:.3} s",
            ex.centerline.len(),
            ex.opening_radius_px,
            ex.timings.iter().map(|t| t.1).sum::<f64>()
        );
        if len_err > 0.03 || d > 0.25 || d_back > 0.25 || (width - free_width).abs() > 0.15 {
            failures.push(format!(
                "{track}: length off {:.2} %, distance {d:.3} / {d_back:.3} m, width {width:.3} m vs {free_width:.3} m",
                100.0 * len_err
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// MapZoo tracks: their PNGs here are rebuilt from the published centerline ± d_right/d_left
/// (DESIGN §4), so the extraction must come back to that centerline: same count within 2 %,
/// mean distance within two pixels.
#[test]
fn mapzoo_rebuilt_maps() {
    let Some(data) = reference_data_or_skip("mapzoo_rebuilt_maps") else {
        return;
    };
    for track in ["Austin", "IMS", "berlin", "overtake_map"] {
        let dir = data.join("mapzoo").join(track);
        let (_, map) = OccupancyMap::load(&dir.join(format!("{track}.yaml")), FreeRule::MapServer)
            .expect("map");
        let published =
            mapzoo_format::read_waypoint_csv(&dir.join(format!("{track}_centerline.csv")))
                .expect("published centerline");
        let ex = extract_from_published_start(track, &map, &published);
        check_invariants(track, &ex, 0.1);
        let count_err =
            (ex.centerline.len() as f64 - published.len() as f64).abs() / published.len() as f64;
        let d = mean_dist(&xy(&ex.centerline), &xy(&published));
        eprintln!(
            "{track}: {} points (published {}), mean distance {d:.4} m",
            ex.centerline.len(),
            published.len()
        );
        assert!(
            count_err <= 0.02,
            "{track}: count off by {:.1} %",
            100.0 * count_err
        );
        assert!(d <= 2.0 * map.resolution, "{track}: mean distance {d} m");
    }
}
