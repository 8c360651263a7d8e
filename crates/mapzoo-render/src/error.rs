//! Typed errors of the render crate: bad options, folders without a map,
//! files of the set that fail to read, and pictures that cannot be written.

use std::path::PathBuf;

use mapzoo_format::{FormatError, Hint};

/// Everything that can go wrong making a picture.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A file of the track set could not be read or is malformed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The picture size is outside the supported range.
    #[error("picture size {size} px is out of range; use {min}..={max}")]
    Size {
        /// The requested size, pixels.
        size: u32,
        /// Smallest supported size, pixels.
        min: u32,
        /// Largest supported size, pixels.
        max: u32,
    },
    /// The occupancy map has no pixels or its pixel buffer does not match its size.
    #[error("track {name:?}: the occupancy map is empty or its pixel buffer is not width × height ({width} × {height})")]
    EmptyMap {
        /// Track name.
        name: String,
        /// Map width, pixels.
        width: usize,
        /// Map height, pixels.
        height: usize,
    },
    /// The picture would exceed the pixel budget.
    #[error(
        "the picture would be {width} x {height} px, over the limit of {limit} pixels; {}",
        Hint::SmallerPicture
    )]
    TooLarge {
        /// Picture width, pixels.
        width: usize,
        /// Picture height, pixels.
        height: usize,
        /// Largest accepted width × height.
        limit: usize,
    },
    /// A gallery was asked for without any track.
    #[error("a gallery needs at least one track folder")]
    NoTracks,
    /// A folder holds no occupancy map to draw.
    #[error("{}: no occupancy map to draw ({found}); name the map-server YAML {expected} beside its PNG", dir.display())]
    NoMap {
        /// The track folder.
        dir: PathBuf,
        /// What was found instead, e.g. `no YAML` or `several YAMLs: a.yaml, b.yaml`.
        found: String,
        /// The file name looked for first.
        expected: String,
    },
    /// The picture could not be encoded or written.
    #[error("{}: could not write the PNG: {reason}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// What the encoder or the OS said.
        reason: String,
    },
    /// The output file is not named `.png`: pictures are written as PNG only, and a
    /// `.jpg` holding PNG bytes would mislead every viewer.
    #[error("{}: pictures are written as PNG only; name the output file with a .png extension{}", path.display(),
            extension.as_ref().map_or(String::new(), |e| format!(" (found .{e})")))]
    NotPng {
        /// The output file.
        path: PathBuf,
        /// Its extension, if it has one.
        extension: Option<String>,
    },
}

impl RenderError {
    /// The remedy this error suggests, if any; its [`std::fmt::Display`] words it in API terms.
    pub fn hint(&self) -> Option<Hint> {
        match self {
            RenderError::TooLarge { .. } => Some(Hint::SmallerPicture),
            _ => None,
        }
    }
}
