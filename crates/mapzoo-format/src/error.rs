//! Typed errors of the format crate; each names the file and what is wrong in it.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing a file of the set.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file was read but its content is wrong; `what` names the field, line or pixel.
    #[error("{}: {what}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and where, e.g. `field "resolution" must be > 0 (found -0.1)`.
        what: String,
    },
    /// A folder to be created already exists (write policy `Create`); nothing was written.
    #[error("{}: exists; nothing was written", path.display())]
    Exists {
        /// The folder.
        path: PathBuf,
    },
}

impl FormatError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        FormatError::Io {
            path: path.into(),
            source,
        }
    }

    /// A content error in `path`.
    pub fn invalid(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        FormatError::Invalid {
            path: path.into(),
            what: what.into(),
        }
    }
}

/// Result alias of the format crate.
pub type Result<T> = std::result::Result<T, FormatError>;
