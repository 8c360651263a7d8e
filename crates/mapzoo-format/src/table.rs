//! The one table reader of the crate (reading stage, every CSV-like file):
//! the rows of a text with their 1-based line numbers, cells split on the
//! format's delimiter and trimmed, and the one error shape for a cell that is
//! not a finite number or an integer (file, line, column number and name).
//!
//! Two dialects, one per kind of file the crate reads:
//! - [`Dialect::Lines`]: one row per line, blank lines skipped, `#` comment
//!   lines skipped where the format allows them, no quoting (the waypoint CSV
//!   with `;`, the TUM files with `,` or `;`).
//! - [`Dialect::Quoted`]: RFC 4180 records as the `csv` crate reads them with
//!   its defaults (`"` quotes a cell, `""` is a quote inside one, a quoted cell
//!   may span lines, `\r`, `\n` and `\r\n` end a record, empty lines skipped);
//!   used by `published.csv`, whose track names may hold a comma.

use std::borrow::Cow;
use std::path::Path;

use crate::error::{FormatError, Result};

/// How a format lays out its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// One row per line split on `delimiter`; lines blank after trimming are
    /// skipped, and lines starting with `#` (after trimming) when `comments`.
    Lines {
        /// The cell separator.
        delimiter: char,
        /// Whether `#` lines are comments.
        comments: bool,
    },
    /// Quoted records split on `delimiter` (an ASCII byte); only empty lines are skipped.
    Quoted {
        /// The cell separator.
        delimiter: u8,
    },
}

/// One row of a table: where it starts and its trimmed cells.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row<'a> {
    /// 1-based line of the row (for [`Dialect::Quoted`], the line the `csv`
    /// crate reports: the line after the previous record's terminator).
    pub(crate) line: usize,
    /// The cells, trimmed of whitespace, in column order.
    pub(crate) cells: Vec<Cow<'a, str>>,
}

impl Row<'_> {
    /// Cell `k` (0-based) as a finite number; errors name `path`, the line,
    /// column `k + 1` and `name`.
    pub(crate) fn finite(&self, k: usize, name: &str, path: &Path) -> Result<f64> {
        parse_finite(&self.cells[k], self.line, k + 1, name, path)
    }

    /// Cell `k` (0-based) as an integer; errors name `path`, the line,
    /// column `k + 1` and `name`.
    pub(crate) fn integer(&self, k: usize, name: &str, path: &Path) -> Result<i64> {
        let cell: &str = &self.cells[k];
        cell.parse::<i64>().map_err(|_| {
            FormatError::bad_value(
                path,
                name,
                Some(self.line),
                format!(
                    "line {}, column {} \"{name}\": expected an integer, found {:?}",
                    self.line,
                    k + 1,
                    short(cell)
                ),
            )
        })
    }
}

/// The rows of `text` (a leading UTF-8 BOM dropped) in `dialect`.
pub(crate) fn rows(text: &str, dialect: Dialect) -> Vec<Row<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match dialect {
        Dialect::Lines {
            delimiter,
            comments,
        } => text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| {
                let line = line.trim();
                if line.is_empty() || (comments && line.starts_with('#')) {
                    return None;
                }
                Some(Row {
                    line: i + 1,
                    cells: line
                        .split(delimiter)
                        .map(|c| Cow::Borrowed(c.trim()))
                        .collect(),
                })
            })
            .collect(),
        // The csv crate drops a BOM of its own too.
        Dialect::Quoted { delimiter } => {
            quoted_rows(text.strip_prefix('\u{feff}').unwrap_or(text), delimiter)
        }
    }
}

/// Where [`quoted_rows`] is inside a cell.
#[derive(Clone, Copy)]
enum Cell {
    /// Before the first byte of a cell.
    Start,
    /// In an unquoted cell.
    Plain,
    /// Inside quotes.
    Quoted,
    /// Just after a quote inside quotes: `""` or the end of the quotes.
    QuoteInQuoted,
}

/// Records the way `csv_core` reads them (quote `"`, doubled quotes, no
/// escape, no comments, `\r`/`\n`/`\r\n` terminators, empty lines skipped),
/// each with the `csv` crate's line: 1 + the `\n`s consumed before its read
/// began (a `\n` after the `\r` ending the previous record is consumed by the
/// next read).
fn quoted_rows(text: &str, delimiter: u8) -> Vec<Row<'_>> {
    let bytes = text.as_bytes();
    let is_term = |b: u8| b == b'\r' || b == b'\n';
    let mut rows = Vec::new();
    let mut i = 0;
    let mut newlines = 0;
    let mut after_cr = false;
    loop {
        let line = newlines + 1;
        if after_cr && bytes.get(i) == Some(&b'\n') {
            newlines += 1;
            i += 1;
        }
        after_cr = false;
        while i < bytes.len() && is_term(bytes[i]) {
            newlines += usize::from(bytes[i] == b'\n');
            i += 1;
        }
        if i >= bytes.len() {
            return rows;
        }
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let mut field = Vec::new();
        let mut state = Cell::Start;
        while let Some(&b) = bytes.get(i) {
            i += 1;
            newlines += usize::from(b == b'\n');
            state = match state {
                Cell::Quoted if b == b'"' => Cell::QuoteInQuoted,
                Cell::Quoted => {
                    field.push(b);
                    Cell::Quoted
                }
                Cell::QuoteInQuoted if b == b'"' => {
                    field.push(b);
                    Cell::Quoted
                }
                Cell::Start if b == b'"' => Cell::Quoted,
                _ if b == delimiter => {
                    fields.push(std::mem::take(&mut field));
                    Cell::Start
                }
                _ if is_term(b) => {
                    after_cr = b == b'\r';
                    break;
                }
                _ => {
                    field.push(b);
                    Cell::Plain
                }
            };
        }
        fields.push(field);
        let cells = fields
            .into_iter()
            // Only ASCII bytes were dropped from UTF-8 text: still UTF-8.
            .map(|f| Cow::Owned(String::from_utf8_lossy(&f).trim().to_string()))
            .collect();
        rows.push(Row { line, cells });
    }
}

/// Parses one finite float cell, naming line, column number and name on failure.
pub(crate) fn parse_finite(
    cell: &str,
    line_no: usize,
    col_no: usize,
    col_name: &str,
    path: &Path,
) -> Result<f64> {
    let value = cell.parse::<f64>().map_err(|_| {
        FormatError::bad_value(
            path,
            col_name,
            Some(line_no),
            format!(
                "line {line_no}, column {col_no} \"{col_name}\": expected a number, found {:?}",
                short(cell)
            ),
        )
    })?;
    if !value.is_finite() {
        return Err(FormatError::bad_value(
            path,
            col_name,
            Some(line_no),
            format!("line {line_no}, column {col_no} \"{col_name}\": value {cell} is not finite; every value must be a real number"),
        ));
    }
    Ok(value)
}

/// At most 40 characters of `s`, for messages.
pub(crate) fn short(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rows: &[Row<'_>]) -> Vec<(usize, Vec<String>)> {
        rows.iter()
            .map(|r| (r.line, r.cells.iter().map(|c| c.to_string()).collect()))
            .collect()
    }

    #[test]
    fn lines_skip_blank_and_comment_lines_and_trim_cells() {
        let text = "\u{feff}# h\n\n 1 ;2\r\n  \n#x;y\n3; 4 \n";
        let with = rows(
            text,
            Dialect::Lines {
                delimiter: ';',
                comments: true,
            },
        );
        assert_eq!(
            cells(&with),
            vec![
                (3, vec!["1".into(), "2".into()]),
                (6, vec!["3".into(), "4".into()])
            ]
        );
        let without = rows(
            text,
            Dialect::Lines {
                delimiter: ';',
                comments: false,
            },
        );
        assert_eq!(without.len(), 4);
        assert_eq!(without[0].line, 1);
    }

    #[test]
    fn quoted_cells_and_csv_crate_lines() {
        let rows = rows(
            "a,b\n\"x, \"\"y\"\"\", 2 \n\n\"multi\nline\",3\n",
            Dialect::Quoted { delimiter: b',' },
        );
        assert_eq!(
            cells(&rows),
            vec![
                (1, vec!["a".into(), "b".into()]),
                (2, vec!["x, \"y\"".into(), "2".into()]),
                // The csv crate's line: just after the previous record.
                (3, vec!["multi\nline".into(), "3".into()]),
            ]
        );
        // `\r\n`: the `\n` is read with the next record, as the csv crate does.
        let crlf = super::rows("a\r\nb\r\n", Dialect::Quoted { delimiter: b',' });
        assert_eq!(crlf.iter().map(|r| r.line).collect::<Vec<_>>(), vec![1, 1]);
    }

    #[test]
    fn cell_errors_name_file_line_column_and_field() {
        let row = Row {
            line: 7,
            cells: vec![Cow::Borrowed("x"), Cow::Borrowed("inf")],
        };
        let p = Path::new("f.csv");
        let e = row.integer(0, "id", p).unwrap_err().to_string();
        assert_eq!(
            e,
            "f.csv: line 7, column 1 \"id\": expected an integer, found \"x\""
        );
        let e = row.finite(1, "s_m", p).unwrap_err().to_string();
        assert!(
            e.contains("line 7, column 2 \"s_m\"") && e.contains("not finite"),
            "{e}"
        );
    }
}
