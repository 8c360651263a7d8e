//! Every image map_server reads (issue 11.1): a synthetic map re-encoded here as PGM
//! (P2 / P5, 8 and 16 bit), PBM, PPM and BMP, under its own extension and under
//! `.png`, loads exactly like the same pixels in a PNG. The encoders are written in
//! this file from the format specifications, independent of the decoders under test.

use std::path::{Path, PathBuf};

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{
    decode_map_image, image_as_png, sniff_image_format, FormatError, FreeRule, MapImageFormat,
    MapMeta, OccupancyMap,
};
use mapzoo_synth::{generate, SynthMap, SynthOptions};

/// A small synthetic map with every kind of gray: walls, free, unknown blobs,
/// anti-aliased edges and noise.
fn synth(seed: u64) -> SynthMap {
    let opts = SynthOptions {
        seed,
        resolution: 0.1,
        anti_alias: Some(1.5),
        unknown_blobs: 2,
        noise: 0.05,
        specks: 3,
        ..SynthOptions::default()
    };
    generate(&opts).expect("synthetic map")
}

/// P2: ASCII, a comment after the magic and one inside the header, 17 samples a line.
fn pgm_p2(w: usize, h: usize, maxval: u32, samples: &[u32]) -> Vec<u8> {
    let mut s = format!("P2\n# written by the mapzoo tests\n{w} {h}\n# max\n{maxval}\n");
    for (i, v) in samples.iter().enumerate() {
        s.push_str(&v.to_string());
        s.push(if i % 17 == 16 { '\n' } else { ' ' });
    }
    s.into_bytes()
}

/// P5: binary, big-endian 16-bit samples when maxval > 255 (netpbm spec).
fn pgm_p5(w: usize, h: usize, maxval: u32, samples: &[u32]) -> Vec<u8> {
    let mut b = format!("P5\n# CREATOR: mapzoo tests\n{w} {h}\n{maxval}\n").into_bytes();
    for &v in samples {
        if maxval > 255 {
            b.extend_from_slice(&(v as u16).to_be_bytes());
        } else {
            b.push(v as u8);
        }
    }
    b
}

/// P6: binary colour, three 8-bit samples a pixel.
fn ppm_p6(w: usize, h: usize, rgb: &[[u8; 3]]) -> Vec<u8> {
    let mut b = format!("P6 {w} {h} 255\n").into_bytes();
    for px in rgb {
        b.extend_from_slice(px);
    }
    b
}

/// A 24-bit BMP (BITMAPINFOHEADER, bottom-up rows of B, G, R padded to 4 bytes).
fn bmp24(w: usize, h: usize, rgb: &[[u8; 3]]) -> Vec<u8> {
    let row = (3 * w).div_ceil(4) * 4;
    let data = row * h;
    let mut b = Vec::new();
    b.extend_from_slice(b"BM");
    b.extend_from_slice(&(54 + data as u32).to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&(w as i32).to_le_bytes());
    b.extend_from_slice(&(h as i32).to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 4]); // BI_RGB
    b.extend_from_slice(&(data as u32).to_le_bytes());
    b.extend_from_slice(&[0; 16]);
    for r in (0..h).rev() {
        let start = b.len();
        for px in &rgb[r * w..(r + 1) * w] {
            b.extend_from_slice(&[px[2], px[1], px[0]]);
        }
        b.resize(start + row, 0);
    }
    b
}

/// Writes `bytes` as `dir/name` and a YAML pointing at it; loads the map.
fn load_as(dir: &Path, name: &str, bytes: &[u8], meta: &MapMeta, rule: FreeRule) -> OccupancyMap {
    std::fs::write(dir.join(name), bytes).unwrap();
    let yaml = dir.join(format!("{name}.yaml"));
    MapMeta {
        image: name.to_string(),
        ..meta.clone()
    }
    .write(&yaml)
    .unwrap();
    OccupancyMap::load(&yaml, rule)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .1
}

fn assert_same_map(name: &str, got: &OccupancyMap, want: &OccupancyMap) {
    assert_eq!((got.width, got.height), (want.width, want.height), "{name}");
    assert_eq!(got.gray, want.gray, "{name}: gray");
    assert_eq!(got.free, want.free, "{name}: free");
    assert_eq!(got.occupancy, want.occupancy, "{name}: occupancy");
}

#[test]
fn pgm_p2_p5_8_and_16_bit_and_bmp_load_like_the_png() {
    for seed in [3, 11] {
        let map = synth(seed);
        let (w, h) = (map.width, map.height);
        let tmp = tempfile::tempdir().unwrap();
        let [png, _] = map.write(tmp.path(), "t").unwrap();
        let png_bytes = std::fs::read(&png).unwrap();
        let v8: Vec<u32> = map.gray.iter().map(|&v| u32::from(v)).collect();
        // 16-bit samples whose nearest 8-bit level is the original: v·257 exactly, and ±100 off it.
        let v16: Vec<u32> = map
            .gray
            .iter()
            .enumerate()
            .map(|(i, &v)| (u32::from(v) * 257).saturating_sub(100 * (i as u32 % 2)))
            .collect();
        let rgb: Vec<[u8; 3]> = map.gray.iter().map(|&v| [v, v, v]).collect();
        let encodings: Vec<(&str, Vec<u8>)> = vec![
            ("p2.pgm", pgm_p2(w, h, 255, &v8)),
            ("p5.pgm", pgm_p5(w, h, 255, &v8)),
            ("p5-16.pgm", pgm_p5(w, h, 65535, &v16)),
            ("p2-16.pgm", pgm_p2(w, h, 65535, &v16)),
            ("p6.ppm", ppm_p6(w, h, &rgb)),
            ("b24.bmp", bmp24(w, h, &rgb)),
            // Real repositories hold PGM bytes in a file named .png.
            ("pgm-named.png", pgm_p5(w, h, 255, &v8)),
            ("bmp-named.png", bmp24(w, h, &rgb)),
        ];
        for rule in [FreeRule::MapServer, FreeRule::Nonzero] {
            let want = load_as(tmp.path(), "ref.png", &png_bytes, &map.meta, rule);
            for (name, bytes) in &encodings {
                let got = load_as(tmp.path(), name, bytes, &map.meta, rule);
                assert_same_map(&format!("seed {seed} {name} {rule:?}"), &got, &want);
                // The set holds a real PNG of the same map.
                let png = image_as_png(bytes, Path::new(name)).unwrap();
                assert_eq!(
                    sniff_image_format(&png),
                    Some(MapImageFormat::Png),
                    "{name}"
                );
                let again = load_as(tmp.path(), &format!("as-{name}.png"), &png, &map.meta, rule);
                assert_same_map(
                    &format!("seed {seed} {name} as PNG {rule:?}"),
                    &again,
                    &want,
                );
            }
        }
        let named = load_as(
            tmp.path(),
            "pgm-named.png",
            &encodings[6].1,
            &map.meta,
            FreeRule::MapServer,
        );
        assert!(
            named
                .notes
                .iter()
                .any(|n| n.contains("named .png") && n.contains("PGM")),
            "{:?}",
            named.notes
        );
    }
}

#[test]
fn format_is_told_by_content_not_name() {
    let v = [0u32, 255];
    assert_eq!(
        sniff_image_format(&pgm_p5(2, 1, 255, &v)),
        Some(MapImageFormat::Pnm)
    );
    assert_eq!(
        sniff_image_format(&pgm_p2(2, 1, 255, &v)),
        Some(MapImageFormat::Pnm)
    );
    assert_eq!(
        sniff_image_format(&bmp24(1, 1, &[[0, 0, 0]])),
        Some(MapImageFormat::Bmp)
    );
    assert_eq!(
        sniff_image_format(b"\x89PNG\r\n\x1a\nrest"),
        Some(MapImageFormat::Png)
    );
    assert_eq!(sniff_image_format(b"Pxyz"), None);
    // A JPEG is named as such, with what to do.
    let err = decode_map_image(&[0xff, 0xd8, 0xff, 0xe0, 0, 0], Path::new("m.png")).unwrap_err();
    assert!(matches!(err, FormatError::BadImage { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("JPEG") && msg.contains("PGM"), "{msg}");
}

#[test]
fn maxval_below_255_scales_as_sdl_image() {
    // SDL_image (ROS 1 map_server) scales each sample by v * 255 / maxval, integer division.
    for maxval in [1u32, 7, 15, 100, 254] {
        let samples: Vec<u32> = (0..=maxval).collect();
        let n = samples.len();
        for bytes in [
            pgm_p2(n, 1, maxval, &samples),
            pgm_p5(n, 1, maxval, &samples),
        ] {
            let d = decode_map_image(&bytes, Path::new("m.pgm")).unwrap();
            let want: Vec<u8> = samples.iter().map(|v| (v * 255 / maxval) as u8).collect();
            assert_eq!(d.gray, want, "maxval {maxval}");
        }
    }
}

#[test]
fn sixteen_bit_pgm_reads_like_a_sixteen_bit_png() {
    let samples: Vec<u16> = (0..=65535u32).step_by(97).map(|v| v as u16).collect();
    let n = samples.len();
    let img =
        image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_raw(n as u32, 1, samples.clone())
            .unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    img.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let from_png = decode_map_image(png.get_ref(), Path::new("m.png")).unwrap();
    let s32: Vec<u32> = samples.iter().map(|&v| u32::from(v)).collect();
    let from_pgm = decode_map_image(&pgm_p5(n, 1, 65535, &s32), Path::new("m.pgm")).unwrap();
    assert_eq!(from_pgm.gray, from_png.gray);
    // Another 16-bit maxval: the nearest 8-bit level of v / maxval.
    let s: Vec<u32> = (0..=1000).collect();
    let d = decode_map_image(&pgm_p2(s.len(), 1, 1000, &s), Path::new("m.pgm")).unwrap();
    for (v, g) in s.iter().zip(&d.gray) {
        let exact = *v as f64 * 255.0 / 1000.0;
        assert!((f64::from(*g) - exact).abs() <= 0.5, "{v}: {g} vs {exact}");
    }
}

#[test]
fn pbm_one_is_black() {
    // P1 digits need no separators; P4 packs 8 pixels a byte, rows padded.
    let p1 = b"P1\n# c\n3 2\n010\n1 1 0\n";
    let d = decode_map_image(p1, Path::new("m.pbm")).unwrap();
    assert_eq!(d.gray, vec![255, 0, 255, 0, 0, 255]);
    let p4 = [b"P4\n3 2\n".as_slice(), &[0b0100_0000, 0b1100_0000]].concat();
    let d = decode_map_image(&p4, Path::new("m.pbm")).unwrap();
    assert_eq!(d.gray, vec![255, 0, 255, 0, 0, 255]);
}

#[test]
fn colour_ppm_classifies_like_the_colour_png() {
    // Channel sum 616: mean 205.33 is free under 0.196 though the rounded gray 205 is not.
    let rgb = vec![[206u8, 205, 205], [1, 0, 0], [90, 90, 89], [255, 0, 0]];
    let raw: Vec<u8> = rgb.iter().flatten().copied().collect();
    let img = image::RgbImage::from_raw(4, 1, raw).unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    img.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let meta = MapMeta::from_yaml_str(
        "image: m.png\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
        Path::new("m.yaml"),
    )
    .unwrap();
    for rule in [FreeRule::MapServer, FreeRule::Nonzero] {
        let want =
            OccupancyMap::from_image_bytes(png.get_ref(), Path::new("m.png"), &meta, rule).unwrap();
        for (name, bytes) in [("m.ppm", ppm_p6(4, 1, &rgb)), ("m.bmp", bmp24(4, 1, &rgb))] {
            let got = OccupancyMap::from_image_bytes(&bytes, Path::new(name), &meta, rule).unwrap();
            assert_same_map(name, &got, &want);
            // Re-encoded as PNG, the colour (and so the exact channel mean) survives.
            let png = image_as_png(&bytes, Path::new(name)).unwrap();
            let again =
                OccupancyMap::from_image_bytes(&png, Path::new("m.png"), &meta, rule).unwrap();
            assert_same_map(name, &again, &want);
        }
    }
}

#[test]
fn bad_pgms_are_errors_naming_what_is_wrong() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"P5\n2 2\n255\n\x00\x01\x02".to_vec(), "cut short"),
        (
            b"P2\n2 1\n100\n5 101\n".to_vec(),
            "pixel (col 1, row 0) has value 101",
        ),
        (b"P2\n2 1\n255\n5\n".to_vec(), "cut short"),
        (b"P5\n2 x\n255\n".to_vec(), "height"),
        (b"P5\n2 1\n0\n\x00\x00".to_vec(), "maximum value 0"),
        (b"P5\n2 1\n70000\n\x00\x00".to_vec(), "maximum value 70000"),
        (b"P5\n0 1\n255\n".to_vec(), "no pixels"),
        (b"P5\n99999999999 1\n255\n".to_vec(), "too large"),
    ];
    for (bytes, want) in cases {
        let err = decode_map_image(&bytes, Path::new("m.pgm")).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, FormatError::BadImage { .. }), "{msg}");
        assert!(
            msg.starts_with("m.pgm: ") && msg.contains(want),
            "{msg:?} lacks {want:?}"
        );
    }
}

/// The PGMs of the reference data (map_saver P5 and P2) load, and their gray levels
/// equal the `image` crate's own PNM decoder's.
#[test]
fn reference_pgms_load() {
    let Some(data) = reference_data_or_skip("reference_pgms_load") else {
        return;
    };
    let mut seen = 0;
    for name in ["columbia", "mtl", "porto", "torino", "levinelobby"] {
        let yaml: PathBuf = data.join("slam").join(name).join(format!("{name}.yaml"));
        if !yaml.exists() {
            continue;
        }
        seen += 1;
        let (meta, map) = OccupancyMap::load(&yaml, FreeRule::MapServer)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let bytes = std::fs::read(meta.image_path(&yaml)).unwrap();
        let oracle = image::load_from_memory_with_format(&bytes, image::ImageFormat::Pnm)
            .unwrap()
            .into_luma8();
        assert_eq!(
            (map.width, map.height),
            (oracle.width() as usize, oracle.height() as usize),
            "{name}"
        );
        assert_eq!(map.gray, oracle.into_raw(), "{name}");
        assert!(
            map.free.iter().any(|&f| f) && map.free.iter().any(|&f| !f),
            "{name}"
        );
    }
    assert!(seen >= 4, "expected the PGM maps under slam/");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

    /// Random bytes behind each magic number: an image or an error, never a panic
    /// (or a large allocation: at most 4 Kpixel of random header fits in memory here).
    #[test]
    fn random_bytes_behind_a_magic_number_never_panic(
        magic in 0usize..8,
        body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
    ) {
        let prefix: &[u8] = [
            b"P1 ".as_slice(), b"P2 ", b"P3 ", b"P4 ", b"P5 ", b"P6 ", b"BM", b"\x89PNG\r\n\x1a\n",
        ][magic];
        let bytes = [prefix, &body].concat();
        let _ = decode_map_image(&bytes, Path::new("x.png"));
        let _ = image_as_png(&bytes, Path::new("x.png"));
    }

    /// A valid PGM / BMP cut short or with bytes changed: any outcome but a panic;
    /// a binary PGM cut inside its raster is an error.
    #[test]
    fn damaged_pgms_and_bmps_never_panic(
        which in 0usize..3,
        cut in proptest::prelude::any::<proptest::sample::Index>(),
        edits in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), proptest::prelude::any::<u8>()), 0..6),
    ) {
        let (w, h) = (9usize, 7usize);
        let v: Vec<u32> = (0..w * h).map(|i| (i * 37 % 256) as u32).collect();
        let rgb: Vec<[u8; 3]> = v.iter().map(|&x| [x as u8, 255 - x as u8, 7]).collect();
        let mut bytes = match which {
            0 => pgm_p5(w, h, 255, &v),
            1 => pgm_p2(w, h, 255, &v),
            _ => bmp24(w, h, &rgb),
        };
        let whole = bytes.len();
        for (at, b) in &edits {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        let keep = cut.index(whole + 1);
        bytes.truncate(keep);
        let res = decode_map_image(&bytes, Path::new("x.pgm"));
        if which == 0 && edits.is_empty() && keep < whole {
            proptest::prop_assert!(res.is_err(), "a P5 cut at {keep} of {whole} decoded");
        }
    }
}

/// A palette PNG (colour type 3) of `w` × `h` pixels at bit depth `depth`, its palette the
/// `palette` colours and its pixels the `indices`, row-major (written by the png crate's
/// encoder, which writes the indices as they are).
fn palette_png(
    w: u32,
    h: u32,
    depth: png::BitDepth,
    palette: &[[u8; 3]],
    indices: &[u8],
) -> Vec<u8> {
    let bits = depth as usize;
    let line = (w as usize * bits).div_ceil(8);
    let mut data = vec![0u8; line * h as usize];
    for (k, &index) in indices.iter().enumerate() {
        let (x, y) = (k % w as usize, k / w as usize);
        let bit = x * bits;
        data[y * line + bit / 8] |= index << (8 - bits - bit % 8);
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(depth);
        enc.set_palette(palette.concat());
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&data).unwrap();
    }
    out
}

/// Regression (issue 25): a palette PNG whose pixels use indices past its palette read as
/// all black ("no pixel of the map is free"); it is refused naming the palette, the count
/// and the first pixel. Indices within the palette read as their colours, at every depth.
#[test]
fn palette_indices_past_the_palette_are_refused_naming_the_palette() {
    let p = Path::new("pal.png");
    for depth in [
        png::BitDepth::Two,
        png::BitDepth::Four,
        png::BitDepth::Eight,
    ] {
        let (w, h) = (5u32, 3u32);
        let palette = [[0, 0, 0], [254, 254, 254]];
        let mut indices: Vec<u8> = (0..w * h).map(|k| (k % 2) as u8).collect();
        let good = decode_map_image(&palette_png(w, h, depth, &palette, &indices), p).unwrap();
        let want: Vec<u8> = indices.iter().map(|&i| palette[i as usize][0]).collect();
        assert_eq!(good.gray, want, "{depth:?}");

        indices[7] = 3; // pixel (2, 1)
        indices[11] = 2;
        let e = decode_map_image(&palette_png(w, h, depth, &palette, &indices), p)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("pal.png: ")
                && e.contains("palette (PLTE) has 2 colours")
                && e.contains("2 pixels")
                && e.contains("pixel (2, 1), index 3"),
            "{depth:?}: {e}"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 128, ..Default::default() })]

    /// Issue 25: any palette PNG decodes without panic, and is refused exactly when a pixel
    /// uses an index past its palette (then naming the palette and the first such pixel, in
    /// row-major order); otherwise each pixel reads as its palette colour's gray.
    #[test]
    fn a_palette_png_is_refused_exactly_when_an_index_is_past_its_palette(
        depth in proptest::sample::select(vec![1u8, 2, 4, 8]),
        w in 1u32..9,
        h in 1u32..6,
        entries in 1usize..20,
        seed in proptest::collection::vec(proptest::prelude::any::<u8>(), 54),
    ) {
        let bit_depth = match depth {
            1 => png::BitDepth::One,
            2 => png::BitDepth::Two,
            4 => png::BitDepth::Four,
            _ => png::BitDepth::Eight,
        };
        let levels = 1usize << depth;
        let entries = entries.min(levels);
        let palette: Vec<[u8; 3]> = (0..entries).map(|i| [(i * 13) as u8; 3]).collect();
        let n = (w * h) as usize;
        let indices: Vec<u8> = (0..n).map(|k| (seed[k % seed.len()] as usize % levels) as u8).collect();
        let bytes = palette_png(w, h, bit_depth, &palette, &indices);
        let got = decode_map_image(&bytes, Path::new("p.png"));
        match indices.iter().position(|&i| i as usize >= entries) {
            None => {
                let img = got.unwrap();
                let want: Vec<u8> = indices.iter().map(|&i| palette[i as usize][0]).collect();
                proptest::prop_assert_eq!(img.gray, want);
            }
            Some(k) => {
                let e = got.unwrap_err().to_string();
                let (x, y) = (k % w as usize, k / w as usize);
                proptest::prop_assert!(
                    e.contains(&format!("has {entries} colours"))
                        && e.contains(&format!("pixel ({x}, {y}), index {}", indices[k])),
                    "{}", e
                );
            }
        }
    }
}
