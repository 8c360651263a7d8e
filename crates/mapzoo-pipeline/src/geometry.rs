//! Distances between lines for comparisons: a uniform grid over polyline
//! segments answers "how far is this point from that line" without an
//! all-pairs loop.

/// A closed or open polyline with a bucket grid over its segments.
#[derive(Debug, Clone)]
pub struct PolylineIndex {
    points: Vec<[f64; 2]>,
    segments: Vec<(usize, usize)>,
    cell: f64,
    min: [f64; 2],
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
}

impl PolylineIndex {
    /// Indexes `points` as a polyline (closed: the last point joins the first).
    /// `cell` is the grid size, metres.
    pub fn new(points: &[[f64; 2]], closed: bool, cell: f64) -> Self {
        let points: Vec<[f64; 2]> = points
            .iter()
            .copied()
            .filter(|p| p[0].is_finite() && p[1].is_finite())
            .collect();
        let n = points.len();
        let mut segments: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        if closed && n > 2 {
            segments.push((n - 1, 0));
        }
        if n == 1 {
            segments.push((0, 0));
        }
        let cell = if cell > 0.0 { cell } else { 0.5 };
        let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in &points {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        if n == 0 {
            min = [0.0; 2];
            max = [0.0; 2];
        }
        let cols = (((max[0] - min[0]) / cell).floor() as usize + 1).min(4096);
        let rows = (((max[1] - min[1]) / cell).floor() as usize + 1).min(4096);
        let cell = cell
            .max((max[0] - min[0]) / cols as f64)
            .max((max[1] - min[1]) / rows as f64);
        let mut index = PolylineIndex {
            points,
            segments,
            cell,
            min,
            cols,
            rows,
            buckets: vec![Vec::new(); cols * rows],
        };
        for (s, &(a, b)) in index.segments.iter().enumerate() {
            let (pa, pb) = (index.points[a], index.points[b]);
            let (c0, r0) = index.cell_of([pa[0].min(pb[0]), pa[1].min(pb[1])]);
            let (c1, r1) = index.cell_of([pa[0].max(pb[0]), pa[1].max(pb[1])]);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    index.buckets[r * cols + c].push(s as u32);
                }
            }
        }
        index
    }

    fn cell_of(&self, p: [f64; 2]) -> (usize, usize) {
        let c = ((p[0] - self.min[0]) / self.cell).floor();
        let r = ((p[1] - self.min[1]) / self.cell).floor();
        (
            c.clamp(0.0, (self.cols - 1) as f64) as usize,
            r.clamp(0.0, (self.rows - 1) as f64) as usize,
        )
    }

    /// Distance from `p` to the nearest segment, metres; infinite for an empty line.
    pub fn distance(&self, p: [f64; 2]) -> f64 {
        if self.segments.is_empty() || !(p[0].is_finite() && p[1].is_finite()) {
            return f64::INFINITY;
        }
        let (c, r) = self.cell_of(p);
        let mut best = f64::INFINITY;
        // Grow rings of cells until the ring is farther than the best distance found.
        let max_ring = self.cols.max(self.rows);
        for ring in 0..=max_ring {
            if best.is_finite() {
                // Cells of this ring are at least (ring - 1) cells away from p.
                let reach = (ring as f64 - 1.0) * self.cell;
                if reach > best {
                    break;
                }
            }
            let (r0, r1) = (r.saturating_sub(ring), (r + ring).min(self.rows - 1));
            let (c0, c1) = (c.saturating_sub(ring), (c + ring).min(self.cols - 1));
            for rr in r0..=r1 {
                for cc in c0..=c1 {
                    let on_ring = rr == r0 || rr == r1 || cc == c0 || cc == c1;
                    if !on_ring && ring > 0 {
                        continue;
                    }
                    for &s in &self.buckets[rr * self.cols + cc] {
                        let (a, b) = self.segments[s as usize];
                        best = best.min(segment_distance(p, self.points[a], self.points[b]));
                    }
                }
            }
        }
        best
    }
}

/// Distance from `p` to segment `a`–`b`, metres.
pub fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a[0] + t * dx, a[1] + t * dy);
    ((p[0] - qx).powi(2) + (p[1] - qy).powi(2)).sqrt()
}

/// Mean and maximum distance from each point of `from` to the polyline `to` (closed), metres.
pub fn line_distance(from: &[[f64; 2]], to: &[[f64; 2]]) -> (f64, f64) {
    if from.is_empty() || to.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let index = PolylineIndex::new(to, true, 0.5);
    let d: Vec<f64> = from.iter().map(|&p| index.distance(p)).collect();
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    let max = d.iter().cloned().fold(0.0, f64::max);
    (mean, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(p: [f64; 2], pts: &[[f64; 2]]) -> f64 {
        let n = pts.len();
        (0..n)
            .map(|i| segment_distance(p, pts[i], pts[(i + 1) % n]))
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn grid_distance_equals_brute_force() {
        // A wobbly closed loop and query points inside, on and far outside it.
        let pts: Vec<[f64; 2]> = (0..300)
            .map(|i| {
                let t = i as f64 / 300.0 * std::f64::consts::TAU;
                let r = 10.0 + 2.0 * (3.0 * t).sin();
                [r * t.cos(), 0.6 * r * t.sin()]
            })
            .collect();
        let index = PolylineIndex::new(&pts, true, 0.5);
        let mut state = 12345u64;
        for _ in 0..500 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 60.0;
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let y = ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 60.0;
            let (a, b) = (index.distance([x, y]), brute([x, y], &pts));
            assert!((a - b).abs() < 1e-12, "at ({x}, {y}): grid {a}, brute {b}");
        }
    }
}
