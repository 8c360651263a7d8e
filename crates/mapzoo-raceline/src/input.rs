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

use crate::error::{
    LineInputError, GAP_FACTOR, GAP_MIN_M, MIN_INPUT_LAP_M, MIN_INPUT_POINTS, MIN_REFERENCE_POINTS,
};
use crate::prep::RefTrack;

/// How many of `points` (x, y by `xy`) are points of the loop: all but a last one that
/// repeats the first, as a file that closes the loop by repeating its first point writes it
/// (the copy is not a point; the stages close the loop themselves).
pub fn open_count<T>(points: &[T], xy: impl Fn(&T) -> [f64; 2]) -> usize {
    match (points.first(), points.last()) {
        (Some(a), Some(b)) if points.len() > 1 && xy(a) == xy(b) => points.len() - 1,
        _ => points.len(),
    }
}

/// The first check of [`check_input_line`] alone, to run before the others' preconditions
/// (finite values): at least [`MIN_INPUT_POINTS`] points (a closing copy of the first not counted).
pub fn check_point_count(track: &RefTrack) -> Result<(), LineInputError> {
    let n = open_count(&track.xy, |p| *p);
    if n < MIN_INPUT_POINTS {
        return Err(LineInputError::TooFewPoints { found: n });
    }
    Ok(())
}

/// Checks an input centerline (finite values, as [`RefTrack::check`] ensures): see the module
/// documentation. `stepsize_reg` (metres) sets the shortest lap that can be optimised.
pub fn check_input_line(track: &RefTrack, stepsize_reg: f64) -> Result<(), LineInputError> {
    let n = open_count(&track.xy, |p| *p);
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
