//! Stage 3's result (DESIGN §3.3): the loop of skeleton pixels around the infield
//! ([`SkeletonLoop`]), and the length and signed area of a closed pixel cycle.

use crate::mask::Mask;
#[cfg(doc)]
use crate::space::FreeSpace;

/// Stage 3's result: the skeleton loop around the infield.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletonLoop {
    /// Pixels of the loop as row-major indices into [`FreeSpace::mask`], in the order
    /// OpenCV's contour gives the Race Stack (`race_stack_order`); not closed.
    pub pixels: Vec<usize>,
}

/// Twice the shoelace area of a closed pixel polygon (indices into `grid`) in (column, row)
/// coordinates, pixels²: positive when it turns clockwise on screen.
pub(crate) fn pixel_area2(cycle: &[usize], grid: &Mask) -> i64 {
    let n = cycle.len();
    (0..n)
        .map(|k| {
            let (xa, ya) = grid.col_row(cycle[k]);
            let (xb, yb) = grid.col_row(cycle[(k + 1) % n]);
            xa as i64 * yb as i64 - xb as i64 * ya as i64
        })
        .sum()
}

/// Length of a closed pixel cycle (indices into `grid`), pixels.
pub fn cycle_length(cycle: &[usize], grid: &Mask) -> f64 {
    (0..cycle.len())
        .map(|k| {
            let (ca, ra) = grid.col_row(cycle[k]);
            let (cb, rb) = grid.col_row(cycle[(k + 1) % cycle.len()]);
            let dr = ra as f64 - rb as f64;
            let dc = ca as f64 - cb as f64;
            dr.hypot(dc)
        })
        .sum()
}
