//! Stages 7–9 as public functions over [`RacelineParams`]: the reference prep (DESIGN §3.7),
//! the iterated minimum-curvature QP (§3.8) and the shortest-path shifts (§3.9).

use crate::error::OptimizeError;
use crate::iqp::IqpSolution;
use crate::params::RacelineParams;
use crate::prep::RefTrack;
use crate::spline::ClosedSpline;
use crate::stage::Stage;

/// Stage 7: the smoothed reference line with widths (TUM `spline_approximation`): linear
/// interpolation at `stepsize_prep`, a periodic smoothing spline (s = `s_reg`), points every
/// ≈`stepsize_reg` metres, widths carried over.
pub fn prep(track: &RefTrack, params: &RacelineParams) -> Result<RefTrack, OptimizeError> {
    crate::prep::prep(track, params)
}

/// Stage 8: the iterated minimum-curvature QP on a prepped reference line at a safety width.
pub fn iqp(
    reference: &RefTrack,
    safety_width: f64,
    params: &RacelineParams,
) -> Result<IqpSolution, OptimizeError> {
    crate::iqp::iqp(
        reference,
        safety_width,
        params.curvlim,
        params.stepsize_reg,
        params.iqp_iters_min,
        params.iqp_iters_max,
        params.iqp_curverror_allowed,
        params.qp_solver,
    )
}

/// Stage 9: shortest-path shifts on a prepped reference line: (normals, smoothed α).
pub fn sp(
    reference: &RefTrack,
    safety_width: f64,
    params: &RacelineParams,
) -> Result<(Vec<[f64; 2]>, Vec<f64>), OptimizeError> {
    crate::iqp::check_width(reference, safety_width, Stage::Sp)?;
    let normals = ClosedSpline::through_scaled(&reference.xy)?.normals();
    let alpha = crate::sp::shortest_path_qp(reference, &normals, safety_width, params.qp_solver)?;
    let alpha = crate::sp::smooth_circular(&alpha, params.sp_alpha_smoothing_half_window);
    Ok((normals, alpha))
}
