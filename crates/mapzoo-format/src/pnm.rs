//! Netpbm images (PBM, PGM, PPM; ASCII `P1`–`P3` and binary `P4`–`P6`), the format
//! ROS map_saver writes (`P5`, maxval 255), read as SDL_image (ROS 1 map_server) reads
//! them, plus 16-bit samples as ROS 2 reads them (see [`crate::raster`]).
//!
//! Header: magic, width, height and (not for PBM) maxval, as decimal numbers separated
//! by whitespace, where `#` starts a comment to the end of the line; a binary raster
//! starts after the single whitespace byte that ends the header. A sample above maxval,
//! a cut-short raster or a header number that is not one is an error naming the pixel
//! or the field.

use std::path::Path;

use crate::decoded::{avg3, check_pixel_count, DecodedImage, MapImageFormat};
use crate::error::{FormatError, Result};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bitmap,
    Gray,
    Colour,
}

/// A cursor over the bytes with the netpbm tokeniser.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl Cursor<'_> {
    fn bad(&self, what: String) -> FormatError {
        FormatError::bad_image(self.path, format!("not a readable PGM/PNM image: {what}"))
    }

    /// Skips whitespace and `#` comments.
    fn skip_space(&mut self) {
        while let Some(&c) = self.bytes.get(self.at) {
            if c == b'#' {
                while let Some(&c) = self.bytes.get(self.at) {
                    self.at += 1;
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                }
            } else if c.is_ascii_whitespace() {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    /// The next decimal number; `field` names it in errors.
    fn number(&mut self, field: &str) -> Result<u64> {
        self.skip_space();
        let start = self.at;
        let mut v: u64 = 0;
        while let Some(&c) = self.bytes.get(self.at) {
            if !c.is_ascii_digit() {
                break;
            }
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(c - b'0')))
                .filter(|&v| v <= u64::from(u32::MAX))
                .ok_or_else(|| self.bad(format!("the {field} is too large")))?;
            self.at += 1;
        }
        if self.at == start {
            let found = match self.bytes.get(self.at) {
                None => "the end of the file".to_string(),
                Some(c) => format!("byte {:?}", char::from(*c)),
            };
            return Err(self.bad(format!(
                "expected the {field} (a decimal number) at byte {}, found {found}",
                self.at
            )));
        }
        Ok(v)
    }
}

/// Decodes PBM / PGM / PPM bytes (the caller checked the `P1`–`P6` magic).
pub(crate) fn decode(bytes: &[u8], path: &Path) -> Result<DecodedImage> {
    let (w, h, channels, levels) = decode_levels(bytes, path)?;
    let (gray, channel_sums) = if channels == 3 {
        let mut gray = Vec::with_capacity(w * h);
        let mut sums = Vec::with_capacity(w * h);
        for px in levels.chunks_exact(3) {
            let [r, g, b] = [px[0] as u32, px[1] as u32, px[2] as u32];
            gray.push(avg3(r, g, b));
            sums.push((r + g + b) as u16);
        }
        (gray, Some(sums))
    } else {
        (levels, None)
    };
    Ok(DecodedImage {
        format: MapImageFormat::Pnm,
        width: w,
        height: h,
        gray,
        channel_sums,
        transparent: 0,
        only_alpha_varies: false,
    })
}

/// (width, height, channels 1 or 3, the 8-bit levels of every sample, row-major).
pub(crate) fn decode_levels(bytes: &[u8], path: &Path) -> Result<(usize, usize, usize, Vec<u8>)> {
    let magic = bytes.get(1).copied().unwrap_or(0);
    let (kind, ascii) = match magic {
        b'1' => (Kind::Bitmap, true),
        b'2' => (Kind::Gray, true),
        b'3' => (Kind::Colour, true),
        b'4' => (Kind::Bitmap, false),
        b'5' => (Kind::Gray, false),
        b'6' => (Kind::Colour, false),
        _ => {
            return Err(FormatError::bad_image(
                path,
                "not a readable PGM/PNM image: unknown magic number",
            ))
        }
    };
    let mut cur = Cursor { bytes, at: 2, path };
    let width = cur.number("width")?;
    let height = cur.number("height")?;
    check_pixel_count(path, width, height)?;
    let maxval = if kind == Kind::Bitmap {
        1
    } else {
        cur.number("maximum value")?
    };
    if maxval == 0 || maxval > 65535 {
        return Err(cur.bad(format!("maximum value {maxval} is outside 1..=65535")));
    }
    let (w, h) = (width as usize, height as usize);
    let channels = if kind == Kind::Colour { 3 } else { 1 };
    let n = w * h * channels;
    let samples = if ascii {
        ascii_samples(&mut cur, kind, n, w, channels, maxval)?
    } else {
        // One whitespace byte ends the header; the raster follows.
        match bytes.get(cur.at) {
            Some(c) if c.is_ascii_whitespace() => cur.at += 1,
            _ => {
                return Err(cur.bad(format!(
                    "expected one whitespace byte after the header at byte {}",
                    cur.at
                )))
            }
        }
        binary_samples(&cur, kind, n, w, h, channels, maxval)?
    };
    let level = |v: u16| -> u8 {
        match kind {
            // PBM: 1 is black, 0 white.
            Kind::Bitmap => {
                if v == 1 {
                    0
                } else {
                    255
                }
            }
            // SDL_image: scaled up by integer division when maxval < 255.
            _ if maxval <= 255 => (v as u64 * 255 / maxval) as u8,
            // 16-bit: the nearest 8-bit level, as a 16-bit PNG is read.
            _ => ((2 * v as u64 * 255 + maxval) / (2 * maxval)) as u8,
        }
    };
    Ok((w, h, channels, samples.iter().map(|&v| level(v)).collect()))
}

fn pixel_of(i: usize, w: usize, channels: usize) -> String {
    let p = i / channels;
    format!("pixel (col {}, row {})", p % w, p / w)
}

fn ascii_samples(
    cur: &mut Cursor,
    kind: Kind,
    n: usize,
    w: usize,
    channels: usize,
    maxval: u64,
) -> Result<Vec<u16>> {
    // At least one byte a sample: a header promising more than the file holds
    // allocates no more than the file's size.
    let mut out = Vec::with_capacity(n.min(cur.bytes.len()));
    for i in 0..n {
        let v = if kind == Kind::Bitmap {
            // PBM digits need no separator: "0110" is four pixels.
            cur.skip_space();
            match cur.bytes.get(cur.at) {
                Some(b'0') => 0,
                Some(b'1') => 1,
                None => {
                    return Err(cur.bad(format!(
                        "the file ends at {} of {} (expected {n} pixels); the file is cut short",
                        pixel_of(i, w, channels),
                        n
                    )))
                }
                Some(c) => {
                    return Err(cur.bad(format!(
                        "{}: expected 0 or 1, found {:?}",
                        pixel_of(i, w, channels),
                        char::from(*c)
                    )))
                }
            }
        } else {
            cur.skip_space();
            if cur.at >= cur.bytes.len() {
                return Err(cur.bad(format!(
                    "the file ends at {} (expected {} samples, found {i}); the file is cut short",
                    pixel_of(i, w, channels),
                    n
                )));
            }
            let v = cur.number(&format!("sample of {}", pixel_of(i, w, channels)))?;
            check_sample(cur, v, maxval, i, w, channels)?;
            v
        };
        if kind == Kind::Bitmap {
            cur.at += 1;
        }
        out.push(v as u16);
    }
    Ok(out)
}

fn check_sample(
    cur: &Cursor,
    v: u64,
    maxval: u64,
    i: usize,
    w: usize,
    channels: usize,
) -> Result<()> {
    if v > maxval {
        return Err(cur.bad(format!(
            "{} has value {v}, above the maximum value {maxval} of the header",
            pixel_of(i, w, channels)
        )));
    }
    Ok(())
}

fn binary_samples(
    cur: &Cursor,
    kind: Kind,
    n: usize,
    w: usize,
    h: usize,
    channels: usize,
    maxval: u64,
) -> Result<Vec<u16>> {
    let raster = &cur.bytes[cur.at..];
    if kind == Kind::Bitmap {
        // Rows of packed bits, most significant first, each row padded to a byte.
        let row_bytes = w.div_ceil(8);
        let need = row_bytes * h;
        if raster.len() < need {
            return Err(short(cur, need, raster.len()));
        }
        let mut out = Vec::with_capacity(n);
        for r in 0..h {
            let row = &raster[r * row_bytes..(r + 1) * row_bytes];
            out.extend((0..w).map(|c| u16::from((row[c / 8] >> (7 - c % 8)) & 1)));
        }
        return Ok(out);
    }
    let wide = maxval > 255;
    let need = n * if wide { 2 } else { 1 };
    if raster.len() < need {
        return Err(short(cur, need, raster.len()));
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let v = if wide {
            u64::from(u16::from_be_bytes([raster[2 * i], raster[2 * i + 1]]))
        } else {
            u64::from(raster[i])
        };
        check_sample(cur, v, maxval, i, w, channels)?;
        out.push(v as u16);
    }
    Ok(out)
}

fn short(cur: &Cursor, need: usize, found: usize) -> FormatError {
    cur.bad(format!(
        "the raster after the header holds {found} bytes, expected {need}; the file is cut short"
    ))
}
