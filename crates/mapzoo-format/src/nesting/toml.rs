//! The TOML pre-scan: table headers, dotted keys, arrays and inline tables outside
//! strings and comments.

use super::{char_column, TooDeepAt};

/// The depth of TOML text: table-header keys, plus dotted keys, arrays and inline tables
/// of the current entry (an array may span lines).
pub(super) fn toml_depth(b: &[u8], limit: usize) -> Option<TooDeepAt> {
    let mut i = 0usize;
    let (mut line, mut line_start) = (0usize, 0usize);
    // Levels of the current [table] header.
    let mut table = 0usize;
    // Open arrays and inline tables: (is an inline table, dots in its current key).
    let mut open: Vec<(bool, usize)> = Vec::new();
    // Levels of the line's key, and whether a key is being read.
    let mut key_levels = 0usize;
    let mut in_key = true;
    let depth = |table: usize, key_levels: usize, open: &[(bool, usize)]| {
        table + key_levels + open.iter().map(|&(_, dots)| 1 + dots).sum::<usize>()
    };
    while i < b.len() {
        let ch = b[i];
        let at = |i: usize| TooDeepAt {
            line: line + 1,
            column: char_column(&b[line_start..i]) + 1,
        };
        match ch {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                if open.is_empty() {
                    key_levels = 0;
                    in_key = true;
                }
                i += 1;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let delim = [ch; 3];
                let triple = b[i..].starts_with(&delim);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    if ch == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == ch && (!triple || b[i..].starts_with(&delim)) {
                        i += 1;
                        if triple {
                            // The closing quotes, with up to two quotes of content before them.
                            while i < b.len() && b[i] == ch {
                                i += 1;
                            }
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'[' if open.is_empty() && in_key && key_levels == 0 => {
                // A [table] or [[array of tables]] header: its dotted key sets the level.
                let mut k = i + 1;
                let mut levels = 1usize;
                while k < b.len() && b[k] != b']' && b[k] != b'\n' {
                    match b[k] {
                        b'.' => levels += 1,
                        q @ (b'"' | b'\'') => {
                            k += 1;
                            while k < b.len() && b[k] != q && b[k] != b'\n' {
                                k += if q == b'"' && b[k] == b'\\' { 2 } else { 1 };
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                if levels > limit {
                    return Some(at(i));
                }
                table = levels;
                in_key = false;
                i = k;
            }
            b'.' if in_key => {
                match open.last_mut() {
                    Some((_, dots)) => *dots += 1,
                    None => key_levels += 1,
                }
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b'=' if in_key => {
                in_key = false;
                if open.is_empty() {
                    key_levels += 1;
                }
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b'[' | b'{' => {
                open.push((ch == b'{', 0));
                in_key = ch == b'{';
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b']' | b'}' => {
                open.pop();
                in_key = false;
                i += 1;
            }
            b',' => {
                // The next entry of an inline table starts with a key.
                in_key = match open.last_mut() {
                    Some((true, dots)) => {
                        *dots = 0;
                        true
                    }
                    _ => false,
                };
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}
