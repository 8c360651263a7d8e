//! Plane geometry shared by every MapZoo stage (DESIGN §3): closed
//! polylines (arc length, resampling, projection, signed area, offsets), a
//! nearest-point index and a nearest-segment index over a bucket grid, angle
//! wrapping, and the track walls.
//!
//! Points are `[x, y]` in metres. Closed polylines are unclosed slices: the
//! last point is not a copy of the first, the closing segment is implied.
//! Where two stages compute the same quantity with a different order of
//! floating-point operations (the extraction versus TUM's NumPy code), both
//! forms are kept, named by what they reproduce, because published files
//! depend on their last bits; [`Norm`] selects the distance formula.
//!
//! Everything is at the crate root except two themed namespaces: [`angle`]
//! (the four angle wrappings) and [`numpy`] (NumPy's `linspace` / `interp`,
//! bit for bit). With the `reference` feature, the `reference` module holds the naive
//! twins of the indices.
//!
//! ```
//! use mapzoo_geom::{closed_length, Norm, PointIndex};
//! let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
//! assert_eq!(closed_length(&square, Norm::Hypot), 4.0);
//! let index = PointIndex::new(square.to_vec(), 0.5, Norm::Hypot);
//! let near = index.nearest([0.9, 1.2]).unwrap();
//! assert_eq!(near.index, 2);
//! ```

#![warn(missing_docs)]

pub mod angle;
mod grid;
mod index;
pub mod numpy;
mod polyline;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod walls;

pub use index::{Nearest, NearestSegment, PointIndex, SegmentIndex};
pub use polyline::{
    closed_arc_lengths, closed_length, closed_segment_lengths, closest_on_segment,
    offset_along_normals, offset_point, point_segment_distance, project_closed, resample_closed,
    resample_closed_numpy, resample_from, signed_area2, Projection,
};
pub use walls::{NearestObstacle, Obstacle, ResampledWalls, Side, Walls};

/// A point in the plane, `[x, y]`, metres.
pub type Point = [f64; 2];

/// How the length of a difference vector (dx, dy) is rounded.
///
/// Both are the Euclidean norm; they may differ in the last bit, and published
/// files depend on which one a stage uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// `dx.hypot(dy)`: the extraction's distances and arc lengths.
    Hypot,
    /// `(dx² + dy²).sqrt()`, as NumPy computes a norm: TUM's helpers, the racing-line stages.
    SqrtOfSquares,
}

impl Norm {
    /// Length of the difference vector (dx, dy), metres.
    #[inline]
    pub fn length(self, dx: f64, dy: f64) -> f64 {
        match self {
            Norm::Hypot => dx.hypot(dy),
            Norm::SqrtOfSquares => (dx.powi(2) + dy.powi(2)).sqrt(),
        }
    }

    /// Distance between `a` and `b`, metres.
    #[inline]
    pub fn distance(self, a: Point, b: Point) -> f64 {
        self.length(b[0] - a[0], b[1] - a[1])
    }

    /// A key that orders distances from `q` to `p` as this norm does, cheaper to
    /// compare than the distance itself (the squared length for
    /// [`Norm::SqrtOfSquares`]); [`Norm::key_distance`] turns it into metres.
    #[inline]
    pub(crate) fn key(self, p: Point, q: Point) -> f64 {
        match self {
            Norm::Hypot => (p[0] - q[0]).hypot(p[1] - q[1]),
            Norm::SqrtOfSquares => (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2),
        }
    }

    /// The distance, metres, of a [`Norm::key`].
    #[inline]
    pub(crate) fn key_distance(self, key: f64) -> f64 {
        match self {
            Norm::Hypot => key,
            Norm::SqrtOfSquares => key.sqrt(),
        }
    }
}
