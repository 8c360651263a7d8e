//! Track walls (DESIGN §3.6 and "Notes for parity"): the right and left
//! boundaries as closed polylines, the one way to rebuild them from a line ±
//! its widths along normals, and their 0.1 m resampling indexed for the
//! nearest-distance widths the shortest path and the output files use.

use crate::index::PointIndex;
use crate::polyline::{offset_along_normals, resample_closed_numpy};
use crate::{Norm, Point};

/// Cell of the nearest-point grids over resampled walls, metres.
const WALL_GRID_CELL_M: f64 = 0.5;

/// The two track boundaries as closed polylines (last point not repeated), metres.
///
/// ```
/// use mapzoo_geom::Walls;
/// // A straight 1 m piece of line with its right normal (−y), 0.5 m to each side.
/// let walls = Walls::from_normals(&[[0.0, 0.0], [1.0, 0.0]], &[[0.0, -1.0]; 2], &[0.5; 2], &[0.5; 2]);
/// assert_eq!(walls.right, vec![[0.0, -0.5], [1.0, -0.5]]);
/// assert_eq!(walls.left, vec![[0.0, 0.5], [1.0, 0.5]]);
/// // Resampled every 0.1 m and indexed: distances from a point to both walls.
/// let (d_right, d_left) = walls.resampled(0.1).distances([0.5, 0.0]);
/// assert!((d_right - 0.5).abs() < 1e-12 && (d_left - 0.5).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walls {
    /// Right wall (in the driving direction), metres.
    pub right: Vec<Point>,
    /// Left wall, metres.
    pub left: Vec<Point>,
}

impl Walls {
    /// Walls rebuilt from a line: point i moved `d_right[i]` metres along its right-pointing
    /// unit normal `normals[i]` (right wall) and `d_left[i]` metres against it (left wall).
    /// The racing-line stage takes the normals of the closed spline through its centerline
    /// (`mapzoo_raceline::walls_from_centerline`).
    pub fn from_normals(
        pts: &[Point],
        normals: &[[f64; 2]],
        d_right: &[f64],
        d_left: &[f64],
    ) -> Self {
        let minus_left: Vec<f64> = d_left.iter().map(|d| -d).collect();
        Walls {
            right: offset_along_normals(pts, normals, d_right),
            left: offset_along_normals(pts, normals, &minus_left),
        }
    }

    /// Whether both walls are empty.
    pub fn is_empty(&self) -> bool {
        self.right.is_empty() && self.left.is_empty()
    }

    /// Both walls, right then left, with their names.
    pub fn named(&self) -> [(&'static str, &[Point]); 2] {
        [("right wall", &self.right), ("left wall", &self.left)]
    }

    /// Both walls resampled at ≈`step` metres ([`resample_closed_numpy`]) and indexed for
    /// nearest-point queries.
    pub fn resampled(&self, step: f64) -> ResampledWalls {
        let index = |w: &[Point]| {
            PointIndex::new(
                resample_closed_numpy(w, step),
                WALL_GRID_CELL_M,
                Norm::SqrtOfSquares,
            )
        };
        ResampledWalls {
            right: index(&self.right),
            left: index(&self.left),
        }
    }
}

/// Walls ready for distance queries.
#[derive(Debug, Clone)]
pub struct ResampledWalls {
    right: PointIndex,
    left: PointIndex,
}

impl ResampledWalls {
    /// Distances from `p` to the nearest point of the right and left wall, metres.
    pub fn distances(&self, p: Point) -> (f64, f64) {
        (self.right.distance(p), self.left.distance(p))
    }

    /// The resampled right wall points.
    pub fn right_points(&self) -> &[Point] {
        self.right.points()
    }

    /// The resampled left wall points.
    pub fn left_points(&self) -> &[Point] {
        self.left.points()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuilt_walls_lie_along_the_normals() {
        let pts = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]];
        let normals = [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0]];
        let w = Walls::from_normals(&pts, &normals, &[1.0, 2.0, 0.5], &[0.25, 0.5, 1.0]);
        assert_eq!(w.right, vec![[0.0, -1.0], [3.0, 0.0], [1.0, 1.5]]);
        assert_eq!(w.left, vec![[0.0, 0.25], [0.5, 0.0], [1.0, 0.0]]);
        assert_eq!(w.named()[1].0, "left wall");
        assert!(!w.is_empty() && Walls::default().is_empty());
    }

    #[test]
    fn resampled_square_walls_measure_widths() {
        let right: Vec<Point> = vec![[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]];
        let left: Vec<Point> = vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let r = Walls { right, left }.resampled(0.1);
        assert_eq!(r.right_points().len(), 160);
        assert_eq!(r.left_points().len(), 80);
        let (dr, dl) = r.distances([1.5, 0.0]);
        assert!((dr - 0.5).abs() < 1e-12 && (dl - 0.5).abs() < 1e-12);
    }
}
