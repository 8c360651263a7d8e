//! Pictures as PNG files: the bytes (deterministic), the name check, the atomic write.

use crate::error::RenderError;

/// The PNG file bytes of `image` (deterministic: same pixels, same bytes).
pub fn encode_png(image: &image::RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Vec::new();
    image.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )?;
    Ok(bytes)
}

/// Checks that `path` names a PNG file (extension `.png`, any case): the only format written.
pub fn check_png_path(path: &std::path::Path) -> Result<(), RenderError> {
    let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
    if extension
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Ok(());
    }
    Err(RenderError::NotPng {
        path: path.to_path_buf(),
        extension,
    })
}

/// Writes `image` as a PNG at `path`, atomically (a temp file renamed over it); `path` must
/// end in `.png` ([`check_png_path`]).
pub fn save_png(image: &image::RgbImage, path: &std::path::Path) -> Result<(), RenderError> {
    check_png_path(path)?;
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
