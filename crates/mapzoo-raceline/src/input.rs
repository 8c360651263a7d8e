//! The checks a centerline passes before stage 7 (DESIGN §3.7) may start from
//! it: one place that says what an input line must be, and names the row
//! where it is not (issue 12 item 8).
//!
//! A line that fails here used to fail deep inside a stage ("singular spline
//! system" for a duplicate point), or worse, gave a result: a gap of metres
//! was bridged by a straight line and a figure-eight was optimised as if it
//! were a track. The checks, in order: enough points, positive widths, no
//! repeated point, a lap long enough to optimise, no gap far wider than the
//! line's own spacing, and no crossing of the line with itself.
//!
//! Rows are 0-based waypoint indices (the `id` column of a MapZoo CSV, data
//! row `index + 1` of any CSV); a closing row that repeats the first point is
//! accepted and ignored.

use thiserror::Error;

use crate::prep::RefTrack;

/// Fewest points of an input line.
pub const MIN_INPUT_POINTS: usize = 5;

/// Shortest lap of an input line, metres (and at least [`MIN_REFERENCE_POINTS`] steps of
/// `stepsize_reg`).
pub const MIN_INPUT_LAP_M: f64 = 2.0;

/// Fewest points of the smoothed reference line (lap length / `stepsize_reg`).
pub const MIN_REFERENCE_POINTS: usize = 20;

/// A step between neighbouring points is a gap when it is longer than this many metres …
pub const GAP_MIN_M: f64 = 1.5;

/// … and longer than this many times the line's median step.
pub const GAP_FACTOR: f64 = 8.0;

/// What is wrong with an input centerline, naming the row.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LineInputError {
    /// Too few points to make a closed line.
    #[error("centerline: {found} points; at least {MIN_INPUT_POINTS} are needed for a closed line to optimise")]
    TooFewPoints {
        /// Points found (a closing copy of the first not counted).
        found: usize,
    },
    /// A width is zero or negative.
    #[error("centerline: {column} of point {row} (data row {}) at ({x:.3}, {y:.3}) is {value} m; widths must be > 0 \
             (the distance from the centerline to that wall)", row + 1)]
    NonPositiveWidth {
        /// "d_right" or "d_left".
        column: &'static str,
        /// The point's index.
        row: usize,
        /// The value, metres.
        value: f64,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
    },
    /// Two neighbouring points coincide.
    #[error("centerline: points {row} and {next} (data rows {} and {}) coincide at ({x:.3}, {y:.3}); remove the duplicate",
            row + 1, next + 1)]
    Duplicate {
        /// The first point's index.
        row: usize,
        /// The next point's index.
        next: usize,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
    },
    /// The lap is too short to optimise.
    #[error("centerline: the lap is {length_m:.2} m long, shorter than the {min_m:.2} m needed to optimise \
             (at least {MIN_INPUT_LAP_M} m and {MIN_REFERENCE_POINTS} steps of stepsize_reg); check the units, or lower stepsize_reg")]
    TooShort {
        /// Lap length, metres.
        length_m: f64,
        /// Shortest lap accepted, metres.
        min_m: f64,
    },
    /// Two neighbouring points are far apart compared with the rest of the line.
    #[error("centerline: a gap of {gap_m:.2} m between point {row} (data row {}) at ({x:.3}, {y:.3}) and point {next}, \
             where the line's points are {median_m:.3} m apart elsewhere; the line would bridge it with a straight \
             segment. Fill the gap{}", row + 1, if *next == 0 { " (the line does not close: its last point is far from its first)" } else { "" })]
    Gap {
        /// The point before the gap.
        row: usize,
        /// The point after it (0 when the gap is the closing step).
        next: usize,
        /// Length of the gap, metres.
        gap_m: f64,
        /// Median step of the line, metres.
        median_m: f64,
        /// World x of the point before the gap, metres.
        x: f64,
        /// World y of the point before the gap, metres.
        y: f64,
    },
    /// The line crosses itself (a figure-eight, or a stray point).
    #[error("centerline: the segment from point {row} to {} crosses the segment from point {other} to {} at \
             ({x:.3}, {y:.3}); a centerline must be a simple loop (no figure-eight); fix the points near data \
             rows {} and {}", row + 1, other + 1, row + 1, other + 1)]
    SelfIntersection {
        /// Start of the first segment.
        row: usize,
        /// Start of the second segment.
        other: usize,
        /// World x of the crossing, metres.
        x: f64,
        /// World y of the crossing, metres.
        y: f64,
    },
}

impl LineInputError {
    /// The row (0-based point index) the error names (0 when it names none).
    pub fn row(&self) -> usize {
        match self {
            LineInputError::TooFewPoints { .. } | LineInputError::TooShort { .. } => 0,
            LineInputError::NonPositiveWidth { row, .. }
            | LineInputError::Duplicate { row, .. }
            | LineInputError::Gap { row, .. }
            | LineInputError::SelfIntersection { row, .. } => *row,
        }
    }

    /// The world position the error names, metres.
    pub fn xy(&self) -> Option<(f64, f64)> {
        match self {
            LineInputError::TooFewPoints { .. } | LineInputError::TooShort { .. } => None,
            LineInputError::NonPositiveWidth { x, y, .. }
            | LineInputError::Duplicate { x, y, .. }
            | LineInputError::Gap { x, y, .. }
            | LineInputError::SelfIntersection { x, y, .. } => Some((*x, *y)),
        }
    }
}

/// The first check of [`check_input_line`] alone, to run before the others' preconditions
/// (finite values): at least [`MIN_INPUT_POINTS`] points (a closing copy of the first not counted).
pub fn check_point_count(track: &RefTrack) -> Result<(), LineInputError> {
    let mut n = track.xy.len();
    if n > 1 && track.xy[n - 1] == track.xy[0] {
        n -= 1;
    }
    if n < MIN_INPUT_POINTS {
        return Err(LineInputError::TooFewPoints { found: n });
    }
    Ok(())
}

/// Checks an input centerline (finite values, as [`RefTrack::check`] ensures): see the module
/// documentation. `stepsize_reg` (metres) sets the shortest lap that can be optimised.
pub fn check_input_line(track: &RefTrack, stepsize_reg: f64) -> Result<(), LineInputError> {
    let mut n = track.xy.len();
    // A file that closes the loop by repeating its first point: the copy is not a point.
    if n > 1 && track.xy[n - 1] == track.xy[0] {
        n -= 1;
    }
    let xy = &track.xy[..n];
    if n < MIN_INPUT_POINTS {
        return Err(LineInputError::TooFewPoints { found: n });
    }
    for (column, values) in [("d_right", &track.w_right), ("d_left", &track.w_left)] {
        if let Some(row) = values.iter().take(n).position(|w| *w <= 0.0) {
            return Err(LineInputError::NonPositiveWidth {
                column,
                row,
                value: values[row],
                x: xy[row][0],
                y: xy[row][1],
            });
        }
    }
    let steps: Vec<f64> = (0..n).map(|i| dist(xy[i], xy[(i + 1) % n])).collect();
    if let Some(row) = steps.iter().position(|&s| s == 0.0) {
        return Err(LineInputError::Duplicate {
            row,
            next: (row + 1) % n,
            x: xy[row][0],
            y: xy[row][1],
        });
    }
    let length_m: f64 = steps.iter().sum();
    let min_m = MIN_INPUT_LAP_M.max(MIN_REFERENCE_POINTS as f64 * stepsize_reg);
    if length_m < min_m {
        return Err(LineInputError::TooShort { length_m, min_m });
    }
    let median_m = median(&steps);
    let gap_limit = GAP_MIN_M.max(GAP_FACTOR * median_m);
    if let Some(row) = steps.iter().position(|&s| s > gap_limit) {
        return Err(LineInputError::Gap {
            row,
            next: (row + 1) % n,
            gap_m: steps[row],
            median_m,
            x: xy[row][0],
            y: xy[row][1],
        });
    }
    let cell = steps.iter().cloned().fold(0.0, f64::max);
    if let Some((row, other, [x, y])) = first_crossing(xy, cell) {
        return Err(LineInputError::SelfIntersection { row, other, x, y });
    }
    Ok(())
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The first pair (in segment order) of non-neighbouring segments of the closed line `xy`
/// that cross or touch, with the crossing point. Segments are binned into square cells of
/// side `cell` (≥ the longest segment), so each is compared only with those near it.
fn first_crossing(xy: &[[f64; 2]], cell: f64) -> Option<(usize, usize, [f64; 2])> {
    use std::collections::HashMap;
    let n = xy.len();
    let cell = if cell > 0.0 { cell } else { 1.0 };
    let key = |p: [f64; 2]| ((p[0] / cell).floor() as i64, (p[1] / cell).floor() as i64);
    let mut bins: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for i in 0..n {
        let (a, b) = (key(xy[i]), key(xy[(i + 1) % n]));
        for cx in a.0.min(b.0)..=a.0.max(b.0) {
            for cy in a.1.min(b.1)..=a.1.max(b.1) {
                bins.entry((cx, cy)).or_default().push(i);
            }
        }
    }
    let mut best: Option<(usize, usize, [f64; 2])> = None;
    for segs in bins.values() {
        for (k, &i) in segs.iter().enumerate() {
            for &j in &segs[k + 1..] {
                let (i, j) = (i.min(j), i.max(j));
                // neighbours share an end point
                if j == i + 1 || (i == 0 && j == n - 1) {
                    continue;
                }
                if best.is_some_and(|b| (b.0, b.1) <= (i, j)) {
                    continue;
                }
                let seg = |s: usize| (xy[s], xy[(s + 1) % n]);
                if let Some(p) = crossing(seg(i), seg(j)) {
                    best = Some((i, j, p));
                }
            }
        }
    }
    best
}

/// Where segments `a` and `b` cross or touch (collinear overlaps included), if they do.
fn crossing(a: ([f64; 2], [f64; 2]), b: ([f64; 2], [f64; 2])) -> Option<[f64; 2]> {
    let (p, p2) = a;
    let (q, q2) = b;
    let r = [p2[0] - p[0], p2[1] - p[1]];
    let s = [q2[0] - q[0], q2[1] - q[1]];
    let cross = |u: [f64; 2], v: [f64; 2]| u[0] * v[1] - u[1] * v[0];
    let qp = [q[0] - p[0], q[1] - p[1]];
    let denom = cross(r, s);
    if denom == 0.0 {
        if cross(qp, r) != 0.0 {
            return None; // parallel, apart
        }
        // collinear: overlap of the projections on r
        let rr = r[0] * r[0] + r[1] * r[1];
        let t0 = (qp[0] * r[0] + qp[1] * r[1]) / rr;
        let t1 = t0 + (s[0] * r[0] + s[1] * r[1]) / rr;
        let (lo, hi) = (t0.min(t1).max(0.0), t0.max(t1).min(1.0));
        return (lo <= hi).then(|| [p[0] + lo * r[0], p[1] + lo * r[1]]);
    }
    let t = cross(qp, s) / denom;
    let u = cross(qp, r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u))
        .then(|| [p[0] + t * r[0], p[1] + t * r[1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: usize, r: f64) -> RefTrack {
        let xy = (0..n)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / n as f64;
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        RefTrack {
            xy,
            w_right: vec![1.0; n],
            w_left: vec![1.0; n],
        }
    }

    /// The naive twin of [`first_crossing`]: every pair of non-neighbouring segments.
    fn naive_first_crossing(xy: &[[f64; 2]]) -> Option<(usize, usize)> {
        let n = xy.len();
        for i in 0..n {
            for j in i + 1..n {
                if j == i + 1 || (i == 0 && j == n - 1) {
                    continue;
                }
                let seg = |s: usize| (xy[s], xy[(s + 1) % n]);
                if crossing(seg(i), seg(j)).is_some() {
                    return Some((i, j));
                }
            }
        }
        None
    }

    #[test]
    fn a_ring_passes_and_a_closed_copy_of_the_first_point_is_accepted() {
        let mut t = ring(200, 10.0);
        assert_eq!(check_input_line(&t, 0.2), Ok(()));
        t.xy.push(t.xy[0]);
        t.w_right.push(1.0);
        t.w_left.push(1.0);
        assert_eq!(check_input_line(&t, 0.2), Ok(()));
    }

    #[test]
    fn a_figure_eight_is_a_self_intersection() {
        let n = 400;
        let xy: Vec<[f64; 2]> = (0..n)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / n as f64;
                [20.0 * t.sin(), 10.0 * (2.0 * t).sin()]
            })
            .collect();
        let t = RefTrack {
            w_right: vec![1.0; n],
            w_left: vec![1.0; n],
            xy,
        };
        let err = check_input_line(&t, 0.2).unwrap_err();
        assert!(
            matches!(err, LineInputError::SelfIntersection { x, y, .. } if x.abs() < 0.5 && y.abs() < 0.5),
            "{err}"
        );
    }

    proptest::proptest! {
        /// The binned search finds a crossing exactly when the naive one does, and the same first one.
        #[test]
        fn binned_crossing_search_agrees_with_every_pair(
            pts in proptest::collection::vec((-10.0f64..10.0, -10.0f64..10.0), 4..30)
        ) {
            let xy: Vec<[f64; 2]> = pts.iter().map(|&(x, y)| [x, y]).collect();
            let cell = (0..xy.len()).map(|i| dist(xy[i], xy[(i + 1) % xy.len()])).fold(0.0, f64::max);
            let fast = first_crossing(&xy, cell).map(|(i, j, _)| (i, j));
            proptest::prop_assert_eq!(fast, naive_first_crossing(&xy));
        }
    }
}
