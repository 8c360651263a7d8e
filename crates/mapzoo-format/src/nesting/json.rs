//! The JSON pre-scan: brackets and braces outside strings.
//!
//! A `global_waypoints.json` is several megabytes, so the scan jumps over each string in a
//! tight loop and counts lines only where the limit is passed. The byte-by-byte scan that
//! tracks every line is kept in the tests as the reference.

use super::{char_column, TooDeepAt};

/// The depth of JSON text: brackets and braces outside strings.
pub(super) fn json_depth(b: &[u8], limit: usize) -> Option<TooDeepAt> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                // to the closing quote (an unclosed string runs to the end)
                i += 1;
                while i < b.len() {
                    match b[i] {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(position(b, i));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Line and column (1-based, characters) of byte `i`.
fn position(b: &[u8], i: usize) -> TooDeepAt {
    let before = &b[..i];
    let line = before.iter().filter(|&&c| c == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    TooDeepAt {
        line: line + 1,
        column: char_column(&b[line_start..i]) + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The straightforward scan: one byte at a time, string state and line kept throughout.
    fn json_depth_naive(b: &[u8], limit: usize) -> Option<TooDeepAt> {
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

    /// Text made of the bytes that matter to the scan (and a few that do not).
    fn soup() -> impl Strategy<Value = Vec<u8>> {
        let pieces = prop::sample::select(vec![
            "[", "]", "{", "}", "\"", "\\", "\\\"", "\n", "a", "1", ", ", "é", "\"x\": ",
        ]);
        prop::collection::vec(pieces, 0..200).prop_map(|v| v.concat().into_bytes())
    }

    proptest! {
        #[test]
        fn agrees_with_the_naive_scan(text in soup(), limit in 0usize..8) {
            prop_assert_eq!(json_depth(&text, limit), json_depth_naive(&text, limit));
        }
    }

    #[test]
    fn brackets_in_strings_do_not_count() {
        let text = b"{\"a\": \"[[[\\\"[[\", \"b\": [[1]]}";
        assert_eq!(json_depth(text, 3), None);
        assert_eq!(
            json_depth(b"{\"a\":\n  [[1]]}", 2),
            Some(TooDeepAt { line: 2, column: 4 })
        );
    }
}
