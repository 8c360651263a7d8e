//! A uniform bucket grid over points, for the near-pair test of a random loop.

/// Uniform bucket grid over points; `near` lists the points in the 3×3 cells around a query.
pub(crate) struct Grid {
    cell: f64,
    min: [f64; 2],
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl Grid {
    /// A grid of cells at least `cell` wide over `points`.
    pub(crate) fn new(points: impl Iterator<Item = [f64; 2]> + Clone, cell: f64) -> Self {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in points.clone() {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        // Coarser cells for huge extents keep the bucket count bounded; a cell
        // at least `cell` wide still finds every pair within `cell`.
        const MAX_CELLS: f64 = 1024.0;
        let cell = cell
            .max((max[0] - min[0]) / MAX_CELLS)
            .max((max[1] - min[1]) / MAX_CELLS);
        let cols = ((max[0] - min[0]) / cell) as usize + 1;
        let rows = ((max[1] - min[1]) / cell) as usize + 1;
        let mut grid = Grid {
            cell,
            min,
            cols,
            rows,
            buckets: vec![Vec::new(); cols * rows],
        };
        for (i, p) in points.enumerate() {
            let (c, r) = grid.cell_of(p);
            grid.buckets[r * cols + c].push(i);
        }
        grid
    }

    /// The cell (col, row) holding `p`, clamped into the grid.
    fn cell_of(&self, p: [f64; 2]) -> (usize, usize) {
        let c = ((p[0] - self.min[0]) / self.cell).max(0.0) as usize;
        let r = ((p[1] - self.min[1]) / self.cell).max(0.0) as usize;
        (c.min(self.cols - 1), r.min(self.rows - 1))
    }

    /// Indices of the points in the 3×3 cells around `p`.
    pub(crate) fn near(&self, p: [f64; 2]) -> impl Iterator<Item = usize> + '_ {
        let (c, r) = self.cell_of(p);
        let (c0, c1) = (c.saturating_sub(1), (c + 1).min(self.cols - 1));
        let (r0, r1) = (r.saturating_sub(1), (r + 1).min(self.rows - 1));
        (r0..=r1).flat_map(move |rr| {
            (c0..=c1).flat_map(move |cc| self.buckets[rr * self.cols + cc].iter().copied())
        })
    }
}
