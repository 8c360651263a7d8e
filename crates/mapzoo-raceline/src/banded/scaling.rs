//! Ruiz equilibration of a QP before the interior point, and the way back.

use super::problem::{inf_norm, Grouped, Problem, Triplets};
use crate::status::QpSolution;

/// Ruiz equilibration passes.
const RUIZ_PASSES: usize = 10;
/// Bounds of each scaling factor (as OSQP's).
const SCALE_RANGE: (f64, f64) = (1e-4, 1e4);

/// A diagonal scaling of a QP (Ruiz equilibration of [P Aᵀ; A 0], then the cost; Ruiz 2001,
/// as OSQP and Clarabel scale): x = D x̃, the rows multiplied by E, the objective by c.
pub(super) struct Scaled {
    pub(super) d: Vec<f64>,
    pub(super) e: Vec<f64>,
    pub(super) c: f64,
    pv: Vec<f64>,
    av: Vec<f64>,
    q: Vec<f64>,
    b: Vec<f64>,
    /// The scaled A grouped by rows and columns.
    grouped: Grouped,
}

/// `acc` = max(`acc`, |v|) (a NaN entry is skipped, as `f64::max` skips it).
#[inline]
fn raise(acc: &mut f64, v: f64) {
    let a = v.abs();
    if a > *acc {
        *acc = a;
    }
}

impl Scaled {
    pub(super) fn new(pb: &Problem) -> Scaled {
        let (nvar, m) = (pb.nvar, pb.m());
        let mut sc = Scaled {
            d: vec![1.0; nvar],
            e: vec![1.0; m],
            c: 1.0,
            pv: pb.p.v.to_vec(),
            av: pb.a.v.to_vec(),
            q: pb.q.to_vec(),
            b: pb.b.to_vec(),
            grouped: Grouped::default(),
        };
        // one pass's factor of a column or row of largest entry v, kept so that the total
        // factor `acc` stays within SCALE_RANGE (the matrix then holds exactly D and E)
        let factor = |v: f64, acc: f64| {
            let f = if v > 0.0 && v.is_finite() {
                1.0 / v.sqrt()
            } else {
                1.0
            };
            (acc * f).clamp(SCALE_RANGE.0, SCALE_RANGE.1) / acc
        };
        // the largest |entry| of each column and row of the current matrix, gathered while
        // the previous pass scales the entries (max is exact, so the order does not matter)
        let mut col = vec![0.0f64; nvar];
        let mut row = vec![0.0f64; m];
        for ((&i, &j), &v) in pb.p.i.iter().zip(pb.p.j).zip(&sc.pv) {
            raise(&mut col[i], v);
            raise(&mut col[j], v);
        }
        for ((&r, &j), &v) in pb.a.i.iter().zip(pb.a.j).zip(&sc.av) {
            raise(&mut col[j], v);
            raise(&mut row[r], v);
        }
        // this pass's factors of the columns and rows
        let (mut fc, mut fr) = (vec![0.0f64; nvar], vec![0.0f64; m]);
        for pass in 0..RUIZ_PASSES {
            for (((f, c), d), q) in fc.iter_mut().zip(&col).zip(&mut sc.d).zip(&mut sc.q) {
                *f = factor(*c, *d);
                *d *= *f;
                *q *= *f;
            }
            for (((f, r), e), b) in fr.iter_mut().zip(&row).zip(&mut sc.e).zip(&mut sc.b) {
                *f = factor(*r, *e);
                *e *= *f;
                *b *= *f;
            }
            col.iter_mut().for_each(|v| *v = 0.0);
            row.iter_mut().for_each(|v| *v = 0.0);
            // the last pass gathers the column maxima of P alone, for the cost below
            let last = pass + 1 == RUIZ_PASSES;
            for ((&i, &j), v) in pb.p.i.iter().zip(pb.p.j).zip(&mut sc.pv) {
                *v *= fc[i] * fc[j];
                raise(&mut col[i], *v);
                raise(&mut col[j], *v);
            }
            for ((&r, &j), v) in pb.a.i.iter().zip(pb.a.j).zip(&mut sc.av) {
                *v *= fr[r] * fc[j];
                if !last {
                    raise(&mut col[j], *v);
                    raise(&mut row[r], *v);
                }
            }
        }
        // the cost: the mean column norm of P or the largest |q| becomes one
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
        sc.grouped = Grouped::new(&pb.a, &sc.av, m, nvar, pb.n_eq);
        sc
    }

    /// The scaled problem.
    pub(super) fn problem<'a>(&'a self, pb: &Problem<'a>) -> Problem<'a> {
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
            grouped: Some(&self.grouped),
        }
    }

    /// The solution of the original problem from that of the scaled one: x = D x̃,
    /// s = E⁻¹ s̃, z = E z̃ / c.
    pub(super) fn unscale(&self, mut sol: QpSolution) -> QpSolution {
        sol.x.iter_mut().zip(&self.d).for_each(|(x, d)| *x *= d);
        sol.s.iter_mut().zip(&self.e).for_each(|(s, e)| *s /= e);
        sol.z
            .iter_mut()
            .zip(&self.e)
            .for_each(|(z, e)| *z *= e / self.c);
        sol
    }
}
