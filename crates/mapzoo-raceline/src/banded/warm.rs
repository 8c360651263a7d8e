//! Warm starts: the slacks and duals of one QP's interior point carried over to the next QP
//! of the same shape. The IQP solves a curvature QP per iteration on a reference that moved
//! by centimetres and was resampled: the same rows per knot, a few knots more or fewer, and
//! nearly the same active rows. Row r of a problem with K knots is knot `r mod K`'s row of
//! kind `r / K` (the layout [`super::Problem`] assumes); a row of the new problem takes the
//! values of the row of the same kind at the same fraction of the lap. The new problem's x
//! stays its own least-squares start.

use super::problem::Problem;
use super::scaling::Scaled;
use crate::status::QpSolution;

/// Slacks and duals (scaled units) are raised to at least this: the carried-over point sits
/// next to the boundary, where the first steps would be short. On f's IQP, 1 took the fewest
/// iterations of 0.01 … 10 (0.1 and 3 cost one more each QP, 10 as many as a cold start).
const FLOOR: f64 = 1.0;

/// An interior-point iterate's slacks and duals per row, in the original units, and the
/// shape of its problem.
#[derive(Debug, Clone)]
pub(crate) struct Iterate {
    knots: usize,
    nvar: usize,
    n_eq: usize,
    /// Slacks of every row (zero on the equalities).
    s: Vec<f64>,
    /// Duals of every row.
    z: Vec<f64>,
    /// Interior-point iterations of the solve it ends (the tests' measure of a warm start).
    #[cfg_attr(not(test), allow(dead_code))]
    iterations: usize,
}

/// Variables, equality rows and rows per knot of a problem laid out by knots.
fn per_knot(knots: usize, nvar: usize, n_eq: usize, m: usize) -> Option<[usize; 3]> {
    let fits = knots >= 3 && [nvar, n_eq, m].iter().all(|n| n.is_multiple_of(knots));
    fits.then(|| [nvar / knots, n_eq / knots, m / knots])
}

impl Iterate {
    /// The slacks and duals of `sol`, an iterate of `pb` in its original units, reached
    /// after `iterations`.
    pub(super) fn new(pb: &Problem, sol: &QpSolution, iterations: usize) -> Iterate {
        Iterate {
            knots: pb.knots,
            nvar: pb.nvar,
            n_eq: pb.n_eq,
            s: sol.s.clone(),
            z: sol.z.clone(),
            iterations,
        }
    }

    /// Interior-point iterations of the solve this iterate ends.
    #[cfg(test)]
    pub(crate) fn iterations(&self) -> usize {
        self.iterations
    }

    /// The start (equality duals, slacks and duals of the inequality rows) for `pb` in the
    /// scaled units of `sc`; `None` when the problems' rows per knot differ.
    pub(super) fn start_for(
        &self,
        pb: &Problem,
        sc: &Scaled,
    ) -> Option<(Vec<f64>, Vec<f64>, Vec<f64>)> {
        let (k1, k2, m, n_eq) = (self.knots, pb.knots, pb.m(), pb.n_eq);
        let old = per_knot(k1, self.nvar, self.n_eq, self.s.len())?;
        if pb.blocks() != k2 || per_knot(k2, pb.nvar, n_eq, m)? != old {
            return None;
        }
        // the same kind of row at the nearest fraction of the lap
        let source = |r: usize| {
            let (kind, knot) = (r / k2, r % k2);
            kind * k1 + ((knot * k1 + k2 / 2) / k2).min(k1 - 1)
        };
        let dual = |r: usize| self.z[source(r)] * sc.c / sc.e[r];
        let y = (0..n_eq).map(dual).collect();
        let s = (n_eq..m)
            .map(|r| (self.s[source(r)] * sc.e[r]).max(FLOOR))
            .collect();
        let z = (n_eq..m).map(|r| dual(r).max(FLOOR)).collect();
        Some((y, s, z))
    }
}
