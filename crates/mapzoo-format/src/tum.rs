//! TUM `trajectory_planning_helpers` interop files (DESIGN §4, f1tenth racetracks):
//! a centerline with track widths `x_m, y_m, w_tr_right_m, w_tr_left_m`
//! (comma separated) and a raceline `s_m; x_m; y_m; psi_rad; kappa_radpm; vx_mps; ax_mps2`
//! (semicolon separated). Lines starting with `#` are comments.

use std::path::Path;

use crate::error::{FormatError, Result};
use crate::table::{self, Dialect};
use crate::waypoint::{self, read_text, Waypoint};

/// Column names of the TUM centerline file.
pub const CENTERLINE_COLUMNS: [&str; 4] = ["x_m", "y_m", "w_tr_right_m", "w_tr_left_m"];
/// Column names of the TUM raceline file.
pub const RACELINE_COLUMNS: [&str; 7] = [
    "s_m",
    "x_m",
    "y_m",
    "psi_rad",
    "kappa_radpm",
    "vx_mps",
    "ax_mps2",
];

/// One point of a TUM centerline with the track widths either side.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TumTrackPoint {
    /// World x, metres.
    pub x_m: f64,
    /// World y, metres.
    pub y_m: f64,
    /// Track width to the right of the point, metres.
    pub w_tr_right_m: f64,
    /// Track width to the left of the point, metres.
    pub w_tr_left_m: f64,
}

/// One point of a TUM raceline.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TumRacelinePoint {
    /// Arc length, metres.
    pub s_m: f64,
    /// World x, metres.
    pub x_m: f64,
    /// World y, metres.
    pub y_m: f64,
    /// Heading, radians (TUM convention: 0 = +y axis).
    pub psi_rad: f64,
    /// Signed curvature, 1/m.
    pub kappa_radpm: f64,
    /// Speed, m/s.
    pub vx_mps: f64,
    /// Longitudinal acceleration, m/s².
    pub ax_mps2: f64,
}

/// Reads a TUM centerline (`x_m, y_m, w_tr_right_m, w_tr_left_m`).
pub fn read_centerline(path: &Path) -> Result<Vec<TumTrackPoint>> {
    centerline_from_str(&read_text(path)?, path)
}

/// Parses TUM centerline text; `path` is used in messages only.
pub fn centerline_from_str(text: &str, path: &Path) -> Result<Vec<TumTrackPoint>> {
    four_column_rows(text, false, path)
}

/// The 4-column TUM track points of `text`, its first row skipped when `skip_first`.
fn four_column_rows(text: &str, skip_first: bool, path: &Path) -> Result<Vec<TumTrackPoint>> {
    let rows = parse_rows::<4>(text, ',', &CENTERLINE_COLUMNS, skip_first, path)?;
    Ok(rows
        .into_iter()
        .map(|v| TumTrackPoint {
            x_m: v[0],
            y_m: v[1],
            w_tr_right_m: v[2],
            w_tr_left_m: v[3],
        })
        .collect())
}

/// The TUM track points of `text`, its first row skipped when `skip_first`. Every layout
/// TUM's `import_track` accepts: 4 columns `x_m, y_m, w_tr_right_m, w_tr_left_m`; 3 columns
/// `x_m, y_m, w_tr_m` (the total width, half on each side); 5 columns
/// `x_m, y_m, z_m, w_tr_right_m, w_tr_left_m` (z ignored). Every row has the count of the
/// header's names (`header`), else of the first row.
fn centerline_rows(
    text: &str,
    skip_first: bool,
    header: Option<usize>,
    path: &Path,
) -> Result<Vec<TumTrackPoint>> {
    let dialect = Dialect::Lines {
        delimiter: ',',
        comments: true,
    };
    let rows = table::rows(text, dialect);
    let width = header.unwrap_or_else(|| {
        rows.get(usize::from(skip_first))
            .map_or(4, |r| r.cells.len())
    });
    match width {
        3 => {
            let cols = ["x_m", "y_m", "w_tr_m"];
            let rows = parse_rows::<3>(text, ',', &cols, skip_first, path)?;
            Ok(rows
                .into_iter()
                .map(|v| TumTrackPoint {
                    x_m: v[0],
                    y_m: v[1],
                    w_tr_right_m: v[2] / 2.0,
                    w_tr_left_m: v[2] / 2.0,
                })
                .collect())
        }
        5 => {
            let cols = ["x_m", "y_m", "z_m", "w_tr_right_m", "w_tr_left_m"];
            let rows = parse_rows::<5>(text, ',', &cols, skip_first, path)?;
            Ok(rows
                .into_iter()
                .map(|v| TumTrackPoint {
                    x_m: v[0],
                    y_m: v[1],
                    w_tr_right_m: v[3],
                    w_tr_left_m: v[4],
                })
                .collect())
        }
        _ => four_column_rows(text, skip_first, path),
    }
}

/// Whether `text` is a TUM trajectory (`s_m; x_m; y_m; psi_rad; kappa_radpm; vx_mps; ax_mps2`,
/// as TUM's optimiser and the f1tenth_racetracks `*_raceline.csv` hold it): a `#` line naming
/// those columns, or a first data row of 7 `;`-separated cells.
pub fn is_trajectory_text(text: &str) -> bool {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.strip_prefix('#') {
            Some(comment) => {
                if comment.split(';').map(str::trim).eq(RACELINE_COLUMNS) {
                    return true;
                }
            }
            None => return line.split(';').count() == RACELINE_COLUMNS.len(),
        }
    }
    false
}

/// Reads a TUM raceline (`s_m; x_m; y_m; psi_rad; kappa_radpm; vx_mps; ax_mps2`).
pub fn read_raceline(path: &Path) -> Result<Vec<TumRacelinePoint>> {
    raceline_from_str(&read_text(path)?, path)
}

/// Parses TUM raceline text; `path` is used in messages only.
pub fn raceline_from_str(text: &str, path: &Path) -> Result<Vec<TumRacelinePoint>> {
    let rows = parse_rows::<7>(text, ';', &RACELINE_COLUMNS, false, path)?;
    Ok(rows
        .into_iter()
        .map(|v| TumRacelinePoint {
            s_m: v[0],
            x_m: v[1],
            y_m: v[2],
            psi_rad: v[3],
            kappa_radpm: v[4],
            vx_mps: v[5],
            ax_mps2: v[6],
        })
        .collect())
}

/// Reads `path` as a TUM trajectory if it is one ([`is_trajectory_text`]), else `None`.
pub fn read_trajectory_detect(path: &Path) -> Result<Option<Vec<TumRacelinePoint>>> {
    let text = read_text(path)?;
    if !is_trajectory_text(&text) {
        return Ok(None);
    }
    raceline_from_str(&text, path).map(Some)
}

/// The TUM centerline text: `# x_m, y_m, w_tr_right_m, w_tr_left_m` then rows, shortest round-trip floats.
pub fn centerline_to_string(points: &[TumTrackPoint]) -> String {
    let mut s = format!("# {}\n", CENTERLINE_COLUMNS.join(", "));
    for p in points {
        s.push_str(&format!(
            "{:?}, {:?}, {:?}, {:?}\n",
            p.x_m, p.y_m, p.w_tr_right_m, p.w_tr_left_m
        ));
    }
    s
}

/// The TUM raceline text: `# s_m; …` then rows with 7 decimals, as TUM writes it.
pub fn raceline_to_string(points: &[TumRacelinePoint]) -> String {
    let mut s = format!("# {}\n", RACELINE_COLUMNS.join("; "));
    for p in points {
        s.push_str(&format!(
            "{:.7};{:.7};{:.7};{:.7};{:.7};{:.7};{:.7}\n",
            p.s_m, p.x_m, p.y_m, p.psi_rad, p.kappa_radpm, p.vx_mps, p.ax_mps2
        ));
    }
    s
}

/// Which layout [`centerline_any_from_str`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CenterlineFormat {
    /// The MapZoo waypoint CSV (DESIGN §2.2): every column as written.
    MapZoo,
    /// The TUM centerline (`x_m, y_m, w_tr_right_m, w_tr_left_m`): `psi_rad` and `kappa_radpm` are 0.
    Tum,
}

/// Reads a centerline in either layout; see [`centerline_any_from_str`].
pub fn read_centerline_any(path: &Path) -> Result<Vec<Waypoint>> {
    Ok(read_centerline_detect(path)?.1)
}

/// Reads a centerline in either layout and says which one it was.
pub fn read_centerline_detect(path: &Path) -> Result<(CenterlineFormat, Vec<Waypoint>)> {
    centerline_any_from_str(&read_text(path)?, path)
}

/// Parses a MapZoo waypoint CSV or a TUM centerline, told apart by the first
/// non-blank line: `#` starts a TUM comment header, a `;` means the MapZoo
/// header, anything else is TUM without a header (a bare `x_m,y_m,...` header
/// line is skipped too).
///
/// A TUM centerline becomes waypoints with `id` 0..n-1, `s_m` the cumulative
/// distance from point 0 (metres, no closing segment), `d_right` / `d_left` the
/// track widths, and `psi_rad`, `kappa_radpm`, `d_m`, `vx_mps`, `ax_mps2` all 0:
/// heading and curvature depend on the spline a caller fits, so a caller that
/// needs them computes them (check the returned [`CenterlineFormat`]).
pub fn centerline_any_from_str(
    text: &str,
    path: &Path,
) -> Result<(CenterlineFormat, Vec<Waypoint>)> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first = first.trim();
    if !first.starts_with('#') && first.contains(';') {
        return Ok((
            CenterlineFormat::MapZoo,
            waypoint::from_csv_str(text, path)?,
        ));
    }
    // A header line without `#` (`x_m,y_m,...`) as the first line is skipped.
    let header_skipped = first
        .split(',')
        .next()
        .is_some_and(|c| c.trim() == CENTERLINE_COLUMNS[0]);
    // The header's column names (a `#` comment or the bare line) fix the row width.
    let names = first.trim_start_matches('#');
    let header = names
        .split(',')
        .next()
        .is_some_and(|c| c.trim() == CENTERLINE_COLUMNS[0])
        .then(|| names.split(',').count());
    let points = centerline_rows(body, header_skipped, header, path)?;
    let mut s = 0.0;
    let waypoints = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i > 0 {
                s += (p.x_m - points[i - 1].x_m).hypot(p.y_m - points[i - 1].y_m);
            }
            Waypoint {
                id: i as i64,
                s_m: s,
                x_m: p.x_m,
                y_m: p.y_m,
                d_right: p.w_tr_right_m,
                d_left: p.w_tr_left_m,
                ..Waypoint::default()
            }
        })
        .collect();
    Ok((CenterlineFormat::Tum, waypoints))
}

/// Rows of `N` finite numbers separated by `sep`; `#` lines and blank lines
/// skipped, and the first row too when `skip_first` (a bare header line).
pub(crate) fn parse_rows<const N: usize>(
    text: &str,
    sep: char,
    columns: &[&str; N],
    skip_first: bool,
    path: &Path,
) -> Result<Vec<[f64; N]>> {
    let dialect = Dialect::Lines {
        delimiter: sep,
        comments: true,
    };
    let mut out = Vec::new();
    for row in table::rows(text, dialect)
        .into_iter()
        .skip(usize::from(skip_first))
    {
        if row.cells.len() != N {
            return Err(FormatError::syntax(
                path,
                Some(row.line),
                None,
                format!(
                    "line {}: {} columns, expected {N} separated by `{sep}` ({})",
                    row.line,
                    row.cells.len(),
                    columns.join(&format!("{sep} "))
                ),
            ));
        }
        let mut values = [0.0; N];
        for (k, slot) in values.iter_mut().enumerate() {
            *slot = row.finite(k, columns[k], path)?;
        }
        out.push(values);
    }
    if out.is_empty() {
        return Err(FormatError::syntax(
            path,
            None,
            None,
            format!(
                "no data rows; expected lines of {}",
                columns.join(&format!("{sep} "))
            ),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_files_with_comments() {
        let p = Path::new("t.csv");
        let c = centerline_from_str(
            "# x_m, y_m, w_tr_right_m, w_tr_left_m\n0.0, 0.5, 1.1, 1.2\n1, 2, 3, 4\n",
            p,
        )
        .unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].w_tr_left_m, 1.2);
        let r = raceline_from_str(
            "# uuid\n# sha\n# s_m; x_m; y_m; psi_rad; kappa_radpm; vx_mps; ax_mps2\n0.0000000;-0.4108859;-0.6907978;5.6364428;-0.0002925;8.0000000;0.0000000\n",
            p,
        )
        .unwrap();
        assert_eq!(r[0].psi_rad, 5.6364428);
        let again = raceline_from_str(&raceline_to_string(&r), p).unwrap();
        assert_eq!(again, r);
        let again = centerline_from_str(&centerline_to_string(&c), p).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    fn any_centerline_reads_both_layouts() {
        let p = Path::new("c.csv");
        let rows = "0.0, 0.0, 1.0, 1.5\n3.0, 4.0, 1.1, 1.4\n3.0, 10.0, 1.2, 1.3\n";
        let bare = centerline_any_from_str(rows, p).unwrap();
        let hashed =
            centerline_any_from_str(&format!("# x_m, y_m, w_tr_right_m, w_tr_left_m\n{rows}"), p)
                .unwrap();
        let named =
            centerline_any_from_str(&format!("x_m,y_m,w_tr_right_m,w_tr_left_m\n{rows}"), p)
                .unwrap();
        assert_eq!(bare.0, CenterlineFormat::Tum);
        assert_eq!(bare, hashed);
        assert_eq!(bare, named);
        let w = &bare.1;
        assert_eq!(w.len(), 3);
        assert_eq!(
            w.iter().map(|p| p.s_m).collect::<Vec<_>>(),
            vec![0.0, 5.0, 11.0]
        );
        assert_eq!(
            (w[1].id, w[1].x_m, w[1].y_m, w[1].d_right, w[1].d_left),
            (1, 3.0, 4.0, 1.1, 1.4)
        );
        assert!(w
            .iter()
            .all(|p| p.psi_rad == 0.0 && p.kappa_radpm == 0.0 && p.vx_mps == 0.0));

        let mapzoo = crate::waypoint::to_csv_string(w);
        let (format, back) = centerline_any_from_str(&mapzoo, p).unwrap();
        assert_eq!(format, CenterlineFormat::MapZoo);
        assert_eq!(&back, w);

        // Errors still name the line: in the bare layout and after a bare header.
        let e = centerline_any_from_str("1, 2, 3, 4\n1, 2, x, 4\n", p)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("c.csv") && e.contains("line 2") && e.contains("w_tr_right_m"),
            "{e}"
        );
        let e = centerline_any_from_str("x_m,y_m,w_tr_right_m,w_tr_left_m\n1, 2, 3\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("3 columns"), "{e}");
        let e = centerline_any_from_str("id; s_m\n0; 1\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.csv"), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let p = Path::new("t.csv");
        let e = centerline_from_str("# h\n0, 0, 1, 1\n0, nan, 1, 1\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3") && e.contains("y_m"), "{e}");
        let e = centerline_from_str("0, 0, 1\n", p).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("3 columns"), "{e}");
        assert!(raceline_from_str("# only comments\n", p).is_err());
    }
}
