//! The dataset's checklist for one track folder (DESIGN §2, issue 2): every
//! file of a MapZoo set or a Race Stack map folder is read and checked, and
//! each check yields a typed pass / FAIL / skip with its reason, so the
//! `validate` and `check` commands only print.
//!
//! [`validate_dir`] runs the checklist; the checks live by the file they read
//! (`map_checks`, `csv_checks`, `global_checks`, `sector_checks`) and the report they
//! fill in `report`.

mod csv_checks;
mod global_checks;
mod map_checks;
mod report;
mod sector_checks;

pub use csv_checks::{SPACING_M, SPACING_TOLERANCE_M};
pub use global_checks::TRAJECTORY_TOLERANCE;
pub use report::{CheckStatus, ValidationCheck, ValidationReport};

use std::path::Path;

use crate::map::FreeRule;
use crate::set::{Layout, SetFolder, SetRecord, SETTINGS_FILE};
use crate::waypoint::Waypoint;

use csv_checks::check_csv;
use global_checks::{check_global, same_centerline, same_trajectory, FILE};
use map_checks::{check_lines_in_track, check_map, check_map_file};
use report::Sheet;
use sector_checks::check_sectors;

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
