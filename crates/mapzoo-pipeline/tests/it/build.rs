//! `build`: the whole pipeline against the published sets (issue 5
//! acceptance: parity, validation, layout) and on generated maps
//! (determinism, default sector files).

use mapzoo_format::global::JsonSection;
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::validate_dir;
use mapzoo_format::{
    read_waypoint_csv, Flavor, FreeRule, GlobalWaypoints, OtSectors, SpeedScaling,
};
use mapzoo_pipeline::{
    build, build_for_writing, read_published_csv, write_set, BuildRequest, Config, Overrides,
    Profile,
};
use mapzoo_raceline::LineKind;

use crate::support::*;

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
    let table = read_published_csv(&data.join("mapzoo/published.csv")).unwrap();
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
    // The nine files of DESIGN §2 and mapzoo.toml, the record of how the set was built.
    assert_eq!(
        fa.len(),
        10,
        "the set has {:?}",
        fa.keys().collect::<Vec<_>>()
    );
}

/// A set built for writing has its files encoded while it is built; what it writes is byte
/// for byte what a plain build writes, in both flavours and whichever line is driven (the
/// driven line fills the JSON's IQP slot, so the IQP line's section encoded ahead is stale).
#[test]
fn building_for_writing_writes_the_bytes_of_a_plain_build() {
    let tmp = tempfile::tempdir().unwrap();
    let req = BuildRequest {
        yaml: generated_map(tmp.path(), 11),
        name: Some("t".into()),
        start: None,
        reverse: false,
    };
    let drive_sp = Config {
        lines: mapzoo_pipeline::LineConfig::new(&LineKind::ALL, LineKind::Sp),
        ..Config::default()
    };
    let cases = [
        (Flavor::Ros1, Config::default()),
        (Flavor::Ros2, Config::default()),
        (Flavor::Ros2, drive_sp),
    ];
    for (i, (flavor, config)) in cases.into_iter().enumerate() {
        let ahead = build_for_writing(&req, &config, flavor).unwrap();
        let sections = ahead.ahead.global().sections();
        for s in [
            JsonSection::Centerline,
            JsonSection::Trackbounds,
            JsonSection::Line(LineKind::Iqp),
        ] {
            assert!(
                sections.contains(&s),
                "{s:?} not encoded ahead: {sections:?}"
            );
        }
        let mut plain = build(&req, &config).unwrap();
        plain.settings.flavor = flavor;
        assert!(plain.ahead.global().sections().is_empty());
        let a = write_set(&ahead, &tmp.path().join(format!("a{i}")), false).unwrap();
        let b = write_set(&plain, &tmp.path().join(format!("b{i}")), false).unwrap();
        let (fa, fb) = (files(&a), files(&b));
        assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
        for (name, bytes) in &fa {
            assert!(bytes == &fb[name], "{flavor} case {i}: {name} differs");
        }
    }
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
