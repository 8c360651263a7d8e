//! Closed polylines (DESIGN §3.5–3.7): arc lengths, equal-step resampling,
//! projection of a point, signed area and offsets along normals.
//!
//! Two resamplings exist on purpose, because published files depend on their
//! last bits: [`resample_from`] / [`resample_closed`] (the extraction's
//! centerline and walls: the fraction (t − s_k) / ℓ_k times the segment) and
//! [`resample_closed_numpy`] (the racing-line stage's walls: `np.linspace`
//! over the arc length and `np.interp` per coordinate, slope times offset, as
//! the Race Stack's Python does). They place the same points up to rounding.

use crate::numpy::{interp, linspace};
use crate::{Norm, Point};

/// Length of each segment of a closed polyline, the last back to the first, metres.
pub fn closed_segment_lengths(pts: &[Point], norm: Norm) -> Vec<f64> {
    let n = pts.len();
    (0..n)
        .map(|i| norm.distance(pts[i], pts[(i + 1) % n]))
        .collect()
}

/// Arc-length positions of a closed polyline, metres: `s[k]` at vertex k, `s[n]` = lap length.
pub fn closed_arc_lengths(pts: &[Point], norm: Norm) -> Vec<f64> {
    let n = pts.len();
    let mut s = Vec::with_capacity(n + 1);
    s.push(0.0);
    for k in 0..n {
        s.push(s[k] + norm.distance(pts[k], pts[(k + 1) % n]));
    }
    s
}

/// Length of a closed polyline including its closing segment, metres.
pub fn closed_length(pts: &[Point], norm: Norm) -> f64 {
    closed_arc_lengths(pts, norm).last().copied().unwrap_or(0.0)
}

/// Resamples a closed polyline at `count` equal steps from arc length `s0`
/// (metres), forwards or backwards; linear between vertices ([`Norm::Hypot`] arc length).
pub fn resample_from(pts: &[Point], s0: f64, count: usize, forward: bool) -> Vec<Point> {
    let n = pts.len();
    if n == 0 {
        return Vec::new();
    }
    let s = closed_arc_lengths(pts, Norm::Hypot);
    let total = s[n];
    (0..count)
        .map(|k| {
            let step = total * k as f64 / count as f64;
            let t = if total > 0.0 {
                if forward { s0 + step } else { s0 - step }.rem_euclid(total)
            } else {
                0.0
            };
            // Last vertex with s[seg] <= t.
            let seg = s.partition_point(|&v| v <= t).saturating_sub(1).min(n - 1);
            let len = s[seg + 1] - s[seg];
            let f = if len > 0.0 { (t - s[seg]) / len } else { 0.0 };
            let (a, b) = (pts[seg], pts[(seg + 1) % n]);
            [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])]
        })
        .collect()
}

/// A closed polyline resampled from vertex 0 at ⌈L / `step`⌉ equal steps of about
/// `step` metres (closing point dropped), the extraction's form (see [`resample_from`]).
pub fn resample_closed(pts: &[Point], step: f64) -> Vec<Point> {
    if pts.len() < 2 {
        return pts.to_vec();
    }
    let count = ((closed_length(pts, Norm::Hypot) / step).ceil() as usize).max(1);
    resample_from(pts, 0.0, count, true)
}

/// A closed polyline linearly resampled at equal spacing ≈`step` metres, closing point
/// dropped, with NumPy's arithmetic (`np.linspace`, `np.interp`; the Race Stack's
/// Python `resample_closed`): the racing-line stage's walls.
pub fn resample_closed_numpy(pts: &[Point], step: f64) -> Vec<Point> {
    let n = pts.len();
    if n == 0 {
        return Vec::new();
    }
    let cum = closed_arc_lengths(pts, Norm::Hypot);
    let total = cum[n];
    let num = (total / step).ceil() as usize + 1;
    let s = linspace(0.0, total, num);
    let xs: Vec<f64> = (0..=n).map(|i| pts[i % n][0]).collect();
    let ys: Vec<f64> = (0..=n).map(|i| pts[i % n][1]).collect();
    let x = interp(&s, &cum, &xs);
    let y = interp(&s, &cum, &ys);
    x.into_iter()
        .zip(y)
        .take(num - 1)
        .map(|(a, b)| [a, b])
        .collect()
}

/// The point of segment `a`–`b` closest to `p`: (parameter t ∈ [0, 1], the point);
/// t = 0 on a zero-length segment.
pub fn closest_on_segment(p: Point, a: Point, b: Point) -> (f64, Point) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (t, [a[0] + t * dx, a[1] + t * dy])
}

/// Distance from `p` to segment `a`–`b`, metres.
pub fn point_segment_distance(p: Point, a: Point, b: Point, norm: Norm) -> f64 {
    norm.distance(p, closest_on_segment(p, a, b).1)
}

/// Where a point projects onto a closed polyline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    /// Arc length of the projected point from vertex 0, metres.
    pub s: f64,
    /// Unit tangent of the segment it lies on (driving direction).
    pub tangent: [f64; 2],
    /// Distance from the point to the polyline, metres (infinite without a segment).
    pub distance: f64,
    /// Index k of the segment, from vertex k to vertex k + 1 (mod n).
    pub segment: usize,
}

/// The point of a closed polyline nearest to `q` ([`Norm::Hypot`]; zero-length segments
/// skipped; the lowest segment index among equals). Without a segment of positive length:
/// s = 0, tangent +x, infinite distance, segment 0.
pub fn project_closed(pts: &[Point], q: Point) -> Projection {
    let s = closed_arc_lengths(pts, Norm::Hypot);
    let n = pts.len();
    let mut best = Projection {
        s: 0.0,
        tangent: [1.0, 0.0],
        distance: f64::INFINITY,
        segment: 0,
    };
    for k in 0..n {
        let (a, b) = (pts[k], pts[(k + 1) % n]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len2 = dx * dx + dy * dy;
        if len2 == 0.0 {
            continue;
        }
        let (t, c) = closest_on_segment(q, a, b);
        let d = Norm::Hypot.distance(q, c);
        if d < best.distance {
            let len = len2.sqrt();
            best = Projection {
                s: s[k] + t * len,
                tangent: [dx / len, dy / len],
                distance: d,
                segment: k,
            };
        }
    }
    best
}

/// Twice the signed area of a closed polyline (shoelace; positive = counter-clockwise), m².
pub fn signed_area2(pts: &[Point]) -> f64 {
    let n = pts.len();
    (0..n)
        .map(|k| {
            let (a, b) = (pts[k], pts[(k + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// `p` moved `d` metres along the unit direction `dir` (negative `d`: the other way), metres.
#[inline]
pub fn offset_point(p: Point, dir: [f64; 2], d: f64) -> Point {
    [p[0] + dir[0] * d, p[1] + dir[1] * d]
}

/// Each point moved by `d[i]` metres along its unit normal `normals[i]` (negative `d`: the
/// other way); as many points as the shortest of the three inputs.
pub fn offset_along_normals(pts: &[Point], normals: &[[f64; 2]], d: &[f64]) -> Vec<Point> {
    pts.iter()
        .zip(normals)
        .zip(d)
        .map(|((&p, &n), &d)| offset_point(p, n, d))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: [Point; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];

    #[test]
    fn square_lengths_and_resampling() {
        let sq = SQUARE;
        assert_eq!(
            closed_arc_lengths(&sq, Norm::Hypot),
            vec![0.0, 1.0, 2.0, 3.0, 4.0]
        );
        assert_eq!(closed_length(&sq, Norm::SqrtOfSquares), 4.0);
        assert_eq!(
            closed_segment_lengths(&sq, Norm::SqrtOfSquares),
            vec![1.0; 4]
        );
        let r = resample_closed(&sq, 0.3);
        assert_eq!(r.len(), 14, "ceil(4 / 0.3) points");
        let step = 4.0 / 14.0;
        for (k, p) in r.iter().enumerate() {
            // Every point lies on the square at arc length k·step.
            let t = step * k as f64;
            let side = (t.floor() as usize).min(3);
            let f = t - side as f64;
            let want = match side {
                0 => [f, 0.0],
                1 => [1.0, f],
                2 => [1.0 - f, 1.0],
                _ => [0.0, 1.0 - f],
            };
            assert!((p[0] - want[0]).abs() < 1e-12 && (p[1] - want[1]).abs() < 1e-12);
        }
        let back = resample_from(&sq, 0.5, 4, false);
        assert_eq!(back, vec![[0.5, 0.0], [0.0, 0.5], [0.5, 1.0], [1.0, 0.5]]);
    }

    #[test]
    fn resample_square_at_a_tenth() {
        let r = resample_closed(&SQUARE, 0.1);
        assert_eq!(r.len(), 40);
        assert!((r[15][0] - 1.0).abs() < 1e-12 && (r[15][1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn degenerate_polylines_do_not_panic() {
        assert!(resample_from(&[], 0.0, 3, true).is_empty());
        assert!(resample_closed_numpy(&[], 0.1).is_empty());
        assert_eq!(closed_length(&[], Norm::Hypot), 0.0);
        assert_eq!(resample_closed(&[[1.0, 2.0]], 0.1), vec![[1.0, 2.0]]);
        assert_eq!(
            resample_closed(&[[1.0, 2.0], [1.0, 2.0]], 0.1),
            vec![[1.0, 2.0]]
        );
        let p = project_closed(&[[1.0, 2.0], [1.0, 2.0]], [0.0, 0.0]);
        assert_eq!((p.s, p.tangent, p.segment), (0.0, [1.0, 0.0], 0));
        assert!(p.distance.is_infinite());
    }

    /// The two resamplings place the same points up to rounding, but not bit for bit:
    /// that is why both exist.
    #[test]
    fn numpy_resampling_matches_the_extractions_up_to_rounding() {
        let wobbly: Vec<Point> = (0..97)
            .map(|i| {
                let t = i as f64 / 97.0 * std::f64::consts::TAU;
                let r = 7.0 + (5.0 * t).sin();
                [r * t.cos() + 0.3, 0.8 * r * t.sin() - 1.1]
            })
            .collect();
        let a = resample_closed(&wobbly, 0.1);
        let b = resample_closed_numpy(&wobbly, 0.1);
        assert_eq!(a.len(), b.len());
        let mut differ = 0;
        for (p, q) in a.iter().zip(&b) {
            assert!((p[0] - q[0]).abs() < 1e-9 && (p[1] - q[1]).abs() < 1e-9);
            differ += usize::from(p != q);
        }
        assert!(differ > 0, "the two forms round differently somewhere");
        let sq = resample_closed_numpy(&SQUARE, 0.3);
        assert_eq!(sq.len(), 14);
        assert_eq!(sq[0], [0.0, 0.0]);
    }

    #[test]
    fn projection_onto_a_square() {
        let p = project_closed(&SQUARE, [1.5, 0.25]);
        assert_eq!(p.segment, 1);
        assert_eq!(p.tangent, [0.0, 1.0]);
        assert!((p.s - 1.25).abs() < 1e-15 && (p.distance - 0.5).abs() < 1e-15);
        // Equally near segments 0 and 3 (the corner): the lower index wins.
        let c = project_closed(&SQUARE, [-1.0, -1.0]);
        assert_eq!((c.segment, c.s), (0, 0.0));
    }

    #[test]
    fn segment_distance_and_area_and_offsets() {
        let (a, b) = ([0.0, 0.0], [2.0, 0.0]);
        for norm in [Norm::Hypot, Norm::SqrtOfSquares] {
            assert_eq!(point_segment_distance([1.0, 3.0], a, b, norm), 3.0);
            assert_eq!(point_segment_distance([5.0, 4.0], a, b, norm), 5.0);
            assert_eq!(point_segment_distance([3.0, 4.0], a, a, norm), 5.0);
        }
        assert_eq!(signed_area2(&SQUARE), 2.0);
        let cw: Vec<Point> = SQUARE.iter().rev().copied().collect();
        assert_eq!(signed_area2(&cw), -2.0);
        let moved = offset_along_normals(
            &[[1.0, 1.0], [2.0, 2.0]],
            &[[0.0, 1.0], [1.0, 0.0]],
            &[2.0, -0.5],
        );
        assert_eq!(moved, vec![[1.0, 3.0], [1.5, 2.0]]);
    }
}
