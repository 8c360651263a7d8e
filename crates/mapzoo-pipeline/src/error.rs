//! Errors of the pipeline: each carries the file it concerns.

use std::path::{Path, PathBuf};

use mapzoo_extract::ExtractError;
use mapzoo_format::{FormatError, Hint};
use mapzoo_raceline::OptimizeError;

/// What can stop a build, a regeneration or a configuration load.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// Reading or writing a file of the set failed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The extraction stages (1–6) failed on this map.
    #[error("{}: {source}", mapzoo_format::shown_path(path))]
    Extract {
        /// The map image.
        path: PathBuf,
        /// The cause.
        #[source]
        source: ExtractError,
    },
    /// The racing-line stages (7–11) failed on this track.
    #[error("{}: {source}", mapzoo_format::shown_path(path))]
    Optimize {
        /// The map YAML or centerline the track came from.
        path: PathBuf,
        /// The cause.
        #[source]
        source: OptimizeError,
    },
    /// A configuration file or override is wrong.
    #[error("{}: {what}", mapzoo_format::shown_path(path))]
    Config {
        /// The configuration file (or `<command line>`).
        path: PathBuf,
        /// The field and why.
        what: String,
    },
    /// A track name cannot name a set folder (empty, a path separator, a leading dot).
    #[error("<command line>: track name {name:?} cannot name a folder; a track name is not empty, does not start with '.', and has no '/', '\\' or control characters (e.g. Austin_2 or f-1)")]
    TrackName {
        /// The name given.
        name: String,
    },
    /// A track name too long for the file names of its set.
    #[error("<command line>: the track name is {bytes} bytes long; a track name may have at most {limit} (its set's file names add up to {} more, and a file name is at most 255 bytes): choose a shorter name", 255 - limit)]
    TrackNameTooLong {
        /// Bytes of the name given (UTF-8).
        bytes: usize,
        /// The most a track name may have.
        limit: usize,
    },
    /// An input folder or file lacks what the operation needs: not a track folder, no map
    /// YAML, an image the YAML names that is absent, nothing published to compare with.
    #[error("{}: {what}{}", mapzoo_format::shown_path(path), hint.as_ref().map_or(String::new(), |h| format!("; {h}")))]
    Input {
        /// The folder or file.
        path: PathBuf,
        /// What is missing.
        what: String,
        /// How to supply it, when there is one remedy.
        hint: Option<Hint>,
    },
    /// The output folder exists and the write policy does not replace it.
    #[error("{}: the output folder exists; {}", mapzoo_format::shown_path(.0), Hint::Replace)]
    Exists(PathBuf),
    /// A bug: a stage panicked. The batch catches it as this track's error and goes on.
    #[error("internal error (a bug in mapzoo, please report it with the input): {message}")]
    Internal {
        /// The panic message.
        message: String,
    },
    /// An I/O error on a path.
    #[error("{}: {source}", mapzoo_format::shown_path(path))]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

impl PipelineError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        PipelineError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// An input error on `path` (see [`PipelineError::Input`]).
    pub fn input(path: &Path, what: impl Into<String>) -> Self {
        PipelineError::Input {
            path: path.to_path_buf(),
            what: what.into(),
            hint: None,
        }
    }

    /// An input error on `path` with the remedy `hint` (see [`PipelineError::Input`]).
    pub fn input_with_hint(path: &Path, what: impl Into<String>, hint: Hint) -> Self {
        PipelineError::Input {
            path: path.to_path_buf(),
            what: what.into(),
            hint: Some(hint),
        }
    }

    /// The remedy this error (or the extraction error it wraps) suggests, if any; its
    /// [`std::fmt::Display`] words it in API terms, [`Hint::flag`] as command-line flags.
    pub fn hint(&self) -> Option<Hint> {
        match self {
            PipelineError::Exists(_) => Some(Hint::Replace),
            PipelineError::Input { hint, .. } => hint.clone(),
            PipelineError::Extract { source, .. } => source.hint(),
            PipelineError::Optimize { source, .. } => source.hint(),
            _ => None,
        }
    }

    /// A configuration error in `path`.
    pub fn config(path: &Path, what: impl Into<String>) -> Self {
        PipelineError::Config {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }
}
