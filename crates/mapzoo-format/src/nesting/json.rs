//! The JSON pre-scan: brackets and braces outside strings.

use super::{char_column, TooDeepAt};

/// The depth of JSON text: brackets and braces outside strings.
pub(super) fn json_depth(b: &[u8], limit: usize) -> Option<TooDeepAt> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let (mut line, mut line_start) = (0usize, 0usize);
    for (i, &ch) in b.iter().enumerate() {
        if ch == b'\n' {
            line += 1;
            line_start = i + 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if ch == b'\\' {
                escaped = true;
            } else if ch == b'"' {
                in_string = false;
            }
            continue;
        }
        match ch {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(TooDeepAt {
                        line: line + 1,
                        column: char_column(&b[line_start..i]) + 1,
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}
