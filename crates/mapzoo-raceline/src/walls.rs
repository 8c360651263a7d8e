//! Track walls for the racing-line stages: the right and left boundary
//! polylines, resampled at 0.1 m for nearest-distance widths (DESIGN §3
//! "Notes for parity": the SP's widths are nearest distances to the walls),
//! with a bucket grid for exact nearest-point queries.

use crate::error::{check_extent, check_finite, check_samples, OptimizeError};
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

    /// At least 3 finite points per wall, none beyond ±[`crate::error::MAX_COORD_M`], each wall
    /// at most [`crate::error::MAX_LAP_M`] long.
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
            check_extent(what, wall)?;
        }
        Ok(())
    }

    /// Rejects a `step` at which resampling the walls would give more than
    /// [`crate::error::MAX_SAMPLES`] points (call after [`Walls::check`]).
    pub fn check_resample(&self, step: f64) -> Result<(), OptimizeError> {
        for (what, wall) in [("right wall", &self.right), ("left wall", &self.left)] {
            let n = wall.len();
            let length: f64 = (0..n)
                .map(|i| {
                    let (a, b) = (wall[i], wall[(i + 1) % n]);
                    (b[0] - a[0]).hypot(b[1] - a[1])
                })
                .sum();
            check_samples(what, "wall_resample_step", length, step)?;
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

/// Most cells of a [`PointGrid`]: its cell grows beyond [`GRID_CELL_M`] so that a stray point
/// far from the rest cannot make the grid huge (4M cells ≈ 32 MB of offsets).
const GRID_MAX_CELLS: f64 = 4.0e6;

/// Preferred cell size of a [`PointGrid`], metres.
const GRID_CELL_M: f64 = 0.5;

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
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in &pts {
            for d in 0..2 {
                min[d] = min[d].min(p[d]);
                max[d] = max[d].max(p[d]);
            }
        }
        let (w, h) = (max[0] - min[0], max[1] - min[1]);
        // unchecked input (no points, or coordinates whose span overflows): one cell, searched
        // by brute force
        let (min, cell, nx, ny) = if w.is_finite() && h.is_finite() {
            let cell = grid_cell(w, h);
            let nx = ((w / cell).floor() as i64 + 1).max(1);
            let ny = ((h / cell).floor() as i64 + 1).max(1);
            (min, cell, nx, ny)
        } else {
            ([0.0; 2], 1.0, 1, 1)
        };
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

    /// Number of cells.
    #[cfg(test)]
    fn cells(&self) -> i64 {
        self.nx * self.ny
    }

    fn nearest(&self, q: [f64; 2]) -> f64 {
        if self.nx * self.ny == 1 {
            let best = self
                .pts
                .iter()
                .map(|p| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2))
                .fold(f64::INFINITY, f64::min);
            return best.sqrt();
        }
        // far queries are clamped (no overflow) and start at the first ring touching the grid,
        // so a point kilometres away costs O(nx + ny) rings, not O(distance²)
        let lim = 1e12;
        let qx = ((q[0] - self.min[0]) / self.cell).floor().clamp(-lim, lim) as i64;
        let qy = ((q[1] - self.min[1]) / self.cell).floor().clamp(-lim, lim) as i64;
        let gap = |c: i64, n: i64| {
            if c < 0 {
                -c
            } else if c >= n {
                c - n + 1
            } else {
                0
            }
        };
        let r0 = gap(qx, self.nx).max(gap(qy, self.ny));
        // smallest squared distance from q to the points of one cell
        let scan = |cx: i64, cy: i64| {
            let c = (cy * self.nx + cx) as usize;
            self.items[self.start[c]..self.start[c + 1]]
                .iter()
                .map(|&k| (self.pts[k][0] - q[0]).powi(2) + (self.pts[k][1] - q[1]).powi(2))
                .fold(f64::INFINITY, f64::min)
        };
        let mut best = f64::INFINITY;
        for r in r0..=r0 + self.nx + self.ny + 2 {
            for cy in (qy - r).max(0)..=(qy + r).min(self.ny - 1) {
                if r == 0 || cy == qy - r || cy == qy + r {
                    for cx in (qx - r).max(0)..=(qx + r).min(self.nx - 1) {
                        best = best.min(scan(cx, cy));
                    }
                } else {
                    for cx in [qx - r, qx + r] {
                        if (0..self.nx).contains(&cx) {
                            best = best.min(scan(cx, cy));
                        }
                    }
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

/// Cell size for a grid over a finite `w` × `h` metre extent: [`GRID_CELL_M`], or larger so
/// that the grid has at most [`GRID_MAX_CELLS`] cells.
fn grid_cell(w: f64, h: f64) -> f64 {
    let cells = |c: f64| ((w / c).floor() + 1.0) * ((h / c).floor() + 1.0);
    let mut cell = GRID_CELL_M;
    while cells(cell) > GRID_MAX_CELLS {
        cell *= 2.0;
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wall with one stray point 10 km away on the diagonal: a 0.5 m grid would have
    /// 4·10⁸ cells; the capped one stays under 4M and still answers exactly.
    #[test]
    fn stray_point_does_not_blow_up_the_grid() {
        let mut pts: Vec<[f64; 2]> = (0..400)
            .map(|i| {
                let t = i as f64 * std::f64::consts::TAU / 400.0;
                [5.0 * t.cos(), 5.0 * t.sin()]
            })
            .collect();
        pts.push([10_000.0, 10_000.0]);
        let grid = PointGrid::new(pts.clone());
        assert!(
            grid.cells() as f64 <= GRID_MAX_CELLS,
            "{} cells",
            grid.cells()
        );
        for q in [[0.0, 0.0], [5.0, 0.1], [9_000.0, 9_500.0], [-300.0, 40.0]] {
            let brute = pts
                .iter()
                .map(|p| (p[0] - q[0]).hypot(p[1] - q[1]))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(grid.nearest(q), brute, "query {q:?}");
        }
    }

    #[test]
    fn small_extents_keep_the_fine_cell() {
        assert_eq!(grid_cell(30.0, 20.0), GRID_CELL_M);
        assert_eq!(grid_cell(0.0, 0.0), GRID_CELL_M);
        let c = grid_cell(2e6, 2e6);
        assert!(
            ((2e6 / c).floor() + 1.0).powi(2) <= GRID_MAX_CELLS,
            "cell {c}"
        );
    }
}
