//! The track-set folder as a hostile user meets it (issue 12, items 3–7 and 9): one test per
//! defect, named after what broke. User files are never lost, stale staging folders are
//! removed, a set remembers how it was built, sector boundaries follow positions, and
//! `validate` checks what a consumer relies on.

use std::path::{Path, PathBuf};
use std::process::Output;

use mapzoo_format::{
    read_gray_png, read_waypoint_csv, write_gray_png, write_waypoint_csv, GlobalWaypoints, MapMeta,
    OtSectors, SpeedScaling,
};

use crate::support::*;

/// A generated map `dir/<name>.yaml` built into `dir/out/<name>/` with `flags`.
fn built(dir: &Path, name: &str, seed: u64, flags: &[&str]) -> PathBuf {
    let yaml = write_map(dir, name, seed);
    let out = dir.join("out");
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .args(flags)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    out.join(name)
}

fn lap_times(dir: &Path) -> (f64, f64) {
    let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    (
        g.map_info.iqp_lap_time_s.unwrap(),
        g.map_info.sp_lap_time_s.unwrap(),
    )
}

fn regen(dir: &Path, flags: &[&str]) -> Output {
    mapzoo().arg("regen").arg(dir).args(flags).output().unwrap()
}

fn validate(dir: &Path) -> (i32, String) {
    let o = mapzoo().arg("validate").arg(dir).output().unwrap();
    (o.status.code().unwrap_or(-1), stdout(&o))
}

/// Three speed sectors and two overtaking sectors over a racing line of `n` points.
fn hand_tune_sectors(dir: &Path, n: i64) {
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    let template = speed.sectors[0].clone();
    let cuts = [0, n / 3, 2 * n / 3, n];
    speed.sectors = (0..3)
        .map(|k| mapzoo_format::SpeedSector {
            start: cuts[k] + i64::from(k > 0),
            end: cuts[k + 1],
            scaling: [0.6, 0.9, 0.75][k],
            ..template.clone()
        })
        .collect();
    speed.write(&speed_path).unwrap();
    let ot_path = dir.join("ot_sectors.yaml");
    let mut ot = OtSectors::read(&ot_path).unwrap();
    let t = ot.sectors[0].clone();
    ot.sectors = vec![
        mapzoo_format::OtSector {
            start: 0,
            end: n / 2,
            ..t.clone()
        },
        mapzoo_format::OtSector {
            start: n / 2,
            end: n,
            ot_flag: !t.ot_flag,
            ..t
        },
    ];
    ot.write(&ot_path).unwrap();
}

fn iqp_points(dir: &Path) -> i64 {
    GlobalWaypoints::read(&dir.join("global_waypoints.json"))
        .unwrap()
        .iqp
        .wpnts
        .len() as i64
}

// ---- item 3: never delete a user's file ----

#[test]
fn regen_deleted_sub_folders_of_a_set() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 31, &[]);
    std::fs::create_dir_all(set.join("notes/deep")).unwrap();
    std::fs::write(set.join("notes/deep/a.txt"), "mine").unwrap();
    std::fs::write(set.join("todo.txt"), "mine too").unwrap();
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(set.join("notes/deep/a.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(set.join("todo.txt")).unwrap(),
        "mine too"
    );
    assert!(
        text(&o).contains("todo.txt"),
        "kept files are named: {}",
        text(&o)
    );
    assert!(hidden(&set).is_empty(), "{:?}", hidden(&set));
}

#[test]
fn build_force_dropped_user_files_and_hand_tuned_sectors() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 32, &[]);
    let n = iqp_points(&set);
    hand_tune_sectors(&set, n);
    std::fs::write(set.join("notes.txt"), "mine").unwrap();
    std::fs::create_dir(set.join("photos")).unwrap();
    let yaml = tmp.path().join("t.yaml");
    let out = tmp.path().join("out");
    // Another safety width: a different line, the same track.
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .args(["--force", "--safety-width", "1.0"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("replaced:"), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(set.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(set.join("photos").is_dir());
    let speed = SpeedScaling::read(&set.join("speed_scaling.yaml")).unwrap();
    let ot = OtSectors::read(&set.join("ot_sectors.yaml")).unwrap();
    let scalings: Vec<f64> = speed.sectors.iter().map(|s| s.scaling).collect();
    assert_eq!(scalings, [0.6, 0.9, 0.75]);
    assert_eq!(ot.sectors.len(), 2);
    let n_new = iqp_points(&set);
    speed
        .validate(n_new as usize, Path::new("speed_scaling.yaml"))
        .unwrap();
    ot.validate(n_new as usize, Path::new("ot_sectors.yaml"))
        .unwrap();
    // Asked for: the defaults.
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .args(["--force", "--force-sectors"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let speed = SpeedScaling::read(&set.join("speed_scaling.yaml")).unwrap();
    assert_eq!(speed.sectors.len(), 1);
    assert_eq!(
        std::fs::read_to_string(set.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn regen_overwrote_an_edited_cent_png() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 33, &[]);
    let cent = set.join("t-cent.png");
    let (w, h, mut gray) = read_gray_png(&cent).unwrap();
    gray[0] = 128;
    write_gray_png(&cent, w, h, &gray).unwrap();
    let edited = std::fs::read(&cent).unwrap();
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(set.join("t-cent.png.bak")).unwrap(), edited);
    assert!(
        text(&o).contains("t-cent.png") && text(&o).contains("t-cent.png.bak"),
        "{}",
        text(&o)
    );
    // Nothing was edited since: the next regen moves nothing aside.
    let o = regen(&set, &[]);
    assert!(!text(&o).contains("was edited"), "{}", text(&o));
}

#[test]
fn regen_overwrote_the_original_map_when_the_yaml_points_at_another_image() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 34, &[]);
    let original = std::fs::read(set.join("t.png")).unwrap();
    let (w, h, mut gray) = read_gray_png(&set.join("t.png")).unwrap();
    // A wall pixel painted onto the track, in a copy the YAML now names.
    let free = gray.iter().position(|&v| v > 250).unwrap();
    gray[free] = 0;
    write_gray_png(&set.join("edited.png"), w, h, &gray).unwrap();
    let yaml = std::fs::read_to_string(set.join("t.yaml")).unwrap();
    std::fs::write(set.join("t.yaml"), yaml.replace("t.png", "edited.png")).unwrap();
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(set.join("t.png.bak")).unwrap(), original);
    assert!(set.join("edited.png").is_file());
    assert!(text(&o).contains("t.png.bak"), "{}", text(&o));
}

#[test]
fn raceline_out_into_an_existing_set_mixed_two_tracks() {
    let tmp = tempfile::tempdir().unwrap();
    let a = built(tmp.path(), "a", 35, &[]);
    let b = built(tmp.path(), "b", 36, &[]);
    let before = names(&a);
    let o = mapzoo()
        .arg("raceline")
        .arg(b.join("b_centerline.csv"))
        .arg("--out")
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("\"a\"") && stderr(&o).contains("mix two tracks"),
        "{}",
        text(&o)
    );
    assert_eq!(names(&a), before);
}

#[test]
fn demo_again_dropped_user_files_in_its_set() {
    let tmp = tempfile::tempdir().unwrap();
    let run_demo = || {
        let o = mapzoo()
            .arg("demo")
            .arg("--out")
            .arg(tmp.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        o
    };
    run_demo();
    let set = tmp.path().join("demo");
    std::fs::write(set.join("notes.txt"), "mine").unwrap();
    let o = run_demo();
    assert_eq!(
        std::fs::read_to_string(set.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(text(&o).contains("notes.txt"), "{}", text(&o));
}

#[test]
fn raceline_out_replaced_files_without_naming_them() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 49, &[]);
    let out = tmp.path().join("lines");
    let run_raceline = |flags: &[&str]| {
        let o = mapzoo()
            .arg("raceline")
            .arg(set.join("t_centerline.csv"))
            .arg("--out")
            .arg(&out)
            .args(flags)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        o
    };
    run_raceline(&[]);
    let o = run_raceline(&["--safety-width", "1.4"]);
    assert!(
        stderr(&o).contains("replaced:") && stderr(&o).contains("t_racing_line.csv"),
        "{}",
        text(&o)
    );
}

// ---- item 4: stale staging folders ----

/// A staging folder with the owner marker of a process that no longer runs.
fn fake_stale(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("t.png"), vec![0u8; 1000]).unwrap();
    // Linux pids stay below 2^22: this one never runs.
    std::fs::write(p.join(mapzoo_format::set::OWNER_MARKER), "4194305 12345\n").unwrap();
    p
}

#[test]
fn stale_staging_folders_of_killed_runs_were_never_removed() {
    if !Path::new("/proc/self/stat").exists() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let stale = fake_stale(&out, ".t.tmp-4194305-0");
    let foreign = out.join(".t.tmp-backup-of-mine");
    std::fs::create_dir_all(&foreign).unwrap();
    let set = built(tmp.path(), "t", 37, &[]);
    assert!(!stale.exists(), "the stale staging folder is still there");
    assert!(
        foreign.is_dir(),
        "a hidden folder without our marker was removed"
    );
    // Inside a set (a merge killed half-way) and beside it, found by a regen.
    let inner = fake_stale(&set, ".mapzoo-staging.tmp-4194305-1");
    let beside = fake_stale(&out, ".t.tmp-4194305-2");
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!inner.exists() && !beside.exists(), "{}", text(&o));
    assert!(
        text(&o).contains("removed the staging folder of an interrupted run"),
        "{}",
        text(&o)
    );
}

/// SIGKILL at any moment leaves either no staging folder or one the next run removes; a
/// live run's staging folder is never touched by another run.
#[test]
fn sigkill_leftovers_are_removed_by_the_next_run() {
    if !Path::new("/proc/self/stat").exists() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 38);
    let out = tmp.path().join("out");
    for delay_ms in [5u64, 30, 80, 150, 300] {
        let mut child = mapzoo()
            .arg("build")
            .arg(&yaml)
            .arg("--out")
            .arg(&out)
            .arg("--force")
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .arg("--force")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(hidden(&out).is_empty(), "{:?}", hidden(&out));
    assert!(
        hidden(&out.join("t")).is_empty(),
        "{:?}",
        hidden(&out.join("t"))
    );
}

/// SIGTERM or Ctrl-C at any moment: exit 128 + signal (or 0 when it was done), and no
/// staging folder left anywhere.
#[test]
fn sigterm_and_ctrl_c_left_staging_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 39);
    let out = tmp.path().join("out");
    for (sig, code, delay_ms) in [
        ("TERM", 143, 20u64),
        ("INT", 130, 60),
        ("TERM", 143, 120),
        ("INT", 130, 250),
    ] {
        let child = mapzoo()
            .arg("build")
            .arg(&yaml)
            .arg("--out")
            .arg(&out)
            .arg("--force")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = std::process::Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(child.id().to_string())
            .status();
        let o = child.wait_with_output().unwrap();
        let got = o.status.code();
        assert!(
            got == Some(code) || got == Some(0),
            "{sig}: {got:?} {}",
            text(&o)
        );
        if got == Some(code) {
            assert!(stderr(&o).contains("interrupted"), "{}", text(&o));
        }
        if out.is_dir() {
            assert!(hidden(&out).is_empty(), "{:?}", hidden(&out));
        }
        if out.join("t").is_dir() {
            assert!(hidden(&out.join("t")).is_empty());
        }
    }
}

// ---- item 5: a set remembers how it was built ----

#[test]
fn regen_without_the_build_flags_changed_the_lap_time() {
    let tmp = tempfile::tempdir().unwrap();
    let flags = [
        "--profile",
        "racestack",
        "--safety-width",
        "0.9",
        "--free-rule",
        "nonzero",
    ];
    let set = built(tmp.path(), "t", 40, &flags);
    let built_laps = lap_times(&set);
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("recorded in mapzoo.toml"), "{}", text(&o));
    assert_eq!(lap_times(&set), built_laps);
    // A flag overrides the record, and the record follows.
    let o = regen(&set, &["--safety-width", "1.3"]);
    assert!(o.status.success(), "{}", text(&o));
    let wider = lap_times(&set);
    assert!(wider.0 > built_laps.0, "{wider:?} vs {built_laps:?}");
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(lap_times(&set), wider);
    // check reads it too: the set passes against itself without flags.
    let o = mapzoo().arg("check").arg(&set).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// The figure of the issue: f built as the Race Stack builds it, then regenerated without
/// the flags, went from 11.18 s to 11.49 s.
#[test]
fn regen_of_f_without_the_build_flags_kept_11_18_s() {
    let Some(data) = reference_data_or_skip("regen_of_f_without_the_build_flags") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = mapzoo()
        .arg("build")
        .arg(data.join("racestack/f/f.yaml"))
        .arg("--out")
        .arg(&out)
        .args([
            "--free-rule",
            "nonzero",
            "--profile",
            "racestack",
            "--start=-5.024962,-22.778604,2.983722",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let set = out.join("f");
    let published = GlobalWaypoints::read(&data.join("racestack/f/global_waypoints.json")).unwrap();
    let built_laps = lap_times(&set);
    assert!((built_laps.0 - published.map_info.iqp_lap_time_s.unwrap()).abs() < 1e-4);
    let o = regen(&set, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(lap_times(&set), built_laps, "{}", text(&o));
}

// ---- item 6: sector boundaries follow positions ----

#[test]
fn regen_moved_hand_placed_sector_boundaries_by_metres() {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", 41, &[]);
    let n = iqp_points(&set);
    hand_tune_sectors(&set, n);
    let old = GlobalWaypoints::read(&set.join("global_waypoints.json"))
        .unwrap()
        .iqp
        .wpnts;
    let old_speed = SpeedScaling::read(&set.join("speed_scaling.yaml")).unwrap();
    // Reroute: a wider safety width moves and shortens the line everywhere.
    let o = regen(&set, &["--safety-width", "1.45"]);
    assert!(o.status.success(), "{}", text(&o));
    let new = GlobalWaypoints::read(&set.join("global_waypoints.json"))
        .unwrap()
        .iqp
        .wpnts;
    let speed = SpeedScaling::read(&set.join("speed_scaling.yaml")).unwrap();
    let spacing = new.last().unwrap().s_m / (new.len() - 1) as f64;
    let d = |a: &mapzoo_format::Waypoint, b: &mapzoo_format::Waypoint| {
        (a.x_m - b.x_m).hypot(a.y_m - b.y_m)
    };
    for (was, now) in old_speed.sectors.iter().zip(&speed.sectors).take(2) {
        let p = &old[was.end as usize];
        let q = &new[now.end as usize];
        let nearest = new.iter().map(|w| d(p, w)).fold(f64::INFINITY, f64::min);
        assert!(
            d(p, q) <= nearest + spacing,
            "boundary {} -> {}: {:.3} m from where it was, the line passes {:.3} m away",
            was.end,
            now.end,
            d(p, q),
            nearest
        );
        assert!(now.end > now.start, "empty sector {now:?}");
    }
    speed
        .validate(new.len(), Path::new("speed_scaling.yaml"))
        .unwrap();
}

// ---- item 7: validate checks what a consumer relies on ----

/// A copy of a generated set (`demo`-free, built here) for breaking.
fn set_to_break(seed: u64) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let set = built(tmp.path(), "t", seed, &[]);
    let (code, out) = validate(&set);
    assert_eq!(code, 0, "{out}");
    (tmp, set)
}

fn fail_line(out: &str, words: &[&str]) -> bool {
    out.lines()
        .any(|l| l.trim_start().starts_with("FAIL") && words.iter().all(|w| l.contains(w)))
}

#[test]
fn an_sp_line_through_a_wall_passed_validation() {
    let (_tmp, set) = set_to_break(42);
    let g = GlobalWaypoints::read(&set.join("global_waypoints.json")).unwrap();
    let meta = MapMeta::read(&set.join("t.yaml")).unwrap();
    let png = set.join("t.png");
    let (w, h, mut gray) = read_gray_png(&png).unwrap();
    // The SP point farthest from the IQP line: a 3×3 wall there crosses only the SP line.
    let far =
        g.sp.wpnts
            .iter()
            .max_by(|a, b| {
                let d = |p: &mapzoo_format::Waypoint| {
                    g.iqp
                        .wpnts
                        .iter()
                        .map(|q| (p.x_m - q.x_m).hypot(p.y_m - q.y_m))
                        .fold(f64::INFINITY, f64::min)
                };
                d(a).total_cmp(&d(b))
            })
            .unwrap();
    let (c, r) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, far.x_m, far.y_m);
    let (c, r) = (c.round() as usize, r.round() as usize);
    for dr in 0..3 {
        for dc in 0..3 {
            gray[(r + dr - 1) * w + (c + dc - 1)] = 0;
        }
    }
    write_gray_png(&png, w, h, &gray).unwrap();
    let (code, out) = validate(&set);
    assert_eq!(code, 1, "{out}");
    assert!(
        fail_line(
            &out,
            &["global_traj_wpnts_sp", "free space", "occupied pixel"]
        ),
        "{out}"
    );
}

#[test]
fn a_published_file_without_est_lap_time_passed() {
    let (_tmp, set) = set_to_break(43);
    let path = set.join("global_waypoints.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("est_lap_time");
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, out) = validate(&set);
    assert_eq!(code, 1, "{out}");
    assert!(
        fail_line(&out, &["global_waypoints.json", "est_lap_time", "KeyError"]),
        "{out}"
    );
}

#[test]
fn published_hangar_without_est_lap_time_passed() {
    let Some(data) = reference_data_or_skip("published_hangar_without_est_lap_time") else {
        return;
    };
    let (code, out) = validate(&data.join("racestack/hangar"));
    assert_eq!(code, 1, "{out}");
    assert!(fail_line(&out, &["est_lap_time"]), "{out}");
}

#[test]
fn a_centerline_csv_disagreeing_with_the_json_passed() {
    let (_tmp, set) = set_to_break(44);
    let csv = set.join("t_centerline.csv");
    let mut rows = read_waypoint_csv(&csv).unwrap();
    rows[10].d_left += 0.25;
    write_waypoint_csv(&csv, &rows).unwrap();
    let (code, out) = validate(&set);
    assert_eq!(code, 1, "{out}");
    assert!(
        fail_line(
            &out,
            &["t_centerline.csv", "JSON centerline", "id 10", "d_left"]
        ),
        "{out}"
    );
}

#[test]
fn negative_widths_of_the_centerline_and_the_json_passed() {
    let (_tmp, set) = set_to_break(45);
    let path = set.join("global_waypoints.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut g = GlobalWaypoints::from_json_str(&text, &path).unwrap();
    g.sp.wpnts[5].d_right = -0.2;
    std::fs::write(&path, g.to_json_string(&path).unwrap()).unwrap();
    let csv = set.join("t_centerline.csv");
    let mut rows = read_waypoint_csv(&csv).unwrap();
    rows[7].d_right = 0.0;
    write_waypoint_csv(&csv, &rows).unwrap();
    let (code, out) = validate(&set);
    assert_eq!(code, 1, "{out}");
    assert!(
        fail_line(&out, &["t_centerline.csv", "d_right", "id 7"]),
        "{out}"
    );
    assert!(
        fail_line(
            &out,
            &["global_waypoints.json", "global_traj_wpnts_sp", "id 5"]
        ),
        "{out}"
    );
}

/// A map whose track is light grey (anti-aliased): free only by the non-zero rule.
#[test]
fn a_set_built_with_nonzero_from_an_anti_aliased_map_failed_its_own_validation() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 46);
    let png = tmp.path().join("t.png");
    let (w, h, mut gray) = read_gray_png(&png).unwrap();
    for v in &mut gray {
        if *v > 200 {
            *v = 180; // occupancy 0.29: unknown by the map-server thresholds, free if non-zero
        }
    }
    write_gray_png(&png, w, h, &gray).unwrap();
    let out = tmp.path().join("out");
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .args(["--free-rule", "nonzero"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let set = out.join("t");
    let (code, report) = validate(&set);
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("free_rule nonzero"), "{report}");
    // The record is what makes the difference.
    std::fs::remove_file(set.join("mapzoo.toml")).unwrap();
    let (code, report) = validate(&set);
    assert_eq!(code, 1, "{report}");
}

// ---- item 9: messages ----

#[test]
fn out_under_a_file_said_file_exists() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 47);
    let file = tmp.path().join("plain.txt");
    std::fs::write(&file, "x").unwrap();
    for out in [file.clone(), file.join("sub")] {
        let o = mapzoo()
            .arg("build")
            .arg(&yaml)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_ne!(o.status.code(), Some(0));
        let err = stderr(&o);
        assert!(
            err.contains("plain.txt") && err.contains("is a file") && !err.contains("File exists"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn regen_of_a_file_or_a_missing_folder_gave_a_bare_os_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain.txt");
    std::fs::write(&file, "x").unwrap();
    for (path, words) in [
        (file, "not a folder"),
        (tmp.path().join("no-such-set"), "no such folder"),
    ] {
        let o = regen(&path, &[]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(
            stderr(&o).contains(words) && !stderr(&o).contains("os error"),
            "{}",
            text(&o)
        );
    }
}

#[test]
fn check_on_a_missing_folder_talked_of_missing_files() {
    let tmp = tempfile::tempdir().unwrap();
    let o = mapzoo()
        .arg("check")
        .arg(tmp.path().join("no-such-set"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains("no-such-set")
            && err.contains("no such folder")
            && !err.contains("nothing published"),
        "{err}"
    );
}

/// `check`'s README example: Austin and overtake_map fail (the SP line follows walls rebuilt
/// from the widths) and the report said nothing about why.
#[test]
fn check_readme_example_failed_with_an_empty_explanation() {
    let Some(data) = reference_data_or_skip("check_readme_example") else {
        return;
    };
    let mapzoo_dir = data.join("mapzoo");
    let o = mapzoo()
        .args(["check", "--from-centerline", "--published"])
        .arg(mapzoo_dir.join("published.csv"))
        .arg(mapzoo_dir.join("Austin"))
        .arg(mapzoo_dir.join("overtake_map"))
        .output()
        .unwrap();
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim_end().ends_with("FAIL") {
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert!(
                next.starts_with("    ") && next.contains("track bounds"),
                "no explanation after {l:?}:\n{out}"
            );
        }
    }
}

#[test]
fn a_sector_index_overflow_said_fix_the_syntax() {
    let (_tmp, set) = set_to_break(48);
    let path = set.join("speed_scaling.yaml");
    let yaml = std::fs::read_to_string(&path).unwrap();
    let end = SpeedScaling::read(&path).unwrap().sectors[0].end;
    std::fs::write(
        &path,
        yaml.replace(&format!("end: {end}"), "end: 99999999999999999999"),
    )
    .unwrap();
    let (code, out) = validate(&set);
    assert_eq!(code, 1, "{out}");
    assert!(
        fail_line(&out, &["speed_scaling.yaml", "Sector0.end"]),
        "{out}"
    );
    assert!(!out.contains("fix the syntax"), "{out}");
    // regen names it too.
    let o = regen(&set, &[]);
    assert!(
        stderr(&o).contains("Sector0.end") && !stderr(&o).contains("syntax"),
        "{}",
        text(&o)
    );
}
