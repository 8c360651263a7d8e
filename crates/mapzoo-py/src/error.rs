//! Library errors as Python exceptions: one `mapzoo.Error`, a subclass per kind
//! (`MapError`, `TrackError`, `InputError`, `SolverError`, `IoError`, defined in
//! `mapzoo/_errors.py`), the message as the library words it, the file as `path`.
//! Panics are caught where the work runs and raised as `mapzoo.Error`.

use std::path::PathBuf;

use mapzoo_extract::ExtractError;
use mapzoo_format::FormatError;
use mapzoo_pipeline::PipelineError;
use mapzoo_raceline::OptimizeError;
use mapzoo_synth::SynthError;
use pyo3::prelude::*;

/// A failure computed without the GIL, raised once it is held again.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The exception class in `mapzoo._errors`.
    pub kind: &'static str,
    /// The library's message (it names the file).
    pub message: String,
    /// The file or folder concerned, when the error carries one.
    pub path: Option<PathBuf>,
}

impl Failure {
    pub fn new(kind: &'static str, message: impl Into<String>, path: Option<PathBuf>) -> Self {
        Failure {
            kind,
            message: message.into(),
            path,
        }
    }

    /// The Python exception.
    pub fn to_pyerr(&self, py: Python<'_>) -> PyErr {
        let make = || -> PyResult<PyErr> {
            let class = py.import("mapzoo._errors")?.getattr(self.kind)?;
            let exc = class.call1((self.message.clone(),))?;
            let path = self.path.as_ref().map(|p| p.display().to_string());
            exc.setattr("path", path)?;
            Ok(PyErr::from_value(exc))
        };
        make().unwrap_or_else(|e| e)
    }
}

impl From<FormatError> for Failure {
    fn from(e: FormatError) -> Self {
        let kind = match &e {
            FormatError::Io { .. } | FormatError::Exists { .. } => "IoError",
            _ => "InputError",
        };
        let path = Some(e.path().to_path_buf());
        Failure::new(kind, e.to_string(), path)
    }
}

fn optimize_kind(e: &OptimizeError) -> &'static str {
    match e {
        OptimizeError::Solver { .. }
        | OptimizeError::NotConverged { .. }
        | OptimizeError::SeamlessNotConverged { .. }
        | OptimizeError::Numerical { .. } => "SolverError",
        OptimizeError::InvalidParameter { .. } => "InputError",
        _ => "TrackError",
    }
}

fn extract_kind(e: &ExtractError) -> &'static str {
    match e {
        ExtractError::Param { .. } => "InputError",
        _ => "MapError",
    }
}

impl From<OptimizeError> for Failure {
    fn from(e: OptimizeError) -> Self {
        Failure::new(optimize_kind(&e), e.to_string(), None)
    }
}

impl From<SynthError> for Failure {
    fn from(e: SynthError) -> Self {
        Failure::new("InputError", e.to_string(), None)
    }
}

impl From<PipelineError> for Failure {
    fn from(e: PipelineError) -> Self {
        let message = e.to_string();
        // A variant added later falls in the last arm: a plain `mapzoo.Error` with its message.
        #[allow(unreachable_patterns)]
        match e {
            PipelineError::Format(f) => Failure {
                message,
                ..Failure::from(f)
            },
            PipelineError::Extract { path, source } => {
                Failure::new(extract_kind(&source), message, Some(path))
            }
            PipelineError::Optimize { path, source } => {
                Failure::new(optimize_kind(&source), message, Some(path))
            }
            PipelineError::Config { path, .. } | PipelineError::Input { path, .. } => {
                Failure::new("InputError", message, Some(path))
            }
            PipelineError::TrackName { .. } | PipelineError::TrackNameTooLong { .. } => {
                Failure::new("InputError", message, None)
            }
            PipelineError::Exists(path) | PipelineError::Io { path, .. } => {
                Failure::new("IoError", message, Some(path))
            }
            _ => Failure::new("Error", message, None),
        }
    }
}

/// Runs `work` without the GIL; a panic becomes a `mapzoo.Error`, never a Python `PanicException`.
pub fn detached<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> Result<T, Failure> + Send,
{
    let result = py.detach(|| catch(work));
    result.map_err(|f| f.to_pyerr(py))
}

/// `work`, its panic turned into a [`Failure`].
pub fn catch<T, F>(work: F) -> Result<T, Failure>
where
    F: FnOnce() -> Result<T, Failure>,
{
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(Failure::new(
                "Error",
                format!("internal error in mapzoo (please report it): {what}"),
                None,
            ))
        }
    }
}
