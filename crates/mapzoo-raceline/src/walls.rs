//! Track walls for the racing-line stages: the right and left boundary
//! polylines, resampled at 0.1 m for nearest-distance widths (DESIGN §3
//! "Notes for parity": the SP's widths are nearest distances to the walls),
//! with a bucket grid for exact nearest-point queries.

use crate::error::{check_finite, OptimizeError};
use crate::numeric::{interp, linspace};
use crate::prep::RefTrack;
use crate::spline::{distance_scaling, ClosedSpline};

/// The two track boundaries as closed polylines (last point not repeated), metres.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walls {
    /// Right wall (in the driving direction), metres.
    pub right: Vec<[f64; 2]>,
    /// Left wall, metres.
    pub left: Vec<[f64; 2]>,
}

impl Walls {
    /// Walls rebuilt from a centerline: each point ± d_right / d_left along the normal of the
    /// closed (distance-scaled) spline through the centerline.
    pub fn from_centerline(track: &RefTrack) -> Result<Self, OptimizeError> {
        let scaling = distance_scaling(&track.xy);
        let normals = ClosedSpline::through(&track.xy, Some(&scaling))?.normals();
        let at = |i: usize, d: f64| {
            [
                track.xy[i][0] + normals[i][0] * d,
                track.xy[i][1] + normals[i][1] * d,
            ]
        };
        Ok(Walls {
            right: (0..track.len()).map(|i| at(i, track.w_right[i])).collect(),
            left: (0..track.len()).map(|i| at(i, -track.w_left[i])).collect(),
        })
    }

    /// At least 3 finite points per wall.
    pub fn check(&self) -> Result<(), OptimizeError> {
        for (what, wall) in [("right wall", &self.right), ("left wall", &self.left)] {
            if wall.len() < 3 {
                return Err(OptimizeError::TooFewPoints {
                    what,
                    found: wall.len(),
                    needed: 3,
                });
            }
            let flat: Vec<f64> = wall.iter().flat_map(|p| [p[0], p[1]]).collect();
            check_finite(what, &flat)?;
        }
        Ok(())
    }

    /// Both walls resampled at ≈`step` metres and indexed for nearest-point queries.
    pub fn resampled(&self, step: f64) -> ResampledWalls {
        ResampledWalls {
            right: PointGrid::new(resample_closed(&self.right, step)),
            left: PointGrid::new(resample_closed(&self.left, step)),
        }
    }
}

/// A closed polyline linearly resampled at equal spacing ≈`step`, closing point dropped
/// (the Python reference's `resample_closed`).
pub fn resample_closed(pts: &[[f64; 2]], step: f64) -> Vec<[f64; 2]> {
    let n = pts.len();
    let mut cum = Vec::with_capacity(n + 1);
    cum.push(0.0);
    let mut acc = 0.0;
    for i in 0..n {
        let a = pts[i];
        let b = pts[(i + 1) % n];
        acc += (b[0] - a[0]).hypot(b[1] - a[1]);
        cum.push(acc);
    }
    let num = (acc / step).ceil() as usize + 1;
    let s = linspace(0.0, acc, num);
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

/// Walls ready for distance queries.
#[derive(Debug, Clone)]
pub struct ResampledWalls {
    right: PointGrid,
    left: PointGrid,
}

impl ResampledWalls {
    /// Distances from `p` to the nearest point of the right and left wall, metres.
    pub fn distances(&self, p: [f64; 2]) -> (f64, f64) {
        (self.right.nearest(p), self.left.nearest(p))
    }

    /// The resampled right wall points.
    pub fn right_points(&self) -> &[[f64; 2]] {
        &self.right.pts
    }

    /// The resampled left wall points.
    pub fn left_points(&self) -> &[[f64; 2]] {
        &self.left.pts
    }
}

/// Uniform bucket grid over points for exact nearest-neighbour distance.
#[derive(Debug, Clone)]
struct PointGrid {
    pts: Vec<[f64; 2]>,
    min: [f64; 2],
    cell: f64,
    nx: i64,
    ny: i64,
    start: Vec<usize>,
    items: Vec<usize>,
}

impl PointGrid {
    fn new(pts: Vec<[f64; 2]>) -> Self {
        let cell = 0.5;
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in &pts {
            for d in 0..2 {
                min[d] = min[d].min(p[d]);
                max[d] = max[d].max(p[d]);
            }
        }
        let nx = (((max[0] - min[0]) / cell).floor() as i64 + 1).max(1);
        let ny = (((max[1] - min[1]) / cell).floor() as i64 + 1).max(1);
        let idx = |p: &[f64; 2]| -> usize {
            let cx = (((p[0] - min[0]) / cell).floor() as i64).clamp(0, nx - 1);
            let cy = (((p[1] - min[1]) / cell).floor() as i64).clamp(0, ny - 1);
            (cy * nx + cx) as usize
        };
        let ncell = (nx * ny) as usize;
        let mut count = vec![0usize; ncell + 1];
        for p in &pts {
            count[idx(p) + 1] += 1;
        }
        for i in 0..ncell {
            count[i + 1] += count[i];
        }
        let start = count.clone();
        let mut fill = count;
        let mut items = vec![0usize; pts.len()];
        for (k, p) in pts.iter().enumerate() {
            let c = idx(p);
            items[fill[c]] = k;
            fill[c] += 1;
        }
        PointGrid {
            pts,
            min,
            cell,
            nx,
            ny,
            start,
            items,
        }
    }

    fn nearest(&self, q: [f64; 2]) -> f64 {
        let qx = ((q[0] - self.min[0]) / self.cell).floor() as i64;
        let qy = ((q[1] - self.min[1]) / self.cell).floor() as i64;
        let mut best = f64::INFINITY;
        let max_r = self.nx + self.ny + qx.abs() + qy.abs() + 2;
        for r in 0..=max_r {
            for cy in (qy - r)..=(qy + r) {
                if cy < 0 || cy >= self.ny {
                    continue;
                }
                let on_edge_row = cy == qy - r || cy == qy + r;
                let mut cx = qx - r;
                while cx <= qx + r {
                    if cx >= 0 && cx < self.nx {
                        let c = (cy * self.nx + cx) as usize;
                        for &k in &self.items[self.start[c]..self.start[c + 1]] {
                            let p = self.pts[k];
                            let d = (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
                            if d < best {
                                best = d;
                            }
                        }
                    }
                    cx += if on_edge_row || r == 0 { 1 } else { 2 * r };
                }
            }
            // every point in ring r+1 or beyond is at least r·cell away
            let bound = r as f64 * self.cell;
            if best.is_finite() && best.sqrt() <= bound {
                break;
            }
        }
        best.sqrt()
    }
}
