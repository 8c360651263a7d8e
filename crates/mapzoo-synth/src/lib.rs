//! Synthetic track maps: a closed centerline (given, or a smooth random loop
//! from a seed) rasterised with varying width into an 8-bit occupancy image
//! and its map-server metadata (DESIGN §2.1), with the ground truth beside it.
//!
//! Tests of the extraction stages (DESIGN §3, stages 1–6) compare against the
//! truth; benchmarks and `mapzoo generate` / `demo` use the same maps. The
//! free space is the union of capsules around the centerline segments (radius
//! = half the local width, interpolated along each segment), plus spurs,
//! pockets and a wall-gap corridor; obstacles are carved out of it. The band
//! is evaluated only beside each segment and in the wedge at each vertex
//! (checked against the plain capsule union by a property test), so a
//! 4000×4000 px map costs about a million distance evaluations and is
//! dominated by filling the image. Every random choice
//! comes from a SplitMix64 stream per feature, so the same seed and options
//! give byte-identical images on every build, and adding one feature does not
//! move the others.
//!
//! The crate is laid out by concern: [`SynthOptions`] (what to draw, validated
//! once), the track shape (a random radial Fourier loop or given points, with
//! its width profile), the placement of obstacles, spurs, pockets and the wall
//! gap, the rasterisation of the free band into gray pixels, the clutter away
//! from the track (unknown blobs, lidar rays, specks, noise) and the
//! [`SynthMap`] with its [`GroundTruth`] and files. [`draw_trace`] and [`sprinkle`] add
//! marks inside the track that are not obstacles (a grey trace of a driven line, lone grey
//! pixels) to a generated map. With the `testing`
//! feature, `tracks` holds the small test tracks the workspace's tests share.
//!
//! ```
//! use mapzoo_synth::{generate, CenterlineSpec, SynthOptions};
//!
//! let map = generate(&SynthOptions {
//!     seed: 7,
//!     centerline: CenterlineSpec::Random { lap_length: Some(40.0) },
//!     ..SynthOptions::default()
//! })?;
//! assert!((map.truth.lap_length - 40.0).abs() < 1e-9);
//! assert_eq!(map.gray.len(), map.width * map.height);
//! # Ok::<(), mapzoo_synth::SynthError>(())
//! ```

#![warn(missing_docs)]

mod clutter;
mod constants;
mod error;
mod frame;
mod generate;
mod marks;
mod options;
mod output;
mod place;
mod raster;
mod rng;
mod track;
#[cfg(any(test, feature = "testing"))]
pub mod tracks;
mod truth;

pub use constants::{FREE, MAX_FEATURE_M, MAX_LAP_M, MAX_PIXELS, MAX_SIDE, OCCUPIED, UNKNOWN};
pub use error::{Feature, SynthError};
pub use generate::generate;
pub use marks::{draw_trace, sprinkle};
pub use options::{
    CenterlineSpec, GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec, SynthOptions,
    WidthSpec,
};
pub use output::SynthMap;
pub use truth::{GroundTruth, PlacedGap, PlacedObstacle, PlacedPocket, PlacedSpur, TruthPoint};
