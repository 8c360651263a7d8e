//! Checks of the waypoint CSVs: columns, ids in order, s increasing, the
//! [`SPACING_M`] spacing and positive widths.

use std::path::Path;

use crate::set::Layout;
use crate::waypoint::{self, Waypoint};

use super::report::Sheet;

/// Target spacing of waypoints along the line, metres (DESIGN §2.2).
pub const SPACING_M: f64 = 0.1;
/// Largest accepted deviation of a row's Δs from [`SPACING_M`], metres.
pub const SPACING_TOLERANCE_M: f64 = 0.01;

/// Reads a waypoint CSV and checks ids, s_m, spacing (and widths for the racing line).
pub(super) fn check_csv(
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
pub(super) fn ids_in_order(rows: &[Waypoint]) -> std::result::Result<String, String> {
    match rows.iter().enumerate().find(|(i, w)| w.id != *i as i64) {
        None => Ok(format!("0..{}", rows.len().saturating_sub(1))),
        Some((i, w)) => Err(format!(
            "row {i} (line {}) has id {}, expected {i}; ids must run 0..n-1 without gaps",
            i + 2,
            w.id
        )),
    }
}

pub(super) fn s_increasing(rows: &[Waypoint]) -> std::result::Result<String, String> {
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

pub(super) fn spacing(rows: &[Waypoint]) -> std::result::Result<String, String> {
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

pub(super) fn widths_positive(rows: &[Waypoint]) -> std::result::Result<String, String> {
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
