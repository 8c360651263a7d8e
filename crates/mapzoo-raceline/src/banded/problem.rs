//! The banded solver's view of a QP: sizes, P's upper triangle and A as triplets, q and b,
//! and the knot structure; the products with P and A every stage of the solver needs.

// Dense kernels over several parallel arrays read best with explicit indices.
#![allow(clippy::needless_range_loop)]

/// Why the banded solver gave up (the caller then asks Clarabel, which names the status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// A coupling lies outside the knot band.
    NotBanded,
    /// A pivot block was singular.
    Singular,
    /// No convergence within the iteration limit (e.g. an infeasible problem).
    NotConverged,
    /// The interior point's active set gave no minimiser (the polish test failed).
    NotPolished,
    /// A row of the converged iterate is neither clearly active nor inactive.
    Degenerate,
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
    pub(super) fn m(&self) -> usize {
        self.b.len()
    }

    /// Knots in use: 1 (dense) without structure.
    pub(super) fn blocks(&self) -> usize {
        if self.knots >= 3 && self.nvar.is_multiple_of(self.knots) {
            self.knots
        } else {
            1
        }
    }

    /// A x (all rows).
    pub(super) fn ax(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let a = &self.a;
        for ((&i, &j), &v) in a.i.iter().zip(a.j).zip(a.v) {
            out[i] += v * x[j];
        }
    }

    /// out += Aᵀ y.
    pub(super) fn add_aty(&self, y: &[f64], out: &mut [f64]) {
        let a = &self.a;
        for ((&i, &j), &v) in a.i.iter().zip(a.j).zip(a.v) {
            out[j] += v * y[i];
        }
    }

    /// P x (P symmetric from its upper triangle).
    pub(super) fn px(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let p = &self.p;
        for ((&i, &j), &v) in p.i.iter().zip(p.j).zip(p.v) {
            out[i] += v * x[j];
            if i != j {
                out[j] += v * x[i];
            }
        }
    }
}

/// max |v|.
pub(super) fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |a, x| a.max(x.abs()))
}
