//! The image border is a wall (issue 11 item 4): a track whose free space runs into the edge
//! of the image builds, on each of the four edges, with a note; a leak is only a gap in a wall
//! into free space outside the track (`synthetic::wall_gap_is_reported_where_it_is`).
//! Unknown space stays unknown (item 3): a uniform grey joined to the border that the
//! thresholds call free (ROS 2's 205 under free_thresh 0.25, or 216) is taken as unknown.

use mapzoo_extract::{extract, ExtractNote, ExtractParams};
use mapzoo_format::{FreeRule, Occupancy, OccupancyMap};
use mapzoo_synth::{generate, SynthOptions};

use crate::support::{crop, free_bbox};
use crate::synthetic::{check_loop, START};

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
                    _ => None,
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

#[test]
fn a_uniform_grey_that_counts_as_free_is_unknown() {
    // Walls 0.3 m thick, unknown (205) beyond and in the infield, and a 1.4 m gap through
    // each wall: with the ROS 2 map saver's free_thresh 0.25 the grey is free and the track
    // leaks into it on both sides; read as what it means (unknown), the track is closed.
    for (seed, grey, free_thresh) in [(101u64, 205u8, 0.25), (102, 205, 0.25), (103, 216, 0.196)] {
        let synth = generate(&SynthOptions {
            seed,
            wall_thickness: Some(0.3),
            ..SynthOptions::default()
        })
        .expect("generator");
        let t = &synth.truth.centerline;
        let p = &t[t.len() * 35 / 100];
        // Counter-clockwise: the outer wall is on the right, the inner one on the left.
        let edge = p.d_right + 0.15;
        let (gc, gr) = synth.world_to_pixel(p.x + p.psi.sin() * edge, p.y - p.psi.cos() * edge);
        let q = &t[t.len() * 70 / 100];
        let edge = q.d_left + 0.15;
        let (ic, ir) = synth.world_to_pixel(q.x - q.psi.sin() * edge, q.y + q.psi.cos() * edge);
        let rad = 0.7 / synth.meta.resolution;
        let gray: Vec<u8> = synth
            .gray
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let (c, r) = ((i % synth.width) as f64, (i / synth.width) as f64);
                if (c - gc).hypot(r - gr) <= rad || (c - ic).hypot(r - ir) <= rad {
                    254
                } else if v == 205 {
                    grey
                } else {
                    v
                }
            })
            .collect();
        let mut meta = synth.meta.clone();
        meta.free_thresh = free_thresh;
        let map =
            OccupancyMap::from_gray(synth.width, synth.height, gray, &meta, FreeRule::MapServer);
        let name = format!("seed {seed}, unknown grey {grey}, free_thresh {free_thresh}");
        let unknown_free = map
            .gray
            .iter()
            .zip(&map.free)
            .filter(|(&g, &f)| g == grey && f)
            .count();
        assert!(
            unknown_free > 1000,
            "{name}: the grey is not free ({unknown_free})"
        );
        let ex = extract(&map, &ExtractParams::default(), Some(START), false)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        check_loop(&name, &synth, &ex);
        let pixels = ex
            .notes
            .iter()
            .find_map(|n| match n {
                ExtractNote::GreyIsUnknown { grey: g, pixels } if *g == grey => Some(*pixels),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name}: no note: {:?}", ex.notes));
        assert_eq!(pixels, unknown_free, "{name}");
        // The same map read as the generator meant it (grey unknown) gives the same lap.
        let mut known = map.clone();
        for (i, &g) in map.gray.iter().enumerate() {
            if g == grey {
                known.free[i] = false;
                known.occupancy[i] = Occupancy::Unknown;
            }
        }
        let want = extract(&known, &ExtractParams::default(), Some(START), false)
            .unwrap_or_else(|e| panic!("{name}, grey unknown: {e}"));
        assert_eq!(ex.centerline, want.centerline, "{name}");
    }
}

#[test]
fn the_free_outside_of_a_thin_walled_map_is_not_the_track() {
    // F1TENTH style (thin black walls on white, free outside up to the image border) round a
    // long narrow stadium: the free outside touches the border and its hole (walls, track,
    // infield) is many times the track's thin infield, yet the track is the loop.
    use mapzoo_synth::CenterlineSpec;
    let (half, radius) = (15.0, 1.8);
    let mut points = Vec::new();
    for k in 0..60 {
        points.push([-half + 2.0 * half * k as f64 / 60.0, -radius]);
    }
    for k in 0..30 {
        let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * k as f64 / 30.0;
        points.push([half + radius * a.cos(), radius * a.sin()]);
    }
    for k in 0..60 {
        points.push([half - 2.0 * half * k as f64 / 60.0, radius]);
    }
    for k in 0..30 {
        let a = std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * k as f64 / 30.0;
        points.push([-half + radius * a.cos(), radius * a.sin()]);
    }
    let synth = generate(&SynthOptions {
        centerline: CenterlineSpec::Points {
            points,
            widths: None,
        },
        width: mapzoo_synth::WidthSpec::Constant(2.6),
        margin: 1.0,
        ..SynthOptions::default()
    })
    .expect("generator");
    let (map, _) = crate::synthetic::thin_walls(&synth, 3, None);
    let ex = extract(&map, &ExtractParams::default(), None, false)
        .unwrap_or_else(|e| panic!("thin-walled stadium: {e}"));
    let lap = ex.centerline.len() as f64 * 0.1;
    let want = synth.truth.lap_length;
    assert!(
        (lap - want).abs() < 0.03 * want,
        "a {lap:.1} m loop round a {want:.1} m track"
    );
}
