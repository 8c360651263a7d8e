//! Staging folders: who owns them, which are stale, and what an interrupted run removes.
//!
//! Every staging folder `.<name>.tmp-<pid>-<n>` holds an owner marker [`OWNER_MARKER`]
//! (`<pid> <start time>`: the process id and its start time in clock ticks since boot, from
//! `/proc/<pid>/stat`), so a later run can tell its own stale folders (their owner is gone)
//! from a live run's and from folders it did not make (no marker: never touched, unless
//! empty and named after a process that is gone: a run killed before writing its marker).
//!
//! Each live staging folder is registered here; [`interrupt_cleanup`] removes them all when
//! the process is told to stop (Ctrl-C, SIGTERM), after any commit in progress has finished.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, RwLock};

/// The owner marker inside every staging folder: `<pid> <start time>`.
pub const OWNER_MARKER: &str = ".mapzoo-owner";

/// The staging folders of this process not yet committed or dropped.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Held while a staged set moves into its target: an interruption waits for it.
static COMMITTING: Mutex<()> = Mutex::new(());
/// Read-held while a file is written ([`crate::atomic`]), write-held by the interruption: a
/// file created in a staging folder while it is being removed would make that removal fail,
/// and a write cut off between its temporary file and the rename would leave the temporary.
static WRITING: RwLock<()> = RwLock::new(());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`, clock ticks since boot);
/// `Err(true)` when `/proc` has no such process, `Err(false)` when it cannot be told (no `/proc`).
fn start_time(pid: &str) -> Result<u64, bool> {
    let stat = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Path::new("/proc/self/stat").exists())
        }
        Err(_) => return Err(false),
    };
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    after
        .split_whitespace()
        .nth(19)
        .and_then(|t| t.parse().ok())
        .ok_or(false)
}

/// This process's marker text: `<pid> <start time>` (start time 0 where it cannot be read).
fn own_marker() -> &'static str {
    static MARKER: OnceLock<String> = OnceLock::new();
    MARKER.get_or_init(|| {
        let start = start_time("self").unwrap_or(0);
        format!("{} {start}\n", std::process::id())
    })
}

/// Creates the staging folder `staging` with this process's owner marker and registers it as
/// live, all under the registry's lock, so an interruption sees either no folder or a
/// registered one. `AlreadyExists` when the name is taken (the caller tries the next one).
pub(crate) fn create(staging: &Path) -> std::io::Result<()> {
    let mut live = lock(&LIVE);
    std::fs::create_dir(staging)?;
    if let Err(e) = std::fs::write(staging.join(OWNER_MARKER), own_marker()) {
        let _ = std::fs::remove_dir_all(staging);
        return Err(e);
    }
    live.push(staging.to_path_buf());
    Ok(())
}

/// Forgets a staging folder that was committed or removed.
pub(crate) fn release(staging: &Path) {
    lock(&LIVE).retain(|p| p != staging);
}

/// Runs `f`, one file write: an interruption waits until it is done, and no write starts
/// after the interruption began. Not reentrant: `f` must not call it again (a waiting
/// interruption would block the inner call).
pub(crate) fn writing<T>(f: impl FnOnce() -> T) -> T {
    let _guard = WRITING
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f()
}

/// Runs `f` as one commit: an interruption waits until it is done.
pub(crate) fn committing<T>(f: impl FnOnce() -> T) -> T {
    let _guard = lock(&COMMITTING);
    f()
}

/// Whether the owner a marker names is gone for sure: its pid is not running, or runs a
/// process that started at another time (the pid was reused). Unknown owners count as alive.
fn owner_gone(marker: &str) -> bool {
    let mut it = marker.split_whitespace();
    let (Some(pid), Some(start)) = (it.next(), it.next()) else {
        return false;
    };
    if pid.parse::<u32>().is_err() {
        return false;
    }
    let Ok(start) = start.parse::<u64>() else {
        return false;
    };
    match start_time(pid) {
        Ok(now) => start != 0 && now != start,
        Err(gone) => gone,
    }
}

/// Whether the process named in a staging folder's name `.<name>.tmp-<pid>-<n>` is not running.
fn name_owner_gone(name: &str) -> bool {
    let pid = name
        .rsplit_once(".tmp-")
        .and_then(|(_, rest)| rest.split_once('-'))
        .map(|(pid, _)| pid);
    match pid {
        Some(pid) if pid.parse::<u32>().is_ok() => start_time(pid) == Err(true),
        _ => false,
    }
}

/// Removes the stale staging folders in `dir`: hidden folders named `.*.tmp-*` holding an
/// owner marker whose process is gone, and empty ones whose name's process is gone. Folders
/// with content but no marker, or with a live owner, stay. Returns the folders removed.
pub fn sweep_stale(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !(name.starts_with('.') && name.contains(".tmp-")) {
            continue;
        }
        let path = e.path();
        // Never follow a symlink out of the folder.
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(marker) = std::fs::read_to_string(path.join(OWNER_MARKER)) else {
            // A run killed between making its folder and writing the marker leaves it empty,
            // named after its pid: removed when that process is gone (`remove_dir` only
            // removes an empty folder).
            if name_owner_gone(&name) && std::fs::remove_dir(&path).is_ok() {
                removed.push(path);
            }
            continue;
        };
        if owner_gone(&marker) && std::fs::remove_dir_all(&path).is_ok() {
            removed.push(path);
        }
    }
    removed.sort();
    removed
}

/// Removes every staging folder of this process, after waiting for a commit in progress;
/// returns them. Call it only on the way out (a signal handler): no commit can start after it.
pub fn interrupt_cleanup() -> Vec<PathBuf> {
    // Keep the locks for good: the process is about to exit, and no commit may start, no file
    // may be written into a staging folder and no staging folder may be made after this.
    std::mem::forget(lock(&COMMITTING));
    std::mem::forget(
        WRITING
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    let mut live = lock(&LIVE);
    let removed = std::mem::take(&mut *live)
        .into_iter()
        .filter(|p| std::fs::remove_dir_all(p).is_ok())
        .collect();
    std::mem::forget(live);
    removed
}

/// The live staging folders (tests).
#[cfg(test)]
pub(crate) fn live_for_test() -> Vec<PathBuf> {
    lock(&LIVE).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_and_unknown_owners_are_alive_dead_ones_are_gone() {
        assert!(!owner_gone(own_marker()), "{}", own_marker());
        assert!(!owner_gone("garbage"));
        assert!(!owner_gone(""));
        if Path::new("/proc/self/stat").exists() {
            // pid_max is at most 2^22 on Linux: this pid never runs.
            assert!(owner_gone("4194305 123"));
            let pid = std::process::id();
            let start = start_time("self").unwrap();
            assert!(owner_gone(&format!("{pid} {}", start + 1)), "pid reused");
        }
    }

    #[test]
    fn sweep_removes_folders_of_gone_owners_marked_or_empty() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let own = format!(".t.tmp-{}-7", std::process::id());
        for (name, marker, content) in [
            (".t.tmp-1-0", Some("4194305 5\n"), false),
            (".t.tmp-2-0", Some(own_marker()), false),
            (".t.tmp-3-0", None, true),
            ("t.tmp-4-0", Some("4194305 5\n"), false),
            // killed before its marker was written: empty, its pid gone
            (".t.tmp-4194305-1", None, false),
            // no marker, a gone pid, but content: not ours to judge
            (".t.tmp-4194305-2", None, true),
            // no marker, empty, but its pid is running (this test)
            (own.as_str(), None, false),
        ] {
            std::fs::create_dir(d.join(name)).unwrap();
            if let Some(m) = marker {
                std::fs::write(d.join(name).join(OWNER_MARKER), m).unwrap();
            }
            if content {
                std::fs::write(d.join(name).join("notes.txt"), "keep").unwrap();
            }
        }
        let removed = sweep_stale(d);
        if Path::new("/proc/self/stat").exists() {
            assert_eq!(removed, [d.join(".t.tmp-1-0"), d.join(".t.tmp-4194305-1")]);
        }
        for kept in [
            ".t.tmp-2-0",
            ".t.tmp-3-0",
            "t.tmp-4-0",
            ".t.tmp-4194305-2",
            own.as_str(),
        ] {
            assert!(d.join(kept).is_dir(), "{kept}");
        }
    }
}
