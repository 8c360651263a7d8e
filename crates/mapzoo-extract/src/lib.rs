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
//! The source is laid out by stage: `clean` (opening, track region), `thin`
//! (Lee skeleton), `cycle` (spur pruning, the loop around the infield),
//! `smooth` (circular Savitzky–Golay), `centerline` (metres, start and
//! direction, resampling, heading and curvature) and `walls` (contours, track
//! bounds); `leak` locates a wall gap when the track leaks; [`Mask`] is the
//! binary image they share. With the `reference` feature, the `reference` module holds
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
mod centerline;
mod clean;
mod cycle;
mod error;
mod holes;
mod leak;
mod mask;
mod noise;
mod note;
mod params;
mod passage;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod smooth;
mod thin;
mod unknown;
mod walls;

use std::time::Instant;

use mapzoo_format::{OccupancyMap, Waypoint};

pub use centerline::{orient, Centerline, StartPose};
pub use clean::{free_space, free_space_near, Component, FreeSpace};
pub use cycle::{skeleton_loop, SkeletonLoop};
pub use error::{ExtractError, LoopCandidate, MapPoint};
pub use leak::check_infield;
pub use mask::Mask;
pub use note::ExtractNote;
pub use params::ExtractParams;
pub use passage::{loop_mask, passages, Passage};
pub use smooth::{smooth, SmoothedLoop};
pub use thin::skeletonize;
pub use walls::{contours, loop_clearance, track_bounds, Contours, Track};

/// Everything the extraction produces for one map.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// Centerline waypoints ≈`spacing_m` apart, s_m = spacing·id, psi/kappa/d_right/d_left set, vx = ax = 0; not closed.
    pub centerline: Vec<Waypoint>,
    /// Right wall, world metres: boundary pixel centres of the track region, in the Race
    /// Stack's (OpenCV contour) order.
    pub right_wall: Vec<[f64; 2]>,
    /// Left wall, world metres, as `right_wall`.
    pub left_wall: Vec<[f64; 2]>,
    /// The obstacles inside the track region (walls of their own, each on one side).
    pub obstacles: Vec<mapzoo_geom::Obstacle>,
    /// The cleaned track-only free mask, row-major like [`OccupancyMap::free`].
    pub track_free: Vec<bool>,
    /// Seconds spent in each stage, in order.
    pub timings: Vec<(&'static str, f64)>,
    /// Chebyshev radius of the opening actually used, pixels (smaller than asked when it was shrunk).
    pub opening_radius_px: usize,
    /// What the extraction assumed or changed that the user should know (empty on a plain map).
    pub notes: Vec<ExtractNote>,
}

/// Seconds spent per stage, from one lap to the next.
struct Clock {
    t: Instant,
    timings: Vec<(&'static str, f64)>,
}

impl Clock {
    fn start() -> Self {
        Clock {
            t: Instant::now(),
            timings: Vec::new(),
        }
    }

    fn lap(&mut self, stage: &'static str) {
        let now = Instant::now();
        self.timings.push((stage, (now - self.t).as_secs_f64()));
        self.t = now;
    }
}

/// Checks that `map` is usable: its sizes agree, resolution > 0, finite origin.
pub(crate) fn check_map(map: &OccupancyMap) -> Result<(), ExtractError> {
    let (width, height) = (map.width, map.height);
    if width == 0 || height == 0 || map.free.len() != width * height {
        return Err(ExtractError::BadMap {
            width,
            height,
            len: map.free.len(),
        });
    }
    let sane = map.resolution.is_finite()
        && map.resolution > 0.0
        && map.origin.iter().all(|v| v.is_finite());
    if !sane {
        return Err(ExtractError::Param {
            field: "map",
            why: format!(
                "needs a resolution > 0 and a finite origin (found {} and {:?}); fix the map YAML",
                map.resolution, map.origin
            ),
        });
    }
    Ok(())
}

/// `start`, or the default start pose (the map origin, yaw 0), checked to be finite.
fn start_pose(map: &OccupancyMap, start: Option<StartPose>) -> Result<StartPose, ExtractError> {
    let start = start.unwrap_or(StartPose {
        x: map.origin[0],
        y: map.origin[1],
        yaw: 0.0,
    });
    if !(start.x.is_finite() && start.y.is_finite() && start.yaw.is_finite()) {
        return Err(ExtractError::Param {
            field: "start",
            why: format!(
                "must be finite x, y, yaw (found {}, {}, {})",
                start.x, start.y, start.yaw
            ),
        });
    }
    Ok(start)
}

/// Extracts the centerline, walls and boundary distances of `map` (DESIGN §3, stages 2–6).
///
/// `start` fixes waypoint 0 and the driving direction (default: the map origin, yaw 0);
/// `reverse` then drives the other way round. Where several loops are equally plausible,
/// a given `start` also picks the one nearest to it ([`free_space_near`]).
///
/// A uniform grey joined to the image border that counts as free while the track is lighter
/// (the ROS 2 map saver's unknown 205 under free_thresh 0.25, or another unknown grey) is
/// unknown space: its pixels are taken as not free, and the result carries an
/// [`ExtractNote::GreyIsUnknown`].
///
/// Noise and drawn annotations inside free space (lone unknown or light-grey pixels, dots
/// and one-pixel traces of a driven line, none occupied; the `noise` module) are taken as free, never an
/// obstacle; those inside the track are named in an [`ExtractNote::NoiseIgnored`].
pub fn extract(
    map: &OccupancyMap,
    params: &ExtractParams,
    start: Option<StartPose>,
    reverse: bool,
) -> Result<Extraction, ExtractError> {
    let (known, grey_note) = match unknown::border_grey_as_unknown(map) {
        Some((known, note)) => (Some(known), Some(note)),
        None => (None, None),
    };
    let known = known.as_ref().unwrap_or(map);
    let mut ex = match noise::drop_specks(known) {
        Some((clean, specks)) => {
            let mut ex = extract_as_classified(&clean, params, start, reverse)?;
            if let Some(n) = note::specks_in_track(&clean, &specks, &ex.track_free) {
                ex.notes.insert(0, n);
            }
            ex
        }
        None => extract_as_classified(known, params, start, reverse)?,
    };
    if let Some(n) = grey_note {
        ex.notes.insert(0, n);
    }
    Ok(ex)
}

/// [`extract`] on the pixels as `map` classifies them.
fn extract_as_classified(
    map: &OccupancyMap,
    params: &ExtractParams,
    start: Option<StartPose>,
    reverse: bool,
) -> Result<Extraction, ExtractError> {
    params.validate()?;
    check_map(map)?;
    let given = start;
    let start = start_pose(map, start)?;
    let mut clock = Clock::start();
    let space = free_space_near(map, params, given.map(|_| start))?;
    let steered = loop_mask(&space, params.min_passage_m / map.resolution);
    clock.lap("clean");
    let skeleton = skeletonize(steered.as_ref().unwrap_or(&space.mask));
    clock.lap("thin");
    let skeleton_loop = skeleton_loop(map, &space, skeleton)?;
    clock.lap("loop");
    let contours = contours(&space);
    let clearance = loop_clearance(&space, &contours, &skeleton_loop);
    clock.lap("boundary");
    check_infield(map, &space, &skeleton_loop, &clearance)?;
    let smoothed = smooth(map, &space, &skeleton_loop, &clearance)?;
    clock.lap("smooth");
    let centerline = orient(&smoothed, start, reverse, params.spacing_m);
    clock.lap("resample");
    let track = track_bounds(map, &space, &contours, centerline);
    let track_free = space.image_mask().data;
    let notes = note::notes_of(map, &space);
    clock.lap("walls");
    Ok(Extraction {
        centerline: track.waypoints(),
        right_wall: track.right_wall,
        left_wall: track.left_wall,
        obstacles: track.obstacles,
        track_free,
        timings: clock.timings,
        opening_radius_px: space.opening_radius_px,
        notes,
    })
}
