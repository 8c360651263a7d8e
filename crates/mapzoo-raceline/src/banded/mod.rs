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
//! point's active set and applies the same acceptance test as the Clarabel path of
//! [`crate::qp`], so both solvers return the exact minimiser. [`solve_polished`] tries it
//! on the iterates as soon as they are close ([`POLISH_FROM`]), through the interior point's
//! own factorisation: the minimiser test decides, so the iterations that would only sharpen
//! an active set already found are saved. [`solve_exact`] (the min-time steps) does the same
//! and, where the converged iterate's polish fails the test, corrects its active set.
//!
//! Files: [`problem`] (the QP as triplets), [`kkt`] (the knot layout and the reduced
//! matrix), [`cyclic`] and [`uniform`] (its block factorisation), [`scaling`] (Ruiz equilibration),
//! [`ipm`] (the predictor–corrector iterations), [`polish`], [`warm`] (the start from the
//! previous QP of a sequence).

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

mod cyclic;
mod ipm;
mod kkt;
mod polish;
mod problem;
mod scaling;
mod uniform;
mod warm;

#[cfg(test)]
pub(crate) use polish::exact as polish_exact;
pub(crate) use polish::{wrong_rows, CORRECTIONS};
pub(crate) use problem::{Failure, Problem, Triplets};
pub(crate) use warm::Iterate;

use std::sync::atomic::{AtomicBool, Ordering};

use ipm::{Answer, Ipm};
use kkt::Structure;
use scaling::Scaled;

use crate::status::QpSolution;

/// The error (worst relative residual or gap) of an iterate below which
/// [`solve_polished`] tries the active-set polish on it.
const POLISH_FROM: f64 = 1e-6;

/// The exact minimiser of `pb` for a caller that takes the answer as it is (the min-time
/// steps): the first early polish that holds, as [`solve_polished`] tries them, each
/// iterate's failed polish followed by the polish with its active set corrected
/// ([`polish::exact`]); else the converged iterate's corrected polish, else (where that does
/// not settle) the converged x if its active set is unambiguous. `Err` otherwise: the caller
/// asks Clarabel.
///
/// Most min-time steps of the long tracks have a weakly active row that the interior point
/// classes wrongly on its first close iterates (README, "QP solver"): their early polish
/// failed, and the iterations ran on to full accuracy (3–5 more) only for the converged
/// iterate's set to be corrected the same way. Corrected from the first close iterate, the
/// set usually ends the same, and the answer with it; where a degenerate row ends on the
/// other side, the minimiser is the same to the test's tolerance (on the 45 runs of
/// `scripts/mintime_table.py` every lap and step count is unchanged; two of the lines move
/// in their eighth decimal).
pub(crate) fn solve_exact(pb: &Problem) -> Result<Vec<f64>, Failure> {
    let sc = Scaled::new(pb);
    let spb = sc.problem(pb);
    let mut ipm = Ipm::new(&spb, Structure::new(&spb)?, Answer::Exact)?;
    if let Some((x, _)) = polish_early(pb, &spb, &sc, &mut ipm, None) {
        return Ok(x);
    }
    let sol = sc.unscale(ipm.finish()?);
    match polish::exact(pb, &sol, CORRECTIONS) {
        Some(x) => Ok(x),
        None if !sol.ambiguous(pb.n_eq) => Ok(sol.x),
        None => Err(Failure::Degenerate),
    }
}

/// The error after `iterations` interior-point iterations on `pb` from the cold start (the
/// equilibration, the structure and the start included), without the polish; `None` where
/// the method stopped earlier (converged, or a singular matrix) or the structure does not fit.
#[cfg(any(test, feature = "reference"))]
pub(crate) fn iterations(pb: &Problem, iterations: usize) -> Option<f64> {
    let sc = Scaled::new(pb);
    let spb = sc.problem(pb);
    let mut ipm = Ipm::new(&spb, Structure::new(&spb).ok()?, Answer::Interior).ok()?;
    for _ in 0..iterations {
        ipm.measure()?;
        if !ipm.advance() {
            return None;
        }
    }
    ipm.measure()
}

/// The interior-point solution (x, slacks, duals) of `pb`, solved on its equilibrated copy
/// to full accuracy.
pub(crate) fn solve(pb: &Problem) -> Result<QpSolution, Failure> {
    let sc = Scaled::new(pb);
    let spb = sc.problem(pb);
    let mut ipm = Ipm::new(&spb, Structure::new(&spb)?, Answer::Interior)?;
    while ipm.measure().is_some() {
        if !ipm.advance() {
            break;
        }
    }
    Ok(sc.unscale(ipm.finish()?))
}

/// The exact minimiser of `pb`: the active-set polish of the first interior-point iterate
/// (from error [`POLISH_FROM`] on) whose active set is unambiguous and passes the minimiser
/// test, else of the converged iterate, whose set is corrected where the test fails (a
/// weakly active row classed wrongly: [`QpSolution::ambiguous`], a degenerate QP) as a
/// min-time step's is ([`CORRECTIONS`]); with the iterate's slacks and duals, the warm start
/// of a next problem of the same shape. `Err` when no set settles: the caller then asks
/// Clarabel, whose answer is polished and corrected the same way. Until 2026-12-05 a
/// degenerate QP went to Clarabel whatever its polish, whose answer was then not corrected
/// (the interior point's x where its first polish failed); with both corrected, the two
/// exact minimisers of the 43 such QPs of `scripts/mintime_table.py`'s 45 runs agree within
/// 2.3e-7, and the lines within 1.1e-9 m.
///
/// With `warm` (where it fits `pb`, [`Iterate::start_for`]) the interior point starts from
/// it, and only an early polish is an answer: a QP that needs the converged iterate is one
/// whose answer may depend on the path to it (on São Paulo's fifth IQP QP a warm start's
/// converged active set, uncorrected, gave a line 7e-5 m from the cold start's), so it gives
/// `Err(NotPolished)` and the caller solves again from the cold start.
///
/// With `stop`, the solve is abandoned (`Err(Stopped)`) at the first iteration that finds
/// it set: another thread has the answer this solve would only have been asked for after.
pub(crate) fn solve_polished(
    pb: &Problem,
    warm: Option<&Iterate>,
    stop: Option<&AtomicBool>,
) -> Result<(Vec<f64>, Iterate), Failure> {
    let sc = Scaled::new(pb);
    let spb = sc.problem(pb);
    let mut ipm = Ipm::new(&spb, Structure::new(&spb)?, Answer::Polished)?;
    let start = warm.and_then(|w| w.start_for(pb, &sc));
    let started_warm = start.is_some();
    if let Some((y, s, z)) = start {
        ipm.start_from(y, s, z);
    }
    if let Some((x, current)) = polish_early(pb, &spb, &sc, &mut ipm, stop) {
        return Ok((x, Iterate::new(pb, &current, ipm.iterations())));
    }
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(Failure::Stopped);
    }
    if started_warm {
        return Err(Failure::NotPolished);
    }
    let iterations = ipm.iterations();
    let sol = sc.unscale(ipm.finish()?);
    let x = polish::exact(pb, &sol, CORRECTIONS).ok_or(Failure::NotPolished)?;
    Ok((x, Iterate::new(pb, &sol, iterations)))
}

/// Runs `ipm` on the equilibrated `spb` (of `pb`, scaling `sc`) until it stops, trying the
/// active-set polish on each iterate from error [`POLISH_FROM`] on whose active set is
/// unambiguous and not tried yet (where it fails, then the polish with the set corrected as
/// often as the solve's [`Answer::corrections`] allows): the first that holds, with the
/// iterate (original units). `None` as soon as `stop` is set.
fn polish_early(
    pb: &Problem,
    spb: &Problem,
    sc: &Scaled,
    ipm: &mut Ipm,
    stop: Option<&AtomicBool>,
) -> Option<(Vec<f64>, QpSolution)> {
    let corrections = ipm.answer().corrections();
    let mut tried: Option<Vec<bool>> = None;
    while let Some(err) = ipm.measure() {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return None;
        }
        if err <= POLISH_FROM {
            let current = sc.unscale(ipm.current());
            let active = polish::active_set(pb.n_eq, &current);
            if !current.ambiguous(pb.n_eq) && tried.as_ref() != Some(&active) {
                if let Some(x) = polish::on_barrier_layout(pb, spb, sc, &active, ipm.structure()) {
                    return Some((x, current));
                }
                if corrections > 0 {
                    if let Some(x) = polish::exact(pb, &current, corrections) {
                        return Some((x, current));
                    }
                }
                tried = Some(active);
            }
        }
        if !ipm.advance() {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Lcg;

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
                grouped: None,
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

    fn assert_matches_reference(qp: &Owned, what: &str) {
        let pb = qp.problem();
        let sol = solve(&pb).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let x = polish::exact(&pb, &sol, 0).unwrap_or_else(|| panic!("{what}: polish rejected"));
        let reference = enumerate(qp);
        let (early, _) = solve_polished(&pb, None, None)
            .unwrap_or_else(|e| panic!("{what}: early polish {e:?}"));
        for (a, b) in early.iter().zip(&reference) {
            assert!(
                (a - b).abs() < 1e-9,
                "{what}: early polish {early:?} vs {reference:?}"
            );
        }
        for (a, b) in x.iter().zip(&reference) {
            assert!((a - b).abs() < 1e-9, "{what}: {x:?} vs {reference:?}");
        }
        // the min-time steps' solve: separate primal and dual steps, corrections
        let stepped = solve_exact(&pb).unwrap_or_else(|e| panic!("{what}: solve_exact {e:?}"));
        for (a, b) in stepped.iter().zip(&reference) {
            assert!(
                (a - b).abs() < 1e-9,
                "{what}: solve_exact {stepped:?} vs {reference:?}"
            );
        }
        // the interior point alone is close, its polish exact
        for (a, b) in sol.x.iter().zip(&reference) {
            assert!((a - b).abs() < 1e-5, "{what}: interior {:?}", sol.x);
        }
    }

    /// Small dense QPs (no knot structure, one dense block): an equality and box bounds.
    #[test]
    fn dense_qps_match_the_enumerated_active_sets() {
        let mut rng = Lcg::new(3);
        for case in 0..20 {
            let nvar = 4;
            let mut p = (Vec::new(), Vec::new(), Vec::new());
            let m: Vec<Vec<f64>> = (0..nvar)
                .map(|_| (0..nvar).map(|_| rng.unit()).collect())
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
            let q: Vec<f64> = (0..nvar).map(|_| 4.0 * rng.unit()).collect();
            let mut a = (Vec::new(), Vec::new(), Vec::new());
            let mut b = vec![0.5 * rng.unit()];
            for j in 0..nvar {
                a.0.push(0);
                a.1.push(j);
                a.2.push(1.0 + 0.3 * rng.unit());
            }
            for j in 0..nvar {
                for (k, sign) in [1.0, -1.0].into_iter().enumerate() {
                    a.0.push(1 + 2 * j + k);
                    a.1.push(j);
                    a.2.push(sign);
                    b.push(0.5 + 0.4 * rng.unit().abs());
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
        let mut rng = Lcg::new(11);
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
                push_p(ia + k, ia + k, 4.0 + rng.unit().abs());
                push_p(ia + k, ia + (k + 1) % n, -1.0 + 0.2 * rng.unit());
                push_p(ic + k, ic + k, 1.0 + rng.unit().abs());
            }
            let q: Vec<f64> = (0..2 * n).map(|_| 5.0 * rng.unit()).collect();
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
                b.push(0.3 * rng.unit());
            }
            // a_k ≤ u_k, then a_k + c_{k+1} ≤ 1
            for k in 0..n {
                a.0.push(n + k);
                a.1.push(ia + k);
                a.2.push(1.0);
                b.push(0.4 * rng.unit());
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
            assert_fixed_iterations_converge(&qp.problem(), &format!("cyclic case {case}"));
        }
    }

    /// The fixed-work runs of the benches ([`iterations`]) are the interior point's own
    /// iterations: the error falls from the start's to the tolerance, and the run stops
    /// (`None`) once the method would.
    fn assert_fixed_iterations_converge(pb: &Problem, what: &str) {
        let start = iterations(pb, 0).expect("the start is measured");
        assert!(start > 1e-6, "{what}: the start's error {start}");
        let stop = (1..=81)
            .find(|&k| iterations(pb, k).is_none())
            .expect("the method stops within its iteration limit");
        let last = iterations(pb, stop - 1).expect("measured before the stop");
        assert!(
            last < 1e-6 * start,
            "{what}: {start} -> {last} after {stop} iterations"
        );
        assert_eq!(
            iterations(pb, 1),
            iterations(pb, 1),
            "{what}: deterministic"
        );
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
