//! Checks of `global_waypoints.json`: it parses and holds every entry the Race
//! Stack's reader reads, finite, with matching marker counts and positive widths, and
//! its centerline and trajectories equal the CSVs within [`TRAJECTORY_TOLERANCE`].

use std::path::Path;

use crate::global::GlobalWaypoints;
use crate::set::layout::GLOBAL_WAYPOINTS;
use crate::set::SetFolder;
use crate::waypoint::{self, Waypoint};

use super::csv_checks::{ids_in_order, widths_positive};
use super::report::Sheet;

/// Largest difference between the racing-line CSV and a JSON trajectory, per value.
pub const TRAJECTORY_TOLERANCE: f64 = 1e-6;

pub(super) const FILE: &str = GLOBAL_WAYPOINTS;
const ENTRIES: &str = "centerline, IQP, SP and track-bound entries";
const FINITE: &str = "waypoints finite, ids 0..n-1";
const COUNT: &str = "marker count = waypoint count";

/// `global_waypoints.json` parses and holds every entry, finite, with matching marker counts.
pub(super) fn check_global(
    sheet: &mut Sheet,
    dir: &Path,
    listing: &SetFolder,
) -> Option<GlobalWaypoints> {
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
pub(super) fn check_reader_keys(sheet: &mut Sheet, g: &GlobalWaypoints) {
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
pub(super) fn check_global_widths(sheet: &mut Sheet, g: &GlobalWaypoints) {
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
pub(super) fn same_centerline(
    csv: &[Waypoint],
    g: &GlobalWaypoints,
) -> std::result::Result<String, String> {
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
pub(super) fn check_global_entries(sheet: &mut Sheet, g: &GlobalWaypoints) {
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
pub(super) fn check_global_finite(sheet: &mut Sheet, dir: &Path, g: &GlobalWaypoints) {
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
pub(super) fn check_global_counts(sheet: &mut Sheet, g: &GlobalWaypoints) {
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
pub(super) fn same_trajectory(
    csv: &[Waypoint],
    g: &GlobalWaypoints,
) -> std::result::Result<String, String> {
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
