//! The dataset's checklist for one track folder (DESIGN §2, issue 2): every
//! file of a MapZoo set or a Race Stack map folder is read and checked, and
//! each check yields a typed pass / FAIL / skip with its reason, so the
//! `validate` and `check` commands only print.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::FormatError;
use crate::global::GlobalWaypoints;
use crate::map::{decode_gray_png, FreeRule, MapMeta, OccupancyMap};
use crate::sectors::{check_bounds, check_contiguous, OtSectors, SpeedScaling};
use crate::set::layout::{GLOBAL_WAYPOINTS, SECTOR_FILES, SPEED_SCALING};
use crate::set::Layout;
use crate::set::{MapYaml, SetFolder};
use crate::set::{SetRecord, SETTINGS_FILE};
use crate::waypoint::{self, Waypoint};

/// Target spacing of waypoints along the line, metres (DESIGN §2.2).
pub const SPACING_M: f64 = 0.1;
/// Largest accepted deviation of a row's Δs from [`SPACING_M`], metres.
pub const SPACING_TOLERANCE_M: f64 = 0.01;
/// Largest difference between the racing-line CSV and a JSON trajectory, per value.
pub const TRAJECTORY_TOLERANCE: f64 = 1e-6;

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The check holds.
    Pass,
    /// The check fails; `detail` says where and why.
    Fail,
    /// The check does not apply or could not run; `detail` says why.
    Skip,
}

/// One line of the checklist.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationCheck {
    /// Pass, fail or skip.
    pub status: CheckStatus,
    /// The file checked, relative to the folder.
    pub file: String,
    /// What is checked, e.g. `resolution > 0`.
    pub check: String,
    /// The finding: a figure on pass, the cause and place on FAIL, the reason on skip.
    pub detail: String,
}

impl ValidationCheck {
    /// The text line `pass  f.yaml  resolution > 0: 0.05`.
    pub fn line(&self) -> String {
        let status = match self.status {
            CheckStatus::Pass => "pass",
            CheckStatus::Fail => "FAIL",
            CheckStatus::Skip => "skip",
        };
        format!("{status}  {}  {}: {}", self.file, self.check, self.detail)
    }
}

/// The checklist of one folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationReport {
    /// The folder as given.
    pub dir: PathBuf,
    /// The layout it was checked as.
    pub layout: Layout,
    /// Whether every check passed or was skipped.
    pub ok: bool,
    /// The checks, in checklist order.
    pub checks: Vec<ValidationCheck>,
}

impl ValidationReport {
    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &ValidationCheck> {
        self.checks.iter().filter(|c| c.status == CheckStatus::Fail)
    }
}

/// Collects checks as they are made.
struct Sheet {
    checks: Vec<ValidationCheck>,
}

impl Sheet {
    fn add(&mut self, status: CheckStatus, file: &str, check: &str, detail: impl Into<String>) {
        self.checks.push(ValidationCheck {
            status,
            file: file.to_string(),
            check: check.to_string(),
            detail: detail.into(),
        });
    }
    fn pass(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Pass, file, check, detail);
    }
    fn fail(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Fail, file, check, detail);
    }
    fn skip(&mut self, file: &str, check: &str, detail: impl Into<String>) {
        self.add(CheckStatus::Skip, file, check, detail);
    }
    /// Pass when `result` is Ok, else FAIL with its message.
    fn result(&mut self, file: &str, check: &str, result: std::result::Result<String, String>) {
        match result {
            Ok(d) => self.pass(file, check, d),
            Err(d) => self.fail(file, check, d),
        }
    }
}

/// Runs the whole checklist on `dir`.
pub fn validate_dir(dir: &Path) -> ValidationReport {
    let mut sheet = Sheet { checks: Vec::new() };
    let listing = match SetFolder::open(dir) {
        Ok(l) => l,
        Err(e) => {
            sheet.fail(
                &dir.display().to_string(),
                "folder readable",
                format!("{}; give a track folder", e.reason()),
            );
            return finish(dir, Layout::RaceStack, sheet);
        }
    };
    let names = listing.names();
    let centerline_csv = listing.centerline_csv().map(str::to_string);
    let racing_csv = listing.racing_line_csv().map(str::to_string);
    let layout = listing.layout();

    let rule = check_record(&mut sheet, dir, &listing);
    let map = check_map(&mut sheet, dir, &listing, rule);
    if layout == Layout::MapZoo {
        let cent = names.cent_yaml.clone();
        if listing.has(&cent) {
            check_map_file(&mut sheet, dir, &cent, rule);
        } else {
            sheet.skip(&cent, "track-only map", "not present");
        }
    }

    let centerline = check_csv(
        &mut sheet,
        dir,
        layout,
        centerline_csv.unwrap_or_else(|| names.centerline_csv.clone()),
        false,
    );
    let racing = check_csv(
        &mut sheet,
        dir,
        layout,
        racing_csv.unwrap_or_else(|| names.racing_line_csv.clone()),
        true,
    );

    let global = check_global(&mut sheet, dir, &listing);

    const RL: &str = "racing line = a JSON trajectory";
    let csv_name = names.racing_line_csv.clone();
    match (layout, &racing, &global) {
        (Layout::RaceStack, _, _) => sheet.skip(&csv_name, RL, "Race Stack folder, no CSVs"),
        (_, Some(rl), Some(g)) => sheet.result(&csv_name, RL, same_trajectory(rl, g)),
        _ => sheet.skip(&csv_name, RL, "the CSV or the JSON did not read"),
    }

    const CL: &str = "centerline = the JSON centerline";
    let cl_name = names.centerline_csv.clone();
    match (layout, &centerline, &global) {
        (Layout::RaceStack, _, _) => sheet.skip(&cl_name, CL, "Race Stack folder, no CSVs"),
        (_, Some(c), Some(g)) => sheet.result(&cl_name, CL, same_centerline(c, g)),
        _ => sheet.skip(&cl_name, CL, "the CSV or the JSON did not read"),
    }

    // Every line a consumer drives or measures along: in a MapZoo set its CSVs (and the SP
    // line of the JSON, which has no CSV of its own in a built set), else the JSON's.
    const CENT: &str = "centerline";
    const RACING: &str = "racing line";
    let mut driven: Vec<(String, &str, &[Waypoint])> = Vec::new();
    let json = |key: &str| format!("{FILE} ({key})");
    if layout == Layout::MapZoo {
        if let Some(c) = &centerline {
            driven.push((cl_name.clone(), CENT, c.as_slice()));
        }
        if let Some(r) = &racing {
            driven.push((names.racing_line_csv.clone(), RACING, r.as_slice()));
        }
        if let Some(g) = &global {
            driven.push((json("global_traj_wpnts_sp"), RACING, g.sp.wpnts.as_slice()));
        }
    } else if let Some(g) = &global {
        driven.push((
            json("centerline_waypoints"),
            CENT,
            g.centerline.wpnts.as_slice(),
        ));
        driven.push((
            json("global_traj_wpnts_iqp"),
            RACING,
            g.iqp.wpnts.as_slice(),
        ));
        driven.push((json("global_traj_wpnts_sp"), RACING, g.sp.wpnts.as_slice()));
    }

    // The line the sector indices refer to.
    let line: Option<(String, &[Waypoint])> = match (layout, &racing, &global) {
        (Layout::MapZoo, Some(rl), _) => Some((csv_name.clone(), rl.as_slice())),
        (_, _, Some(g)) => Some((
            "global_waypoints.json (global_traj_wpnts_iqp)".to_string(),
            g.iqp.wpnts.as_slice(),
        )),
        _ => None,
    };
    check_sectors(
        &mut sheet,
        dir,
        &listing,
        line.as_ref().map(|(_, l)| l.len()),
    );
    check_lines_in_track(&mut sheet, map.as_ref(), &driven);
    finish(dir, layout, sheet)
}

fn finish(dir: &Path, layout: Layout, sheet: Sheet) -> ValidationReport {
    let ok = sheet.checks.iter().all(|c| c.status != CheckStatus::Fail);
    ValidationReport {
        dir: dir.to_path_buf(),
        layout,
        ok,
        checks: sheet.checks,
    }
}

/// `mapzoo.toml`, when present: it reads, and its free-space rule is the one the map's pixels
/// are classified with (a set built with `free_rule = "nonzero"` is checked as it was built).
fn check_record(sheet: &mut Sheet, dir: &Path, listing: &SetFolder) -> FreeRule {
    const REC: &str = "build settings read";
    if !listing.has(SETTINGS_FILE) {
        sheet.skip(
            SETTINGS_FILE,
            REC,
            "not present; the map is read with the map-server rule",
        );
        return FreeRule::MapServer;
    }
    match SetRecord::read(&dir.join(SETTINGS_FILE)) {
        Ok(r) => {
            let rule = r.free_rule().unwrap_or_default();
            let name = match rule {
                FreeRule::MapServer => "map-server",
                FreeRule::Nonzero => "nonzero",
            };
            sheet.pass(
                SETTINGS_FILE,
                REC,
                format!("track {:?}, free_rule {name}", r.track),
            );
            rule
        }
        Err(e) => {
            sheet.fail(SETTINGS_FILE, REC, e.reason());
            FreeRule::MapServer
        }
    }
}

/// The map YAML: `<track>.yaml`, else the only YAML that is not a sector file or `-cent`.
fn check_map(
    sheet: &mut Sheet,
    dir: &Path,
    listing: &SetFolder,
    rule: FreeRule,
) -> Option<OccupancyMap> {
    let exact = listing.names().yaml;
    let name = match listing.map_yaml() {
        MapYaml::Found(name) => name,
        MapYaml::Missing => {
            sheet.fail(
                &exact,
                "map YAML present",
                "no map YAML in the folder; a track needs <track>.yaml beside <track>.png",
            );
            return None;
        }
        MapYaml::Several(candidates) => {
            sheet.fail(
                &exact,
                "map YAML present",
                format!(
                    "several candidate map YAMLs ({}); name the map {exact}",
                    candidates.join(", ")
                ),
            );
            return None;
        }
    };
    check_map_file(sheet, dir, &name, rule)
}

/// PNG loads, `image` points to it, resolution, origin and thresholds, one line each.
fn check_map_file(
    sheet: &mut Sheet,
    dir: &Path,
    name: &str,
    rule: FreeRule,
) -> Option<OccupancyMap> {
    let path = dir.join(name);
    let bytes =
        crate::input_file::read_input_file(&path, crate::input_file::MAX_YAML_BYTES, "map YAML");
    let text = match bytes.map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => {
            sheet.fail(name, "map YAML readable", "not UTF-8 text");
            return None;
        }
        Err(e) => {
            sheet.fail(name, "map YAML readable", e.reason());
            return None;
        }
    };
    // A leading UTF-8 byte-order mark is not part of the YAML.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let parsed = crate::nesting::parse_yaml_with(text, &path, |e| {
        FormatError::syntax(&path, None, None, format!("not valid YAML: {e}"))
    });
    let value = match parsed {
        Ok(v) => v,
        Err(e) => {
            sheet.fail(name, "map YAML parses", e.reason());
            return None;
        }
    };
    let image = check_map_image(sheet, dir, &path, name, &value);
    let pixels = check_png(sheet, name, image.as_ref());
    check_map_numbers(sheet, name, &value);

    // The classified map, for the free-space check, only if everything above holds.
    let meta = MapMeta::from_yaml_str(text, &path).ok()?;
    let (w, h, gray) = pixels?;
    Some(OccupancyMap::from_gray(w, h, gray, &meta, rule))
}

/// The map YAML's `image` names a file of the folder: its name and path.
fn check_map_image(
    sheet: &mut Sheet,
    dir: &Path,
    path: &Path,
    name: &str,
    value: &serde_yaml_ng::Value,
) -> Option<(String, PathBuf)> {
    const IMG: &str = "YAML image points to the PNG";
    match value.get("image") {
        Some(serde_yaml_ng::Value::String(s)) if !s.is_empty() => {
            let p = path.parent().unwrap_or(dir).join(s);
            if p.is_file() {
                sheet.pass(name, IMG, s.clone());
                Some((s.clone(), p))
            } else {
                sheet.fail(
                    name,
                    IMG,
                    format!("field \"image\" is {s:?} but no such file is in the folder"),
                );
                None
            }
        }
        Some(v) => {
            sheet.fail(
                name,
                IMG,
                format!("field \"image\" must be a file name (found {v:?})"),
            );
            None
        }
        None => {
            sheet.fail(name, IMG, "missing field \"image\"");
            None
        }
    }
}

/// The PNG named by the YAML decodes: its width, height and gray pixels.
fn check_png(
    sheet: &mut Sheet,
    name: &str,
    image: Option<&(String, PathBuf)>,
) -> Option<(usize, usize, Vec<u8>)> {
    const PNG: &str = "PNG loads";
    match image {
        Some((img_name, p)) => {
            match crate::input_file::read_image_file(p).and_then(|b| decode_gray_png(&b, p)) {
                Ok((w, h, gray)) => {
                    sheet.pass(img_name, PNG, format!("{w} × {h} pixels"));
                    Some((w, h, gray))
                }
                Err(e) => {
                    sheet.fail(img_name, PNG, e.reason());
                    None
                }
            }
        }
        None => {
            sheet.skip(name, PNG, "no image to load");
            None
        }
    }
}

/// Resolution, origin and thresholds of the map YAML, one line each.
fn check_map_numbers(sheet: &mut Sheet, name: &str, value: &serde_yaml_ng::Value) {
    let get = |k: &str| value.get(k);

    const RES: &str = "resolution > 0";
    match get("resolution").map(|v| v.as_f64()) {
        Some(Some(r)) if r.is_finite() && r > 0.0 => sheet.pass(name, RES, format!("{r} m/pixel")),
        Some(Some(r)) => sheet.fail(
            name,
            RES,
            format!("field \"resolution\" must be > 0 (found {r})"),
        ),
        Some(None) => sheet.fail(name, RES, "field \"resolution\" must be a number"),
        None => sheet.fail(name, RES, "missing field \"resolution\""),
    }

    const ORG: &str = "origin has 3 numbers";
    match get("origin").and_then(|v| v.as_sequence()) {
        Some(s) if s.len() == 3 && s.iter().all(|v| v.as_f64().is_some_and(f64::is_finite)) => {
            let n: Vec<String> = s
                .iter()
                .map(|v| format!("{}", v.as_f64().unwrap_or(0.0)))
                .collect();
            sheet.pass(name, ORG, format!("[{}]", n.join(", ")))
        }
        Some(s) => sheet.fail(
            name,
            ORG,
            format!(
                "field \"origin\" must be [x, y, yaw], 3 finite numbers (found {} entries)",
                s.len()
            ),
        ),
        None => sheet.fail(name, ORG, "missing field \"origin\" (a list [x, y, yaw])"),
    }

    // ROS map_server takes the thresholds in either order (occupied is tested first).
    const THR: &str = "free_thresh and occupied_thresh in 0..=1";
    let f = get("free_thresh").and_then(|v| v.as_f64());
    let o = get("occupied_thresh").and_then(|v| v.as_f64());
    match (f, o) {
        (Some(f), Some(o)) if (0.0..=1.0).contains(&f) && (0.0..=1.0).contains(&o) => {
            sheet.pass(name, THR, format!("free_thresh {f}, occupied_thresh {o}"))
        }
        (Some(f), Some(o)) => sheet.fail(
            name,
            THR,
            format!("found free_thresh {f} and occupied_thresh {o}"),
        ),
        _ => sheet.fail(
            name,
            THR,
            "fields \"free_thresh\" and \"occupied_thresh\" must both be numbers",
        ),
    }
}

/// Reads a waypoint CSV and checks ids, s_m, spacing (and widths for the racing line).
fn check_csv(
    sheet: &mut Sheet,
    dir: &Path,
    layout: Layout,
    name: String,
    racing_line: bool,
) -> Option<Vec<Waypoint>> {
    const COLS: &str = "11 columns in order, `;` separated, finite numbers";
    const IDS: &str = "ids 0..n-1";
    const S: &str = "s_m strictly increasing";
    const SP: &str = "spacing ≈0.1 m";
    const W: &str = "d_left, d_right > 0";
    let later = vec![IDS, S, SP, W];
    if layout == Layout::RaceStack {
        sheet.skip(&name, COLS, "Race Stack folder, no CSVs");
        for c in later {
            sheet.skip(&name, c, "Race Stack folder, no CSVs");
        }
        return None;
    }
    let path = dir.join(&name);
    if !path.is_file() {
        let what = if racing_line {
            "racing line"
        } else {
            "centerline"
        };
        sheet.fail(
            &name,
            COLS,
            format!("missing; a MapZoo track set has the {what} CSV beside the map"),
        );
        for c in later {
            sheet.skip(&name, c, "no file");
        }
        return None;
    }
    let rows = match waypoint::read_csv(&path) {
        Ok(r) => {
            sheet.pass(&name, COLS, format!("{} rows", r.len()));
            r
        }
        Err(e) => {
            sheet.fail(&name, COLS, e.reason());
            for c in later {
                sheet.skip(&name, c, "the CSV did not read");
            }
            return None;
        }
    };
    sheet.result(&name, IDS, ids_in_order(&rows));
    sheet.result(&name, S, s_increasing(&rows));
    sheet.result(&name, SP, spacing(&rows));
    sheet.result(&name, W, widths_positive(&rows));
    Some(rows)
}

/// Waypoint ids must be 0, 1, …, n-1; on failure names the row (line = row + 2).
fn ids_in_order(rows: &[Waypoint]) -> std::result::Result<String, String> {
    match rows.iter().enumerate().find(|(i, w)| w.id != *i as i64) {
        None => Ok(format!("0..{}", rows.len().saturating_sub(1))),
        Some((i, w)) => Err(format!(
            "row {i} (line {}) has id {}, expected {i}; ids must run 0..n-1 without gaps",
            i + 2,
            w.id
        )),
    }
}

fn s_increasing(rows: &[Waypoint]) -> std::result::Result<String, String> {
    match rows.windows(2).position(|p| p[1].s_m <= p[0].s_m) {
        None => Ok(format!("0 … {:.4} m", rows.last().map_or(0.0, |w| w.s_m))),
        Some(i) => Err(format!(
            "id {} has s_m {} after {}; s_m must grow strictly",
            rows[i + 1].id,
            rows[i + 1].s_m,
            rows[i].s_m
        )),
    }
}

fn spacing(rows: &[Waypoint]) -> std::result::Result<String, String> {
    let worst = rows
        .windows(2)
        .map(|p| (p[1].id, p[1].s_m - p[0].s_m))
        .max_by(|a, b| (a.1 - SPACING_M).abs().total_cmp(&(b.1 - SPACING_M).abs()));
    match worst {
        None => Err("fewer than 2 rows".into()),
        Some((id, ds)) if (ds - SPACING_M).abs() <= SPACING_TOLERANCE_M => {
            Ok(format!("worst Δs {ds:.6} m (before id {id})"))
        }
        Some((id, ds)) => Err(format!(
            "Δs {ds:.6} m before id {id} is not within {SPACING_TOLERANCE_M} m of {SPACING_M} m"
        )),
    }
}

fn widths_positive(rows: &[Waypoint]) -> std::result::Result<String, String> {
    match rows.iter().find(|w| !(w.d_left > 0.0 && w.d_right > 0.0)) {
        None => {
            let m = rows
                .iter()
                .map(|w| w.d_left.min(w.d_right))
                .fold(f64::INFINITY, f64::min);
            Ok(format!("smallest {m:.4} m"))
        }
        Some(w) => Err(format!(
            "id {} has d_right {} and d_left {}; both must be > 0 (the point lies on or outside a wall)",
            w.id, w.d_right, w.d_left
        )),
    }
}

const FILE: &str = GLOBAL_WAYPOINTS;
const ENTRIES: &str = "centerline, IQP, SP and track-bound entries";
const FINITE: &str = "waypoints finite, ids 0..n-1";
const COUNT: &str = "marker count = waypoint count";

/// `global_waypoints.json` parses and holds every entry, finite, with matching marker counts.
fn check_global(sheet: &mut Sheet, dir: &Path, listing: &SetFolder) -> Option<GlobalWaypoints> {
    const PARSE: &str = "JSON parses";
    if !listing.has(FILE) {
        sheet.fail(
            FILE,
            PARSE,
            "missing; every track folder needs global_waypoints.json",
        );
        for c in [ENTRIES, FINITE, COUNT] {
            sheet.skip(FILE, c, "no JSON");
        }
        return None;
    }
    let g = match GlobalWaypoints::read(&dir.join(FILE)) {
        Ok(g) => {
            let flavor = match g.flavor() {
                crate::Flavor::Ros1 => "ROS 1",
                crate::Flavor::Ros2 => "ROS 2",
            };
            sheet.pass(FILE, PARSE, format!("{flavor}; {}", g.map_info_str.trim()));
            g
        }
        Err(e) => {
            let why = e.reason();
            if why.starts_with("missing key") {
                sheet.pass(FILE, PARSE, "valid JSON");
                sheet.fail(FILE, ENTRIES, why);
            } else {
                sheet.fail(FILE, PARSE, why);
                sheet.skip(FILE, ENTRIES, "the JSON did not parse");
            }
            for c in [FINITE, COUNT] {
                sheet.skip(FILE, c, "the JSON did not parse");
            }
            return None;
        }
    };
    check_global_entries(sheet, &g);
    check_reader_keys(sheet, &g);
    check_global_finite(sheet, dir, &g);
    check_global_counts(sheet, &g);
    check_global_widths(sheet, &g);
    Some(g)
}

const READER: &str = "every key the Race Stack's reader reads";
const JSON_W: &str = "d_left, d_right > 0 in every line";

/// The Race Stack's reader (`readwrite_global_waypoints.read_global_waypoints`) indexes all
/// nine top-level keys and stops with a `KeyError` at a missing one; this crate's reader
/// accepts files without `est_lap_time` (older variants), the Race Stack does not.
fn check_reader_keys(sheet: &mut Sheet, g: &GlobalWaypoints) {
    if g.est_lap_time.is_some() {
        sheet.pass(FILE, READER, crate::global::KEYS.join(", "));
    } else {
        sheet.fail(
            FILE,
            READER,
            "no \"est_lap_time\": the Race Stack's reader (readwrite_global_waypoints) reads it and stops with a KeyError; add {\"est_lap_time\": {\"data\": <lap time, s>}} (mapzoo writes the SP lap time there)",
        );
    }
}

/// Widths of every waypoint array are positive.
fn check_global_widths(sheet: &mut Sheet, g: &GlobalWaypoints) {
    let bad: Vec<String> = g
        .waypoint_arrays()
        .into_iter()
        .filter_map(|(key, arr)| {
            widths_positive(&arr.wpnts)
                .err()
                .map(|e| format!("\"{key}\": {e}"))
        })
        .collect();
    if bad.is_empty() {
        sheet.pass(FILE, JSON_W, "all widths positive");
    } else {
        sheet.fail(FILE, JSON_W, bad.join("; "));
    }
}

/// The centerline CSV equals the JSON's centerline_waypoints, within [`TRAJECTORY_TOLERANCE`].
fn same_centerline(csv: &[Waypoint], g: &GlobalWaypoints) -> std::result::Result<String, String> {
    let json = &g.centerline.wpnts;
    if json.len() != csv.len() {
        return Err(format!(
            "the CSV has {} points, centerline_waypoints {}; rebuild or regenerate the set so both come from one run",
            csv.len(),
            json.len()
        ));
    }
    let worst = csv
        .iter()
        .zip(json)
        .flat_map(|(a, b)| {
            let (va, vb) = (a.values(), b.values());
            (0..10).map(move |k| ((va[k] - vb[k]).abs(), a.id, k))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0));
    match worst {
        None => Err("both are empty".into()),
        Some((d, _, _)) if d <= TRAJECTORY_TOLERANCE => {
            Ok(format!("equal (largest difference {d:.1e})"))
        }
        Some((d, id, k)) => Err(format!(
            "differs by {d:.3e} at id {id}, column \"{}\"; rebuild or regenerate the set so both come from one run",
            waypoint::CSV_COLUMNS[k + 1]
        )),
    }
}

/// Every waypoint array, both track bounds and both lap times are present.
fn check_global_entries(sheet: &mut Sheet, g: &GlobalWaypoints) {
    let mut empty = Vec::new();
    for (key, arr) in g.waypoint_arrays() {
        if arr.wpnts.is_empty() {
            empty.push(format!("\"{key}\" has no waypoints"));
        }
    }
    let (right, left) = (g.right_bound().len(), g.left_bound().len());
    if right == 0 || left == 0 {
        empty.push(format!(
            "\"trackbounds_markers\" has {right} right-bound and {left} left-bound points; both walls are needed"
        ));
    }
    let info = g.map_info;
    if info.iqp_lap_time_s.is_none() || info.sp_lap_time_s.is_none() {
        empty.push(format!(
            "\"map_info_str\" lacks the IQP or SP lap time ({:?})",
            g.map_info_str
        ));
    }
    if empty.is_empty() {
        sheet.pass(
            FILE,
            ENTRIES,
            format!(
                "centerline {}, IQP {}, SP {}, bounds {right} right + {left} left",
                g.centerline.wpnts.len(),
                g.iqp.wpnts.len(),
                g.sp.wpnts.len()
            ),
        );
    } else {
        sheet.fail(FILE, ENTRIES, empty.join("; "));
    }
}

/// Every value finite, ids 0..n-1 in each waypoint array.
fn check_global_finite(sheet: &mut Sheet, dir: &Path, g: &GlobalWaypoints) {
    let mut bad = Vec::new();
    if let Err(e) = g.check_finite(&dir.join(FILE)) {
        bad.push(e.reason());
    }
    for (key, arr) in g.waypoint_arrays() {
        if let Err(e) = ids_in_order(&arr.wpnts) {
            // Row numbers, not CSV lines, in the JSON.
            let e = e.split(" (line").next().unwrap_or(&e).to_string();
            bad.push(format!("\"{key}\": {e}"));
        }
    }
    if bad.is_empty() {
        sheet.pass(FILE, FINITE, "all values finite");
    } else {
        sheet.fail(FILE, FINITE, bad.join("; "));
    }
}

/// Each marker array as long as its waypoint array.
fn check_global_counts(sheet: &mut Sheet, g: &GlobalWaypoints) {
    let pairs = [
        (
            "centerline_markers",
            &g.centerline_markers,
            "centerline_waypoints",
            &g.centerline,
        ),
        (
            "global_traj_markers_iqp",
            &g.iqp_markers,
            "global_traj_wpnts_iqp",
            &g.iqp,
        ),
        (
            "global_traj_markers_sp",
            &g.sp_markers,
            "global_traj_wpnts_sp",
            &g.sp,
        ),
    ];
    let mismatches: Vec<String> = pairs
        .iter()
        .filter(|(_, m, _, w)| m.markers.len() != w.wpnts.len())
        .map(|(mk, m, wk, w)| {
            format!(
                "\"{mk}\" has {} markers but \"{wk}\" has {} waypoints",
                m.markers.len(),
                w.wpnts.len()
            )
        })
        .collect();
    if mismatches.is_empty() {
        sheet.pass(
            FILE,
            COUNT,
            "centerline, IQP and SP markers match their waypoints",
        );
    } else {
        sheet.fail(FILE, COUNT, mismatches.join("; "));
    }
}

/// Which JSON trajectory the CSV equals, within [`TRAJECTORY_TOLERANCE`].
fn same_trajectory(csv: &[Waypoint], g: &GlobalWaypoints) -> std::result::Result<String, String> {
    let mut notes = Vec::new();
    for (key, arr) in [
        ("global_traj_wpnts_iqp", &g.iqp),
        ("global_traj_wpnts_sp", &g.sp),
    ] {
        if arr.wpnts.len() != csv.len() {
            notes.push(format!(
                "{key} has {} points, the CSV {}",
                arr.wpnts.len(),
                csv.len()
            ));
            continue;
        }
        let worst = csv
            .iter()
            .zip(&arr.wpnts)
            .flat_map(|(a, b)| {
                let (va, vb) = (a.values(), b.values());
                (0..10).map(move |k| ((va[k] - vb[k]).abs(), a.id, k))
            })
            .chain(
                csv.iter()
                    .zip(&arr.wpnts)
                    .filter(|(a, b)| a.id != b.id)
                    .map(|(a, _)| (f64::INFINITY, a.id, 0)),
            )
            .max_by(|x, y| x.0.total_cmp(&y.0));
        match worst {
            Some((d, _, _)) if d <= TRAJECTORY_TOLERANCE => {
                return Ok(format!("equals {key} (largest difference {d:.1e})"))
            }
            Some((d, id, k)) => notes.push(format!(
                "{key} differs by {d:.3e} at id {id}, column \"{}\"",
                waypoint::CSV_COLUMNS[k + 1]
            )),
            None => notes.push(format!("{key} is empty")),
        }
    }
    Err(format!(
        "equals neither JSON trajectory: {}",
        notes.join("; ")
    ))
}

fn check_sectors(sheet: &mut Sheet, dir: &Path, listing: &SetFolder, n: Option<usize>) {
    const PARSE: &str = "parses";
    const COUNT: &str = "n_sectors = number of sector entries";
    const RANGE: &str = "indices within 0..=n of the racing line";
    const ORDER: &str = "sectors contiguous and in order";
    for file in SECTOR_FILES {
        let speed = file == SPEED_SCALING;
        let mut later = vec![COUNT, RANGE, ORDER];
        if speed {
            later.push(SCALE);
        }
        if !listing.has(file) {
            sheet.fail(
                file,
                PARSE,
                "missing; the Race Stack needs it (mapzoo build writes a default)",
            );
            for c in later {
                sheet.skip(file, c, "no file");
            }
            continue;
        }
        let parsed = read_sector_file(&dir.join(file), speed);
        let (declared, ranges, scaling, prefix) = match parsed {
            Ok(p) => {
                sheet.pass(file, PARSE, format!("{} sectors", p.1.len()));
                p
            }
            Err(e) => {
                sheet.fail(file, PARSE, e.reason());
                for c in later {
                    sheet.skip(file, c, "the file did not parse");
                }
                continue;
            }
        };
        if declared == ranges.len() as i64 && !ranges.is_empty() {
            sheet.pass(file, COUNT, format!("{declared}"));
        } else {
            sheet.fail(
                file,
                COUNT,
                format!(
                    "\"n_sectors\" is {declared} but the file has {} sector entries",
                    ranges.len()
                ),
            );
        }
        let covered = |r: std::result::Result<(), String>| {
            r.map(|()| format!("{} sectors cover the line", ranges.len()))
        };
        match n {
            Some(n) => {
                sheet.result(
                    file,
                    RANGE,
                    check_bounds(&ranges, prefix, n)
                        .map(|()| format!("racing line has {n} points")),
                );
                sheet.result(
                    file,
                    ORDER,
                    covered(check_contiguous(&ranges, prefix, Some(n))),
                );
            }
            None => {
                sheet.skip(file, RANGE, "no racing line read");
                sheet.result(
                    file,
                    ORDER,
                    covered(check_contiguous(&ranges, prefix, None)),
                );
            }
        }
        if let Some((limit, scal)) = scaling {
            check_scaling(sheet, file, limit, &scal);
        }
    }
}

/// The sector count, ranges, `(global_limit, scaling per sector)` for
/// `speed_scaling.yaml`, and the entry prefix of a sector file.
type SectorSummary = (i64, Vec<(i64, i64)>, Option<(f64, Vec<f64>)>, &'static str);

/// Reads `speed_scaling.yaml` (`speed`) or `ot_sectors.yaml` at `path` as a [`SectorSummary`].
fn read_sector_file(path: &Path, speed: bool) -> Result<SectorSummary, FormatError> {
    if speed {
        SpeedScaling::read(path).map(|s| {
            let ranges = s.ranges();
            let scal: Vec<f64> = s.sectors.iter().map(|x| x.scaling).collect();
            (
                s.declared_n_sectors,
                ranges,
                Some((s.global_limit, scal)),
                "Sector",
            )
        })
    } else {
        OtSectors::read(path).map(|s| {
            let ranges = s.ranges();
            (s.declared_n_sectors, ranges, None, "Overtaking_sector")
        })
    }
}

const SCALE: &str = "scaling in (0, 1]";

/// `global_limit` and every sector's `scaling` lie in (0, 1].
fn check_scaling(sheet: &mut Sheet, file: &str, limit: f64, scal: &[f64]) {
    let bad_limit = !(limit > 0.0 && limit <= 1.0);
    let bad = scal.iter().position(|s| !(*s > 0.0 && *s <= 1.0));
    match (bad_limit, bad) {
        (false, None) => sheet.pass(file, SCALE, format!("global_limit {limit}")),
        (true, _) => sheet.fail(
            file,
            SCALE,
            format!("\"global_limit\" is {limit}, must be in (0, 1]"),
        ),
        (_, Some(i)) => sheet.fail(
            file,
            SCALE,
            format!("Sector{i}: \"scaling\" is {}, must be in (0, 1]", scal[i]),
        ),
    }
}

/// Every driven line lies in free space with clearance: each waypoint, and points every half
/// pixel along each step between waypoints, lies on a free pixel whose 8 neighbours are free
/// too (so a line that jumps through a thin wall between two waypoints is caught).
fn check_lines_in_track(
    sheet: &mut Sheet,
    map: Option<&OccupancyMap>,
    lines: &[(String, &str, &[Waypoint])],
) {
    if lines.is_empty() {
        sheet.skip("lines", "racing line in free space", "no line read");
        return;
    }
    for (file, kind, wpnts) in lines {
        let check = format!("{kind} in free space, ≥ 1 pixel from walls");
        let Some(map) = map else {
            sheet.skip(file, &check, "the map did not load");
            continue;
        };
        match first_blocked(map, wpnts) {
            None => sheet.pass(
                file,
                &check,
                format!("all {} waypoints and the steps between them", wpnts.len()),
            ),
            Some((id, x, y)) => {
                let (c, r) = map.world_to_pixel(x, y);
                sheet.fail(
                    file,
                    &check,
                    format!(
                        "near waypoint id {id}, at ({x:.3}, {y:.3}) m, the line touches an occupied pixel (col {}, row {}) of the map or its neighbour; the line must stay inside the track",
                        c.round(),
                        r.round()
                    ),
                )
            }
        }
    }
}

/// The first place along `line` (the id of the step's first waypoint, and x, y) that is not
/// free with one pixel of clearance.
fn first_blocked(map: &OccupancyMap, line: &[Waypoint]) -> Option<(i64, f64, f64)> {
    let clear = |x: f64, y: f64| {
        let (c, r) = map.world_to_pixel(x, y);
        if !(c.is_finite() && r.is_finite()) {
            return false;
        }
        let (c, r) = (c.round() as i64, r.round() as i64);
        (-1..=1).all(|dc| (-1..=1).all(|dr| map.is_free(c + dc, r + dr)))
    };
    let half_px = (map.resolution / 2.0).max(1e-6);
    for (i, w) in line.iter().enumerate() {
        if !clear(w.x_m, w.y_m) {
            return Some((w.id, w.x_m, w.y_m));
        }
        let Some(next) = line.get(i + 1) else { break };
        let len = (next.x_m - w.x_m).hypot(next.y_m - w.y_m);
        // Steps longer than a few metres are gaps of another check (spacing), not walls.
        let steps = ((len / half_px).ceil() as usize).min(10_000);
        for k in 1..steps {
            let t = k as f64 / steps as f64;
            let (x, y) = (
                w.x_m + t * (next.x_m - w.x_m),
                w.y_m + t * (next.y_m - w.y_m),
            );
            if !clear(x, y) {
                return Some((w.id, x, y));
            }
        }
    }
    None
}
