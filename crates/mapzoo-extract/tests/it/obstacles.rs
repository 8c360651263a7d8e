//! Obstacles inside the track (issue 11, item 5): each is handed on as a wall
//! of its own, wholly on the side of the loop it lies on, with its box and the
//! room beyond it; the loop goes round an obstacle on a side at least the
//! minimum passage wide.

use mapzoo_extract::{extract, ExtractParams, StartPose};
use mapzoo_format::FreeRule;
use mapzoo_geom::Side;
use mapzoo_synth::{self as synth, ObstacleShape, ObstacleSpec, SynthOptions};

#[test]
fn obstacles_are_walls_on_their_side_with_box_and_room_beyond() {
    for seed in [5u64, 6] {
        // 4 m track: obstacles 0.5–0.6 m off centre, left and right, leaving ≈1.3 m beyond them
        // and ≈2.4 m on the side the loop takes (more than the 17-pixel opening both).
        let specs = [(10.0, 0.6), (25.0, -0.6), (40.0, 0.5)]
            .map(|(s, offset)| ObstacleSpec {
                s,
                offset,
                shape: ObstacleShape::Disc { radius: 0.15 },
            })
            .to_vec();
        let map = synth::generate(&SynthOptions {
            seed,
            centerline: synth::CenterlineSpec::Random {
                lap_length: Some(55.0),
            },
            width: synth::WidthSpec::Constant(4.0),
            obstacles: specs,
            ..SynthOptions::default()
        })
        .unwrap();
        let p = map.truth.centerline[0];
        let start = StartPose {
            x: p.x,
            y: p.y,
            yaw: p.psi,
        };
        let ex = extract(
            &map.occupancy(FreeRule::MapServer),
            &ExtractParams::default(),
            Some(start),
            false,
        )
        .unwrap();
        assert_eq!(ex.obstacles.len(), 3, "seed {seed}");
        for truth in &map.truth.obstacles {
            let found = ex
                .obstacles
                .iter()
                .find(|o| {
                    (o.centre[0] - truth.center[0]).hypot(o.centre[1] - truth.center[1]) < 0.1
                })
                .unwrap_or_else(|| panic!("seed {seed}: no obstacle at {:?}", truth.center));
            // Its side of the extracted loop, at the loop's nearest point.
            let k = (0..ex.centerline.len())
                .min_by(|&a, &b| {
                    let d = |i: usize| {
                        let w = &ex.centerline[i];
                        (w.x_m - truth.center[0]).hypot(w.y_m - truth.center[1])
                    };
                    d(a).total_cmp(&d(b))
                })
                .unwrap();
            let (a, b) = (
                &ex.centerline[k],
                &ex.centerline[(k + 1) % ex.centerline.len()],
            );
            let cross = (b.x_m - a.x_m) * (truth.center[1] - a.y_m)
                - (b.y_m - a.y_m) * (truth.center[0] - a.x_m);
            let side = if cross > 0.0 { Side::Left } else { Side::Right };
            assert_eq!(found.side, side, "seed {seed}: {truth:?}");
            assert!((found.size[0] - 0.3).abs() < 0.1 && (found.size[1] - 0.3).abs() < 0.1);
            let beyond = match side {
                Side::Left => truth.passage_left,
                Side::Right => truth.passage_right,
            };
            // Between boundary pixel centres: up to a pixel and a half less than the truth.
            assert!(
                found.room_beyond <= beyond + 0.01 && found.room_beyond > beyond - 0.1,
                "seed {seed}: room beyond {} vs {beyond}",
                found.room_beyond
            );
            // The width on its side stops at it: no centerline point sees past it.
            for w in &ex.centerline {
                let d = (w.x_m - truth.center[0]).hypot(w.y_m - truth.center[1]) - 0.15;
                let on_side = match side {
                    Side::Left => w.d_left,
                    Side::Right => w.d_right,
                };
                let other = match side {
                    Side::Left => w.d_right,
                    Side::Right => w.d_left,
                };
                assert!(
                    on_side <= d + 0.08,
                    "seed {seed}: d on its side {on_side} > {d}"
                );
                assert!(other > 0.0);
            }
        }
    }
}
