//! Extraction on generated maps with known truth (issue 3 acceptance): the loop
//! survives obstacles, spurs, pockets, anti-aliasing, unknown regions and
//! clutter; a wall gap is reported where it is; a map without a loop gets a
//! named error. Runs everywhere (no reference data needed).

use mapzoo_extract::{extract, ExtractError, ExtractNote, ExtractParams, Extraction, StartPose};
use mapzoo_format::{FreeRule, MapMeta, OccupancyMap};
use mapzoo_synth::{
    generate, GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec, SynthMap,
    SynthOptions, TruthPoint, WidthSpec,
};
use proptest::prelude::*;

use crate::support::dist_to_loop;

fn truth_xy(t: &[TruthPoint]) -> Vec<[f64; 2]> {
    t.iter().map(|p| [p.x, p.y]).collect()
}

fn ours_xy(ex: &Extraction) -> Vec<[f64; 2]> {
    ex.centerline.iter().map(|p| [p.x_m, p.y_m]).collect()
}

/// The synthetic truth starts at (0, 0) heading +x.
pub(crate) const START: StartPose = StartPose {
    x: 0.0,
    y: 0.0,
    yaw: 0.0,
};

pub(crate) fn run(opts: &SynthOptions) -> (SynthMap, Result<Extraction, ExtractError>) {
    let map = generate(opts).expect("generator");
    let occ = map.occupancy(FreeRule::MapServer);
    let ex = extract(&occ, &ExtractParams::default(), Some(START), false);
    (map, ex)
}

/// Lap, direction and closeness to the truth; returns (mean, max) distance to it, metres.
pub(crate) fn check_loop(name: &str, map: &SynthMap, ex: &Extraction) -> (f64, f64) {
    let truth = truth_xy(&map.truth.centerline);
    let ours = ours_xy(ex);
    let n = ours.len();
    let lap = map.truth.lap_length;
    // The right loop: as long as the lap (not a little loop around an obstacle).
    let count_err = (n as f64 * 0.1 - lap).abs() / lap;
    assert!(count_err < 0.03, "{name}: {n} points for a {lap:.1} m lap");
    let d: Vec<f64> = ours.iter().map(|&p| dist_to_loop(&truth, p)).collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let max = d.iter().cloned().fold(0.0, f64::max);
    // Every truth point is close to ours: the loop goes all the way round.
    let back = truth
        .iter()
        .map(|&p| dist_to_loop(&ours, p))
        .fold(0.0, f64::max);
    let half = map
        .truth
        .centerline
        .iter()
        .map(|p| p.d_left.min(p.d_right))
        .fold(f64::INFINITY, f64::min);
    assert!(
        back < half,
        "{name}: a truth point is {back:.2} m from the loop"
    );
    // Waypoint 0 at the start pose, driving its way round.
    let p0 = &ex.centerline[0];
    assert!(
        p0.x_m.hypot(p0.y_m) < 0.2,
        "{name}: start at ({}, {})",
        p0.x_m,
        p0.y_m
    );
    assert!(
        p0.psi_rad.cos() > 0.9,
        "{name}: heading {} at the start",
        p0.psi_rad
    );
    eprintln!(
        "{name}: {n} points, lap {lap:.2} m, distance to truth mean {mean:.4} max {max:.4} m"
    );
    (mean, max)
}

/// Mean |d_right − truth| and |d_left − truth| at the truth points nearest ours, metres,
/// skipping points within `skip` metres of `around`.
fn width_error(map: &SynthMap, ex: &Extraction, around: &[[f64; 2]], skip: f64) -> (f64, f64) {
    let t = &map.truth.centerline;
    let (mut er, mut el, mut k) = (0.0, 0.0, 0);
    for p in &ex.centerline {
        if around
            .iter()
            .any(|a| (a[0] - p.x_m).hypot(a[1] - p.y_m) < skip)
        {
            continue;
        }
        let q = t
            .iter()
            .min_by(|a, b| {
                (a.x - p.x_m)
                    .hypot(a.y - p.y_m)
                    .total_cmp(&(b.x - p.x_m).hypot(b.y - p.y_m))
            })
            .unwrap();
        // Our distances end at the boundary pixel centres, half a pixel inside the edge.
        let half_px = 0.5 * map.meta.resolution;
        er += (p.d_right - (q.d_right - half_px)).abs();
        el += (p.d_left - (q.d_left - half_px)).abs();
        k += 1;
    }
    (er / k as f64, el / k as f64)
}

#[test]
fn clean_random_tracks() {
    for seed in [1u64, 2, 3] {
        let opts = SynthOptions {
            seed,
            ..SynthOptions::default()
        };
        let (map, ex) = run(&opts);
        let ex = ex.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let (mean, max) = check_loop(&format!("clean seed {seed}"), &map, &ex);
        assert!(mean < 0.03 && max < 0.15, "seed {seed}: {mean} / {max}");
        let (er, el) = width_error(&map, &ex, &[], 0.0);
        assert!(
            er < 0.05 && el < 0.05,
            "seed {seed}: widths off by {er} / {el} m"
        );
        // Counter-clockwise truth: the infield wall is on the left.
        assert!(map.truth.counter_clockwise);
        let inner_first = ex.left_wall.len() < ex.right_wall.len();
        assert!(
            inner_first,
            "seed {seed}: left wall should be the inner, shorter one"
        );
    }
}

#[test]
fn obstacles_do_not_steal_the_loop() {
    for (seed, count) in [(11u64, 1usize), (12, 2), (13, 3)] {
        let obstacles = (0..count)
            .map(|k| ObstacleSpec {
                s: 8.0 + 13.0 * k as f64,
                offset: if k % 2 == 0 { 0.35 } else { -0.3 },
                shape: if k == 1 {
                    ObstacleShape::Box {
                        length: 0.6,
                        width: 0.4,
                    }
                } else {
                    ObstacleShape::Disc { radius: 0.25 }
                },
            })
            .collect();
        let opts = SynthOptions {
            seed,
            width: WidthSpec::Constant(2.6),
            obstacles,
            ..SynthOptions::default()
        };
        let (map, ex) = run(&opts);
        let ex = ex.unwrap_or_else(|e| panic!("{count} obstacles: {e}"));
        let (mean, _) = check_loop(&format!("{count} obstacles"), &map, &ex);
        assert!(mean < 0.12, "{count} obstacles: mean distance {mean}");
        // No waypoint inside an obstacle, and the distance on the obstacle's side never
        // reaches through it.
        for o in &map.truth.obstacles {
            let r = o.shape.half_across().min(o.shape.half_along());
            for p in &ex.centerline {
                let dx = p.x_m - o.center[0];
                let dy = p.y_m - o.center[1];
                let to_center = dx.hypot(dy);
                assert!(to_center > r, "waypoint {} inside an obstacle", p.id);
                // Left of the driving direction when the cross product is positive.
                let (hx, hy) = (p.psi_rad.cos(), p.psi_rad.sin());
                let left = hx * (-dy) - hy * (-dx) > 0.0;
                let d = if left { p.d_left } else { p.d_right };
                let outer =
                    o.shape.half_across().max(o.shape.half_along()) * std::f64::consts::SQRT_2;
                assert!(
                    d <= to_center - r + 0.1 || to_center > outer + 2.0,
                    "waypoint {}: d = {d:.2} m reaches past an obstacle {to_center:.2} m away",
                    p.id
                );
            }
        }
    }
}

#[test]
fn spurs_pockets_and_clutter() {
    let opts = SynthOptions {
        seed: 21,
        width: WidthSpec::Constant(2.0),
        spurs: vec![
            SpurSpec {
                s: 5.0,
                side: Side::Outer,
                length: 1.5,
                width: 1.0,
                angle: 0.3,
            },
            SpurSpec {
                s: 20.0,
                side: Side::Inner,
                length: 1.0,
                width: 0.9,
                angle: -0.2,
            },
        ],
        pockets: vec![PocketSpec {
            s: 30.0,
            side: Side::Outer,
            depth: 0.8,
            radius: 1.2,
        }],
        lidar_rays: 12,
        specks: 40,
        ..SynthOptions::default()
    };
    let (map, ex) = run(&opts);
    let ex = ex.unwrap_or_else(|e| panic!("spurs: {e}"));
    let (mean, _) = check_loop("spurs and pockets", &map, &ex);
    assert!(mean < 0.06, "mean distance {mean}");
    let mut features: Vec<[f64; 2]> = map.truth.spurs.iter().map(|s| s.root).collect();
    features.extend(map.truth.pockets.iter().map(|p| p.center));
    let (er, el) = width_error(&map, &ex, &features, 3.0);
    assert!(
        er < 0.06 && el < 0.06,
        "widths away from the features off by {er} / {el} m"
    );
}

#[test]
fn anti_aliased_edges_and_unknown_regions() {
    let opts = SynthOptions {
        seed: 31,
        anti_alias: Some(2.0),
        wall_thickness: Some(0.3),
        unknown_blobs: 6,
        noise: 0.02,
        ..SynthOptions::default()
    };
    let (map, ex) = run(&opts);
    let ex = ex.unwrap_or_else(|e| panic!("anti-aliased: {e}"));
    let (mean, max) = check_loop("anti-aliased, unknown", &map, &ex);
    assert!(mean < 0.04 && max < 0.2, "{mean} / {max}");
    let (er, el) = width_error(&map, &ex, &[], 0.0);
    assert!(er < 0.08 && el < 0.08, "widths off by {er} / {el} m");
}

#[test]
fn a_corridor_to_the_image_border_is_a_dead_end() {
    // The generator's wall gap: a corridor from the outer wall straight to the image border.
    // The border is a wall (issue 11): the corridor is a dead end, the loop is the track.
    for seed in [41u64, 42, 43, 44, 45, 46, 47, 48] {
        let opts = SynthOptions {
            seed,
            wall_gap: Some(GapSpec {
                s: None,
                width: 1.4,
            }),
            ..SynthOptions::default()
        };
        let (map, ex) = run(&opts);
        assert!(map.truth.gap.is_some());
        let ex = ex.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check_loop(&format!("corridor to the border, seed {seed}"), &map, &ex);
        assert!(
            ex.notes
                .iter()
                .any(|n| matches!(n, ExtractNote::BorderIsWall { .. })),
            "seed {seed}: no note that the border was taken as a wall: {:?}",
            ex.notes
        );
    }
}

#[test]
fn wall_gap_is_reported_where_it_is() {
    // F1TENTH style, free outside the walls up to the image border: a gap in the outer wall
    // lets the track's free space escape there, a real leak.
    for seed in [41u64, 42, 43, 44, 45, 46] {
        let map = generate(&SynthOptions {
            seed,
            margin: 3.0,
            ..SynthOptions::default()
        })
        .expect("generator");
        let (leaky, truth) = thin_walls_side(&map, 4, Some(1.4), false);
        match extract(&leaky, &ExtractParams::default(), Some(START), false) {
            Err(ExtractError::Leak {
                gap: at, border, ..
            }) => {
                let d = (at.col as f64 - truth[0]).hypot(at.row as f64 - truth[1]);
                eprintln!(
                    "seed {seed}: leak at ({}, {}), truth ({:.0}, {:.0}), {d:.1} px apart; border ({}, {})",
                    at.col, at.row, truth[0], truth[1], border.col, border.row
                );
                assert!(
                    d <= 5.0,
                    "seed {seed}: leak reported {d:.1} px from the gap"
                );
                let on_border = border.col == 0
                    || border.row == 0
                    || border.col + 1 == leaky.width
                    || border.row + 1 == leaky.height;
                assert!(on_border);
                // Not contradicting itself: where it leaves the track is not the border.
                assert!((at.col, at.row) != (border.col, border.row));
                let msg = ExtractError::Leak {
                    gap: at,
                    border,
                    gap_width_px: 1,
                }
                .to_string();
                assert!(msg.contains("leaks") && msg.contains("pixel (col"), "{msg}");
            }
            Err(e) => panic!("seed {seed}: expected a leak, got: {e}"),
            Ok(_) => panic!("seed {seed}: the gap was not noticed"),
        }
    }
}

/// The map redrawn in the F1TENTH style: thin black walls (`wall_px` thick) on white, the
/// infield and the outside free. With `gap`, a disc of the inner wall of that diameter
/// (metres) is opened at lap fraction 0.35; returns the map and the gap's centre (col, row).
pub(crate) fn thin_walls(
    map: &SynthMap,
    wall_px: i64,
    gap: Option<f64>,
) -> (OccupancyMap, [f64; 2]) {
    thin_walls_side(map, wall_px, gap, true)
}

/// [`thin_walls`] with the gap in the inner (`inner`) or the outer wall.
fn thin_walls_side(
    map: &SynthMap,
    wall_px: i64,
    gap: Option<f64>,
    inner: bool,
) -> (OccupancyMap, [f64; 2]) {
    let (w, h) = (map.width as i64, map.height as i64);
    let free: Vec<bool> = map.gray.iter().map(|&v| v == 254).collect();
    let mut gray = vec![254u8; map.gray.len()];
    for r in 0..h {
        for c in 0..w {
            if free[(r * w + c) as usize] {
                continue;
            }
            let near = (-wall_px..=wall_px).any(|dr| {
                (-wall_px..=wall_px).any(|dc| {
                    let (rr, cc) = (r + dr, c + dc);
                    rr >= 0 && cc >= 0 && rr < h && cc < w && free[(rr * w + cc) as usize]
                })
            });
            if near {
                gray[(r * w + c) as usize] = 0;
            }
        }
    }
    let t = &map.truth.centerline;
    let p = &t[t.len() * 35 / 100];
    // Counter-clockwise: the infield is on the left.
    let (nx, ny, d) = if inner {
        (-p.psi.sin(), p.psi.cos(), p.d_left)
    } else {
        (p.psi.sin(), -p.psi.cos(), p.d_right)
    };
    let edge = d + 0.5 * wall_px as f64 * map.meta.resolution;
    let (gc, gr) = map.world_to_pixel(p.x + nx * edge, p.y + ny * edge);
    if let Some(d) = gap {
        let rad = 0.5 * d / map.meta.resolution;
        for r in 0..h {
            for c in 0..w {
                if (c as f64 - gc).hypot(r as f64 - gr) <= rad {
                    gray[(r * w + c) as usize] = 254;
                }
            }
        }
    }
    let occ = OccupancyMap::from_gray(map.width, map.height, gray, &map.meta, FreeRule::MapServer);
    (occ, [gc, gr])
}

#[test]
fn gap_into_a_free_infield_is_reported_where_it_is() {
    for seed in [51u64, 52, 53] {
        let opts = SynthOptions {
            seed,
            margin: 3.0,
            ..SynthOptions::default()
        };
        let map = generate(&opts).expect("generator");
        // Walled but free inside and out: the track alone is the region, no leak.
        let (plain, _) = thin_walls(&map, 4, None);
        let ex = extract(&plain, &ExtractParams::default(), Some(START), false)
            .unwrap_or_else(|e| panic!("seed {seed}, thin walls: {e}"));
        check_loop(&format!("thin walls seed {seed}"), &map, &ex);
        let (leaky, at) = thin_walls(&map, 4, Some(1.2));
        match extract(&leaky, &ExtractParams::default(), Some(START), false) {
            Err(ExtractError::InfieldLeak { gap, inside, .. }) => {
                let d = (gap.col as f64 - at[0]).hypot(gap.row as f64 - at[1]);
                eprintln!(
                    "seed {seed}: infield leak at ({}, {}), cut at ({:.0}, {:.0}), {d:.1} px; inside ({}, {})",
                    gap.col, gap.row, at[0], at[1], inside.col, inside.row
                );
                assert!(d <= 5.0, "seed {seed}: reported {d:.1} px from the gap");
            }
            Err(e) => panic!("seed {seed}: expected an infield leak, got: {e}"),
            Ok(_) => panic!("seed {seed}: the inner gap was not noticed"),
        }
    }
}

#[test]
fn a_rotated_origin_rotates_the_centerline() {
    let map = generate(&SynthOptions {
        seed: 71,
        resolution: 0.08,
        ..SynthOptions::default()
    })
    .expect("generator");
    let plain = map.occupancy(FreeRule::MapServer);
    let yaw = 0.5f64;
    let mut turned = plain.clone();
    turned.origin[2] = yaw;
    let (s, c) = yaw.sin_cos();
    let rot = |x: f64, y: f64| {
        let (dx, dy) = (x - plain.origin[0], y - plain.origin[1]);
        (
            plain.origin[0] + c * dx - s * dy,
            plain.origin[1] + s * dx + c * dy,
        )
    };
    let a = extract(&plain, &ExtractParams::default(), Some(START), false).expect("yaw 0");
    let (sx, sy) = rot(START.x, START.y);
    let start = StartPose {
        x: sx,
        y: sy,
        yaw: START.yaw + yaw,
    };
    let b = extract(&turned, &ExtractParams::default(), Some(start), false).expect("yaw 0.5");
    assert_eq!(a.centerline.len(), b.centerline.len());
    for (p, q) in a.centerline.iter().zip(&b.centerline) {
        let (x, y) = rot(p.x_m, p.y_m);
        assert!((x - q.x_m).hypot(y - q.y_m) < 1e-6, "waypoint {}", p.id);
        assert!((p.d_right - q.d_right).abs() < 1e-6 && (p.d_left - q.d_left).abs() < 1e-6);
        let dpsi = (q.psi_rad - p.psi_rad - yaw).rem_euclid(std::f64::consts::TAU);
        assert!(dpsi.min(std::f64::consts::TAU - dpsi) < 1e-6);
    }
}

#[test]
fn a_walled_frame_around_a_thin_wall_map_is_not_the_track() {
    let map = generate(&SynthOptions {
        seed: 61,
        margin: 3.0,
        ..SynthOptions::default()
    })
    .expect("generator");
    let (mut occ, _) = thin_walls(&map, 4, None);
    // A 3-pixel black frame: the outside no longer reaches the image border.
    let (w, h) = (occ.width, occ.height);
    for r in 0..h {
        for c in 0..w {
            if r < 3 || c < 3 || r + 3 >= h || c + 3 >= w {
                occ.free[r * w + c] = false;
            }
        }
    }
    let ex = extract(&occ, &ExtractParams::default(), Some(START), false)
        .unwrap_or_else(|e| panic!("framed map: {e}"));
    let (mean, _) = check_loop("framed thin walls", &map, &ex);
    assert!(mean < 0.05, "mean distance {mean}");
}

/// A w × h picture of free rings: `#` free, `.` occupied, built from (col, row, outer
/// half-size, inner half-size) squares.
pub(crate) fn rings(w: usize, h: usize, squares: &[(i64, i64, i64, i64)]) -> Vec<String> {
    (0..h as i64)
        .map(|r| {
            (0..w as i64)
                .map(|c| {
                    let free = squares.iter().any(|&(cc, cr, outer, inner)| {
                        let d = (c - cc).abs().max((r - cr).abs());
                        d <= outer && d > inner
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

#[test]
fn two_equal_loops_are_an_ambiguity() {
    // Two separate square tracks of the same size.
    let rows = rings(160, 80, &[(40, 40, 34, 12), (120, 40, 34, 12)]);
    assert_ambiguous(&rows, "pixel (col");
    // A figure eight: one free block around two infields of the same size.
    let rows: Vec<String> = (0..80)
        .map(|r| {
            (0..150)
                .map(|c| {
                    let block = (5..145).contains(&c) && (5..75).contains(&r);
                    let hole =
                        (25..55).contains(&r) && ((25..55).contains(&c) || (95..125).contains(&c));
                    if block && !hole {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    assert_ambiguous(&rows, "two infields");
    // One ring alone is fine.
    let rows = rings(80, 80, &[(40, 40, 34, 12)]);
    let ex = extract_rows(&rows).expect("one ring");
    let lap = ex.centerline.len() as f64 * 0.1;
    // The medial square of a band from 13 to 34 px: side ≈ 47 px at 0.05 m.
    assert!((lap - 4.0 * 47.0 * 0.05).abs() < 1.0, "lap {lap} m");
}

/// Extraction of the literal map `rows` at 0.05 m per pixel, default parameters and start.
fn extract_rows(rows: &[String]) -> Result<Extraction, ExtractError> {
    let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    extract(
        &literal_map(&refs, 0.05),
        &ExtractParams::default(),
        None,
        false,
    )
}

/// Asserts that the literal map `rows` is ambiguous, with `needle` in the explanation.
fn assert_ambiguous(rows: &[String], needle: &str) {
    match extract_rows(rows) {
        Err(e @ ExtractError::Ambiguous { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(needle), "{msg}")
        }
        other => panic!(
            "expected an ambiguity, got {:?}",
            other.map(|e| e.centerline.len())
        ),
    }
}

pub(crate) fn literal_map(rows: &[&str], resolution: f64) -> OccupancyMap {
    let (w, h) = (rows[0].len(), rows.len());
    let gray = rows
        .iter()
        .flat_map(|r| r.bytes().map(|b| if b == b'#' { 254 } else { 0 }))
        .collect();
    let meta = MapMeta {
        image: "m.png".into(),
        resolution,
        origin: [0.0, 0.0, 0.0],
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    };
    OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::MapServer)
}

#[test]
fn no_loop_is_a_named_error() {
    // A free blob without an infield.
    let mut rows = vec![".".repeat(60)];
    for _ in 0..40 {
        rows.push(format!("....{}....", "#".repeat(52)));
    }
    rows.push(".".repeat(60));
    let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let map = literal_map(&refs, 0.05);
    match extract(&map, &ExtractParams::default(), None, false) {
        Err(ExtractError::NoLoop { why }) => {
            assert!(
                why.contains("no hole") && why.contains("pixel (col 4, row 1)"),
                "{why}"
            )
        }
        other => panic!("expected NoLoop, got {other:?}"),
    }
    // Nothing free at all.
    let map = literal_map(&["....", "...."], 0.05);
    let r = extract(&map, &ExtractParams::default(), None, false);
    match r {
        Err(e @ ExtractError::NothingFree { lightest: 0 }) => {
            assert!(e.to_string().contains("no pixel of the map is free"), "{e}")
        }
        other => panic!("expected NothingFree, got {other:?}"),
    }
    // A ring too thin for the opening is cut, and smaller openings are tried: it is found.
    let mut rows = vec![".".repeat(40)];
    for r in 0..30 {
        if (3..27).contains(&r) && !(8..22).contains(&r) {
            rows.push(format!("...{}...", "#".repeat(34)));
        } else if (8..22).contains(&r) {
            rows.push(format!(
                "...{}{}{}...",
                "#".repeat(5),
                ".".repeat(24),
                "#".repeat(5)
            ));
        } else {
            rows.push(".".repeat(40));
        }
    }
    let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let map = literal_map(&refs, 0.1);
    let ex = extract(&map, &ExtractParams::default(), None, false).expect("thin ring");
    assert!(ex.opening_radius_px < 8);
    let strict = ExtractParams {
        shrink_opening: false,
        ..ExtractParams::default()
    };
    assert!(extract(&map, &strict, None, false).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any picture of rings, blobs and noise: an answer, never a panic; an answer is a
    /// closed loop of finite waypoints inside the free space.
    #[test]
    fn any_map_gives_an_answer(
        w in 8usize..70,
        h in 8usize..70,
        main in (0.15f64..0.45, 3.0f64..14.0),
        rings in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, 3.0f64..30.0, 2.0f64..12.0), 0..3),
        noise in 0u64..20,
        seed in any::<u64>(),
        resolution in 0.02f64..0.2,
        radius in 0usize..4,
    ) {
        let mut st = seed | 1;
        let mut gray = vec![0u8; w * h];
        for r in 0..h {
            for c in 0..w {
                let side = w.min(h) as f64;
                let main_ring = (0.5, 0.5, main.0 * side, main.1);
                let inside = rings.iter().chain([&main_ring]).any(|&(cx, cy, rad, width)| {
                    let d = ((c as f64 - cx * w as f64).powi(2) + (r as f64 - cy * h as f64).powi(2)).sqrt();
                    (d - rad).abs() < width / 2.0
                });
                st ^= st << 13; st ^= st >> 7; st ^= st << 17;
                let flip = st % 100 < noise;
                gray[r * w + c] = if inside != flip { 254 } else { 0 };
            }
        }
        let meta = MapMeta {
            image: "m.png".into(),
            resolution,
            origin: [-1.0, 2.0, 0.0],
            negate: 0,
            occupied_thresh: 0.65,
            free_thresh: 0.196,
            mode: None,
        };
        let map = OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::MapServer);
        let params = ExtractParams { opening_size: 2 * radius + 1, opening_iterations: 1, ..ExtractParams::default() };
        match extract(&map, &params, None, false) {
            Ok(ex) => {
                prop_assert!(ex.centerline.len() >= 3);
                for p in &ex.centerline {
                    prop_assert!(p.values().iter().all(|v| v.is_finite()));
                    prop_assert!(p.d_right >= 0.0 && p.d_left >= 0.0);
                }
                prop_assert_eq!(ex.track_free.len(), w * h);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
