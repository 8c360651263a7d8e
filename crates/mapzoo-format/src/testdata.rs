//! Where tests and benchmarks find the reference data of ../shared/data.

use std::path::PathBuf;

/// The reference data folder: `$MAPZOO_DATA`, else `shared/data` beside an
/// ancestor of the current directory (the project's `../shared/data`).
/// `None` where absent; callers print a notice and skip.
pub fn reference_data() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("MAPZOO_DATA") {
        let dir = PathBuf::from(dir);
        if dir.is_dir() {
            return Some(dir);
        }
    }
    let here = std::env::current_dir().ok()?;
    here.ancestors()
        .map(|a| a.join("shared").join("data"))
        .find(|d| d.is_dir())
}

/// Whether absent reference data must fail the tests instead of skipping them:
/// `MAPZOO_REQUIRE_DATA` set to anything but empty or `0` (CI sets it).
pub fn reference_data_required() -> bool {
    std::env::var_os("MAPZOO_REQUIRE_DATA").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Like [`reference_data`], printing a skip notice naming `test` when absent;
/// panics instead where [`reference_data_required`].
pub fn reference_data_or_skip(test: &str) -> Option<PathBuf> {
    let dir = reference_data();
    if dir.is_none() {
        assert!(
            !reference_data_required(),
            "{test}: reference data not found (set MAPZOO_DATA or provide ../shared/data); \
             MAPZOO_REQUIRE_DATA is set, so this is a failure, not a skip"
        );
        eprintln!(
            "skipping {test}: reference data not found (set MAPZOO_DATA or provide ../shared/data)"
        );
    }
    dir
}

/// A JSON text as its token stream, whitespace dropped: strings with their quotes and escapes
/// as written, the punctuation `{}[]:,` one token each, every other token (numbers, `true`,
/// `false`, `null`) as written. Tests compare the layout of our files with published ones by
/// it (a JSON parser would drop exactly what they compare: number formatting and key order).
pub fn json_tokens(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1 + usize::from(b[i] == b'\\');
            }
            i = (i + 1).min(b.len());
            out.push(text[start..i].to_string());
        } else if b"{}[]:,".contains(&c) {
            out.push((c as char).to_string());
            i += 1;
        } else {
            let start = i;
            while i < b.len() && !b"{}[]:, \n\r\t".contains(&b[i]) {
                i += 1;
            }
            out.push(text[start..i].to_string());
        }
    }
    out
}
