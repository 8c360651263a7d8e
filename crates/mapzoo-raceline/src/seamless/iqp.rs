//! Stage 8 for seamless lines: the minimum-curvature QP iterated to its fixed point, with the
//! widths of every iteration measured to the walls.

use mapzoo_geom::{Norm, PointIndex};

use crate::error::OptimizeError;
use crate::iqp::{check_folds, shift_along_normals, CurvatureQp, IqpSolution};
use crate::params::RacelineParams;
use crate::prep::RefTrack;
use crate::qp::WarmStart;
use crate::spline::{distance_scaling, ClosedSpline};
use crate::stage::Stage;
use crate::walls::ResampledWalls;

use super::prep::with_wall_widths;

/// The share of each QP's shift taken once the first `iqp_iters_min` − 1 ramped steps are
/// done: the undamped iteration oscillates (on f its shifts stay at 0.3–1 m), halved steps
/// contract to the fixed point.
const DAMPING: f64 = 0.5;
/// Converged when the largest shift a QP asks for is below this, metres.
const TOLERANCE_M: f64 = 1e-4;
/// Cell of the narrowed knots' index, metres.
const CELL_M: f64 = 0.5;

/// The IQP line of `reference` at `safety_width`. As the reference's iteration (TUM
/// `iqp_handler`) each QP is taken about the previous line re-sampled every `stepsize_reg`,
/// the first on the distance-scaled spline and the first `iqp_iters_min` − 1 shifts ramped
/// by iteration/iters_min; then each shift is damped ([`DAMPING`]) and the iteration runs
/// until a QP shifts no knot by [`TOLERANCE_M`] (the reference stops after `iqp_iters_min`
/// QPs once its curvature error is below `iqp_curverror_allowed`, wherever the iterates are).
/// The widths of every line are its distances to the walls, not the previous widths less
/// the shift, so the corridor does not drift with the path the iteration took.
pub(crate) fn iqp(
    reference: &RefTrack,
    walls: &ResampledWalls,
    safety_width: f64,
    params: &RacelineParams,
) -> Result<IqpSolution, OptimizeError> {
    reference.check("iqp reference line")?;
    let (narrowing, mut rt) = Narrowing::of(reference, walls);
    let widths = |xy: Vec<[f64; 2]>| {
        let mut rt = with_wall_widths(xy, walls);
        narrowing.apply(&mut rt);
        rt
    };
    let mut scaling = distance_scaling(&rt.xy);
    let mut normals = ClosedSpline::through(&rt.xy, Some(&scaling))?.normals();
    let mut iteration = 0;
    let mut warm = WarmStart::default();
    loop {
        iteration += 1;
        let qp = CurvatureQp {
            reftrack: &rt,
            normals: &normals,
            scaling: &scaling,
            kappa_bound: params.curvlim,
            safety_width,
        };
        let mut alpha = qp.solve_warm(iteration, params.qp_solver, &mut warm)?;
        let largest = alpha.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
        crate::progress::report(crate::progress::Event::SeamlessIqpIteration {
            iteration,
            max: params.iqp_iters_max,
            shift_m: largest,
            tolerance_m: TOLERANCE_M,
        });
        if iteration >= params.iqp_iters_min && largest < TOLERANCE_M {
            check_folds(&rt, &normals, &alpha, Stage::Iqp)?;
            let curvature_error = qp.curvature_error(&alpha)?;
            return Ok(IqpSolution {
                reftrack: rt,
                normals,
                alpha,
                iterations: iteration,
                curvature_error,
            });
        }
        if iteration >= params.iqp_iters_max {
            return Err(OptimizeError::SeamlessNotConverged {
                iterations: iteration,
                shift_m: largest,
                tolerance_m: TOLERANCE_M,
            });
        }
        let taken = if iteration < params.iqp_iters_min {
            iteration as f64 / params.iqp_iters_min as f64
        } else {
            DAMPING
        };
        alpha.iter_mut().for_each(|a| *a *= taken);
        let shifted = shift_along_normals(&rt.xy, &normals, &alpha);
        let spline = ClosedSpline::through(&shifted, None)?;
        // the knot count is fixed once the ramp is done: a count that flips with the lap
        // length moves every knot along the line, and the line with it
        let sampled = if iteration < params.iqp_iters_min {
            spline.sample(params.stepsize_reg)
        } else {
            spline.sample_count(rt.len())
        };
        rt = widths(sampled.points);
        scaling = vec![1.0; rt.len()];
        normals = ClosedSpline::through(&rt.xy, None)?.normals();
    }
}

/// Where the reference is narrower than its walls (the obstacle clearance narrows it near an
/// obstacle a line came too close to and solves again, [`crate::clearance::keep_clear`]):
/// every later line's widths are narrowed by the cut of the reference knot nearest to each
/// of its knots.
struct Narrowing {
    /// The reference knots, indexed; `None` when none is narrowed.
    knots: Option<PointIndex>,
    /// The cut on the right and left of each reference knot, metres.
    cuts: Vec<(f64, f64)>,
}

impl Narrowing {
    /// The narrowing of `reference` against `walls`, and the reference with the widths it
    /// gives its own knots (its wall distances less its cuts).
    fn of(reference: &RefTrack, walls: &ResampledWalls) -> (Self, RefTrack) {
        let n = reference.len();
        let mut cuts = Vec::with_capacity(n);
        let mut first = RefTrack {
            xy: reference.xy.clone(),
            w_right: Vec::with_capacity(n),
            w_left: Vec::with_capacity(n),
        };
        for (i, &p) in reference.xy.iter().enumerate() {
            let (right, left) = walls.polyline_distances(p);
            let cut = (
                (right - reference.w_right[i]).max(0.0),
                (left - reference.w_left[i]).max(0.0),
            );
            first.w_right.push(right - cut.0);
            first.w_left.push(left - cut.1);
            cuts.push(cut);
        }
        let narrowed = cuts.iter().any(|&(r, l)| r > 0.0 || l > 0.0);
        let narrowing = Narrowing {
            knots: narrowed.then(|| PointIndex::new(reference.xy.clone(), CELL_M, Norm::Hypot)),
            cuts,
        };
        (narrowing, first)
    }

    fn apply(&self, rt: &mut RefTrack) {
        let Some(knots) = &self.knots else {
            return;
        };
        for (i, &p) in rt.xy.iter().enumerate() {
            if let Some(near) = knots.nearest(p) {
                let (right, left) = self.cuts[near.index];
                rt.w_right[i] -= right;
                rt.w_left[i] -= left;
            }
        }
    }
}
