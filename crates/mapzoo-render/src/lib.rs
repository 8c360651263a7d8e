//! Pictures of track sets (issue 7): one track with every file of the set
//! drawn over its occupancy map (DESIGN §2), or a gallery of many tracks.
//!
//! Pure Rust end to end: an embedded bitmap font ([`font`]), an analytic
//! anti-aliased rasteriser ([`canvas`]) and the viridis speed scale
//! ([`colormap`]); nothing is read from the system at run time and the
//! same input always gives the same pixels. [`render_track`] and
//! [`render_gallery`] draw in-memory [`TrackPicture`]s; [`load_track`] reads
//! one from a MapZoo or Race Stack folder.

pub mod canvas;
pub mod colormap;
mod draw;
pub mod error;
pub mod font;
mod gallery;
mod load;
mod picture;
pub mod track;
pub mod view;

pub use colormap::{viridis, Rgb, SpeedScale};
pub use draw::{ARROW, CENTERLINE, HALO, INK, OVERTAKING_TICK, PAPER, SPEED_TICK, WALL};
pub use error::RenderError;
pub use gallery::{render_gallery, GalleryOptions};
pub use load::load_track;
pub use picture::{
    check_size, render_track, RenderOptions, Rendered, MAX_PIXELS, MAX_SIZE, MIN_SIZE,
};
pub use track::{walls_from_widths, PictureLine, SectorSpan, TrackPicture};
pub use view::MapView;

/// The PNG file bytes of `image` (deterministic: same pixels, same bytes).
pub fn encode_png(image: &image::RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    image.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )?;
    Ok(bytes)
}

/// Writes `image` as a PNG at `path`, atomically (a temp file renamed over it).
pub fn save_png(image: &image::RgbImage, path: &std::path::Path) -> Result<(), RenderError> {
    let write_error = |reason: String| RenderError::Write {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = encode_png(image).map_err(|e| write_error(e.to_string()))?;
    mapzoo_format::write_file_atomic(path, &bytes).map_err(|e| match e {
        mapzoo_format::FormatError::Io { source, .. } => write_error(source.to_string()),
        other => write_error(other.to_string()),
    })
}
