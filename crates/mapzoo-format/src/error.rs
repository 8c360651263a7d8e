//! Typed errors of the format crate; each names the file and what is wrong in it.
//!
//! A caller matches on the kind ([`FormatError::MissingField`],
//! [`FormatError::BadValue`], [`FormatError::Syntax`], ...) and reads the file
//! from [`FormatError::path`]; the text a user sees is always
//! `<file>: <what is wrong, where, and what to do>`.

use std::path::{Path, PathBuf};

/// Everything that can go wrong reading or writing a file of the set.
///
/// Non-exhaustive: a new file flavour may bring a new kind, so a caller's
/// `match` ends with a catch-all arm (the message is always in `Display`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", crate::shown_path(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A folder to be created already exists (write policy `Create`); nothing was written.
    #[error("{}: exists; nothing was written", crate::shown_path(path))]
    Exists {
        /// The folder.
        path: PathBuf,
    },
    /// The text is not readable as its format: YAML, JSON or CSV syntax, a
    /// row with the wrong number of columns, no rows, not UTF-8.
    #[error("{}: {what}", crate::shown_path(path))]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem, when known.
        line: Option<usize>,
        /// 1-based column (character for YAML/JSON, cell for CSV), when known.
        column: Option<usize>,
        /// What is wrong and where, e.g. `line 3: 4 columns, expected 11 separated by ...`.
        what: String,
    },
    /// A required field, header column or entry is absent.
    #[error("{}: {what}", crate::shown_path(path))]
    MissingField {
        /// The file.
        path: PathBuf,
        /// The missing field or column, e.g. `resolution`, `Sector0.scaling`.
        field: String,
        /// What is missing and what the file needs.
        what: String,
    },
    /// A field holds a value of the wrong type or outside its allowed range.
    #[error("{}: {what}", crate::shown_path(path))]
    BadValue {
        /// The file.
        path: PathBuf,
        /// The field or column, e.g. `resolution`, `x_m`, `origin[2]`.
        field: String,
        /// 1-based line of the value in a CSV, when it has one.
        line: Option<usize>,
        /// The rule and the value found, e.g. `field "resolution" must be > 0 (found -0.1)`.
        what: String,
    },
    /// Entries that contradict each other: a count that disagrees, a
    /// duplicate, sectors that overlap or leave a gap.
    #[error("{}: {what}", crate::shown_path(path))]
    Inconsistent {
        /// The file.
        path: PathBuf,
        /// Which entries disagree and how to make them agree.
        what: String,
    },
    /// The image cannot be decoded or encoded, or holds no pixels.
    #[error("{}: {what}", crate::shown_path(path))]
    BadImage {
        /// The image file.
        path: PathBuf,
        /// What is wrong with it and how to re-export it.
        what: String,
    },
    /// The path cannot be used as what it should name: no such file, a folder
    /// where a file is expected, a file where a folder is expected.
    #[error("{}: {what}", crate::shown_path(path))]
    BadPath {
        /// The path.
        path: PathBuf,
        /// What it should be.
        what: String,
    },
    /// The text nests deeper than [`crate::MAX_NESTING_DEPTH`] levels (brackets, braces,
    /// indentation, dotted keys); refused before parsing, so a nesting bomb cannot hang.
    #[error("{}: {what}", path.display())]
    TooDeep {
        /// The file.
        path: PathBuf,
        /// 1-based line where the limit is passed.
        line: usize,
        /// 1-based column (character) where the limit is passed.
        column: usize,
        /// The limit, in levels.
        limit: usize,
        /// Where, the limit and what to do.
        what: String,
    },
    /// A YAML document whose aliases expand to more values than its size could hold
    /// written out (an alias bomb, "billion laughs"); refused before it is built.
    #[error("{}: {what}", path.display())]
    TooManyNodes {
        /// The file.
        path: PathBuf,
        /// The limit, in values after expansion.
        limit: usize,
        /// The limit and what to do.
        what: String,
    },
    /// Any other content error (made by [`FormatError::invalid`]).
    #[error("{}: {what}", crate::shown_path(path))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        what: String,
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

    /// A content error in `path` of no more specific kind.
    pub fn invalid(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        FormatError::Invalid {
            path: path.into(),
            what: what.into(),
        }
    }

    /// A syntax error in `path` at `line` (1-based) and `column`, when known.
    pub fn syntax(
        path: impl Into<PathBuf>,
        line: Option<usize>,
        column: Option<usize>,
        what: impl Into<String>,
    ) -> Self {
        FormatError::Syntax {
            path: path.into(),
            line,
            column,
            what: what.into(),
        }
    }

    /// The required `field` of `path` is absent.
    pub fn missing_field(
        path: impl Into<PathBuf>,
        field: impl Into<String>,
        what: impl Into<String>,
    ) -> Self {
        FormatError::MissingField {
            path: path.into(),
            field: field.into(),
            what: what.into(),
        }
    }

    /// `field` of `path` (on CSV `line`, if any) holds a bad value.
    pub fn bad_value(
        path: impl Into<PathBuf>,
        field: impl Into<String>,
        line: Option<usize>,
        what: impl Into<String>,
    ) -> Self {
        FormatError::BadValue {
            path: path.into(),
            field: field.into(),
            line,
            what: what.into(),
        }
    }

    /// Entries of `path` contradict each other.
    pub fn inconsistent(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        FormatError::Inconsistent {
            path: path.into(),
            what: what.into(),
        }
    }

    /// The image `path` cannot be decoded or encoded.
    pub fn bad_image(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        FormatError::BadImage {
            path: path.into(),
            what: what.into(),
        }
    }

    /// `path` cannot be used as what it should name.
    pub fn bad_path(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        FormatError::BadPath {
            path: path.into(),
            what: what.into(),
        }
    }

    /// The file or folder the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FormatError::Io { path, .. }
            | FormatError::Exists { path }
            | FormatError::Syntax { path, .. }
            | FormatError::MissingField { path, .. }
            | FormatError::BadValue { path, .. }
            | FormatError::Inconsistent { path, .. }
            | FormatError::BadImage { path, .. }
            | FormatError::BadPath { path, .. }
            | FormatError::TooDeep { path, .. }
            | FormatError::TooManyNodes { path, .. }
            | FormatError::Invalid { path, .. } => path,
        }
    }

    /// The message without the leading path: the OS error, `exists`, or what is wrong.
    pub fn reason(&self) -> String {
        match self {
            FormatError::Io { source, .. } => source.to_string(),
            FormatError::Exists { .. } => "exists".to_string(),
            FormatError::Syntax { what, .. }
            | FormatError::MissingField { what, .. }
            | FormatError::BadValue { what, .. }
            | FormatError::Inconsistent { what, .. }
            | FormatError::BadImage { what, .. }
            | FormatError::BadPath { what, .. }
            | FormatError::TooDeep { what, .. }
            | FormatError::TooManyNodes { what, .. }
            | FormatError::Invalid { what, .. } => what.clone(),
        }
    }
}

/// A YAML parse error of `path`, with serde's line and column.
pub(crate) fn yaml_syntax(path: &Path, e: &serde_yaml_ng::Error) -> FormatError {
    let at = e.location();
    FormatError::syntax(
        path,
        at.as_ref().map(serde_yaml_ng::Location::line),
        at.as_ref().map(serde_yaml_ng::Location::column),
        format!("not valid YAML: {e}; fix the syntax"),
    )
}

/// Result alias of the format crate.
pub type Result<T> = std::result::Result<T, FormatError>;
