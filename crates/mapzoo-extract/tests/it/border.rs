//! The image border is a wall (issue 11 item 4): a track whose free space runs into the edge
//! of the image builds, on each of the four edges, with a note; a leak is only a gap in a wall
//! into free space outside the track (`synthetic::wall_gap_is_reported_where_it_is`).

use mapzoo_extract::{extract, ExtractNote, ExtractParams};
use mapzoo_format::{FreeRule, OccupancyMap};
use mapzoo_synth::{generate, SynthOptions};

use crate::synthetic::{check_loop, START};

/// The part `[c0, c1) × [r0, r1)` of `map`, with the origin moved so that every kept pixel
/// keeps its world position (yaw 0).
fn crop(map: &OccupancyMap, c0: usize, r0: usize, c1: usize, r1: usize) -> OccupancyMap {
    let (w, h) = (c1 - c0, r1 - r0);
    let pick = |v: &[u8]| -> Vec<u8> {
        (r0..r1)
            .flat_map(|r| v[r * map.width + c0..r * map.width + c1].to_vec())
            .collect()
    };
    let free: Vec<u8> = map.free.iter().map(|&f| f as u8).collect();
    let mut origin = map.origin;
    origin[0] += c0 as f64 * map.resolution;
    origin[1] += (map.height - r1) as f64 * map.resolution;
    OccupancyMap {
        width: w,
        height: h,
        resolution: map.resolution,
        origin,
        gray: pick(&map.gray),
        free: pick(&free).into_iter().map(|f| f == 1).collect(),
    }
}

/// The bounding box of the free pixels, `[c0, r0, c1, r1]` inclusive.
fn free_bbox(map: &OccupancyMap) -> [usize; 4] {
    let mut b = [usize::MAX, usize::MAX, 0, 0];
    for (i, _) in map.free.iter().enumerate().filter(|(_, &f)| f) {
        let (c, r) = (i % map.width, i / map.width);
        b = [b[0].min(c), b[1].min(r), b[2].max(c), b[3].max(r)];
    }
    b
}

#[test]
fn a_track_running_into_each_image_edge_builds() {
    for seed in [81u64, 82, 83] {
        let synth = generate(&SynthOptions {
            seed,
            ..SynthOptions::default()
        })
        .expect("generator");
        let map = synth.occupancy(FreeRule::MapServer);
        let [fc0, fr0, fc1, fr1] = free_bbox(&map);
        // Cut `bite` pixels off the track's outer edge on one side: its free space then runs
        // into that edge of the image.
        let bite = 4;
        let (w, h) = (map.width, map.height);
        for (side, (c0, r0, c1, r1)) in [
            ("left", (fc0 + bite, 0, w, h)),
            ("top", (0, fr0 + bite, w, h)),
            ("right", (0, 0, fc1 + 1 - bite, h)),
            ("bottom", (0, 0, w, fr1 + 1 - bite)),
        ] {
            let cut = crop(&map, c0, r0, c1, r1);
            let name = format!("seed {seed}, track into the {side} edge");
            let ex = extract(&cut, &ExtractParams::default(), Some(START), false)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            check_loop(&name, &synth, &ex);
            let note = ex
                .notes
                .iter()
                .find_map(|n| match n {
                    ExtractNote::BorderIsWall { at, pixels } => Some((*at, *pixels)),
                })
                .unwrap_or_else(|| panic!("{name}: no border note"));
            let (at, pixels) = note;
            let on_side = match side {
                "left" => at.col == 0,
                "top" => at.row == 0,
                "right" => at.col + 1 == cut.width,
                _ => at.row + 1 == cut.height,
            };
            assert!(
                on_side && pixels > 0,
                "{name}: note at {at}, {pixels} pixels"
            );
        }
    }
}
