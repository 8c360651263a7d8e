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
mod point;
mod polyline;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod walls;

pub use index::{Nearest, NearestSegment, PointIndex, SegmentIndex};
pub use point::{Norm, Point};
pub use polyline::{
    closed_arc_lengths, closed_length, closed_segment_lengths, closest_on_segment,
    offset_along_normals, offset_point, point_segment_distance, project_closed, resample_closed,
    resample_closed_numpy, resample_from, signed_area2, Projection,
};
pub use walls::{NearestObstacle, Obstacle, ResampledWalls, Side, Walls};
