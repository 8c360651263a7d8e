//! Exact nearest-point and nearest-segment queries over a bucket grid
//! (DESIGN §3.6: the widths d_right / d_left are nearest distances to the
//! walls; the comparisons of `check` measure line-to-line distances).
//!
//! Both indices cap the grid at 4M cells (the cell grows instead), start a
//! query far outside the grid at the first ring of cells that touches it, and
//! break ties by the lowest index, so they answer exactly what their naive
//! twins in [`crate::reference`] (feature `reference`) answer.

use crate::grid::{Buckets, Grid};
use crate::polyline::closest_on_segment;
use crate::{Norm, Point};

/// The nearest point of a [`PointIndex`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    /// Index of the point in the indexed list.
    pub index: usize,
    /// Distance from the query, metres.
    pub distance: f64,
}

/// The nearest segment of a [`SegmentIndex`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestSegment {
    /// Index of the segment (see [`SegmentIndex::segment`]).
    pub segment: usize,
    /// Parameter of the closest point on the segment, 0 at its start, 1 at its end.
    pub t: f64,
    /// Distance from the query, metres.
    pub distance: f64,
}

/// Points bucketed on a grid for exact nearest-point queries.
#[derive(Debug, Clone)]
pub struct PointIndex {
    pts: Vec<Point>,
    norm: Norm,
    grid: Grid,
    buckets: Buckets,
    /// The points in bucket order (`pts[buckets.items[i]]`), so that a cell's points are
    /// read in one run.
    bucketed: Vec<Point>,
}

impl PointIndex {
    /// Indexes `pts` with cells of about `cell` metres (larger if the grid would exceed 4M
    /// cells; 0.5 m if `cell` is not positive); distances are measured with `norm`.
    pub fn new(pts: Vec<Point>, cell: f64, norm: Norm) -> Self {
        let grid = Grid::over(pts.iter().copied(), cell);
        let pairs: Vec<(usize, usize)> = pts
            .iter()
            .enumerate()
            .map(|(k, &p)| (grid.index(p), k))
            .collect();
        let buckets = Buckets::new(grid.cells(), &pairs);
        let bucketed = buckets.items.iter().map(|&k| pts[k]).collect();
        PointIndex {
            pts,
            norm,
            grid,
            buckets,
            bucketed,
        }
    }

    /// The indexed points.
    pub fn points(&self) -> &[Point] {
        &self.pts
    }

    /// Number of grid cells.
    pub fn cells(&self) -> usize {
        self.grid.cells()
    }

    /// The point nearest to `q` (the lowest index among equals); `None` without points, or
    /// for a non-finite `q`, or when no distance is a number.
    pub fn nearest(&self, q: Point) -> Option<Nearest> {
        if !(q[0].is_finite() && q[1].is_finite()) {
            return None;
        }
        let best = match self.norm {
            Norm::SqrtOfSquares => self.nearest_by(q, |dx, dy, _| Some(dx.powi(2) + dy.powi(2))),
            // hypot only where the squares leave a chance ([`hypot_may_reach`])
            Norm::Hypot => self.nearest_by(q, |dx, dy, best| {
                hypot_may_reach(dx * dx + dy * dy, best).then(|| dx.hypot(dy))
            }),
        };
        (best.1 != usize::MAX).then(|| Nearest {
            index: best.1,
            distance: self.norm.key_distance(best.0),
        })
    }

    /// The smallest (key, index) over the points, searched on the grid; `key(dx, dy, best)`
    /// is [`Norm::key`] of the point p at (dx, dy) = p − q, or `None` when that key surely
    /// exceeds `best`, the key to beat (so p can neither win nor tie).
    #[inline]
    fn nearest_by(&self, q: Point, key: impl Fn(f64, f64, f64) -> Option<f64>) -> (f64, usize) {
        let norm = self.norm;
        let mut best = (f64::INFINITY, usize::MAX);
        let (start, items, pts) = (&self.buckets.start, &self.buckets.items, &self.bucketed);
        self.grid.search(
            q,
            &mut best,
            |best, c| {
                let run = start[c]..start[c + 1];
                let before = best.1;
                for (p, &k) in pts[run.clone()].iter().zip(&items[run]) {
                    if let Some(key) = key(p[0] - q[0], p[1] - q[1], best.0) {
                        if key < best.0 || (key == best.0 && k < best.1) {
                            *best = (key, k);
                        }
                    }
                }
                best.1 != before
            },
            |best| norm.key_distance(best.0),
        );
        best
    }

    /// Distance from `q` to the nearest point, metres; infinite when there is none.
    pub fn distance(&self, q: Point) -> f64 {
        self.nearest(q).map_or(f64::INFINITY, |n| n.distance)
    }

    /// Indices of the points at most `radius` metres from `q`, ascending; empty for a
    /// non-finite `q` or a negative `radius`.
    pub fn within(&self, q: Point, radius: f64) -> Vec<usize> {
        if !(q[0].is_finite() && q[1].is_finite() && radius >= 0.0) {
            return Vec::new();
        }
        let lo = [q[0] - radius, q[1] - radius];
        let hi = [q[0] + radius, q[1] + radius];
        let norm = self.norm;
        let mut found: Vec<usize> = self
            .grid
            .box_cells(lo, hi)
            .flat_map(|c| self.buckets.cell(c).iter().copied())
            .filter(|&k| norm.key_distance(norm.key(self.pts[k], q)) <= radius)
            .collect();
        found.sort_unstable();
        found
    }
}

/// Whether a point at squared distance `squares` (dx² + dy², rounded) may have a hypot equal
/// to or below `best` (a hypot, metres): false only when the squares exceed best² by far more
/// than both roundings (a relative 1e-12, against an error of a few 1e-16), and best² is far
/// from underflow. Always true while `best` is infinite.
#[inline]
pub(crate) fn hypot_may_reach(squares: f64, best: f64) -> bool {
    // NaN squares (a NaN coordinate) leave the decision to hypot
    squares <= (best * best * (1.0 + 1e-12)).max(1e-280) || squares.is_nan()
}

/// The segments of a polyline of `n` points: (k − 1, k) for k in 1..n, then (n − 1, 0) when
/// `closed` and n > 2; one point is one zero-length segment (0, 0).
pub(crate) fn polyline_segments(n: usize, closed: bool) -> Vec<(usize, usize)> {
    let mut segments: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
    if closed && n > 2 {
        segments.push((n - 1, 0));
    }
    if n == 1 {
        segments.push((0, 0));
    }
    segments
}

/// The segments of a polyline bucketed on a grid for exact point-to-polyline distances.
#[derive(Debug, Clone)]
pub struct SegmentIndex {
    pts: Vec<Point>,
    segments: Vec<(usize, usize)>,
    norm: Norm,
    grid: Grid,
    buckets: Buckets,
}

impl SegmentIndex {
    /// Indexes the polyline through `pts` (closed: the last point joins the first when there
    /// are more than two) with cells of about `cell` metres (as [`PointIndex::new`]);
    /// distances are measured with `norm`.
    pub fn new(pts: &[Point], closed: bool, cell: f64, norm: Norm) -> Self {
        let segments = polyline_segments(pts.len(), closed);
        let grid = Grid::over(pts.iter().copied(), cell);
        let mut pairs = Vec::with_capacity(segments.len());
        for (s, &(a, b)) in segments.iter().enumerate() {
            let (pa, pb) = (pts[a], pts[b]);
            let (c0, r0) = grid.cell_xy([pa[0].min(pb[0]), pa[1].min(pb[1])]);
            let (c1, r1) = grid.cell_xy([pa[0].max(pb[0]), pa[1].max(pb[1])]);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    pairs.push((grid.at(c, r), s));
                }
            }
        }
        let buckets = Buckets::new(grid.cells(), &pairs);
        SegmentIndex {
            pts: pts.to_vec(),
            segments,
            norm,
            grid,
            buckets,
        }
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether there are no segments.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// End points of segment `k`.
    pub fn segment(&self, k: usize) -> (Point, Point) {
        let (a, b) = self.segments[k];
        (self.pts[a], self.pts[b])
    }

    /// The segment nearest to `q` (the lowest index among equals); `None` without segments,
    /// or for a non-finite `q`, or when no distance is a number.
    pub fn nearest(&self, q: Point) -> Option<NearestSegment> {
        if !(q[0].is_finite() && q[1].is_finite()) {
            return None;
        }
        let norm = self.norm;
        let mut best = (f64::INFINITY, usize::MAX, 0.0);
        self.grid.search(
            q,
            &mut best,
            |best, c| {
                for &s in self.buckets.cell(c) {
                    let (a, b) = self.segment(s);
                    let (t, p) = closest_on_segment(q, a, b);
                    let key = norm.key(p, q);
                    if key < best.0 || (key == best.0 && s < best.1) {
                        *best = (key, s, t);
                    }
                }
                true
            },
            |best| norm.key_distance(best.0),
        );
        (best.1 != usize::MAX).then(|| NearestSegment {
            segment: best.1,
            t: best.2,
            distance: norm.key_distance(best.0),
        })
    }

    /// Distance from `q` to the polyline, metres; infinite when there is no segment.
    pub fn distance(&self, q: Point) -> f64 {
        self.nearest(q).map_or(f64::INFINITY, |n| n.distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::MAX_CELLS;
    use crate::reference;
    use proptest::prelude::*;

    fn circle(n: usize, r: f64) -> Vec<Point> {
        (0..n)
            .map(|i| {
                let t = i as f64 * std::f64::consts::TAU / n as f64;
                [r * t.cos(), r * t.sin()]
            })
            .collect()
    }

    /// A wall with one stray point 10 km away on the diagonal: a 0.5 m grid would have
    /// 4·10⁸ cells; the capped one stays under 4M and still answers exactly.
    #[test]
    fn stray_point_does_not_blow_up_the_grid() {
        let mut pts = circle(400, 5.0);
        pts.push([10_000.0, 10_000.0]);
        for norm in [Norm::SqrtOfSquares, Norm::Hypot] {
            let index = PointIndex::new(pts.clone(), 0.5, norm);
            assert!(index.cells() as f64 <= MAX_CELLS, "{} cells", index.cells());
            let segments = SegmentIndex::new(&pts, true, 0.5, norm);
            for q in [[0.0, 0.0], [5.0, 0.1], [9_000.0, 9_500.0], [-300.0, 40.0]] {
                let brute = pts
                    .iter()
                    .map(|p| (p[0] - q[0]).hypot(p[1] - q[1]))
                    .fold(f64::INFINITY, f64::min);
                assert!((index.distance(q) - brute).abs() <= 1e-12 * brute.max(1.0));
                assert_eq!(index.nearest(q), reference::nearest_point(&pts, q, norm));
                assert_eq!(
                    segments.nearest(q),
                    reference::nearest_segment(&pts, true, q, norm)
                );
            }
        }
    }

    #[test]
    fn within_finds_the_points_in_the_disc() {
        let pts = circle(12, 1.0);
        let index = PointIndex::new(pts.clone(), 0.3, Norm::Hypot);
        assert_eq!(index.within([1.0, 0.0], 0.6), vec![0, 1, 11]);
        assert_eq!(index.within([0.0, 0.0], 1.0 + 1e-12).len(), 12);
        assert!(index.within([0.0, 0.0], 0.5).is_empty());
        assert!(index.within([f64::NAN, 0.0], 5.0).is_empty());
        assert!(index.within([1.0, 0.0], -1.0).is_empty());
    }

    #[test]
    fn ties_go_to_the_lowest_index_and_empty_inputs_answer_nothing() {
        let pts = vec![[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [1.0, 0.0]];
        let index = PointIndex::new(pts.clone(), 0.25, Norm::Hypot);
        assert_eq!(index.nearest([0.0, 0.0]).unwrap().index, 0);
        assert_eq!(index.nearest([2.0, 0.0]).unwrap().index, 0);
        assert_eq!(index.nearest([f64::NAN, 0.0]), None);
        let empty = PointIndex::new(Vec::new(), 0.5, Norm::Hypot);
        assert_eq!(empty.nearest([0.0, 0.0]), None);
        assert_eq!(empty.distance([0.0, 0.0]), f64::INFINITY);
        let segs = SegmentIndex::new(&[], true, 0.5, Norm::SqrtOfSquares);
        assert!(segs.is_empty());
        assert_eq!(segs.distance([1.0, 1.0]), f64::INFINITY);
        let one = SegmentIndex::new(&[[3.0, 4.0]], true, 0.5, Norm::SqrtOfSquares);
        assert_eq!(one.len(), 1);
        assert_eq!(one.distance([0.0, 0.0]), 5.0);
        // two points, closed: one segment only
        let two = SegmentIndex::new(&[[0.0, 0.0], [1.0, 0.0]], true, 0.5, Norm::Hypot);
        assert_eq!(two.len(), 1);
    }

    #[test]
    fn grid_distance_equals_brute_force_on_a_wobbly_loop() {
        // A wobbly closed loop and query points inside, on and far outside it.
        let pts: Vec<Point> = (0..300)
            .map(|i| {
                let t = i as f64 / 300.0 * std::f64::consts::TAU;
                let r = 10.0 + 2.0 * (3.0 * t).sin();
                [r * t.cos(), 0.6 * r * t.sin()]
            })
            .collect();
        let index = SegmentIndex::new(&pts, true, 0.5, Norm::SqrtOfSquares);
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 60.0
        };
        for _ in 0..500 {
            let q = [next(), next()];
            let brute = reference::nearest_segment(&pts, true, q, Norm::SqrtOfSquares);
            assert_eq!(index.nearest(q), brute, "at {q:?}");
        }
    }

    fn points(v: Vec<(f64, f64)>) -> Vec<Point> {
        v.into_iter().map(|(x, y)| [x, y]).collect()
    }

    fn norm_of(hypot: bool) -> Norm {
        if hypot {
            Norm::Hypot
        } else {
            Norm::SqrtOfSquares
        }
    }

    proptest! {
        /// The grid answers exactly what the all-pairs search answers, index and distance,
        /// also for queries far outside the points and for repeated points.
        #[test]
        fn point_index_matches_naive(
            pts in proptest::collection::vec((-20.0f64..20.0, -20.0f64..20.0), 0..200),
            qs in proptest::collection::vec((-200.0f64..200.0, -200.0f64..200.0), 1..20),
            cell in 0.05f64..5.0,
            repeat in 0usize..4,
            hypot: bool,
        ) {
            let mut pts = points(pts);
            if !pts.is_empty() {
                for k in 0..repeat {
                    pts.push(pts[k % pts.len()]);
                }
            }
            let norm = norm_of(hypot);
            let index = PointIndex::new(pts.clone(), cell, norm);
            for q in points(qs) {
                prop_assert_eq!(index.nearest(q), reference::nearest_point(&pts, q, norm));
            }
        }

        /// The radius query finds exactly the points the all-pairs filter finds.
        #[test]
        fn within_matches_naive(
            pts in proptest::collection::vec((-20.0f64..20.0, -20.0f64..20.0), 0..200),
            qs in proptest::collection::vec((-40.0f64..40.0, -40.0f64..40.0), 1..20),
            cell in 0.05f64..5.0,
            radius in 0.0f64..12.0,
            hypot: bool,
        ) {
            let pts = points(pts);
            let norm = norm_of(hypot);
            let index = PointIndex::new(pts.clone(), cell, norm);
            for q in points(qs) {
                prop_assert_eq!(index.within(q, radius), reference::points_within(&pts, q, radius, norm));
            }
        }

        /// Points and queries on a lattice of half cells far from the origin: many exact ties
        /// between cells, points on cell edges and queries on them; the pruned ring search
        /// still answers exactly what the all-pairs search answers.
        #[test]
        fn lattice_ties_match_naive(
            pts in proptest::collection::vec((-12i32..12, -12i32..12), 1..120),
            qs in proptest::collection::vec((-40i32..40, -40i32..40), 1..20),
            offset in proptest::sample::select(vec![0.0, 0.3, 1e5, -7.25e6]),
            cell in proptest::sample::select(vec![0.25, 0.5, 1.0, 0.3]),
            hypot: bool,
            closed: bool,
        ) {
            let lattice = |v: Vec<(i32, i32)>| -> Vec<Point> {
                v.into_iter()
                    .map(|(x, y)| [offset + x as f64 * cell / 2.0, offset + y as f64 * cell / 2.0])
                    .collect()
            };
            let pts = lattice(pts);
            let norm = norm_of(hypot);
            let index = PointIndex::new(pts.clone(), cell, norm);
            let segments = SegmentIndex::new(&pts, closed, cell, norm);
            for q in lattice(qs) {
                prop_assert_eq!(index.nearest(q), reference::nearest_point(&pts, q, norm));
                prop_assert_eq!(segments.nearest(q), reference::nearest_segment(&pts, closed, q, norm));
            }
        }

        /// The squares never rule out a point whose hypot reaches the best one, also for a
        /// best a few ulps below or above the point's own hypot and for extreme magnitudes.
        #[test]
        fn hypot_filter_keeps_every_contender(
            dx in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
            dy in -1e3f64..1e3,
            scale in proptest::sample::select(vec![1.0, 1e-160, 1e-150, 1e150, 1e160, 1e-300]),
            ulps in -4i64..4,
        ) {
            let (dx, dy) = (dx, dy * scale);
            let h = dx.hypot(dy);
            prop_assume!(h.is_finite() && h > 0.0);
            let best = f64::from_bits((h.to_bits() as i64 + ulps) as u64);
            if h <= best {
                prop_assert!(hypot_may_reach(dx * dx + dy * dy, best), "{} {} {}", dx, dy, best);
            }
        }

        /// The same for segments of open and closed polylines.
        #[test]
        fn segment_index_matches_naive(
            pts in proptest::collection::vec((-20.0f64..20.0, -20.0f64..20.0), 0..120),
            qs in proptest::collection::vec((-200.0f64..200.0, -200.0f64..200.0), 1..20),
            cell in 0.05f64..5.0,
            closed: bool,
            hypot: bool,
        ) {
            let pts = points(pts);
            let norm = norm_of(hypot);
            let index = SegmentIndex::new(&pts, closed, cell, norm);
            for q in points(qs) {
                prop_assert_eq!(index.nearest(q), reference::nearest_segment(&pts, closed, q, norm));
            }
        }
    }
}
