//! Bounded map inputs (issue 12.1, 12.2, 12.9): every size that follows from the YAML
//! or the image is checked before anything is allocated or read, and the bad cases
//! are errors naming the file, the field and the accepted range. One regression test
//! per defect, named after what broke.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use mapzoo_format::{
    FormatError, FreeRule, MapMeta, OccupancyMap, MAX_IMAGE_BYTES, MAX_RESOLUTION, MIN_RESOLUTION,
};
use proptest::prelude::*;

fn yaml_with(resolution: &str, image: &str) -> String {
    format!(
        "image: {image}\nresolution: {resolution}\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n"
    )
}

/// Writes `m.yaml` naming `image` in a fresh folder; returns (folder guard, yaml path).
fn map_dir(image: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = tmp.path().join("m.yaml");
    std::fs::write(&yaml, yaml_with("0.05", image)).unwrap();
    (tmp, yaml)
}

/// Runs `f` on another thread; fails instead of hanging when it takes over 20 s.
fn within_time<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what}: no answer within 20 s (hang)"))
}

#[test]
fn resolution_unit_slip_5_or_100_is_refused_naming_field_and_range() {
    for r in ["5", "100", "5.0", "2"] {
        let err = MapMeta::from_yaml_str(&yaml_with(r, "m.png"), Path::new("t.yaml")).unwrap_err();
        assert!(
            matches!(&err, FormatError::BadValue { field, .. } if field == "resolution"),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.starts_with("t.yaml: ") && msg.contains("0.01–0.2") && msg.contains("unit"),
            "{msg}"
        );
    }
}

#[test]
fn resolution_1e15_and_1e_300_are_refused_without_panic() {
    for r in ["1e15", "1e-300", "1e308", "5e-324"] {
        let err = MapMeta::from_yaml_str(&yaml_with(r, "m.png"), Path::new("t.yaml")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("\"resolution\""), "{msg}");
        // Written short (Python repr), never as hundreds of digits.
        assert!(msg.len() < 400, "{} chars: {msg}", msg.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any resolution: accepted exactly inside the hard range, otherwise an error
    /// naming the field; never a panic.
    #[test]
    fn any_resolution_is_bounded(exp in -320.0f64..320.0, mant in 1.0f64..10.0) {
        let r = mant * 10f64.powf(exp);
        let res = MapMeta::from_yaml_str(&yaml_with(&format!("{r:e}"), "m.png"), Path::new("t.yaml"));
        let parsed: f64 = format!("{r:e}").parse().unwrap();
        let inside = parsed.is_finite() && (MIN_RESOLUTION..=MAX_RESOLUTION).contains(&parsed);
        match res {
            Ok(m) => prop_assert!(inside && m.resolution == parsed),
            Err(e) => prop_assert!(!inside && e.to_string().contains("resolution"), "{e}"),
        }
    }

    /// Any image size at any accepted resolution: loaded when within the pixel and
    /// world limits, else refused naming the limit; nothing huge is allocated.
    #[test]
    fn world_extent_is_bounded(w in 1usize..5000, res_exp in -3.0f64..0.0) {
        let resolution = 10f64.powf(res_exp);
        let meta = MapMeta::from_yaml_str(&yaml_with(&format!("{resolution}"), "m.pgm"), Path::new("t.yaml")).unwrap();
        let bytes = [format!("P5 {w} 1 255\n").into_bytes(), vec![255u8; w]].concat();
        let res = OccupancyMap::from_image_bytes(&bytes, Path::new("m.pgm"), &meta, FreeRule::MapServer);
        let extent = w as f64 * resolution;
        match res {
            Ok(map) => prop_assert!(extent <= mapzoo_format::MAX_WORLD_EXTENT_M && map.width == w),
            Err(e) => prop_assert!(extent > mapzoo_format::MAX_WORLD_EXTENT_M && e.to_string().contains("resolution"), "{e}"),
        }
    }
}

#[test]
fn image_dev_zero_is_refused_instead_of_hanging() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let (_tmp, yaml) = map_dir("/dev/zero");
    let err = within_time("/dev/zero", move || {
        OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_err()
    });
    let msg = err.to_string();
    assert!(matches!(err, FormatError::BadPath { .. }), "{msg}");
    assert!(
        msg.starts_with("/dev/zero: ") && msg.contains("character device"),
        "{msg}"
    );
}

#[cfg(unix)]
#[test]
fn image_fifo_is_refused_instead_of_hanging() {
    let (tmp, yaml) = map_dir("pipe.png");
    let fifo = tmp.path().join("pipe.png");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo not available");
        return;
    }
    let err = within_time("FIFO", move || {
        OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_err()
    });
    let msg = err.to_string();
    assert!(
        msg.contains("pipe.png") && msg.contains("FIFO") && msg.contains("not a regular file"),
        "{msg}"
    );
}

#[test]
fn image_path_a_directory_is_a_clear_error_naming_it() {
    let (tmp, yaml) = map_dir("maps");
    std::fs::create_dir(tmp.path().join("maps")).unwrap();
    let err = OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, FormatError::BadPath { .. }), "{msg}");
    assert!(
        msg.contains("maps: is a folder, not a regular file"),
        "{msg}"
    );
}

#[cfg(unix)]
#[test]
fn image_path_a_symlink_loop_is_a_clear_error_naming_it() {
    let (tmp, yaml) = map_dir("a.png");
    std::os::unix::fs::symlink(tmp.path().join("b.png"), tmp.path().join("a.png")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("a.png"), tmp.path().join("b.png")).unwrap();
    let err = OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, FormatError::BadPath { .. }), "{msg}");
    assert!(
        msg.contains("a.png") && msg.contains("loop of links"),
        "{msg}"
    );
}

#[test]
fn image_of_3_gb_is_refused_before_reading() {
    let (tmp, yaml) = map_dir("huge.png");
    // A sparse file: no disk space, but a 3 GB length.
    let f = std::fs::File::create(tmp.path().join("huge.png")).unwrap();
    f.set_len(3_000_000_000).unwrap();
    const { assert!(3_000_000_000 > MAX_IMAGE_BYTES) };
    let err = within_time("3 GB", move || {
        OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_err()
    });
    let msg = err.to_string();
    assert!(
        msg.contains("huge.png") && msg.contains("2.8 GiB") && msg.contains("nothing was read"),
        "{msg}"
    );
}

#[test]
fn yaml_with_a_utf8_bom_loads() {
    // Once "more than one document"; a BOM is what some Windows editors write.
    let text = format!("\u{feff}{}", yaml_with("0.05", "m.png"));
    let meta = MapMeta::from_yaml_str(&text, Path::new("t.yaml")).unwrap();
    assert_eq!(meta.resolution, 0.05);
    let tmp = tempfile::tempdir().unwrap();
    let yaml = tmp.path().join("t.yaml");
    std::fs::write(&yaml, text.as_bytes()).unwrap();
    assert_eq!(MapMeta::read(&yaml).unwrap(), meta);
}

/// A minimal PNG header (signature and IHDR with its CRC) claiming `w` × `h` 8-bit gray.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = 0xffff_ffffu32;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 == 1 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut chunk = b"IHDR".to_vec();
    chunk.extend_from_slice(&w.to_be_bytes());
    chunk.extend_from_slice(&h.to_be_bytes());
    chunk.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&crc32(&chunk).to_be_bytes());
    out
}

/// A BMP file header and BITMAPINFOHEADER claiming `w` × `h` 24-bit pixels, no pixels.
fn bmp_header(w: i32, h: i32) -> Vec<u8> {
    let mut b = b"BM".to_vec();
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&w.to_le_bytes());
    b.extend_from_slice(&h.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b
}

#[test]
fn decompression_bomb_is_refused_from_its_header_without_re_export_advice() {
    // Once "re-export as 8-bit gray" for an image that already was.
    let meta = MapMeta::from_yaml_str(&yaml_with("0.05", "m.png"), Path::new("t.yaml")).unwrap();
    for (name, bytes) in [
        ("bomb.png", png_header(100_000, 100_000)),
        ("bomb.pgm", b"P5\n100000 100000\n255\n".to_vec()),
        ("bomb.bmp", bmp_header(100_000, 100_000)),
        // An ASCII header promising 64 Mpixel over a few bytes allocates no more than the file.
        ("short.pgm", b"P2\n8192 8192\n255\n0 1 2\n".to_vec()),
    ] {
        let err = within_time(name, {
            let meta = meta.clone();
            move || {
                OccupancyMap::from_image_bytes(&bytes, Path::new(name), &meta, FreeRule::MapServer)
                    .unwrap_err()
            }
        });
        let msg = err.to_string();
        if name == "short.pgm" {
            assert!(msg.contains("cut short"), "{msg}");
            continue;
        }
        assert!(
            msg.contains("100000 × 100000") && msg.contains("limit") && msg.contains("Crop"),
            "{name}: {msg}"
        );
        assert!(!msg.contains("re-export"), "{msg}");
    }
}

#[test]
fn walls_only_in_the_alpha_channel_say_alpha_is_ignored() {
    // Black everywhere in colour; the walls are opaque, the track transparent.
    let (w, h) = (6u32, 4u32);
    let raw: Vec<u8> = (0..w * h)
        .flat_map(|i| [0, 0, 0, if i % 3 == 0 { 255 } else { 0 }])
        .collect();
    let img = image::RgbaImage::from_raw(w, h, raw).unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    img.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let meta = MapMeta::from_yaml_str(&yaml_with("0.05", "m.png"), Path::new("t.yaml")).unwrap();
    let err = OccupancyMap::from_image_bytes(
        png.get_ref(),
        Path::new("m.png"),
        &meta,
        FreeRule::MapServer,
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("m.png: ") && msg.contains("alpha") && msg.contains("ignored"),
        "{msg}"
    );
    // A real map with some transparent pixels loads, with a note saying alpha is ignored.
    let raw: Vec<u8> = (0..w * h)
        .flat_map(|i| {
            let v = if i % 2 == 0 { 255 } else { 0 };
            [v, v, v, if i == 0 { 0 } else { 255 }]
        })
        .collect();
    let img = image::RgbaImage::from_raw(w, h, raw).unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    img.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let map = OccupancyMap::from_image_bytes(
        png.get_ref(),
        Path::new("m.png"),
        &meta,
        FreeRule::MapServer,
    )
    .unwrap();
    assert!(
        map.notes
            .iter()
            .any(|n| n.contains("alpha channel is ignored")),
        "{:?}",
        map.notes
    );
}

/// The CSV readers (MapZoo and TUM lines, published table, vehicle tables) share the input
/// checks: a device is refused before it is read, instead of reading forever.
#[cfg(unix)]
#[test]
fn csv_readers_refuse_a_device_instead_of_reading_it() {
    let path = std::path::PathBuf::from("/dev/zero");
    let err = within_time("/dev/zero as a CSV", move || {
        mapzoo_format::read_waypoint_csv(&path).unwrap_err()
    });
    let msg = err.to_string();
    assert!(matches!(err, FormatError::BadPath { .. }), "{msg}");
    assert!(
        msg.starts_with("/dev/zero: ") && msg.contains("CSV file must be a file"),
        "{msg}"
    );
}
