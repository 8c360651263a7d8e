//! A failed track as data: the `--json` record a batch prints for a track that did not
//! build (issue 11 item 9), so a batch over a folder of maps can be collected as a table.

use std::path::PathBuf;

use mapzoo_raceline::OptimizeError;
use serde::Serialize;

use crate::error::PipelineError;

/// Where a failure happened, as far as the error knows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Location {
    /// The file the error concerns (map YAML or image, centerline, configuration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// World x of the failing place, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// World y of the failing place, metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// The input row (0-based waypoint index) the error names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
}

/// The record of one track that failed: `track`, `status` ("failed"), `error` (its kind, e.g.
/// "extract.leak" or "optimize.infeasible"), `message` (as the text output words it), then the
/// location keys `file`, `x`, `y`, `row` where known.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailureRecord {
    /// Track name.
    pub track: String,
    /// Always "failed" (a built track's record says "ok").
    pub status: &'static str,
    /// The kind of error: the error's variant, then its cause's, in snake case, joined by '.'.
    pub error: String,
    /// The message.
    pub message: String,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
}

impl FailureRecord {
    /// The record of `track`, which failed with `err`; `message` is the text as shown to the user.
    pub fn new(track: &str, err: &PipelineError, message: String) -> Self {
        FailureRecord {
            track: track.to_string(),
            status: "failed",
            error: err.kind(),
            message,
            location: err.location(),
        }
    }
}

/// The variant name of a value's `Debug` text in snake case ("TooTight { .. }" → "too_tight").
pub(crate) fn variant_name(debug: &str) -> String {
    let ident: String = debug
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// World position of an optimisation error that names one.
fn optimize_xy(e: &OptimizeError) -> Option<(f64, f64)> {
    match e {
        OptimizeError::FarPoint { x, y, .. }
        | OptimizeError::DuplicatePoint { x, y, .. }
        | OptimizeError::Infeasible { x, y, .. }
        | OptimizeError::CrossingNormals { x, y, .. }
        | OptimizeError::TooTight { x, y, .. } => Some((*x, *y)),
        OptimizeError::Input(e) => e.xy(),
        _ => None,
    }
}

/// The input row of an optimisation error that names one.
fn optimize_row(e: &OptimizeError) -> Option<usize> {
    match e {
        OptimizeError::NonFinite { index, .. }
        | OptimizeError::FarPoint { index, .. }
        | OptimizeError::WidthOutOfRange { index, .. }
        | OptimizeError::DuplicatePoint { index, .. } => Some(*index),
        OptimizeError::Input(e) => Some(e.row()),
        _ => None,
    }
}

impl PipelineError {
    /// The kind of this error for records: its variant and its cause's, in snake case, joined
    /// by '.' ("extract.leak", "optimize.infeasible", "format.io", "config", "internal").
    pub fn kind(&self) -> String {
        let inner = match self {
            PipelineError::Format(e) => variant_name(&format!("{e:?}")),
            PipelineError::Extract { source, .. } => variant_name(&format!("{source:?}")),
            PipelineError::Optimize { source, .. } => variant_name(&format!("{source:?}")),
            _ => String::new(),
        };
        let outer = variant_name(&format!("{self:?}"));
        if inner.is_empty() {
            outer
        } else {
            format!("{outer}.{inner}")
        }
    }

    /// Where this error happened: its file, and the world position or input row it names.
    pub fn location(&self) -> Location {
        let file = match self {
            PipelineError::Format(e) => Some(e.path().to_path_buf()),
            PipelineError::Extract { path, .. }
            | PipelineError::Optimize { path, .. }
            | PipelineError::Config { path, .. }
            | PipelineError::Input { path, .. }
            | PipelineError::Io { path, .. }
            | PipelineError::Exists(path) => Some(path.clone()),
            PipelineError::TrackName { .. }
            | PipelineError::TrackNameTooLong { .. }
            | PipelineError::Internal { .. } => None,
        };
        let (xy, row) = match self {
            PipelineError::Optimize { source, .. } => (optimize_xy(source), optimize_row(source)),
            _ => (None, None),
        };
        Location {
            file,
            x: xy.map(|p| p.0),
            y: xy.map(|p| p.1),
            row,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_snake_case_variant_paths() {
        assert_eq!(variant_name("TooTight { stage: Iqp }"), "too_tight");
        assert_eq!(variant_name("Exists(\"x\")"), "exists");
        let e = PipelineError::Optimize {
            path: "t.csv".into(),
            source: OptimizeError::DuplicatePoint {
                what: "centerline",
                index: 4,
                next: 5,
                x: 1.0,
                y: 2.0,
            },
        };
        assert_eq!(e.kind(), "optimize.duplicate_point");
        let loc = e.location();
        assert_eq!(loc.file, Some(PathBuf::from("t.csv")));
        assert_eq!((loc.x, loc.y, loc.row), (Some(1.0), Some(2.0), Some(4)));
        let internal = PipelineError::Internal {
            message: "boom".into(),
        };
        assert_eq!(internal.kind(), "internal");
        assert_eq!(internal.location(), Location::default());
    }
}
