//! The banded QP solver (issue 21): a primal-dual interior-point method with Mehrotra's
//! predictor–corrector (Mehrotra 1992; Nocedal & Wright, *Numerical Optimization*, §16.6)
//! for the racing-line QPs `min ½xᵀPx + qᵀx  s.t.  A_E x = b_E,  A_I x ≤ b_I` that
//! [`crate::qp::QpProblem`] assembles.
//!
//! Every racing-line QP is a chain of knots closed into a loop: each variable and each
//! equality row belongs to one knot, P and the equalities couple a knot only with its
//! neighbours, and each inequality row touches at most two neighbouring knots. The Newton
//! system of an iteration, with the inequalities eliminated through their barrier weights
//! W = Z S⁻¹,
//!
//! ```text
//! [ P + A_Iᵀ W A_I + δI   A_Eᵀ ] [dx]   [r_x]
//! [ A_E                   −δI  ] [dy] = [r_y]
//! ```
//!
//! ordered knot by knot is then block cyclic tridiagonal ([`cyclic`]), and is factored in
//! O(N) per iteration. The small regularisation δ makes the matrix quasi-definite, so the
//! block elimination needs no pivoting across blocks; iterative refinement against the
//! unregularised matrix removes its effect. A problem without knot structure is solved the
//! same way with one dense block (the unit tests' small problems).
//!
//! The active-set polish ([`polish`]) solves the equality-constrained QP on the interior
//! point's active set with the same factorisation, and applies the same acceptance test as
//! the Clarabel path of [`crate::qp`], so both solvers return the exact minimiser.

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

mod cyclic;

use cyclic::{BlockCyclic, Factor};

use crate::status::QpSolution;

/// Primal and dual regularisation of the Newton system.
const DELTA: f64 = 1e-9;
/// Iterative-refinement steps at most of the polish's solve (the interior point's Newton
/// solves are refined on the full system instead, [`Newton::direction`]).
const REFINE_STEPS: usize = 8;
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

/// Why the banded solver gave up (the caller then asks Clarabel, which names the status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// A coupling lies outside the knot band.
    NotBanded,
    /// A pivot block was singular.
    Singular,
    /// No convergence within the iteration limit (e.g. an infeasible problem).
    NotConverged,
}

/// A QP in the solver's terms: sizes, P's upper triangle and A as triplets, q and b, and
/// the knot count (variable v and equality row r belong to knot v mod `knots`; 0 or fewer
/// than 3 knots: no structure).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Problem<'a> {
    pub nvar: usize,
    pub n_eq: usize,
    pub p: Triplets<'a>,
    pub q: &'a [f64],
    pub a: Triplets<'a>,
    pub b: &'a [f64],
    pub knots: usize,
}

/// Matrix entries (row, column, value).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Triplets<'a> {
    pub i: &'a [usize],
    pub j: &'a [usize],
    pub v: &'a [f64],
}

impl Problem<'_> {
    fn m(&self) -> usize {
        self.b.len()
    }

    /// Knots in use: 1 (dense) without structure.
    fn blocks(&self) -> usize {
        if self.knots >= 3 && self.nvar.is_multiple_of(self.knots) {
            self.knots
        } else {
            1
        }
    }

    /// A x (all rows).
    fn ax(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let a = &self.a;
        for t in 0..a.v.len() {
            out[a.i[t]] += a.v[t] * x[a.j[t]];
        }
    }

    /// out += Aᵀ y.
    fn add_aty(&self, y: &[f64], out: &mut [f64]) {
        let a = &self.a;
        for t in 0..a.v.len() {
            out[a.j[t]] += a.v[t] * y[a.i[t]];
        }
    }

    /// P x (P symmetric from its upper triangle).
    fn px(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let p = &self.p;
        for t in 0..p.v.len() {
            let (i, j, v) = (p.i[t], p.j[t], p.v[t]);
            out[i] += v * x[j];
            if i != j {
                out[j] += v * x[i];
            }
        }
    }
}

/// Where each row of a KKT system sits: the knot of each variable and of each row kept as
/// an equation, the unknowns ordered knot by knot (variables first, then rows).
struct Layout {
    /// Index of each variable among the unknowns.
    var: Vec<usize>,
    /// Index of each kept row among the unknowns (`usize::MAX`: not kept).
    row: Vec<usize>,
    /// Unknowns per knot.
    size: Vec<usize>,
}

impl Layout {
    /// Variables by knot, and the rows `kept` (as equations) each placed at the knot in the
    /// middle of those its columns touch. `None` when a row spans more than three neighbours.
    fn new(pb: &Problem, kept: &[bool]) -> Option<Layout> {
        let nk = pb.blocks();
        let m = pb.m();
        let mut row_knot = vec![usize::MAX; m];
        if nk == 1 {
            row_knot
                .iter_mut()
                .zip(kept)
                .filter(|(_, &k)| k)
                .for_each(|(r, _)| *r = 0);
        } else {
            let mut touched: Vec<Vec<usize>> = vec![Vec::new(); m];
            for t in 0..pb.a.v.len() {
                let r = pb.a.i[t];
                if kept[r] {
                    let k = pb.a.j[t] % nk;
                    if !touched[r].contains(&k) {
                        touched[r].push(k);
                    }
                }
            }
            for r in 0..m {
                if kept[r] {
                    row_knot[r] = centre_knot(&touched[r], nk)?;
                }
            }
        }
        let mut size = vec![0; nk];
        let mut var_local = vec![0; pb.nvar];
        for v in 0..pb.nvar {
            let k = v % nk;
            var_local[v] = size[k];
            size[k] += 1;
        }
        let mut row_local = vec![0; m];
        for r in 0..m {
            if row_knot[r] != usize::MAX {
                row_local[r] = size[row_knot[r]];
                size[row_knot[r]] += 1;
            }
        }
        let mut start = vec![0; nk];
        for k in 1..nk {
            start[k] = start[k - 1] + size[k - 1];
        }
        let var = (0..pb.nvar).map(|v| start[v % nk] + var_local[v]).collect();
        let row = (0..m)
            .map(|r| match row_knot[r] {
                usize::MAX => usize::MAX,
                k => start[k] + row_local[r],
            })
            .collect();
        Some(Layout { var, row, size })
    }
}

/// The knot a row touching `knots` belongs to: the one itself, the first of two neighbours,
/// the middle of three; `None` otherwise.
fn centre_knot(knots: &[usize], nk: usize) -> Option<usize> {
    let next = |k: usize| (k + 1) % nk;
    match *knots {
        [] => Some(0),
        [a] => Some(a),
        [a, b] if b == next(a) => Some(a),
        [a, b] if a == next(b) => Some(b),
        _ => knots.iter().copied().find(|&c| {
            let prev = (c + nk - 1) % nk;
            knots.iter().all(|&k| k == c || k == prev || k == next(c))
        }),
    }
}

/// A KKT matrix being assembled, with the precomputed places of each contribution.
struct Kkt {
    mat: BlockCyclic,
    /// P's triplets: their places.
    p_slots: Vec<(usize, Option<usize>)>,
    /// The kept rows' triplets: the places of (variable, row) and its mirror.
    a_slots: Vec<Option<(usize, Option<usize>)>>,
    /// The barrier rows' outer products: (place, mirror, vₐ·v_b, row).
    w_slots: Vec<(usize, Option<usize>, f64, usize)>,
    /// Diagonal places of the variables and of the kept rows.
    var_diag: Vec<usize>,
    row_diag: Vec<usize>,
}

impl Kkt {
    /// The places for problem `pb` with rows `kept` as equations and the others as barrier
    /// rows (when `barrier`).
    fn new(pb: &Problem, lay: &Layout, kept: &[bool], barrier: bool) -> Result<Kkt, Failure> {
        let mat = BlockCyclic::new(lay.size.clone());
        let slots = |a: usize, b: usize| mat.slots(a, b).ok_or(Failure::NotBanded);
        let mut p_slots = Vec::with_capacity(pb.p.v.len());
        for t in 0..pb.p.v.len() {
            p_slots.push(slots(lay.var[pb.p.i[t]], lay.var[pb.p.j[t]])?);
        }
        let mut a_slots = Vec::with_capacity(pb.a.v.len());
        let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new(); pb.m()];
        for t in 0..pb.a.v.len() {
            let r = pb.a.i[t];
            if kept[r] {
                a_slots.push(Some(slots(lay.var[pb.a.j[t]], lay.row[r])?));
            } else {
                a_slots.push(None);
                if barrier {
                    rows[r].push((pb.a.j[t], pb.a.v[t]));
                }
            }
        }
        let mut w_slots = Vec::new();
        for (r, entries) in rows.iter().enumerate() {
            for (ia, &(ca, va)) in entries.iter().enumerate() {
                for (ib, &(cb, vb)) in entries.iter().enumerate().skip(ia) {
                    let (s, mirror) = slots(lay.var[ca], lay.var[cb])?;
                    // two entries of one column: K(c, c) gets both orders of the pair
                    let coef = if ib > ia && ca == cb {
                        2.0 * va * vb
                    } else {
                        va * vb
                    };
                    w_slots.push((s, mirror, coef, r));
                }
            }
        }
        let var_diag = (0..pb.nvar)
            .map(|v| slots(lay.var[v], lay.var[v]).map(|s| s.0))
            .collect::<Result<_, _>>()?;
        let row_diag = (0..pb.m())
            .filter(|&r| kept[r])
            .map(|r| slots(lay.row[r], lay.row[r]).map(|s| s.0))
            .collect::<Result<_, _>>()?;
        Ok(Kkt {
            mat,
            p_slots,
            a_slots,
            w_slots,
            var_diag,
            row_diag,
        })
    }

    /// K = [P + A_Iᵀ W A_I + δ_p I, A_Eᵀ; A_E, −δ_d I] for barrier weights `w` (per row).
    fn assemble(&mut self, pb: &Problem, w: &[f64], delta: f64) {
        let data = &mut self.mat.data;
        data.iter_mut().for_each(|v| *v = 0.0);
        for (t, &(s, mirror)) in self.p_slots.iter().enumerate() {
            data[s] += pb.p.v[t];
            if let Some(m) = mirror {
                data[m] += pb.p.v[t];
            }
        }
        for (t, slot) in self.a_slots.iter().enumerate() {
            if let Some((s, mirror)) = *slot {
                data[s] += pb.a.v[t];
                if let Some(m) = mirror {
                    data[m] += pb.a.v[t];
                }
            }
        }
        for &(s, mirror, coef, r) in &self.w_slots {
            let v = coef * w[r];
            data[s] += v;
            if let Some(m) = mirror {
                data[m] += v;
            }
        }
        for &d in &self.var_diag {
            data[d] += delta;
        }
        for &d in &self.row_diag {
            data[d] -= delta;
        }
    }

    /// Solves the unregularised system (the assembled one less its ±δ) for `rhs` by the
    /// regularised factor and iterative refinement; the solution replaces `rhs`.
    fn solve(&self, factor: &Factor, delta: f64, rhs: &mut [f64], work: &mut Work, steps: usize) {
        let n = rhs.len();
        work.b.clear();
        work.b.extend_from_slice(rhs);
        factor.solve(rhs);
        let scale = work
            .b
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()))
            .max(1e-300);
        for _ in 0..steps {
            // r = b − (K_reg − Δ) x
            self.mat.mul(rhs, &mut work.r);
            let r = &mut work.r;
            for i in 0..n {
                r[i] = work.b[i] - r[i];
            }
            for &i in &work.var_unknowns {
                r[i] += delta * rhs[i];
            }
            for &i in &work.row_unknowns {
                r[i] -= delta * rhs[i];
            }
            let res = r.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            if res.is_nan() || res <= 1e-14 * scale {
                break;
            }
            factor.solve(r);
            for i in 0..n {
                rhs[i] += r[i];
            }
        }
    }
}

/// Scratch vectors of the refinement.
struct Work {
    b: Vec<f64>,
    r: Vec<f64>,
    var_unknowns: Vec<usize>,
    row_unknowns: Vec<usize>,
}

impl Work {
    fn new(lay: &Layout) -> Work {
        let n: usize = lay.size.iter().sum();
        Work {
            b: Vec::with_capacity(n),
            r: vec![0.0; n],
            var_unknowns: lay.var.clone(),
            row_unknowns: lay
                .row
                .iter()
                .copied()
                .filter(|&r| r != usize::MAX)
                .collect(),
        }
    }
}

/// One interior-point iteration's Newton system: the problem, the factored reduced matrix
/// and the current slacks and duals.
struct Newton<'a> {
    pb: &'a Problem<'a>,
    lay: &'a Layout,
    kkt: &'a Kkt,
    factor: &'a Factor,
    s: &'a [f64],
    z: &'a [f64],
    /// Refinement passes on the full system.
    refine: usize,
}

/// Refinement passes on the full Newton system at most, once the iterate is close (before,
/// the direction's accuracy does not limit the progress).
const NEWTON_REFINE: usize = 4;
/// The residual below which the Newton directions are refined.
const REFINE_BELOW: f64 = 1e-3;

impl Newton<'_> {
    /// Solves P dx + A_Eᵀ dy + A_Iᵀ dz = r1, A_E dx = r2, A_I dx + ds = r3, Z ds + S dz = r4
    /// through the reduced system: ds = r3 − A_I dx, dz = S⁻¹(r4 − Z r3) + W A_I dx.
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        r: [&[f64]; 4],
        dx: &mut [f64],
        dy: &mut [f64],
        ds: &mut [f64],
        dz: &mut [f64],
        work: &mut Work,
    ) {
        let (pb, lay) = (self.pb, self.lay);
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        let n_in = m - n_eq;
        let mut t = vec![0.0; m];
        for k in 0..n_in {
            t[n_eq + k] = (r[3][k] - self.z[k] * r[2][k]) / self.s[k];
        }
        let mut g = vec![0.0; nvar];
        pb.add_aty(&t, &mut g);
        let mut rhs = vec![0.0; self.kkt.mat.dim()];
        for v in 0..nvar {
            rhs[lay.var[v]] = r[0][v] - g[v];
        }
        for row in 0..n_eq {
            rhs[lay.row[row]] = r[1][row];
        }
        self.kkt.solve(self.factor, DELTA, &mut rhs, work, 0);
        for v in 0..nvar {
            dx[v] = rhs[lay.var[v]];
        }
        for row in 0..n_eq {
            dy[row] = rhs[lay.row[row]];
        }
        pb.ax(dx, &mut t);
        for k in 0..n_in {
            ds[k] = r[2][k] - t[n_eq + k];
            dz[k] = (r[3][k] - self.z[k] * ds[k]) / self.s[k];
        }
    }

    /// The Newton direction for residuals rd, rp and complementarity target rc
    /// (Z ds + S dz = −rc), refined on the full system: the reduced one carries the barrier
    /// weights, up to 1e18 near the solution, and alone loses the dual residual's digits.
    #[allow(clippy::too_many_arguments)]
    fn direction(
        &self,
        rd: &[f64],
        rp: &[f64],
        rc: &[f64],
        dx: &mut [f64],
        dy: &mut [f64],
        ds: &mut [f64],
        dz: &mut [f64],
        work: &mut Work,
    ) {
        let pb = self.pb;
        let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
        let n_in = m - n_eq;
        let r1: Vec<f64> = rd.iter().map(|v| -v).collect();
        let r2: Vec<f64> = rp[..n_eq].iter().map(|v| -v).collect();
        let r3: Vec<f64> = rp[n_eq..].iter().map(|v| -v).collect();
        let r4: Vec<f64> = rc.iter().map(|v| -v).collect();
        self.solve([&r1, &r2, &r3, &r4], dx, dy, ds, dz, work);
        let (mut e1, mut e2, mut e3, mut e4) = (
            vec![0.0; nvar],
            vec![0.0; n_eq],
            vec![0.0; n_in],
            vec![0.0; n_in],
        );
        let (mut cx, mut cy, mut cs, mut cz) = (
            vec![0.0; nvar],
            vec![0.0; n_eq],
            vec![0.0; n_in],
            vec![0.0; n_in],
        );
        let mut ax = vec![0.0; m];
        let mut yz = vec![0.0; m];
        let scale = inf_norm(&r1).max(inf_norm(&r2)).max(1e-300);
        let mut prev = f64::INFINITY;
        for _ in 0..self.refine {
            pb.px(dx, &mut e1);
            yz[..n_eq].copy_from_slice(dy);
            yz[n_eq..].copy_from_slice(dz);
            pb.add_aty(&yz, &mut e1);
            pb.ax(dx, &mut ax);
            let mut worst: f64 = 0.0;
            for v in 0..nvar {
                e1[v] = r1[v] - e1[v];
                worst = worst.max(e1[v].abs());
            }
            for r in 0..n_eq {
                e2[r] = r2[r] - ax[r];
                worst = worst.max(e2[r].abs());
            }
            for k in 0..n_in {
                e3[k] = r3[k] - ax[n_eq + k] - ds[k];
                e4[k] = r4[k] - self.z[k] * ds[k] - self.s[k] * dz[k];
            }
            if worst.is_nan() || worst >= prev || worst <= 1e-13 * scale {
                break;
            }
            prev = worst;
            self.solve(
                [&e1, &e2, &e3, &e4],
                &mut cx,
                &mut cy,
                &mut cs,
                &mut cz,
                work,
            );
            dx.iter_mut().zip(&cx).for_each(|(a, b)| *a += b);
            dy.iter_mut().zip(&cy).for_each(|(a, b)| *a += b);
            ds.iter_mut().zip(&cs).for_each(|(a, b)| *a += b);
            dz.iter_mut().zip(&cz).for_each(|(a, b)| *a += b);
        }
    }
}

/// max |v|.
fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, x| a.max(x.abs()))
}

/// Largest step t ≤ 1 with v + t·dv ≥ 0.
fn max_step(v: &[f64], dv: &[f64]) -> f64 {
    v.iter()
        .zip(dv)
        .filter(|(_, &d)| d < 0.0)
        .map(|(&x, &d)| -x / d)
        .fold(1.0, f64::min)
}

/// Ruiz equilibration passes.
const RUIZ_PASSES: usize = 25;
/// Bounds of each scaling factor (as OSQP's).
const SCALE_RANGE: (f64, f64) = (1e-4, 1e4);

/// A diagonal scaling of a QP (Ruiz equilibration of [P Aᵀ; A 0], then the cost; Ruiz 2001,
/// as OSQP and Clarabel scale): x = D x̃, the rows multiplied by E, the objective by c.
struct Scaled {
    d: Vec<f64>,
    e: Vec<f64>,
    c: f64,
    pv: Vec<f64>,
    av: Vec<f64>,
    q: Vec<f64>,
    b: Vec<f64>,
}

impl Scaled {
    fn new(pb: &Problem) -> Scaled {
        let (nvar, m) = (pb.nvar, pb.m());
        let mut sc = Scaled {
            d: vec![1.0; nvar],
            e: vec![1.0; m],
            c: 1.0,
            pv: pb.p.v.to_vec(),
            av: pb.a.v.to_vec(),
            q: pb.q.to_vec(),
            b: pb.b.to_vec(),
        };
        let clamp = |v: f64| {
            if v > 0.0 && v.is_finite() {
                (1.0 / v.sqrt()).clamp(SCALE_RANGE.0, SCALE_RANGE.1)
            } else {
                1.0
            }
        };
        let mut col = vec![0.0f64; nvar];
        let mut row = vec![0.0f64; m];
        for _ in 0..RUIZ_PASSES {
            col.iter_mut().for_each(|v| *v = 0.0);
            row.iter_mut().for_each(|v| *v = 0.0);
            for (t, &v) in sc.pv.iter().enumerate() {
                let (i, j) = (pb.p.i[t], pb.p.j[t]);
                col[i] = col[i].max(v.abs());
                col[j] = col[j].max(v.abs());
            }
            for (t, &v) in sc.av.iter().enumerate() {
                let (r, j) = (pb.a.i[t], pb.a.j[t]);
                col[j] = col[j].max(v.abs());
                row[r] = row[r].max(v.abs());
            }
            let dc: Vec<f64> = col.iter().map(|&v| clamp(v)).collect();
            let ec: Vec<f64> = row.iter().map(|&v| clamp(v)).collect();
            for (t, v) in sc.pv.iter_mut().enumerate() {
                *v *= dc[pb.p.i[t]] * dc[pb.p.j[t]];
            }
            for (t, v) in sc.av.iter_mut().enumerate() {
                *v *= ec[pb.a.i[t]] * dc[pb.a.j[t]];
            }
            for j in 0..nvar {
                sc.d[j] = (sc.d[j] * dc[j]).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
                sc.q[j] *= dc[j];
            }
            for r in 0..m {
                sc.e[r] = (sc.e[r] * ec[r]).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
                sc.b[r] *= ec[r];
            }
        }
        // the cost: the mean column norm of P or the largest |q| becomes one
        col.iter_mut().for_each(|v| *v = 0.0);
        for (t, &v) in sc.pv.iter().enumerate() {
            let (i, j) = (pb.p.i[t], pb.p.j[t]);
            col[i] = col[i].max(v.abs());
            col[j] = col[j].max(v.abs());
        }
        let mean = if nvar > 0 {
            col.iter().sum::<f64>() / nvar as f64
        } else {
            0.0
        };
        let norm = mean.max(inf_norm(&sc.q));
        if norm > 0.0 && norm.is_finite() {
            sc.c = (1.0 / norm).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        }
        sc.pv.iter_mut().for_each(|v| *v *= sc.c);
        sc.q.iter_mut().for_each(|v| *v *= sc.c);
        sc
    }

    /// The scaled problem.
    fn problem<'a>(&'a self, pb: &Problem<'a>) -> Problem<'a> {
        Problem {
            nvar: pb.nvar,
            n_eq: pb.n_eq,
            p: Triplets {
                i: pb.p.i,
                j: pb.p.j,
                v: &self.pv,
            },
            q: &self.q,
            a: Triplets {
                i: pb.a.i,
                j: pb.a.j,
                v: &self.av,
            },
            b: &self.b,
            knots: pb.knots,
        }
    }

    /// The solution of the original problem from that of the scaled one: x = D x̃,
    /// s = E⁻¹ s̃, z = E z̃ / c.
    fn unscale(&self, mut sol: QpSolution) -> QpSolution {
        sol.x.iter_mut().zip(&self.d).for_each(|(x, d)| *x *= d);
        sol.s.iter_mut().zip(&self.e).for_each(|(s, e)| *s /= e);
        sol.z
            .iter_mut()
            .zip(&self.e)
            .for_each(|(z, e)| *z *= e / self.c);
        sol
    }
}

/// The interior-point solution (x, slacks, duals) of `pb`, solved on its equilibrated copy.
pub(crate) fn solve(pb: &Problem) -> Result<QpSolution, Failure> {
    let sc = Scaled::new(pb);
    let sol = solve_scaled(&sc.problem(pb))?;
    Ok(sc.unscale(sol))
}

/// The interior-point solution (x, slacks, duals) of `pb` as given.
fn solve_scaled(pb: &Problem) -> Result<QpSolution, Failure> {
    let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
    let n_in = m - n_eq;
    let kept: Vec<bool> = (0..m).map(|r| r < n_eq).collect();
    let lay = Layout::new(pb, &kept).ok_or(Failure::NotBanded)?;
    let mut kkt = Kkt::new(pb, &lay, &kept, true)?;
    let mut work = Work::new(&lay);
    let dim = kkt.mat.dim();
    let mut rhs = vec![0.0; dim];
    let mut w = vec![0.0; m];

    // start: the least-squares point of the inequalities (W = I), s and z shifted inside
    w[n_eq..].iter_mut().for_each(|v| *v = 1.0);
    kkt.assemble(pb, &w, DELTA);
    let factor = kkt.mat.factor().ok_or(Failure::Singular)?;
    let mut g = vec![0.0; nvar];
    {
        let mut bi = vec![0.0; m];
        bi[n_eq..].copy_from_slice(&pb.b[n_eq..]);
        pb.add_aty(&bi, &mut g);
    }
    for v in 0..nvar {
        rhs[lay.var[v]] = g[v] - pb.q[v];
    }
    for r in 0..n_eq {
        rhs[lay.row[r]] = pb.b[r];
    }
    kkt.solve(&factor, DELTA, &mut rhs, &mut work, 0);
    let mut x: Vec<f64> = (0..nvar).map(|v| rhs[lay.var[v]]).collect();
    let mut y: Vec<f64> = vec![0.0; n_eq];
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

    let b_norm = inf_norm(pb.b);
    let q_norm = inf_norm(pb.q);
    let mut px = vec![0.0; nvar];
    let mut rd = vec![0.0; nvar];
    let mut rp = vec![0.0; m];
    let mut yz = vec![0.0; m];
    let (mut ds, mut dz) = (vec![0.0; n_in], vec![0.0; n_in]);
    let (mut ds_a, mut dz_a) = (vec![0.0; n_in], vec![0.0; n_in]);
    let mut dx = vec![0.0; nvar];
    let mut dy = vec![0.0; n_eq];
    let mut best: (f64, usize, Option<QpSolution>) = (f64::INFINITY, 0, None);
    for it in 0..MAX_ITER {
        // residuals: rd = Px + q + Aᵀ[y; z], rp = A x + [0; s] − b
        pb.px(&x, &mut px);
        yz[..n_eq].copy_from_slice(&y);
        yz[n_eq..].copy_from_slice(&z);
        rd.copy_from_slice(&px);
        let mut aty = vec![0.0; nvar];
        pb.add_aty(&yz, &mut aty);
        for v in 0..nvar {
            rd[v] += pb.q[v] + aty[v];
        }
        pb.ax(&x, &mut ax);
        for r in 0..m {
            rp[r] = ax[r] - pb.b[r] + if r >= n_eq { s[r - n_eq] } else { 0.0 };
        }
        let gap: f64 = s.iter().zip(&z).map(|(a, b)| a * b).sum();
        let xpx: f64 = x.iter().zip(&px).map(|(a, b)| a * b).sum();
        let qx: f64 = x.iter().zip(pb.q).map(|(a, b)| a * b).sum();
        let pobj = 0.5 * xpx + qx;
        // the worst of the relative primal and dual residuals and the relative gap
        let err = (inf_norm(&rp) / (1.0 + b_norm.max(inf_norm(&ax)).max(inf_norm(&s))))
            .max(inf_norm(&rd) / (1.0 + q_norm.max(inf_norm(&px)).max(inf_norm(&aty))))
            .max(gap / pobj.abs().max(1.0));
        let finite = x.iter().chain(&s).chain(&yz).all(|v| v.is_finite());
        if !(finite && err.is_finite()) {
            break;
        }
        if err < best.0 {
            let mut full_s = vec![0.0; m];
            full_s[n_eq..].copy_from_slice(&s);
            best = (
                err,
                it,
                Some(QpSolution {
                    x: x.clone(),
                    s: full_s,
                    z: yz.clone(),
                }),
            );
        }
        if err <= TOL_FEAS.max(TOL_GAP) {
            break;
        }
        // stalled at the accuracy the arithmetic allows: the best iterate is the answer
        if best.0 <= TOL_REDUCED && it >= best.1 + STALL_ITER {
            break;
        }
        let mu = if n_in > 0 { gap / n_in as f64 } else { 0.0 };

        // the Newton matrix with W = Z S⁻¹
        for k in 0..n_in {
            w[n_eq + k] = z[k] / s[k];
        }
        kkt.assemble(pb, &w, DELTA);
        let Some(factor) = kkt.mat.factor() else {
            break;
        };

        let ctx = Newton {
            refine: if err <= REFINE_BELOW {
                NEWTON_REFINE
            } else {
                0
            },
            pb,
            lay: &lay,
            kkt: &kkt,
            factor: &factor,
            s: &s,
            z: &z,
        };
        // predictor: the affine direction
        let rc: Vec<f64> = s.iter().zip(&z).map(|(a, b)| a * b).collect();
        ctx.direction(
            &rd, &rp, &rc, &mut dx, &mut dy, &mut ds_a, &mut dz_a, &mut work,
        );
        let t_aff = max_step(&s, &ds_a).min(max_step(&z, &dz_a));
        let mu_aff = if n_in > 0 {
            (0..n_in)
                .map(|k| (s[k] + t_aff * ds_a[k]) * (z[k] + t_aff * dz_a[k]))
                .sum::<f64>()
                / n_in as f64
        } else {
            0.0
        };
        let sigma = if mu > 0.0 {
            (mu_aff / mu).clamp(0.0, 1.0).powi(3)
        } else {
            0.0
        };
        // corrector: centring and the second-order term
        let rc: Vec<f64> = (0..n_in)
            .map(|k| s[k] * z[k] + ds_a[k] * dz_a[k] - sigma * mu)
            .collect();
        ctx.direction(&rd, &rp, &rc, &mut dx, &mut dy, &mut ds, &mut dz, &mut work);
        let t = (STEP_FRACTION * max_step(&s, &ds).min(max_step(&z, &dz))).min(1.0);
        for v in 0..nvar {
            x[v] += t * dx[v];
        }
        for r in 0..n_eq {
            y[r] += t * dy[r];
        }
        for k in 0..n_in {
            s[k] += t * ds[k];
            z[k] += t * dz[k];
        }
    }
    match best {
        (err, _, Some(sol)) if err <= TOL_REDUCED => Ok(sol),
        _ => Err(Failure::NotConverged),
    }
}

/// The exact minimiser on the active set of `sol` (inequality rows whose slack is below
/// their dual become equalities), kept only if the other inequalities hold and every fixed
/// row's multiplier is ≥ 0 (the test [`crate::qp`] applies to Clarabel's polish). `None`
/// keeps the interior-point answer.
pub(crate) fn polish(pb: &Problem, sol: &QpSolution) -> Option<Vec<f64>> {
    let (nvar, n_eq, m) = (pb.nvar, pb.n_eq, pb.m());
    let kept: Vec<bool> = (0..m).map(|r| r < n_eq || sol.active(r)).collect();
    let lay = Layout::new(pb, &kept)?;
    let mut kkt = Kkt::new(pb, &lay, &kept, false).ok()?;
    let mut work = Work::new(&lay);
    kkt.assemble(pb, &[], DELTA);
    let factor = kkt.mat.factor()?;
    let mut rhs = vec![0.0; kkt.mat.dim()];
    for v in 0..nvar {
        rhs[lay.var[v]] = -pb.q[v];
    }
    for r in 0..m {
        if kept[r] {
            rhs[lay.row[r]] = pb.b[r];
        }
    }
    kkt.solve(&factor, DELTA, &mut rhs, &mut work, REFINE_STEPS);
    let x: Vec<f64> = (0..nvar).map(|v| rhs[lay.var[v]]).collect();
    let mut ax = vec![0.0; m];
    pb.ax(&x, &mut ax);
    let tol = 1e-9;
    for r in n_eq..m {
        let ok = if kept[r] {
            rhs[lay.row[r]] >= -tol
        } else {
            ax[r] <= pb.b[r] + tol
        };
        if !ok {
            return None;
        }
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A QP held in owned vectors.
    struct Owned {
        nvar: usize,
        n_eq: usize,
        p: (Vec<usize>, Vec<usize>, Vec<f64>),
        q: Vec<f64>,
        a: (Vec<usize>, Vec<usize>, Vec<f64>),
        b: Vec<f64>,
        knots: usize,
    }

    impl Owned {
        fn problem(&self) -> Problem<'_> {
            Problem {
                nvar: self.nvar,
                n_eq: self.n_eq,
                p: Triplets {
                    i: &self.p.0,
                    j: &self.p.1,
                    v: &self.p.2,
                },
                q: &self.q,
                a: Triplets {
                    i: &self.a.0,
                    j: &self.a.1,
                    v: &self.a.2,
                },
                b: &self.b,
                knots: self.knots,
            }
        }

        fn dense_p(&self) -> Vec<Vec<f64>> {
            let mut p = vec![vec![0.0; self.nvar]; self.nvar];
            for t in 0..self.p.2.len() {
                let (i, j, v) = (self.p.0[t], self.p.1[t], self.p.2[t]);
                p[i][j] += v;
                if i != j {
                    p[j][i] += v;
                }
            }
            p
        }

        fn dense_a(&self) -> Vec<Vec<f64>> {
            let mut a = vec![vec![0.0; self.nvar]; self.b.len()];
            for t in 0..self.a.2.len() {
                a[self.a.0[t]][self.a.1[t]] += self.a.2[t];
            }
            a
        }
    }

    /// Gaussian elimination with partial pivoting; `None` when singular.
    pub(super) fn dense_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
        let n = b.len();
        for k in 0..n {
            let p = (k..n).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))?;
            if a[p][k].abs() < 1e-12 {
                return None;
            }
            a.swap(k, p);
            b.swap(k, p);
            for r in k + 1..n {
                let l = a[r][k] / a[k][k];
                for c in k..n {
                    a[r][c] -= l * a[k][c];
                }
                b[r] -= l * b[k];
            }
        }
        let mut x = vec![0.0; n];
        for r in (0..n).rev() {
            let s: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
            x[r] = (b[r] - s) / a[r][r];
        }
        Some(x)
    }

    /// The naive reference: every subset of the inequality rows taken as active, the KKT
    /// system of each solved densely; the minimiser is the one that is primal feasible with
    /// non-negative multipliers (unique for a strictly convex P).
    fn enumerate(qp: &Owned) -> Vec<f64> {
        let (nvar, n_eq, m) = (qp.nvar, qp.n_eq, qp.b.len());
        let (p, a) = (qp.dense_p(), qp.dense_a());
        let n_in = m - n_eq;
        for mask in 0u32..(1 << n_in) {
            let rows: Vec<usize> = (0..m)
                .filter(|&r| r < n_eq || mask & (1 << (r - n_eq)) != 0)
                .collect();
            let k = nvar + rows.len();
            let mut kkt = vec![vec![0.0; k]; k];
            let mut rhs = vec![0.0; k];
            for i in 0..nvar {
                kkt[i][..nvar].copy_from_slice(&p[i]);
                rhs[i] = -qp.q[i];
            }
            for (l, &r) in rows.iter().enumerate() {
                for j in 0..nvar {
                    kkt[nvar + l][j] = a[r][j];
                    kkt[j][nvar + l] = a[r][j];
                }
                rhs[nvar + l] = qp.b[r];
            }
            let Some(sol) = dense_solve(kkt, rhs) else {
                continue;
            };
            let x = &sol[..nvar];
            let feasible = (n_eq..m)
                .all(|r| a[r].iter().zip(x).map(|(u, v)| u * v).sum::<f64>() <= qp.b[r] + 1e-9);
            let dual = rows
                .iter()
                .enumerate()
                .all(|(l, &r)| r < n_eq || sol[nvar + l] >= -1e-9);
            if feasible && dual {
                return x.to_vec();
            }
        }
        panic!("no KKT point: the test problem is infeasible");
    }

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    fn assert_matches_reference(qp: &Owned, what: &str) {
        let pb = qp.problem();
        let sol = solve(&pb).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let x = polish(&pb, &sol).unwrap_or_else(|| panic!("{what}: polish rejected"));
        let reference = enumerate(qp);
        for (a, b) in x.iter().zip(&reference) {
            assert!((a - b).abs() < 1e-9, "{what}: {x:?} vs {reference:?}");
        }
        // the interior point alone is close, its polish exact
        for (a, b) in sol.x.iter().zip(&reference) {
            assert!((a - b).abs() < 1e-5, "{what}: interior {:?}", sol.x);
        }
    }

    /// Small dense QPs (no knot structure, one dense block): an equality and box bounds.
    #[test]
    fn dense_qps_match_the_enumerated_active_sets() {
        let mut seed = 3;
        for case in 0..20 {
            let nvar = 4;
            let mut p = (Vec::new(), Vec::new(), Vec::new());
            let m: Vec<Vec<f64>> = (0..nvar)
                .map(|_| (0..nvar).map(|_| lcg(&mut seed)).collect())
                .collect();
            for i in 0..nvar {
                for j in i..nvar {
                    let v: f64 = (0..nvar).map(|k| m[k][i] * m[k][j]).sum::<f64>()
                        + if i == j { 0.5 } else { 0.0 };
                    p.0.push(i);
                    p.1.push(j);
                    p.2.push(v);
                }
            }
            let q: Vec<f64> = (0..nvar).map(|_| 4.0 * lcg(&mut seed)).collect();
            let mut a = (Vec::new(), Vec::new(), Vec::new());
            let mut b = vec![0.5 * lcg(&mut seed)];
            for j in 0..nvar {
                a.0.push(0);
                a.1.push(j);
                a.2.push(1.0 + 0.3 * lcg(&mut seed));
            }
            for j in 0..nvar {
                for (k, sign) in [1.0, -1.0].into_iter().enumerate() {
                    a.0.push(1 + 2 * j + k);
                    a.1.push(j);
                    a.2.push(sign);
                    b.push(0.5 + 0.4 * lcg(&mut seed).abs());
                }
            }
            let qp = Owned {
                nvar,
                n_eq: 1,
                p,
                q,
                a,
                b,
                knots: 0,
            };
            assert_matches_reference(&qp, &format!("dense case {case}"));
        }
    }

    /// Cyclic knot-structured QPs as the racing lines build them: per knot a shift a_k and a
    /// second variable c_k, P cyclic tridiagonal in a, an equality per knot touching its
    /// neighbours, bounds per knot and a row coupling two neighbouring knots.
    #[test]
    fn cyclic_qps_match_the_enumerated_active_sets() {
        let mut seed = 11;
        for case in 0..12 {
            let n = 5;
            let (ia, ic) = (0, n);
            let mut p = (Vec::new(), Vec::new(), Vec::new());
            let mut push_p = |i: usize, j: usize, v: f64| {
                p.0.push(i.min(j));
                p.1.push(i.max(j));
                p.2.push(v);
            };
            for k in 0..n {
                push_p(ia + k, ia + k, 4.0 + lcg(&mut seed).abs());
                push_p(ia + k, ia + (k + 1) % n, -1.0 + 0.2 * lcg(&mut seed));
                push_p(ic + k, ic + k, 1.0 + lcg(&mut seed).abs());
            }
            let q: Vec<f64> = (0..2 * n).map(|_| 5.0 * lcg(&mut seed)).collect();
            let mut a = (Vec::new(), Vec::new(), Vec::new());
            let mut b = Vec::new();
            // equality k: c_k − 0.5 (a_{k−1} + a_{k+1}) + a_k = β_k
            for k in 0..n {
                for (col, v) in [
                    (ic + k, 1.0),
                    (ia + (k + n - 1) % n, -0.5),
                    (ia + (k + 1) % n, -0.5),
                    (ia + k, 1.0),
                ] {
                    a.0.push(k);
                    a.1.push(col);
                    a.2.push(v);
                }
                b.push(0.3 * lcg(&mut seed));
            }
            // a_k ≤ u_k, then a_k + c_{k+1} ≤ 1
            for k in 0..n {
                a.0.push(n + k);
                a.1.push(ia + k);
                a.2.push(1.0);
                b.push(0.4 * lcg(&mut seed));
            }
            for k in 0..n {
                for (col, v) in [(ia + k, 1.0), (ic + (k + 1) % n, 1.0)] {
                    a.0.push(2 * n + k);
                    a.1.push(col);
                    a.2.push(v);
                }
                b.push(1.0);
            }
            let qp = Owned {
                nvar: 2 * n,
                n_eq: n,
                p,
                q,
                a,
                b,
                knots: n,
            };
            assert_matches_reference(&qp, &format!("cyclic case {case}"));
        }
    }

    /// A row coupling knots two apart has no place in the band: the solver says so.
    #[test]
    fn a_row_outside_the_band_is_refused() {
        let n = 6;
        let qp = Owned {
            nvar: n,
            n_eq: 0,
            p: ((0..n).collect(), (0..n).collect(), vec![1.0; n]),
            q: vec![0.0; n],
            a: (vec![0, 0], vec![0, 2], vec![1.0, 1.0]),
            b: vec![1.0],
            knots: n,
        };
        assert_eq!(solve(&qp.problem()).err(), Some(Failure::NotBanded));
    }
}
