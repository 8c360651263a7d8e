//! `render_track`: the pictures of a generated track, checked pixel by pixel: the map sits
//! where its own pixels say, the IQP line lies on its waypoints in the
//! colour of their speed, the start arrow points along the first segment,
//! and sector ticks sit at their waypoint indices.

use crate::support;

use mapzoo_format::LineKind;
use mapzoo_render::{
    render_track, viridis, RenderError, RenderOptions, Rendered, Rgb, SpeedScale, TrackPicture,
    ARROW, OVERTAKING_TICK, SPEED_TICK,
};

/// Waypoints per line of the generated track.
pub(crate) const N: usize = 400;

fn render(track: &TrackPicture, size: u32) -> Rendered {
    render_track(track, &RenderOptions { size }).expect("the generated track renders")
}

fn pixel(r: &Rendered, p: [f64; 2]) -> Rgb {
    r.image
        .get_pixel(p[0].floor() as u32, p[1].floor() as u32)
        .0
}

/// Pixels of exactly `colour` inside the map rectangle of `view`.
fn pixels_of(r: &Rendered, colour: Rgb) -> Vec<[f64; 2]> {
    let v = &r.view;
    let mut out = Vec::new();
    for (x, y, p) in r.image.enumerate_pixels() {
        let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
        let inside =
            fx >= v.left && fx < v.left + v.width_px() && fy >= v.top && fy < v.top + v.height_px();
        if inside && p.0 == colour {
            out.push([fx, fy]);
        }
    }
    out
}

/// The speed whose colour on `scale` is nearest to `c`, by a fine search.
fn decode_speed(scale: &SpeedScale, c: Rgb) -> (f64, f64) {
    let mut best = (f64::NAN, f64::INFINITY);
    for k in 0..=4000 {
        let v = scale.min + (scale.max - scale.min) * k as f64 / 4000.0;
        let d = scale.colour(v);
        let err = (0..3)
            .map(|i| (d[i] as f64 - c[i] as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        if err < best.1 {
            best = (v, err);
        }
    }
    best
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

#[test]
fn map_is_drawn_where_its_pixels_are() {
    let track = support::track(N, false);
    let r = render(&track, 800);
    let v = r.view;
    assert_eq!(v.scale, 2.0, "long side 400 px drawn at 800 px");
    // The marker block, found by its gray alone, must sit where the view
    // puts its map pixels.
    let marker_gray = (96.0 + 154.0 * 128.0 / 255.0_f64).round() as u8;
    // Solid blocks of the marker's gray only: anti-aliased ring edges pass
    // through that gray too, but only in thin lines.
    let is_marker = |x: u32, y: u32| {
        x < r.image.width() && y < r.image.height() && r.image.get_pixel(x, y).0 == [marker_gray; 3]
    };
    let found: Vec<(u32, u32)> = r
        .image
        .enumerate_pixels()
        .map(|(x, y, _)| (x, y))
        .filter(|&(x, y)| {
            x > 0 && y > 0 && (x - 1..=x + 1).all(|i| (y - 1..=y + 1).all(|j| is_marker(i, j)))
        })
        .collect();
    assert!(
        found.len() >= 9,
        "marker not found ({} pixels)",
        found.len()
    );
    let cx = found.iter().map(|p| p.0 as f64 + 0.5).sum::<f64>() / found.len() as f64;
    let cy = found.iter().map(|p| p.1 as f64 + 0.5).sum::<f64>() / found.len() as f64;
    let (mc, mr) = support::MARKER;
    let (wx, wy) = track.map.pixel_to_world(mc as f64 + 1.5, mr as f64 + 1.5);
    let want = v.world_to_image(wx, wy);
    assert!(
        dist([cx, cy], want) < 0.75,
        "marker at {cx},{cy}, view says {want:?}"
    );
    // Occupied and free map pixels keep their grays away from the lines.
    assert_eq!(pixel(&r, v.world_to_image(0.0, 0.0)), [96; 3]);
    for free in [[0.0, 5.75], [-7.72, 0.3], [0.0, -4.3]] {
        assert!(track.map.is_free_world(free[0], free[1]));
        assert_eq!(
            pixel(&r, v.world_to_image(free[0], free[1])),
            [249; 3],
            "at {free:?}"
        );
    }
}

#[test]
fn iqp_is_drawn_on_its_waypoints_in_their_speed_colour() {
    for clockwise in [false, true] {
        let track = support::track(N, clockwise);
        let r = render(&track, 800);
        let scale = r.speed.expect("trajectories give a speed scale");
        assert!((scale.min - 3.0).abs() < 1e-9 && (scale.max - 7.0).abs() < 1e-9);
        let arrow_zone = r.view.world_to_image(
            track.waypoints(LineKind::Iqp)[0].x_m,
            track.waypoints(LineKind::Iqp)[0].y_m,
        );
        let ticks = [3 * N / 8, N / 8].map(|i| {
            r.view.world_to_image(
                track.waypoints(LineKind::Iqp)[i].x_m,
                track.waypoints(LineKind::Iqp)[i].y_m,
            )
        });
        let mut checked = 0;
        for (i, w) in track.waypoints(LineKind::Iqp).iter().enumerate().step_by(3) {
            let p = r.view.world_to_image(w.x_m, w.y_m);
            if dist(p, arrow_zone) < 60.0 || ticks.iter().any(|t| dist(p, *t) < 40.0) {
                continue;
            }
            let c = pixel(&r, p);
            let (v, err) = decode_speed(&scale, c);
            assert!(
                err < 3.0,
                "IQP {i} at {p:?}: {c:?} is no speed colour (off by {err:.1})"
            );
            assert!(
                (v - w.vx_mps).abs() < 0.1,
                "IQP {i}: drawn {v:.3} m/s, data {:.3} m/s",
                w.vx_mps
            );
            checked += 1;
        }
        assert!(checked > 100, "only {checked} waypoints checked");
        // The slow ends and the fast flanks show the two ends of the scale.
        let end = r.view.world_to_image(-(support::AXES.0 - 0.4), 0.0);
        let flank = r.view.world_to_image(0.0, -(support::AXES.1 - 0.4));
        assert_eq!(pixel(&r, end), viridis(0.0));
        assert_eq!(pixel(&r, flank), viridis(1.0));
    }
}

#[test]
fn start_arrow_points_along_the_first_segment() {
    for clockwise in [false, true] {
        let track = support::track(N, clockwise);
        let r = render(&track, 800);
        let (w0, w1) = (
            track.waypoints(LineKind::Iqp)[0],
            track.waypoints(LineKind::Iqp)[1],
        );
        let p0 = r.view.world_to_image(w0.x_m, w0.y_m);
        // World y grows up, image y down; the view has no rotation here.
        let (dx, dy) = (w1.x_m - w0.x_m, -(w1.y_m - w0.y_m));
        let len = dx.hypot(dy);
        let dir = [dx / len, dy / len];
        let red = pixels_of(&r, ARROW);
        assert!(red.len() > 30, "arrow has {} pixels", red.len());
        let tip = red
            .iter()
            .copied()
            .max_by(|a, b| dist(*a, p0).total_cmp(&dist(*b, p0)))
            .unwrap();
        let (tx, ty) = (tip[0] - p0[0], tip[1] - p0[1]);
        let cos = (tx * dir[0] + ty * dir[1]) / tx.hypot(ty);
        assert!(
            cos > 0.99,
            "tip {tip:?} from {p0:?} is off the first segment (cos {cos:.3})"
        );
        let behind = red
            .iter()
            .filter(|p| (p[0] - p0[0]) * dir[0] + (p[1] - p0[1]) * dir[1] < -2.0)
            .count();
        assert_eq!(behind, 0, "arrow pixels behind waypoint 0");
    }
}

/// The ticks sit on the driven line (the IQP line, or another when the set drives it,
/// `--racing-line`): the sector files index that one.
#[test]
fn sector_ticks_sit_at_their_waypoints() {
    for driven in [LineKind::Iqp, LineKind::Sp] {
        let mut track = support::track(N, false);
        track.racing = driven;
        let r = render(&track, 800);
        for (colour, index) in [(SPEED_TICK, 3 * N / 8), (OVERTAKING_TICK, N / 8)] {
            let w = track.waypoints(driven)[index];
            let at = r.view.world_to_image(w.x_m, w.y_m);
            let px = pixels_of(&r, colour);
            assert!(
                px.iter().any(|p| dist(*p, at) < 4.0),
                "no tick of {colour:?} across {driven} {index}"
            );
            let far = px.iter().filter(|p| dist(**p, at) > 45.0).count();
            assert_eq!(far, 0, "{colour:?} pixels far from {driven} {index}");
        }
    }
}

#[test]
fn rendering_is_deterministic_and_scales_with_size() {
    let track = support::track(N, false);
    let a = render(&track, 700);
    let b = render(&track, 700);
    assert_eq!(a.image, b.image);
    let big = render(&track, 1400);
    assert!((big.view.width_px() - 1400.0).abs() < 1e-9);
    assert!(big.image.width() > a.image.width() && big.image.height() > a.image.height());
}

#[test]
fn bare_map_and_odd_input_render_without_panic() {
    let mut track = support::track(N, false);
    track.lines.clear();
    let r = render(&track, 300);
    assert!(r.speed.is_none());
    track.centerline.truncate(1);
    track.walls = mapzoo_geom::Walls {
        right: vec![[f64::NAN, 1.0], [1e300, -1e300], [0.0, 0.0]],
        left: Vec::new(),
        obstacles: Vec::new(),
    };
    track.speed_sectors[1].start = 10_000;
    track.name = "naïve—name".into();
    render(&track, 300);
    track.map.gray.clear();
    let err = render_track(&track, &RenderOptions::default()).unwrap_err();
    assert!(matches!(err, RenderError::EmptyMap { .. }), "{err}");
    let err = render_track(&support::track(N, false), &RenderOptions { size: 9 }).unwrap_err();
    assert!(matches!(err, RenderError::Size { .. }), "{err}");
}
