//! Stages 2–6 chained for one map ([`extract`]): the map's grey read as the map server
//! would, noise dropped, then clean, thin, loop, boundary, smooth, resample and walls, each
//! stage timed; the result is an [`Extraction`].

use std::time::Instant;

use mapzoo_format::{OccupancyMap, Waypoint};

use crate::centerline::orient;
use crate::clean::{check_map, free_space_near};
use crate::cycle::skeleton_loop;
use crate::error::ExtractError;
use crate::leak::check_infield;
use crate::note::{self, ExtractNote};
use crate::params::ExtractParams;
use crate::passage::loop_mask;
use crate::pose::StartPose;
use crate::smooth::smooth;
use crate::thin::skeletonize;
use crate::walls::{contours, loop_clearance, track_bounds};
use crate::{noise, unknown};

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
    // the region's contours, its image mask and the notes on it do not depend on the
    // skeleton: they are made on a second thread while the region is thinned
    let (skeleton_loop, (contours, track_free, notes)) = std::thread::scope(|scope| {
        let space = &space;
        let beside = scope.spawn(move || {
            let contours = contours(space);
            (
                contours,
                space.image_mask().data,
                note::notes_of(map, space),
            )
        });
        let skeleton = skeletonize(steered.as_ref().unwrap_or(&space.mask));
        clock.lap("thin");
        let skeleton_loop = skeleton_loop(map, space, skeleton);
        clock.lap("loop");
        let beside = beside
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (skeleton_loop, beside)
    });
    let skeleton_loop = skeleton_loop?;
    let clearance = loop_clearance(&space, &contours, &skeleton_loop);
    clock.lap("boundary");
    check_infield(map, &space, &skeleton_loop, &clearance)?;
    let smoothed = smooth(map, &space, &skeleton_loop, &clearance)?;
    clock.lap("smooth");
    let centerline = orient(&smoothed, start, reverse, params.spacing_m);
    clock.lap("resample");
    let track = track_bounds(map, &space, &contours, centerline);
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
