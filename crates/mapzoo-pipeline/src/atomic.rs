//! Atomic output of a track folder (DESIGN §3.12): everything is written into
//! a temporary folder beside the target, then renamed into place, so a failure
//! never leaves a half-written set and an existing set is replaced whole.

use std::path::{Path, PathBuf};

use crate::error::PipelineError;

/// A temporary folder beside `target` that becomes `target` on [`StagedDir::commit`].
/// Dropped without commit, it is removed.
#[derive(Debug)]
pub struct StagedDir {
    staging: PathBuf,
    target: PathBuf,
    force: bool,
    committed: bool,
}

impl StagedDir {
    /// Creates the staging folder `.<name>.tmp-<pid>-<n>` beside `target`.
    /// Fails when `target` exists and `force` is false.
    pub fn new(target: &Path, force: bool) -> Result<Self, PipelineError> {
        if target.exists() && !force {
            return Err(PipelineError::Exists(target.to_path_buf()));
        }
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(|e| PipelineError::io(&parent, e))?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "track".to_string());
        let mut n = 0u32;
        loop {
            let staging = parent.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
            match std::fs::create_dir(&staging) {
                Ok(()) => {
                    return Ok(StagedDir {
                        staging,
                        target: target.to_path_buf(),
                        force,
                        committed: false,
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(e) => return Err(PipelineError::io(&staging, e)),
            }
        }
    }

    /// The staging folder to write into.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Moves the staged folder into place, replacing an existing target only
    /// when created with `force` (the target may have appeared meanwhile).
    pub fn commit(mut self) -> Result<PathBuf, PipelineError> {
        if self.target.exists() {
            if !self.force {
                return Err(PipelineError::Exists(self.target.clone()));
            }
            // Move the old set aside first so the swap leaves either the old or the new set.
            let old = PathBuf::from(format!("{}.old", self.staging.display()));
            std::fs::rename(&self.target, &old).map_err(|e| PipelineError::io(&self.target, e))?;
            if let Err(e) = std::fs::rename(&self.staging, &self.target) {
                let _ = std::fs::rename(&old, &self.target);
                return Err(PipelineError::io(&self.target, e));
            }
            let _ = std::fs::remove_dir_all(&old);
        } else {
            std::fs::rename(&self.staging, &self.target)
                .map_err(|e| PipelineError::io(&self.target, e))?;
        }
        self.committed = true;
        Ok(self.target.clone())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}
