//! The bucket grid under [`crate::PointIndex`] and [`crate::SegmentIndex`]:
//! square cells over a bounding box, capped in number, searched ring by ring
//! around a query.

use crate::Point;

/// Most cells of a grid: the cell grows beyond the requested size so that a stray point far
/// from the rest cannot make the grid huge (4M cells ≈ 32 MB of offsets).
pub(crate) const MAX_CELLS: f64 = 4.0e6;

/// Cell size used when a caller asks for a non-positive or non-finite one, metres.
pub(crate) const DEFAULT_CELL_M: f64 = 0.5;

/// Square cells of `cell` metres over a box from `min`, `nx` × `ny` of them, row-major.
#[derive(Debug, Clone)]
pub(crate) struct Grid {
    min: Point,
    cell: f64,
    nx: i64,
    ny: i64,
}

impl Grid {
    /// A grid over the bounding box of `pts` (non-finite coordinates ignored) with cells of
    /// `cell` metres, or larger ([`cell_size`]). Without points, or when the box's span
    /// overflows, one cell (searched by brute force).
    pub(crate) fn over(pts: impl Iterator<Item = Point>, cell: f64) -> Self {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in pts {
            for d in 0..2 {
                min[d] = min[d].min(p[d]);
                max[d] = max[d].max(p[d]);
            }
        }
        let (w, h) = (max[0] - min[0], max[1] - min[1]);
        if !(w.is_finite() && h.is_finite()) {
            return Grid {
                min: [0.0; 2],
                cell: 1.0,
                nx: 1,
                ny: 1,
            };
        }
        let cell = cell_size(w, h, cell);
        let nx = ((w / cell).floor() as i64 + 1).max(1);
        let ny = ((h / cell).floor() as i64 + 1).max(1);
        Grid { min, cell, nx, ny }
    }

    /// Number of cells.
    pub(crate) fn cells(&self) -> usize {
        (self.nx * self.ny) as usize
    }

    /// Column and row of the cell holding `p`, clamped into the grid.
    pub(crate) fn cell_xy(&self, p: Point) -> (i64, i64) {
        let cx = (((p[0] - self.min[0]) / self.cell).floor() as i64).clamp(0, self.nx - 1);
        let cy = (((p[1] - self.min[1]) / self.cell).floor() as i64).clamp(0, self.ny - 1);
        (cx, cy)
    }

    /// Index of the cell at column `cx`, row `cy`.
    pub(crate) fn at(&self, cx: i64, cy: i64) -> usize {
        (cy * self.nx + cx) as usize
    }

    /// Index of the cell holding `p`, clamped into the grid.
    pub(crate) fn index(&self, p: Point) -> usize {
        let (cx, cy) = self.cell_xy(p);
        self.at(cx, cy)
    }

    /// The cells that may hold a point of the box from `lo` to `hi`: those it overlaps and
    /// one more all round (so that rounding at a cell edge cannot lose a point).
    pub(crate) fn box_cells(&self, lo: Point, hi: Point) -> impl Iterator<Item = usize> + '_ {
        let (c0, r0) = self.cell_xy(lo);
        let (c1, r1) = self.cell_xy(hi);
        let (c0, c1) = ((c0 - 1).max(0), (c1 + 1).min(self.nx - 1));
        let (r0, r1) = ((r0 - 1).max(0), (r1 + 1).min(self.ny - 1));
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| self.at(c, r)))
    }

    /// Calls `scan(state, cell)` on the cells around `q` ring by ring (ring r: the cells r
    /// columns or rows from q's cell), from the first ring that touches the grid, so that a
    /// query kilometres away costs O(nx + ny) rings, not O(distance²). `best(state)` is the
    /// distance, metres, of the best item found so far (infinite while there is none), and
    /// `scan` says whether it may have changed: a cell whose box lies farther than that from
    /// `q` is not scanned, and the search stops when every cell of the rings still to come
    /// does. An item may be scanned in any cell that holds a point of it (a point item, or
    /// the closest point of a segment lying in the cells its box overlaps), so whatever can
    /// equal or beat the final best is scanned.
    ///
    /// The box distances are lower bounds with a slack ([`CellBounds`]) that covers the
    /// rounding of the cell coordinates, so the answer does not depend on them; compared with
    /// the plain ring search (every cell of every ring up to the best distance) this skips
    /// the corners of the square and the rows beyond the best distance.
    #[inline(always)]
    pub(crate) fn search<S>(
        &self,
        q: Point,
        state: &mut S,
        mut scan: impl FnMut(&mut S, usize) -> bool,
        best: impl Fn(&S) -> f64,
    ) {
        if self.nx * self.ny == 1 {
            scan(state, 0);
            return;
        }
        let bounds = CellBounds::new(self, q);
        // far queries are clamped (no overflow)
        let lim = 1e12;
        let qx = bounds.qx.floor().clamp(-lim, lim) as i64;
        let qy = bounds.qy.floor().clamp(-lim, lim) as i64;
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
        let mut limit = bounds.limit(best(state));
        for r in r0..=r0 + self.nx + self.ny + 2 {
            let (c0, c1) = ((qx - r).max(0), (qx + r).min(self.nx - 1));
            for cy in (qy - r).max(0)..=(qy + r).min(self.ny - 1) {
                let dy2 = bounds.gap2(bounds.qy, cy);
                if dy2 > limit {
                    continue;
                }
                if r == 0 || cy == qy - r || cy == qy + r {
                    // the whole ring row at its top and bottom: the columns that may hold a
                    // point within the limit (all of them near the query)
                    let (lo, hi) = if r > 1 {
                        bounds.columns(limit - dy2)
                    } else {
                        (c0, c1)
                    };
                    for cx in c0.max(lo)..=c1.min(hi) {
                        if scan(state, self.at(cx, cy)) {
                            limit = bounds.limit(best(state));
                        }
                    }
                } else {
                    // its two end cells in between
                    for cx in [qx - r, qx + r] {
                        if (0..self.nx).contains(&cx)
                            && dy2 + bounds.gap2(bounds.qx, cx) <= limit
                            && scan(state, self.at(cx, cy))
                        {
                            limit = bounds.limit(best(state));
                        }
                    }
                }
            }
            // the nearest cell of the rings beyond r, in each direction the grid goes on
            let mut beyond = f64::INFINITY;
            let mut more = false;
            if qx - r > 0 {
                beyond = beyond.min(bounds.gap2(bounds.qx, qx - r - 1));
                more = true;
            }
            if qx + r < self.nx - 1 {
                beyond = beyond.min(bounds.gap2(bounds.qx, qx + r + 1));
                more = true;
            }
            if qy - r > 0 {
                beyond = beyond.min(bounds.gap2(bounds.qy, qy - r - 1));
                more = true;
            }
            if qy + r < self.ny - 1 {
                beyond = beyond.min(bounds.gap2(bounds.qy, qy + r + 1));
                more = true;
            }
            if !more || beyond > limit {
                break;
            }
        }
    }
}

/// Lower bounds on the distance from a query to the points of a column or row of cells, in
/// cell units, squared: the gap between the query's cell coordinate and the cell's edges,
/// less a slack that covers the rounding of both cell coordinates. A finite indexed point
/// lies in the grid's box, so its cell coordinate is in [0, nx) (no clamping); a segment's
/// closest point may stray from the segment's box by a few ulps of its coordinates, which
/// the slack covers too.
struct CellBounds {
    /// The query in cell units from the grid's corner, as [`Grid::cell_xy`] computes it.
    qx: f64,
    qy: f64,
    /// Slack, cell units: orders of magnitude above the rounding of any coordinate involved.
    slack: f64,
    /// 1 / cell size, 1/metres.
    per_m: f64,
}

impl CellBounds {
    fn new(grid: &Grid, q: Point) -> Self {
        let qx = (q[0] - grid.min[0]) / grid.cell;
        let qy = (q[1] - grid.min[1]) / grid.cell;
        let extent =
            (grid.nx + grid.ny) as f64 + (grid.min[0].abs() + grid.min[1].abs()) / grid.cell;
        CellBounds {
            qx,
            qy,
            slack: 1e-12 * (4.0 + extent + qx.abs() + qy.abs()),
            per_m: 1.0 / grid.cell,
        }
    }

    /// Squared gap from query coordinate `q` to the cell coordinates [c, c + 1), less the
    /// slack; 0 where that is not positive or not a number.
    #[inline]
    fn gap2(&self, q: f64, c: i64) -> f64 {
        let gap = (c as f64 - q).max(q - (c + 1) as f64);
        let g = (gap - self.slack).max(0.0);
        g * g
    }

    /// The columns c with `gap2(qx, c) <= span`, and perhaps one more at each end, as
    /// (first, last); all of them while `span` is infinite.
    #[inline]
    fn columns(&self, span: f64) -> (i64, i64) {
        let reach = span.sqrt() + 2.0 * self.slack;
        let (first, last) = (self.qx - reach, self.qx + reach);
        // `as` saturates (±∞ become the extreme columns); ∞ − ∞ means every column
        (
            if first.is_nan() {
                i64::MIN
            } else {
                first.floor() as i64
            },
            if last.is_nan() {
                i64::MAX
            } else {
                last.floor() as i64
            },
        )
    }

    /// The squared bound, cell units, beyond which a cell cannot hold a point at `best`
    /// metres or less: (best / cell)² with a margin far above the rounding of the norms
    /// and of these bounds, never below 1e-280 (where the squares lose precision), infinite
    /// while there is no best.
    #[inline]
    fn limit(&self, best: f64) -> f64 {
        let t = best * self.per_m;
        (t * t * (1.0 + 1e-9)).max(1e-280)
    }
}

/// Cell size for a grid over a finite `w` × `h` metre extent: `preferred` (or
/// [`DEFAULT_CELL_M`] if that is not a positive number), doubled until the grid has at most
/// [`MAX_CELLS`] cells.
pub(crate) fn cell_size(w: f64, h: f64, preferred: f64) -> f64 {
    let cells = |c: f64| ((w / c).floor() + 1.0) * ((h / c).floor() + 1.0);
    let mut cell = if preferred > 0.0 && preferred.is_finite() {
        preferred
    } else {
        DEFAULT_CELL_M
    };
    while cells(cell) > MAX_CELLS {
        cell *= 2.0;
    }
    cell
}

/// Compressed buckets: the items of cell c are `items[start[c]..start[c + 1]]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Buckets {
    pub(crate) start: Vec<usize>,
    pub(crate) items: Vec<usize>,
}

impl Buckets {
    /// Buckets `(cell, item)` pairs; within a cell, items keep the order of `pairs`.
    pub(crate) fn new(ncell: usize, pairs: &[(usize, usize)]) -> Self {
        let mut count = vec![0usize; ncell + 1];
        for &(c, _) in pairs {
            count[c + 1] += 1;
        }
        for i in 0..ncell {
            count[i + 1] += count[i];
        }
        let start = count.clone();
        let mut fill = count;
        let mut items = vec![0usize; pairs.len()];
        for &(c, k) in pairs {
            items[fill[c]] = k;
            fill[c] += 1;
        }
        Buckets { start, items }
    }

    /// The items of cell `c`.
    pub(crate) fn cell(&self, c: usize) -> &[usize] {
        &self.items[self.start[c]..self.start[c + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_extents_keep_the_fine_cell() {
        assert_eq!(cell_size(30.0, 20.0, 0.5), 0.5);
        assert_eq!(cell_size(0.0, 0.0, 0.5), 0.5);
        assert_eq!(cell_size(1.0, 1.0, -1.0), DEFAULT_CELL_M);
        let c = cell_size(2e6, 2e6, 0.5);
        assert!(((2e6 / c).floor() + 1.0).powi(2) <= MAX_CELLS, "cell {c}");
    }
}
