//! The one staged writer of a track folder (DESIGN §3.12): every file of the
//! set is first written into a hidden staging folder, each with the atomic
//! single-file write of [`crate::atomic`]; only when all are there do they
//! reach the target, together, as the [`WritePolicy`] says. A failure before
//! that leaves the target untouched and removes the staging folder.

use std::path::{Path, PathBuf};

use crate::error::{FormatError, Result};

/// How a staged set meets the folder it is written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePolicy {
    /// The folder must not exist ([`FormatError::Exists`] otherwise); the staged
    /// folder is renamed into place.
    Create,
    /// An existing folder is replaced whole (its other files are gone): it is
    /// moved aside, the staged folder renamed into place, and the old one removed.
    Replace,
    /// An existing folder keeps its other files; the staged files are moved in
    /// one by one, the old ones of the same names set aside and put back should
    /// any move fail. A missing folder is created as with [`WritePolicy::Create`].
    Merge,
}

impl From<bool> for WritePolicy {
    /// The meaning of a `force` flag: `true` replaces an existing folder, `false` refuses it.
    fn from(force: bool) -> Self {
        if force {
            WritePolicy::Replace
        } else {
            WritePolicy::Create
        }
    }
}

/// What a committed write did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written {
    /// The folder, as the caller named it.
    pub dir: PathBuf,
    /// Files of an existing folder that are not part of the set, left as they
    /// were ([`WritePolicy::Merge`] only), sorted.
    pub kept: Vec<String>,
    /// Files of an existing folder that the set's files of the same names replaced with other
    /// content, in writing order ([`WritePolicy::Merge`] only; files rewritten with the bytes
    /// they had are not listed).
    pub replaced: Vec<String>,
    /// Files set aside before being replaced, as (file, the name it was moved to), because
    /// they held something the new set does not (see [`StagedSet::add_keeping_old`]).
    pub backed_up: Vec<(String, String)>,
    /// Stale staging folders of interrupted runs removed before writing (see
    /// [`crate::set::sweep_stale`]).
    pub cleaned: Vec<PathBuf>,
}

/// A set being written: files go into a hidden staging folder and reach the
/// target on [`StagedSet::commit`]. Dropped without commit, the staging folder is removed.
#[derive(Debug)]
pub struct StagedSet {
    /// The target as the caller named it (messages, [`Written::dir`]).
    target: PathBuf,
    /// Where the files go (for a merge, the real folder behind `target`).
    resolved: PathBuf,
    staging: PathBuf,
    policy: WritePolicy,
    /// Merge into an existing folder: the staging folder lies inside it.
    in_place: bool,
    names: Vec<String>,
    /// Names whose existing file is moved to a backup name instead of being replaced.
    keep_old: Vec<String>,
    /// Names whose existing file already holds the staged bytes (not reported as replaced).
    same: Vec<String>,
    /// Stale staging folders removed by [`StagedSet::new`].
    cleaned: Vec<PathBuf>,
    /// Leave the staging folder on drop: it holds old files a failed merge could not put back.
    keep: bool,
}

impl StagedSet {
    /// Creates the staging folder for `target`: beside it (`.<name>.tmp-<pid>-<n>`,
    /// parents created), or inside it for a merge into an existing folder, so
    /// every rename stays on one file system. `Create` fails here already when
    /// `target` exists; `Merge` when it exists and is not a folder; any policy when the
    /// path runs through a file. Stale staging folders of interrupted runs in the folder the
    /// staging folder goes into are removed first ([`crate::set::sweep_stale`]).
    pub fn new(target: &Path, policy: WritePolicy) -> Result<Self> {
        check_ancestors(target)?;
        let given = target.to_path_buf();
        let target = match policy {
            WritePolicy::Merge => resolve(target)?,
            _ => given.clone(),
        };
        if target.exists() && !target.is_dir() {
            return Err(FormatError::bad_path(
                &given,
                "exists and is not a folder; name a folder to write the set into",
            ));
        }
        if policy == WritePolicy::Create && target.exists() {
            return Err(FormatError::Exists { path: given });
        }
        let in_place = policy == WritePolicy::Merge && target.is_dir();
        let mut cleaned;
        let staging = if in_place {
            // Killed runs leave staging folders inside the set (a merge) and beside it.
            cleaned = super::staging::sweep_stale(&target);
            if let Some(parent) = target.parent() {
                cleaned.extend(super::staging::sweep_stale(parent));
            }
            create_staging(&target, "mapzoo-staging")?
        } else {
            let parent = match target.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            std::fs::create_dir_all(&parent).map_err(|e| FormatError::io(&parent, e))?;
            cleaned = super::staging::sweep_stale(&parent);
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "track".to_string());
            create_staging(&parent, &name)?
        };
        Ok(StagedSet {
            target: given,
            resolved: target,
            staging,
            policy,
            in_place,
            names: Vec::new(),
            keep_old: Vec::new(),
            same: Vec::new(),
            cleaned,
            keep: false,
        })
    }

    /// The target folder, as the caller named it.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Stages the file `name` (a plain file name) with `bytes`; errors name the file in the target.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.add_pieces(name, &[bytes])
    }

    /// As [`StagedSet::add`], the file's bytes coming in pieces (written in order, never
    /// joined into one buffer).
    pub(crate) fn add_pieces(&mut self, name: &str, pieces: &[&[u8]]) -> Result<()> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\'])
            && !name.chars().any(char::is_control);
        if !plain {
            return Err(FormatError::bad_path(
                self.target.join(name),
                "not a plain file name of a set (no path, no leading '.')",
            ));
        }
        let dest = self.resolved.join(name);
        if self.in_place && dest.is_dir() {
            return Err(FormatError::bad_path(
                dest,
                "is a folder, so the file cannot be written; remove or rename it",
            ));
        }
        let written = crate::atomic::write_pieces(&self.staging.join(name), pieces, false);
        written.map_err(|e| match e {
            FormatError::Io { source, .. } => FormatError::io(self.target.join(name), source),
            other => other,
        })?;
        self.names.push(name.to_string());
        if self.in_place && super::record::file_holds(&dest, pieces) {
            self.same.push(name.to_string());
        }
        Ok(())
    }

    /// As [`StagedSet::add`], and an existing file of that name in the target that differs
    /// from `bytes` is not replaced but moved aside to `<name>.bak` (`<name>.bak.1`, … when
    /// taken), and reported in [`Written::backed_up`]: for files that may hold a user's work
    /// the new set does not carry (an edited file, the map image the set was built from).
    pub fn add_keeping_old(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.add_pieces_keeping_old(name, &[bytes])
    }

    /// As [`StagedSet::add_keeping_old`], the file's bytes coming in pieces.
    pub(crate) fn add_pieces_keeping_old(&mut self, name: &str, pieces: &[&[u8]]) -> Result<()> {
        self.add_pieces(name, pieces)?;
        let dest = self.resolved.join(name);
        let differs = self.in_place && dest.is_file() && !self.same.iter().any(|n| n == name);
        if differs {
            self.keep_old.push(name.to_string());
        }
        Ok(())
    }

    /// Moves the staged files into the target as the policy says.
    pub fn commit(mut self) -> Result<Written> {
        let mut written = super::staging::committing(|| -> Result<Written> {
            if self.in_place {
                self.merge()
            } else {
                self.swap_folder()?;
                Ok(Written::default())
            }
        })?;
        written.dir = self.target.clone();
        written.cleaned = std::mem::take(&mut self.cleaned);
        Ok(written)
    }

    /// Renames the staging folder into place; `Replace` first moves an existing target aside.
    fn swap_folder(&mut self) -> Result<()> {
        // The owner marker does not belong in the set.
        let _ = std::fs::remove_file(self.staging.join(super::staging::OWNER_MARKER));
        if self.resolved.exists() {
            // `Create`, or a merge whose folder appeared since `new`.
            if self.policy != WritePolicy::Replace {
                return Err(FormatError::Exists {
                    path: self.target.clone(),
                });
            }
            // Move the old set aside first so the swap leaves either the old or the new set.
            let old = PathBuf::from(format!("{}.old", self.staging.display()));
            std::fs::rename(&self.resolved, &old).map_err(|e| FormatError::io(&self.target, e))?;
            if let Err(e) = std::fs::rename(&self.staging, &self.resolved) {
                let _ = std::fs::rename(&old, &self.resolved);
                return Err(FormatError::io(&self.target, e));
            }
            // Best effort: the new set is in place.
            let _ = if old.is_dir() {
                std::fs::remove_dir_all(&old)
            } else {
                std::fs::remove_file(&old)
            };
            return Ok(());
        }
        std::fs::rename(&self.staging, &self.resolved).map_err(|e| FormatError::io(&self.target, e))
    }

    /// Moves each staged file into the existing target, the old file of the same
    /// name set aside (into the staging folder, or to its backup name); on a failure every
    /// move so far is undone. Returns the target's other files, and what was replaced.
    fn merge(&mut self) -> Result<Written> {
        let listing =
            std::fs::read_dir(&self.resolved).map_err(|e| FormatError::io(&self.target, e))?;
        let mut kept: Vec<String> = listing
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !self.names.contains(n))
            .collect();
        kept.sort();
        let backup = self.staging.join(".old");
        std::fs::create_dir(&backup).map_err(|e| FormatError::io(&backup, e))?;
        // (final path, its backup if there was an old file) of every file moved in so far
        let mut moved: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
        let mut failure = None;
        let (mut replaced, mut backed_up) = (Vec::new(), Vec::new());
        for name in &self.names {
            let had_old = self.resolved.join(name).symlink_metadata().is_ok();
            let kept_aside = had_old && self.keep_old.contains(name);
            let (new, dest, old) = (
                self.staging.join(name),
                self.resolved.join(name),
                if kept_aside {
                    free_backup_name(&self.resolved, name)
                } else {
                    backup.join(name)
                },
            );
            if had_old {
                if let Err(e) = std::fs::rename(&dest, &old) {
                    failure = Some((dest, e));
                    break;
                }
            }
            if let Err(e) = std::fs::rename(&new, &dest) {
                if had_old {
                    let _ = std::fs::rename(&old, &dest);
                }
                failure = Some((dest, e));
                break;
            }
            if kept_aside {
                let to = old
                    .file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                backed_up.push((name.clone(), to));
            } else if had_old && !self.same.contains(name) {
                replaced.push(name.clone());
            }
            moved.push((dest, had_old.then_some(old)));
        }
        let Some((path, e)) = failure else {
            return Ok(Written {
                kept,
                replaced,
                backed_up,
                ..Written::default()
            });
        };
        let mut restored = true;
        for (dest, old) in moved.iter().rev() {
            restored &= match old {
                Some(old) => std::fs::rename(old, dest),
                None => std::fs::remove_file(dest),
            }
            .is_ok();
        }
        let what = if restored {
            format!("cannot move the new file into place; the folder was left as it was: {e}")
        } else {
            // Keep the staging folder: it holds the old files that could not be put back.
            self.keep = true;
            format!(
                "cannot move the new file into place, and some old files could not be put back; they are in {} (staging folder kept: {}): {e}",
                backup.display(),
                self.staging.display()
            )
        };
        Err(FormatError::io(path, std::io::Error::new(e.kind(), what)))
    }
}

impl Drop for StagedSet {
    /// Removes the staging folder: uncommitted files, or after a merge the replaced old
    /// ones (after a folder swap it no longer exists).
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
        super::staging::release(&self.staging);
    }
}

/// `<name>.bak`, else the first free `<name>.bak.<k>`, in `dir`.
fn free_backup_name(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(format!("{name}.bak"));
    if first.symlink_metadata().is_err() {
        return first;
    }
    (1u32..)
        .map(|k| dir.join(format!("{name}.bak.{k}")))
        .find(|p| p.symlink_metadata().is_err())
        .unwrap_or(first)
}

/// Refuses a target whose path runs through a file (`out/file/set`) or is a file, naming it.
fn check_ancestors(target: &Path) -> Result<()> {
    if target.symlink_metadata().is_ok() && std::fs::metadata(target).is_err() {
        return Err(FormatError::bad_path(
            target,
            "is a symbolic link to a missing target (or a loop of links); point it at a folder or remove it",
        ));
    }
    for a in target.ancestors().skip(1) {
        if a.as_os_str().is_empty() {
            break;
        }
        match std::fs::metadata(a) {
            Ok(m) if !m.is_dir() => {
                return Err(FormatError::bad_path(
                    a,
                    format!(
                        "is a file, so no folder can be made under it for {}; name an output folder whose parents are folders",
                        target.display()
                    ),
                ));
            }
            Ok(_) => break,
            // The name exists but does not lead anywhere: a link to nothing, or a loop.
            Err(_) if a.symlink_metadata().is_ok() => {
                return Err(FormatError::bad_path(
                    a,
                    "is a symbolic link to a missing target (or a loop of links); point it at a folder or remove it",
                ));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// A fresh folder `.<name>.tmp-<pid>-<n>` in `parent`, retrying on a name clash, with this
/// process's owner marker in it.
fn create_staging(parent: &Path, name: &str) -> Result<PathBuf> {
    let mut n = 0u32;
    loop {
        let staging = parent.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
        match super::staging::create(&staging) {
            Ok(()) => return Ok(staging),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(FormatError::io(&staging, e)),
        }
    }
}

/// `out` as an absolute path without `.`/`..` or a final symlink, so a merge
/// works on the real folder and its staging folder lies on its file system.
fn resolve(out: &Path) -> Result<PathBuf> {
    let cannot = |e: std::io::Error| {
        FormatError::io(
            out,
            std::io::Error::new(e.kind(), format!("cannot resolve the output folder: {e}")),
        )
    };
    if out.exists() {
        return out.canonicalize().map_err(cannot);
    }
    let abs = std::path::absolute(out).map_err(cannot)?;
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => Ok(match parent.canonicalize() {
            Ok(p) => p.join(name),
            Err(_) => abs.clone(),
        }),
        _ => Err(FormatError::bad_path(
            out,
            "not usable as an output folder; name a folder",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atomic::tests::entries;

    fn write(target: &Path, policy: WritePolicy, files: &[(&str, &str)]) -> Result<Written> {
        let mut staged = StagedSet::new(target, policy)?;
        for (name, text) in files {
            staged.add(name, text.as_bytes())?;
        }
        staged.commit()
    }

    #[test]
    fn create_writes_a_new_folder_and_refuses_an_existing_one() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("deep").join("t");
        let w = write(&t, WritePolicy::Create, &[("a.csv", "1"), ("b.yaml", "2")]).unwrap();
        assert_eq!(w.dir, t);
        assert_eq!(entries(&t), ["a.csv", "b.yaml"]);
        let err = write(&t, WritePolicy::Create, &[("a.csv", "3")]).unwrap_err();
        assert!(matches!(err, FormatError::Exists { .. }), "{err}");
        assert_eq!(std::fs::read_to_string(t.join("a.csv")).unwrap(), "1");
        assert_eq!(entries(&tmp.path().join("deep")), ["t"], "no staging left");
    }

    #[test]
    fn replace_swaps_the_whole_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("t");
        write(&t, WritePolicy::Create, &[("a.csv", "1"), ("other", "x")]).unwrap();
        write(&t, WritePolicy::Replace, &[("a.csv", "2")]).unwrap();
        assert_eq!(entries(&t), ["a.csv"]);
        assert_eq!(std::fs::read_to_string(t.join("a.csv")).unwrap(), "2");
        assert_eq!(entries(tmp.path()), ["t"]);
    }

    #[test]
    fn merge_keeps_other_files_and_reports_them() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("t");
        let w = write(&t, WritePolicy::Merge, &[("a.csv", "1")]).unwrap();
        assert!(w.kept.is_empty());
        std::fs::write(t.join("notes.txt"), "keep").unwrap();
        std::fs::create_dir(t.join("sub")).unwrap();
        let w = write(&t, WritePolicy::Merge, &[("a.csv", "2"), ("b.csv", "3")]).unwrap();
        assert_eq!(w.kept, ["notes.txt"]);
        assert_eq!(entries(&t), ["a.csv", "b.csv", "notes.txt", "sub"]);
        assert_eq!(std::fs::read_to_string(t.join("a.csv")).unwrap(), "2");
        assert_eq!(entries(tmp.path()), ["t"]);
    }

    #[test]
    fn a_merge_that_cannot_place_a_file_changes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("t");
        write(
            &t,
            WritePolicy::Create,
            &[("a.csv", "old"), ("c.csv", "old")],
        )
        .unwrap();
        std::fs::create_dir(t.join("b.csv")).unwrap();
        let err = write(
            &t,
            WritePolicy::Merge,
            &[("a.csv", "new"), ("b.csv", "new"), ("c.csv", "new")],
        )
        .unwrap_err();
        assert!(err.to_string().contains("b.csv") && err.to_string().contains("is a folder"));
        assert_eq!(std::fs::read_to_string(t.join("a.csv")).unwrap(), "old");
        assert_eq!(entries(&t), ["a.csv", "b.csv", "c.csv"], "no staging left");
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let err = write(&file, WritePolicy::Merge, &[("a.csv", "1")]).unwrap_err();
        assert!(err.to_string().contains("not a folder"), "{err}");
    }

    #[test]
    fn names_with_a_path_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut staged = StagedSet::new(&tmp.path().join("t"), WritePolicy::Create).unwrap();
        for bad in ["", "../x", "a/b", ".hidden"] {
            assert!(staged.add(bad, b"x").is_err(), "{bad:?}");
        }
        drop(staged);
        assert!(entries(tmp.path()).is_empty());
    }

    #[test]
    fn a_merge_names_what_it_replaced_and_moves_differing_guarded_files_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path().join("t");
        write(&t, WritePolicy::Create, &[("a.csv", "1"), ("m.png", "old")]).unwrap();
        assert!(!t.join(super::super::staging::OWNER_MARKER).exists());
        let mut staged = StagedSet::new(&t, WritePolicy::Merge).unwrap();
        staged.add("a.csv", b"2").unwrap();
        staged.add_keeping_old("m.png", b"new").unwrap();
        let w = staged.commit().unwrap();
        assert_eq!(w.replaced, ["a.csv"]);
        assert_eq!(
            w.backed_up,
            [("m.png".to_string(), "m.png.bak".to_string())]
        );
        assert_eq!(std::fs::read_to_string(t.join("m.png.bak")).unwrap(), "old");
        assert_eq!(std::fs::read_to_string(t.join("m.png")).unwrap(), "new");
        // Same bytes: nothing to keep; another change: the next free backup name.
        let mut staged = StagedSet::new(&t, WritePolicy::Merge).unwrap();
        staged.add_keeping_old("m.png", b"new").unwrap();
        assert!(staged.commit().unwrap().backed_up.is_empty());
        let mut staged = StagedSet::new(&t, WritePolicy::Merge).unwrap();
        staged.add_keeping_old("m.png", b"newer").unwrap();
        let w = staged.commit().unwrap();
        assert_eq!(
            w.backed_up,
            [("m.png".to_string(), "m.png.bak.1".to_string())]
        );
        assert_eq!(entries(&t), ["a.csv", "m.png", "m.png.bak", "m.png.bak.1"]);
    }

    /// `--out` naming a file, or a folder under a file: the file is named, not "File exists".
    #[test]
    fn a_target_through_a_file_names_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plain");
        std::fs::write(&file, "x").unwrap();
        for policy in [
            WritePolicy::Create,
            WritePolicy::Replace,
            WritePolicy::Merge,
        ] {
            let err = write(&file.join("sub").join("t"), policy, &[("a.csv", "1")]).unwrap_err();
            let msg = err.to_string();
            assert!(msg.contains("plain") && msg.contains("is a file"), "{msg}");
            let err = write(&file, policy, &[("a.csv", "1")]).unwrap_err();
            assert!(err.to_string().contains("not a folder"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    }

    /// A staging folder left by a killed run (its owner gone) is removed by the next write
    /// beside it and reported; an unmarked hidden folder is not ours and stays.
    #[test]
    fn stale_staging_folders_of_dead_runs_are_removed_and_reported() {
        if !Path::new("/proc/self/stat").exists() {
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let stale = tmp.path().join(".t.tmp-4194305-0");
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join("a.csv"), "half").unwrap();
        std::fs::write(
            stale.join(super::super::staging::OWNER_MARKER),
            "4194305 77\n",
        )
        .unwrap();
        let foreign = tmp.path().join(".user.tmp-1-0");
        std::fs::create_dir(&foreign).unwrap();
        let w = write(
            &tmp.path().join("t"),
            WritePolicy::Create,
            &[("a.csv", "1")],
        )
        .unwrap();
        assert_eq!(w.cleaned, std::slice::from_ref(&stale));
        assert!(!stale.exists() && foreign.is_dir());
        // Inside a set (a killed merge) too.
        let inner = tmp.path().join("t").join(".mapzoo-staging.tmp-4194305-3");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(
            inner.join(super::super::staging::OWNER_MARKER),
            "4194305 77\n",
        )
        .unwrap();
        let w = write(&tmp.path().join("t"), WritePolicy::Merge, &[("a.csv", "2")]).unwrap();
        assert_eq!(w.cleaned, std::slice::from_ref(&inner));
        assert_eq!(entries(&tmp.path().join("t")), ["a.csv"]);
    }

    /// An interruption removes the live staging folders of this process.
    #[test]
    fn live_staging_folders_are_registered_until_committed_or_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let staged = StagedSet::new(&tmp.path().join("t"), WritePolicy::Create).unwrap();
        let path = staged.staging.clone();
        assert!(super::super::staging::live_for_test().contains(&path));
        drop(staged);
        assert!(!super::super::staging::live_for_test().contains(&path));
        assert!(entries(tmp.path()).is_empty());
    }
}
