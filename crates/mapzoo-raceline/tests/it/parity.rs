//! Parity with the published lap times (issue 4 acceptance): Race Stack f and
//! hangar from their global_waypoints.json (centerline, widths, walls), MapZoo
//! Austin, IMS, berlin and overtake_map from their centerline CSVs (walls
//! rebuilt from the widths). The Python reference (TUM tph 0.79) gives the
//! published IQP figures exactly from these inputs, so the IQP is checked to
//! the published 4 decimals as well as to the acceptance tolerances.
//! Skipped with a notice when ../shared/data is absent.

use std::path::{Path, PathBuf};

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::{compute, LineKind, RacelineParams, RacelineResult, Walls};

/// Published figures of one track.
pub(crate) struct Published {
    pub iqp_lap: f64,
    pub iqp_vmax: f64,
    pub sp_lap: f64,
    pub sp_vmax: f64,
}

pub(crate) fn racestack_input(dir: &Path) -> (Vec<Waypoint>, Walls, Published) {
    let gw = GlobalWaypoints::read(&dir.join("global_waypoints.json")).expect("read json");
    let info = &gw.map_info;
    let published = Published {
        iqp_lap: info.iqp_lap_time_s.expect("iqp lap"),
        iqp_vmax: info.iqp_max_speed_mps.expect("iqp vmax"),
        sp_lap: info.sp_lap_time_s.expect("sp lap"),
        sp_vmax: info.sp_max_speed_mps.expect("sp vmax"),
    };
    let walls = Walls {
        right: gw.right_bound(),
        left: gw.left_bound(),
        obstacles: Vec::new(),
    };
    (gw.centerline.wpnts.clone(), walls, published)
}

pub(crate) fn published_csv(data: &Path, track: &str) -> Published {
    let text = std::fs::read_to_string(data.join("mapzoo/published.csv")).expect("published.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column");
    let row: Vec<&str> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[0] == track)
        .expect("track row");
    let v = |name: &str| row[col(name)].parse::<f64>().expect("number");
    Published {
        iqp_lap: v("iqp_lap_s"),
        iqp_vmax: v("iqp_vmax"),
        sp_lap: v("sp_lap_s"),
        sp_vmax: v("sp_vmax"),
    }
}

pub(crate) fn mapzoo_centerline(data: &Path, track: &str) -> (PathBuf, Vec<Waypoint>) {
    let path = data.join(format!("mapzoo/{track}/{track}_centerline.csv"));
    let cl = mapzoo_format::read_waypoint_csv(&path).expect("centerline csv");
    (path, cl)
}

fn rel(ours: f64, published: f64) -> f64 {
    (ours - published).abs() / published
}

fn report(track: &str, r: &RacelineResult, p: &Published) {
    eprintln!(
        "{track:>13} | IQP {:.4} s (pub {:.4}) {:.4} m/s (pub {:.4}) {} pts | SP {:.4} s (pub {:.4}) {:.4} m/s (pub {:.4}) {} pts",
        r[LineKind::Iqp].lap_time_s,
        p.iqp_lap,
        r[LineKind::Iqp].v_max,
        p.iqp_vmax,
        r[LineKind::Iqp].waypoints.len(),
        r[LineKind::Sp].lap_time_s,
        p.sp_lap,
        r[LineKind::Sp].v_max,
        p.sp_vmax,
        r[LineKind::Sp].waypoints.len()
    );
}

/// IQP figures equal to the published 4 decimals (the reference reproduces them exactly).
fn assert_iqp_exact(track: &str, r: &RacelineResult, p: &Published) {
    assert!(
        (r[LineKind::Iqp].lap_time_s - p.iqp_lap).abs() <= 0.5e-4 + 1e-9,
        "{track}: IQP lap {} vs published {}",
        r[LineKind::Iqp].lap_time_s,
        p.iqp_lap
    );
    assert!(
        (r[LineKind::Iqp].v_max - p.iqp_vmax).abs() <= 0.5e-4 + 1e-9,
        "{track}: IQP vmax {} vs published {}",
        r[LineKind::Iqp].v_max,
        p.iqp_vmax
    );
}

/// Closed trajectories: last row repeats the first with s = lap length, psi in (−π, π].
fn assert_closed(track: &str, wp: &[Waypoint], length: f64) {
    let (first, last) = (wp[0], wp[wp.len() - 1]);
    assert_eq!((first.x_m, first.y_m), (last.x_m, last.y_m), "{track}");
    assert_eq!(last.s_m, length, "{track}");
    assert_eq!(last.id as usize, wp.len() - 1, "{track}");
    for w in wp {
        assert!(w.psi_rad > -std::f64::consts::PI && w.psi_rad <= std::f64::consts::PI);
    }
}

/// Report how close the racing line (the IQP) comes to a wall. The QP bounds α along the
/// reference normals with the prepped widths, so the nearest-wall distance can dip below half
/// the safety width where those widths are approximate (the Python reference does the same);
/// the property itself is tested on exact synthetic tracks in tests/properties.rs.
fn report_wall_clearance(track: &str, wp: &[Waypoint], safety_width: f64) {
    let closest = wp
        .iter()
        .map(|w| w.d_right.min(w.d_left))
        .fold(f64::INFINITY, f64::min);
    eprintln!(
        "{track}: closest IQP point to a wall {closest:.4} m (half safety width {:.2})",
        safety_width / 2.0
    );
    assert!(closest > 0.0, "{track}: the racing line touches a wall");
}

#[test]
fn racestack_f_matches_published() {
    let Some(data) = reference_data_or_skip("racestack_f_matches_published") else {
        return;
    };
    let (cl, walls, p) = racestack_input(&data.join("racestack/f"));
    let r = compute(&cl, Some(&walls), &RacelineParams::racestack()).expect("compute f");
    report("f", &r, &p);
    assert!(rel(r[LineKind::Iqp].lap_time_s, p.iqp_lap) < 1e-3);
    assert!(rel(r[LineKind::Sp].lap_time_s, p.sp_lap) < 1e-3);
    assert!(rel(r[LineKind::Iqp].v_max, p.iqp_vmax) < 1e-3);
    assert!(rel(r[LineKind::Sp].v_max, p.sp_vmax) < 1e-3);
    assert!(
        r[LineKind::Iqp].waypoints.len().abs_diff(766) <= 1,
        "{}",
        r[LineKind::Iqp].waypoints.len()
    );
    assert!(
        r[LineKind::Sp].waypoints.len().abs_diff(717) <= 1,
        "{}",
        r[LineKind::Sp].waypoints.len()
    );
    assert_iqp_exact("f", &r, &p);
    assert!((r[LineKind::Sp].lap_time_s - p.sp_lap).abs() <= 0.5e-4 + 1e-9);
    assert_closed("f", &r[LineKind::Iqp].waypoints, r[LineKind::Iqp].length_m);
    assert_closed("f", &r[LineKind::Sp].waypoints, r[LineKind::Sp].length_m);
    report_wall_clearance("f", &r[LineKind::Iqp].waypoints, 0.7);
}

#[test]
fn racestack_hangar_matches_published_iqp() {
    let Some(data) = reference_data_or_skip("racestack_hangar_matches_published_iqp") else {
        return;
    };
    let (cl, walls, p) = racestack_input(&data.join("racestack/hangar"));
    let mut params = RacelineParams::racestack();
    params.safety_width = 1.0;
    params.safety_width_sp = 1.0;
    let r = compute(&cl, Some(&walls), &params).expect("compute hangar");
    report("hangar", &r, &p);
    assert!(rel(r[LineKind::Iqp].lap_time_s, p.iqp_lap) < 2e-3);
    assert!(rel(r[LineKind::Iqp].v_max, p.iqp_vmax) < 2e-3);
    assert!(
        r[LineKind::Iqp].waypoints.len().abs_diff(396) <= 1,
        "{}",
        r[LineKind::Iqp].waypoints.len()
    );
    assert_iqp_exact("hangar", &r, &p);
    report_wall_clearance("hangar", &r[LineKind::Iqp].waypoints, 1.0);
    // the published SP came from an older pipeline: reported, not compared
    eprintln!(
        "hangar SP (ours): {:.4} s, {:.4} m/s, {} points; warnings: {:?}",
        r[LineKind::Sp].lap_time_s,
        r[LineKind::Sp].v_max,
        r[LineKind::Sp].waypoints.len(),
        r.warnings
    );
}

fn mapzoo_track(track: &str, iqp_points: Option<usize>) {
    let Some(data) = reference_data_or_skip(&format!("mapzoo_{track}")) else {
        return;
    };
    let (_, cl) = mapzoo_centerline(&data, track);
    let p = published_csv(&data, track);
    let r = compute(&cl, None, &RacelineParams::mapzoo()).expect("compute");
    report(track, &r, &p);
    assert!(
        rel(r[LineKind::Iqp].lap_time_s, p.iqp_lap) < 3e-3,
        "{track}"
    );
    assert!(rel(r[LineKind::Iqp].v_max, p.iqp_vmax) < 3e-3, "{track}");
    if let Some(n) = iqp_points {
        assert!(
            r[LineKind::Iqp].waypoints.len().abs_diff(n) <= 3,
            "{track}: {} points",
            r[LineKind::Iqp].waypoints.len()
        );
    }
    assert_iqp_exact(track, &r, &p);
    report_wall_clearance(track, &r[LineKind::Iqp].waypoints, 1.2);
    assert!(
        rel(r[LineKind::Sp].lap_time_s, p.sp_lap) < 0.02,
        "{track}: SP {} vs {}",
        r[LineKind::Sp].lap_time_s,
        p.sp_lap
    );
    assert_closed(
        track,
        &r[LineKind::Iqp].waypoints,
        r[LineKind::Iqp].length_m,
    );
    assert_closed(track, &r[LineKind::Sp].waypoints, r[LineKind::Sp].length_m);
}

#[test]
fn mapzoo_austin_matches_published() {
    mapzoo_track("Austin", Some(1436));
}

#[test]
fn mapzoo_ims_matches_published() {
    mapzoo_track("IMS", Some(1393));
}

#[test]
fn mapzoo_berlin_matches_published() {
    mapzoo_track("berlin", None);
}

#[test]
fn mapzoo_overtake_map_matches_published() {
    mapzoo_track("overtake_map", None);
}

#[test]
fn austin_iqp_line_follows_published_racing_line() {
    let Some(data) = reference_data_or_skip("austin_iqp_line_follows_published_racing_line") else {
        return;
    };
    let (_, cl) = mapzoo_centerline(&data, "Austin");
    let published =
        mapzoo_format::read_waypoint_csv(&data.join("mapzoo/Austin/Austin_racing_line.csv"))
            .expect("racing line");
    let r = compute(&cl, None, &RacelineParams::mapzoo()).expect("compute");
    assert_eq!(r[LineKind::Iqp].waypoints.len(), published.len());
    let mut worst: f64 = 0.0;
    for (a, b) in r[LineKind::Iqp].waypoints.iter().zip(&published) {
        worst = worst.max((a.x_m - b.x_m).hypot(a.y_m - b.y_m));
        assert!((a.vx_mps - b.vx_mps).abs() < 1e-3, "{a:?} vs {b:?}");
    }
    assert!(worst < 1e-3, "max point distance {worst} m");
}
