//! Map images as ROS map_server reads them: PNG (every colour type), PGM / PBM / PPM
//! (binary and ASCII, 8 and 16 bit) and BMP, recognised by their first bytes, never by
//! the file name (real repositories hold PGM bytes in a `.png`).
//!
//! Every file is checked before it is opened ([`crate::input_file`]) and every image is
//! checked against [`MAX_IMAGE_PIXELS`] from its header before any pixel is allocated
//! ([`crate::decoded`], shared with the PNM decoder).
//!
//! Gray levels follow ROS map_server: ROS 1 reads PNM through SDL_image, which
//! scales a maximum value below 255 by `v · 255 / maxval` (integer division) and
//! refuses one above 255; ROS 2 (Nav2, through GraphicsMagick) reads 16-bit samples at
//! full depth. Here a 16-bit sample becomes the 8-bit level `round(v · 255 / maxval)`,
//! exactly as a 16-bit PNG is read, so a map saved as PGM and as PNG is the same map.
//! Colour pixels keep the exact channel mean for classification; alpha is ignored.

use std::path::Path;

use crate::decoded::{avg3, check_pixel_count, DecodedImage, MapImageFormat, MAX_IMAGE_PIXELS};
use crate::error::{FormatError, Result};

/// The format of `bytes` from their magic number; `None` when it is none of
/// [`MapImageFormat`].
pub fn sniff_image_format(bytes: &[u8]) -> Option<MapImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(MapImageFormat::Png)
    } else if bytes.len() >= 3
        && bytes[0] == b'P'
        && (b'1'..=b'6').contains(&bytes[1])
        && (bytes[2].is_ascii_whitespace() || bytes[2] == b'#')
    {
        Some(MapImageFormat::Pnm)
    } else if bytes.starts_with(b"BM") {
        Some(MapImageFormat::Bmp)
    } else {
        None
    }
}

/// What other common formats are, for the message when an image is none of ours.
fn other_format_name(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("a JPEG image (lossy: its walls are blurred)")
    } else if bytes.starts_with(b"GIF8") {
        Some("a GIF image")
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        Some("a TIFF image")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("a WebP image")
    } else if bytes.starts_with(b"P7") {
        Some("a PAM (P7) image")
    } else if bytes.is_empty() {
        Some("an empty file")
    } else {
        None
    }
}

/// Decodes image bytes of any [`MapImageFormat`]; `path` names the file in errors.
///
/// The size is checked from the header against [`MAX_IMAGE_PIXELS`] before any pixel
/// buffer is allocated.
pub fn decode_map_image(bytes: &[u8], path: &Path) -> Result<DecodedImage> {
    let format = sniff_image_format(bytes).ok_or_else(|| {
        let what = match other_format_name(bytes) {
            Some(name) => format!("{name}, not a map image"),
            None => "not a map image (no PNG, PGM or BMP signature)".to_string(),
        };
        FormatError::bad_image(
            path,
            format!("{what}; map_server maps are PNG, PGM or BMP: re-export it as 8-bit gray PNG or PGM"),
        )
    })?;
    let img = match format {
        MapImageFormat::Pnm => return crate::pnm::decode(bytes, path),
        MapImageFormat::Png => {
            let img = decode_with_image_crate(bytes, path, image::ImageFormat::Png)?;
            check_palette_indices(bytes, path)?;
            img
        }
        MapImageFormat::Bmp => decode_with_image_crate(bytes, path, image::ImageFormat::Bmp)?,
    };
    Ok(from_dynamic(img, format))
}

/// The image as PNG bytes: `bytes` themselves when they are a PNG, else the same
/// pixels re-encoded (8-bit gray, or RGB for a colour PPM / BMP, alpha kept), so a set
/// built from a PGM holds a real `<name>.png` that reads back as the same map.
pub fn image_as_png<'a>(bytes: &'a [u8], path: &Path) -> Result<std::borrow::Cow<'a, [u8]>> {
    use std::borrow::Cow;
    let encode = |img: image::DynamicImage| -> Result<Cow<'a, [u8]>> {
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png)
            .map_err(|e| {
                FormatError::bad_image(path, format!("could not re-encode the image as PNG: {e}"))
            })?;
        Ok(Cow::Owned(out.into_inner()))
    };
    let bad = || FormatError::bad_image(path, "pixel buffer does not match width × height");
    match sniff_image_format(bytes) {
        Some(MapImageFormat::Png) => Ok(Cow::Borrowed(bytes)),
        Some(MapImageFormat::Pnm) => {
            let (w, h, channels, levels) = crate::pnm::decode_levels(bytes, path)?;
            let img = if channels == 3 {
                image::DynamicImage::ImageRgb8(
                    image::RgbImage::from_raw(w as u32, h as u32, levels).ok_or_else(bad)?,
                )
            } else {
                image::DynamicImage::ImageLuma8(
                    image::GrayImage::from_raw(w as u32, h as u32, levels).ok_or_else(bad)?,
                )
            };
            encode(img)
        }
        Some(MapImageFormat::Bmp) => encode(decode_with_image_crate(
            bytes,
            path,
            image::ImageFormat::Bmp,
        )?),
        None => decode_map_image(bytes, path).map(|_| Cow::Borrowed(bytes)),
    }
}

fn decode_with_image_crate(
    bytes: &[u8],
    path: &Path,
    format: image::ImageFormat,
) -> Result<image::DynamicImage> {
    let name = if format == image::ImageFormat::Png {
        "PNG"
    } else {
        "BMP"
    };
    let unreadable = |e: image::ImageError| {
        let hint = match &e {
            image::ImageError::Limits(_) => {
                "the decoder needs more memory than allowed; crop the image to the track"
            }
            image::ImageError::Unsupported(_) => {
                "this variant is not supported; re-export it as 8-bit gray PNG"
            }
            _ => "the file is damaged or cut short; re-export it as 8-bit gray PNG",
        };
        FormatError::bad_image(path, format!("not a readable {name} image: {e}; {hint}"))
    };
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    // The size from the header (PNG's IHDR, BMP's info header), so a bomb is refused
    // from a few bytes, before the decoder's own limits speak of something else.
    let header = match format {
        image::ImageFormat::Png => png_ihdr_size(bytes),
        _ => bmp_header_size(bytes),
    };
    let (w, h) = match header {
        Some(size) => size,
        None => reader().into_dimensions().map_err(unreadable)?,
    };
    check_pixel_count(path, w as u64, h as u64)?;
    let mut limits = image::Limits::default();
    // The widest buffer is RGBA16 (8 bytes a pixel), plus the decoder's working rows.
    limits.max_alloc = Some(MAX_IMAGE_PIXELS * 8 + (64 << 20));
    let mut r = reader();
    r.limits(limits);
    r.decode().map_err(unreadable)
}

/// Refuses an indexed-colour PNG with a pixel whose palette index is past the end of its
/// palette (PLTE): decoders draw such pixels black, so the map would read as all occupied.
/// Other PNGs pass untouched (the colour type is IHDR byte 25; 3 is indexed).
fn check_palette_indices(bytes: &[u8], path: &Path) -> Result<()> {
    if bytes.get(12..16) != Some(b"IHDR") || bytes.get(25) != Some(&3) {
        return Ok(());
    }
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    // The image crate has decoded these bytes already; a failure here is not this check's.
    let Ok(mut reader) = decoder.read_info() else {
        return Ok(());
    };
    let entries = reader.info().palette.as_ref().map_or(0, |p| p.len() / 3);
    let Some(size) = reader.output_buffer_size() else {
        return Ok(());
    };
    let mut buf = vec![0; size];
    let Ok(frame) = reader.next_frame(&mut buf) else {
        return Ok(());
    };
    let depth = frame.bit_depth as usize;
    if !matches!(depth, 1 | 2 | 4 | 8) {
        return Ok(());
    }
    let mask = (1u16 << depth) - 1;
    let mut outside = 0usize;
    let mut first = None;
    for y in 0..frame.height as usize {
        let row = &buf[y * frame.line_size..(y + 1) * frame.line_size];
        for x in 0..frame.width as usize {
            let bit = x * depth;
            let index = (u16::from(row[bit / 8]) >> (8 - depth - bit % 8)) & mask;
            if usize::from(index) >= entries {
                outside += 1;
                first.get_or_insert((x, y, index));
            }
        }
    }
    match first {
        None => Ok(()),
        Some((x, y, index)) => Err(FormatError::bad_image(
            path,
            format!(
                "a palette PNG: its palette (PLTE) has {entries} colours, but {outside} pixels use an index past it \
                 (the first at pixel ({x}, {y}), index {index}); decoders draw those black, so the map would read as occupied. \
                 Re-export the image as 8-bit gray PNG or PGM"
            ),
        )),
    }
}

/// Width and height from a PNG's IHDR chunk (bytes 8..24), when it is there.
fn png_ihdr_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Some((be(16), be(20)))
}

/// Width and |height| from a BMP's info header (12-byte core or 40-byte and later).
fn bmp_header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let le32 = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?))
    };
    let le16 = |i: usize| -> Option<u32> {
        Some(u32::from(u16::from_le_bytes(
            bytes.get(i..i + 2)?.try_into().ok()?,
        )))
    };
    match le32(14)? {
        12 => Some((le16(18)?, le16(20)?)),
        n if n >= 40 => Some((
            (le32(18)? as i32).unsigned_abs(),
            (le32(22)? as i32).unsigned_abs(),
        )),
        _ => None,
    }
}

/// Gray levels, channel sums and alpha facts of an `image` crate image.
fn from_dynamic(img: image::DynamicImage, format: MapImageFormat) -> DecodedImage {
    use image::DynamicImage as D;
    let (width, height) = (img.width() as usize, img.height() as usize);
    let channel_sums = colour_pixels(&img, |[r, g, b]| (r + g + b) as u16);
    let (transparent, colour_uniform) = alpha_facts(&img);
    let gray: Vec<u8> = match colour_pixels(&img, |[r, g, b]| avg3(r, g, b)) {
        Some(gray) => gray,
        None => match img {
            D::ImageLuma8(b) => b.into_raw(),
            D::ImageLumaA8(b) => b.pixels().map(|p| p.0[0]).collect(),
            D::ImageLuma16(b) => b.pixels().map(|p| scale16(p.0[0])).collect(),
            D::ImageLumaA16(b) => b.pixels().map(|p| scale16(p.0[0])).collect(),
            other => other.to_luma8().into_raw(),
        },
    };
    DecodedImage {
        format,
        width,
        height,
        gray,
        channel_sums,
        transparent,
        only_alpha_varies: transparent > 0 && colour_uniform,
    }
}

/// (pixels below opaque alpha, whether every pixel's colour channels are those of the first).
fn alpha_facts(img: &image::DynamicImage) -> (usize, bool) {
    use image::DynamicImage as D;
    fn facts<P: image::Pixel>(
        b: &image::ImageBuffer<P, Vec<P::Subpixel>>,
        opaque: P::Subpixel,
    ) -> (usize, bool)
    where
        P::Subpixel: PartialEq,
    {
        let n = P::CHANNEL_COUNT as usize;
        let first = b.pixels().next().map(|p| p.channels()[..n - 1].to_vec());
        let mut transparent = 0;
        let mut uniform = true;
        for p in b.pixels() {
            let c = p.channels();
            if c[n - 1] != opaque {
                transparent += 1;
            }
            if uniform && first.as_deref() != Some(&c[..n - 1]) {
                uniform = false;
            }
        }
        (transparent, uniform)
    }
    match img {
        D::ImageLumaA8(b) => facts(b, u8::MAX),
        D::ImageRgba8(b) => facts(b, u8::MAX),
        D::ImageLumaA16(b) => facts(b, u16::MAX),
        D::ImageRgba16(b) => facts(b, u16::MAX),
        D::ImageRgba32F(b) => facts(b, 1.0),
        _ => (0, false),
    }
}

/// `f` of the red, green and blue levels (each 0..255; 16-bit scaled) of every
/// pixel of a colour image, row-major; `None` for a gray image.
fn colour_pixels<T>(img: &image::DynamicImage, f: impl Fn([u32; 3]) -> T) -> Option<Vec<T>> {
    use image::DynamicImage as D;
    let wide = |v: u16| scale16(v) as u32;
    match img {
        D::ImageRgb8(b) => Some(rgb_levels(b, u32::from).map(f).collect()),
        D::ImageRgba8(b) => Some(rgb_levels(b, u32::from).map(f).collect()),
        D::ImageRgb16(b) => Some(rgb_levels(b, wide).map(f).collect()),
        D::ImageRgba16(b) => Some(rgb_levels(b, wide).map(f).collect()),
        _ => None,
    }
}

/// The first three channels of each pixel of `b` as 8-bit levels by `level`.
fn rgb_levels<'a, P: image::Pixel + 'a>(
    b: &'a image::ImageBuffer<P, Vec<P::Subpixel>>,
    level: impl Fn(P::Subpixel) -> u32 + 'a,
) -> impl Iterator<Item = [u32; 3]> + 'a {
    b.pixels().map(move |p| {
        let c = p.channels();
        [level(c[0]), level(c[1]), level(c[2])]
    })
}

/// A 16-bit sample as the nearest 8-bit level: round(v · 255 / 65535).
pub(crate) fn scale16(v: u16) -> u8 {
    ((v as u32 + 128) / 257) as u8
}
