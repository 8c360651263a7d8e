//! The minimum-lap-time racing line (issue 14): sequential convex programming
//! warm-started from the IQP line, in the spirit of Kapania, Subosits & Gerdes
//! (2016), "A Sequential Two-Step Algorithm for Fast Generation of Vehicle
//! Racing Trajectories".
//!
//! Each iteration alternates
//! 1. the speed profile of the current line ([`crate::velocity_profile`], the
//!    configured vehicle: ggv, drag, machine limit, v_max), sampled as every
//!    line is (≈0.1 m), and
//! 2. one convex QP on path and speed together, linearised about the current
//!    line and profile: the shifts δ of the knots (≈0.2 m apart, wider on
//!    tracks longer than [`MAX_KNOTS`] · 0.2 m) along fixed
//!    normals, the spline's second derivatives (tied to δ by the C2 equalities,
//!    curvature linear in them, as in the IQP) and the squared speed b = v² at
//!    each knot. It minimises the lap time Σ dsᵢ/√bᵢ (the length part linear in
//!    δ with its convex perpendicular part, the speed part a convex quadratic in
//!    b about the current profile) subject to the friction diamond
//!    |aₓ + drag·b|/A + |b·κ|/B ≤ 1 with aₓ = (bᵢ₊₁ − bᵢ)/(2dsᵢ) and b·κ
//!    linearised about the current (b, κ); the machine limit; v ≤ v_max; the
//!    corridor: each knot half the safety width from the walls and obstacles (by the
//!    nearest distances, which a shift δ changes by at most |δ|) and each sample of the
//!    current line between the knots kept [`QP_MARGIN_M`] inside the clearance the
//!    validation allows, by its exact move on the spline (linear in δ and the second
//!    derivatives, [`Problem::sample_rows`]); the curvature bound curvlim; and trust
//!    regions |δ| ≤ ρ, |b − b₀| ≤ 0.5·b₀. Only δ is kept: the speed is always our own profile.
//!    The QP's answer is its exact minimiser ([`QpProblem::solve_step`]: the interior point
//!    polished on its active set, the set corrected where needed), the same with either solver.
//!
//! The knots sit evenly round the whole loop along the IQP line (no short gap at
//! the seam, where a spline with unit parameters would bend). A step is kept only
//! if the lap of the new line, re-timed with our own velocity profile on its own
//! spline sampled every [`FINE_STEP_M`], is shorter and its samples (at the
//! output's step) keep clear of the walls; ρ then becomes 1.5 times the longest shift the QP
//! took; otherwise half of it (a larger region did not bind, and would only give the same
//! step). The iteration stops when a kept step gains less than [`MIN_GAIN_S`], when the steps
//! of three iterations in a row each changed the lap by less than [`STALL_GAIN`] of it
//! ([`stalled`]), when ρ falls
//! below [`MIN_TRUST_M`] (at knots [`KNOT_STEP_M`] apart, growing with the square of the
//! spacing: [`min_trust`]) or after [`MAX_ITERATIONS`]. The line returned is never slower
//! than the IQP's: if no step helps, the IQP line itself is returned.
//!
//! Issue 21: the corridor between the knots was a bound on the nearest knot's shift, which
//! let the samples between knots ≈0.9 m apart (tracks over 100 m) come a few millimetres
//! closer than the validation allows: on the long f1tenth tracks most steps were rejected
//! whole, the trust region cycled (rejected, halved, grown) and the iteration took 30–78 QPs
//! (2.6–3.6 s). With the exact rows few steps are rejected for the corridor (on walls from a
//! map a resampled sample can still land a fraction of a millimetre over it, next to a pixel
//! corner; a sample inside the margin is then moved back out), and the stall test and the
//! spacing-scaled smallest region end the iteration after 5–16 QPs.
//!
//! Issue 21, item 4: ended that early, five of the 45 reference runs (README) stopped at a
//! local optimum 0.03–10 ms slower than the long iteration before. Where the knots are wider
//! than [`KNOT_STEP_M`] the iteration then has a second chance from where it stopped
//! ([`descend`]): the region re-opened at [`SECOND_TRUST_M`], the curvature-change penalty
//! [`SECOND_SMOOTHNESS`], a rejected step tried shorter along its direction ([`BACKTRACKS`]).
//! It keeps only faster lines, so it never loses what the first pass found; on the 45 runs it
//! gains 0.1–17 ms on 35 for 0–11 more QPs.

use mapzoo_geom::numpy::interp1;

use crate::error::OptimizeError;
use crate::params::RacelineParams;
use crate::qp::{QpProblem, QpSolver};
use crate::spline::{c2_rhs, c2_system, ClosedSpline};
use crate::stage::Stage;
use crate::trajectory::Trajectory;
use crate::velocity::Vehicle;
use crate::walls::{ResampledWalls, Side};

/// The step at which a candidate line is timed to decide whether a step is kept, metres: the
/// issue's re-timing step. At the output's ≈0.1 m a line can gain by hiding curvature between
/// its samples: a spline with one short knot gap at the start/finish seam timed 10.49 s on f at
/// 0.1 m and 10.80 s at 0.02 m. At 0.02 m such a line is seen for what it is.
pub const FINE_STEP_M: f64 = 0.02;
/// Smallest spacing of the optimisation knots along the IQP line, metres.
const KNOT_STEP_M: f64 = 0.2;
/// Most knots: longer tracks get a wider spacing (the QP's size, and so its time, is bounded).
pub const MAX_KNOTS: usize = 500;
/// Iterations at most (speed profile + QP).
pub const MAX_ITERATIONS: usize = 100;
/// A kept step gaining less than this ends the iteration, seconds.
pub const MIN_GAIN_S: f64 = 1e-4;
/// Iterations over which a stall is judged ([`stalled`]).
const STALL_ITERATIONS: usize = 3;
/// Change of the lap by one step, relative, below which the step left the lap as it was
/// ([`stalled`]): 1e-5 (0.1 ms on f's 10.5 s lap, as [`MIN_GAIN_S`] for one kept step; 0.4 ms
/// on a 40 s lap).
const STALL_GAIN: f64 = 1e-5;
/// Smallest trust region before giving up, at knots [`KNOT_STEP_M`] apart, metres
/// ([`min_trust`] scales it with the spacing).
pub const MIN_TRUST_M: f64 = 2e-4;
/// First trust region, metres.
const TRUST_START_M: f64 = 0.1;
/// Largest trust region, metres.
const TRUST_MAX_M: f64 = 1.0;
/// Weight of the squared curvature change between neighbouring knots, s·m². The re-timed lap
/// punishes curvature ripple hard (the speed at a sample is capped by its own curvature: a
/// knot moved 1 mm off a smooth line costs ≈0.1 s on a 6 s lap), so the QP's steps must be
/// smooth to be kept. At 1e-3 the steps were rejected down to sub-millimetre trust regions and
/// the lap stopped up to 0.34 % above the best the slow exact optimiser of
/// tests/it/mintime_reference.rs found on its generated tracks; at 1e-2 up to 0.19 %, and that
/// optimiser started from the line gains < 0.1 % (Austin 17.829 → 17.817 s, f 10.487 → 10.489 s).
/// (Those figures timed candidates at 0.1 m with a seam gap in the knots; see [`FINE_STEP_M`].
/// With the laps at 0.02 m and the knots spread evenly, 3e-3 and 3e-2 end within ±0.05 % of
/// 1e-2 on f, Austin and berlin.)
const SMOOTHNESS: f64 = 1e-2;
/// Weight of the curvature-change penalty in the second chance ([`mintime`]), s·m²: ten times
/// [`SMOOTHNESS`]. Where the first pass stops, its QPs' steps are rejected by differences the
/// model cannot see; with the heavier penalty the QP proposes smoother steps, and on the
/// f1tenth tracks (knots 0.5–0.9 m apart) the second chance keeps up to 9 more of them
/// (0.1–17 ms of the lap at 0.02 m; at 3e-2 it gains less, at 0.3 about as much). A penalty as
/// heavy (or 3e-2) from the start ends at slower lines on 13–23 of the README's 45 runs.
const SECOND_SMOOTHNESS: f64 = 0.1;
/// The trust region the second chance re-opens at, metres.
const SECOND_TRUST_M: f64 = 0.1;
/// Halvings of a rejected step tried along its direction in the second chance: a candidate
/// costs about a fifth of a QP, and a shorter step of the same direction is often kept.
const BACKTRACKS: usize = 3;
/// Trust region of the squared speed, relative.
const B_TRUST: f64 = 0.5;
/// Samples may come this much closer to a wall than half the safety width (between knots
/// the spline can bulge slightly), metres.
const SAMPLE_SLACK_M: f64 = 0.015;
/// The QP keeps the samples this much inside the room the validation of a step allows,
/// metres. A step taken right up to the limit came back from the spline and its resampling
/// a few micrometres over it and was rejected whole, however much it gained: on Oschersleben
/// every step after the fourth, and the line stopped at −1.85 % instead of −3.0 %.
const QP_MARGIN_M: f64 = 0.002;

/// The minimum-time line and how it was found.
#[derive(Debug, Clone)]
pub struct MintimeSolution {
    /// The line, sampled like every other line, with its velocity profile and lap time.
    pub trajectory: Trajectory,
    /// Iterations run (QP solves).
    pub iterations: usize,
    /// Steps kept.
    pub accepted: usize,
    /// Whether the IQP line itself was returned (no step improved it).
    pub is_iqp: bool,
    /// The lap of the line the iteration ended on, its own spline re-timed every
    /// [`FINE_STEP_M`] (what each kept step lowers), seconds; `None` when no iteration ran.
    pub fine_lap_s: Option<f64>,
    /// The shifted knots the line is the closed spline through (unscaled, as
    /// [`crate::ClosedSpline::through`] with `None`); empty when the IQP line is returned.
    pub knots: Vec<[f64; 2]>,
}

/// One candidate line: knots shifted by α along the normals, sampled and timed.
struct Candidate {
    alpha: Vec<f64>,
    /// The lap of its spline sampled every [`FINE_STEP_M`], seconds: what a step must lower.
    lap: f64,
    traj: Trajectory,
    segment: Vec<usize>,
    /// Each sample's local parameter in its segment, 0..1.
    t: Vec<f64>,
    /// Each sample's distances to the right and to the left (walls and obstacles), metres;
    /// empty until [`Problem::checked`].
    sides: Vec<(f64, f64)>,
}

/// One corridor row of a sample between the knots ([`Problem::sample_rows`]):
/// `coef · (δᵢ, δⱼ, zxᵢ, zyᵢ, zxⱼ, zyⱼ) ≤ bound` on segment i → j.
struct SampleRow {
    segment: usize,
    coef: [f64; 6],
    bound: f64,
}

/// How far the point at local parameter `t` of a segment i → j of the closed spline (unit
/// parameters) moves along `m` per unit of (δᵢ, δⱼ, zxᵢ, zyᵢ, zxⱼ, zyⱼ): the knots shifted by δ
/// along their normals `ni`, `nj`, and the second derivatives z. The point is
/// `(1−t)·pᵢ + t·pⱼ + c₁(t)·zᵢ + c₂(t)·zⱼ`, c₁ = ((1−t)³ − (1−t))/6, c₂ = (t³ − t)/6.
fn move_along(m: [f64; 2], t: f64, ni: [f64; 2], nj: [f64; 2]) -> [f64; 6] {
    let u = 1.0 - t;
    let c1 = (u * u * u - u) / 6.0;
    let c2 = (t * t * t - t) / 6.0;
    [
        u * (ni[0] * m[0] + ni[1] * m[1]),
        t * (nj[0] * m[0] + nj[1] * m[1]),
        c1 * m[0],
        c1 * m[1],
        c2 * m[0],
        c2 * m[1],
    ]
}

/// The knots, their normals and the walls the iteration works in.
struct Problem<'a> {
    base: Vec<[f64; 2]>,
    normals: Vec<[f64; 2]>,
    walls: &'a ResampledWalls,
    half: f64,
    step: f64,
    curvlim: f64,
    vehicle: &'a Vehicle,
    /// Smallest clearance a sample may have.
    min_clearance: f64,
    /// The QP solver.
    solver: QpSolver,
    /// Weight of the curvature-change penalty: [`SMOOTHNESS`], or [`SECOND_SMOOTHNESS`] in the
    /// second chance.
    smoothness: f64,
}

/// Smallest clearance over a trajectory's points.
fn line_clearance(walls: &ResampledWalls, traj: &Trajectory) -> f64 {
    traj.xy
        .iter()
        .map(|&p| walls.clearance(p))
        .fold(f64::INFINITY, f64::min)
}

impl<'a> Problem<'a> {
    /// The problem on the knots `base` of the IQP line `iqp`, and the candidate of the
    /// unshifted knots the iteration starts from.
    fn start(
        base: Vec<[f64; 2]>,
        iqp: &Trajectory,
        walls: &'a ResampledWalls,
        params: &RacelineParams,
        vehicle: &'a Vehicle,
    ) -> Result<(Problem<'a>, Candidate), OptimizeError> {
        let normals = ClosedSpline::through(&base, None)?.normals();
        let half = params.safety_width / 2.0;
        let mut prob = Problem {
            base,
            normals,
            walls,
            half,
            step: params.stepsize_interp_after_opt,
            curvlim: params.curvlim,
            vehicle,
            min_clearance: 0.0,
            solver: params.qp_solver,
            smoothness: SMOOTHNESS,
        };
        let n = prob.base.len();
        let (cur, start_clearance) = prob.measured(prob.candidate(vec![0.0; n])?);
        prob.min_clearance = (half - SAMPLE_SLACK_M)
            .min(line_clearance(walls, iqp))
            .min(start_clearance);
        Ok((prob, cur))
    }

    fn points(&self, alpha: &[f64]) -> Vec<[f64; 2]> {
        crate::iqp::shift_along_normals(&self.base, &self.normals, alpha)
    }

    /// The line through the knots shifted by `alpha`, sampled as [`crate::sample`] does, timed.
    ///
    /// The line at the output's step and its lap at the fine step are independent, and run
    /// side by side where a second core is free ([`crate::par::both`]).
    fn candidate(&self, alpha: Vec<f64>) -> Result<Candidate, OptimizeError> {
        let spline = ClosedSpline::through(&self.points(&alpha), None)?;
        let (line, lap) = crate::par::both(
            || {
                crate::trajectory::sample_spline(&spline, self.step)
                    .map(|(traj, segment, t)| (traj.with_velocity(self.vehicle), segment, t))
            },
            || self.fine_lap(&spline),
        );
        let (traj, segment, t) = line?;
        let lap = lap?;
        Ok(Candidate {
            alpha,
            lap,
            traj,
            segment,
            t,
            sides: Vec::new(),
        })
    }

    /// The lap of `spline` sampled every [`FINE_STEP_M`], at most a million samples (a lap over
    /// 20 km is timed more coarsely).
    fn fine_lap(&self, spline: &ClosedSpline) -> Result<f64, OptimizeError> {
        // the length of the line sampled at the output's step: the total its sampling sums
        let length = spline.lengths().iter().fold(0.0, |acc, l| acc + l);
        let fine = FINE_STEP_M.max(length / 1e6).min(self.step);
        Ok(crate::trajectory::sample_spline(spline, fine)?
            .0
            .with_velocity(self.vehicle)
            .lap_time)
    }

    /// Distances from `p` to the right and to the left: the wall's, or the nearest
    /// obstacle's on that side if closer (their smaller one is the walls' clearance).
    fn sides(&self, p: [f64; 2]) -> (f64, f64) {
        let (mut dr, mut dl) = self.walls.distances(p);
        if let Some(o) = self.walls.nearest_obstacle(p) {
            match o.side {
                Side::Right => dr = dr.min(o.distance),
                Side::Left => dl = dl.min(o.distance),
            }
        }
        (dr, dl)
    }

    /// Room to the right and to the left of `p`: its distances to the walls and the nearest
    /// obstacle less half the safety width.
    fn room(&self, p: [f64; 2]) -> (f64, f64) {
        let (dr, dl) = self.sides(p);
        (dr - self.half, dl - self.half)
    }

    /// The candidate if it is a valid line (finite lap, its samples clear of the walls by
    /// [`Problem::min_clearance`]), with its samples' distances to either side, which the next
    /// step's corridor rows use.
    fn checked(&self, c: Candidate) -> Option<Candidate> {
        if !(c.traj.lap_time.is_finite() && c.traj.lap_time > 0.0) {
            return None;
        }
        let (c, clearance) = self.measured(c);
        (clearance >= self.min_clearance).then_some(c)
    }

    /// The candidate with its samples' distances to either side, and the smallest of them
    /// (its clearance from the walls and obstacles).
    ///
    /// The two halves of the samples are measured side by side where a second core is free.
    fn measured(&self, mut c: Candidate) -> (Candidate, f64) {
        let xy = &c.traj.xy;
        let sides = |points: &[[f64; 2]]| -> Vec<(f64, f64)> {
            points.iter().map(|&p| self.sides(p)).collect()
        };
        let (mut first, second) =
            crate::par::both(|| sides(&xy[..xy.len() / 2]), || sides(&xy[xy.len() / 2..]));
        first.extend(second);
        c.sides = first;
        let clearance = c
            .sides
            .iter()
            .map(|&(r, l)| r.min(l))
            .fold(f64::INFINITY, f64::min);
        (c, clearance)
    }

    /// The corridor between the knots: one row per sample of `cur` (at the output's step) and
    /// side, `m·Δp ≤ room`, Δp the sample's move and m its normal. On the closed spline with
    /// unit parameters a point of segment i at local parameter t is
    /// `(1−t)·pᵢ + t·pⱼ + c₁(t)·zᵢ + c₂(t)·zⱼ` (z the second derivatives, c₁ = ((1−t)³−(1−t))/6,
    /// c₂ = (t³−t)/6), so its move is linear in the QP's shifts δ and second derivatives: the
    /// row is exact for the spline at that parameter, where a bound on the nearest knot's shift
    /// alone let the samples between the knots come closer than the validation allows (the
    /// step was then rejected whole: on the long f1tenth tracks most steps, and the trust
    /// region cycled) or stay further off than needed. The room is what [`Problem::checked`]
    /// allows ([`Problem::min_clearance`]) less [`QP_MARGIN_M`]. A sample moves by at most
    /// 2.5·ρ (ρ for the shifts, at most 12·ρ for the second derivatives by the C2 equalities'
    /// diagonal dominance, times |c₁| + |c₂| ≤ 1/8), so a sample with more room on a side
    /// cannot bind there and gets no row.
    fn sample_rows(
        &self,
        cur: &Candidate,
        cx: &[[f64; 4]],
        cy: &[[f64; 4]],
        zx0: &[f64],
        zy0: &[f64],
        rho: f64,
    ) -> Vec<SampleRow> {
        let n = self.base.len();
        let reach = 2.5 * rho;
        let extra = self.half - self.min_clearance - QP_MARGIN_M;
        let mut rows = Vec::new();
        for ((&(dr, dl), &seg), &t) in cur.sides.iter().zip(&cur.segment).zip(&cur.t) {
            // a sample closer than the margin (the line as accepted came back from its
            // resampling a fraction of a millimetre inside it) moves back out, by at most ρ/2
            let room_r = (dr - self.half + extra).max(-0.5 * rho);
            let room_l = (dl - self.half + extra).max(-0.5 * rho);
            if room_r >= reach && room_l >= reach {
                continue;
            }
            let (i, j) = (seg, (seg + 1) % n);
            let (a, b) = (&cx[i], &cy[i]);
            let dx = a[1] + 2.0 * a[2] * t + 3.0 * a[3] * t * t;
            let dy = b[1] + 2.0 * b[2] * t + 3.0 * b[3] * t * t;
            let h = dx.hypot(dy);
            if h <= 0.0 || !h.is_finite() {
                continue;
            }
            // the normal on the side of the knots' normals (to the right)
            let m = [dy / h, -dx / h];
            let coef = move_along(m, t, self.normals[i], self.normals[j]);
            // the second derivatives are the QP's own, not their change: move the current
            // line's part to the bound
            let z0 = coef[2] * zx0[i] + coef[3] * zy0[i] + coef[4] * zx0[j] + coef[5] * zy0[j];
            if room_r < reach {
                rows.push(SampleRow {
                    segment: seg,
                    coef,
                    bound: room_r + z0,
                });
            }
            if room_l < reach {
                rows.push(SampleRow {
                    segment: seg,
                    coef: coef.map(|c| -c),
                    bound: room_l - z0,
                });
            }
        }
        rows
    }

    /// The convex step on path and speed together from `cur` inside a trust region `rho`:
    /// the new shifts. Variables: shifts δ, the spline's second derivatives (zx, zy) and the
    /// squared speed b = v² at each knot. Lap time Σ dsᵢ/√bᵢ, its length part linear in δ
    /// (with the convex perpendicular part) and its speed part a convex quadratic in b about
    /// the current profile; the friction diamond |a_x + drag|/A + |b·κ|/B ≤ 1 with
    /// a_x = (bᵢ₊₁ − bᵢ)/(2dsᵢ) and b·κ linearised about the current (b, κ); the machine limit;
    /// v ≤ v_max; the corridor, the curvature bound and |δ| ≤ ρ.
    fn step(&self, cur: &Candidate, rho: f64, iteration: usize) -> Result<Vec<f64>, OptimizeError> {
        let n = self.base.len();
        let pts = self.points(&cur.alpha);
        let veh = self.vehicle;
        let vg: Vec<f64> = veh.ggv.iter().map(|r| r[0]).collect();
        let axg: Vec<f64> = veh.ggv.iter().map(|r| r[1]).collect();
        let ayg: Vec<f64> = veh.ggv.iter().map(|r| r[2]).collect();
        let mv: Vec<f64> = veh.ax_max_machines.iter().map(|r| r[0]).collect();
        let ma: Vec<f64> = veh.ax_max_machines.iter().map(|r| r[1]).collect();
        let drag = veh.dragcoeff / veh.mass;
        let vmax2 = veh.v_max * veh.v_max;

        // speed at each knot: the first sample of its segment
        let mut v0 = vec![f64::NAN; n];
        for k in 0..cur.segment.len() {
            let seg = cur.segment[k];
            if v0[seg].is_nan() {
                v0[seg] = cur.traj.vx[k];
            }
        }
        for i in 0..n {
            if v0[i].is_nan() {
                v0[i] = v0[(i + n - 1) % n];
            }
        }
        let b0: Vec<f64> = v0.iter().map(|v| (v * v).max(0.01)).collect();

        // room to either side at each knot (the knots keep half the safety width)
        let room: Vec<(f64, f64)> = pts.iter().map(|&p| self.room(p)).collect();

        let ones = vec![1.0; n];
        let xs: Vec<f64> = pts.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = pts.iter().map(|p| p[1]).collect();
        let zx0 = crate::spline::second_derivatives(&xs, &ones)?;
        let zy0 = crate::spline::second_derivatives(&ys, &ones)?;
        let cx = crate::spline::coefficients(&xs, &zx0, &ones);
        let cy = crate::spline::coefficients(&ys, &zy0, &ones);

        let (ia, izx, izy, ib) = (0, n, 2 * n, 3 * n);
        let rows_per = 11;
        let samples = self.sample_rows(cur, &cx, &cy, &zx0, &zy0, rho);
        let mut qp = QpProblem::new(
            4 * n,
            2 * n,
            rows_per * n + samples.len(),
            8 * n,
            50 * n + 6 * samples.len(),
        );
        qp.set_knots(n);
        qp.set_solver(self.solver);
        let mut lin = vec![0.0; 4 * n];
        let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
        for i in 0..n {
            let j = (i + 1) % n;
            let (xd, yd) = (cx[i][1], cy[i][1]);
            let den = (xd * xd + yd * yd).powf(1.5);
            let c = if den > 0.0 { 1.0 / den } else { 0.0 };
            let (gx, gy) = (-c * yd, c * xd);
            let kappa0 = gx * zx0[i] + gy * zy0[i];
            qp.hessian(izx + i, izx + i, 1e-9 * gx * gx + 1e-12);
            qp.hessian(izy + i, izy + i, 1e-9 * gy * gy + 1e-12);

            // segment i: length linear in δ (+ perpendicular part), time weight 1/v
            let d = [pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]];
            let len = d[0].hypot(d[1]).max(1e-9);
            let u = [d[0] / len, d[1] / len];
            let tau = 1.0 / b0[i].sqrt();
            lin[ia + j] += tau * dot(u, self.normals[j]);
            lin[ia + i] -= tau * dot(u, self.normals[i]);
            let perp = [-u[1], u[0]];
            let (ai, aj) = (-dot(perp, self.normals[i]), dot(perp, self.normals[j]));
            let h = tau / len;
            qp.hessian(ia + i, ia + i, h * ai * ai + 1e-9);
            qp.hessian(ia + j, ia + j, h * aj * aj);
            let (lo, hi) = if i < j { (i, j) } else { (j, i) };
            qp.hessian(ia + lo, ia + hi, h * ai * aj);

            // time of the segment in b: ds/√b about b0
            let b = b0[i];
            qp.hessian(ib + i, ib + i, 0.75 * len * b.powf(-2.5));
            lin[ib + i] += -1.25 * len * b.powf(-1.5);

            let v = v0[i];
            let (amax, bmax) = (interp1(v, &vg, &axg), interp1(v, &vg, &ayg));
            let mach = interp1(v, &mv, &ma);
            let base = 2 * n + i * rows_per;
            // friction diamond, both signs of the lateral term, driving and braking:
            // ±(a + drag·b)·(1/A) + σ·lin(bκ)/B ≤ 1, lin(bκ) = b0·κ + κ0·b − b0·κ0
            let mut r = base;
            for sx in [1.0, -1.0] {
                for sy in [1.0, -1.0] {
                    let kx = sx / amax;
                    // a = (b_j − b_i)/(2 len)
                    qp.constraint(r, ib + j, kx / (2.0 * len));
                    qp.constraint(r, ib + i, kx * (-1.0 / (2.0 * len) + drag));
                    let ky = sy / bmax;
                    qp.constraint(r, izx + i, ky * b * gx);
                    qp.constraint(r, izy + i, ky * b * gy);
                    qp.constraint(r, ib + i, ky * kappa0);
                    qp.bound(r, 1.0 + ky * b * kappa0);
                    r += 1;
                }
            }
            // machine: a + drag·b ≤ machine limit
            qp.constraint(r, ib + j, 1.0 / (2.0 * len));
            qp.constraint(r, ib + i, -1.0 / (2.0 * len) + drag);
            qp.bound(r, mach);
            r += 1;
            // v ≤ v_max, b ≥ small, and a trust region on b
            qp.constraint(r, ib + i, 1.0);
            qp.bound(r, vmax2.min(b * (1.0 + B_TRUST)));
            r += 1;
            qp.constraint(r, ib + i, -1.0);
            qp.bound(r, -(b * (1.0 - B_TRUST)).max(0.01));
            r += 1;
            // curvature bound
            let bound = self.curvlim.max(kappa0.abs());
            qp.constraint(r, izx + i, gx);
            qp.constraint(r, izy + i, gy);
            qp.bound(r, bound);
            r += 1;
            qp.constraint(r, izx + i, -gx);
            qp.constraint(r, izy + i, -gy);
            qp.bound(r, bound);
            r += 1;
            // corridor and trust region: a shift δ changes each distance by at most |δ|
            let (room_r, room_l) = room[i];
            let mut up = rho.min(room_r);
            let mut lo_b = (-rho).max(-room_l);
            if up < lo_b {
                let m = (0.5 * (up + lo_b)).clamp(-rho, rho);
                up = m;
                lo_b = m;
            }
            qp.constraint(r, ia + i, 1.0);
            qp.bound(r, up);
            r += 1;
            qp.constraint(r, ia + i, -1.0);
            qp.bound(r, -lo_b);
            r += 1;
            debug_assert_eq!(r, base + rows_per);
        }
        // a light penalty on curvature changes between knots: no wiggles the model cannot see
        let smooth = self.smoothness;
        {
            let g: Vec<(f64, f64)> = (0..n)
                .map(|i| {
                    let (xd, yd) = (cx[i][1], cy[i][1]);
                    let den = (xd * xd + yd * yd).powf(1.5);
                    let c = if den > 0.0 { 1.0 / den } else { 0.0 };
                    (-c * yd, c * xd)
                })
                .collect();
            for i in 0..n {
                let j = (i + 1) % n;
                let entries = [
                    (izx + i, -g[i].0),
                    (izy + i, -g[i].1),
                    (izx + j, g[j].0),
                    (izy + j, g[j].1),
                ];
                for &(p, vp) in &entries {
                    for &(q, vq) in &entries {
                        if p <= q {
                            qp.hessian(p, q, smooth * vp * vq);
                        }
                    }
                }
            }
        }
        for (i, v) in lin.iter().enumerate() {
            qp.linear(i, *v);
        }
        let (sub, diag, sup) = c2_system(&ones);
        let rhs_x = c2_rhs(&xs, &ones);
        let rhs_y = c2_rhs(&ys, &ones);
        for (dim, (iz, rhs)) in [(izx, &rhs_x), (izy, &rhs_y)].into_iter().enumerate() {
            for j in 0..n {
                let row = dim * n + j;
                let prev = (j + n - 1) % n;
                let next = (j + 1) % n;
                qp.constraint(row, iz + prev, sub[j]);
                qp.constraint(row, iz + j, diag[j]);
                qp.constraint(row, iz + next, sup[j]);
                qp.constraint(row, ia + prev, -6.0 * self.normals[prev][dim]);
                qp.constraint(row, ia + j, 12.0 * self.normals[j][dim]);
                qp.constraint(row, ia + next, -6.0 * self.normals[next][dim]);
                qp.bound(row, rhs[j]);
            }
        }
        for (k, row) in samples.iter().enumerate() {
            let r = 2 * n + rows_per * n + k;
            let (i, j) = (row.segment, (row.segment + 1) % n);
            let cols = [ia + i, ia + j, izx + i, izy + i, izx + j, izy + j];
            for (col, v) in cols.into_iter().zip(row.coef) {
                qp.constraint(r, col, v);
            }
            qp.bound(r, row.bound);
        }
        let x = qp.solve_step(Stage::Mintime, iteration)?;
        Ok((0..n).map(|i| cur.alpha[i] + x[ia + i]).collect())
    }
}

/// The minimum-time line from the IQP line `iqp` (sampled, with its velocity profile).
pub fn mintime(
    iqp: &Trajectory,
    walls: &ResampledWalls,
    params: &RacelineParams,
    vehicle: &Vehicle,
) -> Result<MintimeSolution, OptimizeError> {
    let base = start_knots(iqp, params.stepsize_interp_after_opt);
    let fallback = |iterations, accepted, fine_lap_s| MintimeSolution {
        trajectory: iqp.clone(),
        iterations,
        accepted,
        is_iqp: true,
        fine_lap_s,
        knots: Vec::new(),
    };
    if base.len() < 8 {
        return Ok(fallback(0, 0, None));
    }
    let min_trust = min_trust(iqp.length, base.len());
    // knots wider than the finest spacing (tracks over MAX_KNOTS · KNOT_STEP_M)
    let widened = knot_every(iqp.length, params.stepsize_interp_after_opt) as f64
        * params.stepsize_interp_after_opt
        > KNOT_STEP_M * (1.0 + 1e-9);
    let (mut prob, cur) = Problem::start(base, iqp, walls, params, vehicle)?;
    let mut count = Count::default();
    let mut cur = descend(&prob, cur, TRUST_START_M, min_trust, false, &mut count);
    if widened && count.iterations < MAX_ITERATIONS {
        prob.smoothness = SECOND_SMOOTHNESS;
        cur = descend(&prob, cur, SECOND_TRUST_M, min_trust, true, &mut count);
    }
    let Count {
        iterations,
        accepted,
    } = count;
    if cur.traj.lap_time < iqp.lap_time {
        Ok(MintimeSolution {
            knots: prob.points(&cur.alpha),
            trajectory: cur.traj,
            iterations,
            accepted,
            is_iqp: false,
            fine_lap_s: Some(cur.lap),
        })
    } else {
        Ok(fallback(iterations, accepted, Some(cur.lap)))
    }
}

/// QPs solved and steps kept, over the passes of [`descend`].
#[derive(Debug, Default)]
struct Count {
    iterations: usize,
    accepted: usize,
}

/// One pass of the iteration from `cur` with the trust region `rho` (see the module doc): the
/// fastest line found, never slower than `cur`. The first pass (`second` false) ends when a kept
/// step gains less than [`MIN_GAIN_S`], at a stall ([`stalled`]) or when the region falls below
/// `min_trust`; the second chance (from where the first stopped, [`SECOND_SMOOTHNESS`], the
/// region re-opened) tries a rejected step again at half, a quarter and an eighth of its length
/// ([`BACKTRACKS`]) and ends at the first step none of those makes faster, or as the first.
fn descend(
    prob: &Problem,
    mut cur: Candidate,
    mut rho: f64,
    min_trust: f64,
    second: bool,
    count: &mut Count,
) -> Candidate {
    // whether each iteration's step left the lap as it was ([`stalled`])
    let mut flat = Vec::new();
    while count.iterations < MAX_ITERATIONS && rho >= min_trust {
        count.iterations += 1;
        match prob.step(&cur, rho, count.iterations) {
            Ok(alpha) => {
                let step: Vec<f64> = alpha.iter().zip(&cur.alpha).map(|(a, b)| a - b).collect();
                // the longest shift the QP took: a region larger than that did not bind
                let taken = step.iter().map(|d| d.abs()).fold(0.0, f64::max);
                // the lap first (already timed), the walls only for a faster line
                let candidate = prob.candidate(alpha).ok();
                let change = candidate
                    .as_ref()
                    .map_or(f64::INFINITY, |c| c.lap - cur.lap);
                let mut next = candidate
                    .filter(|c| c.lap < cur.lap)
                    .and_then(|c| prob.checked(c));
                // flat: the step changed the lap by less than the stall tolerance either way
                // (a faster line outside the corridor is the model's error, not a flat lap)
                flat.push(change.abs() < STALL_GAIN * cur.lap && (change >= 0.0 || next.is_some()));
                // the second chance tries a rejected step shorter along the same direction (a
                // convex combination of two points inside the QP's corridor rows; the candidate is
                // checked against the walls all the same)
                let mut scale = 1.0;
                for _ in 0..if second { BACKTRACKS } else { 0 } {
                    if next.is_some() {
                        break;
                    }
                    scale *= 0.5;
                    let shorter = cur
                        .alpha
                        .iter()
                        .zip(&step)
                        .map(|(a, d)| a + scale * d)
                        .collect();
                    next = prob
                        .candidate(shorter)
                        .ok()
                        .filter(|c| c.lap < cur.lap)
                        .and_then(|c| prob.checked(c));
                }
                match next {
                    Some(next) => {
                        let gain = cur.lap - next.lap;
                        cur = next;
                        count.accepted += 1;
                        // the region grows from the step the QP took, not from one that did
                        // not bind (a larger region only adds corridor rows); after a shortened
                        // step it is that step's length
                        rho = if scale < 1.0 {
                            scale * taken
                        } else {
                            (1.5 * taken).min(TRUST_MAX_M)
                        };
                        if gain < MIN_GAIN_S {
                            break;
                        }
                    }
                    // the second chance has had its chance
                    None if second => break,
                    // the model was wrong over the step it took: halve that step, not a region
                    // that did not bind (which only costs QPs that return the same step)
                    None => rho = 0.5 * rho.min(taken),
                }
            }
            // a QP the solver cannot finish is a step too far: shrink
            Err(_) => {
                rho *= 0.5;
                flat.push(false);
            }
        }
        if stalled(&flat) {
            break;
        }
    }
    cur
}

/// The first step of the min-time iteration, ready to solve (benches): the problem on knots
/// every `every` samples of the IQP line, and its unshifted candidate.
#[cfg(any(test, feature = "reference"))]
pub struct MintimeStep<'a> {
    prob: Problem<'a>,
    cur: Candidate,
}

#[cfg(any(test, feature = "reference"))]
impl<'a> MintimeStep<'a> {
    /// The first step from the IQP line `iqp` with knots every `every` of its samples.
    pub fn new(
        iqp: &Trajectory,
        walls: &'a ResampledWalls,
        params: &RacelineParams,
        vehicle: &'a Vehicle,
        every: usize,
    ) -> Result<Self, OptimizeError> {
        let base = spread_knots(&iqp.xy, every.max(1));
        let (prob, cur) = Problem::start(base, iqp, walls, params, vehicle)?;
        Ok(MintimeStep { prob, cur })
    }

    /// Knots of the step's QP.
    pub fn knots(&self) -> usize {
        self.prob.base.len()
    }

    /// One QP at the first trust region: the new shifts, metres.
    pub fn solve(&self) -> Result<Vec<f64>, OptimizeError> {
        self.prob.step(&self.cur, TRUST_START_M, 1)
    }
}

/// The knots the min-time step starts from and shifts along their normals: about every
/// [`KNOT_STEP_M`] (at most [`MAX_KNOTS`]) of the IQP line `iqp` sampled every `stepsize`, spread
/// evenly round the loop ([`spread_knots`]).
pub fn start_knots(iqp: &Trajectory, stepsize: f64) -> Vec<[f64; 2]> {
    spread_knots(&iqp.xy, knot_every(iqp.length, stepsize))
}

/// Knots about every `every` samples of the closed line `xy`, spread evenly round the whole
/// loop: knot k sits at the fractional sample index k·n/m (m = ⌈n/every⌉ knots), between two
/// samples by cubic interpolation through the four nearest. When `every` divides n these are
/// every `every`-th sample;
/// otherwise taking every `every`-th sample would leave one short gap at the seam, where the
/// spline through the knots (unit parameter per segment) bends.
fn spread_knots(xy: &[[f64; 2]], every: usize) -> Vec<[f64; 2]> {
    let n = xy.len();
    let m = n.div_ceil(every);
    (0..m)
        .map(|k| {
            let u = (k * n) as f64 / m as f64;
            let i = u.floor() as usize;
            let f = u - i as f64;
            if f == 0.0 {
                return xy[i];
            }
            // cubic Lagrange through the samples i−1 … i+2 (a chord would cut the curve by
            // κh²/8, a millimetre on a hairpin, and a knot a millimetre off costs a lot)
            let p = [xy[(i + n - 1) % n], xy[i], xy[(i + 1) % n], xy[(i + 2) % n]];
            let w = [
                -f * (f - 1.0) * (f - 2.0) / 6.0,
                (f + 1.0) * (f - 1.0) * (f - 2.0) / 2.0,
                -(f + 1.0) * f * (f - 2.0) / 2.0,
                (f + 1.0) * f * (f - 1.0) / 6.0,
            ];
            let mut q = [0.0; 2];
            for (pk, wk) in p.iter().zip(w) {
                q[0] += wk * pk[0];
                q[1] += wk * pk[1];
            }
            q
        })
        .collect()
}

/// Whether the iteration has stalled: the steps of the last [`STALL_ITERATIONS`] iterations
/// (`flat`, one per iteration) each changed the lap by less than [`STALL_GAIN`] of it, kept or
/// not. Near a solution of the QP's model its steps are kept or rejected by differences the
/// model cannot see (a kept step gains a few 1e-5 of the lap, a rejected one loses as
/// little), and halving the region down to [`min_trust`] only repeats that: on the long
/// f1tenth tracks the last half of the iterations gained 0.02 % of the lap together. A step
/// rejected for a real loss (or for the corridor) is the model's error at that region, which
/// shrinks as before.
fn stalled(flat: &[bool]) -> bool {
    flat.len() >= STALL_ITERATIONS && flat[flat.len() - STALL_ITERATIONS..].iter().all(|&f| f)
}

/// The smallest trust region of knots about `length / knots` apart: [`MIN_TRUST_M`] at
/// [`KNOT_STEP_M`], growing with the square of the spacing. A shift δ of one knot bends the
/// spline through knots h apart by about 6·δ/h², and it is that bend the re-timed lap feels:
/// the same smallest change of curvature is a 20 times larger shift on a 430 m track
/// (knots 0.86 m apart) than on a short one. Without that, a long track spent its last
/// iterations halving a region whose steps could no longer change its lap.
fn min_trust(length: f64, knots: usize) -> f64 {
    let spacing = length / knots.max(1) as f64;
    MIN_TRUST_M * (spacing / KNOT_STEP_M).max(1.0).powi(2)
}

/// Every how many samples of the IQP line a knot sits: at least [`KNOT_STEP_M`] apart, and no
/// more than [`MAX_KNOTS`] knots, so that one QP stays small on long tracks.
fn knot_every(length: f64, stepsize: f64) -> usize {
    let spacing = KNOT_STEP_M.max(length / MAX_KNOTS as f64);
    ((spacing / stepsize - 1e-9).ceil() as usize).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spread knots lie on the sampled curve, evenly round the loop (no short gap at the seam),
    /// and are the samples themselves when the step divides the count.
    #[test]
    fn spread_knots_are_even_and_on_the_curve() {
        // a circle sampled every 0.1 m, as the IQP line is
        let radius = |n: usize| n as f64 * 0.1 / std::f64::consts::TAU;
        let circle = |n: usize| -> Vec<[f64; 2]> {
            (0..n)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / n as f64;
                    [radius(n) * a.cos(), radius(n) * a.sin()]
                })
                .collect()
        };
        let xy = circle(600);
        assert_eq!(
            spread_knots(&xy, 3),
            xy.iter().step_by(3).cloned().collect::<Vec<_>>()
        );
        for (n, every) in [(601, 3), (767, 2), (2804, 6), (100, 7)] {
            let (xy, r) = (circle(n), radius(n));
            let knots = spread_knots(&xy, every);
            let m = n.div_ceil(every);
            assert_eq!(knots.len(), m);
            let gap = 2.0 * r * (std::f64::consts::PI / m as f64).sin();
            for k in 0..m {
                let (p, q) = (knots[k], knots[(k + 1) % m]);
                assert!(
                    (p[0].hypot(p[1]) - r).abs() < 1e-5,
                    "{n} {every}: off the circle"
                );
                let chord = (q[0] - p[0]).hypot(q[1] - p[1]);
                assert!(
                    (chord - gap).abs() < 2e-5,
                    "{n} {every}: gap {chord} vs {gap}"
                );
            }
        }
    }

    /// The fine lap's step is chosen from the length of the line sampled at the output's step
    /// (the sum `fine_lap` forms is that sampling's total, bit for bit), so the two samplings
    /// can run side by side.
    #[test]
    fn fine_step_length_is_the_coarse_samplings_total() {
        for (n, wobble) in [(12, 0.0), (40, 1.5), (333, 0.7)] {
            let knots: Vec<[f64; 2]> = (0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / n as f64;
                    let r = 10.0 + wobble * (5.0 * a).sin();
                    [r * a.cos(), 0.7 * r * a.sin()]
                })
                .collect();
            let spline = ClosedSpline::through(&knots, None).unwrap();
            let length = spline.lengths().iter().fold(0.0, |acc, l| acc + l);
            for step in [0.05, 0.1, 0.37] {
                let (traj, _, _) = crate::trajectory::sample_spline(&spline, step).unwrap();
                assert_eq!(
                    traj.length.to_bits(),
                    length.to_bits(),
                    "{n} knots, step {step}"
                );
            }
        }
    }

    /// The corridor rows are exact for the spline: a point at local parameter t moves along any
    /// direction by `move_along`'s coefficients times the knots' shifts and the new line's
    /// second derivatives, less the same for the old line's (shifts 0).
    #[test]
    fn sample_rows_move_the_spline_point_exactly() {
        let n = 40;
        let knots: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = 10.0 + 1.5 * (3.0 * a).cos();
                [r * a.cos(), 1.3 * r * a.sin()]
            })
            .collect();
        let normals = ClosedSpline::through(&knots, None).unwrap().normals();
        // a rough shift: the second derivatives matter
        let alpha: Vec<f64> = (0..n)
            .map(|k| 0.3 * ((7 * k) % 5) as f64 / 4.0 - 0.1)
            .collect();
        let moved = crate::iqp::shift_along_normals(&knots, &normals, &alpha);
        let z = |pts: &[[f64; 2]]| {
            let ones = vec![1.0; n];
            let xs: Vec<f64> = pts.iter().map(|p| p[0]).collect();
            let ys: Vec<f64> = pts.iter().map(|p| p[1]).collect();
            (
                crate::spline::second_derivatives(&xs, &ones).unwrap(),
                crate::spline::second_derivatives(&ys, &ones).unwrap(),
            )
        };
        let ((zx0, zy0), (zx1, zy1)) = (z(&knots), z(&moved));
        let (old, new) = (
            ClosedSpline::through(&knots, None).unwrap(),
            ClosedSpline::through(&moved, None).unwrap(),
        );
        for i in 0..n {
            let j = (i + 1) % n;
            for t in [0.0, 0.1, 0.37, 0.5, 0.8, 0.99] {
                for m in [[1.0, 0.0], [0.6, -0.8], [-0.28, 0.96]] {
                    let c = move_along(m, t, normals[i], normals[j]);
                    let predicted = c[0] * alpha[i]
                        + c[1] * alpha[j]
                        + c[2] * (zx1[i] - zx0[i])
                        + c[3] * (zy1[i] - zy0[i])
                        + c[4] * (zx1[j] - zx0[j])
                        + c[5] * (zy1[j] - zy0[j]);
                    let (p, q) = (old.point(i, t), new.point(i, t));
                    let actual = (q[0] - p[0]) * m[0] + (q[1] - p[1]) * m[1];
                    assert!(
                        (predicted - actual).abs() < 1e-9,
                        "segment {i}, t {t}: {predicted} vs {actual}"
                    );
                }
            }
        }
    }

    /// The smallest trust region is MIN_TRUST_M at knots KNOT_STEP_M apart (or closer) and grows
    /// with the square of the spacing; the stall test looks at the last STALL_ITERATIONS.
    #[test]
    fn min_trust_scales_with_the_square_of_the_knot_spacing_and_stalls_are_seen() {
        assert_eq!(min_trust(100.0, 500), MIN_TRUST_M);
        assert_eq!(min_trust(50.0, 500), MIN_TRUST_M);
        assert!((min_trust(400.0, 500) / MIN_TRUST_M - 16.0).abs() < 1e-12);
        assert!(!stalled(&[true, true]));
        assert!(stalled(&[true, true, true]));
        assert!(stalled(&[false, true, true, true]));
        assert!(!stalled(&[true, true, false]));
        assert!(!stalled(&[true, false, true, true]));
    }

    /// The knots are never closer than KNOT_STEP_M and never more than MAX_KNOTS, whatever the
    /// track's length and the sample step.
    #[test]
    fn knot_spacing_is_bounded_in_count_and_distance() {
        for stepsize in [0.05, 0.1, 0.15, 0.25] {
            for length in [10.0, 76.5, 100.0, 143.5, 400.0, 2000.0] {
                let every = knot_every(length, stepsize);
                let samples = (length / stepsize).round() as usize;
                let knots = samples.div_ceil(every);
                assert!(
                    every as f64 * stepsize >= KNOT_STEP_M - 1e-9
                        || every == 1 && stepsize >= KNOT_STEP_M,
                    "stepsize {stepsize}, length {length}: every {every}"
                );
                assert!(
                    knots <= MAX_KNOTS,
                    "stepsize {stepsize}, length {length}: {knots} knots"
                );
                // and not coarser than needed: one sample fewer per knot would break a bound
                if every > 1 {
                    let finer = every - 1;
                    assert!(
                        (finer as f64) * stepsize < KNOT_STEP_M - 1e-9
                            || samples.div_ceil(finer) > MAX_KNOTS,
                        "stepsize {stepsize}, length {length}: every {every} is coarser than needed"
                    );
                }
            }
        }
    }
}
