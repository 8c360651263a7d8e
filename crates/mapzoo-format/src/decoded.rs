//! A decoded map image and what every decoder shares: the [`MapImageFormat`]s, the
//! [`DecodedImage`] they all produce, the pixel-count guard checked from a header before
//! any pixel is allocated and the channel mean colour pixels are classified by.
//! [`crate::raster`] dispatches on the format; [`crate::pnm`] and the `image` crate decode.

use std::path::Path;

use crate::error::{FormatError, Result};

/// The largest image read, in pixels (64 Mi, e.g. 8192 × 8192: a 400 m square at 0.05 m/pixel).
pub const MAX_IMAGE_PIXELS: u64 = 1 << 26;

/// The file formats a map image may have, told apart by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapImageFormat {
    /// PNG (`\x89PNG`), any colour type and bit depth.
    Png,
    /// Netpbm (`P1`–`P6`): PBM, PGM (the ROS map_saver format) or PPM, ASCII or binary.
    Pnm,
    /// Windows bitmap (`BM`).
    Bmp,
}

impl MapImageFormat {
    /// The short name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            MapImageFormat::Png => "PNG",
            MapImageFormat::Pnm => "PGM/PNM",
            MapImageFormat::Bmp => "BMP",
        }
    }

    /// The usual file-name extensions of the format, lower case.
    fn extensions(self) -> &'static [&'static str] {
        match self {
            MapImageFormat::Png => &["png"],
            MapImageFormat::Pnm => &["pgm", "pnm", "pbm", "ppm"],
            MapImageFormat::Bmp => &["bmp", "dib"],
        }
    }
}

/// A decoded map image: 8-bit gray levels, plus what classification needs beyond them.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedImage {
    /// The file format the bytes were recognised as.
    pub format: MapImageFormat,
    /// Width, pixels.
    pub width: usize,
    /// Height, pixels.
    pub height: usize,
    /// Gray level 0..=255 of each pixel, row-major, row 0 on top: the rounded channel
    /// mean of a colour pixel (alpha ignored), a 16-bit sample scaled to 8 bits.
    pub gray: Vec<u8>,
    /// For a colour image, the sum of each pixel's three 8-bit channel levels (three
    /// times its exact mean, which map_server thresholds).
    pub channel_sums: Option<Vec<u16>>,
    /// Pixels whose alpha is below opaque (0 for an image without alpha); alpha is ignored.
    pub transparent: usize,
    /// Whether the colour channels hold one level everywhere while alpha varies: the
    /// picture is only in the alpha channel, which is ignored.
    pub only_alpha_varies: bool,
}

impl DecodedImage {
    /// Notes for the user about how this image was read (empty for an ordinary map).
    pub fn notes(&self, path: &Path) -> Vec<String> {
        let mut notes = Vec::new();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if let Some(ext) = ext {
            let known = [
                MapImageFormat::Png,
                MapImageFormat::Pnm,
                MapImageFormat::Bmp,
            ];
            if known.iter().any(|f| f.extensions().contains(&ext.as_str()))
                && !self.format.extensions().contains(&ext.as_str())
            {
                notes.push(format!(
                    "{}: the file is named .{ext} but holds {} bytes; read as {} (map_server does the same)",
                    path.display(),
                    self.format.name(),
                    self.format.name()
                ));
            }
        }
        if self.transparent > 0 {
            let total = self.width * self.height;
            let which = if self.transparent == total {
                format!("all {total} pixels are")
            } else {
                format!("{} of {total} pixels are", self.transparent)
            };
            notes.push(format!(
                "{}: {which} not fully opaque (alpha below its maximum); the alpha channel is ignored (only the colour levels are classified)",
                path.display(),
            ));
        }
        notes
    }
}

/// Checks a width × height from a header against [`MAX_IMAGE_PIXELS`].
pub(crate) fn check_pixel_count(path: &Path, width: u64, height: u64) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(FormatError::bad_image(
            path,
            format!("the image has no pixels ({width} × {height})"),
        ));
    }
    let n = width.saturating_mul(height);
    if n > MAX_IMAGE_PIXELS {
        return Err(FormatError::bad_image(
            path,
            format!(
                "the image is {width} × {height} = {n} pixels, more than the limit of {MAX_IMAGE_PIXELS} ({} Mpixel); \
                 nothing was decoded. Crop it to the track (a 1:10 track map is rarely over 4000 × 4000)",
                MAX_IMAGE_PIXELS >> 20
            ),
        ));
    }
    Ok(())
}

/// Rounded mean of the three channels (not Rec.709 luma).
pub(crate) fn avg3(r: u32, g: u32, b: u32) -> u8 {
    ((r + g + b + 1) / 3) as u8
}
