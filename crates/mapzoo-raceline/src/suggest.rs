//! What would build instead of a failed run (issue 11, item 7): a track too
//! narrow or too tight for the parameters fails once, saying the largest safety
//! width (or the smallest curvature limit) that builds, so nobody lowers the
//! width four times.
//!
//! The values are found by solving again: a bisection on a 0.01 m grid of
//! safety widths (at most about ten runs, the first at the narrowest width of
//! the loop, which usually builds) and, for the curvature limit, doubling then
//! a bisection on a 0.05 1/m grid. Each value reported was run and built.

use crate::clearance::note;
use crate::error::{ObstacleNote, OptimizeError, Remedy};
use crate::params::RacelineParams;
use crate::walls::Walls;

/// Grid of the safety widths tried, metres.
const WIDTH_STEP_M: f64 = 0.01;
/// Grid of the curvature limits tried, 1/m.
const CURVLIM_STEP: f64 = 0.05;
/// Doublings of the curvature limit tried before giving up.
const CURVLIM_DOUBLINGS: u32 = 4;

/// `err` with the obstacle that narrows the track and the remedy filled in, where `err` is
/// a too-narrow or too-tight failure; `run` runs the whole computation with other parameters.
pub(crate) fn explain<T>(
    mut err: OptimizeError,
    params: &RacelineParams,
    walls: Option<&Walls>,
    run: impl Fn(&RacelineParams) -> Result<T, OptimizeError>,
) -> OptimizeError {
    let builds = |p: &RacelineParams| p.validate().is_ok() && run(p).is_ok();
    match &mut err {
        OptimizeError::Infeasible {
            x,
            y,
            width,
            obstacle,
            remedy,
            ..
        } => {
            *obstacle = walls
                .and_then(|w| obstacle_at(w, params, [*x, *y], *width))
                .map(Box::new);
            **remedy = widest(params, Some(*width), &builds);
        }
        OptimizeError::TooTight { remedy, .. } => {
            **remedy = widest(params, None, &builds);
            remedy.curvlim = smallest_curvlim(params, &builds);
        }
        _ => {}
    }
    err
}

/// The obstacle of `walls` that bounds the track at `p`, where it is `width` wide.
fn obstacle_at(
    walls: &Walls,
    params: &RacelineParams,
    p: [f64; 2],
    width: f64,
) -> Option<ObstacleNote> {
    if walls.obstacles.is_empty() {
        return None;
    }
    let near = walls
        .resampled(params.wall_resample_step)
        .nearest_obstacle(p)?;
    // One of the two bounds there: within the width (plus a resampling step).
    (near.distance <= width + params.wall_resample_step)
        .then(|| note(&walls.obstacles[near.obstacle], width))
}

/// The parameters with both safety widths capped at `w`.
fn capped(params: &RacelineParams, w: f64) -> RacelineParams {
    RacelineParams {
        safety_width: params.safety_width.min(w),
        safety_width_sp: params.safety_width_sp.min(w),
        ..params.clone()
    }
}

/// The largest cap on both safety widths (0.01 m grid, below the current ones) that builds,
/// trying `narrowest` (the loop's narrowest width) first.
fn widest(
    params: &RacelineParams,
    narrowest: Option<f64>,
    builds: &impl Fn(&RacelineParams) -> bool,
) -> Remedy {
    let width_at = |k: i64| k as f64 * WIDTH_STEP_M;
    let ok = |k: i64| k > 0 && builds(&capped(params, width_at(k)));
    let failing = (params.safety_width.max(params.safety_width_sp) / WIDTH_STEP_M).ceil() as i64;
    let mut hi = failing - 1;
    if let Some(w) = narrowest.filter(|w| w.is_finite()) {
        hi = hi.min((w / WIDTH_STEP_M).floor() as i64);
    }
    let found = if ok(hi) {
        Some(hi)
    } else {
        let lo = hi / 2;
        ok(lo).then(|| {
            // lo builds, hi does not.
            let (mut lo, mut hi) = (lo, hi);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if ok(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        })
    };
    match found {
        Some(k) => {
            let p = capped(params, width_at(k));
            Remedy {
                safety_width: Some(p.safety_width),
                safety_width_sp: Some(p.safety_width_sp),
                curvlim: None,
            }
        }
        None => Remedy::default(),
    }
}

/// The smallest curvature limit (0.05 1/m grid, above the current one) that builds at the
/// given safety widths.
fn smallest_curvlim(
    params: &RacelineParams,
    builds: &impl Fn(&RacelineParams) -> bool,
) -> Option<f64> {
    let curvlim_at = |k: i64| k as f64 * CURVLIM_STEP;
    let ok = |k: i64| {
        builds(&RacelineParams {
            curvlim: curvlim_at(k),
            ..params.clone()
        })
    };
    let mut lo = (params.curvlim / CURVLIM_STEP).floor() as i64;
    let mut hi = None;
    let mut k = lo.max(1);
    for _ in 0..CURVLIM_DOUBLINGS {
        k *= 2;
        if ok(k) {
            hi = Some(k);
            break;
        }
        lo = k;
    }
    let mut hi = hi?;
    // lo does not build, hi does.
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(curvlim_at(hi))
}
