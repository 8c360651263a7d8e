//! ROS map_server semantics (issue 11.2, 11.8), checked against a small independent
//! re-implementation of map_server's loader here (ROS 1 `map_server/src/image_loader.cpp`,
//! ROS 2 `nav2_map_server/src/map_io.cpp`), cell values and all.

use std::path::Path;

use mapzoo_format::{occupancy_level, FreeRule, MapMeta, Occupancy, OccupancyMap};
use proptest::prelude::*;

/// The OccupancyGrid value map_server stores for a pixel whose channel mean is
/// `mean` (0..=255): 0 free, 1..=100 occupied (a probability in `scale` mode), −1
/// unknown. ROS 1 image_loader.cpp: negate the mean; `raw` stores it as is; else
/// occ = (255 − mean) / 255; occ > occupied_thresh → 100, occ < free_thresh → 0,
/// trinary → −1, scale → 1 + 98 · (occ − free) / (occupied − free).
fn ros_cell(mean: f64, negate: bool, occupied: f64, free: f64, mode: &str) -> i32 {
    let avg = if negate { 255.0 - mean } else { mean };
    if mode == "raw" {
        let v = avg as i32; // C's double → int conversion truncates
                            // ROS 2 stores a value outside 0..=100 as unknown.
        return if (0..=100).contains(&v) { v } else { -1 };
    }
    let occ = (255.0 - avg) / 255.0;
    if occ > occupied {
        100
    } else if occ < free {
        0
    } else if mode == "trinary" {
        -1
    } else {
        let ratio = (occ - free) / (occupied - free);
        1 + (98.0 * ratio) as i32
    }
}

fn class_of(cell: i32) -> Occupancy {
    match cell {
        0 => Occupancy::Free,
        -1 => Occupancy::Unknown,
        _ => Occupancy::Occupied,
    }
}

fn meta(negate: u8, occupied: f64, free: f64, mode: Option<&str>) -> MapMeta {
    let mode_line = mode.map(|m| format!("mode: {m}\n")).unwrap_or_default();
    let yaml = format!(
        "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: {negate}\noccupied_thresh: {occupied}\nfree_thresh: {free}\n{mode_line}"
    );
    MapMeta::from_yaml_str(&yaml, Path::new("m.yaml")).expect("map_server accepts the YAML")
}

fn check_all_levels(m: &MapMeta) {
    let mode = m.mode.as_deref().unwrap_or("trinary");
    for v in 0..=255u8 {
        // Every integer level and a colour mean a third above it.
        for mean in [f64::from(v), f64::from(v) + 1.0 / 3.0] {
            if mean > 255.0 {
                continue;
            }
            let want = class_of(ros_cell(
                mean,
                m.negate == 1,
                m.occupied_thresh,
                m.free_thresh,
                mode,
            ));
            let got = occupancy_level(mean, m, FreeRule::MapServer);
            assert_eq!(
                got, want,
                "mean {mean}, negate {}, occupied {} free {} mode {mode}",
                m.negate, m.occupied_thresh, m.free_thresh
            );
        }
    }
}

#[test]
fn every_level_classifies_as_map_server_does() {
    for negate in [0, 1] {
        for mode in [None, Some("trinary"), Some("scale"), Some("raw")] {
            for (o, f) in [
                (0.65, 0.196),
                (0.65, 0.25),
                (0.9, 0.1),
                (0.065, 0.25),
                (0.5, 0.5),
            ] {
                check_all_levels(&meta(negate, o, f, mode));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_thresholds_classify_as_map_server_does(o in 0.0f64..=1.0, f in 0.0f64..=1.0, negate in 0u8..=1, mode in 0usize..3) {
        let mode = ["trinary", "scale", "raw"][mode];
        check_all_levels(&meta(negate, o, f, Some(mode)));
    }
}

#[test]
fn occupied_thresh_below_free_thresh_loads_as_ros_loads_it_with_a_note() {
    // Several real maps ship occupied_thresh 0.065, free_thresh 0.25.
    let m = meta(0, 0.065, 0.25, None);
    let gray: Vec<u8> = (0..=255).collect();
    let map = OccupancyMap::from_gray(256, 1, gray, &m, FreeRule::MapServer);
    for v in 0..=255u8 {
        let want = class_of(ros_cell(f64::from(v), false, 0.065, 0.25, "trinary"));
        assert_eq!(map.occupancy[v as usize], want, "gray {v}");
    }
    // Nothing is unknown: occupied is tested first and covers everything free does not.
    assert!(!map.occupancy.contains(&Occupancy::Unknown));
    let notes = m.notes(Path::new("m.yaml"));
    assert!(
        notes.iter().any(|n| n.contains("occupied_thresh 0.065")
            && n.contains("free_thresh 0.25")
            && n.contains("occupied is tested first")),
        "{notes:?}"
    );
    // The ordinary order gives no threshold note.
    assert!(meta(0, 0.65, 0.196, None)
        .notes(Path::new("m.yaml"))
        .is_empty());
}

/// The world position of cell (i, j) of an OccupancyGrid: its origin pose applied to
/// (i · res, j · res), the yaw as the quaternion q = (0, 0, sin(yaw/2), cos(yaw/2))
/// rotating v by q v q*.
fn grid_to_world(origin: [f64; 3], res: f64, i: f64, j: f64) -> (f64, f64) {
    let (qz, qw) = ((origin[2] / 2.0).sin(), (origin[2] / 2.0).cos());
    let (vx, vy) = (i * res, j * res);
    // q v q* for a rotation about z: x' = (w² − z²) x − 2wz y, y' = 2wz x + (w² − z²) y.
    let (a, b) = (qw * qw - qz * qz, 2.0 * qw * qz);
    (origin[0] + a * vx - b * vy, origin[1] + b * vx + a * vy)
}

#[test]
fn origin_yaw_is_applied_as_map_server_applies_it_with_a_note() {
    for yaw in [0.0, 0.3, -1.2, std::f64::consts::PI] {
        let m = MapMeta {
            origin: [1.5, -2.0, yaw],
            ..meta(0, 0.65, 0.196, None)
        };
        let (w, h) = (7usize, 5usize);
        let map = OccupancyMap::from_gray(w, h, vec![255; w * h], &m, FreeRule::MapServer);
        for row in 0..h {
            for col in 0..w {
                // map_server flips rows: image row r is grid row j = h − 1 − r.
                let want = grid_to_world(m.origin, m.resolution, col as f64, (h - 1 - row) as f64);
                let got = map.pixel_to_world(col as f64, row as f64);
                assert!(
                    (got.0 - want.0).abs() < 1e-12 && (got.1 - want.1).abs() < 1e-12,
                    "yaw {yaw} ({col}, {row}): {got:?} vs {want:?}"
                );
            }
        }
        let notes = m.notes(Path::new("m.yaml"));
        let yaw_note = notes
            .iter()
            .any(|n| n.contains("yaw") && n.contains("Race Stack"));
        assert_eq!(yaw_note, yaw != 0.0, "yaw {yaw}: {notes:?}");
    }
}

#[test]
fn loaded_maps_carry_the_yaml_notes() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("m.pgm"), b"P2 2 1 255 0 255\n").unwrap();
    std::fs::write(
        tmp.path().join("m.yaml"),
        "image: m.pgm\nresolution: 0.05\norigin: [0, 0, 0.5]\nnegate: 0\noccupied_thresh: 0.065\nfree_thresh: 0.25\n",
    )
    .unwrap();
    let (_, map) = OccupancyMap::load(&tmp.path().join("m.yaml"), FreeRule::MapServer).unwrap();
    assert_eq!(map.notes.len(), 2, "{:?}", map.notes);
    assert!(
        map.notes.iter().all(|n| n.contains("m.yaml: ")),
        "{:?}",
        map.notes
    );
    assert_eq!(map.free, vec![false, true]);
    // Decoded from bytes, without the YAML's path, the notes name the image's YAML.
    let meta = MapMeta::read(&tmp.path().join("m.yaml")).unwrap();
    let map = OccupancyMap::from_image_bytes(
        b"P2 1 1 255 0\n",
        Path::new("m.pgm"),
        &meta,
        FreeRule::MapServer,
    )
    .unwrap();
    assert!(
        map.notes
            .iter()
            .all(|n| n.starts_with("m.pgm (its YAML): ")),
        "{:?}",
        map.notes
    );
}
