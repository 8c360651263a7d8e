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

/// Like [`reference_data`], printing a skip notice naming `test` when absent.
pub fn reference_data_or_skip(test: &str) -> Option<PathBuf> {
    let dir = reference_data();
    if dir.is_none() {
        eprintln!(
            "skipping {test}: reference data not found (set MAPZOO_DATA or provide ../shared/data)"
        );
    }
    dir
}
