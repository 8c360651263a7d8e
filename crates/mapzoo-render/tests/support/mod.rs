//! A generated track for the render tests and bench: an elliptic ring of
//! free space with a centerline, an IQP line inside it, an SP line outside
//! it, and the speed profile v(θ) = 5 − 2·cos 2θ m/s (slow at the tight ends
//! of the long axis, fast along the flanks).

#![allow(dead_code)]

use mapzoo_format::LineKind;
use mapzoo_format::{FreeRule, MapMeta, OccupancyMap, Waypoint};
use mapzoo_render::{walls_from_widths, PictureLine, SectorSpan, TrackPicture};

/// Map resolution, metres per pixel.
pub const RES: f64 = 0.05;
/// Centerline semi-axes, metres.
pub const AXES: (f64, f64) = (7.0, 5.0);
/// Half track width, metres.
pub const HALF_WIDTH: f64 = 1.0;
/// Map pixel (col, row) of the top-left corner of a 4 × 4 marker block of gray 128.
pub const MARKER: (usize, usize) = (20, 30);

/// The speed profile, m/s, at ellipse parameter `theta`.
pub fn speed(theta: f64) -> f64 {
    5.0 - 2.0 * (2.0 * theta).cos()
}

/// A closed ellipse of `n` waypoints (+ the repeated first one when `repeat_first`),
/// semi-axes (a, b), driven counter-clockwise unless `clockwise`.
pub fn ellipse(n: usize, a: f64, b: f64, clockwise: bool, repeat_first: bool) -> Vec<Waypoint> {
    let mut out = Vec::with_capacity(n + 1);
    let mut s = 0.0;
    let mut last: Option<(f64, f64)> = None;
    for i in 0..n + usize::from(repeat_first) {
        let k = i % n;
        let mut theta = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
        if clockwise {
            theta = -theta;
        }
        let (x, y) = (a * theta.cos(), b * theta.sin());
        if let Some((px, py)) = last {
            s += (x - px).hypot(y - py);
        }
        last = Some((x, y));
        out.push(Waypoint {
            id: i as i64,
            s_m: s,
            x_m: x,
            y_m: y,
            d_right: HALF_WIDTH,
            d_left: HALF_WIDTH,
            vx_mps: speed(theta),
            ..Waypoint::default()
        });
    }
    out
}

/// The occupancy map: free where the point lies between the ellipses of
/// semi-axes (a ± w, b ± w), plus the marker block; `width` × `height` px
/// centred on the world origin.
pub fn ring_map(width: usize, height: usize) -> OccupancyMap {
    let (a, b) = AXES;
    let origin = [
        -(width as f64 - 1.0) * RES / 2.0,
        -(height as f64 - 1.0) * RES / 2.0,
        0.0,
    ];
    let meta = MapMeta {
        image: "ring.png".into(),
        resolution: RES,
        origin,
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    };
    let mut gray = vec![0u8; width * height];
    for r in 0..height {
        for c in 0..width {
            let x = origin[0] + c as f64 * RES;
            let y = origin[1] + (height as f64 - 1.0 - r as f64) * RES;
            let outer = (x / (a + HALF_WIDTH)).powi(2) + (y / (b + HALF_WIDTH)).powi(2) <= 1.0;
            let inner = (x / (a - HALF_WIDTH)).powi(2) + (y / (b - HALF_WIDTH)).powi(2) < 1.0;
            if outer && !inner {
                gray[r * width + c] = 254;
            }
        }
    }
    for r in MARKER.1..MARKER.1 + 4 {
        for c in MARKER.0..MARKER.0 + 4 {
            gray[r * width + c] = 128;
        }
    }
    OccupancyMap::from_gray(width, height, gray, &meta, FreeRule::MapServer)
}

/// The whole generated track: `n` IQP waypoints on semi-axes (a − 0.4, b − 0.4),
/// SP on (a + 0.45, b + 0.45), centerline on (a, b); speed sectors start at
/// IQP 0 and 3n/8 (θ = ±135°), overtaking sectors at 0 and n/8 (θ = ±45°), so
/// neither ends (θ = 0, π) nor flanks (θ = ±90°) carry a tick.
pub fn track(n: usize, clockwise: bool) -> TrackPicture {
    let (a, b) = AXES;
    let mut t = TrackPicture::new("ellipse", ring_map(400, 300));
    t.centerline = ellipse(n, a, b, clockwise, false);
    t.walls = walls_from_widths(&t.centerline);
    t.lines = vec![
        PictureLine {
            kind: LineKind::Iqp,
            waypoints: ellipse(n, a - 0.4, b - 0.4, clockwise, true),
            lap_s: Some(7.25),
            max_mps: Some(7.0),
        },
        PictureLine {
            kind: LineKind::Sp,
            waypoints: ellipse(n, a + 0.45, b + 0.45, clockwise, true),
            lap_s: Some(7.5),
            max_mps: Some(7.0),
        },
    ];
    t.speed_sectors = vec![
        SectorSpan {
            start: 0,
            end: 3 * n / 8 - 1,
            note: "x0.50".into(),
        },
        SectorSpan {
            start: 3 * n / 8,
            end: n,
            note: "x0.80".into(),
        },
    ];
    t.overtaking_sectors = vec![
        SectorSpan {
            start: 0,
            end: n / 8 - 1,
            note: String::new(),
        },
        SectorSpan {
            start: n / 8,
            end: n,
            note: "ot".into(),
        },
    ];
    t
}
