//! Checks of the sector files `speed_scaling.yaml` and `ot_sectors.yaml`: they parse,
//! their ranges are in bounds and contiguous over the racing line, scalings in (0, 1].

use std::path::Path;

use crate::error::FormatError;
use crate::sectors::{check_bounds, check_contiguous, OtSectors, SpeedScaling};
use crate::set::layout::{SECTOR_FILES, SPEED_SCALING};
use crate::set::SetFolder;

use super::report::Sheet;

pub(super) fn check_sectors(sheet: &mut Sheet, dir: &Path, listing: &SetFolder, n: Option<usize>) {
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
pub(super) fn read_sector_file(path: &Path, speed: bool) -> Result<SectorSummary, FormatError> {
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
pub(super) fn check_scaling(sheet: &mut Sheet, file: &str, limit: f64, scal: &[f64]) {
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
