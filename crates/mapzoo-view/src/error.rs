//! Typed errors of the view crate.

use std::path::PathBuf;

use mapzoo_render::RenderError;

/// Everything that can go wrong making a view.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// A set could not be read (the render crate's reading of a folder).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A view was asked for without any track.
    #[error("a view needs at least one track set")]
    NoTracks,
    /// A track's map has no pixels or a pixel buffer that does not match its size.
    #[error("track {name:?}: the occupancy map is empty or its pixel buffer is not width × height ({width} × {height})")]
    EmptyMap {
        /// Track name.
        name: String,
        /// Map width, pixels.
        width: usize,
        /// Map height, pixels.
        height: usize,
    },
    /// The map picture could not be encoded as PNG.
    #[error("track {name:?}: could not encode its map as PNG: {reason}")]
    Encode {
        /// Track name.
        name: String,
        /// What the encoder said.
        reason: String,
    },
    /// The output file is not named `.html` / `.htm`.
    #[error("{}: the view is one HTML file; name it with a .html extension{}", path.display(),
            extension.as_ref().map_or(String::new(), |e| format!(" (found .{e})")))]
    NotHtml {
        /// The output file.
        path: PathBuf,
        /// Its extension, if it has one.
        extension: Option<String>,
    },
    /// The page could not be written.
    #[error("{}: could not write the page: {reason}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// What the OS said.
        reason: String,
    },
}
