//! The synthetic map generator against its spec: the free region is the band
//! of the true centerline, the features are where the truth says, the output
//! is byte-stable, and random loops never touch themselves.

use std::collections::VecDeque;

use mapzoo_format::{FreeRule, MapMeta};
use mapzoo_synth::{
    generate, CenterlineSpec, GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec,
    SynthError, SynthMap, SynthOptions, TruthPoint, WidthSpec, FREE, OCCUPIED, UNKNOWN,
};
use proptest::prelude::*;

/// Signed distance from (x, y) to the band's edge (negative inside), metres:
/// the band is the union of the capsules around the truth segments, radius
/// half the width interpolated along each segment.
fn edge(points: &[TruthPoint], x: f64, y: f64) -> f64 {
    let n = points.len();
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (&points[i], &points[(i + 1) % n]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let len2 = ex * ex + ey * ey;
        let t = (((x - a.x) * ex + (y - a.y) * ey) / len2).clamp(0.0, 1.0);
        let d = (x - a.x - t * ex).hypot(y - a.y - t * ey);
        best = best.min(d - (a.d_left + t * (b.d_left - a.d_left)));
    }
    best
}

/// A tiny LCG, independent of the generator's RNG, to pick sample pixels.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn px(map: &SynthMap, x: f64, y: f64) -> (i64, i64) {
    let (c, r) = map.world_to_pixel(x, y);
    (c.round() as i64, r.round() as i64)
}

/// Free pixels reachable from (c, r) through free pixels (4-neighbours).
fn flood(map: &SynthMap, start: (i64, i64), free: impl Fn(u8) -> bool) -> Vec<bool> {
    let mut seen = vec![false; map.width * map.height];
    let mut queue = VecDeque::from([start]);
    while let Some((c, r)) = queue.pop_front() {
        match map.pixel(c, r) {
            Some(v) if free(v) => {}
            _ => continue,
        }
        let i = r as usize * map.width + c as usize;
        if seen[i] {
            continue;
        }
        seen[i] = true;
        queue.extend([(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]);
    }
    seen
}

fn touches_border(map: &SynthMap, seen: &[bool]) -> bool {
    (0..map.height).any(|r| {
        (0..map.width).any(|c| {
            let on_border = r == 0 || c == 0 || r == map.height - 1 || c == map.width - 1;
            on_border && seen[r * map.width + c]
        })
    })
}

fn opts(seed: u64) -> SynthOptions {
    SynthOptions {
        seed,
        centerline: CenterlineSpec::Random {
            lap_length: Some(50.0),
        },
        resolution: 0.08,
        ..SynthOptions::default()
    }
}

#[test]
fn free_region_is_the_band_around_the_true_centerline() {
    for seed in [1, 2, 3] {
        let map = generate(&opts(seed)).expect("generate");
        let pts = &map.truth.centerline;
        let res = map.meta.resolution;
        for p in pts {
            let (c, r) = px(&map, p.x, p.y);
            assert_eq!(
                map.pixel(c, r),
                Some(FREE),
                "seed {seed}: centerline pixel at s = {}",
                p.s
            );
        }
        let mut rng = Lcg(seed);
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..6000 {
            let (c, r) = (rng.below(map.width), rng.below(map.height));
            let (x, y) = map.pixel_to_world(c as f64, r as f64);
            let e = edge(pts, x, y);
            let v = map.pixel(c as i64, r as i64).unwrap();
            if e > res {
                outside += 1;
                assert_eq!(
                    v, OCCUPIED,
                    "seed {seed}: pixel ({c}, {r}) is {e:.3} m outside the band"
                );
            } else if e < -res {
                inside += 1;
                assert_eq!(
                    v, FREE,
                    "seed {seed}: pixel ({c}, {r}) is {:.3} m inside the band",
                    -e
                );
            }
        }
        assert!(inside > 100 && outside > 100, "{inside} {outside}");
        // Only the three map-server values appear without anti-aliasing.
        assert!(map.gray.iter().all(|&v| v == FREE || v == OCCUPIED));
    }
}

#[test]
fn truth_centerline_is_evenly_spaced_and_starts_at_the_origin() {
    let map = generate(&opts(9)).expect("generate");
    let t = &map.truth;
    let p0 = t.centerline[0];
    assert!(p0.x.abs() < 1e-9 && p0.y.abs() < 1e-9 && p0.psi.abs() < 1e-9);
    assert!(t.counter_clockwise);
    assert!((t.lap_length - 50.0).abs() < 1e-9);
    let n = t.centerline.len();
    assert_eq!(n, 500);
    let mut total = 0.0;
    for i in 0..n {
        let (a, b) = (&t.centerline[i], &t.centerline[(i + 1) % n]);
        let d = (b.x - a.x).hypot(b.y - a.y);
        assert!((d - 0.1).abs() < 2e-3, "spacing {d} at {i}");
        total += d;
        assert!(a.width() >= 1.6 - 1e-9 && a.width() <= 3.0 + 1e-9);
    }
    // The polyline is a chord approximation of the true curve: slightly shorter.
    assert!(total <= 50.0 && total > 49.99, "{total}");
    // Headings follow the polyline, curvature integrates to one full turn.
    let turn: f64 = t.centerline.iter().map(|p| p.kappa * 0.1).sum();
    assert!((turn - std::f64::consts::TAU).abs() < 0.01, "{turn}");
}

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

#[test]
fn unknown_regions_stay_off_the_track() {
    let mut o = opts(7);
    o.wall_thickness = Some(0.4);
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    assert!(map.gray.iter().filter(|&&v| v == UNKNOWN).count() > map.gray.len() / 4);
    let mut rng = Lcg(7);
    for _ in 0..4000 {
        let (c, r) = (rng.below(map.width), rng.below(map.height));
        let (x, y) = map.pixel_to_world(c as f64, r as f64);
        let e = edge(pts, x, y);
        let v = map.pixel(c as i64, r as i64).unwrap();
        if e > 0.4 + res {
            assert_eq!(v, UNKNOWN, "beyond the wall at ({c}, {r})");
        } else if e > res && e < 0.4 - res {
            assert_eq!(v, OCCUPIED, "in the wall at ({c}, {r})");
        }
    }
    // Blobs without a wall thickness land in the occupied area only, away from the edge.
    let mut o = opts(7);
    o.unknown_blobs = 40;
    let map = generate(&o).expect("generate");
    let unknown: Vec<usize> = (0..map.gray.len())
        .filter(|&i| map.gray[i] == UNKNOWN)
        .collect();
    assert!(!unknown.is_empty());
    for &i in unknown.iter().step_by(97) {
        let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
        let e = edge(pts, x, y);
        assert!(e > 2.0 * res, "blob pixel only {e} m beyond the edge");
    }
    let occ = map.occupancy(FreeRule::MapServer);
    assert!(
        unknown.iter().all(|&i| !occ.free[i]),
        "unknown counts as occupied"
    );
}

#[test]
fn anti_aliased_edges_ramp_between_free_and_occupied() {
    let mut o = opts(8);
    o.anti_alias = Some(1.5);
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    let mid: Vec<usize> = (0..map.gray.len())
        .filter(|&i| map.gray[i] != FREE && map.gray[i] != OCCUPIED)
        .collect();
    assert!(mid.len() > 1000, "{} ramp pixels", mid.len());
    for &i in mid.iter().step_by(53) {
        let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
        let e = edge(pts, x, y);
        assert!(
            e.abs() <= 0.75 * res + 1e-6,
            "ramp pixel {:.3} px from the edge",
            e / res
        );
    }
    // Darker further out: the gray falls monotonically across the edge.
    let p = pts[100];
    let n = [-p.psi.sin(), p.psi.cos()];
    let mut last = 255u16;
    for k in 0..40 {
        let off = p.d_left - 2.0 * res + k as f64 * 0.1 * res;
        let (c, r) = px(&map, p.x + n[0] * off, p.y + n[1] * off);
        let v = map.pixel(c, r).unwrap() as u16;
        assert!(v <= last, "gray rises across the edge");
        last = v;
    }
    assert_eq!(last, 0);
}

#[test]
fn lidar_rays_specks_and_noise_lie_outside_the_track() {
    let mut o = opts(10);
    o.lidar_rays = 12;
    o.specks = 30;
    o.noise = 0.01;
    let clean = generate(&opts(10)).expect("generate");
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    let mut extra = 0;
    for i in 0..map.gray.len() {
        if map.gray[i] != clean.gray[i] {
            extra += 1;
            let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
            assert!(
                edge(pts, x, y) > -0.5 * res,
                "changed pixel inside the track"
            );
        }
    }
    assert!(extra > 100, "{extra}");
    // Free pixels now exist beyond the walls.
    let outside_free = (0..map.gray.len())
        .filter(|&i| map.gray[i] >= 206 && clean.gray[i] == OCCUPIED)
        .count();
    assert!(outside_free > 50, "{outside_free}");
}

#[test]
fn same_seed_and_options_give_byte_identical_files() {
    let mut o = opts(11);
    o.anti_alias = Some(1.0);
    o.random_obstacles = 2;
    o.random_spurs = 1;
    o.random_pockets = 1;
    o.wall_gap = Some(GapSpec {
        s: None,
        width: 0.6,
    });
    o.wall_thickness = Some(0.3);
    o.unknown_blobs = 3;
    o.lidar_rays = 5;
    o.specks = 5;
    o.noise = 0.001;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let files: Vec<_> = dirs
        .iter()
        .map(|d| {
            generate(&o)
                .expect("generate")
                .write(d.path(), "t")
                .expect("write")
        })
        .collect();
    for (first, second) in files[0].iter().zip(&files[1]) {
        let a = std::fs::read(first).unwrap();
        let b = std::fs::read(second).unwrap();
        assert!(a == b, "{} differs between runs", first.display());
    }
    let meta = MapMeta::read(&files[0][1]).expect("the YAML reads back");
    assert_eq!(meta.image, "t.png");
    assert_eq!(
        (meta.occupied_thresh, meta.free_thresh, meta.negate),
        (0.65, 0.196, 0)
    );
    let (w, h, gray) = mapzoo_format::read_gray_png(&files[0][0]).unwrap();
    let map = generate(&o).unwrap();
    assert_eq!((w, h), (map.width, map.height));
    assert!(gray == map.gray);
    let mut other = o.clone();
    other.seed = 12;
    assert!(generate(&other).unwrap().gray != map.gray);
}

#[test]
fn exact_image_size_centres_the_track() {
    let mut o = opts(12);
    o.image_size = Some([700, 500]);
    let map = generate(&o).expect("generate");
    assert_eq!((map.width, map.height), (700, 500));
    let p0 = map.truth.centerline[0];
    let (c, r) = px(&map, p0.x, p0.y);
    assert_eq!(map.pixel(c, r), Some(FREE));
    o.image_size = Some([100, 100]);
    assert!(matches!(generate(&o), Err(SynthError::DoesNotFit { .. })));
}

/// A square loop at 1 m/px in a 12×12 image (pixel (c, r) at world (c, 11 − r)),
/// width 2.2 m: free within 1.1 m of the square's sides, corners rounded.
#[test]
fn literal_small_square_track() {
    let o = SynthOptions {
        centerline: CenterlineSpec::Points {
            points: vec![[2.0, 2.0], [9.0, 2.0], [9.0, 9.0], [2.0, 9.0]],
            widths: None,
        },
        width: WidthSpec::Constant(2.2),
        resolution: 1.0,
        image_size: Some([12, 12]),
        ..SynthOptions::default()
    };
    let map = generate(&o).expect("generate");
    let expected = [
        "............",
        "..########..",
        ".##########.",
        ".##########.",
        ".###....###.",
        ".###....###.",
        ".###....###.",
        ".###....###.",
        ".##########.",
        ".##########.",
        "..########..",
        "............",
    ];
    let got: Vec<String> = (0..map.height)
        .map(|r| {
            (0..map.width)
                .map(|c| match map.gray[r * map.width + c] {
                    FREE => '#',
                    OCCUPIED => '.',
                    _ => '?',
                })
                .collect()
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(map.meta.origin, [0.0, 0.0, 0.0]);
    assert!(map.truth.counter_clockwise);
    assert!((map.truth.lap_length - 28.0).abs() < 1e-12);
}

/// A given clockwise circle with per-point widths: the widths are honoured
/// and "outer" resolves to the left of the driving direction.
#[test]
fn given_clockwise_centerline_with_widths() {
    let n = 240;
    let (points, widths): (Vec<[f64; 2]>, Vec<f64>) = (0..n)
        .map(|i| {
            let a = -std::f64::consts::TAU * i as f64 / n as f64;
            (
                [10.0 * a.cos(), 10.0 * a.sin()],
                2.0 + 0.4 * (3.0 * a).cos(),
            )
        })
        .unzip();
    let o = SynthOptions {
        centerline: CenterlineSpec::Points {
            points: points.clone(),
            widths: Some(widths.clone()),
        },
        resolution: 0.05,
        spurs: vec![SpurSpec {
            s: 3.0,
            side: Side::Outer,
            length: 1.0,
            width: 0.3,
            angle: 0.0,
        }],
        ..SynthOptions::default()
    };
    let map = generate(&o).expect("generate");
    let t = &map.truth;
    assert!(!t.counter_clockwise);
    assert_eq!(t.spurs[0].side, Side::Left);
    let tip = t.spurs[0].tip;
    assert!(
        tip[0].hypot(tip[1]) > 11.0,
        "the spur points away from the infield"
    );
    let res = map.meta.resolution;
    for i in (0..n).step_by(7) {
        let [x, y] = points[i];
        let r = x.hypot(y);
        let (ux, uy) = (x / r, y / r);
        for (off, want) in [
            (widths[i] / 2.0 - 1.5 * res, FREE),
            (widths[i] / 2.0 + 1.5 * res, OCCUPIED),
            (-widths[i] / 2.0 + 1.5 * res, FREE),
            (-widths[i] / 2.0 - 1.5 * res, OCCUPIED),
        ] {
            let (c, rr) = px(&map, x + ux * off, y + uy * off);
            assert_eq!(map.pixel(c, rr), Some(want), "point {i}, offset {off:.3}");
        }
    }
    let (c, r) = px(&map, 0.0, 0.0);
    assert_eq!(map.pixel(c, r), Some(OCCUPIED), "the infield");
    let bad = SynthOptions {
        centerline: CenterlineSpec::Points {
            points,
            widths: Some(widths[1..].to_vec()),
        },
        ..SynthOptions::default()
    };
    assert!(generate(&bad)
        .unwrap_err()
        .to_string()
        .contains("centerline.widths"));
}

#[test]
fn bad_options_are_named_errors() {
    let cases: Vec<(SynthOptions, &str)> = vec![
        (
            SynthOptions {
                resolution: -0.1,
                ..SynthOptions::default()
            },
            "resolution",
        ),
        (
            SynthOptions {
                noise: 2.0,
                ..SynthOptions::default()
            },
            "noise",
        ),
        (
            SynthOptions {
                centerline: CenterlineSpec::Points {
                    points: vec![[0.0, 0.0], [1.0, 0.0]],
                    widths: None,
                },
                ..SynthOptions::default()
            },
            "centerline.points",
        ),
        (
            SynthOptions {
                centerline: CenterlineSpec::Points {
                    points: vec![[0.0, 0.0], [1.0, 0.0], [f64::NAN, 1.0]],
                    widths: None,
                },
                ..SynthOptions::default()
            },
            "centerline.points",
        ),
        (
            SynthOptions {
                width: WidthSpec::Smooth { min: 3.0, max: 2.0 },
                ..SynthOptions::default()
            },
            "width",
        ),
    ];
    for (o, field) in cases {
        match generate(&o) {
            Err(e @ SynthError::Option { .. }) => {
                assert!(e.to_string().contains(field), "{e}")
            }
            other => panic!("expected an error naming {field}, got {other:?}"),
        }
    }
    // A lap too short for its width cannot be drawn without touching itself.
    let o = SynthOptions {
        centerline: CenterlineSpec::Random {
            lap_length: Some(6.0),
        },
        ..SynthOptions::default()
    };
    assert!(generate(&o).is_err());
    // So large an image is refused before any allocation.
    let o = SynthOptions {
        resolution: 0.0005,
        ..SynthOptions::default()
    };
    assert!(matches!(generate(&o), Err(SynthError::TooLarge { .. })));
}

/// Whether segments p1p2 and q1q2 properly intersect.
fn segments_cross(p1: [f64; 2], p2: [f64; 2], q1: [f64; 2], q2: [f64; 2]) -> bool {
    let orient = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    };
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random loops never self-intersect, and parts that are not neighbours
    /// along the lap stay more than a track width apart.
    #[test]
    fn random_centerlines_never_touch_themselves(seed in any::<u64>()) {
        let o = SynthOptions { seed, ..SynthOptions::default() };
        let map = generate(&o).expect("generate");
        let pts = &map.truth.centerline;
        let lap = map.truth.lap_length;
        prop_assert!((40.0..=150.0).contains(&lap));
        let n = pts.len();
        let w_max = pts.iter().map(|p| p.width()).fold(0.0, f64::max);
        for i in 0..n {
            for j in i + 1..n {
                let ds = (pts[j].s - pts[i].s).abs();
                if ds.min(lap - ds) <= std::f64::consts::PI * w_max {
                    continue;
                }
                let d = (pts[i].x - pts[j].x).hypot(pts[i].y - pts[j].y);
                prop_assert!(d > (pts[i].width() + pts[j].width()) / 2.0,
                    "points {} and {} are {:.3} m apart", i, j, d);
            }
        }
        let seg = |i: usize| ([pts[i].x, pts[i].y], [pts[(i + 1) % n].x, pts[(i + 1) % n].y]);
        for i in (0..n).step_by(3) {
            for j in i + 2..n {
                if (j + 1) % n == i { continue; }
                let ((a, b), (c, d)) = (seg(i), seg(j));
                prop_assert!(!segments_cross(a, b, c, d), "segments {} and {} cross", i, j);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Any mix of features at any seed: an answer, never a panic, and the
    /// centerline stays free wherever no obstacle covers it.
    #[test]
    fn every_feature_mix_generates_without_panicking(
        seed in any::<u64>(),
        res in 0.08f64..0.3,
        lap in proptest::option::of(40.0f64..80.0),
        counts in proptest::collection::vec(0usize..4, 8),
        aa in proptest::option::of(0.5f64..3.0),
        wall in proptest::option::of(0.0f64..0.5),
        noise in 0.0f64..0.05,
        gap in any::<bool>(),
    ) {
        let o = SynthOptions {
            seed,
            centerline: CenterlineSpec::Random { lap_length: lap },
            resolution: res,
            anti_alias: aa,
            wall_thickness: wall,
            random_obstacles: counts[0],
            random_spurs: counts[1],
            random_pockets: counts[2],
            unknown_blobs: counts[3],
            lidar_rays: counts[4] * 3,
            specks: counts[5] * 5,
            noise,
            wall_gap: gap.then_some(GapSpec { s: None, width: 0.3 + 0.1 * counts[6] as f64 }),
            ..SynthOptions::default()
        };
        let map = generate(&o).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(map.gray.len(), map.width * map.height);
        for p in &map.truth.centerline {
            let covered = map.truth.obstacles.iter().any(|ob| {
                let r = ob.shape.half_along().hypot(ob.shape.half_across()) + 2.0 * res;
                (p.x - ob.center[0]).hypot(p.y - ob.center[1]) < r
            });
            if !covered {
                let (c, r) = px(&map, p.x, p.y);
                prop_assert_eq!(map.pixel(c, r), Some(FREE), "centerline at s = {}", p.s);
            }
        }
    }
}
