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
mod error;
mod frame;
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

pub use error::{Feature, SynthError};
pub use marks::{draw_trace, sprinkle};
pub use options::{
    CenterlineSpec, GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec, SynthOptions,
    WidthSpec,
};
pub use output::SynthMap;
pub use truth::{GroundTruth, PlacedGap, PlacedObstacle, PlacedPocket, PlacedSpur, TruthPoint};

use mapzoo_format::MapMeta;
use mapzoo_geom::offset_point;

use frame::{Bbox, Frame};
use raster::Field;
use rng::{tag, SplitMix64};
use track::Track;

/// Gray value of free pixels (map-server convention, p = 0.004).
pub const FREE: u8 = 254;
/// Gray value of occupied pixels (p = 1).
pub const OCCUPIED: u8 = 0;
/// Gray value of unknown pixels (p = 0.196: neither free nor occupied).
pub const UNKNOWN: u8 = 205;

/// Largest image side the generator accepts, pixels.
pub const MAX_SIDE: usize = 20_000;
/// Largest image the generator accepts, pixels in total.
pub const MAX_PIXELS: usize = 100_000_000;

/// Largest size of an obstacle, spur, pocket or gap, metres.
pub const MAX_FEATURE_M: f64 = 1000.0;
/// Longest random lap, metres.
pub const MAX_LAP_M: f64 = 5000.0;

/// Distance beyond the band edge, in pixels, that lidar rays, specks, blobs
/// and noise keep from the track so that they never touch it.
pub(crate) const KEEP_OFF_PX: f64 = 3.0;
/// Spacing of the random centerline's points, metres (MapZoo centerlines use 0.1 m).
pub(crate) const POINT_SPACING: f64 = 0.1;

/// Generates a map from the options; deterministic in (`seed`, options).
pub fn generate(opts: &SynthOptions) -> Result<SynthMap, SynthError> {
    opts.validate()?;
    let track = centerline(opts)?;

    let spurs = place::spurs(opts, &track)?;
    let pockets = place::pockets(opts, &track)?;
    let obstacles = place::obstacles(opts, &track);
    let frame = fit_frame(opts, &track, &spurs, &pockets)?;
    let gap = match &opts.wall_gap {
        Some(spec) => Some(place::gap(opts, spec, &track, &frame)?),
        None => None,
    };

    let field = free_field(opts, &track, &frame, &spurs, &pockets, gap.as_ref());
    let ramp = opts.anti_alias.unwrap_or(0.0);
    let mut gray = raster::gray_from_field(
        &field,
        ramp,
        opts.wall_thickness.map(|t| t / opts.resolution),
    );
    for ob in &obstacles {
        raster::carve_obstacle(&mut gray, &frame, ob, ramp);
    }
    clutter::add_unknown_blobs(opts, &mut gray, &field, &frame);
    clutter::add_lidar_rays(opts, &mut gray, &field, &frame, &track);
    clutter::add_specks(opts, &mut gray, &field, &frame);
    clutter::add_noise(opts, &mut gray, &field);

    let meta = MapMeta {
        image: "synth.png".to_string(),
        resolution: opts.resolution,
        origin: [frame.origin[0], frame.origin[1], 0.0],
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    };
    let lap_length = track.lap;
    let counter_clockwise = track.ccw;
    Ok(SynthMap {
        width: frame.width,
        height: frame.height,
        gray,
        meta,
        truth: GroundTruth {
            centerline: track.points,
            lap_length,
            counter_clockwise,
            obstacles,
            spurs,
            pockets,
            gap,
        },
    })
}

/// The centerline with its widths: random from the seed, or the given points.
fn centerline(opts: &SynthOptions) -> Result<Track, SynthError> {
    match &opts.centerline {
        CenterlineSpec::Random { lap_length } => {
            let lap = match lap_length {
                Some(l) => *l,
                None => SplitMix64::stream(opts.seed, tag::LAP).uniform(40.0, 150.0),
            };
            track::random_track(opts.seed, lap, opts.width, opts.min_wall)
        }
        CenterlineSpec::Points { points, widths } => {
            track::given_track(points, widths.as_deref(), opts.width, opts.seed)
        }
    }
}

/// The image frame: the bounding box of everything free, plus the margin.
fn fit_frame(
    opts: &SynthOptions,
    track: &Track,
    spurs: &[PlacedSpur],
    pockets: &[PlacedPocket],
) -> Result<Frame, SynthError> {
    let mut bbox = Bbox::empty();
    for p in &track.points {
        bbox.add_disc([p.x, p.y], p.d_left.max(p.d_right));
    }
    for sp in spurs {
        bbox.add_disc(sp.tip, sp.width / 2.0);
    }
    for pk in pockets {
        bbox.add_disc(pk.center, pk.radius);
    }
    Frame::fit(&bbox, opts)
}

/// The distance field of the free space: the band, spurs, pockets and the gap
/// corridor (pixel units).
fn free_field(
    opts: &SynthOptions,
    track: &Track,
    frame: &Frame,
    spurs: &[PlacedSpur],
    pockets: &[PlacedPocket],
    gap: Option<&PlacedGap>,
) -> Field {
    let res = opts.resolution;
    let ramp = opts.anti_alias.unwrap_or(0.0);
    let keep_off = KEEP_OFF_PX + 1.0;
    let reach = (ramp + 1.0)
        .max(keep_off)
        .max(opts.wall_thickness.map_or(0.0, |t| t / res + 1.0));
    let mut field = Field::new(frame.width, frame.height, reach);
    let centre_px: Vec<[f64; 2]> = track
        .points
        .iter()
        .map(|p| frame.to_px([p.x, p.y]))
        .collect();
    let radius_px: Vec<f64> = track.points.iter().map(|p| p.d_left / res).collect();
    field.band(&centre_px, &radius_px);
    for sp in spurs {
        let r = sp.width / 2.0 / res;
        field.capsule(frame.to_px(sp.root), frame.to_px(sp.tip), r, r);
    }
    for pk in pockets {
        let c = frame.to_px(pk.center);
        field.capsule(c, c, pk.radius / res, pk.radius / res);
    }
    if let Some(g) = gap {
        let r = g.width / 2.0 / res;
        let start = frame.to_px(track::point_at(track, g.s).0);
        // Past the border by the corridor's radius so that it is open across its whole width.
        let beyond = offset_point(g.border_world, g.direction, (r + 2.0) * res);
        field.capsule(start, frame.to_px(beyond), r, r);
    }
    field
}
