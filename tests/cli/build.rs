//! `mapzoo build`, `regen`, `check` and `demo` as a user runs them: exit codes,
//! batches with a broken map, atomic output.

use crate::support::{copy_folder, hidden, mapzoo, reference_data_or_skip, write_map, RECORD_KEYS};

#[test]
fn batch_with_one_broken_map_writes_the_good_ones_and_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let good_a = write_map(tmp.path(), "good_a", 1);
    let good_b = write_map(tmp.path(), "good_b", 2);
    let broken = write_map(tmp.path(), "broken", 3);
    std::fs::write(
        tmp.path().join("broken.png"),
        b"\x89PNG\r\n\x1a\nnot really",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = mapzoo()
        .args(["build", "--jobs", "2", "--out"])
        .arg(&out)
        .args([&good_a, &broken, &good_b])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "stderr: {stderr}");
    assert!(out.join("good_a/global_waypoints.json").is_file());
    assert!(out.join("good_b/good_b_racing_line.csv").is_file());
    assert!(!out.join("broken").exists(), "no folder for the broken map");
    assert!(
        stderr.contains("broken.png") && stderr.contains("PNG"),
        "stderr: {stderr}"
    );
    let leftovers = hidden(&out);
    assert!(
        leftovers.is_empty(),
        "temporary folders left: {leftovers:?}"
    );
}

#[test]
fn build_refuses_to_replace_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 4);
    let out = tmp.path().join("out");
    let run = |force: bool| {
        let mut c = mapzoo();
        c.args(["build", "--out"]).arg(&out).arg(&yaml);
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    assert!(run(false).status.success());
    let o = run(false);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert!(run(true).status.success());
}

#[test]
fn build_json_record_has_the_raceline_keys_and_stage_times() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 5);
    let o = mapzoo()
        .args(["build", "--json", "--out"])
        .arg(tmp.path().join("out"))
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in RECORD_KEYS.iter().chain(&["load_s", "iqp_s", "sp_s"]) {
        assert!(rec.get(key).is_some(), "missing {key} in {rec}");
    }
    assert!(rec["iqp_lap_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_config_is_reported_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 6);
    let cfg = tmp.path().join("bad.toml");
    std::fs::write(&cfg, "[raceline]\nsafety_width = -1.0\n").unwrap();
    let out = tmp.path().join("out");
    let o = mapzoo()
        .args(["build", "--out"])
        .arg(&out)
        .arg(&yaml)
        .arg("--config")
        .arg(&cfg)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.toml") && stderr.contains("safety_width"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn demo_builds_a_valid_set() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo");
    let o = mapzoo().args(["demo", "--out"]).arg(&out).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("IQP lap") && stdout.contains("SP lap"),
        "{stdout}"
    );
    let v = mapzoo()
        .arg("validate")
        .arg(out.join("demo"))
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
}

#[test]
fn check_passes_on_racestack_f_and_fails_on_impossible_published_times() {
    let Some(data) = reference_data_or_skip("check_racestack_f") else {
        return;
    };
    let f = data.join("racestack/f");
    let o = mapzoo()
        .arg("check")
        .arg(&f)
        .args(["--free-rule", "nonzero", "--profile", "racestack", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let rec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rec["pass"], true);

    // The same folder with map_info_str edited to lap times no car could drive.
    let tmp = tempfile::tempdir().unwrap();
    let copy = copy_folder(&f, &tmp.path().join("f"));
    let json_path = copy.join("global_waypoints.json");
    let text = std::fs::read_to_string(&json_path).unwrap();
    let edited = text.replace(
        "IQP estimated lap time: 11.1778s",
        "IQP estimated lap time: 3.0000s",
    );
    assert_ne!(text, edited);
    std::fs::write(&json_path, edited).unwrap();
    let o = mapzoo()
        .arg("check")
        .arg(&copy)
        .args(["--free-rule", "nonzero", "--profile", "racestack"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("FAIL"));
}

#[test]
fn check_names_a_wider_safety_width_for_hangar() {
    let Some(data) = reference_data_or_skip("check_hangar") else {
        return;
    };
    let hangar = data.join("racestack/hangar");
    let o = mapzoo()
        .arg("check")
        .arg(&hangar)
        .args(["--free-rule", "nonzero", "--profile", "racestack", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let rec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = rec["explanations"].to_string();
    let implied: Vec<f64> = text
        .split("safety_width ≈ ")
        .skip(1)
        .filter_map(|t| t.split(' ').next()?.parse().ok())
        .collect();
    assert!(
        implied.iter().any(|w| (w - 1.0).abs() <= 0.1),
        "explanations name no safety width near 1.0: {text}"
    );
    let o = mapzoo()
        .arg("check")
        .arg(&hangar)
        .args([
            "--free-rule",
            "nonzero",
            "--safety-width",
            "1.0",
            "--safety-width-sp",
            "1.0",
            "--lap-tol",
            "0.015",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// `check --from-centerline --profile racestack --json` of the set in `dir`, which must exit
/// with `code`: its JSON record.
fn check_from_centerline(dir: &std::path::Path, code: i32) -> serde_json::Value {
    let o = mapzoo()
        .arg("check")
        .arg(dir)
        .args(["--from-centerline", "--profile", "racestack", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn check_reads_older_race_stack_files() {
    let Some(data) = reference_data_or_skip("check_older_files") else {
        return;
    };
    let f = data.join("racestack/f");
    let tmp = tempfile::tempdir().unwrap();
    let copy = copy_folder(&f, &tmp.path().join("f"));
    // Older files: no est_lap_time key, "Shortest Path" wording, header seq 0.
    let json_path = copy.join("global_waypoints.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let obj = v.as_object_mut().unwrap();
    obj.remove("est_lap_time");
    let info = obj["map_info_str"]["data"]
        .as_str()
        .unwrap()
        .replace("SP ", "Shortest Path ");
    obj["map_info_str"]["data"] = info.into();
    for key in [
        "centerline_waypoints",
        "global_traj_wpnts_iqp",
        "global_traj_wpnts_sp",
    ] {
        obj[key]["header"]["seq"] = 0.into();
    }
    std::fs::write(&json_path, serde_json::to_string(&v).unwrap()).unwrap();
    let rec = check_from_centerline(&copy, 0);
    assert_eq!(rec["published"]["sp_lap_s"], 11.7476);
}

#[test]
fn check_from_centerline_reports_mapzoo_tracks_against_published_csv() {
    let Some(data) = reference_data_or_skip("check_mapzoo_from_centerline") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("report.md");
    let tracks = ["Austin", "IMS", "berlin", "overtake_map"];
    let o = mapzoo()
        .arg("check")
        .args(tracks.iter().map(|t| data.join("mapzoo").join(t)))
        .arg("--from-centerline")
        .arg("--published")
        .arg(data.join("mapzoo/published.csv"))
        .arg("--lap-tol")
        .arg("0.02")
        .arg("--markdown")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let md = std::fs::read_to_string(&report).unwrap();
    for t in tracks {
        assert!(md.contains(&format!("| {t} |")), "{t} missing in\n{md}");
    }
    // From the published centerline the IQP lap is the published one (Austin 18.5875 s).
    assert!(md.contains("| Austin | 18.5875 | 18.587"), "{md}");
}

/// `regen` swaps the set's files into the folder: its other files and subfolders stay where
/// they are, untouched, and the JSON report names the kept files; no staging folder is left.
#[test]
fn regen_keeps_the_folders_other_files_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 1);
    let out = tmp.path().join("sets");
    let o = mapzoo()
        .arg("build")
        .arg(&yaml)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = out.join("t");
    std::fs::write(dir.join("notes.txt"), "keep me").unwrap();
    std::fs::create_dir(dir.join("photos")).unwrap();
    std::fs::write(dir.join("photos").join("a.jpg"), "x").unwrap();
    let o = mapzoo()
        .args(["regen", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["kept_files"], serde_json::json!(["notes.txt"]));
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert!(dir.join("photos").join("a.jpg").is_file());
    for d in [&dir, &out] {
        assert!(hidden(d).is_empty(), "{:?}", hidden(d));
    }
}

/// `--racing-line mintime` puts the minimum-time line where the Race Stack drives: the
/// racing-line CSV and the JSON's IQP slot (with its figures in map_info_str), the sector files
/// over it; the IQP line moves to `<T>_iqp.csv`, the SP slot stays; the set records the choice
/// and `regen` rebuilds it byte for byte. Driving a line `--lines` leaves out is a usage error.
#[test]
fn racing_line_mintime_puts_the_minimum_time_line_where_the_car_drives() {
    use mapzoo_format::{read_waypoint_csv, GlobalWaypoints, SpeedScaling};
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 7);
    let build = |out: &str, flags: &[&str]| -> serde_json::Value {
        let o = mapzoo()
            .arg("build")
            .arg(&yaml)
            .arg("--out")
            .arg(tmp.path().join(out))
            .arg("--json")
            .args(flags)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let plain_rec = build("plain", &[]);
    let fast_rec = build("fast", &["--racing-line", "mintime"]);
    let (plain, fast) = (tmp.path().join("plain/t"), tmp.path().join("fast/t"));
    assert!(plain_rec.get("racing_line").is_none(), "{plain_rec}");
    assert_eq!(fast_rec["racing_line"], "mintime", "{fast_rec}");
    // a generated track has room to use: the driven line is really another line
    let lap = fast_rec["mintime_lap_s"].as_f64().unwrap();
    assert!(lap < fast_rec["iqp_lap_s"].as_f64().unwrap(), "{fast_rec}");
    assert_eq!(fast_rec["iqp_lap_s"], plain_rec["iqp_lap_s"]);

    let bytes = |p: std::path::PathBuf| std::fs::read(p).unwrap();
    assert_eq!(
        bytes(fast.join("t_racing_line.csv")),
        bytes(fast.join("t_mintime.csv"))
    );
    assert_eq!(
        bytes(fast.join("t_iqp.csv")),
        bytes(plain.join("t_racing_line.csv"))
    );
    assert!(!plain.join("t_iqp.csv").exists() && !plain.join("t_mintime.csv").exists());

    let driven = read_waypoint_csv(&fast.join("t_racing_line.csv")).unwrap();
    let g = GlobalWaypoints::read(&fast.join("global_waypoints.json")).unwrap();
    let g_plain = GlobalWaypoints::read(&plain.join("global_waypoints.json")).unwrap();
    assert_eq!(g.iqp.wpnts.len(), driven.len());
    for (a, b) in g.iqp.wpnts.iter().zip(&driven) {
        assert!((a.x_m - b.x_m).abs() < 1e-8 && (a.vx_mps - b.vx_mps).abs() < 1e-8);
    }
    assert_eq!(g.sp, g_plain.sp);
    assert_eq!(g.map_info.sp_lap_time_s, g_plain.map_info.sp_lap_time_s);
    let slot_lap = g.map_info.iqp_lap_time_s.unwrap();
    assert!((slot_lap - lap).abs() < 1e-4, "{slot_lap} vs {lap}");
    assert!(
        g.map_info_str.contains("--racing-line mintime"),
        "{}",
        g.map_info_str
    );
    let speed = SpeedScaling::read(&fast.join("speed_scaling.yaml")).unwrap();
    assert_eq!(speed.sectors.last().unwrap().end, driven.len() as i64);
    let o = mapzoo().arg("validate").arg(&fast).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(g.map_info.iqp_slot, Some(mapzoo_format::LineKind::Mintime));
    // a picture of the set knows which line is driven and shows the IQP line too
    let pic = mapzoo_render::load_track(&fast, mapzoo_format::FreeRule::MapServer).unwrap();
    assert_eq!(pic.racing, mapzoo_format::LineKind::Mintime);
    assert_eq!(pic.main_line().len(), driven.len());
    let iqp = read_waypoint_csv(&fast.join("t_iqp.csv")).unwrap();
    assert_eq!(pic.waypoints(mapzoo_format::LineKind::Iqp).len(), iqp.len());
    let record = std::fs::read_to_string(fast.join("mapzoo.toml")).unwrap();
    assert!(record.contains("racing_line = \"mintime\""), "{record}");

    // regen keeps the choice: the same files, byte for byte
    let before: Vec<_> = ["t_racing_line.csv", "t_iqp.csv", "global_waypoints.json"]
        .map(|f| bytes(fast.join(f)))
        .into();
    let o = mapzoo().arg("regen").arg(&fast).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after: Vec<_> = ["t_racing_line.csv", "t_iqp.csv", "global_waypoints.json"]
        .map(|f| bytes(fast.join(f)))
        .into();
    assert!(before == after, "regen changed the set");

    for flags in [
        &["--lines", "iqp,sp", "--racing-line", "mintime"][..],
        &["--racing-line", "fastest"][..],
    ] {
        let o = mapzoo()
            .arg("build")
            .arg(&yaml)
            .arg("--out")
            .arg(tmp.path().join("bad"))
            .args(flags)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--racing-line"), "{flags:?}: {err}");
    }
}

/// Issue 24, item 3: a published set whose laps are those of the start-independent line is
/// explained as such. f's JSON with its published laps replaced by the seamless laps of its
/// own centerline (computed here by `raceline --seamless`): `check` fails it and says the
/// seamless line gives them.
#[test]
fn check_explains_laps_of_the_seamless_line() {
    let Some(data) = reference_data_or_skip("check_explains_seamless") else {
        return;
    };
    let f = data.join("racestack/f");
    let tmp = tempfile::tempdir().unwrap();
    let o = mapzoo()
        .arg("raceline")
        .arg(f.join("global_waypoints.json"))
        .args(["--profile", "racestack", "--seamless", "--json", "--out"])
        .arg(tmp.path().join("seamless"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let lap = |key: &str| format!("{:.4}", rec[key].as_f64().expect(key));
    let (iqp, sp) = (lap("iqp_lap_s"), lap("sp_lap_s"));
    assert_ne!(
        iqp, "11.1778",
        "the seamless IQP lap should differ from the published one"
    );

    let copy = copy_folder(&f, &tmp.path().join("f"));
    let json_path = copy.join("global_waypoints.json");
    let text = std::fs::read_to_string(&json_path).unwrap();
    let edited = text
        .replace(
            "IQP estimated lap time: 11.1778s",
            &format!("IQP estimated lap time: {iqp}s"),
        )
        .replace(
            "SP estimated lap time: 11.7476s",
            &format!("SP estimated lap time: {sp}s"),
        );
    std::fs::write(&json_path, edited).unwrap();
    let rec = check_from_centerline(&copy, 1);
    let text = rec["explanations"].to_string();
    assert!(
        text.contains("seamless") && text.contains(&format!("IQP {iqp} s")),
        "no seamless explanation: {text}"
    );
}
