//! The whole pipeline against the published sets and on generated maps
//! (issue 5 acceptance): parity, validation, layout, determinism, regen.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::validate_dir;
use mapzoo_format::{read_waypoint_csv, FreeRule, GlobalWaypoints, OtSectors, SpeedScaling};
use mapzoo_pipeline::{build, regen, write_set, BuildRequest, Config, Overrides, Profile};
use mapzoo_raceline::LineKind;
use mapzoo_synth::{self as synth, SynthOptions};
use serde_json::Value;

fn start_of(centerline: &[mapzoo_format::Waypoint]) -> StartPose {
    mapzoo_pipeline::regen::start_pose_of(centerline)
        .expect("a published centerline has two points")
}

fn rel(ours: f64, published: f64) -> f64 {
    (ours - published) / published
}

/// The key skeleton of a JSON value: objects keep their keys in order, arrays their first element.
fn skeleton(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), skeleton(v))).collect())
        }
        Value::Array(a) => Value::Array(a.first().map(skeleton).into_iter().collect()),
        Value::Number(n) if n.is_f64() => Value::String("float".into()),
        Value::Number(_) => Value::String("int".into()),
        Value::String(_) => Value::String("string".into()),
        Value::Bool(_) => Value::String("bool".into()),
        Value::Null => Value::Null,
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn racestack_f_from_its_map_matches_published_lap_times_and_layout() {
    let Some(data) = reference_data_or_skip("racestack_f_from_its_map") else {
        return;
    };
    let dir = data.join("racestack/f");
    let published = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    let config = Config::resolve(
        None,
        &Overrides {
            profile: Some(Profile::Racestack),
            free_rule: Some(FreeRule::Nonzero),
            ..Overrides::default()
        },
    )
    .unwrap();
    let req = BuildRequest {
        yaml: dir.join("f.yaml"),
        name: None,
        start: Some(start_of(&published.centerline.wpnts)),
        reverse: false,
    };
    let set = build(&req, &config).unwrap();
    let out = tempfile::tempdir().unwrap();
    let written = write_set(&set, out.path(), false).unwrap();

    let report = validate_dir(&written);
    let fails: Vec<String> = report.failures().map(|c| c.line()).collect();
    assert!(report.ok, "validate fails: {fails:#?}");

    let info = published.map_info;
    let (iqp, sp) = (info.iqp_lap_time_s.unwrap(), info.sp_lap_time_s.unwrap());
    let r = set.record();
    assert!(
        rel(r[LineKind::Iqp].lap_s, iqp).abs() <= 0.01,
        "IQP {} vs published {iqp}",
        r[LineKind::Iqp].lap_s
    );
    assert!(
        rel(r[LineKind::Sp].lap_s, sp).abs() <= 0.01,
        "SP {} vs published {sp}",
        r[LineKind::Sp].lap_s
    );

    let ours = skeleton(&read_json(&written.join("global_waypoints.json")));
    let theirs = skeleton(&read_json(&dir.join("global_waypoints.json")));
    assert_eq!(
        ours, theirs,
        "key tree, key order or marker fields differ from the published file"
    );
}

#[test]
fn mapzoo_rebuilt_maps_are_within_published_tolerances() {
    let Some(data) = reference_data_or_skip("mapzoo_rebuilt_maps") else {
        return;
    };
    let table =
        mapzoo_pipeline::check::read_published_csv(&data.join("mapzoo/published.csv")).unwrap();
    let config = Config::default();
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    for track in ["Austin", "IMS", "berlin", "overtake_map"] {
        let dir = data.join("mapzoo").join(track);
        let centerline = read_waypoint_csv(&dir.join(format!("{track}_centerline.csv"))).unwrap();
        let req = BuildRequest {
            yaml: dir.join(format!("{track}.yaml")),
            name: None,
            start: Some(start_of(&centerline)),
            reverse: false,
        };
        let r = build(&req, &config).unwrap().record();
        let p = table.iter().find(|row| row.track == track).unwrap();
        let (di, ds) = (
            rel(r[LineKind::Iqp].lap_s, p.iqp_lap_s.unwrap()),
            rel(r[LineKind::Sp].lap_s, p.sp_lap_s.unwrap()),
        );
        lines.push(format!(
            "{track}: IQP {:+.2} %, SP {:+.2} %",
            di * 100.0,
            ds * 100.0
        ));
        if di.abs() > 0.015 {
            failures.push(format!("{track} IQP {:+.2} % (limit 1.5 %)", di * 100.0));
        }
        // berlin's rebuilt map folds at a hairpin; the Python reference is +2.8 % there on SP.
        if track != "berlin" && ds.abs() > 0.02 {
            failures.push(format!("{track} SP {:+.2} % (limit 2 %)", ds * 100.0));
        }
    }
    eprintln!("{}", lines.join("\n"));
    assert!(failures.is_empty(), "{failures:?}");
}

/// Every file of a folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn generated_map(dir: &Path, seed: u64) -> PathBuf {
    let map = synth::generate(&SynthOptions {
        seed,
        centerline: synth::CenterlineSpec::Random {
            lap_length: Some(45.0),
        },
        width: synth::WidthSpec::Constant(3.0),
        ..SynthOptions::default()
    })
    .unwrap();
    let [_, yaml] = map.write(dir, "gen").unwrap();
    yaml
}

/// A generated map built and written as `dir/t/`.
fn built_generated_set(
    dir: &Path,
    seed: u64,
    config: &Config,
) -> (mapzoo_pipeline::TrackSet, PathBuf) {
    let req = BuildRequest {
        yaml: generated_map(dir, seed),
        name: Some("t".into()),
        start: None,
        reverse: false,
    };
    let set = build(&req, config).unwrap();
    let written = write_set(&set, dir, false).unwrap();
    (set, written)
}

#[test]
fn two_builds_give_byte_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = generated_map(tmp.path(), 11);
    let req = BuildRequest {
        yaml,
        name: Some("t".into()),
        start: None,
        reverse: false,
    };
    let config = Config::default();
    let a = write_set(&build(&req, &config).unwrap(), &tmp.path().join("a"), false).unwrap();
    let b = write_set(&build(&req, &config).unwrap(), &tmp.path().join("b"), false).unwrap();
    let (fa, fb) = (files(&a), files(&b));
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (name, bytes) in &fa {
        assert!(bytes == &fb[name], "{name} differs between two builds");
    }
    assert_eq!(
        fa.len(),
        9,
        "the set has {:?}",
        fa.keys().collect::<Vec<_>>()
    );
}

#[test]
fn regen_of_an_unchanged_map_rewrites_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (_, dir) = built_generated_set(tmp.path(), 12, &config);
    let before = files(&dir);
    let report = regen(&dir, &config, false).unwrap();
    assert!(
        !report.sectors_remapped && !report.sectors_reset,
        "{report:?}"
    );
    let after = files(&dir);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &before {
        assert!(
            bytes == &after[name],
            "{name} changed although the map did not"
        );
    }
}

#[test]
fn regen_after_painting_an_obstacle_avoids_it_and_keeps_the_sectors() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (set, dir) = built_generated_set(tmp.path(), 13, &config);
    let n_old = set.lines[LineKind::Iqp].waypoints.len() as i64;

    // Hand-tuned sector files: three speed sectors and two overtaking sectors.
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    let template = speed.sectors[0].clone();
    speed.global_limit = 0.8;
    let cuts = [0, n_old / 3, 2 * n_old / 3, n_old];
    speed.sectors = (0..3)
        .map(|k| mapzoo_format::SpeedSector {
            start: cuts[k],
            end: cuts[k + 1],
            scaling: [0.6, 0.9, 0.75][k],
            only_ftg: k == 1,
            ..template.clone()
        })
        .collect();
    speed.write(&speed_path).unwrap();
    let ot_path = dir.join("ot_sectors.yaml");
    let mut ot = OtSectors::read(&ot_path).unwrap();
    let ot_template = ot.sectors[0].clone();
    ot.sectors = vec![
        mapzoo_format::OtSector {
            start: 0,
            end: n_old / 2,
            ot_flag: false,
            ..ot_template.clone()
        },
        mapzoo_format::OtSector {
            start: n_old / 2,
            end: n_old,
            ot_flag: true,
            ..ot_template
        },
    ];
    ot.write(&ot_path).unwrap();

    // Paint a wall bump into the track where the IQP line runs, as one would in GIMP.
    let png_path = dir.join("t.png");
    let (w, h, mut gray) = mapzoo_format::read_gray_png(&png_path).unwrap();
    let meta = mapzoo_format::MapMeta::read(&dir.join("t.yaml")).unwrap();
    let at = set.lines[LineKind::Iqp].waypoints[set.lines[LineKind::Iqp].waypoints.len() / 4];
    let (pc, pr) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, at.x_m, at.y_m);
    // The disc reaches from the nearer wall over the line: centre on the wall side.
    let (nx, ny) = (-(at.psi_rad.sin()), at.psi_rad.cos()); // left normal
    let toward_left = at.d_left < at.d_right;
    let side = if toward_left { 1.0 } else { -1.0 };
    let wall_gap = if toward_left { at.d_left } else { at.d_right };
    let radius = wall_gap + 0.3;
    let (cx, cy) = (at.x_m + side * nx * wall_gap, at.y_m + side * ny * wall_gap);
    let r_px = radius / meta.resolution;
    let (cc, cr) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, cx, cy);
    for row in 0..h {
        for col in 0..w {
            let d = ((col as f64 - cc).powi(2) + (row as f64 - cr).powi(2)).sqrt();
            if d <= r_px {
                gray[row * w + col] = 0;
            }
        }
    }
    assert_eq!(
        gray[pr.round() as usize * w + pc.round() as usize],
        0,
        "the old line runs through the paint"
    );
    mapzoo_format::write_gray_png(&png_path, w, h, &gray).unwrap();

    let report = regen(&dir, &config, false).unwrap();
    let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    let clear = config.raceline.safety_width / 2.0 - 0.05;
    for (name, line) in [("IQP", &g.iqp.wpnts), ("SP", &g.sp.wpnts)] {
        let nearest = line
            .iter()
            .map(|p| ((p.x_m - cx).powi(2) + (p.y_m - cy).powi(2)).sqrt() - radius)
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest >= clear,
            "{name} passes {nearest:.3} m from the painted wall (want >= {clear:.3})"
        );
    }

    let n_new = g.iqp.wpnts.len() as i64;
    let speed_after = SpeedScaling::read(&speed_path).unwrap();
    let ot_after = OtSectors::read(&ot_path).unwrap();
    assert_eq!(speed_after.global_limit, 0.8);
    let values: Vec<(f64, bool)> = speed_after
        .sectors
        .iter()
        .map(|s| (s.scaling, s.only_ftg))
        .collect();
    assert_eq!(values, vec![(0.6, false), (0.9, true), (0.75, false)]);
    assert_eq!(
        ot_after
            .sectors
            .iter()
            .map(|s| s.ot_flag)
            .collect::<Vec<_>>(),
        vec![false, true]
    );
    assert_eq!(speed_after.sectors.last().unwrap().end, n_new);
    assert_eq!(ot_after.sectors.last().unwrap().end, n_new);
    assert_ne!(
        n_new, n_old,
        "the edit should change the racing line's point count"
    );
    assert!(report.sectors_remapped, "{report:?}");
    let frac = speed_after.sectors[1].start as f64 / n_new as f64;
    assert!(
        (frac - 1.0 / 3.0).abs() < 0.05,
        "sector 1 starts at fraction {frac}"
    );
    speed_after.validate(n_new as usize, &speed_path).unwrap();
    ot_after.validate(n_new as usize, &ot_path).unwrap();
}

#[test]
fn regen_reports_broken_hand_tuned_sectors_instead_of_repairing_them() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (set, dir) = built_generated_set(tmp.path(), 14, &config);
    let n = set.lines[LineKind::Iqp].waypoints.len() as i64;
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    let mut second = speed.sectors[0].clone();
    speed.sectors[0].end = n / 2;
    second.start = n / 3; // overlaps the first sector
    second.end = n;
    speed.sectors.push(second);
    speed.write(&speed_path).unwrap();
    let before = files(&dir);
    let err = regen(&dir, &config, false).unwrap_err().to_string();
    assert!(err.contains("speed_scaling.yaml"), "{err}");
    assert_eq!(
        files(&dir),
        before,
        "a failed regen leaves the set as it was"
    );
}

#[test]
fn new_sets_get_mapzoo_default_sector_files_over_the_whole_racing_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (set, dir) = built_generated_set(tmp.path(), 15, &Config::default());
    let n = set.lines[LineKind::Iqp].waypoints.len() as i64;
    let speed = SpeedScaling::read(&dir.join("speed_scaling.yaml")).unwrap();
    let ot = OtSectors::read(&dir.join("ot_sectors.yaml")).unwrap();
    assert_eq!(speed.global_limit, 0.7);
    assert_eq!(speed.sectors.len(), 1);
    let s = &speed.sectors[0];
    assert_eq!(
        (s.start, s.end, s.scaling, s.only_ftg, s.no_ftg),
        (0, n, 0.7, false, true)
    );
    assert_eq!(
        (ot.yeet_factor, ot.spline_len, ot.ot_sector_begin),
        (1.25, 30, 0.5)
    );
    assert_eq!(ot.sectors.len(), 1);
    let o = &ot.sectors[0];
    assert_eq!((o.start, o.end, o.ot_flag), (0, n, true));
}
