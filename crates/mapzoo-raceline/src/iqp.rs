//! Stage 8, the minimum-curvature racing line, iterated (DESIGN §3.8; TUM
//! `opt_min_curv`, `iqp_handler`).
//!
//! TUM builds the curvature QP densely: it inverts the 4N×4N spline system and
//! hands quadprog an N×N dense Hessian, O(N³). Here the spline's second
//! derivatives zx, zy at the knots are extra variables tied to the shifts α by
//! the cyclic tridiagonal C2 conditions (equalities). The linearised curvature
//! κᵢ = cᵢ·(x′ᵢ·zyᵢ − y′ᵢ·zxᵢ), with x′, y′ and cᵢ = (x′² + y′²)^(−3/2) frozen at
//! the reference, then depends on two variables per knot: P is block-diagonal
//! and every constraint row has O(1) entries, so Clarabel solves it in O(N) per
//! interior-point iteration. The objective is TUM's exactly:
//! ½αᵀHα + fᵀα = Σ ½(κᵢ − κ_ref,ᵢ)² + 2κ_ref,ᵢ(κᵢ − κ_ref,ᵢ), which up to a
//! constant is Σ ½κᵢ² + κ_ref,ᵢκᵢ. A strictly convex QP has one minimiser, so
//! both formulations give the same α.

use crate::error::OptimizeError;
use crate::prep::RefTrack;
use crate::qp::{QpProblem, QpSolver, WarmStart};
use crate::spline::{
    c2_rhs, c2_system, coefficients, distance_scaling, second_derivatives, ClosedSpline,
};
use crate::stage::Stage;
use crate::status::QpStatus;

/// One curvature QP: the reference line, its unit normals and the spline scaling it was built with.
#[derive(Debug, Clone, Copy)]
pub struct CurvatureQp<'a> {
    /// Reference line and widths.
    pub reftrack: &'a RefTrack,
    /// Unit normals at the reference points (pointing right).
    pub normals: &'a [[f64; 2]],
    /// Spline C1/C2 scaling per segment (all ones for TUM's unscaled re-fits).
    pub scaling: &'a [f64],
    /// Curvature bound, 1/m.
    pub kappa_bound: f64,
    /// Safety width (vehicle + margin), metres.
    pub safety_width: f64,
}

/// Derivatives of the spline through the reference at its knots, and the frozen curvature factors.
#[derive(Debug, Clone)]
pub struct Linearisation {
    /// x′ᵢ = P_i'(0) of the x spline, metres per unit t.
    pub xd: Vec<f64>,
    /// y′ᵢ.
    pub yd: Vec<f64>,
    /// cᵢ = (x′ᵢ² + y′ᵢ²)^(−3/2) (0 where the derivative vanishes).
    pub c: Vec<f64>,
    /// Curvature of the reference at the knots, 1/m.
    pub kappa_ref: Vec<f64>,
}

/// First (x′, y′) and second (zx, zy) derivatives of a closed spline at its knots.
struct KnotDerivatives {
    xd: Vec<f64>,
    yd: Vec<f64>,
    zx: Vec<f64>,
    zy: Vec<f64>,
}

fn spline_at_knots(
    xs: &[f64],
    ys: &[f64],
    scaling: &[f64],
) -> Result<KnotDerivatives, OptimizeError> {
    let zx = second_derivatives(xs, scaling)?;
    let zy = second_derivatives(ys, scaling)?;
    let xd = coefficients(xs, &zx, scaling)
        .iter()
        .map(|c| c[1])
        .collect();
    let yd = coefficients(ys, &zy, scaling)
        .iter()
        .map(|c| c[1])
        .collect();
    Ok(KnotDerivatives { xd, yd, zx, zy })
}

impl CurvatureQp<'_> {
    /// Check sizes and that the track is wide enough everywhere.
    fn check(&self, stage: Stage) -> Result<(), OptimizeError> {
        let n = self.reftrack.len();
        if self.normals.len() != n || self.scaling.len() != n {
            return Err(OptimizeError::Numerical {
                stage,
                message: format!(
                    "{} reference points but {} normals and {} scaling factors",
                    n,
                    self.normals.len(),
                    self.scaling.len()
                ),
            });
        }
        check_width(self.reftrack, self.safety_width, stage)
    }

    /// The reference spline's knot derivatives and curvature.
    pub fn linearisation(&self) -> Result<Linearisation, OptimizeError> {
        let xs: Vec<f64> = self.reftrack.xy.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = self.reftrack.xy.iter().map(|p| p[1]).collect();
        let kd = spline_at_knots(&xs, &ys, self.scaling)?;
        let n = xs.len();
        let mut lin = Linearisation {
            xd: Vec::with_capacity(n),
            yd: Vec::with_capacity(n),
            c: Vec::with_capacity(n),
            kappa_ref: Vec::with_capacity(n),
        };
        for i in 0..n {
            let (xd, yd) = (kd.xd[i], kd.yd[i]);
            let den = (xd * xd + yd * yd).powf(1.5);
            let c = if den != 0.0 { 1.0 / den } else { 0.0 };
            lin.xd.push(xd);
            lin.yd.push(yd);
            lin.c.push(c);
            lin.kappa_ref.push(c * (xd * kd.zy[i] - yd * kd.zx[i]));
        }
        Ok(lin)
    }

    /// Solve the sparse QP with the default solver; returns α (metres, positive to the right).
    #[cfg(any(test, feature = "reference"))]
    pub fn solve(&self, iteration: usize) -> Result<Vec<f64>, OptimizeError> {
        self.solve_with(iteration, QpSolver::default())
    }

    /// Solve the sparse QP with `solver`; returns α (metres, positive to the right).
    #[cfg(any(test, feature = "reference"))]
    pub fn solve_with(
        &self,
        iteration: usize,
        solver: QpSolver,
    ) -> Result<Vec<f64>, OptimizeError> {
        self.solve_warm(iteration, solver, &mut WarmStart::default())
    }

    /// As [`CurvatureQp::solve_with`], the interior point starting from the previous
    /// iteration's (`warm`, which then holds this one's).
    pub(crate) fn solve_warm(
        &self,
        iteration: usize,
        solver: QpSolver,
        warm: &mut WarmStart,
    ) -> Result<Vec<f64>, OptimizeError> {
        let qp = self.problem(solver)?;
        let x = qp.solve_polished_warm(Stage::Iqp, iteration, warm)?;
        Ok(x[..self.reftrack.len()].to_vec())
    }

    /// The worst relative residual or gap after `iterations` interior-point iterations of the
    /// banded solver from the cold start, without the polish (a bench's fixed amount of work
    /// per size, to show the O(N) cost of an iteration); `None` where the solve stopped
    /// earlier or its structure does not fit.
    #[cfg(any(test, feature = "reference"))]
    pub fn interior_point_iterations(&self, iterations: usize) -> Option<f64> {
        self.problem(QpSolver::Banded)
            .ok()?
            .interior_point_iterations(iterations)
    }

    /// As [`CurvatureQp::interior_point_iterations`] with Clarabel, for the same comparison
    /// at a fixed amount of work.
    #[cfg(any(test, feature = "reference"))]
    pub fn clarabel_iterations(&self, iterations: u32) -> Option<f64> {
        self.problem(QpSolver::Clarabel)
            .ok()?
            .clarabel_iterations(iterations)
    }

    /// The curvature QP for `solver`: variables α, zx, zy (N each), rows the C2 equalities
    /// for x and y, then the α bounds and the curvature bounds.
    fn problem(&self, solver: QpSolver) -> Result<QpProblem, OptimizeError> {
        self.check(Stage::Iqp)?;
        let lin = self.linearisation()?;
        let rt = self.reftrack;
        let n = rt.len();
        let (ia, izx, izy) = (0, n, 2 * n);
        let nvar = 3 * n;
        // rows: C2 equalities for x and y, then α bounds, then curvature bounds
        let mut qp = QpProblem::new(nvar, 2 * n, 4 * n, 3 * n, 20 * n);
        qp.set_knots(n);
        qp.set_solver(solver);

        // objective: per knot ½ (g·z)² + κ_ref (g·z), g = c (−y′, x′) on (zx, zy)
        for i in 0..n {
            let gx = -lin.c[i] * lin.yd[i];
            let gy = lin.c[i] * lin.xd[i];
            qp.hessian(izx + i, izx + i, gx * gx);
            qp.hessian(izx + i, izy + i, gx * gy);
            qp.hessian(izy + i, izy + i, gy * gy);
            qp.linear(izx + i, lin.kappa_ref[i] * gx);
            qp.linear(izy + i, lin.kappa_ref[i] * gy);
        }

        let (sub, diag, sup) = c2_system(self.scaling);
        let xs: Vec<f64> = rt.xy.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = rt.xy.iter().map(|p| p[1]).collect();
        let rhs_x = c2_rhs(&xs, self.scaling);
        let rhs_y = c2_rhs(&ys, self.scaling);
        for (dim, (iz, rhs)) in [(izx, &rhs_x), (izy, &rhs_y)].into_iter().enumerate() {
            for j in 0..n {
                let row = dim * n + j;
                let prev = (j + n - 1) % n;
                let next = (j + 1) % n;
                let sp = self.scaling[prev];
                qp.constraint(row, iz + prev, sub[j]);
                qp.constraint(row, iz + j, diag[j]);
                qp.constraint(row, iz + next, sup[j]);
                qp.constraint(row, ia + prev, -6.0 * self.normals[prev][dim]);
                qp.constraint(row, ia + j, 6.0 * (sp + 1.0) * self.normals[j][dim]);
                qp.constraint(row, ia + next, -6.0 * sp * self.normals[next][dim]);
                qp.bound(row, rhs[j]);
            }
        }
        let half = self.safety_width / 2.0;
        for i in 0..n {
            let gx = -lin.c[i] * lin.yd[i];
            let gy = lin.c[i] * lin.xd[i];
            let (r_up, r_lo, r_kup, r_klo) = (2 * n + i, 3 * n + i, 4 * n + i, 5 * n + i);
            qp.constraint(r_up, ia + i, 1.0);
            qp.constraint(r_lo, ia + i, -1.0);
            qp.bound(r_up, rt.w_right[i] - half);
            qp.bound(r_lo, rt.w_left[i] - half);
            qp.constraint(r_kup, izx + i, gx);
            qp.constraint(r_kup, izy + i, gy);
            qp.constraint(r_klo, izx + i, -gx);
            qp.constraint(r_klo, izy + i, -gy);
            qp.bound(r_kup, self.kappa_bound);
            qp.bound(r_klo, self.kappa_bound);
        }
        Ok(qp)
    }

    /// TUM's convergence measure: max |κ(x′ at solution) − κ(x′ at reference)| over the knots,
    /// both with the second derivatives of the spline through the shifted points, rad/m.
    pub fn curvature_error(&self, alpha: &[f64]) -> Result<f64, OptimizeError> {
        let lin = self.linearisation()?;
        let rt = self.reftrack;
        let shifted = shift_along_normals(&rt.xy, self.normals, alpha);
        let xs: Vec<f64> = shifted.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = shifted.iter().map(|p| p[1]).collect();
        let kd = spline_at_knots(&xs, &ys, self.scaling)?;
        let mut err: f64 = 0.0;
        for i in 0..rt.len() {
            let (zx, zy) = (kd.zx[i], kd.zy[i]);
            let orig = (lin.xd[i] * zy - lin.yd[i] * zx)
                / (lin.xd[i].powi(2) + lin.yd[i].powi(2)).powf(1.5);
            let (xd, yd) = (kd.xd[i], kd.yd[i]);
            let sol = (xd * zy - yd * zx) / (xd * xd + yd * yd).powf(1.5);
            err = err.max((sol - orig).abs());
        }
        Ok(err)
    }
}

/// Neighbouring normals that cross before the shifted points reach them fold the line back on
/// itself: (rᵢ₊₁ − rᵢ)·(pᵢ₊₁ − pᵢ) ≤ 0. Error with where and which knob helps.
pub fn check_folds(
    rt: &RefTrack,
    normals: &[[f64; 2]],
    alpha: &[f64],
    stage: Stage,
) -> Result<(), OptimizeError> {
    let n = rt.len();
    let r = shift_along_normals(&rt.xy, normals, alpha);
    let mut s = 0.0;
    for (i, &a) in alpha.iter().enumerate().take(n) {
        let j = (i + 1) % n;
        let (ri, rj) = (r[i], r[j]);
        let d = [rt.xy[j][0] - rt.xy[i][0], rt.xy[j][1] - rt.xy[i][1]];
        let len = d[0].hypot(d[1]);
        if (rj[0] - ri[0]) * d[0] + (rj[1] - ri[1]) * d[1] <= 0.0 {
            return Err(OptimizeError::CrossingNormals {
                stage,
                s_m: s,
                x: rt.xy[i][0],
                y: rt.xy[i][1],
                other_s_m: s + len,
                side: if a >= 0.0 { "right" } else { "left" },
                distance: a.abs(),
            });
        }
        s += len;
    }
    Ok(())
}

/// The points shifted along their unit normals: rᵢ = pᵢ + αᵢ·nᵢ, metres.
pub(crate) fn shift_along_normals(
    points: &[[f64; 2]],
    normals: &[[f64; 2]],
    alpha: &[f64],
) -> Vec<[f64; 2]> {
    points
        .iter()
        .zip(normals)
        .zip(alpha)
        .map(|((p, n), a)| [p[0] + a * n[0], p[1] + a * n[1]])
        .collect()
}

/// Track narrower than the safety width anywhere → error naming the narrowest point of the
/// whole loop (not the first too narrow one) and its width.
pub(crate) fn check_width(
    rt: &RefTrack,
    safety_width: f64,
    stage: Stage,
) -> Result<(), OptimizeError> {
    let half = safety_width / 2.0;
    let mut s = 0.0;
    let mut narrowest: Option<(f64, usize, f64)> = None;
    for i in 0..rt.len() {
        let dev_r = rt.w_right[i] - half;
        let dev_l = rt.w_left[i] - half;
        if -dev_r > dev_l || -dev_l > dev_r {
            let width = rt.w_right[i] + rt.w_left[i];
            if narrowest.is_none_or(|(w, _, _)| width < w) {
                narrowest = Some((width, i, s));
            }
        }
        let nxt = rt.xy[(i + 1) % rt.len()];
        s += ((nxt[0] - rt.xy[i][0]).powi(2) + (nxt[1] - rt.xy[i][1]).powi(2)).sqrt();
    }
    match narrowest {
        Some((width, i, s_m)) => Err(OptimizeError::Infeasible {
            stage,
            s_m,
            x: rt.xy[i][0],
            y: rt.xy[i][1],
            width,
            safety_width,
            obstacle: None,
            remedy: Box::default(),
        }),
        None => Ok(()),
    }
}

/// Result of the iterated IQP.
#[derive(Debug, Clone)]
pub struct IqpSolution {
    /// The reference line of the last QP (TUM returns this one), with its widths.
    pub reftrack: RefTrack,
    /// Its unit normals.
    pub normals: Vec<[f64; 2]>,
    /// The last QP's shifts, metres.
    pub alpha: Vec<f64>,
    /// QP solves run.
    pub iterations: usize,
    /// Curvature error of the last iteration, rad/m.
    pub curvature_error: f64,
}

/// Stage 8: iterate the curvature QP (TUM `iqp_handler`). The first QP uses the
/// distance-scaled spline of `reference`; each further one re-samples the shifted line at
/// `stepsize_reg` and re-fits an unscaled spline. The first `iters_min` − 1 steps are damped
/// by iteration/iters_min; stop once iteration ≥ iters_min and the curvature error ≤ allowed.
#[allow(clippy::too_many_arguments)]
pub fn iqp(
    reference: &RefTrack,
    safety_width: f64,
    kappa_bound: f64,
    stepsize_reg: f64,
    iters_min: usize,
    iters_max: usize,
    curv_error_allowed: f64,
    solver: QpSolver,
) -> Result<IqpSolution, OptimizeError> {
    reference.check("iqp reference line")?;
    let mut rt = reference.clone();
    let mut scaling = distance_scaling(&rt.xy);
    let mut normals = ClosedSpline::through(&rt.xy, Some(&scaling))?.normals();
    let mut iter = 0;
    let mut warm = WarmStart::default();
    loop {
        iter += 1;
        let qp = CurvatureQp {
            reftrack: &rt,
            normals: &normals,
            scaling: &scaling,
            kappa_bound,
            safety_width,
        };
        let mut alpha = match qp.solve_warm(iter, solver, &mut warm) {
            Err(OptimizeError::Solver {
                status: QpStatus::PrimalInfeasible,
                ..
            }) => {
                return Err(too_tight(&qp, iter).unwrap_or(OptimizeError::Solver {
                    stage: Stage::Iqp,
                    status: QpStatus::PrimalInfeasible,
                    iteration: iter,
                }))
            }
            other => other?,
        };
        let err = qp.curvature_error(&alpha)?;
        crate::progress::report(crate::progress::Event::IqpIteration {
            iteration: iter,
            max: iters_max,
            error: err,
            allowed: curv_error_allowed,
        });
        if iter < iters_min {
            let f = iter as f64 * 1.0 / iters_min as f64;
            alpha.iter_mut().for_each(|a| *a *= f);
        }
        if iter >= iters_min && err <= curv_error_allowed {
            // the final line must not fold back on itself (the undamped first steps may)
            check_folds(&rt, &normals, &alpha, Stage::Iqp)?;
            return Ok(IqpSolution {
                reftrack: rt,
                normals,
                alpha,
                iterations: iter,
                curvature_error: err,
            });
        }
        if iter >= iters_max {
            return Err(OptimizeError::NotConverged {
                iterations: iter,
                error: err,
                allowed: curv_error_allowed,
            });
        }
        rt = shift_and_resample(&rt, &normals, &alpha, stepsize_reg)?;
        scaling = vec![1.0; rt.len()];
        normals = ClosedSpline::through(&rt.xy, None)?.normals();
    }
}

/// Where an infeasible curvature QP is tightest: the knot whose reference curvature exceeds
/// the bound the most. `None` when no knot does (the infeasibility is elsewhere).
fn too_tight(qp: &CurvatureQp, iteration: usize) -> Option<OptimizeError> {
    let lin = qp.linearisation().ok()?;
    let (i, excess) = lin
        .kappa_ref
        .iter()
        .map(|k| k.abs() - qp.kappa_bound)
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if excess.is_nan() || excess <= 0.0 {
        return None;
    }
    let rt = qp.reftrack;
    let s_m = rt.xy[..=i]
        .windows(2)
        .map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]))
        .fold(0.0, |a, b| a + b);
    Some(OptimizeError::TooTight {
        stage: Stage::Iqp,
        s_m,
        x: rt.xy[i][0],
        y: rt.xy[i][1],
        kappa: lin.kappa_ref[i],
        curvlim: qp.kappa_bound,
        room: rt.w_right[i] + rt.w_left[i] - qp.safety_width,
        iteration,
        remedy: Box::default(),
    })
}

/// The reference shifted by α along its normals, re-sampled at `step` on an unscaled spline,
/// widths shifted (w_right −= α, w_left += α) and interpolated per segment (TUM `create_raceline`,
/// `interp_track_widths`).
pub fn shift_and_resample(
    rt: &RefTrack,
    normals: &[[f64; 2]],
    alpha: &[f64],
    step: f64,
) -> Result<RefTrack, OptimizeError> {
    let n = rt.len();
    let shifted = shift_along_normals(&rt.xy, normals, alpha);
    let sampled = ClosedSpline::through(&shifted, None)?.sample(step);
    let wr: Vec<f64> = (0..n).map(|i| rt.w_right[i] - alpha[i]).collect();
    let wl: Vec<f64> = (0..n).map(|i| rt.w_left[i] + alpha[i]).collect();
    let lerp = |w: &[f64], seg: usize, t: f64| -> f64 {
        let (a, b) = (w[seg], w[(seg + 1) % n]);
        if t == 0.0 {
            a
        } else {
            (b - a) / 1.0 * t + a
        }
    };
    let w_right = sampled
        .segment
        .iter()
        .zip(&sampled.t)
        .map(|(&s, &t)| lerp(&wr, s, t))
        .collect();
    let w_left = sampled
        .segment
        .iter()
        .zip(&sampled.t)
        .map(|(&s, &t)| lerp(&wl, s, t))
        .collect();
    Ok(RefTrack {
        xy: sampled.points,
        w_right,
        w_left,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wobbly closed loop of `n` points about 26 × 20 m, 2 m wide; `phase` moves its bends.
    fn wobbly(n: usize, phase: f64) -> RefTrack {
        let xy = (0..n)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / n as f64;
                let r = 10.0 + 1.5 * (3.0 * t + phase).sin() + 0.6 * (5.0 * t).cos();
                [1.3 * r * t.cos(), r * t.sin()]
            })
            .collect();
        RefTrack {
            xy,
            w_right: vec![1.0; n],
            w_left: vec![1.0; n],
        }
    }

    /// α of the curvature QP on `rt`, solved from `warm`, and the interior-point iterations.
    fn solve(rt: &RefTrack, warm: &mut WarmStart) -> (Vec<f64>, usize) {
        let scaling = distance_scaling(&rt.xy);
        let normals = ClosedSpline::through(&rt.xy, Some(&scaling))
            .expect("a smooth loop")
            .normals();
        let qp = CurvatureQp {
            reftrack: rt,
            normals: &normals,
            scaling: &scaling,
            kappa_bound: 0.4,
            safety_width: 0.7,
        };
        let alpha = qp
            .solve_warm(1, QpSolver::Banded, warm)
            .expect("a feasible QP");
        (
            alpha,
            warm.iterations().expect("the banded solver answered"),
        )
    }

    /// A sequence of the IQP's QPs (warm starts carried, a circle among them, whose shifts
    /// all sit on a bound: a degenerate QP) gives the same bits with the cold start run beside
    /// the warm one as after it.
    #[test]
    fn speculation_gives_the_sequential_answers() {
        let circle = |n: usize| RefTrack {
            xy: (0..n)
                .map(|i| {
                    let t = std::f64::consts::TAU * i as f64 / n as f64;
                    [10.0 * t.cos(), 10.0 * t.sin()]
                })
                .collect(),
            w_right: vec![1.0; n],
            w_left: vec![1.0; n],
        };
        let tracks = [
            wobbly(120, 0.0),
            wobbly(120, 0.03),
            wobbly(118, 0.9),
            circle(118),
            wobbly(118, 0.95),
            wobbly(118, 0.97),
        ];
        let run = |speculative: bool| {
            crate::qp::SPECULATION.with(|s| s.set(Some(speculative)));
            let mut warm = WarmStart::default();
            let answers: Vec<Vec<u64>> = tracks
                .iter()
                .map(|rt| {
                    let (alpha, _) = solve(rt, &mut warm);
                    alpha.iter().map(|a| a.to_bits()).collect()
                })
                .collect();
            crate::qp::SPECULATION.with(|s| s.set(None));
            answers
        };
        let (sequential, speculative) = (run(false), run(true));
        for (k, (a, b)) in sequential.iter().zip(&speculative).enumerate() {
            assert_eq!(a, b, "QP {k}");
        }
    }

    /// The IQP's next QP (its reference moved a little, with as many knots or up to 4 % fewer,
    /// as between f's IQP iterations) started from the previous one's interior point: the
    /// same minimiser, in fewer interior-point iterations than from the cold start.
    #[test]
    fn a_warm_start_gives_the_cold_answer_in_fewer_iterations() {
        for (phase, n) in [(0.0, 120), (0.7, 120), (1.9, 117), (3.1, 115)] {
            let mut warm = WarmStart::default();
            solve(&wobbly(120, phase), &mut warm);
            let next = wobbly(n, phase + 0.03);
            let (cold, cold_its) = solve(&next, &mut WarmStart::default());
            let (warmed, warm_its) = solve(&next, &mut warm);
            for (a, b) in warmed.iter().zip(&cold) {
                assert!((a - b).abs() < 1e-9, "phase {phase}, {n} knots: {a} vs {b}");
            }
            assert!(
                warm_its < cold_its,
                "phase {phase}, {n} knots: {warm_its} iterations warm, {cold_its} cold"
            );
        }
    }
}
