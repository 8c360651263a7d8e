//! Other consumers' files (issue 15): the ROS 2 Race Stack's sets rebuilt and read,
//! `export` to f1tenth_racetracks / f1tenth_gym and TUM and read back, `--vehicle` with a
//! car's own config folder, and f1tenth_racetracks' `<T>_map.yaml` naming.

use std::path::{Path, PathBuf};

use mapzoo_format::export::Heading;
use mapzoo_format::{
    decode_gray_png, is_trajectory_text, read_tum_raceline, Flavor, GlobalWaypoints,
};

use mapzoo_format::testdata::json_tokens;

use crate::support::{
    copy_folder, reference_data_or_skip, run, s, stderr, stdout, text, write_map,
};

/// A JSON text as tokens, whitespace dropped; numbers reduced to their layout (integer,
/// fixed, exponent) so that files of the same shape but other digits compare equal.
fn shape(text: &str, jq: bool) -> Vec<String> {
    json_tokens(text)
        .into_iter()
        .map(|tok| {
            if tok.starts_with('"') {
                // map_info_str carries figures: keep its words only
                return tok.chars().filter(|c| !c.is_ascii_digit()).collect();
            }
            match tok.as_str() {
                "{" | "}" | "[" | "]" | ":" | "," | "true" | "false" | "null" => tok,
                _ if tok.contains('e') => "exp".into(),
                _ if tok.contains('.') => {
                    let integral = tok.parse::<f64>().is_ok_and(|v| v.fract() == 0.0);
                    if jq && integral {
                        "int".into()
                    } else {
                        "fixed".into()
                    }
                }
                _ => "int".into(),
            }
        })
        .collect()
}

/// Whether two JSON shapes agree, ignoring number layouts that a single value can change
/// (an exponent where the other file's digits were fixed, as for a tiny value).
fn same_shape(ours: &[String], theirs: &[String]) -> Result<(), String> {
    if ours.len() != theirs.len() {
        return Err(format!("{} tokens, published {}", ours.len(), theirs.len()));
    }
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        let numbers = ["exp", "fixed"];
        if a != b && !(numbers.contains(&a.as_str()) && numbers.contains(&b.as_str())) {
            return Err(format!("token {i}: ours {a:?}, published {b:?}"));
        }
    }
    Ok(())
}

/// The start of a published set: its first centerline waypoint, heading to the second.
fn published_start(g: &GlobalWaypoints) -> String {
    let w = &g.centerline.wpnts;
    let yaw = (w[1].y_m - w[0].y_m).atan2(w[1].x_m - w[0].x_m);
    format!("--start={:?},{:?},{:?}", w[0].x_m, w[0].y_m, yaw)
}

#[test]
fn ros2_sets_rebuild_in_the_ros2_flavour_as_published() {
    let Some(data) = reference_data_or_skip("ros2_sets_rebuild_in_the_ros2_flavour") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for track in ["glc_ot_ez", "hangar_1905_v0"] {
        let dir = data.join("racestack-ros2").join(track);
        let published_path = dir.join("global_waypoints.json");
        let published = GlobalWaypoints::read(&published_path).unwrap();
        let yaml = dir.join(format!("{track}.yaml"));
        let o = run(&[
            "build",
            s(&yaml),
            "--out",
            s(tmp.path()),
            "--free-rule",
            "nonzero",
            "--profile",
            "racestack",
            &published_start(&published),
            "--flavor",
            "ros2",
        ]);
        assert!(o.status.success(), "{track}: {}", text(&o));
        let set = tmp.path().join(track);
        let ours_path = set.join("global_waypoints.json");
        let ours = GlobalWaypoints::read(&ours_path).unwrap();
        assert_eq!(ours.flavor(), Flavor::Ros2);
        // the published lap times, in the published wording (ROS 2: round(x, 4))
        assert_eq!(ours.map_info_str, published.map_info_str, "{track}");
        let raw = std::fs::read_to_string(&published_path).unwrap();
        let jq = raw.starts_with("{\n");
        let written = std::fs::read_to_string(&ours_path).unwrap();
        if let Err(e) = same_shape(&shape(&written, jq), &shape(&raw, false)) {
            panic!("{track}: {e}");
        }
        // sector files: ROS 2 parameter files of the nodes that load them
        for (file, node) in [
            ("speed_scaling.yaml", "sector_tuner"),
            ("ot_sectors.yaml", "ot_interpolator"),
        ] {
            let doc: serde_yaml_ng::Value =
                serde_yaml_ng::from_str(&std::fs::read_to_string(set.join(file)).unwrap()).unwrap();
            let params = &doc[node]["ros__parameters"];
            assert!(params["n_sectors"].is_u64(), "{track} {file}: {doc:?}");
            assert_eq!(doc.as_mapping().unwrap().len(), 1);
        }
    }
}

#[test]
fn validate_check_and_regen_work_on_the_ros2_sets() {
    let Some(data) = reference_data_or_skip("validate_check_and_regen_on_ros2_sets") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for track in ["glc_ot_ez", "hangar_1905_v0", "GLC_smile_small"] {
        let dir = data.join("racestack-ros2").join(track);
        let o = run(&["validate", s(&dir)]);
        assert!(text(&o).contains("ROS 2"), "{track}: {}", text(&o));
        // every check passes but the sector files hangar_1905_v0 is published without
        let fails: Vec<String> = stdout(&o)
            .lines()
            .filter(|l| l.trim_start().starts_with("FAIL"))
            .map(str::to_string)
            .collect();
        let has_sectors = dir.join("speed_scaling.yaml").is_file();
        assert_eq!(o.status.success(), has_sectors, "{track}: {}", text(&o));
        assert!(
            fails.iter().all(|l| !has_sectors && l.contains("missing")),
            "{track}: {fails:?}"
        );

        let copy = copy_folder(&dir, &tmp.path().join(track));
        let o = run(&[
            "regen",
            s(&copy),
            "--free-rule",
            "nonzero",
            "--profile",
            "racestack",
            "--safety-width",
            "0.6",
            "--safety-width-sp",
            "0.6",
        ]);
        assert!(o.status.success(), "{track}: {}", text(&o));
        assert!(text(&o).contains("(ros2)"), "{track}: {}", text(&o));
        let g = GlobalWaypoints::read(&copy.join("global_waypoints.json")).unwrap();
        assert_eq!(
            g.flavor(),
            Flavor::Ros2,
            "{track}: regen keeps the set's flavour"
        );
        for file in ["speed_scaling.yaml", "ot_sectors.yaml"] {
            let t = std::fs::read_to_string(copy.join(file)).unwrap();
            assert!(t.contains("ros__parameters:"), "{track} {file}: {t}");
        }
        let o = run(&["validate", s(&copy)]);
        assert!(o.status.success(), "{track} after regen: {}", text(&o));
    }
    let check = |track: &str| {
        run(&[
            "check",
            s(&data.join("racestack-ros2").join(track)),
            "--free-rule",
            "nonzero",
            "--profile",
            "racestack",
        ])
    };
    let o = check("glc_ot_ez");
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("pass"), "{}", text(&o));
    // a set that matches needs no search
    assert!(!text(&o).contains("settings tried"), "{}", text(&o));
    assert!(
        stderr(&o).contains("(ros2)"),
        "check says the flavour: {}",
        text(&o)
    );
    // made with a 0.6 m safety width: at the profile's 0.7 m the rebuild fails, and the
    // check names the width that reproduces the published lap times exactly
    let o = check("GLC_smile_small");
    assert!(!o.status.success());
    assert!(stdout(&o).contains("the rebuild failed"), "{}", text(&o));
    assert!(
        stdout(&o).contains(
            "reproduced exactly with --free-rule nonzero --safety-width 0.6 --safety-width-sp 0.6"
        ),
        "{}",
        text(&o)
    );
}

/// `regen --infer` of a published set without a mapzoo.toml (GLC_smile_small, made at a 0.6 m
/// safety width the set does not record) rebuilds it with the settings that reproduce its
/// lap times, from the defaults (map-server rule, 1.2 m), and records them.
#[test]
fn regen_infer_rebuilds_a_published_set_as_it_was_made() {
    let Some(data) = reference_data_or_skip("regen_infer_rebuilds_a_published_set") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = data.join("racestack-ros2").join("GLC_smile_small");
    let published = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    let copy = copy_folder(&dir, &tmp.path().join("GLC_smile_small"));
    let o = run(&["regen", s(&copy), "--infer"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains("inferred: --free-rule nonzero --safety-width 0.6 --safety-width-sp 0.6 (reproduce them exactly)"),
        "{}",
        text(&o)
    );
    let g = GlobalWaypoints::read(&copy.join("global_waypoints.json")).unwrap();
    let close = |a: Option<f64>, b: Option<f64>| (a.unwrap() - b.unwrap()).abs() <= 1e-4;
    assert!(
        close(g.map_info.iqp_lap_time_s, published.map_info.iqp_lap_time_s)
            && close(g.map_info.sp_lap_time_s, published.map_info.sp_lap_time_s),
        "{:?} vs {:?}",
        g.map_info,
        published.map_info
    );
    let record = std::fs::read_to_string(copy.join("mapzoo.toml")).unwrap();
    assert!(
        record.contains("free_rule = \"nonzero\"") && record.contains("safety_width = 0.6"),
        "{record}"
    );
}

/// A set whose published lap time no plausible setting gives: `check` says so and names the
/// closest, `regen --infer` refuses it and writes nothing.
#[test]
fn a_set_no_setting_reproduces_is_said_so() {
    let Some(data) = reference_data_or_skip("a_set_no_setting_reproduces") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = data.join("racestack-ros2").join("glc_ot_ez");
    let copy = copy_folder(&dir, &tmp.path().join("glc_ot_ez"));
    let json = copy.join("global_waypoints.json");
    let text_before = std::fs::read_to_string(&json).unwrap();
    // a quarter faster than published: no safety width, rule, start or direction gives it
    let edited = text_before.replace(
        "IQP estimated lap time: 4.0894s",
        "IQP estimated lap time: 3.0000s",
    );
    assert_ne!(edited, text_before);
    std::fs::write(&json, &edited).unwrap();
    let o = run(&[
        "check",
        s(&copy),
        "--free-rule",
        "nonzero",
        "--profile",
        "racestack",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stdout(&o).contains("no plausible setting reproduces the published lap times")
            && stdout(&o).contains("the closest, --free-rule"),
        "{}",
        text(&o)
    );
    assert!(!stdout(&o).contains("reproduced exactly"), "{}", text(&o));
    let before = std::fs::read(&json).unwrap();
    let o = run(&["regen", s(&copy), "--infer"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).contains("no plausible settings reproduce"),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read(&json).unwrap(), before, "nothing written");
    assert!(!copy.join("mapzoo.toml").exists());
}

/// Lines of a text file: (comment lines, data rows split on `sep` and trimmed).
fn table(path: &Path, sep: char) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut comments = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') {
            comments.push(line.to_string());
        } else if !line.trim().is_empty() {
            rows.push(
                line.split(sep)
                    .map(|c| c.trim().parse::<f64>().unwrap())
                    .collect(),
            );
        }
    }
    (comments, rows)
}

/// f1tenth_gym's `Raceline.from_raceline_file`: pandas `read_csv(sep, skiprows=2, header=0)`,
/// '#' stripped from the column names; returns (columns, rows).
fn gym_raceline(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().skip(2);
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(';')
        .map(|c| c.replace('#', "").trim().to_string())
        .collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split(';').map(|c| c.trim().parse().unwrap()).collect())
        .collect();
    (header, rows)
}

fn yaml_keys(path: &Path) -> Vec<String> {
    let doc: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc.as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn export_racetracks_reproduces_the_f1tenth_racetracks_layout() {
    let Some(data) = reference_data_or_skip("export_racetracks_layout") else {
        return;
    };
    // Spa is not among the reference tracks; Oschersleben is the smallest that has a raceline.
    let track = "Oschersleben";
    let published = data.join("f1tenth").join(track);
    let tmp = tempfile::tempdir().unwrap();
    let built = tmp.path().join("built");
    let o = run(&[
        "build",
        s(&published.join(format!("{track}_map.yaml"))),
        "--out",
        s(&built),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = tmp.path().join("maps");
    let o = run(&[
        "export",
        s(&built.join(track)),
        "--to",
        "racetracks",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let ours = out.join(track);
    // the same file names as the published folder
    assert_eq!(
        crate::support::names(&ours),
        crate::support::names(&published)
    );

    // map YAML: the published keys in the published order (f1tenth_gym's TrackSpec takes
    // exactly these), the image named as the gym opens it
    let y = |d: &Path| d.join(format!("{track}_map.yaml"));
    assert_eq!(yaml_keys(&y(&ours)), yaml_keys(&y(&published)));
    let doc: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(y(&ours)).unwrap()).unwrap();
    assert_eq!(
        doc["image"].as_str(),
        Some(format!("{track}_map.png").as_str())
    );
    // the map: 8-bit gray, black and white only (the gym thresholds at 128)
    let png = std::fs::read(ours.join(format!("{track}_map.png"))).unwrap();
    let (w, h, gray) = decode_gray_png(&png, Path::new("map.png")).unwrap();
    assert_eq!((w, h), (2000, 2000));
    assert!(gray.iter().all(|&v| v == 0 || v == 255));

    // centerline: same header, `, ` delimiter, 4 columns, loop not closed
    let c = |d: &Path| d.join(format!("{track}_centerline.csv"));
    let (oc, orows) = table(&c(&ours), ',');
    let (pc, prows) = table(&c(&published), ',');
    assert_eq!(oc, pc);
    assert!(std::fs::read_to_string(c(&ours))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .contains(", "));
    assert!(orows.iter().all(|r| r.len() == 4) && prows.iter().all(|r| r.len() == 4));
    let closed = |r: &[Vec<f64>]| r[0][..2] == r[r.len() - 1][..2];
    assert_eq!(closed(&orows), closed(&prows));

    // raceline: two `#` id lines then the column header, `;` delimiter, 7 columns, closed,
    // heading 0 = +x in [0, 2π)
    let r = |d: &Path| d.join(format!("{track}_raceline.csv"));
    let (ocom, orows) = table(&r(&ours), ';');
    let (pcom, prows) = table(&r(&published), ';');
    assert_eq!(ocom.len(), pcom.len());
    assert_eq!(ocom[2], pcom[2]);
    assert!(!std::fs::read_to_string(r(&ours)).unwrap().contains("; 0"));
    assert!(orows.iter().all(|r| r.len() == 7));
    assert_eq!(closed_traj(&orows), closed_traj(&prows));
    let heading = |p: &Path| Heading::detect(&read_tum_raceline(p).unwrap());
    assert_eq!(heading(&r(&ours)), heading(&r(&published)));
    assert!(orows
        .iter()
        .all(|r| (0.0..std::f64::consts::TAU).contains(&r[3])));

    // loaded the way f1tenth_gym loads them
    let (cols, rows) = gym_raceline(&r(&ours));
    assert_eq!(cols, gym_raceline(&r(&published)).0);
    assert!(["x_m", "y_m", "psi_rad", "vx_mps"]
        .iter()
        .all(|c| cols.contains(&c.to_string())));
    assert_eq!(rows.len(), orows.len());
    // the raceline is the set's racing line (IQP), point for point
    let set_line = mapzoo_format::read_waypoint_csv(
        &built.join(track).join(format!("{track}_racing_line.csv")),
    )
    .unwrap();
    assert_eq!(rows.len(), set_line.len());
    for (row, w) in rows.iter().zip(&set_line) {
        assert!((row[1] - w.x_m).abs() < 1e-6 && (row[2] - w.y_m).abs() < 1e-6);
        assert!((row[5] - w.vx_mps).abs() < 1e-6);
    }
}

fn closed_traj(rows: &[Vec<f64>]) -> bool {
    let (a, b) = (&rows[0], &rows[rows.len() - 1]);
    (a[1] - b[1]).abs() < 1e-6 && (a[2] - b[2]).abs() < 1e-6 && b[0] > 0.0
}

/// The lap times of a `--json` record: (IQP, SP).
fn laps(o: &std::process::Output) -> (f64, f64) {
    assert!(o.status.success(), "{}", text(o));
    let line = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    (
        v["iqp_lap_s"].as_f64().unwrap(),
        v["sp_lap_s"].as_f64().unwrap(),
    )
}

fn build_json(yaml: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["build", s(yaml), "--out", s(out), "--json"];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn export_tum_is_read_back_by_raceline_with_the_same_lap_times() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "loop", 7);
    let built = tmp.path().join("built");
    let (iqp, sp) = laps(&build_json(&yaml, &built, &["--profile", "racestack"]));
    let out = tmp.path().join("tum");
    let o = run(&[
        "export",
        s(&built.join("loop")),
        "--to",
        "tum",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let dir = out.join("loop");
    assert_eq!(
        crate::support::names(&dir),
        ["loop.csv", "traj_race_cl_iqp.csv", "traj_race_cl_sp.csv"]
    );
    // TUM's conventions: `; ` between cells, heading 0 = north
    let traj = dir.join("traj_race_cl_iqp.csv");
    let t = std::fs::read_to_string(&traj).unwrap();
    assert!(is_trajectory_text(&t));
    assert!(t.lines().nth(3).unwrap().contains("; "));
    assert_eq!(
        Heading::detect(&read_tum_raceline(&traj).unwrap()),
        Heading::North
    );
    let track = std::fs::read_to_string(dir.join("loop.csv")).unwrap();
    assert!(track.starts_with("# x_m,y_m,w_tr_right_m,w_tr_left_m\n"));
    for (file, lap) in [("traj_race_cl_iqp.csv", iqp), ("traj_race_cl_sp.csv", sp)] {
        let o = run(&[
            "raceline",
            s(&dir.join(file)),
            "--out",
            s(&tmp.path().join(file)),
            "--profile",
            "racestack",
            "--json",
        ]);
        assert!(o.status.success(), "{file}: {}", text(&o));
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
        let back = v["lap_s"].as_f64().unwrap();
        assert!(
            (back - lap).abs() < 1e-5,
            "{file}: {back} read back, {lap} built"
        );
        assert_eq!(v["track"], "loop");
    }
    // the TUM input track is a centerline raceline reads too
    let o = run(&[
        "raceline",
        s(&dir.join("loop.csv")),
        "--out",
        s(&tmp.path().join("from-track")),
        "--profile",
        "racestack",
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_map_yaml_named_t_map_builds_track_t() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "Oval_map", 3);
    let out = tmp.path().join("out");
    let o = run(&["build", s(&yaml), "--out", s(&out)]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(crate::support::names(&out), ["Oval"]);
    assert!(out.join("Oval").join("Oval.yaml").is_file());
    // a map in a folder of its whole name keeps it (MapZoo's `overtake_map/overtake_map.yaml`)
    let own = tmp.path().join("Loop_map");
    std::fs::create_dir(&own).unwrap();
    let yaml = write_map(&own, "Loop_map", 3);
    let o = run(&["build", s(&yaml), "--out", s(&out)]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(crate::support::names(&out), ["Loop_map", "Oval"]);
}

#[test]
fn the_race_stack_car_folder_gives_the_racestack_profile() {
    let Some(data) = reference_data_or_skip("race_stack_car_folder_gives_the_profile") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "loop", 11);
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    let la = laps(&build_json(&yaml, &a, &["--profile", "racestack"]));
    let car = data.join("racestack");
    let lb = laps(&build_json(&yaml, &b, &["--vehicle", s(&car)]));
    // the profile is the Race Stack's files value for value: the same lap times and every file
    // of the set byte for byte (the JSON's full-precision speeds included)
    assert_eq!(la, lb);
    for f in [
        "loop_centerline.csv",
        "loop_racing_line.csv",
        "global_waypoints.json",
        "speed_scaling.yaml",
        "ot_sectors.yaml",
    ] {
        assert_eq!(
            std::fs::read(a.join("loop").join(f)).unwrap(),
            std::fs::read(b.join("loop").join(f)).unwrap(),
            "{f}"
        );
    }
    // explicit widths still win over the folder's
    let c = tmp.path().join("c");
    let lc = laps(&build_json(
        &yaml,
        &c,
        &[
            "--vehicle",
            s(&car),
            "--safety-width",
            "1.2",
            "--safety-width-sp",
            "1.2",
        ],
    ));
    let d = tmp.path().join("d");
    let ld = laps(&build_json(&yaml, &d, &["--profile", "mapzoo"]));
    assert!((lc.0 - ld.0).abs() < 1e-9, "{lc:?} {ld:?}");
    // a folder without any of the files is refused, naming what it needs
    let o = run(&[
        "build",
        s(&yaml),
        "--out",
        s(&tmp.path().join("e")),
        "--vehicle",
        s(tmp.path()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("racecar_f110.ini"), "{}", stderr(&o));
}

/// Before: `--vehicle stack_master/config/gb_optimizer` (the Race Stack's ROS 1 layout) used the
/// default 1.2 m safety widths, the planner parameters being one folder up, and
/// `--vehicle stack_master/config` ignored the INI one folder down, both without a word. Every
/// layout (ROS 1 either folder, ROS 2 `config/global_planner/`, flat) now gives the flat
/// folder's lap times, names the file of each value and records them in mapzoo.toml.
#[test]
fn vehicle_folders_of_the_race_stack_layouts_give_the_cars_safety_widths() {
    let Some(data) = reference_data_or_skip("vehicle_folders_of_the_race_stack_layouts") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "loop", 11);
    let car = data.join("racestack");
    let copy = |from: &str, to: &Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(car.join(from), to).unwrap();
    };
    let ros1 = tmp.path().join("ros1/stack_master/config");
    copy(
        "global_planner_params.yaml",
        &ros1.join("global_planner_params.yaml"),
    );
    copy(
        "racecar_f110.ini",
        &ros1.join("gb_optimizer/racecar_f110.ini"),
    );
    let gp = tmp.path().join("ros2/stack_master/config/global_planner");
    copy("racecar_f110.ini", &gp.join("racecar_f110.ini"));
    for f in ["ggv.csv", "ax_max_machines.csv"] {
        copy(f, &ros1.join("gb_optimizer/veh_dyn_info").join(f));
        copy(f, &gp.join("veh_dyn_info").join(f));
    }
    std::fs::write(
        gp.join("global_planner_params.yaml"),
        "global_planner:\n  ros__parameters:\n    safety_width: 0.7\n    safety_width_sp: 0.7\n",
    )
    .unwrap();
    let flat = laps(&build_json(
        &yaml,
        &tmp.path().join("flat"),
        &["--vehicle", s(&car)],
    ));
    let default = laps(&build_json(&yaml, &tmp.path().join("default"), &[]));
    assert!((flat.0 - default.0).abs() > 1e-3, "{flat:?} {default:?}");
    let planner_ros1 = ros1
        .canonicalize()
        .unwrap()
        .join("global_planner_params.yaml");
    for (k, (dir, planner)) in [
        (ros1.join("gb_optimizer"), planner_ros1.clone()),
        (ros1.clone(), planner_ros1.clone()),
        (
            gp.clone(),
            gp.canonicalize()
                .unwrap()
                .join("global_planner_params.yaml"),
        ),
        (
            gp.parent().unwrap().to_path_buf(),
            gp.canonicalize()
                .unwrap()
                .join("global_planner_params.yaml"),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let out = tmp.path().join(format!("out{k}"));
        let o = build_json(&yaml, &out, &["--vehicle", s(&dir)]);
        assert_eq!(laps(&o), flat, "{}", dir.display());
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "{}: safety_width = 0.7, safety_width_sp = 0.7",
                planner.display()
            )) && err.contains("ggv = 18 rows")
                && !err.contains("no global_planner_params.yaml"),
            "{}: {err}",
            dir.display()
        );
        let record: toml::Table = std::fs::read_to_string(out.join("loop/mapzoo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let v = &record["vehicle"];
        assert_eq!(v["values"]["safety_width"].as_float(), Some(0.7));
        assert_eq!(
            v["sources"]["safety_width"].as_str(),
            Some(planner.to_str().unwrap())
        );
        assert_eq!(v["values"]["ggv"].as_array().map(Vec::len), Some(18));
    }
    // the planner file missing: a note, and the configured widths stay
    std::fs::remove_file(&planner_ros1).unwrap();
    let o = build_json(
        &yaml,
        &tmp.path().join("nowidth"),
        &["--vehicle", s(&ros1.join("gb_optimizer"))],
    );
    assert_eq!(laps(&o).0, default.0);
    assert!(
        stderr(&o).contains("no global_planner_params.yaml in")
            && stderr(&o).contains("safety widths keep"),
        "{}",
        stderr(&o)
    );
    // two planner files that disagree: refused, naming both
    std::fs::write(&planner_ros1, "safety_width: 0.7\nsafety_width_sp: 0.7\n").unwrap();
    std::fs::write(
        ros1.join("gb_optimizer/global_planner_params.yaml"),
        "safety_width: 0.9\n",
    )
    .unwrap();
    let o = build_json(&yaml, &tmp.path().join("clash"), &["--vehicle", s(&ros1)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&planner_ros1.display().to_string())
            && err.contains("gb_optimizer/global_planner_params.yaml")
            && err.contains("0.9"),
        "{err}"
    );
    assert!(!tmp.path().join("clash").exists());
}

/// Before: `regen --vehicle DIR` of a set with a `mapzoo.toml` used the recorded settings and
/// dropped the car's files without a word.
#[test]
fn regen_with_a_vehicle_folder_uses_the_car_not_the_record() {
    let Some(data) = reference_data_or_skip("regen_with_a_vehicle_folder") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "loop", 11);
    let car = data.join("racestack");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    let with_car = laps(&build_json(&yaml, &a, &["--vehicle", s(&car)]));
    let _default = laps(&build_json(&yaml, &b, &[]));
    let o = run(&["regen", s(&b.join("loop")), "--vehicle", s(&car)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stderr(&o).contains("--vehicle given"), "{}", stderr(&o));
    for f in ["loop_racing_line.csv", "global_waypoints.json"] {
        assert_eq!(
            std::fs::read(a.join("loop").join(f)).unwrap(),
            std::fs::read(b.join("loop").join(f)).unwrap(),
            "{f} (laps with the car {with_car:?})"
        );
    }
}

#[test]
fn raceline_writes_and_keeps_the_flavour() {
    let Some(data) = reference_data_or_skip("raceline_writes_and_keeps_the_flavour") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let run_raceline = |input: PathBuf, out: &str, extra: &[&str]| {
        let out = tmp.path().join(out);
        let mut args = vec![
            "raceline",
            s(&input),
            "--out",
            s(&out),
            "--profile",
            "racestack",
        ];
        args.extend_from_slice(extra);
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o));
        GlobalWaypoints::read(&out.join("global_waypoints.json"))
            .unwrap()
            .flavor()
    };
    let ros2 = data.join("racestack-ros2/glc_ot_ez/global_waypoints.json");
    let ros1 = data.join("racestack/f/global_waypoints.json");
    assert_eq!(run_raceline(ros2.clone(), "a", &[]), Flavor::Ros2);
    assert_eq!(run_raceline(ros2, "b", &["--flavor", "ros1"]), Flavor::Ros1);
    assert_eq!(run_raceline(ros1.clone(), "c", &[]), Flavor::Ros1);
    assert_eq!(run_raceline(ros1, "d", &["--flavor", "ros2"]), Flavor::Ros2);
}

#[test]
fn export_refuses_what_it_cannot_write_and_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "loop", 5);
    let built = tmp.path().join("built");
    let o = run(&["build", s(&yaml), "--out", s(&built)]);
    assert!(o.status.success(), "{}", text(&o));
    let set = built.join("loop");
    let out = tmp.path().join("out");
    let export = |to: &str, extra: &[&str]| {
        let mut args = vec!["export", s(&set), "--to", to, "--out", s(&out)];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert!(export("racetracks", &[]).status.success());
    let o = export("racetracks", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert!(export("racetracks", &["--force"]).status.success());
    let o = export("gazebo", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("racetracks") && stderr(&o).contains("tum"));
    // a folder without lines names what it lacks
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = run(&["export", s(&empty), "--to", "tum", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("centerline"), "{}", stderr(&o));
    // a set without a map still exports its lines for the gym
    std::fs::remove_file(set.join("loop.yaml")).unwrap();
    let o = export("racetracks", &["--force"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        crate::support::names(&out.join("loop")),
        ["loop_centerline.csv", "loop_raceline.csv"]
    );
}
