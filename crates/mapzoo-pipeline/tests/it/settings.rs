//! The settings a set records (`mapzoo.toml`) and what `regen`, `check` and `update_set`
//! make of them.

use mapzoo_format::set::{SetRecord, SETTINGS_FILE};
use mapzoo_format::{FreeRule, SpeedScaling};
use mapzoo_pipeline::{
    build, check, read_settings, regen, update_set, BuildRequest, CheckOptions, Config,
    ConfigChoice, Overrides, Profile, SettingsSource,
};
use mapzoo_raceline::LineKind;

use crate::support::*;

fn racestack_config() -> Config {
    let mut c = Config::for_profile(Profile::Racestack);
    c.map.free_rule = FreeRule::Nonzero;
    c.raceline.safety_width = 0.9;
    c
}

/// What the build recorded is what a rebuild without overrides uses, exactly.
#[test]
fn regen_uses_the_recorded_settings_unless_given_others() {
    let tmp = tempfile::tempdir().unwrap();
    let config = racestack_config();
    let (set, dir) = built_generated_set(tmp.path(), 21, &config);
    let recorded = read_settings(&dir)
        .unwrap()
        .expect("a built set has mapzoo.toml");
    assert_eq!(recorded.config, config);
    let report = regen(&dir, ConfigChoice::default(), false).unwrap();
    assert_eq!(report.settings, SettingsSource::Recorded);
    assert_eq!(report.iqp_lap_s.1, set.lines[LineKind::Iqp].lap_time_s);
    assert_eq!(report.sp_lap_s.1, set.lines[LineKind::Sp].lap_time_s);
    // A given configuration wins and becomes the record.
    let report = regen(&dir, Config::default(), false).unwrap();
    assert_eq!(report.settings, SettingsSource::Given);
    assert_ne!(report.iqp_lap_s.1, set.lines[LineKind::Iqp].lap_time_s);
    assert_eq!(
        read_settings(&dir).unwrap().unwrap().config,
        Config::default()
    );
    // A single override on top of the record.
    let o = Overrides {
        safety_width: Some(1.0),
        ..Overrides::default()
    };
    regen(&dir, ConfigChoice::Recorded(o), false).unwrap();
    let c = read_settings(&dir).unwrap().unwrap().config;
    assert_eq!(c.raceline.safety_width, 1.0);
    assert_eq!(c.profile, Profile::Mapzoo);
}

/// The record's checksums list every other file of the set, and match them.
#[test]
fn the_record_lists_every_file_it_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir) = built_generated_set(tmp.path(), 22, &Config::default());
    let record = SetRecord::read(&dir.join(SETTINGS_FILE)).unwrap();
    let on_disk = files(&dir);
    assert_eq!(record.track, "t");
    assert_eq!(record.files.len() + 1, on_disk.len());
    for (name, bytes) in &on_disk {
        if name != SETTINGS_FILE {
            assert!(!record.edited(name, bytes), "{name}");
        }
    }
}

/// `check` of a set against itself passes with its recorded settings and fails with others.
#[test]
fn check_reads_the_record() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir) = built_generated_set(tmp.path(), 23, &racestack_config());
    let opts = CheckOptions {
        from_centerline: false,
        lap_tol: 1e-4, // the published lap times are rounded to 4 decimals
        published: Vec::new(),
        infer: true,
    };
    let r = check(&dir, ConfigChoice::default(), &opts).unwrap();
    assert!(r.pass, "{r:?}");
    assert_eq!(r.settings, SettingsSource::Recorded);
    // a set that matches needs no search
    assert!(r.inference.is_none(), "{r:?}");
    let r = check(&dir, Config::default(), &opts).unwrap();
    assert!(!r.pass && !r.explanations.is_empty(), "{r:?}");
    // at the default 1.2 / 1.2 m it differs: the search finds the widths it was built with
    let inf = r.inference.as_ref().expect("searched");
    let best = inf.best.as_ref().unwrap();
    assert!(best.exact, "{inf:?}");
    let built = racestack_config().raceline;
    assert_eq!(
        (best.settings.safety_width, best.settings.safety_width_sp),
        (built.safety_width, built.safety_width_sp),
        "{inf:?}"
    );
    assert!(
        r.explanations
            .iter()
            .any(|e| e.text.starts_with("reproduced exactly with")
                && e.text.contains("safety_width = 0.9, safety_width_sp = 0.7")),
        "{:?}",
        r.explanations
    );
}

/// `update_set` (build --force) keeps the folder's sector files and other files.
#[test]
fn update_set_keeps_sectors_and_other_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir) = built_generated_set(tmp.path(), 24, &Config::default());
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    speed.global_limit = 0.55;
    speed.write(&speed_path).unwrap();
    std::fs::write(dir.join("notes.md"), "mine").unwrap();
    let req = BuildRequest {
        yaml: tmp.path().join("gen.yaml"),
        name: Some("t".into()),
        start: None,
        reverse: false,
    };
    let mut set = build(&req, &racestack_config()).unwrap();
    let up = update_set(&mut set, tmp.path(), false).unwrap();
    assert_eq!(up.written.kept, ["notes.md"]);
    assert!(!up.sectors.reset);
    assert_eq!(SpeedScaling::read(&speed_path).unwrap().global_limit, 0.55);
    let mut set = build(&req, &racestack_config()).unwrap();
    let up = update_set(&mut set, tmp.path(), true).unwrap();
    assert!(up.sectors.reset);
    assert_eq!(SpeedScaling::read(&speed_path).unwrap().global_limit, 0.7);
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.md")).unwrap(),
        "mine"
    );
}
