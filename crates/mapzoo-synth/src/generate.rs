//! [`generate`]: options → centerline → framed image → free band, features and clutter →
//! [`SynthMap`] with its ground truth.

use mapzoo_format::MapMeta;
use mapzoo_geom::offset_point;

use crate::constants::KEEP_OFF_PX;
use crate::error::SynthError;
use crate::frame::{Bbox, Frame};
use crate::options::{CenterlineSpec, SynthOptions};
use crate::output::SynthMap;
use crate::raster::Field;
use crate::rng::{tag, SplitMix64};
use crate::track::Track;
use crate::truth::{GroundTruth, PlacedGap, PlacedPocket, PlacedSpur};
use crate::{clutter, place, raster, track};

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
