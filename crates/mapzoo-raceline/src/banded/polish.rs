//! The active-set polish: the exact minimiser of the QP with the inequality rows of an
//! active set taken as equalities and the others dropped, kept only where it is the QP's
//! minimiser (the other rows hold, every active row's multiplier is ≥ 0). Two ways to it:
//! [`exact`] lays out and factors the active set's own KKT system; [`on_barrier_layout`]
//! reuses the interior point's reduced matrix with the active rows folded in by a penalty
//! and iterative refinement on the exact system, so an attempt costs one interior-point
//! iteration and can be tried on the iterates before the method converges.

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::ipm::DELTA;
use super::kkt::{Kkt, Layout, Structure, Work};
use super::problem::{inf_norm, Problem};
use super::scaling::Scaled;
use crate::status::QpSolution;

/// Iterative-refinement steps at most of the exact polish's solve.
const REFINE_STEPS: usize = 8;
/// Tolerance of the minimiser test (primal rows and multiplier signs), in the problem's units.
pub(crate) const TOL: f64 = 1e-9;
/// Corrections of the active set at most in a min-time step's polish ([`exact`]) and in the
/// polish of a Clarabel answer.
pub(crate) const CORRECTIONS: usize = 4;
/// The penalty regularisation ε of the active rows in [`on_barrier_layout`]: each active
/// row enters the reduced matrix with weight 1/ε, then refinement removes ε.
const PENALTY_EPS: f64 = 1e-12;
/// Refinement passes at most of [`on_active_set`].
const PENALTY_REFINE: usize = 12;
/// Relative residual of the exact active-set system below which a penalty polish stands.
const PENALTY_RESIDUAL: f64 = 1e-12;

/// The inequality rows where x with multipliers `lambda` (an entry per row, read on the
/// `active` rows) fails the minimiser test: an active row whose multiplier is not ≥ −[`TOL`]
/// (it pulls the wrong way), another row not held to within [`TOL`] (a NaN fails either).
/// The test of both polishes, the banded and Clarabel's ([`crate::qp`]).
pub(crate) fn wrong_rows(pb: &Problem, x: &[f64], active: &[bool], lambda: &[f64]) -> Vec<usize> {
    let (n_eq, m) = (pb.n_eq, pb.m());
    let mut ax = vec![0.0; m];
    pb.ax(x, &mut ax);
    (n_eq..m)
        .filter(|&r| {
            !if active[r] {
                lambda[r] >= -TOL
            } else {
                ax[r] <= pb.b[r] + TOL
            }
        })
        .collect()
}

/// Whether x with multipliers `lambda` of the active rows is the minimiser: finite, and no
/// row fails the test ([`wrong_rows`]).
fn is_minimiser(pb: &Problem, x: &[f64], active: &[bool], lambda: &[f64]) -> bool {
    wrong_rows(pb, x, active, lambda).is_empty() && x.iter().all(|v| v.is_finite())
}

/// The active set of `sol`: the equalities and the inequality rows whose slack is below
/// their dual.
pub(super) fn active_set(n_eq: usize, sol: &QpSolution) -> Vec<bool> {
    (0..sol.s.len())
        .map(|r| r < n_eq || sol.active(r))
        .collect()
}

/// The exact minimiser on the active set of `sol` (inequality rows whose slack is below
/// their dual become equalities), kept only if the other inequalities hold and every fixed
/// row's multiplier is ≥ 0 ([`wrong_rows`], the test [`crate::qp`] applies to Clarabel's
/// polish). Where the test fails, the set is corrected up to `corrections` times: the rows
/// the minimiser violates join it, the rows whose multiplier pulls the wrong way leave (a
/// nearly active row with a vanishing multiplier, which the interior point may class either
/// way). `None` keeps the interior-point answer.
pub(crate) fn exact(pb: &Problem, sol: &QpSolution, corrections: usize) -> Option<Vec<f64>> {
    let mut kept = active_set(pb.n_eq, sol);
    for _ in 0..=corrections {
        let (x, lambda) = exact_on(pb, &kept)?;
        if !x.iter().all(|v| v.is_finite()) {
            return None;
        }
        let wrong = wrong_rows(pb, &x, &kept, &lambda);
        if wrong.is_empty() {
            return Some(x);
        }
        wrong.into_iter().for_each(|r| kept[r] = !kept[r]);
    }
    None
}

/// The solution (x, and the multipliers of the rows `kept`: an entry per row) of the
/// equality-constrained QP with the rows `kept` as equalities and the others dropped.
fn exact_on(pb: &Problem, kept: &[bool]) -> Option<(Vec<f64>, Vec<f64>)> {
    let (nvar, m) = (pb.nvar, pb.m());
    let lay = Layout::new(pb, kept)?;
    let mut kkt = Kkt::new(pb, &lay, kept, false).ok()?;
    let mut work = Work::new(&lay);
    kkt.assemble(&[], DELTA);
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
    let lambda: Vec<f64> = (0..m)
        .map(|r| if kept[r] { rhs[lay.row[r]] } else { 0.0 })
        .collect();
    Some((x, lambda))
}

/// The solution (x, and the multipliers of the active rows: an entry per row) of the
/// equality-constrained QP on `active`, in the original units of `pb`, solved on its
/// equilibrated copy `spb` through the interior point's reduced system `st` (the inequality
/// rows eliminated): the active rows get the barrier weight 1/ε, the others none, and
/// refinement on the exact active-set system
///
/// ```text
/// P x + A_Eᵀ y + A_Aᵀ λ = −q,   A_E x = b_E,   A_A x = b_A
/// ```
///
/// removes ε and the matrix's δ. `None` when the refinement does not converge.
pub(super) fn on_active_set(
    spb: &Problem,
    sc: &Scaled,
    active: &[bool],
    st: &mut Structure,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let (n_eq, m) = (spb.n_eq, spb.m());
    let weight: Vec<f64> = (0..m)
        .map(|r| {
            if r >= n_eq && active[r] {
                1.0 / PENALTY_EPS
            } else {
                0.0
            }
        })
        .collect();
    st.kkt.assemble(&weight, DELTA);
    if !st.kkt.mat.factor_into(&mut st.factor) {
        return None;
    }
    let (x, yl) = refine_active(spb, active, &weight, st)?;
    // back to the original units (the slacks are not needed)
    let sol = sc.unscale(QpSolution {
        x,
        s: Vec::new(),
        z: yl,
    });
    Some((sol.x, sol.z))
}

/// The refinement of [`on_active_set`] with the factored penalty matrix of `st`:
/// (x̃, [y; λ̃]).
fn refine_active(
    spb: &Problem,
    active: &[bool],
    weight: &[f64],
    st: &Structure,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let (nvar, n_eq, m) = (spb.nvar, spb.n_eq, spb.m());
    let lay = &st.lay;
    let mut x = vec![0.0; nvar];
    // y on the equality rows, λ on the active inequality rows, zero elsewhere
    let mut yl = vec![0.0; m];
    let (mut e1, mut ax, mut t) = (vec![0.0; nvar], vec![0.0; m], vec![0.0; m]);
    let mut dx = vec![0.0; nvar];
    let mut rhs = vec![0.0; st.kkt.mat.dim()];
    let scale = inf_norm(spb.q).max(inf_norm(spb.b)).max(1.0);
    let mut prev = f64::INFINITY;
    for _ in 0..PENALTY_REFINE {
        // residuals: e1 = −q − P x − Aᵀ yl, e2/e3 = b − A x on the equality and active rows
        spb.px(&x, &mut e1);
        spb.add_aty(&yl, &mut e1);
        e1.iter_mut().zip(spb.q).for_each(|(e, q)| *e = -q - *e);
        spb.ax(&x, &mut ax);
        for r in 0..m {
            ax[r] = if r < n_eq || active[r] {
                spb.b[r] - ax[r]
            } else {
                0.0
            };
        }
        let res = inf_norm(&e1).max(inf_norm(&ax));
        if !res.is_finite() {
            return None;
        }
        if res <= PENALTY_RESIDUAL * scale {
            return Some((x, yl));
        }
        if res >= prev {
            return None;
        }
        prev = res;
        // the correction: (P + A_Aᵀ W A_A) dx + A_Eᵀ dy = e1 + A_Aᵀ W e3, A_E dx = e2,
        // dλ = W (A_A dx − e3)
        for r in 0..m {
            t[r] = weight[r] * ax[r];
        }
        spb.add_aty(&t, &mut e1);
        for v in 0..nvar {
            rhs[lay.var[v]] = e1[v];
        }
        for r in 0..n_eq {
            rhs[lay.row[r]] = ax[r];
        }
        st.factor.solve(&mut rhs);
        for v in 0..nvar {
            dx[v] = rhs[lay.var[v]];
            x[v] += dx[v];
        }
        for r in 0..n_eq {
            yl[r] += rhs[lay.row[r]];
        }
        spb.ax(&dx, &mut t);
        for r in n_eq..m {
            if active[r] {
                yl[r] += weight[r] * (t[r] - ax[r]);
            }
        }
    }
    None
}

/// The exact minimiser of `pb` on `active` ([`on_active_set`] on its equilibrated copy
/// `spb`), kept only if it passes the minimiser test.
pub(super) fn on_barrier_layout(
    pb: &Problem,
    spb: &Problem,
    sc: &Scaled,
    active: &[bool],
    st: &mut Structure,
) -> Option<Vec<f64>> {
    let (x, lambda) = on_active_set(spb, sc, active, st)?;
    is_minimiser(pb, &x, active, &lambda).then_some(x)
}
