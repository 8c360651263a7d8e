//! Placed features: obstacles, the wall gap, spurs and pockets are where the truth says.

use mapzoo_synth::{
    generate, GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec, FREE, OCCUPIED,
};

use crate::support::{edge, flood, opts, px, touches_border};

#[test]
fn obstacles_are_occupied_and_leave_the_track_around_them() {
    let mut o = opts(4);
    o.obstacles = vec![
        ObstacleSpec {
            s: 10.0,
            offset: 0.3,
            shape: ObstacleShape::Disc { radius: 0.25 },
        },
        ObstacleSpec {
            s: 30.0,
            offset: -0.2,
            shape: ObstacleShape::Box {
                length: 0.6,
                width: 0.3,
            },
        },
    ];
    o.random_obstacles = 2;
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    assert_eq!(map.truth.obstacles.len(), 4);
    for ob in &map.truth.obstacles {
        let (c, r) = px(&map, ob.center[0], ob.center[1]);
        assert_eq!(map.pixel(c, r), Some(OCCUPIED));
        let inner = ob.shape.half_across().min(ob.shape.half_along()) - res;
        for k in 0..16 {
            let a = std::f64::consts::TAU * k as f64 / 16.0;
            let (c, r) = px(
                &map,
                ob.center[0] + inner * a.cos(),
                ob.center[1] + inner * a.sin(),
            );
            assert_eq!(map.pixel(c, r), Some(OCCUPIED));
        }
        // Just outside it, across the track, the pixels are free again.
        let n = [-ob.heading.sin(), ob.heading.cos()];
        for side in [1.0, -1.0] {
            let passage = if side > 0.0 {
                ob.passage_left
            } else {
                ob.passage_right
            };
            if passage > 3.0 * res {
                let d = ob.shape.half_across() + 1.5 * res;
                let (c, r) = px(
                    &map,
                    ob.center[0] + side * d * n[0],
                    ob.center[1] + side * d * n[1],
                );
                assert_eq!(
                    map.pixel(c, r),
                    Some(FREE),
                    "beside obstacle at s = {}",
                    ob.s
                );
            }
        }
    }
    // The random obstacles leave a passage on both sides.
    for ob in &map.truth.obstacles[2..] {
        assert!(ob.passage_left > 0.0 && ob.passage_right > 0.0);
    }
}

#[test]
fn wall_gap_opens_the_track_to_the_border_where_the_truth_says() {
    let mut o = opts(5);
    let closed = generate(&o).expect("generate");
    let p0 = closed.truth.centerline[0];
    let seen = flood(&closed, px(&closed, p0.x, p0.y), |v| v == FREE);
    assert!(
        !touches_border(&closed, &seen),
        "a map without a gap is closed"
    );

    o.wall_gap = Some(GapSpec {
        s: Some(20.0),
        width: 0.5,
    });
    o.wall_thickness = Some(0.3);
    let map = generate(&o).expect("generate");
    let gap = map.truth.gap.expect("gap in the truth");
    let seen = flood(&map, px(&map, p0.x, p0.y), |v| v == FREE);
    assert!(touches_border(&map, &seen), "the gap must reach the border");
    let [bc, br] = gap.border_pixel;
    assert!(bc == 0 || br == 0 || bc == map.width - 1 || br == map.height - 1);
    // Every border pixel the track reaches lies within 5 px of the reported one.
    for r in 0..map.height {
        for c in 0..map.width {
            let on_border = r == 0 || c == 0 || r == map.height - 1 || c == map.width - 1;
            if on_border && seen[r * map.width + c] {
                let d = (c as f64 - bc as f64).hypot(r as f64 - br as f64);
                assert!(
                    d <= 5.0,
                    "leak pixel ({c}, {r}) is {d:.1} px from {:?}",
                    gap.border_pixel
                );
            }
        }
    }
    let [wc, wr] = gap.wall_pixel;
    assert_eq!(map.pixel(wc as i64, wr as i64), Some(FREE));
}

#[test]
fn spurs_and_pockets_are_dead_ends_off_the_track() {
    let mut o = opts(6);
    o.spurs = vec![SpurSpec {
        s: 5.0,
        side: Side::Outer,
        length: 1.2,
        width: 0.32,
        angle: 0.2,
    }];
    o.pockets = vec![PocketSpec {
        s: 25.0,
        side: Side::Inner,
        depth: 0.5,
        radius: 0.8,
    }];
    o.random_spurs = 2;
    o.random_pockets = 2;
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let t = &map.truth;
    assert_eq!(t.spurs.len(), 3);
    assert_eq!(t.pockets.len(), 3);
    assert_eq!(
        t.spurs[0].side,
        Side::Right,
        "outer is right on a counter-clockwise loop"
    );
    assert_eq!(t.pockets[0].side, Side::Left);
    for sp in &t.spurs {
        let (c, r) = px(&map, sp.tip[0], sp.tip[1]);
        assert_eq!(map.pixel(c, r), Some(FREE), "spur tip");
        let (dx, dy) = (sp.tip[0] - sp.root[0], sp.tip[1] - sp.root[1]);
        let len = dx.hypot(dy);
        let beyond = sp.width / 2.0 + 2.0 * res;
        let q = (sp.tip[0] + dx / len * beyond, sp.tip[1] + dy / len * beyond);
        let (c, r) = px(&map, q.0, q.1);
        assert_eq!(map.pixel(c, r), Some(OCCUPIED), "past the spur's dead end");
        // The spur reaches into what would be wall without it.
        let e = edge(&t.centerline, sp.tip[0], sp.tip[1]);
        assert!(e > 0.5, "spur tip only {e} m beyond the edge");
    }
    for pk in &t.pockets {
        let i = t.centerline.iter().position(|p| p.s >= pk.s).unwrap_or(0);
        let p = t.centerline[i];
        let sign = if pk.side == Side::Left { 1.0 } else { -1.0 };
        let n = [-p.psi.sin() * sign, p.psi.cos() * sign];
        let reach = p.d_left + pk.depth - 2.0 * res;
        let (c, r) = px(&map, p.x + n[0] * reach, p.y + n[1] * reach);
        assert_eq!(
            map.pixel(c, r),
            Some(FREE),
            "inside the pocket at s = {}",
            pk.s
        );
    }
    // Still one closed region: spurs and pockets never reach the border.
    let p0 = t.centerline[0];
    let seen = flood(&map, px(&map, p0.x, p0.y), |v| v == FREE);
    assert!(!touches_border(&map, &seen));
}
