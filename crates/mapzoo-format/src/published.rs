//! MapZoo's `published.csv`: the published lap times and top speeds per track
//! (DESIGN §2, used by the reproducibility check of issue 6).
//!
//! A comma-separated file with a header; columns are found by name, so extra
//! columns (`resolution`, `origin_x`, `est_lap_s`, …) and any order are fine.
//! Only `track` is required; a missing figure column or an empty cell is `None`.

use std::collections::HashMap;
use std::path::Path;

use crate::error::{FormatError, Result};
use crate::table::{self, Dialect};
use crate::waypoint::read_text;

/// One row of `published.csv`; figures absent from the file are `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedRow {
    /// Track name (the folder name of its set).
    pub track: String,
    /// Published IQP lap time, seconds.
    pub iqp_lap_s: Option<f64>,
    /// Published IQP top speed, m/s.
    pub iqp_vmax: Option<f64>,
    /// Published SP lap time, seconds.
    pub sp_lap_s: Option<f64>,
    /// Published SP top speed, m/s.
    pub sp_vmax: Option<f64>,
}

/// The figure columns read, in the order of [`PublishedRow`]'s fields.
const FIGURES: [&str; 4] = ["iqp_lap_s", "iqp_vmax", "sp_lap_s", "sp_vmax"];

/// Reads `published.csv`; errors name the file, the line and the column.
pub fn read_published_csv(path: &Path) -> Result<Vec<PublishedRow>> {
    published_from_str(&read_text(path)?, path)
}

/// Parses the text of `published.csv` (`path` is only used in messages).
pub fn published_from_str(text: &str, path: &Path) -> Result<Vec<PublishedRow>> {
    let mut records = table::rows(text, Dialect::Quoted { delimiter: b',' }).into_iter();
    let header = records.next().map_or_else(Vec::new, |r| r.cells);
    if header.iter().all(|h| h.is_empty()) {
        return Err(FormatError::syntax(
            path,
            Some(1),
            None,
            "line 1: empty; expected the header of MapZoo's published.csv (track,iqp_lap_s,iqp_vmax,sp_lap_s,sp_vmax,...)",
        ));
    }
    let col = |name: &str| header.iter().position(|h| h == name);
    let track_col = col("track").ok_or_else(|| {
        FormatError::missing_field(
            path,
            "track",
            format!(
                "line 1: no \"track\" column (found {}); expected the header of MapZoo's published.csv",
                header.join(",")
            ),
        )
    })?;
    let figure_cols = FIGURES.map(col);
    let mut rows = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for record in records {
        let line = record.line;
        if record.cells.len() != header.len() {
            return Err(FormatError::syntax(
                path,
                Some(line),
                None,
                format!(
                    "line {line}: {} columns, but the header has {}; check for a missing or extra comma (quote cells that contain one)",
                    record.cells.len(),
                    header.len()
                ),
            ));
        }
        if record.cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        let track = record.cells[track_col].to_string();
        if track.is_empty() {
            return Err(FormatError::bad_value(
                path,
                "track",
                Some(line),
                format!(
                    "line {line}, column {} \"track\": empty; every row needs a track name",
                    track_col + 1
                ),
            ));
        }
        if let Some(first) = seen.insert(track.clone(), line) {
            return Err(FormatError::inconsistent(
                path,
                format!("line {line}: track {track:?} already listed on line {first}; keep one row per track"),
            ));
        }
        let mut figures = [None; 4];
        for (slot, (c, name)) in figures.iter_mut().zip(figure_cols.iter().zip(FIGURES)) {
            let Some(c) = *c else { continue };
            if !record.cells[c].is_empty() {
                *slot = Some(record.finite(c, name, path)?);
            }
        }
        let [iqp_lap_s, iqp_vmax, sp_lap_s, sp_vmax] = figures;
        rows.push(PublishedRow {
            track,
            iqp_lap_s,
            iqp_vmax,
            sp_lap_s,
            sp_vmax,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<PublishedRow>> {
        published_from_str(text, Path::new("pub.csv"))
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn columns_are_found_by_name_and_extra_ones_ignored() {
        let rows = parse(
            "track,resolution,sp_vmax,iqp_lap_s,iqp_vmax,sp_lap_s,est_lap_s\n\
             Austin,0.1,12.5212,18.5875,12.5381,20.5395,20.5\n\
             \"Brands, Hatch\", 0.1 ,,19.0,,21.0,\n\n",
        )
        .unwrap();
        assert_eq!(
            rows,
            vec![
                PublishedRow {
                    track: "Austin".into(),
                    iqp_lap_s: Some(18.5875),
                    iqp_vmax: Some(12.5381),
                    sp_lap_s: Some(20.5395),
                    sp_vmax: Some(12.5212),
                },
                PublishedRow {
                    track: "Brands, Hatch".into(),
                    iqp_lap_s: Some(19.0),
                    iqp_vmax: None,
                    sp_lap_s: Some(21.0),
                    sp_vmax: None,
                },
            ]
        );
    }

    #[test]
    fn missing_figure_columns_are_none() {
        let rows = parse("\u{feff}track,sp_lap_s\nA,20\n").unwrap();
        assert_eq!(rows[0].sp_lap_s, Some(20.0));
        assert_eq!(rows[0].iqp_lap_s, None);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = err("track,iqp_lap_s\nA,1\nB,fast\n");
        assert!(
            e.contains("pub.csv")
                && e.contains("line 3")
                && e.contains("column 2")
                && e.contains("iqp_lap_s")
                && e.contains("fast"),
            "{e}"
        );
        let e = err("track,iqp_lap_s\nA,NaN\n");
        assert!(e.contains("line 2") && e.contains("not finite"), "{e}");
        let e = err("track,iqp_lap_s\nA,1,2\n");
        assert!(
            e.contains("line 2") && e.contains("3 columns") && e.contains("has 2"),
            "{e}"
        );
        let e = err("name,iqp_lap_s\nA,1\n");
        assert!(e.contains("line 1") && e.contains("\"track\""), "{e}");
        let e = err("track,iqp_lap_s\n,1\n");
        assert!(e.contains("line 2") && e.contains("track name"), "{e}");
        let e = err("track,iqp_lap_s\nA,1\nA,2\n");
        assert!(e.contains("line 3") && e.contains("line 2"), "{e}");
        assert!(err("").contains("line 1"));
    }

    #[test]
    fn reads_the_published_file() {
        let Some(data) = crate::testdata::reference_data_or_skip("reads_the_published_file") else {
            return;
        };
        let path = data.join("mapzoo/published.csv");
        let rows = read_published_csv(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(rows.len(), text.lines().count() - 1);
        let austin = rows.iter().find(|r| r.track == "Austin").unwrap();
        assert_eq!(austin.iqp_lap_s, Some(18.5875));
        assert_eq!(austin.sp_vmax, Some(12.5212));
        assert!(rows.iter().all(|r| r.iqp_lap_s.is_some()
            && r.iqp_vmax.is_some()
            && r.sp_lap_s.is_some()
            && r.sp_vmax.is_some()));
    }
}
