//! Atomic file output shared by every writer of the set (DESIGN §2, §3.12).
//!
//! A file is written whole into a temporary sibling and renamed over the
//! target, so a crash, a full disk or an encoding error never leaves a
//! half-written file behind: readers see either the old file or the new one.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{FormatError, Result};

/// Writes `bytes` to `path` atomically (temp file in the same folder, then rename).
///
/// The temporary file is `.<name>.tmp-<pid>-<n>` beside `path`; it is removed
/// on any error. Errors name `path` (or the temporary file where that failed).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_with(path, bytes, false)
}

/// As [`write_file`], and with `sync` the data is fsynced before the rename.
///
/// An interruption ([`crate::set::interrupt_cleanup`]) waits for a write in progress, so it
/// leaves neither a temporary file nor a file in a staging folder it is removing.
pub fn write_file_with(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    write_pieces(path, &[bytes], sync)
}

/// As [`write_file_with`], the file's bytes coming in pieces, written in order.
pub(crate) fn write_pieces(path: &Path, pieces: &[&[u8]], sync: bool) -> Result<()> {
    crate::set::staging::writing(|| write_and_rename(path, pieces, sync))
}

fn write_and_rename(path: &Path, pieces: &[&[u8]], sync: bool) -> Result<()> {
    let (tmp, mut file) = create_temp(path)?;
    let result = (|| -> std::io::Result<()> {
        for piece in pieces {
            file.write_all(piece)?;
        }
        if sync {
            file.sync_all()?;
        }
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        // Best effort: the error worth reporting is the write's.
        let _ = std::fs::remove_file(&tmp);
        return Err(FormatError::io(path, e));
    }
    Ok(())
}

/// Creates a fresh temporary file beside `path`, retrying on a name clash.
fn create_temp(path: &Path) -> Result<(PathBuf, std::fs::File)> {
    let name = path
        .file_name()
        .ok_or_else(|| FormatError::bad_path(path, "not a file path (no file name)"))?
        .to_string_lossy()
        .into_owned();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(FormatError::io(path, e)),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    pub(crate) fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_and_replaces_without_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_file(&p, b"first").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"first");
        write_file_with(&p, b"second, longer", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second, longer");
        assert_eq!(entries(dir.path()), vec!["a.csv".to_string()]);
    }

    #[test]
    fn a_failed_rename_keeps_the_old_target_and_removes_the_temp() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty folder cannot be replaced by a file: the rename fails.
        let target = dir.path().join("out.png");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("keep"), b"x").unwrap();
        let err = write_file(&target, b"data").unwrap_err();
        assert!(err.to_string().contains("out.png"), "{err}");
        assert_eq!(entries(dir.path()), vec!["out.png".to_string()]);
        assert_eq!(std::fs::read(target.join("keep")).unwrap(), b"x");
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("nope").join("x.yaml");
        let err = write_file(&p, b"a").unwrap_err();
        assert!(err.to_string().contains("nope"), "{err}");
    }
}
