//! The centerline with its widths, and the queries every feature uses: the
//! point at an arc length, the side normals, the distance to the band.

mod given;
mod random;
mod width;

pub(crate) use given::given_track;
pub(crate) use random::random_track;

use crate::options::Side;
use crate::truth::TruthPoint;
use mapzoo_geom::{closest_on_segment, Norm};

/// The centerline with its widths, ready to rasterise.
pub(crate) struct Track {
    /// The centerline points with their half widths.
    pub(crate) points: Vec<TruthPoint>,
    /// Lap length, metres.
    pub(crate) lap: f64,
    /// Whether the loop runs counter-clockwise.
    pub(crate) ccw: bool,
}

/// Point, heading and half width at arc length `s` (modulo the lap), linear between points.
pub(crate) fn point_at(track: &Track, s: f64) -> ([f64; 2], f64, f64) {
    let pts = &track.points;
    let n = pts.len();
    let s = s.rem_euclid(track.lap);
    let i = match pts.binary_search_by(|p| p.s.total_cmp(&s)) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let (a, b) = (&pts[i], &pts[(i + 1) % n]);
    let seg = if i + 1 < n {
        b.s - a.s
    } else {
        track.lap - a.s
    };
    let t = if seg > 0.0 {
        ((s - a.s) / seg).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let p = [a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)];
    let heading = (b.y - a.y).atan2(b.x - a.x);
    let hw = a.d_left + t * (b.d_left - a.d_left);
    (p, heading, hw)
}

/// Resolves Outer/Inner to Left/Right for this track's direction.
pub(crate) fn resolve_side(side: Side, ccw: bool) -> Side {
    match (side, ccw) {
        (Side::Outer, true) | (Side::Inner, false) => Side::Right,
        (Side::Outer, false) | (Side::Inner, true) => Side::Left,
        (s, _) => s,
    }
}

/// Unit normal towards `side` (Left or Right) of heading `psi`.
pub(crate) fn side_normal(side: Side, psi: f64) -> [f64; 2] {
    let (s, c) = psi.sin_cos();
    match side {
        Side::Left => [-s, c],
        _ => [s, -c],
    }
}

/// Signed distance from world point q to the band's edge (negative inside), metres,
/// and the arc length of the nearest centerline point.
pub(crate) fn band_distance(track: &Track, q: [f64; 2]) -> (f64, f64) {
    let pts = &track.points;
    let n = pts.len();
    let mut best = (f64::INFINITY, 0.0);
    for i in 0..n {
        let (a, b) = (&pts[i], &pts[(i + 1) % n]);
        let (t, c) = closest_on_segment(q, [a.x, a.y], [b.x, b.y]);
        let d = Norm::Hypot.distance(q, c) - (a.d_left + t * (b.d_left - a.d_left));
        if d < best.0 {
            let seg = if i + 1 < n {
                b.s - a.s
            } else {
                track.lap - a.s
            };
            best = (d, a.s + t * seg);
        }
    }
    best
}

/// Distance between two arc lengths along the closed lap, metres.
pub(crate) fn arc_gap(track: &Track, s1: f64, s2: f64) -> f64 {
    let d = (s1 - s2).rem_euclid(track.lap);
    d.min(track.lap - d)
}
