//! Input files checked before they are opened: only a regular file of bounded size is
//! read, so `image: /dev/zero`, a FIFO, a folder or a symbolic-link loop is a clear
//! error rather than a hang, and a file over its limit is refused unread. Every reader
//! of the crate (map YAML and image, sets, sectors, vehicle files) goes through here.

use std::io::Read;
use std::path::Path;

use crate::error::{FormatError, Result};

/// The largest image file read, in bytes (512 MiB): an ASCII PGM of
/// [`MAX_IMAGE_PIXELS`](crate::MAX_IMAGE_PIXELS) pixels fits; a 3 GB file is refused before it is read.
pub const MAX_IMAGE_BYTES: u64 = 512 << 20;

/// The largest YAML file read, in bytes (1 MiB; a map-server YAML is a few lines).
pub const MAX_YAML_BYTES: u64 = 1 << 20;

/// The largest `global_waypoints.json` read, in bytes (256 MiB; a real one is a few MiB,
/// about 1 MiB per 100 m of track).
pub const MAX_JSON_BYTES: u64 = 256 << 20;

/// The largest CSV file read (a centerline, racing line, published table or vehicle table),
/// in bytes (256 MiB; a waypoint row is about 120 bytes, so this holds two million rows).
pub const MAX_CSV_BYTES: u64 = 256 << 20;

/// The largest TOML configuration read, in bytes (1 MiB; pipeline.toml is a few kB).
pub const MAX_TOML_BYTES: u64 = 1 << 20;

/// Reads a whole input file after checking, before opening it, that `path` is a regular
/// file (following symbolic links) of at most `max_bytes`; `what` names the file's role
/// in messages ("image", "map YAML").
///
/// A folder, a FIFO, a device (`/dev/zero`), a socket or a link loop is a
/// [`FormatError::BadPath`] naming the path and what it is; so is a file over the size
/// limit, which is never read. A missing file stays [`FormatError::Io`] (`NotFound`). The read itself stops at the limit, should the file grow meanwhile.
pub fn read_input_file(path: &Path, max_bytes: u64, what: &str) -> Result<Vec<u8>> {
    let meta = check_input_file(path, max_bytes, what)?;
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FormatError::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(FormatError::bad_path(
            path,
            format!(
                "the {what} grew past the limit of {} while it was read",
                human_bytes(max_bytes)
            ),
        ));
    }
    Ok(bytes)
}

/// [`read_input_file`] as UTF-8 text: a regular file of at most `max_bytes`, else a
/// [`FormatError::BadPath`]; bytes that are not UTF-8 are a [`FormatError::Syntax`].
pub fn read_text_file(path: &Path, max_bytes: u64, what: &str) -> Result<String> {
    let bytes = read_input_file(path, max_bytes, what)?;
    String::from_utf8(bytes).map_err(|e| {
        FormatError::syntax(
            path,
            None,
            None,
            format!(
                "not UTF-8 text (invalid byte at offset {}); save the {what} as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The checks of [`read_input_file`] without the read: `path` is a regular file (following
/// symbolic links) of at most `max_bytes`, else a [`FormatError::BadPath`] naming what it is;
/// a missing file is [`FormatError::Io`] (`NotFound`). Returns its metadata.
pub fn check_input_file(path: &Path, max_bytes: u64, what: &str) -> Result<std::fs::Metadata> {
    let meta = std::fs::metadata(path).map_err(|e| metadata_error(path, e, what))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        return Err(FormatError::bad_path(
            path,
            format!(
                "is {}, not a regular file; the {what} must be a file",
                file_type_name(&ft)
            ),
        ));
    }
    if meta.len() > max_bytes {
        return Err(FormatError::bad_path(
            path,
            format!(
                "the {what} is {}, more than the limit of {}; nothing was read (is it the right file?)",
                human_bytes(meta.len()),
                human_bytes(max_bytes)
            ),
        ));
    }
    Ok(meta)
}

/// Reads a map image file: [`read_input_file`] with [`MAX_IMAGE_BYTES`].
pub fn read_image_file(path: &Path) -> Result<Vec<u8>> {
    read_input_file(path, MAX_IMAGE_BYTES, "image")
}

fn metadata_error(path: &Path, e: std::io::Error, what: &str) -> FormatError {
    // ELOOP (40 on Linux, 62 on macOS / BSD): a cycle of symbolic links.
    let is_loop = matches!(e.raw_os_error(), Some(40) | Some(62))
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_loop {
        return FormatError::bad_path(
            path,
            format!("is a symbolic link that never reaches a file (a loop of links: {e}); point the {what} path at the file itself"),
        );
    }
    FormatError::io(path, e)
}

fn file_type_name(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

fn human_bytes(n: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    if n >= 1 << 30 {
        format!("{:.1} GiB", n as f64 / (MIB * 1024.0))
    } else if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / MIB)
    } else {
        format!("{n} bytes")
    }
}
