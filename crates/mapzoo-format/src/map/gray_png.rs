//! Map images as plain 8-bit gray grids: read (any map image format, averaged to gray)
//! and written as gray PNG.

use std::path::Path;

use crate::error::{FormatError, Result};

/// Reads a map image (PNG, PGM or BMP, told by its bytes) as 8-bit gray: RGB(A)
/// averaged (alpha ignored), 16-bit scaled to 0..255. Only a regular file of at most
/// [`crate::MAX_IMAGE_BYTES`] is read.
pub fn read_gray_png(path: &Path) -> Result<(usize, usize, Vec<u8>)> {
    let bytes = crate::input_file::read_image_file(path)?;
    decode_gray_png(&bytes, path)
}

/// Decodes image bytes as in [`read_gray_png`]; `path` is used in messages only.
pub fn decode_gray_png(bytes: &[u8], path: &Path) -> Result<(usize, usize, Vec<u8>)> {
    crate::raster::decode_map_image(bytes, path).map(|d| (d.width, d.height, d.gray))
}

/// Writes 8-bit gray pixels (row-major, row 0 on top) as a PNG.
pub fn write_gray_png(path: &Path, width: usize, height: usize, gray: &[u8]) -> Result<()> {
    // Encoded in memory first so a failure never leaves half a PNG on disk.
    let bytes = encode_gray_png(path, width, height, gray)?;
    crate::atomic::write_file(path, &bytes)
}

/// The PNG file bytes of 8-bit gray pixels (row-major, row 0 on top); `path` names the file in errors.
pub fn encode_gray_png(path: &Path, width: usize, height: usize, gray: &[u8]) -> Result<Vec<u8>> {
    let buf = image::GrayImage::from_raw(width as u32, height as u32, gray.to_vec()).ok_or_else(
        || FormatError::bad_image(path, "pixel buffer does not match width × height"),
    )?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    buf.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| FormatError::bad_image(path, format!("could not encode PNG: {e}")))?;
    Ok(bytes.into_inner())
}
