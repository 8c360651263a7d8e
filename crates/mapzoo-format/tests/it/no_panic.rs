//! No input makes a reader panic: random bytes, and real files with random
//! damage, give an `Err` (or, for edits that may keep a file valid, no panic).

use std::path::{Path, PathBuf};

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{
    decode_gray_png, tum_centerline_from_str, tum_raceline_from_str, validate_dir,
    waypoints_from_csv_str, GlobalWaypoints, MapMeta, OtSectors, SpeedScaling,
};
use proptest::prelude::*;

/// Every text reader on `text`: (reader name, whether it returned Err).
fn text_readers(text: &str) -> Vec<(&'static str, bool)> {
    let p = Path::new("input");
    vec![
        ("waypoint csv", waypoints_from_csv_str(text, p).is_err()),
        (
            "global json",
            GlobalWaypoints::from_json_str(text, p).is_err(),
        ),
        (
            "speed_scaling",
            SpeedScaling::from_yaml_str(text, p).is_err(),
        ),
        ("ot_sectors", OtSectors::from_yaml_str(text, p).is_err()),
        ("map yaml", MapMeta::from_yaml_str(text, p).is_err()),
        ("tum centerline", tum_centerline_from_str(text, p).is_err()),
        ("tum raceline", tum_raceline_from_str(text, p).is_err()),
    ]
}

/// Real files by reader, or empty without reference data.
fn samples() -> Vec<(&'static str, PathBuf)> {
    let Some(d) = reference_data_or_skip("no-panic samples of real files") else {
        return Vec::new();
    };
    vec![
        (
            "waypoint csv",
            d.join("mapzoo/overtake_map/overtake_map_centerline.csv"),
        ),
        (
            "global json",
            d.join("racestack/circle/global_waypoints.json"),
        ),
        ("speed_scaling", d.join("racestack/f/speed_scaling.yaml")),
        ("ot_sectors", d.join("racestack/f/ot_sectors.yaml")),
        ("map yaml", d.join("racestack/f/f.yaml")),
        (
            "tum centerline",
            d.join("f1tenth/Spielberg/Spielberg_centerline.csv"),
        ),
        (
            "tum raceline",
            d.join("f1tenth/Spielberg/Spielberg_raceline.csv"),
        ),
    ]
}

fn read_with(reader: &str, text: &str) -> bool {
    text_readers(text)
        .into_iter()
        .find(|(n, _)| *n == reader)
        .map(|(_, e)| e)
        .unwrap_or(false)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_are_errors(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        for (name, err) in text_readers(&text) {
            prop_assert!(err, "{name} accepted random bytes");
        }
        prop_assert!(decode_gray_png(&bytes, Path::new("x.png")).is_err());
    }

    #[test]
    fn random_text_lines_are_errors(lines in proptest::collection::vec("[ -~]{0,60}", 0..30)) {
        // Printable ASCII, so the YAML and CSV parsers get past their first bytes.
        let text = lines.join("\n");
        for (name, err) in text_readers(&text) {
            prop_assert!(err, "{name} accepted {text:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A control character inserted anywhere in a data line makes every format invalid.
    #[test]
    fn a_control_character_anywhere_is_an_error(which in 0usize..7, line in any::<prop::sample::Index>(), col in any::<prop::sample::Index>()) {
        let samples = samples();
        if samples.is_empty() {
            eprintln!("skipping: reference data not found");
            return Ok(());
        }
        let (reader, path) = &samples[which];
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // TUM comment lines may hold anything; damage a data line.
        let data: Vec<usize> = (0..lines.len()).filter(|&i| !lines[i].starts_with('#')).collect();
        let li = data[line.index(data.len())];
        let chars: Vec<char> = lines[li].chars().collect();
        let ci = col.index(chars.len() + 1);
        let mut damaged: String = chars[..ci].iter().collect();
        damaged.push('\u{1}');
        damaged.extend(&chars[ci..]);
        lines[li] = damaged;
        let bad = lines.join("\n") + "\n";
        prop_assert!(read_with(reader, &bad), "{reader} accepted a control character in line {}", li + 1);
        // No other reader takes the damaged file either.
        for (name, err) in text_readers(&bad) {
            prop_assert!(err, "{name} accepted a damaged {}", path.display());
        }
        prop_assert!(decode_gray_png(bad.as_bytes(), path).is_err());
    }

    /// Truncation and byte edits of real files: any outcome but a panic.
    #[test]
    fn damaged_real_files_never_panic(which in 0usize..7, cut in any::<prop::sample::Index>(), edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8)) {
        let samples = samples();
        if samples.is_empty() {
            return Ok(());
        }
        let (_, path) = &samples[which];
        let mut bytes = std::fs::read(path).unwrap();
        for (at, b) in &edits {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        let _ = text_readers(&String::from_utf8_lossy(&bytes));
    }

    /// A PNG with a changed byte in its header or image data chunks, or cut short there, does not decode.
    #[test]
    fn damaged_pngs_are_errors(at in any::<prop::sample::Index>(), flip in 1u8..=255, cut in any::<bool>()) {
        let Some(d) = reference_data_or_skip("damaged_pngs_are_errors") else { return Ok(()); };
        let path = d.join("racestack/circle/circle.png");
        let mut bytes = std::fs::read(&path).unwrap();
        // Ancillary chunks (text, colour profile) may be skipped by a decoder; damage the critical ones.
        let critical = critical_chunk_bytes(&bytes);
        prop_assume!(!critical.is_empty());
        let i = critical[at.index(critical.len())];
        if cut {
            bytes.truncate(i);
        } else {
            bytes[i] ^= flip;
        }
        prop_assert!(decode_gray_png(&bytes, &path).is_err(), "byte {i} {}", if cut { "cut" } else { "flipped" });
    }
}

/// The case proptest once shrank `damaged_pngs_are_errors` to (its seed is kept in
/// `tests/proptest-regressions/no_panic.txt`): `at = Index(83954108307843220),
/// flip = 64, cut = false`, an early byte of the critical chunks flipped.
#[test]
fn png_with_an_early_critical_byte_flipped_is_an_error() {
    let Some(d) = reference_data_or_skip("png_with_an_early_critical_byte_flipped_is_an_error")
    else {
        return;
    };
    let path = d.join("racestack/circle/circle.png");
    let mut bytes = std::fs::read(&path).unwrap();
    let critical = critical_chunk_bytes(&bytes);
    // `prop::sample::Index::index`: a fixed-point fraction of the length.
    let i = critical[((critical.len() as u128 * 83_954_108_307_843_220u128) >> 64) as usize];
    bytes[i] ^= 64;
    assert!(decode_gray_png(&bytes, &path).is_err(), "byte {i} flipped");
}

/// Offsets of every byte (length, type, data, CRC) of the IHDR and IDAT chunks.
fn critical_chunk_bytes(png: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 8;
    while i + 12 <= png.len() {
        let n = u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]) as usize;
        let kind = &png[i + 4..i + 8];
        if kind == b"IHDR" || kind == b"IDAT" {
            out.extend(i..(i + 12 + n).min(png.len()));
        }
        i += 12 + n;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// The whole checklist on a folder of random files reports, never panics.
    #[test]
    fn validate_never_panics(files in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 6)) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        std::fs::create_dir(&dir).unwrap();
        let names = ["t.yaml", "t.png", "t_centerline.csv", "t_racing_line.csv", "global_waypoints.json", "speed_scaling.yaml"];
        for (n, b) in names.iter().zip(&files) {
            std::fs::write(dir.join(n), b).unwrap();
        }
        let report = validate_dir(&dir);
        prop_assert!(!report.ok);
    }
}
