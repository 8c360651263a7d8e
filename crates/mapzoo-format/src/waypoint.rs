//! One waypoint of a centerline or trajectory: the 11 columns of DESIGN §2.2,
//! and the Race Stack `Wpnt` message fields of §2.3, in the same order; and
//! the waypoint CSV reader and writer.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{FormatError, Result};
use crate::table::{self, Dialect, Row};

/// One waypoint, as in the MapZoo CSVs and the Race Stack JSON.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Waypoint {
    /// Index along the line, from 0.
    pub id: i64,
    /// Arc length from the first waypoint, metres.
    pub s_m: f64,
    /// Lateral offset from the reference line, metres (0 in MapZoo files).
    pub d_m: f64,
    /// World x, metres.
    pub x_m: f64,
    /// World y, metres.
    pub y_m: f64,
    /// Distance to the right track boundary, metres.
    pub d_right: f64,
    /// Distance to the left track boundary, metres.
    pub d_left: f64,
    /// Heading, radians, 0 = +x, counter-clockwise positive.
    pub psi_rad: f64,
    /// Signed curvature, 1/m, positive = turning left.
    pub kappa_radpm: f64,
    /// Speed, m/s.
    pub vx_mps: f64,
    /// Longitudinal acceleration, m/s².
    pub ax_mps2: f64,
}

impl Waypoint {
    /// A waypoint from its id and the ten float fields in column order.
    pub fn from_values(id: i64, v: [f64; 10]) -> Self {
        Waypoint {
            id,
            s_m: v[0],
            d_m: v[1],
            x_m: v[2],
            y_m: v[3],
            d_right: v[4],
            d_left: v[5],
            psi_rad: v[6],
            kappa_radpm: v[7],
            vx_mps: v[8],
            ax_mps2: v[9],
        }
    }

    /// The ten float fields in column order (all but `id`).
    pub fn values(&self) -> [f64; 10] {
        [
            self.s_m,
            self.d_m,
            self.x_m,
            self.y_m,
            self.d_right,
            self.d_left,
            self.psi_rad,
            self.kappa_radpm,
            self.vx_mps,
            self.ax_mps2,
        ]
    }
}

/// The waypoint CSV header of DESIGN §2.2, column names in order.
pub const CSV_COLUMNS: [&str; 11] = [
    "id",
    "s_m",
    "d_m",
    "x_m",
    "y_m",
    "d_right",
    "d_left",
    "psi_rad",
    "kappa_radpm",
    "vx_mps",
    "ax_mps2",
];

/// The exact header line the MapZoo CSVs carry (`; ` between names).
pub const CSV_HEADER: &str =
    "id; s_m; d_m; x_m; y_m; d_right; d_left; psi_rad; kappa_radpm; vx_mps; ax_mps2";

/// Reads a MapZoo waypoint CSV (centerline or racing line, DESIGN §2.2).
pub fn read_csv(path: &Path) -> Result<Vec<Waypoint>> {
    let text = read_text(path)?;
    from_csv_str(&text, path)
}

/// Parses waypoint CSV text; `path` is used in messages only.
///
/// Accepts spaces around `;` (pandas `skipinitialspace`), `\r\n` line endings
/// and blank lines; rejects a wrong header, a wrong column count, and any
/// value that is not a finite number, naming the line and column.
pub fn from_csv_str(text: &str, path: &Path) -> Result<Vec<Waypoint>> {
    let mut rows = table::rows(
        text,
        Dialect::Lines {
            delimiter: ';',
            comments: false,
        },
    )
    .into_iter();
    let header = rows.next().ok_or_else(|| {
        FormatError::syntax(
            path,
            None,
            None,
            format!(
                "the file is empty; expected the header `{CSV_HEADER}` and one row per waypoint"
            ),
        )
    })?;
    check_header(&header, path)?;
    let mut out = Vec::new();
    for row in rows {
        out.push(parse_row(&row, path)?);
    }
    if out.is_empty() {
        return Err(FormatError::syntax(
            path,
            None,
            None,
            "the file has a header but no waypoint rows",
        ));
    }
    Ok(out)
}

fn check_header(header: &Row<'_>, path: &Path) -> Result<()> {
    let (line_no, names) = (header.line, &header.cells);
    for (i, want) in CSV_COLUMNS.iter().enumerate() {
        match names.get(i) {
            Some(got) if got.as_ref() == *want => {}
            Some(got) => {
                return Err(FormatError::bad_value(
                    path,
                    *want,
                    Some(line_no),
                    format!("line {line_no}: header column {} is {got:?}, expected {want:?}; the header must be `{CSV_HEADER}`", i + 1),
                ))
            }
            None => {
                return Err(FormatError::missing_field(
                    path,
                    *want,
                    format!("line {line_no}: header has {} columns, column {} {want:?} is missing; the header must be `{CSV_HEADER}`", names.len(), i + 1),
                ))
            }
        }
    }
    if names.len() > CSV_COLUMNS.len() {
        return Err(FormatError::syntax(
            path,
            Some(line_no),
            Some(CSV_COLUMNS.len() + 1),
            format!(
                "line {line_no}: header has {} columns, expected 11 (extra {:?}); the header must be `{CSV_HEADER}`",
                names.len(),
                names[CSV_COLUMNS.len()]
            ),
        ));
    }
    Ok(())
}

fn parse_row(row: &Row<'_>, path: &Path) -> Result<Waypoint> {
    if row.cells.len() != CSV_COLUMNS.len() {
        return Err(FormatError::syntax(
            path,
            Some(row.line),
            None,
            format!(
                "line {}: {} columns, expected 11 separated by `;` ({CSV_HEADER})",
                row.line,
                row.cells.len()
            ),
        ));
    }
    let id = row.integer(0, "id", path)?;
    let mut v = [0.0f64; 10];
    for (k, slot) in v.iter_mut().enumerate() {
        *slot = row.finite(k + 1, CSV_COLUMNS[k + 1], path)?;
    }
    Ok(Waypoint::from_values(id, v))
}

/// Reads a whole CSV file as UTF-8 text, naming the file on failure: a regular file of at
/// most [`MAX_CSV_BYTES`](crate::input_file::MAX_CSV_BYTES) (a FIFO, a device or a larger
/// file is refused unread, [`crate::read_text_file`]).
pub(crate) fn read_text(path: &Path) -> Result<String> {
    crate::input_file::read_text_file(path, crate::input_file::MAX_CSV_BYTES, "CSV file")
}

/// The CSV text of DESIGN §2.2: header, then one row per waypoint, `;` without
/// spaces, 8 decimals (Python `%.8f`, so a tiny negative prints `-0.00000000`),
/// `\n` line endings, a final newline.
pub fn to_csv_string(waypoints: &[Waypoint]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(16 + waypoints.len() * 120);
    s.push_str(CSV_HEADER);
    s.push('\n');
    for w in waypoints {
        let _ = write!(s, "{}", w.id);
        for v in w.values() {
            let _ = write!(s, ";{v:.8}");
        }
        s.push('\n');
    }
    s
}

/// Writes a waypoint CSV; non-finite values are refused, naming the waypoint and column.
pub fn write_csv(path: &Path, waypoints: &[Waypoint]) -> Result<()> {
    check_finite(waypoints, path)?;
    crate::atomic::write_file(path, to_csv_string(waypoints).as_bytes())
}

/// Errors on the first non-finite value, naming waypoint index and column.
pub fn check_finite(waypoints: &[Waypoint], path: &Path) -> Result<()> {
    for (i, w) in waypoints.iter().enumerate() {
        if let Some(k) = w.values().iter().position(|v| !v.is_finite()) {
            return Err(FormatError::bad_value(
                path,
                CSV_COLUMNS[k + 1],
                None,
                format!(
                    "waypoint {i} (id {}): \"{}\" is {}, not a finite number",
                    w.id,
                    CSV_COLUMNS[k + 1],
                    w.values()[k]
                ),
            ));
        }
    }
    Ok(())
}
