//! Stage 7 for seamless lines: the reference line smoothed by a filter that treats every
//! point alike, with its widths measured to the walls.

use crate::error::OptimizeError;
use crate::params::RacelineParams;
use crate::prep::{check_reference, interp_track, RefTrack};
use crate::spline::ClosedSpline;
use crate::walls::ResampledWalls;

use super::smooth::smooth_closed;

/// The seamless reference line: the closed track linearly interpolated every ≈`stepsize_prep`
/// (evenly round the loop), smoothed by [`smooth_closed`] to the residual `s_reg` (the
/// reference's FITPACK smoothing factor, in the same units), points every ≈`stepsize_reg` of
/// the closed spline through the smoothed points, and d_right / d_left the distances from
/// each point to the walls.
pub(crate) fn prep(
    track: &RefTrack,
    walls: &ResampledWalls,
    params: &RacelineParams,
) -> Result<RefTrack, OptimizeError> {
    check_reference(track, params)?;
    let dense = interp_track(track, params.stepsize_prep).xy;
    let smoothed = smooth_closed(&dense, params.s_reg)?;
    let xy = ClosedSpline::through(&smoothed, None)?
        .sample(params.stepsize_reg)
        .points;
    Ok(with_wall_widths(xy, walls))
}

/// Points with their distances to the right and left wall as widths.
pub(crate) fn with_wall_widths(xy: Vec<[f64; 2]>, walls: &ResampledWalls) -> RefTrack {
    let (w_right, w_left) = xy.iter().map(|&p| walls.polyline_distances(p)).unzip();
    RefTrack {
        xy,
        w_right,
        w_left,
    }
}
