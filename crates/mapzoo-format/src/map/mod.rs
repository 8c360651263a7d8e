//! Occupancy maps: the map-server YAML and its image (DESIGN §2.1); the image
//! decoders are in [`crate::raster`].
//!
//! Laid out by concept: the YAML ([`MapMeta`]) in `meta`, the classification of a
//! gray level ([`FreeRule`], [`Occupancy`]) in `classify`, the classified pixels
//! ([`OccupancyMap`]) in `grid`, the pixel ↔ world transform in `transform` and the
//! plain gray-image helpers in `gray_png`.

mod classify;
mod gray_png;
mod grid;
mod meta;
mod transform;

pub use classify::{is_free, is_free_level, occupancy, occupancy_level, FreeRule, Occupancy};
pub use gray_png::{decode_gray_png, encode_gray_png, read_gray_png, write_gray_png};
pub use grid::OccupancyMap;
pub use meta::{
    check_extent, MapMeta, MAX_ORIGIN_M, MAX_ORIGIN_YAW, MAX_RESOLUTION, MAX_WORLD_EXTENT_M,
    MIN_RESOLUTION, PLAUSIBLE_RESOLUTION,
};
pub use transform::{pixel_to_world, world_to_pixel};

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn png_bytes<P: image::PixelWithColorType>(w: u32, h: u32, raw: Vec<P::Subpixel>) -> Vec<u8>
    where
        [P::Subpixel]: image::EncodableLayout,
    {
        let img = image::ImageBuffer::<P, Vec<P::Subpixel>>::from_raw(w, h, raw).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn meta(negate: u8) -> MapMeta {
        MapMeta {
            image: "m.png".into(),
            resolution: 0.05,
            origin: [0.0, 0.0, 0.0],
            negate,
            occupied_thresh: 0.65,
            free_thresh: 0.196,
            mode: None,
        }
    }

    #[test]
    fn gray8_is_read_as_is() {
        let bytes = png_bytes::<image::Luma<u8>>(4, 1, vec![0, 100, 254, 255]);
        let (w, h, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!((w, h, g), (4, 1, vec![0, 100, 254, 255]));
    }

    #[test]
    fn rgb_is_averaged_not_luma() {
        // Pure red: the mean is 85; Rec.709 luma would give 54, Rec.601 76.
        let bytes = png_bytes::<image::Rgb<u8>>(3, 1, vec![255, 0, 0, 0, 255, 0, 10, 20, 40]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![85, 85, 23]);
    }

    #[test]
    fn rgba_ignores_alpha() {
        let bytes = png_bytes::<image::Rgba<u8>>(2, 1, vec![30, 60, 90, 0, 254, 254, 254, 17]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![60, 254]);
    }

    #[test]
    fn gray16_is_scaled_to_8_bit() {
        let bytes = png_bytes::<image::Luma<u16>>(4, 1, vec![0, 257 * 100, 65535, 257 * 254 + 100]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![0, 100, 255, 254]);
    }

    #[test]
    fn rows_run_top_down() {
        // 1 × 2 image: row 0 (top) black, row 1 white.
        let bytes = png_bytes::<image::Luma<u8>>(1, 2, vec![0, 255]);
        let (_, h, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        let map = OccupancyMap::from_gray(1, h, g, &meta(0), FreeRule::MapServer);
        assert!(!map.is_free(0, 0) && map.is_free(0, 1));
        // Row 1 is the bottom row: world y = origin y.
        assert_eq!(map.pixel_to_world(0.0, 1.0), (0.0, 0.0));
        assert!(map.is_free_world(0.0, 0.0) && !map.is_free_world(0.0, 0.05));
    }

    #[test]
    fn map_server_rule_uses_the_thresholds() {
        let m = meta(0);
        // p = (255 - v) / 255 must be < free_thresh 0.196: v = 206 gives 0.1922, v = 205 gives 0.1961.
        assert!(is_free(255, &m, FreeRule::MapServer));
        assert!(is_free(206, &m, FreeRule::MapServer));
        assert!(
            !is_free(205, &m, FreeRule::MapServer),
            "unknown counts as occupied"
        );
        assert!(!is_free(100, &m, FreeRule::MapServer));
        assert!(!is_free(0, &m, FreeRule::MapServer));
    }

    #[test]
    fn scale_mode_frees_like_trinary_and_raw_frees_only_zero() {
        let with_mode = |mode: &str, negate: u8| MapMeta {
            mode: Some(mode.into()),
            ..meta(negate)
        };
        for v in 0..=255u8 {
            let trinary = is_free(v, &meta(0), FreeRule::MapServer);
            assert_eq!(
                is_free(v, &with_mode("trinary", 0), FreeRule::MapServer),
                trinary
            );
            assert_eq!(
                is_free(v, &with_mode("scale", 0), FreeRule::MapServer),
                trinary
            );
            assert_eq!(
                is_free(v, &with_mode("scale", 1), FreeRule::MapServer),
                is_free(v, &meta(1), FreeRule::MapServer)
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 0), FreeRule::MapServer),
                v == 0,
                "raw {v}"
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 1), FreeRule::MapServer),
                v == 255,
                "raw negated {v}"
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 0), FreeRule::Nonzero),
                v > 0,
                "nonzero ignores the mode"
            );
        }
        // A colour mean below 1 truncates to the raw value 0.
        assert!(is_free_level(
            2.0 / 3.0,
            &with_mode("raw", 0),
            FreeRule::MapServer
        ));
        assert!(!is_free_level(
            1.0,
            &with_mode("raw", 0),
            FreeRule::MapServer
        ));
        let yaml = "image: m.png\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\nmode: ";
        for mode in ["trinary", "scale", "raw"] {
            let m =
                MapMeta::from_yaml_str(&format!("{yaml}{mode}\n"), Path::new("m.yaml")).unwrap();
            assert_eq!(m.mode.as_deref(), Some(mode));
            assert!(m.to_yaml_string().contains(&format!("mode: {mode}")));
        }
        let e =
            MapMeta::from_yaml_str(&format!("{yaml}Trinary\n"), Path::new("m.yaml")).unwrap_err();
        assert!(
            e.to_string().contains("m.yaml") && e.to_string().contains("\"mode\""),
            "{e}"
        );
    }

    #[test]
    fn origin_yaw_rotates_about_the_origin() {
        // Yaw +90°: the image's +col axis points along world +y, its up axis along world -x.
        let o = [1.0, 2.0, std::f64::consts::FRAC_PI_2];
        let (x, y) = pixel_to_world(o, 0.5, 10, 0.0, 9.0);
        assert!(
            (x - 1.0).abs() < 1e-12 && (y - 2.0).abs() < 1e-12,
            "bottom-left is the origin"
        );
        let (x, y) = pixel_to_world(o, 0.5, 10, 2.0, 9.0);
        assert!(
            (x - 1.0).abs() < 1e-12 && (y - 3.0).abs() < 1e-12,
            "two columns right: +1 m in y"
        );
        let (x, y) = pixel_to_world(o, 0.5, 10, 0.0, 7.0);
        assert!(
            (x - 0.0).abs() < 1e-12 && (y - 2.0).abs() < 1e-12,
            "two rows up: -1 m in x"
        );
        // The occupancy map answers world queries in the rotated frame.
        let mut gray = vec![0u8; 4 * 3];
        gray[2 * 4 + 3] = 255; // bottom row, last column
        let m = MapMeta {
            origin: o,
            resolution: 0.5,
            ..meta(0)
        };
        let map = OccupancyMap::from_gray(4, 3, gray, &m, FreeRule::MapServer);
        assert!(map.is_free_world(1.0, 3.5) && !map.is_free_world(2.5, 2.0));
        // The yaw survives a YAML round trip.
        let text = MapMeta {
            origin: [1.0, 2.0, 0.25],
            ..meta(0)
        }
        .to_yaml_string();
        let back = MapMeta::from_yaml_str(&text, Path::new("m.yaml")).unwrap();
        assert_eq!(back.origin, [1.0, 2.0, 0.25]);
    }

    #[test]
    fn occupancy_is_tristate_and_agrees_with_free() {
        let m = meta(0);
        // p = (255 - v) / 255: occupied above 0.65 (v <= 89), free below 0.196 (v >= 206).
        assert_eq!(occupancy(89, &m, FreeRule::MapServer), Occupancy::Occupied);
        assert_eq!(occupancy(90, &m, FreeRule::MapServer), Occupancy::Unknown);
        assert_eq!(occupancy(205, &m, FreeRule::MapServer), Occupancy::Unknown);
        assert_eq!(occupancy(206, &m, FreeRule::MapServer), Occupancy::Free);
        assert_eq!(occupancy(0, &m, FreeRule::Nonzero), Occupancy::Occupied);
        assert_eq!(occupancy(128, &m, FreeRule::Nonzero), Occupancy::Free);
        let gray: Vec<u8> = (0..=255).collect();
        for rule in [FreeRule::MapServer, FreeRule::Nonzero] {
            let map = OccupancyMap::from_gray(16, 16, gray.clone(), &m, rule);
            for (f, o) in map.free.iter().zip(&map.occupancy) {
                assert_eq!(*f, *o == Occupancy::Free);
            }
            assert_eq!(
                map.occupancy.contains(&Occupancy::Unknown),
                rule == FreeRule::MapServer
            );
        }
    }

    #[test]
    fn negate_flips_the_occupancy() {
        let m = meta(1);
        assert!(is_free(0, &m, FreeRule::MapServer));
        assert!(is_free(49, &m, FreeRule::MapServer));
        assert!(!is_free(50, &m, FreeRule::MapServer));
        assert!(!is_free(255, &m, FreeRule::MapServer));
    }

    #[test]
    fn nonzero_rule_frees_every_non_black_pixel() {
        let m = meta(0);
        assert!(!is_free(0, &m, FreeRule::Nonzero));
        assert!(is_free(1, &m, FreeRule::Nonzero));
        assert!(is_free(100, &m, FreeRule::Nonzero));
        assert_eq!("nonzero".parse::<FreeRule>(), Ok(FreeRule::Nonzero));
        assert_eq!("map-server".parse::<FreeRule>(), Ok(FreeRule::MapServer));
        assert!("luma".parse::<FreeRule>().is_err());
    }

    #[test]
    fn colour_maps_classify_the_exact_mean() {
        // Channel sum 616: mean 205.33, p = 0.1948 < 0.196, free; the rounded gray 205 (p = 0.1961) is not.
        // Sum 1: mean 1/3, non-black under the nonzero rule though it rounds to 0.
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("m.png");
        std::fs::write(
            &png,
            png_bytes::<image::Rgb<u8>>(2, 1, vec![206, 205, 205, 1, 0, 0]),
        )
        .unwrap();
        let yaml = dir.path().join("m.yaml");
        meta(0).write(&yaml).unwrap();
        let (_, map) = OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap();
        assert_eq!(map.gray, vec![205, 0]);
        assert_eq!(map.free, vec![true, false]);
        let (_, map) = OccupancyMap::load(&yaml, FreeRule::Nonzero).unwrap();
        assert_eq!(map.free, vec![true, true]);
    }
}
