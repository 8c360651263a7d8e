//! The loop is the track, never a tiny loop round an obstacle (issue 11 item 6), and the
//! messages of maps without a track loop (issue 12 item 9): specks at many places never
//! become the infield; a pinch the opening cuts plus an obstacle is the whole lap, not a
//! loop round the obstacle; a lobby with one pillar is "no track loop" naming the pillar;
//! equally plausible loops are listed, and a start pose picks the nearest; a light-grey map
//! says that nothing is free and which threshold would make it so; a wall across the track
//! is named where it is. A loop at least 1.5 times as long as every other plausible one is
//! the track (issue 20), taken with a note; loops of similar length stay a refusal.

use std::f64::consts::PI;

use mapzoo_extract::{
    extract, ExtractError, ExtractNote, ExtractParams, Extraction, LoopCandidate, StartPose,
};
use mapzoo_format::{FreeRule, MapMeta, OccupancyMap};
use mapzoo_synth::{generate, SynthOptions};

use crate::synthetic::{check_loop, literal_map, rings, run, START};

/// A map of `w` × `h` pixels at 0.05 m/px whose pixel (col, row) has grey `f(col, row)`,
/// classified with the map-server thresholds (0.65 / 0.196).
fn drawn(w: usize, h: usize, f: impl Fn(f64, f64) -> u8) -> OccupancyMap {
    let gray = (0..w * h)
        .map(|i| f((i % w) as f64, (i / w) as f64))
        .collect();
    let meta = MapMeta {
        image: "m.png".into(),
        resolution: 0.05,
        origin: [0.0, 0.0, 0.0],
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    };
    OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::MapServer)
}

fn lap_m(ex: &Extraction) -> f64 {
    ex.centerline.len() as f64 * 0.1
}

#[test]
fn specks_at_many_places_never_become_the_infield() {
    for seed in [91u64, 92] {
        let (synth, plain) = run(&SynthOptions {
            seed,
            ..SynthOptions::default()
        });
        let plain = plain.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut map = synth.occupancy(FreeRule::MapServer);
        // A 3×3 occupied speck at every 7th truth point, alternating across the track.
        let t = &synth.truth.centerline;
        for (k, p) in t.iter().enumerate().step_by(7) {
            let off = 0.4 * if k % 2 == 0 { p.d_left } else { -p.d_right };
            let (x, y) = (p.x - p.psi.sin() * off, p.y + p.psi.cos() * off);
            let (c, r) = synth.world_to_pixel(x, y);
            let (c, r) = (c.round() as usize, r.round() as usize);
            for rr in r - 1..=r + 1 {
                for cc in c - 1..=c + 1 {
                    map.free[rr * map.width + cc] = false;
                    map.gray[rr * map.width + cc] = 0;
                }
            }
        }
        let ex = extract(&map, &ExtractParams::default(), Some(START), false)
            .unwrap_or_else(|e| panic!("seed {seed} with specks: {e}"));
        // The whole lap (it may weave round the specks): as long as without them, and every
        // truth point within the track's width of it.
        let (got, want) = (lap_m(&ex), lap_m(&plain));
        assert!(
            (got - want).abs() < 0.05 * want,
            "seed {seed}: {got:.1} m, {want:.1} m without specks"
        );
        let ours: Vec<[f64; 2]> = ex.centerline.iter().map(|p| [p.x_m, p.y_m]).collect();
        for p in t {
            let d = crate::support::dist_to_loop(&ours, [p.x, p.y]);
            assert!(
                d < p.d_left.max(p.d_right),
                "seed {seed}: truth point {d:.2} m from the loop"
            );
        }
    }
}

/// A ring track around (cx, cy) of centre radius `rc` and width `width` (pixels), with a
/// pinch of `pinch` pixels at angle 0 and a round obstacle of radius `obstacle` pixels on the
/// centre line at angle π/2.
fn pinched_ring(rc: f64, width: f64, pinch: f64, obstacle: f64) -> (OccupancyMap, f64) {
    let side = (2.0 * (rc + width) + 40.0) as usize;
    let (cx, cy) = (side as f64 / 2.0, side as f64 / 2.0);
    let (ox, oy) = (cx, cy - rc);
    let map = drawn(side, side, |c, r| {
        let d = (c - cx).hypot(r - cy);
        let free_ring = (d - rc).abs() <= width / 2.0;
        let in_pinch = c > cx && (r - cy).abs() < 6.0 && (d - rc).abs() > pinch / 2.0;
        let in_obstacle = (c - ox).hypot(r - oy) <= obstacle;
        if free_ring && !in_pinch && !in_obstacle {
            254
        } else {
            0
        }
    });
    (map, 2.0 * PI * rc * 0.05)
}

#[test]
fn a_pinch_and_an_obstacle_give_the_lap_not_a_loop_round_the_obstacle() {
    // 140 m of 4 m wide track, a 0.7 m pinch (under the 17-pixel opening), an obstacle of
    // 1.2, 1.6 or 2.4 m.
    for obstacle in [12.0, 16.0, 24.0] {
        let (map, lap) = pinched_ring(140.0 / (2.0 * PI * 0.05), 80.0, 14.0, obstacle);
        let start = StartPose {
            x: map.origin[0] + map.width as f64 / 2.0 * 0.05,
            y: map.origin[1] + 2.0,
            yaw: 0.0,
        };
        let ex = extract(&map, &ExtractParams::default(), Some(start), false)
            .unwrap_or_else(|e| panic!("pinched ring, obstacle {obstacle} px: {e}"));
        let got = lap_m(&ex);
        assert!(
            (got - lap).abs() < 0.03 * lap,
            "obstacle {obstacle} px: a {got:.1} m loop on a {lap:.1} m track"
        );
    }
}

#[test]
fn a_lobby_with_one_pillar_is_no_track_loop() {
    // Open rooms of several sizes with a pillar at several places: refused, naming the pillar.
    for (room, pillar, at) in [
        (300.0, 10.0, (0.5, 0.5)),
        (300.0, 24.0, (0.3, 0.6)),
        (200.0, 16.0, (0.7, 0.35)),
        (400.0, 30.0, (0.45, 0.7)),
    ] {
        let side = room as usize + 20;
        let (px, py) = (10.0 + at.0 * room, 10.0 + at.1 * room);
        let map = drawn(side, side, |c, r| {
            let inside = (10.0..10.0 + room).contains(&c) && (10.0..10.0 + room).contains(&r);
            if inside && (c - px).hypot(r - py) > pillar / 2.0 {
                254
            } else {
                0
            }
        });
        match extract(&map, &ExtractParams::default(), None, false) {
            Err(e @ ExtractError::NoTrackLoop { at: p, .. }) => {
                let d = (p.col as f64 - px).hypot(p.row as f64 - py);
                assert!(d <= 3.0, "pillar at ({px}, {py}) named {d:.1} px away: {e}");
                assert!(e.to_string().starts_with("no track loop"), "{e}");
            }
            other => panic!(
                "room {room} px, pillar {pillar} px: expected no track loop, got {:?}",
                other.map(|e| e.centerline.len())
            ),
        }
    }
}

#[test]
fn the_start_pose_picks_one_of_several_loops() {
    // Two equal square tracks, and a third: refused without a start, listing each with its
    // length and place; with a start near one, that one.
    let centres = [(40i64, 40i64), (120, 40), (200, 40)];
    let squares: Vec<_> = centres.iter().map(|&(c, r)| (c, r, 34, 12)).collect();
    let rows = rings(240, 80, &squares);
    let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let map = literal_map(&refs, 0.05);
    match extract(&map, &ExtractParams::default(), None, false) {
        Err(e @ ExtractError::Ambiguous { .. }) => {
            let ExtractError::Ambiguous { candidates, .. } = &e else {
                unreachable!()
            };
            assert_eq!(candidates.len(), 3, "{e}");
            for &(c, r) in &centres {
                assert!(
                    candidates.iter().any(|k| (k.at.col as i64 - c).abs() <= 1
                        && (k.at.row as i64 - r).abs() <= 1
                        && (k.length_m - 4.0 * 47.0 * 0.05).abs() < 1.0),
                    "no candidate around ({c}, {r}): {e}"
                );
            }
            assert!(e.to_string().contains(" m loop around pixel (col"), "{e}");
        }
        other => panic!(
            "expected an ambiguity, got {:?}",
            other.map(|e| e.centerline.len())
        ),
    }
    for &(c, r) in &centres {
        // A start on the square's top side: world y grows upwards from the bottom row.
        let (x, y) = map.pixel_to_world(c as f64, (r - 23) as f64);
        let start = StartPose { x, y, yaw: 0.0 };
        let ex = extract(&map, &ExtractParams::default(), Some(start), false)
            .unwrap_or_else(|e| panic!("start near ({c}, {r}): {e}"));
        let p0 = &ex.centerline[0];
        assert!(
            (p0.x_m - x).hypot(p0.y_m - y) < 0.3,
            "start near ({c}, {r}): waypoint 0 at ({}, {})",
            p0.x_m,
            p0.y_m
        );
    }
}

#[test]
fn a_light_grey_track_says_nothing_is_free_and_why() {
    // A ring drawn in grey 200 on black: occupancy (255 - 200) / 255 = 0.216, not below 0.196.
    let map = drawn(200, 200, |c, r| {
        if (40.0..80.0).contains(&(c - 100.0).hypot(r - 100.0)) {
            200
        } else {
            0
        }
    });
    match extract(&map, &ExtractParams::default(), None, false) {
        Err(e @ ExtractError::NothingFree { lightest: 200 }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("no pixel of the map is free") && msg.contains("above 0.216"),
                "{msg}"
            );
        }
        other => panic!(
            "expected NothingFree, got {:?}",
            other.map(|e| e.centerline.len())
        ),
    }
}

#[test]
fn a_wall_across_the_track_is_named_where_it_is() {
    for (angle, thick) in [(0.3f64, 3.0), (2.0, 6.0), (4.0, 10.0)] {
        let (cx, cy) = (150.0, 150.0);
        let (wx, wy) = (cx + 100.0 * angle.cos(), cy + 100.0 * angle.sin());
        let map = drawn(300, 300, |c, r| {
            let d = (c - cx).hypot(r - cy);
            // The wall: a band `thick` pixels wide along the radius at `angle`.
            let along = (c - cx) * angle.cos() + (r - cy) * angle.sin();
            let across = -(c - cx) * angle.sin() + (r - cy) * angle.cos();
            let wall = along > 0.0 && across.abs() <= thick / 2.0;
            if (70.0..130.0).contains(&d) && !wall {
                254
            } else {
                0
            }
        });
        match extract(&map, &ExtractParams::default(), None, false) {
            Err(e @ ExtractError::NoLoop { .. }) => {
                let msg = e.to_string();
                let at = msg
                    .split("cuts it at pixel (col ")
                    .nth(1)
                    .unwrap_or_else(|| panic!("no place named: {msg}"));
                let nums: Vec<f64> = at
                    .split(|ch: char| !ch.is_ascii_digit())
                    .filter(|s| !s.is_empty())
                    .take(2)
                    .map(|s| s.parse().expect("number"))
                    .collect();
                let (dc, dr) = (nums[0] - wx, nums[1] - wy);
                // On the wall, somewhere across the track.
                let across = (-dc * angle.sin() + dr * angle.cos()).abs();
                assert!(across <= thick / 2.0 + 2.0, "{msg}");
                let d = (nums[0] - cx).hypot(nums[1] - cy);
                assert!((60.0..140.0).contains(&d), "{msg}");
            }
            other => panic!(
                "expected NoLoop, got {:?}",
                other.map(|e| e.centerline.len())
            ),
        }
    }
}

/// The generator's clean track still builds with its loop (a guard for the tests above).
#[test]
fn a_clean_generated_track_is_its_own_loop() {
    let synth = generate(&SynthOptions {
        seed: 93,
        ..SynthOptions::default()
    })
    .expect("generator");
    let map = synth.occupancy(FreeRule::MapServer);
    let ex = extract(&map, &ExtractParams::default(), Some(START), false).expect("clean");
    check_loop("clean seed 93", &synth, &ex);
}

/// Literal rows (`#` free) of `w` × `h` pixels holding rectangular frame tracks, each
/// `(c0, r0, c1, r1, band)`: free inside the rectangle [c0, c1] × [r0, r1] and within `band`
/// pixels of its edge.
fn frames(w: usize, h: usize, tracks: &[(usize, usize, usize, usize, usize)]) -> Vec<String> {
    (0..h)
        .map(|r| {
            (0..w)
                .map(|c| {
                    let free = tracks.iter().any(|&(c0, r0, c1, r1, b)| {
                        let inside = (c0..=c1).contains(&c) && (r0..=r1).contains(&r);
                        let hole = (c0 + b..=c1 - b).contains(&c) && (r0 + b..=r1 - b).contains(&r);
                        inside && !hole
                    });
                    if free {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// The loop-choice note of an extraction: (chosen, others).
fn chosen(ex: &Extraction) -> Option<(LoopCandidate, Vec<LoopCandidate>)> {
    ex.notes.iter().find_map(|n| match n {
        ExtractNote::LoopChosen { chosen, others } => Some((chosen.clone(), others.clone())),
        _ => None,
    })
}

#[test]
fn a_loop_much_longer_than_the_others_is_the_track() {
    // Issue 20: a long race track (infield 200 × 10 px) beside a square loop round a room
    // block (40 × 40 px, more than half the track's infield area): the square's loop is
    // under half as long, so the track is taken, with a note naming the square. Two similar
    // loops (the square beside a 60 × 25 px track) are still refused, as are two equal ones.
    let long = frames(300, 120, &[(5, 5, 230, 40, 12), (60, 60, 123, 123, 12)]);
    let refs: Vec<&str> = long.iter().map(|s| s.as_str()).collect();
    let map = literal_map(&refs, 0.05);
    let ex = extract(&map, &ExtractParams::default(), None, false)
        .unwrap_or_else(|e| panic!("a dominant loop: {e}"));
    // The long track's medial rectangle: (226 − 12) × (36 − 12) px.
    let want = 2.0 * (214.0 + 24.0) * 0.05;
    assert!(
        (lap_m(&ex) - want).abs() < 0.05 * want,
        "{} m, want {want} m",
        lap_m(&ex)
    );
    let (pick, others) = chosen(&ex).expect("a note naming the loops");
    assert!((pick.at.col as i64 - 117).abs() <= 2 && (pick.at.row as i64 - 22).abs() <= 2);
    assert_eq!(others.len(), 1);
    assert!(pick.length_m >= 1.5 * others[0].length_m);
    assert!((others[0].at.col as i64 - 91).abs() <= 2 && (others[0].at.row as i64 - 91).abs() <= 2);
    // A start pose on the square still takes the square.
    let (x, y) = map.pixel_to_world(91.0, 66.0);
    let ex = extract(
        &map,
        &ExtractParams::default(),
        Some(StartPose { x, y, yaw: 0.0 }),
        false,
    )
    .unwrap();
    assert!(lap_m(&ex) < 0.6 * want, "{} m", lap_m(&ex));
    assert!(chosen(&ex).is_none());

    let similar = frames(300, 120, &[(5, 5, 90, 50, 12), (160, 40, 223, 103, 12)]);
    let refs: Vec<&str> = similar.iter().map(|s| s.as_str()).collect();
    match extract(
        &literal_map(&refs, 0.05),
        &ExtractParams::default(),
        None,
        false,
    ) {
        Err(ExtractError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates.len(), 2);
            assert!(candidates[0].length_m < 1.5 * candidates[1].length_m);
        }
        other => panic!(
            "similar loops: expected an ambiguity, got {:?}",
            other.map(|e| lap_m(&e))
        ),
    }
}

#[test]
fn of_two_infields_the_one_with_the_much_longer_loop_is_the_track() {
    // One free block round two holes: a long one (180 × 14 px) and a square (44 × 44 px, more
    // than half its area); the loop round the long hole is the track. Equal holes stay a
    // refusal (synthetic::two_equal_loops_are_an_ambiguity).
    let rows: Vec<String> = (0..110)
        .map(|r| {
            (0..270)
                .map(|c| {
                    let block = (5..265).contains(&c) && (5..105).contains(&r);
                    let long = (20..200).contains(&c) && (20..34).contains(&r);
                    let square = (205..249).contains(&c) && (50..94).contains(&r);
                    if block && !long && !square {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let ex = extract(
        &literal_map(&refs, 0.05),
        &ExtractParams::default(),
        None,
        false,
    )
    .unwrap_or_else(|e| panic!("two infields, one dominant: {e}"));
    let (pick, others) = chosen(&ex).expect("a note naming the loops");
    assert!(
        (pick.at.col as i64 - 109).abs() <= 2 && (pick.at.row as i64 - 26).abs() <= 2,
        "{pick}"
    );
    assert_eq!(others.len(), 1);
    assert!(pick.length_m >= 1.5 * others[0].length_m);
}
