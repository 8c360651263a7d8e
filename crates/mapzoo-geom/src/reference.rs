//! Naive twins of the indices (all-pairs searches), the references their
//! property tests compare against; built for tests and with the `reference`
//! feature.

use crate::index::{polyline_segments, Nearest, NearestSegment};
use crate::polyline::closest_on_segment;
use crate::{Norm, Point};

/// Reference twin of [`crate::PointIndex::nearest`]: the first point at the smallest distance.
pub fn nearest_point(pts: &[Point], q: Point, norm: Norm) -> Option<Nearest> {
    if !(q[0].is_finite() && q[1].is_finite()) {
        return None;
    }
    let mut best: Option<(f64, usize)> = None;
    for (k, &p) in pts.iter().enumerate() {
        let key = norm.key(p, q);
        if best.map_or(!key.is_nan(), |b| key < b.0) {
            best = Some((key, k));
        }
    }
    best.map(|(key, index)| Nearest {
        index,
        distance: norm.key_distance(key),
    })
}

/// Reference twin of [`crate::PointIndex::within`]: every point at most `radius` metres away.
pub fn points_within(pts: &[Point], q: Point, radius: f64, norm: Norm) -> Vec<usize> {
    if !(q[0].is_finite() && q[1].is_finite() && radius >= 0.0) {
        return Vec::new();
    }
    (0..pts.len())
        .filter(|&k| norm.key_distance(norm.key(pts[k], q)) <= radius)
        .collect()
}

/// Reference twin of [`crate::SegmentIndex::nearest`] on the polyline through `pts`.
pub fn nearest_segment(
    pts: &[Point],
    closed: bool,
    q: Point,
    norm: Norm,
) -> Option<NearestSegment> {
    if !(q[0].is_finite() && q[1].is_finite()) {
        return None;
    }
    let mut best: Option<(f64, usize, f64)> = None;
    for (s, &(a, b)) in polyline_segments(pts.len(), closed).iter().enumerate() {
        let (t, p) = closest_on_segment(q, pts[a], pts[b]);
        let key = norm.key(p, q);
        if best.map_or(!key.is_nan(), |b| key < b.0) {
            best = Some((key, s, t));
        }
    }
    best.map(|(key, segment, t)| NearestSegment {
        segment,
        t,
        distance: norm.key_distance(key),
    })
}
