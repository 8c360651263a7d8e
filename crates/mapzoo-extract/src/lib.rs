//! Extraction: occupancy map → cleaned free space → skeleton loop →
//! centerline, walls and boundary distances (DESIGN §3, stages 1–6).
//!
//! [`extract`] chains the stages, each a function with its own output type:
//!
//! | stage | function | output |
//! |---|---|---|
//! | 2 clean | [`free_space`] | [`FreeSpace`] (the track's component, its infield and obstacles) |
//! | 3a thin | [`skeletonize`] | [`Mask`] (the Lee skeleton) |
//! | 3b loop | [`skeleton_loop`] | [`SkeletonLoop`] (the cycle around the infield) |
//! | boundary | [`contours`], [`loop_clearance`] | [`Contours`], clearance per loop pixel |
//! | 4 smooth | [`smooth()`] (after [`check_infield`]) | [`SmoothedLoop`] (metres) |
//! | 5 resample | [`orient`] | [`Centerline`] (start, direction, 0.1 m, heading, curvature) |
//! | 6 walls | [`track_bounds`] | [`Track`] (walls, d_right / d_left) |
//!
//! The source is laid out by stage: `extraction` (the chain), `clean` (opening,
//! track region; its result `space`), `thin` (Lee skeleton), `cycle` (spur
//! pruning, the loop around the infield; its result `skeleton`), `smooth`
//! (circular Savitzky–Golay), `centerline` (metres, start and direction
//! (`pose`), resampling, heading and curvature) and `walls` (contours, track
//! bounds); `leak` locates a wall gap when the track leaks; `unknown` and
//! `noise` read the map's greys before cleaning; [`Mask`] is the binary image
//! they share, with its connected components (`bits` packs it 64 pixels to a
//! word for the opening). With the `reference` feature, the `reference` module holds
//! the naive twins of the fast kernels (opening, labelling, thinning,
//! Savitzky–Golay, the infield cycle) for property tests.
//!
//! ```
//! use mapzoo_extract::*;
//! use mapzoo_format::OccupancyMap;
//!
//! // A ring track 40 px wide around a round infield, 0.05 m per pixel.
//! let (width, height) = (200, 200);
//! let free: Vec<bool> = (0..width * height)
//!     .map(|i| {
//!         let (c, r) = ((i % width) as f64 - 100.0, (i / width) as f64 - 100.0);
//!         (40.0..80.0).contains(&c.hypot(r))
//!     })
//!     .collect();
//! let gray = free.iter().map(|&f| if f { 254 } else { 0 }).collect();
//! let map = OccupancyMap::from_free_mask(width, height, 0.05, [0.0; 3], gray, free);
//! let params = ExtractParams::default();
//! let start = StartPose { x: 5.0, y: 2.0, yaw: 0.0 };
//!
//! let space = free_space(&map, &params)?;
//! assert!(space.obstacles.is_empty() && !space.touches_border);
//! let skeleton_loop = skeleton_loop(&map, &space, skeletonize(&space.mask))?;
//! let contours = contours(&space);
//! let clearance = loop_clearance(&space, &contours, &skeleton_loop);
//! check_infield(&map, &space, &skeleton_loop, &clearance)?;
//! let smoothed = smooth(&map, &space, &skeleton_loop, &clearance)?;
//! let centerline = orient(&smoothed, start, false, params.spacing_m);
//! let track = track_bounds(&map, &space, &contours, centerline);
//!
//! // About 2π · 3 m of centerline, 1 m (± 4 px) from each wall; `extract` runs the same chain.
//! assert!((track.centerline.points.len() as f64 - 188.0).abs() < 3.0);
//! let widths = track.d_left.iter().chain(&track.d_right);
//! assert!(widths.into_iter().all(|d| (d - 1.0).abs() < 0.2));
//! let all = extract(&map, &params, Some(start), false)?;
//! assert_eq!(all.centerline, track.waypoints());
//! # Ok::<(), ExtractError>(())
//! ```

#![warn(missing_docs)]

mod barrier;
mod bits;
mod centerline;
mod clean;
mod cycle;
mod error;
mod extraction;
mod holes;
mod leak;
mod mask;
mod noise;
mod note;
mod params;
mod passage;
mod pose;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod skeleton;
mod smooth;
mod space;
mod thin;
mod unknown;
mod walls;

pub use centerline::{orient, Centerline};
pub use clean::{free_space, free_space_near};
pub use cycle::skeleton_loop;
pub use error::{ExtractError, LoopCandidate, MapPoint};
pub use extraction::{extract, Extraction};
pub use leak::check_infield;
pub use mask::{Component, Mask};
pub use note::ExtractNote;
pub use params::ExtractParams;
pub use passage::{loop_mask, passages, Passage};
pub use pose::StartPose;
pub use skeleton::SkeletonLoop;
pub use smooth::{smooth, SmoothedLoop};
pub use space::FreeSpace;
pub use thin::skeletonize;
pub use walls::{contours, loop_clearance, track_bounds, Contours, Track};
