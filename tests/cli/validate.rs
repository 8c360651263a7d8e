//! `mapzoo validate` on the published Race Stack f folder, on a MapZoo set made
//! from it, on the set `mapzoo demo` generates (no reference data needed), and
//! on deliberately broken copies of each: every copy must give a FAIL line that
//! names the file and the cause, and exit code 1. One breaking function per
//! defect serves both the reference copies and the generated set (the
//! breakers of fixed bugs run from `regression`).

use mapzoo_format::GlobalWaypoints;
use std::path::{Path, PathBuf};

use mapzoo_format::MapMeta;
use mapzoo_format::{read_gray_png, world_to_pixel, write_gray_png};
use mapzoo_format::{read_waypoint_csv, write_waypoint_csv};
use mapzoo_format::{OtSectors, SpeedScaling};

use crate::support::{copy_folder, mapzoo, reference_data_or_skip};

/// Runs `mapzoo validate dir`, returning (exit code, stdout).
pub(crate) fn validate(dir: &Path) -> (i32, String) {
    let out = mapzoo().arg("validate").arg(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A track folder to break: its temp dir, the folder and the track name.
pub(crate) struct Set {
    _tmp: tempfile::TempDir,
    pub(crate) dir: PathBuf,
    name: String,
}

impl Set {
    /// `dir/<name><suffix>`, e.g. `set.file(".yaml")`.
    fn file(&self, suffix: &str) -> PathBuf {
        self.dir.join(self.fname(suffix))
    }

    /// `<name><suffix>`, the file name as the checklist prints it.
    fn fname(&self, suffix: &str) -> String {
        format!("{}{suffix}", self.name)
    }

    fn json(&self) -> PathBuf {
        self.dir.join("global_waypoints.json")
    }

    fn waypoints(&self) -> GlobalWaypoints {
        GlobalWaypoints::read(&self.json()).unwrap()
    }
}

/// A copy of racestack/f in a temp dir, named `f` so the track name matches.
pub(crate) fn race_stack_copy(data: &Path) -> Set {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_folder(&data.join("racestack/f"), &tmp.path().join("f"));
    Set {
        _tmp: tmp,
        dir,
        name: "f".into(),
    }
}

/// The Race Stack f folder plus the two MapZoo CSVs written from its JSON.
pub(crate) fn mapzoo_copy(data: &Path) -> Set {
    let set = race_stack_copy(data);
    let g = set.waypoints();
    write_waypoint_csv(&set.file("_centerline.csv"), &g.centerline.wpnts).unwrap();
    write_waypoint_csv(&set.file("_racing_line.csv"), &g.iqp.wpnts).unwrap();
    set
}

/// A complete MapZoo set from `mapzoo demo` (needs no reference data).
pub(crate) fn generated_set() -> Set {
    let tmp = tempfile::tempdir().unwrap();
    let out = mapzoo()
        .arg("demo")
        .arg("--out")
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "mapzoo demo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tmp.path().join("demo");
    assert!(
        dir.join("demo.yaml").is_file(),
        "demo wrote no demo/demo.yaml"
    );
    Set {
        _tmp: tmp,
        dir,
        name: "demo".into(),
    }
}

fn edit(path: &Path, f: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let new = f(text.clone());
    assert_ne!(new, text, "the edit of {} changed nothing", path.display());
    std::fs::write(path, new).unwrap();
}

/// Asserts exit 1 and a FAIL line naming `file` that contains every word of `cause`.
pub(crate) fn assert_fails<S: AsRef<str>>(dir: &Path, file: &str, cause: &[S]) {
    let (code, out) = validate(dir);
    assert_eq!(
        code, 1,
        "expected exit 1 for a broken {file}; output:\n{out}"
    );
    let hit = out.lines().any(|l| {
        let l = l.trim();
        l.starts_with("FAIL") && l.contains(file) && cause.iter().all(|c| l.contains(c.as_ref()))
    });
    let cause: Vec<&str> = cause.iter().map(AsRef::as_ref).collect();
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
    let set = mapzoo_copy(&data);
    let (code, out) = validate(&set.dir);
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
    let set = race_stack_copy(&data);
    std::fs::remove_file(set.dir.join("ot_sectors.yaml")).unwrap();
    let out = mapzoo()
        .args(["validate", "--json"])
        .arg(data.join("racestack/f"))
        .arg(&set.dir)
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
fn generated_set_passes() {
    let set = generated_set();
    let (code, out) = validate(&set.dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("MapZoo track set"), "{out}");
    assert!(!out.lines().any(|l| l.trim().starts_with("FAIL")), "{out}");
    assert!(out.contains("racing line in free space"), "{out}");
}

/// What a broken copy must report: a FAIL line naming `file` with every word of `cause`.
pub(crate) struct Broken {
    file: String,
    cause: Vec<String>,
}

fn broken(file: impl Into<String>, cause: &[&dyn std::fmt::Display]) -> Broken {
    Broken {
        file: file.into(),
        cause: cause.iter().map(|c| c.to_string()).collect(),
    }
}

/// Replaces the first line of `path` starting with `key` by `line`.
fn set_line(path: &Path, key: &str, line: &str) {
    edit(path, |t| {
        let mut done = false;
        let mut out: String = t
            .lines()
            .map(|l| {
                if !done && l.starts_with(key) {
                    done = true;
                    line.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(done, "no line starting with {key:?} in {}", path.display());
        out.push('\n');
        out
    });
}

fn missing_png(set: &Set) -> Broken {
    std::fs::remove_file(set.file(".png")).unwrap();
    broken(
        set.fname(".yaml"),
        &[&"image", &set.fname(".png"), &"no such file"],
    )
}

fn wrong_image_field(set: &Set) -> Broken {
    set_line(&set.file(".yaml"), "image:", "image: g.png");
    broken(set.fname(".yaml"), &[&"\"image\"", &"g.png"])
}

fn corrupt_png(set: &Set) -> Broken {
    let bytes = std::fs::read(set.file(".png")).unwrap();
    std::fs::write(set.file(".png"), &bytes[..bytes.len() / 2]).unwrap();
    broken(set.fname(".png"), &[&"PNG loads", &"PNG"])
}

fn negative_resolution(set: &Set) -> Broken {
    let res = MapMeta::read(&set.file(".yaml")).unwrap().resolution;
    set_line(
        &set.file(".yaml"),
        "resolution:",
        &format!("resolution: {}", -res),
    );
    broken(set.fname(".yaml"), &[&"resolution", &-res])
}

fn origin_with_two_numbers(set: &Set) -> Broken {
    let m = MapMeta::read(&set.file(".yaml")).unwrap();
    std::fs::write(
        set.file(".yaml"),
        format!(
            "image: {}\nresolution: {}\norigin: [{}, {}]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
            m.image, m.resolution, m.origin[0], m.origin[1]
        ),
    )
    .unwrap();
    broken(set.fname(".yaml"), &[&"origin", &"2 entries"])
}

/// Thresholds in either order are legal (ROS map_server tests occupied first, issue 11.2);
/// one outside 0..=1 is not.
fn threshold_out_of_range(set: &Set) -> Broken {
    let occupied = MapMeta::read(&set.file(".yaml")).unwrap().occupied_thresh;
    set_line(&set.file(".yaml"), "free_thresh:", "free_thresh: 1.5");
    broken(
        set.fname(".yaml"),
        &[&"free_thresh 1.5", &format!("occupied_thresh {occupied}")],
    )
}

pub(crate) fn truncated_json(set: &Set) -> Broken {
    let text = std::fs::read_to_string(set.json()).unwrap();
    std::fs::write(set.json(), &text[..text.len() / 3]).unwrap();
    broken("global_waypoints.json", &[&"JSON parses", &"truncated"])
}

fn missing_trajectory_key(set: &Set) -> Broken {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(set.json()).unwrap()).unwrap();
    v.as_object_mut()
        .unwrap()
        .remove("global_traj_wpnts_sp")
        .expect("the key was there");
    std::fs::write(set.json(), serde_json::to_string(&v).unwrap()).unwrap();
    broken(
        "global_waypoints.json",
        &[&"missing key", &"global_traj_wpnts_sp"],
    )
}

fn nan_in_a_json_waypoint(set: &Set) -> Broken {
    edit(&set.json(), |t| {
        // Python's json.dumps writes NaN like this.
        let at = t.find("\"global_traj_wpnts_iqp\"").unwrap();
        let k = at + t[at..].find("\"kappa_radpm\": ").unwrap() + "\"kappa_radpm\": ".len();
        let end = k + t[k..].find(',').unwrap();
        format!("{}NaN{}", &t[..k], &t[end..])
    });
    broken(
        "global_waypoints.json",
        &[&"non-finite", &"global_traj_wpnts_iqp"],
    )
}

fn nan_in_a_csv_waypoint(set: &Set) -> Broken {
    edit(&set.file("_racing_line.csv"), |t| {
        let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
        let mut cells: Vec<String> = lines[6].split(';').map(str::to_string).collect();
        cells[8] = "nan".into();
        lines[6] = cells.join(";");
        lines.join("\n") + "\n"
    });
    broken(
        set.fname("_racing_line.csv"),
        &[&"line 7", &"kappa_radpm", &"not finite"],
    )
}

fn missing_csv_column(set: &Set) -> Broken {
    edit(&set.file("_centerline.csv"), |t| {
        t.lines()
            .map(|l| l.rsplit_once(';').unwrap().0.to_string() + "\n")
            .collect()
    });
    broken(set.fname("_centerline.csv"), &[&"ax_mps2", &"missing"])
}

fn non_contiguous_id(set: &Set) -> Broken {
    edit(&set.file("_centerline.csv"), |t| {
        t.replacen("\n10;", "\n11;", 1)
    });
    broken(
        set.fname("_centerline.csv"),
        &[&"ids 0..n-1", &"row 10", &"id 11"],
    )
}

fn s_m_not_increasing(set: &Set) -> Broken {
    let path = set.file("_centerline.csv");
    let mut w = read_waypoint_csv(&path).unwrap();
    w[20].s_m = w[18].s_m;
    write_waypoint_csv(&path, &w).unwrap();
    broken(
        set.fname("_centerline.csv"),
        &[&"s_m strictly increasing", &"id 20"],
    )
}

fn racing_line_differs_from_json(set: &Set) -> Broken {
    let path = set.file("_racing_line.csv");
    let mut w = read_waypoint_csv(&path).unwrap();
    w[300].x_m += 0.001;
    write_waypoint_csv(&path, &w).unwrap();
    broken(
        set.fname("_racing_line.csv"),
        &[&"equals neither", &"id 300", &"x_m"],
    )
}

pub(crate) fn missing_racing_line_csv(set: &Set) -> Broken {
    std::fs::remove_file(set.file("_racing_line.csv")).unwrap();
    broken(
        set.fname("_racing_line.csv"),
        &[&"missing", &"racing line CSV"],
    )
}

fn sector_end_beyond_the_line(set: &Set) -> Broken {
    let n = set.waypoints().iqp.wpnts.len();
    let path = set.dir.join("speed_scaling.yaml");
    let mut s = SpeedScaling::read(&path).unwrap();
    let last = s.sectors.len() - 1;
    assert_eq!(
        s.sectors[last].end, n as i64,
        "the last sector ends the line"
    );
    s.sectors[last].end = n as i64 + 134;
    s.write(&path).unwrap();
    broken(
        "speed_scaling.yaml",
        &[&format!("Sector{last}"), &(n + 134), &format!("0..={n}")],
    )
}

fn overlapping_sectors(set: &Set) -> Broken {
    let path = set.dir.join("ot_sectors.yaml");
    let mut ot = OtSectors::read(&path).unwrap();
    if ot.sectors.len() < 2 {
        // Split the single sector so there is a second one to overlap.
        let mut second = ot.sectors[0].clone();
        ot.sectors[0].end /= 2;
        second.start = ot.sectors[0].end;
        ot.sectors.push(second);
        ot.declared_n_sectors = 2;
    }
    let first = &ot.sectors[0];
    ot.sectors[1].start = first.start + (first.end - first.start) / 2;
    ot.write(&path).unwrap();
    broken("ot_sectors.yaml", &[&"Overtaking_sector1", &"overlaps"])
}

fn scaling_not_positive(set: &Set) -> Broken {
    let path = set.dir.join("speed_scaling.yaml");
    let mut s = SpeedScaling::read(&path).unwrap();
    s.sectors[0].scaling = 0.0;
    s.write(&path).unwrap();
    broken("speed_scaling.yaml", &[&"Sector0", &"\"scaling\" is 0"])
}

fn n_sectors_disagrees(set: &Set) -> Broken {
    let path = set.dir.join("ot_sectors.yaml");
    let k = OtSectors::read(&path).unwrap().sectors.len();
    // Edited as text: the writer derives n_sectors from the entries.
    set_line(&path, "n_sectors:", &format!("n_sectors: {}", k + 1));
    broken(
        "ot_sectors.yaml",
        &[
            &"n_sectors",
            &format!("is {}", k + 1),
            &format!("{k} sector entries"),
        ],
    )
}

fn marker_count_differs(set: &Set) -> Broken {
    let mut g = set.waypoints();
    let n = g.sp.wpnts.len();
    g.sp_markers.markers.pop();
    g.write(&set.json()).unwrap();
    broken(
        "global_waypoints.json",
        &[
            &"marker count",
            &"global_traj_markers_sp",
            &format!("{} markers", n - 1),
            &format!("{n} waypoints"),
        ],
    )
}

fn waypoint_on_an_occupied_pixel(set: &Set) -> Broken {
    let g = set.waypoints();
    let meta = MapMeta::read(&set.file(".yaml")).unwrap();
    let png = set.file(".png");
    let (w, h, mut gray) = read_gray_png(&png).unwrap();
    let p = g.iqp.wpnts[100];
    let (c, r) = world_to_pixel(meta.origin, meta.resolution, h, p.x_m, p.y_m);
    let (c, r) = (c.round() as usize, r.round() as usize);
    for dr in 0..3 {
        for dc in 0..3 {
            gray[(r + dr - 1) * w + (c + dc - 1)] = 0;
        }
    }
    write_gray_png(&png, w, h, &gray).unwrap();
    // A MapZoo set checks its racing line CSV, a Race Stack folder the JSON's IQP line.
    let file = if set.file("_racing_line.csv").exists() {
        set.fname("_racing_line.csv")
    } else {
        "global_traj_wpnts_iqp".to_string()
    };
    broken(file, &[&"racing line in free space", &"occupied pixel"])
}

pub(crate) fn check(set: &Set, breaker: fn(&Set) -> Broken) {
    let want = breaker(set);
    assert_fails(&set.dir, &want.file, &want.cause);
}

/// Each breaker as a test on a copy of the reference data (skipped without it)
/// in the given layout, and as a test on the generated set.
macro_rules! broken_copies {
    ($($name:ident: $copy:ident,)*) => {
        mod reference {
            $(
                #[test]
                fn $name() {
                    let Some(data) = super::reference_data_or_skip(stringify!($name)) else {
                        return;
                    };
                    super::check(&super::$copy(&data), super::$name);
                }
            )*
        }
        mod generated {
            $(
                #[test]
                fn $name() {
                    super::check(&super::generated_set(), super::$name);
                }
            )*
        }
    };
}

broken_copies! {
    missing_png: race_stack_copy,
    wrong_image_field: race_stack_copy,
    corrupt_png: race_stack_copy,
    negative_resolution: race_stack_copy,
    origin_with_two_numbers: race_stack_copy,
    threshold_out_of_range: race_stack_copy,
    missing_trajectory_key: race_stack_copy,
    nan_in_a_json_waypoint: race_stack_copy,
    nan_in_a_csv_waypoint: mapzoo_copy,
    missing_csv_column: mapzoo_copy,
    non_contiguous_id: mapzoo_copy,
    s_m_not_increasing: mapzoo_copy,
    racing_line_differs_from_json: mapzoo_copy,
    sector_end_beyond_the_line: race_stack_copy,
    overlapping_sectors: race_stack_copy,
    scaling_not_positive: race_stack_copy,
    n_sectors_disagrees: race_stack_copy,
    marker_count_differs: race_stack_copy,
    waypoint_on_an_occupied_pixel: race_stack_copy,
}
