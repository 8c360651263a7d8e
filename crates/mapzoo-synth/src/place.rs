//! Placement of the features along the track: obstacles inside it, spurs and
//! pockets into its walls, and the wall gap to the image border, each checked
//! against the rest of the track.

use std::f64::consts::{PI, TAU};

use crate::error::{Feature, SynthError};
use crate::frame::{ray_to_border, Frame};
use crate::options::{
    GapSpec, ObstacleShape, ObstacleSpec, PocketSpec, Side, SpurSpec, SynthOptions,
};
use crate::rng::{tag, SplitMix64};
use crate::track::{arc_gap, band_distance, point_at, resolve_side, side_normal, Track};
use crate::truth::{PlacedGap, PlacedObstacle, PlacedPocket, PlacedSpur};
use mapzoo_geom::offset_point;

use crate::constants::KEEP_OFF_PX;

/// Whether the straight corridor root + dir·u, u ∈ [from, to], radius `r`, keeps
/// `clear` metres from every part of the track (the part it leaves lies before `from`).
fn corridor_is_clear(
    track: &Track,
    root: [f64; 2],
    dir: [f64; 2],
    from: f64,
    to: f64,
    r: f64,
    clear: f64,
) -> bool {
    let step = 0.05_f64.min(r.max(0.01));
    let mut u = from;
    while u <= to {
        let q = offset_point(root, dir, u);
        if band_distance(track, q).0 < r + clear {
            return false;
        }
        u += step;
    }
    true
}

/// Distance along a corridor tilted by `tilt` from the wall normal beyond
/// which the corridor must be clear of the track: past the local edge by its
/// width and the clearance.
fn corridor_start(hw: f64, r: f64, clear: f64, tilt: f64) -> f64 {
    (hw + 2.0 * r + clear) / tilt.cos().max(0.2)
}

/// The given spurs, then the random ones (into the outer wall).
pub(crate) fn spurs(opts: &SynthOptions, track: &Track) -> Result<Vec<PlacedSpur>, SynthError> {
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    let build = |spec: &SpurSpec| -> Option<PlacedSpur> {
        let side = resolve_side(spec.side, track.ccw);
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(side, psi);
        // Positive angle tilts the spur towards the driving direction.
        let along = [psi.cos(), psi.sin()];
        let tilt = spec.angle.cos();
        let dir = offset_point([n[0] * tilt, n[1] * tilt], along, spec.angle.sin());
        let len = hw + spec.length;
        let r = spec.width / 2.0;
        let from = corridor_start(hw, r, clear, spec.angle);
        if !corridor_is_clear(track, p, dir, from, len, r, clear) {
            return None;
        }
        Some(PlacedSpur {
            s: spec.s.rem_euclid(track.lap),
            side,
            root: p,
            tip: offset_point(p, dir, len),
            width: spec.width,
        })
    };
    let refused = Refusal {
        what: Feature::Spur,
        s: |spec: &SpurSpec| spec.s,
        why: "it would come within reach of another part of the track; shorten it or move it",
    };
    let draw = |rng: &mut SplitMix64| SpurSpec {
        s: rng.uniform(0.0, track.lap),
        side: Side::Outer,
        length: rng.uniform(0.6, 1.8),
        width: rng.uniform(0.2, 0.45),
        angle: rng.uniform(-0.5, 0.5),
    };
    let rng = SplitMix64::stream(opts.seed, tag::SPURS);
    given_then_random(&opts.spurs, build, refused, opts.random_spurs, rng, draw)
}

/// Why a given feature spec could not be placed: the feature (from its index), where the spec
/// puts it along the lap, and what to do.
struct Refusal<S> {
    what: fn(usize) -> Feature,
    s: fn(&S) -> f64,
    why: &'static str,
}

impl<S> Refusal<S> {
    fn error(&self, i: usize, spec: &S) -> SynthError {
        SynthError::Placement {
            what: (self.what)(i),
            s: (self.s)(spec),
            why: self.why,
        }
    }
}

/// The `given` features placed by `build` (one it cannot place is the error `refused`), then
/// `random` more: for each, up to 30 specs drawn from `rng`, the first that can be placed.
fn given_then_random<S, P>(
    given: &[S],
    build: impl Fn(&S) -> Option<P>,
    refused: Refusal<S>,
    random: usize,
    mut rng: SplitMix64,
    mut draw: impl FnMut(&mut SplitMix64) -> S,
) -> Result<Vec<P>, SynthError> {
    let mut out = Vec::new();
    for (i, spec) in given.iter().enumerate() {
        out.push(build(spec).ok_or_else(|| refused.error(i, spec))?);
    }
    for _ in 0..random {
        for _try in 0..30 {
            if let Some(placed) = build(&draw(&mut rng)) {
                out.push(placed);
                break;
            }
        }
    }
    Ok(out)
}

/// The given pockets, then the random ones.
pub(crate) fn pockets(opts: &SynthOptions, track: &Track) -> Result<Vec<PlacedPocket>, SynthError> {
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    let w_max = track.points.iter().map(|p| p.width()).fold(0.0, f64::max);
    let build = |spec: &PocketSpec| -> Option<PlacedPocket> {
        let side = resolve_side(spec.side, track.ccw);
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(side, psi);
        let center = offset_point(p, n, hw + spec.depth - spec.radius);
        let window = 2.0 * spec.radius + PI * w_max;
        // The rim must keep `clear` from every part of the track outside the pocket's own stretch.
        let steps = 72;
        for k in 0..steps {
            let a = TAU * k as f64 / steps as f64;
            let q = offset_point(center, [a.cos(), a.sin()], spec.radius);
            let (d, s_near) = band_distance(track, q);
            if d < clear && arc_gap(track, s_near, spec.s) > window {
                return None;
            }
        }
        Some(PlacedPocket {
            s: spec.s.rem_euclid(track.lap),
            side,
            center,
            radius: spec.radius,
            depth: spec.depth,
        })
    };
    let refused = Refusal {
        what: Feature::Pocket,
        s: |spec: &PocketSpec| spec.s,
        why: "it would come within reach of another part of the track; make it smaller or move it",
    };
    let draw = |rng: &mut SplitMix64| PocketSpec {
        s: rng.uniform(0.0, track.lap),
        side: if rng.coin() { Side::Outer } else { Side::Inner },
        depth: rng.uniform(0.3, 0.8),
        radius: rng.uniform(0.5, 1.2),
    };
    let rng = SplitMix64::stream(opts.seed, tag::POCKETS);
    given_then_random(
        &opts.pockets,
        build,
        refused,
        opts.random_pockets,
        rng,
        draw,
    )
}

/// The given obstacles, then the random ones spread along the lap.
pub(crate) fn obstacles(opts: &SynthOptions, track: &Track) -> Vec<PlacedObstacle> {
    let place = |spec: &ObstacleSpec| -> PlacedObstacle {
        let (p, psi, hw) = point_at(track, spec.s);
        let n = side_normal(Side::Left, psi);
        let e = spec.shape.half_across();
        PlacedObstacle {
            s: spec.s.rem_euclid(track.lap),
            offset: spec.offset,
            center: offset_point(p, n, spec.offset),
            heading: psi,
            shape: spec.shape,
            passage_left: hw - spec.offset - e,
            passage_right: hw + spec.offset - e,
        }
    };
    let mut out: Vec<PlacedObstacle> = opts.obstacles.iter().map(place).collect();
    let k = opts.random_obstacles;
    if k > 0 {
        let mut rng = SplitMix64::stream(opts.seed, tag::OBSTACLES);
        let base = rng.uniform(0.0, track.lap);
        for i in 0..k {
            // Spread along the lap, so that obstacles do not pile up.
            let s = base + track.lap * (i as f64 + rng.uniform(0.2, 0.8)) / k as f64;
            let shape = if rng.coin() {
                ObstacleShape::Disc {
                    radius: rng.uniform(0.1, 0.25),
                }
            } else {
                ObstacleShape::Box {
                    length: rng.uniform(0.2, 0.5),
                    width: rng.uniform(0.2, 0.4),
                }
            };
            let (_, _, hw) = point_at(track, s);
            // Off-centre but leaving a passage on both sides.
            let room = (hw - shape.half_across()).max(0.0);
            let mag = rng.uniform(0.15, 0.5) * room;
            let offset = if rng.coin() { mag } else { -mag };
            out.push(place(&ObstacleSpec { s, offset, shape }));
        }
    }
    out
}

/// The wall gap: a straight corridor from the outer edge to the image border.
pub(crate) fn gap(
    opts: &SynthOptions,
    spec: &GapSpec,
    track: &Track,
    frame: &Frame,
) -> Result<PlacedGap, SynthError> {
    let mut rng = SplitMix64::stream(opts.seed, tag::GAP);
    // A given s is tried alone; a random one is redrawn until a corridor fits.
    let candidates: Vec<f64> = match spec.s {
        Some(s) => vec![s.rem_euclid(track.lap)],
        None => (0..24).map(|_| rng.uniform(0.0, track.lap)).collect(),
    };
    let side = resolve_side(Side::Outer, track.ccw);
    let r = spec.width / 2.0;
    let clear = (KEEP_OFF_PX * opts.resolution).max(0.1);
    // The wall normal first, then directions tilted from it, until one reaches
    // the border without passing near another part of the track.
    let tilts = [
        0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0, 1.25, -1.25,
    ];
    for &s in &candidates {
        let (p, psi, hw) = point_at(track, s);
        let n = side_normal(side, psi);
        for tilt in tilts {
            let (ts, tc) = f64::sin_cos(tilt);
            let dir = [n[0] * tc - n[1] * ts, n[0] * ts + n[1] * tc];
            let Some(len) = ray_to_border(frame, p, dir) else {
                continue;
            };
            let from = corridor_start(hw, r, clear, tilt);
            if len <= from || !corridor_is_clear(track, p, dir, from, len, r, clear) {
                continue;
            }
            // Where the corridor's axis leaves the band: bisect the edge distance.
            let (mut inside, mut outside) = (0.0, from);
            for _ in 0..40 {
                let mid = 0.5 * (inside + outside);
                if band_distance(track, offset_point(p, dir, mid)).0 < 0.0 {
                    inside = mid;
                } else {
                    outside = mid;
                }
            }
            let wall_world = offset_point(p, dir, 0.5 * (inside + outside));
            let border_world = offset_point(p, dir, len);
            return Ok(PlacedGap {
                s,
                side,
                width: spec.width,
                direction: dir,
                wall_world,
                wall_pixel: frame.pixel_of(wall_world),
                border_world,
                border_pixel: frame.pixel_of(border_world),
            });
        }
    }
    Err(SynthError::Placement {
        what: Feature::WallGap,
        s: candidates[0],
        why: "no straight corridor from there reaches the image border without crossing the track; choose another s or a larger margin",
    })
}
