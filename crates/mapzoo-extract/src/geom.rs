//! Closed-polyline helpers of the extraction stages (DESIGN §3.5–3.6): arc
//! length and equal-step resampling (used for the centerline, stage 5, and the
//! walls, stage 6).

/// Arc-length positions of a closed polyline, metres: `s[k]` at vertex k, `s[n]` = lap length.
pub fn closed_arc_lengths(pts: &[[f64; 2]]) -> Vec<f64> {
    let n = pts.len();
    let mut s = Vec::with_capacity(n + 1);
    s.push(0.0);
    for k in 0..n {
        let (a, b) = (pts[k], pts[(k + 1) % n]);
        s.push(s[k] + (b[0] - a[0]).hypot(b[1] - a[1]));
    }
    s
}

/// Length of a closed polyline including its closing segment, metres.
pub fn closed_length(pts: &[[f64; 2]]) -> f64 {
    closed_arc_lengths(pts).last().copied().unwrap_or(0.0)
}

/// Resamples a closed polyline at `count` equal steps from arc length `s0`
/// (metres), forwards or backwards; linear between vertices.
pub fn resample_from(pts: &[[f64; 2]], s0: f64, count: usize, forward: bool) -> Vec<[f64; 2]> {
    let n = pts.len();
    if n == 0 {
        return Vec::new();
    }
    let s = closed_arc_lengths(pts);
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
/// `step` metres (closing point dropped), as the Race Stack's `resample_closed`.
pub fn resample_closed(pts: &[[f64; 2]], step: f64) -> Vec<[f64; 2]> {
    if pts.len() < 2 {
        return pts.to_vec();
    }
    let count = ((closed_length(pts) / step).ceil() as usize).max(1);
    resample_from(pts, 0.0, count, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_lengths_and_resampling() {
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert_eq!(closed_arc_lengths(&sq), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(closed_length(&sq), 4.0);
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
    fn degenerate_polylines_do_not_panic() {
        assert!(resample_from(&[], 0.0, 3, true).is_empty());
        assert_eq!(resample_closed(&[[1.0, 2.0]], 0.1), vec![[1.0, 2.0]]);
        assert_eq!(
            resample_closed(&[[1.0, 2.0], [1.0, 2.0]], 0.1),
            vec![[1.0, 2.0]]
        );
    }
}
