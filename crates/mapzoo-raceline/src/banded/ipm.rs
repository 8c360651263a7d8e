//! The primal-dual interior point (Mehrotra's predictor–corrector) on the reduced Newton
//! system of [`super::kkt`], one iteration at a time, so that a caller can look at each
//! iterate (the early active-set polish of [`super::solve_polished`]).

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::cyclic::Factor;
use super::kkt::{Layout, Structure};
use super::polish::CORRECTIONS;
use super::problem::{inf_norm, Failure, Problem};
use super::POLISH_FROM;
use crate::status::QpSolution;

/// Primal and dual regularisation of the Newton system.
pub(super) const DELTA: f64 = 1e-9;
/// Interior-point iterations at most.
const MAX_ITER: usize = 80;
/// Feasibility tolerance (relative, as Clarabel's `tol_feas`).
const TOL_FEAS: f64 = 1e-10;
/// Duality-gap tolerance (absolute and relative, as Clarabel's `tol_gap_abs/rel`).
const TOL_GAP: f64 = 1e-10;
/// Reduced accuracy accepted when the iterates stop improving (Clarabel's second tier).
const TOL_REDUCED: f64 = 1e-8;
/// Iterations without a better iterate after which a solve at reduced accuracy stops.
const STALL_ITER: usize = 3;
/// Fraction of the step to the boundary taken.
const STEP_FRACTION: f64 = 0.99;
/// Refinement passes on the full Newton system at most, once the iterate is close (before,
/// the direction's accuracy does not limit the progress), for a solve to full accuracy.
const NEWTON_REFINE: usize = 4;
/// The residual below which the Newton directions are refined.
const REFINE_BELOW: f64 = 1e-3;

/// What a solve takes from the interior point, which sets how its iterations run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// The active-set polish of an iterate, taken as it is (a min-time step), its active
    /// set corrected where the polish fails ([`Answer::corrections`]): the answer depends
    /// only on the active set the iterates reach, so until the polish is tried the
    /// directions need no refinement and the primal and the dual side each step as far as
    /// its own boundary allows (Nocedal & Wright, Algorithm 14.3). The iterates of these QPs are held by a row
    /// or two at a time, alternately primal and dual: Sakhir's 24 min-time QPs took 572
    /// iterations with one common step, 471 so (Monza's 19 from its centerline 505 → 442),
    /// and every lap of the 45 runs of `scripts/mintime_table.py` is unchanged. From
    /// [`POLISH_FROM`] on, where the polish is tried, one common step and the corrector
    /// refined ([`NEWTON_REFINE`] passes at most): a QP whose early polishes all fail needs
    /// the converged iterate, and without both some stalled at an error of 1e-8 to 2e-8, just
    /// short of the reduced accuracy, and went to Clarabel (two of Monza's from its
    /// centerline, one of IMS's, two of Budapest's, one of Shanghai's).
    Exact,
    /// The active-set polish of an iterate (the IQP's QPs), its set corrected only on the
    /// converged iterate ([`super::solve_polished`]): steps as [`Answer::Exact`], separate
    /// until the polish is tried, then common with the corrector refined (f's IQP stage
    /// 22.3 → 20.5 ms, its files byte-identical). Until the degenerate QPs' answers were
    /// corrected (2026-12-05) separate steps moved them to another active set, whose
    /// uncorrected minimiser differed by more than the last bits, and the IQP iterations
    /// amplified it (the IQP lines from the F1TENTH centerlines by up to 2.3e-6 m, Melbourne's
    /// SP by 7e-5 m); now the lines move by at most 7e-10 m (11 sets of the golden manifest,
    /// in the last printed digit), no lap of the 45 min-time runs.
    Polished,
    /// The converged iterate itself (the SP): the corrector refined near the solution
    /// ([`NEWTON_REFINE`] passes at most), one common step (separate steps save the SP's QP
    /// no iterations: f 14 → 15, Sakhir 19 → 17, São Paulo 17 → 17).
    Interior,
}

impl Answer {
    /// The primal and the dual step from the largest each side allows, at an iterate of
    /// error `err`: both for an [`Answer::Exact`] or [`Answer::Polished`] above
    /// [`POLISH_FROM`], else the smaller for both.
    fn steps(self, err: f64, primal: f64, dual: f64) -> (f64, f64) {
        match self {
            Answer::Exact | Answer::Polished if err > POLISH_FROM => (primal, dual),
            _ => {
                let t = primal.min(dual);
                (t, t)
            }
        }
    }

    /// Refinement passes of the corrector at an iterate of error `err`.
    fn refine(self, err: f64) -> usize {
        match self {
            Answer::Interior if err <= REFINE_BELOW => NEWTON_REFINE,
            Answer::Exact | Answer::Polished if err <= POLISH_FROM => NEWTON_REFINE,
            _ => 0,
        }
    }

    /// Corrections of a failed polish's active set at most ([`CORRECTIONS`] for an
    /// [`Answer::Exact`]; none for the others, whose failed polish is left to the next
    /// iterate or to Clarabel).
    pub(super) fn corrections(self) -> usize {
        match self {
            Answer::Exact => CORRECTIONS,
            Answer::Polished | Answer::Interior => 0,
        }
    }
}

/// Largest step t ≤ 1 with v + t·dv ≥ 0.
fn max_step(v: &[f64], dv: &[f64]) -> f64 {
    v.iter()
        .zip(dv)
        .filter(|(_, &d)| d < 0.0)
        .map(|(&x, &d)| -x / d)
        .fold(1.0, f64::min)
}

/// A step (dx, dy, ds, dz) of the full Newton system.
struct Step {
    x: Vec<f64>,
    y: Vec<f64>,
    s: Vec<f64>,
    z: Vec<f64>,
}

impl Step {
    fn zeros(nvar: usize, n_eq: usize, n_in: usize) -> Step {
        Step {
            x: vec![0.0; nvar],
            y: vec![0.0; n_eq],
            s: vec![0.0; n_in],
            z: vec![0.0; n_in],
        }
    }

    fn add(&mut self, other: &Step) {
        for (a, b) in [
            (&mut self.x, &other.x),
            (&mut self.y, &other.y),
            (&mut self.s, &other.s),
            (&mut self.z, &other.z),
        ] {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        }
    }
}

/// Scratch vectors of the Newton solves, allocated once per solve.
struct Scratch {
    /// Right-hand sides of the full system (r1 … r4) and their residuals (e1 … e4), each as a
    /// [`Step`]-shaped quadruple.
    r: Step,
    e: Step,
    /// A refinement's correction.
    c: Step,
    /// Row-sized and variable-sized temporaries, and the reduced right-hand side.
    rows: Vec<f64>,
    rows2: Vec<f64>,
    vars: Vec<f64>,
    rhs: Vec<f64>,
}

/// The interior-point method on one (equilibrated) problem: its iterate, the reduced Newton
/// matrix and its factor, and the scratch of every iteration.
pub(super) struct Ipm<'a> {
    pb: &'a Problem<'a>,
    st: Structure,
    x: Vec<f64>,
    y: Vec<f64>,
    s: Vec<f64>,
    z: Vec<f64>,
    /// Residuals of the iterate: rd = Px + q + Aᵀ[y; z], rp = A x + [0; s] − b.
    rd: Vec<f64>,
    rp: Vec<f64>,
    /// The largest |b| and |q|, the scales of the relative residuals.
    b_norm: f64,
    q_norm: f64,
    /// The iterate's error (worst relative residual or gap) and its mean complementarity.
    err: f64,
    mu: f64,
    /// Barrier weights per row (zero on the equalities).
    w: Vec<f64>,
    /// The affine and the combined direction.
    aff: Step,
    dir: Step,
    /// Complementarity targets.
    rc: Vec<f64>,
    scratch: Scratch,
    it: usize,
    answer: Answer,
    /// The best iterate so far: its error, iteration and (x, slacks, duals).
    best: (f64, usize, Option<QpSolution>),
}

impl<'a> Ipm<'a> {
    /// The method at its starting point: the least-squares point of the inequalities (W = I),
    /// slacks and duals shifted inside; iterating as `answer` asks.
    pub(super) fn new(
        pb: &'a Problem<'a>,
        mut st: Structure,
        answer: Answer,
    ) -> Result<Ipm<'a>, Failure> {
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        let n_in = m - n_eq;
        let Structure { lay, kkt, factor } = &mut st;
        let dim = kkt.mat.dim();
        let mut w = vec![0.0; m];
        w[n_eq..].iter_mut().for_each(|v| *v = 1.0);
        kkt.assemble(&w, DELTA);
        if !kkt.mat.factor_into(factor) {
            return Err(Failure::Singular);
        }
        let mut g = vec![0.0; nvar];
        let mut bi = vec![0.0; m];
        bi[n_eq..].copy_from_slice(&pb.b[n_eq..]);
        pb.add_aty(&bi, &mut g);
        let mut rhs = vec![0.0; dim];
        for v in 0..nvar {
            rhs[lay.var[v]] = g[v] - pb.q[v];
        }
        for r in 0..n_eq {
            rhs[lay.row[r]] = pb.b[r];
        }
        factor.solve(&mut rhs);
        let x: Vec<f64> = (0..nvar).map(|v| rhs[lay.var[v]]).collect();
        let mut ax = vec![0.0; m];
        pb.ax(&x, &mut ax);
        let mut s: Vec<f64> = (n_eq..m).map(|r| pb.b[r] - ax[r]).collect();
        let mut z: Vec<f64> = s.iter().map(|v| -v).collect();
        for v in [&mut s, &mut z] {
            let worst = v.iter().fold(f64::NEG_INFINITY, |a, &x| a.max(-x));
            if worst >= 0.0 {
                v.iter_mut().for_each(|x| *x += 1.0 + worst);
            }
        }
        let zeros = || Step::zeros(nvar, n_eq, n_in);
        Ok(Ipm {
            pb,
            st,
            x,
            y: vec![0.0; n_eq],
            s,
            z,
            rd: vec![0.0; nvar],
            rp: vec![0.0; m],
            b_norm: inf_norm(pb.b),
            q_norm: inf_norm(pb.q),
            err: f64::INFINITY,
            mu: 0.0,
            w,
            aff: zeros(),
            dir: zeros(),
            rc: vec![0.0; n_in],
            scratch: Scratch {
                r: zeros(),
                e: zeros(),
                c: zeros(),
                rows: vec![0.0; m],
                rows2: vec![0.0; m],
                vars: vec![0.0; nvar],
                rhs: vec![0.0; dim],
            },
            it: 0,
            answer,
            best: (f64::INFINITY, 0, None),
        })
    }

    /// Starts from the equality duals `y`, the slacks `s` and the duals `z` of the
    /// inequality rows (of another problem's iterate, a warm start; scaled units), keeping the
    /// least-squares x.
    pub(super) fn start_from(&mut self, y: Vec<f64>, s: Vec<f64>, z: Vec<f64>) {
        self.y = y;
        self.s = s;
        self.z = z;
    }

    /// Iterations taken so far.
    /// What the solve takes from the method.
    pub(super) fn answer(&self) -> Answer {
        self.answer
    }

    pub(super) fn iterations(&self) -> usize {
        self.it
    }

    /// The current iterate as (x, slacks of every row, duals of every row).
    pub(super) fn current(&self) -> QpSolution {
        let (n_eq, m) = (self.pb.n_eq, self.pb.m());
        let mut s = vec![0.0; m];
        s[n_eq..].copy_from_slice(&self.s);
        let mut z = self.y.clone();
        z.extend_from_slice(&self.z);
        QpSolution {
            x: self.x.clone(),
            s,
            z,
        }
    }

    /// The reduced system, for a polish on the same structure (it overwrites the matrix; the
    /// next [`Ipm::advance`] assembles it again).
    pub(super) fn structure(&mut self) -> &mut Structure {
        &mut self.st
    }

    /// Measures the iterate: its error, or `None` when the method stops here (converged,
    /// stalled at reduced accuracy, the iteration limit, or a non-finite iterate).
    pub(super) fn measure(&mut self) -> Option<f64> {
        let pb = self.pb;
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        if self.it >= MAX_ITER {
            return None;
        }
        let sc = &mut self.scratch;
        let (px, ax, yz, aty) = (&mut sc.vars, &mut sc.rows, &mut sc.rows2, &mut sc.c.x);
        pb.px(&self.x, px);
        yz[..n_eq].copy_from_slice(&self.y);
        yz[n_eq..].copy_from_slice(&self.z);
        aty.iter_mut().for_each(|v| *v = 0.0);
        pb.add_aty(yz, aty);
        for v in 0..nvar {
            self.rd[v] = px[v] + pb.q[v] + aty[v];
        }
        pb.ax(&self.x, ax);
        for r in 0..m {
            self.rp[r] = ax[r] - pb.b[r] + if r >= n_eq { self.s[r - n_eq] } else { 0.0 };
        }
        let gap: f64 = self.s.iter().zip(&self.z).map(|(a, b)| a * b).sum();
        let xpx: f64 = self.x.iter().zip(px.iter()).map(|(a, b)| a * b).sum();
        let qx: f64 = self.x.iter().zip(pb.q).map(|(a, b)| a * b).sum();
        let pobj = 0.5 * xpx + qx;
        let (b_norm, q_norm) = (self.b_norm, self.q_norm);
        // the worst of the relative primal and dual residuals and the relative gap
        let err = (inf_norm(&self.rp) / (1.0 + b_norm.max(inf_norm(ax)).max(inf_norm(&self.s))))
            .max(inf_norm(&self.rd) / (1.0 + q_norm.max(inf_norm(px)).max(inf_norm(aty))))
            .max(gap / pobj.abs().max(1.0));
        let finite = self
            .x
            .iter()
            .chain(&self.s)
            .chain(yz.iter())
            .all(|v| v.is_finite());
        if !(finite && err.is_finite()) {
            return None;
        }
        self.err = err;
        let n_in = m - n_eq;
        self.mu = if n_in > 0 { gap / n_in as f64 } else { 0.0 };
        if err < self.best.0 {
            self.best.0 = err;
            self.best.1 = self.it;
            // into the last best iterate's storage (a copy per iteration, no allocation)
            match &mut self.best.2 {
                Some(best) => {
                    best.x.copy_from_slice(&self.x);
                    best.s[n_eq..].copy_from_slice(&self.s);
                    best.z[..n_eq].copy_from_slice(&self.y);
                    best.z[n_eq..].copy_from_slice(&self.z);
                }
                None => self.best.2 = Some(self.current()),
            }
        }
        if err <= TOL_FEAS.max(TOL_GAP) {
            return None;
        }
        // stalled at the accuracy the arithmetic allows: the best iterate is the answer
        if self.best.0 <= TOL_REDUCED && self.it >= self.best.1 + STALL_ITER {
            return None;
        }
        Some(err)
    }

    /// One predictor–corrector step from the measured iterate; false on a singular matrix.
    pub(super) fn advance(&mut self) -> bool {
        let pb = self.pb;
        let (n_eq, m) = (pb.n_eq, pb.m());
        let n_in = m - n_eq;
        // the Newton matrix with W = Z S⁻¹
        for k in 0..n_in {
            self.w[n_eq + k] = self.z[k] / self.s[k];
        }
        let st = &mut self.st;
        st.kkt.assemble(&self.w, DELTA);
        if !st.kkt.mat.factor_into(&mut st.factor) {
            return false;
        }
        let newton = Newton {
            pb,
            lay: &st.lay,
            factor: &st.factor,
            s: &self.s,
            z: &self.z,
        };
        // predictor: the affine direction (its accuracy only sets the centring)
        for k in 0..n_in {
            self.rc[k] = self.s[k] * self.z[k];
        }
        newton.direction(
            [&self.rd, &self.rp, &self.rc],
            0,
            &mut self.aff,
            &mut self.scratch,
        );
        let (s, z, aff) = (&self.s, &self.z, &self.aff);
        // (separate steps: the primal (x, s) and the dual side (y, z) each as far as its own
        // boundary allows, here and for the step below)
        let (tp_aff, td_aff) =
            self.answer
                .steps(self.err, max_step(s, &aff.s), max_step(z, &aff.z));
        let mu_aff = if n_in > 0 {
            (0..n_in)
                .map(|k| (s[k] + tp_aff * aff.s[k]) * (z[k] + td_aff * aff.z[k]))
                .sum::<f64>()
                / n_in as f64
        } else {
            0.0
        };
        let sigma = if self.mu > 0.0 {
            (mu_aff / self.mu).clamp(0.0, 1.0).powi(3)
        } else {
            0.0
        };
        // corrector: centring and the second-order term
        for k in 0..n_in {
            self.rc[k] = s[k] * z[k] + aff.s[k] * aff.z[k] - sigma * self.mu;
        }
        let refine = self.answer.refine(self.err);
        newton.direction(
            [&self.rd, &self.rp, &self.rc],
            refine,
            &mut self.dir,
            &mut self.scratch,
        );
        // with separate steps (an exact answer) the dual residual falls by (1 − t_d) plus
        // (t_p − t_d)·P dx instead of by (1 − t); the error measured each iteration still
        // decides convergence, and a solve that does not converge goes to Clarabel
        let d = &self.dir;
        let (tp, td) =
            self.answer
                .steps(self.err, max_step(&self.s, &d.s), max_step(&self.z, &d.z));
        let (tp, td) = ((STEP_FRACTION * tp).min(1.0), (STEP_FRACTION * td).min(1.0));
        self.x.iter_mut().zip(&d.x).for_each(|(a, b)| *a += tp * b);
        self.s.iter_mut().zip(&d.s).for_each(|(a, b)| *a += tp * b);
        self.y.iter_mut().zip(&d.y).for_each(|(a, b)| *a += td * b);
        self.z.iter_mut().zip(&d.z).for_each(|(a, b)| *a += td * b);
        self.it += 1;
        true
    }

    /// The best iterate, if it reached the reduced accuracy.
    pub(super) fn finish(self) -> Result<QpSolution, Failure> {
        match self.best {
            (err, _, Some(sol)) if err <= TOL_REDUCED => Ok(sol),
            _ => Err(Failure::NotConverged),
        }
    }
}

/// One interior-point iteration's Newton system: the problem, the factored reduced matrix
/// and the current slacks and duals.
struct Newton<'a> {
    pb: &'a Problem<'a>,
    lay: &'a Layout,
    factor: &'a Factor,
    s: &'a [f64],
    z: &'a [f64],
}

impl Newton<'_> {
    /// Solves P dx + A_Eᵀ dy + A_Iᵀ dz = r.x, A_E dx = r.y, A_I dx + ds = r.s,
    /// Z ds + S dz = r.z through the reduced system: ds = r.s − A_I dx,
    /// dz = S⁻¹(r.z − Z r.s) + W A_I dx.
    fn solve(&self, r: &Step, out: &mut Step, t: &mut [f64], g: &mut [f64], rhs: &mut [f64]) {
        let (pb, lay) = (self.pb, self.lay);
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        let n_in = m - n_eq;
        for k in 0..n_in {
            t[n_eq + k] = (r.z[k] - self.z[k] * r.s[k]) / self.s[k];
        }
        g.iter_mut().for_each(|v| *v = 0.0);
        pb.add_aty_ineq(t, g);
        for v in 0..nvar {
            rhs[lay.var[v]] = r.x[v] - g[v];
        }
        for row in 0..n_eq {
            rhs[lay.row[row]] = r.y[row];
        }
        self.factor.solve(rhs);
        for v in 0..nvar {
            out.x[v] = rhs[lay.var[v]];
        }
        for row in 0..n_eq {
            out.y[row] = rhs[lay.row[row]];
        }
        pb.ax_ineq(&out.x, t);
        for k in 0..n_in {
            out.s[k] = r.s[k] - t[n_eq + k];
            out.z[k] = (r.z[k] - self.z[k] * out.s[k]) / self.s[k];
        }
    }

    /// The Newton direction for residuals rd, rp and complementarity target rc
    /// (Z ds + S dz = −rc), refined `refine` times at most on the full system: the reduced
    /// one carries the barrier weights, up to 1e18 near the solution, and alone loses the
    /// dual residual's digits.
    fn direction(&self, [rd, rp, rc]: [&[f64]; 3], refine: usize, d: &mut Step, sc: &mut Scratch) {
        let pb = self.pb;
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        let n_in = m - n_eq;
        let r = &mut sc.r;
        for v in 0..nvar {
            r.x[v] = -rd[v];
        }
        for row in 0..n_eq {
            r.y[row] = -rp[row];
        }
        for k in 0..n_in {
            r.s[k] = -rp[n_eq + k];
            r.z[k] = -rc[k];
        }
        self.solve(&sc.r, d, &mut sc.rows, &mut sc.vars, &mut sc.rhs);
        if refine == 0 {
            return;
        }
        let scale = inf_norm(&sc.r.x).max(inf_norm(&sc.r.y)).max(1e-300);
        let mut prev = f64::INFINITY;
        for _ in 0..refine {
            let (r, e) = (&sc.r, &mut sc.e);
            let (ax, yz) = (&mut sc.rows, &mut sc.rows2);
            pb.px(&d.x, &mut e.x);
            yz[..n_eq].copy_from_slice(&d.y);
            yz[n_eq..].copy_from_slice(&d.z);
            pb.add_aty(yz, &mut e.x);
            pb.ax(&d.x, ax);
            let mut worst: f64 = 0.0;
            for v in 0..nvar {
                e.x[v] = r.x[v] - e.x[v];
                worst = worst.max(e.x[v].abs());
            }
            for row in 0..n_eq {
                e.y[row] = r.y[row] - ax[row];
                worst = worst.max(e.y[row].abs());
            }
            for k in 0..n_in {
                e.s[k] = r.s[k] - ax[n_eq + k] - d.s[k];
                e.z[k] = r.z[k] - self.z[k] * d.s[k] - self.s[k] * d.z[k];
            }
            if worst.is_nan() || worst >= prev || worst <= 1e-13 * scale {
                break;
            }
            prev = worst;
            self.solve(&sc.e, &mut sc.c, &mut sc.rows, &mut sc.vars, &mut sc.rhs);
            d.add(&sc.c);
        }
    }
}
