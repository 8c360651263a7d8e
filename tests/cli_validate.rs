//! `mapzoo validate` on the published Race Stack f folder, on a MapZoo set made
//! from it, and on deliberately broken copies of both: each copy must give a
//! FAIL line that names the file and the cause, and exit code 1.

use std::path::{Path, PathBuf};
use std::process::Command;

use mapzoo_format::global::GlobalWaypoints;
use mapzoo_format::map::{read_gray_png, world_to_pixel, write_gray_png};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::waypoint;

fn mapzoo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mapzoo"))
}

/// Runs `mapzoo validate dir`, returning (exit code, stdout).
fn validate(dir: &Path) -> (i32, String) {
    let out = mapzoo().arg("validate").arg(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A copy of racestack/f in a temp dir, named `f` so the track name matches.
fn race_stack_copy(data: &Path) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("f");
    std::fs::create_dir(&dir).unwrap();
    for e in std::fs::read_dir(data.join("racestack/f")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    (tmp, dir)
}

/// The Race Stack f folder plus the two MapZoo CSVs written from its JSON.
fn mapzoo_copy(data: &Path) -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = race_stack_copy(data);
    let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    waypoint::write_csv(&dir.join("f_centerline.csv"), &g.centerline.wpnts).unwrap();
    waypoint::write_csv(&dir.join("f_racing_line.csv"), &g.iqp.wpnts).unwrap();
    (tmp, dir)
}

fn edit(path: &Path, f: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let new = f(text.clone());
    assert_ne!(new, text, "the edit of {} changed nothing", path.display());
    std::fs::write(path, new).unwrap();
}

/// Asserts exit 1 and a FAIL line naming `file` that contains every word of `cause`.
fn assert_fails(dir: &Path, file: &str, cause: &[&str]) {
    let (code, out) = validate(dir);
    assert_eq!(
        code, 1,
        "expected exit 1 for a broken {file}; output:\n{out}"
    );
    let hit = out.lines().any(|l| {
        let l = l.trim();
        l.starts_with("FAIL") && l.contains(file) && cause.iter().all(|c| l.contains(c))
    });
    assert!(
        hit,
        "no FAIL line naming {file} with {cause:?}; output:\n{out}"
    );
}

#[test]
fn published_race_stack_f_passes() {
    let Some(data) = reference_data_or_skip("published_race_stack_f_passes") else {
        return;
    };
    let (code, out) = validate(&data.join("racestack/f"));
    assert_eq!(code, 0, "{out}");
    assert!(!out.lines().any(|l| l.trim().starts_with("FAIL")), "{out}");
    // CSV checks are skipped in a Race Stack folder, not failed.
    assert!(
        out.lines()
            .any(|l| l.trim().starts_with("skip  f_centerline.csv")),
        "{out}"
    );
    assert!(out.contains("racing line in free space"), "{out}");
}

#[test]
fn mapzoo_layout_made_from_f_passes() {
    let Some(data) = reference_data_or_skip("mapzoo_layout_made_from_f_passes") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    let (code, out) = validate(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("MapZoo track set"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("racing line = a JSON trajectory")
                && l.contains("equals global_traj_wpnts_iqp")),
        "{out}"
    );
}

#[test]
fn json_output_is_one_record_per_folder() {
    let Some(data) = reference_data_or_skip("json_output_is_one_record_per_folder") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    std::fs::remove_file(dir.join("ot_sectors.yaml")).unwrap();
    let out = mapzoo()
        .args(["validate", "--json"])
        .arg(data.join("racestack/f"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["ok"], true);
    assert_eq!(records[1]["ok"], false);
    let failed: Vec<&serde_json::Value> = records[1]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .collect();
    assert!(
        failed.iter().any(|c| c["file"] == "ot_sectors.yaml"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = mapzoo().arg("validate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let out = mapzoo()
        .arg("validate")
        .arg(tmp.path().join("no-such-track"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-track"));
}

#[test]
fn missing_png() {
    let Some(data) = reference_data_or_skip("missing_png") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    std::fs::remove_file(dir.join("f.png")).unwrap();
    assert_fails(&dir, "f.yaml", &["image", "f.png", "no such file"]);
}

#[test]
fn wrong_image_field() {
    let Some(data) = reference_data_or_skip("wrong_image_field") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("f.yaml"), |t| {
        t.replace("image: f.png", "image: g.png")
    });
    assert_fails(&dir, "f.yaml", &["\"image\"", "g.png"]);
}

#[test]
fn corrupt_png() {
    let Some(data) = reference_data_or_skip("corrupt_png") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    let bytes = std::fs::read(dir.join("f.png")).unwrap();
    std::fs::write(dir.join("f.png"), &bytes[..bytes.len() / 2]).unwrap();
    assert_fails(&dir, "f.png", &["PNG loads", "PNG"]);
}

#[test]
fn negative_resolution() {
    let Some(data) = reference_data_or_skip("negative_resolution") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("f.yaml"), |t| {
        t.replace("resolution: 0.05", "resolution: -0.05")
    });
    assert_fails(&dir, "f.yaml", &["resolution", "-0.05"]);
}

#[test]
fn origin_with_two_numbers() {
    let Some(data) = reference_data_or_skip("origin_with_two_numbers") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    std::fs::write(
        dir.join("f.yaml"),
        "image: f.png\nresolution: 0.05\norigin: [-11.6, -26.5]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .unwrap();
    assert_fails(&dir, "f.yaml", &["origin", "2 entries"]);
}

#[test]
fn thresholds_swapped() {
    let Some(data) = reference_data_or_skip("thresholds_swapped") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("f.yaml"), |t| {
        t.replace("free_thresh: 0.196", "free_thresh: 0.9")
    });
    assert_fails(&dir, "f.yaml", &["free_thresh 0.9", "occupied_thresh 0.65"]);
}

#[test]
fn truncated_json() {
    let Some(data) = reference_data_or_skip("truncated_json") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    let text = std::fs::read_to_string(dir.join("global_waypoints.json")).unwrap();
    std::fs::write(dir.join("global_waypoints.json"), &text[..text.len() / 3]).unwrap();
    assert_fails(&dir, "global_waypoints.json", &["JSON parses", "truncated"]);
}

#[test]
fn missing_trajectory_key() {
    let Some(data) = reference_data_or_skip("missing_trajectory_key") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    let path = dir.join("global_waypoints.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("global_traj_wpnts_sp");
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    assert_fails(
        &dir,
        "global_waypoints.json",
        &["missing key", "global_traj_wpnts_sp"],
    );
}

#[test]
fn nan_in_a_json_waypoint() {
    let Some(data) = reference_data_or_skip("nan_in_a_json_waypoint") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("global_waypoints.json"), |t| {
        // Python's json.dumps writes NaN like this.
        let at = t.find("\"global_traj_wpnts_iqp\"").unwrap();
        let k = at + t[at..].find("\"kappa_radpm\": ").unwrap() + "\"kappa_radpm\": ".len();
        let end = k + t[k..].find(',').unwrap();
        format!("{}NaN{}", &t[..k], &t[end..])
    });
    assert_fails(
        &dir,
        "global_waypoints.json",
        &["non-finite", "global_traj_wpnts_iqp"],
    );
}

#[test]
fn nan_in_a_csv_waypoint() {
    let Some(data) = reference_data_or_skip("nan_in_a_csv_waypoint") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    edit(&dir.join("f_racing_line.csv"), |t| {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let mut cells: Vec<String> = lines[6].split(';').map(str::to_string).collect();
        cells[8] = "nan".into();
        lines[6] = cells.join(";");
        lines.join("\n") + "\n"
    });
    assert_fails(
        &dir,
        "f_racing_line.csv",
        &["line 7", "kappa_radpm", "not finite"],
    );
}

#[test]
fn missing_csv_column() {
    let Some(data) = reference_data_or_skip("missing_csv_column") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    edit(&dir.join("f_centerline.csv"), |t| {
        t.lines()
            .map(|l| l.rsplit_once(';').unwrap().0.to_string() + "\n")
            .collect()
    });
    assert_fails(&dir, "f_centerline.csv", &["ax_mps2", "missing"]);
}

#[test]
fn non_contiguous_id() {
    let Some(data) = reference_data_or_skip("non_contiguous_id") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    edit(&dir.join("f_centerline.csv"), |t| {
        t.replacen("\n10;", "\n11;", 1)
    });
    assert_fails(&dir, "f_centerline.csv", &["ids 0..n-1", "row 10", "id 11"]);
}

#[test]
fn s_m_not_increasing() {
    let Some(data) = reference_data_or_skip("s_m_not_increasing") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    edit(&dir.join("f_centerline.csv"), |t| {
        t.replacen("\n20;2.00000000;", "\n20;1.80000000;", 1)
    });
    assert_fails(
        &dir,
        "f_centerline.csv",
        &["s_m strictly increasing", "id 20"],
    );
}

#[test]
fn racing_line_differs_from_json() {
    let Some(data) = reference_data_or_skip("racing_line_differs_from_json") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    let path = dir.join("f_racing_line.csv");
    let mut w = waypoint::read_csv(&path).unwrap();
    w[300].x_m += 0.001;
    waypoint::write_csv(&path, &w).unwrap();
    assert_fails(
        &dir,
        "f_racing_line.csv",
        &["equals neither", "id 300", "x_m"],
    );
}

#[test]
fn sector_end_beyond_the_line() {
    let Some(data) = reference_data_or_skip("sector_end_beyond_the_line") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("speed_scaling.yaml"), |t| {
        t.replace("end: 766", "end: 900")
    });
    assert_fails(&dir, "speed_scaling.yaml", &["Sector0", "900", "0..=766"]);
}

#[test]
fn overlapping_sectors() {
    let Some(data) = reference_data_or_skip("overlapping_sectors") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("ot_sectors.yaml"), |t| {
        t.replace("start: 409", "start: 300")
    });
    assert_fails(&dir, "ot_sectors.yaml", &["Overtaking_sector1", "overlaps"]);
}

#[test]
fn scaling_not_positive() {
    let Some(data) = reference_data_or_skip("scaling_not_positive") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("speed_scaling.yaml"), |t| {
        t.replace("  scaling: 0.5", "  scaling: 0.0")
    });
    assert_fails(&dir, "speed_scaling.yaml", &["Sector0", "\"scaling\" is 0"]);
}

#[test]
fn n_sectors_disagrees() {
    let Some(data) = reference_data_or_skip("n_sectors_disagrees") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    edit(&dir.join("ot_sectors.yaml"), |t| {
        t.replace("n_sectors: 2", "n_sectors: 3")
    });
    assert_fails(
        &dir,
        "ot_sectors.yaml",
        &["n_sectors", "is 3", "2 sector entries"],
    );
}

#[test]
fn marker_count_differs() {
    let Some(data) = reference_data_or_skip("marker_count_differs") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    let path = dir.join("global_waypoints.json");
    let mut g = GlobalWaypoints::read(&path).unwrap();
    g.sp_markers.markers.pop();
    g.write(&path).unwrap();
    assert_fails(
        &dir,
        "global_waypoints.json",
        &[
            "marker count",
            "global_traj_markers_sp",
            "716 markers",
            "717 waypoints",
        ],
    );
}

#[test]
fn waypoint_on_an_occupied_pixel() {
    let Some(data) = reference_data_or_skip("waypoint_on_an_occupied_pixel") else {
        return;
    };
    let (_tmp, dir) = race_stack_copy(&data);
    let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    let png = dir.join("f.png");
    let (w, h, mut gray) = read_gray_png(&png).unwrap();
    // f.yaml: origin (-11.60654, -26.520793), resolution 0.05000000074505806.
    let p = g.iqp.wpnts[100];
    let (c, r) = world_to_pixel(
        [-11.60654, -26.520793, 0.0],
        0.05000000074505806,
        h,
        p.x_m,
        p.y_m,
    );
    let (c, r) = (c.round() as usize, r.round() as usize);
    for dr in 0..3 {
        for dc in 0..3 {
            gray[(r + dr - 1) * w + (c + dc - 1)] = 0;
        }
    }
    write_gray_png(&png, w, h, &gray).unwrap();
    assert_fails(
        &dir,
        "global_traj_wpnts_iqp",
        &["racing line in free space", "occupied pixel"],
    );
}

#[test]
fn missing_racing_line_csv() {
    let Some(data) = reference_data_or_skip("missing_racing_line_csv") else {
        return;
    };
    let (_tmp, dir) = mapzoo_copy(&data);
    std::fs::remove_file(dir.join("f_racing_line.csv")).unwrap();
    assert_fails(&dir, "f_racing_line.csv", &["missing", "racing line CSV"]);
}
