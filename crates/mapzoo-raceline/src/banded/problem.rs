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
    /// Abandoned on request (its answer was no longer needed).
    Stopped,
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
    /// A grouped by row and by column, for the products ([`Grouped`]); `None`: they run over
    /// the triplets.
    pub grouped: Option<&'a Grouped>,
}

/// A's entries grouped by row (for A x, and the barrier rows of a KKT matrix) and by column
/// (for Aᵀ y), each group in triplet order: a product then sums each row's (column's) terms
/// in one register in the order the triplet loop adds them into memory, so the result is the
/// same bit for bit.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grouped {
    row_start: Vec<usize>,
    /// Each row's entries (column, value).
    row_entries: Vec<(usize, f64)>,
    col_start: Vec<usize>,
    /// Each column's entries (row, value).
    col_entries: Vec<(usize, f64)>,
    /// Each column's entries on the inequality rows (row, value), in the same order: the
    /// Newton solve's Aᵀ t, whose t is zero on the equality rows.
    ineq_col_start: Vec<usize>,
    ineq_col_entries: Vec<(usize, f64)>,
}

/// Groups `keys` (each < `n`) stably: the start of each key's group and the triplet
/// indices in group order (a counting sort).
fn group(keys: &[usize], n: usize) -> (Vec<usize>, Vec<usize>) {
    let mut start = vec![0usize; n + 1];
    for &k in keys {
        start[k + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    let mut next = start.clone();
    let mut order = vec![0usize; keys.len()];
    for (t, &k) in keys.iter().enumerate() {
        order[next[k]] = t;
        next[k] += 1;
    }
    (start, order)
}

impl Grouped {
    /// The groups of A = (`a`, values `v`) with `m` rows (the first `n_eq` the equalities)
    /// and `nvar` columns.
    pub(super) fn new(a: &Triplets, v: &[f64], m: usize, nvar: usize, n_eq: usize) -> Grouped {
        let (row_start, by_row) = group(a.i, m);
        let (col_start, by_col) = group(a.j, nvar);
        let col_entries: Vec<(usize, f64)> = by_col.iter().map(|&t| (a.i[t], v[t])).collect();
        let mut ineq_col_start = Vec::with_capacity(nvar + 1);
        let mut ineq_col_entries = Vec::with_capacity(col_entries.len());
        ineq_col_start.push(0);
        for c in 0..nvar {
            let column = &col_entries[col_start[c]..col_start[c + 1]];
            ineq_col_entries.extend(column.iter().filter(|&&(r, _)| r >= n_eq));
            ineq_col_start.push(ineq_col_entries.len());
        }
        Grouped {
            row_start,
            row_entries: by_row.iter().map(|&t| (a.j[t], v[t])).collect(),
            col_start,
            col_entries,
            ineq_col_start,
            ineq_col_entries,
        }
    }

    /// Row `r`'s entries (column, value), in triplet order.
    pub(super) fn row(&self, r: usize) -> &[(usize, f64)] {
        &self.row_entries[self.row_start[r]..self.row_start[r + 1]]
    }
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
        self.ax_from(0, x, out);
    }

    /// A x on the inequality rows: `out[r]` for r ≥ n_eq, the equality rows' entries left as
    /// they are (each row as [`Problem::ax`] computes it, bit for bit).
    pub(super) fn ax_ineq(&self, x: &[f64], out: &mut [f64]) {
        self.ax_from(self.n_eq, x, out);
    }

    /// A x on the rows from `first` on (`out`'s earlier entries left as they are).
    fn ax_from(&self, first: usize, x: &[f64], out: &mut [f64]) {
        if let Some(g) = self.grouped {
            for (r, o) in out.iter_mut().enumerate().skip(first) {
                let mut acc = 0.0;
                for &(j, v) in g.row(r) {
                    acc += v * x[j];
                }
                *o = acc;
            }
            return;
        }
        out[first..].iter_mut().for_each(|v| *v = 0.0);
        let a = &self.a;
        for ((&i, &j), &v) in a.i.iter().zip(a.j).zip(a.v) {
            if i >= first {
                out[i] += v * x[j];
            }
        }
    }

    /// out += A_Iᵀ y (the inequality rows only; `y`'s equality entries are not read): the same
    /// bits as [`Problem::add_aty`] with `y` zero on the equality rows where `out` holds no −0
    /// (their terms, ±0, leave a sum that is +0 or nonzero unchanged).
    pub(super) fn add_aty_ineq(&self, y: &[f64], out: &mut [f64]) {
        if let Some(g) = self.grouped {
            for (c, o) in out.iter_mut().enumerate() {
                let (from, to) = (g.ineq_col_start[c], g.ineq_col_start[c + 1]);
                let mut acc = *o;
                for &(i, v) in &g.ineq_col_entries[from..to] {
                    acc += v * y[i];
                }
                *o = acc;
            }
            return;
        }
        let a = &self.a;
        for ((&i, &j), &v) in a.i.iter().zip(a.j).zip(a.v) {
            if i >= self.n_eq {
                out[j] += v * y[i];
            }
        }
    }

    /// out += Aᵀ y.
    pub(super) fn add_aty(&self, y: &[f64], out: &mut [f64]) {
        if let Some(g) = self.grouped {
            for (c, o) in out.iter_mut().enumerate() {
                let (from, to) = (g.col_start[c], g.col_start[c + 1]);
                let mut acc = *o;
                for &(i, v) in &g.col_entries[from..to] {
                    acc += v * y[i];
                }
                *o = acc;
            }
            return;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Lcg;

    /// The grouped products are the triplet products bit for bit (rows and columns in any
    /// order, repeated entries, empty rows and columns), and the inequality rows' products
    /// the full products' there.
    #[test]
    fn grouped_products_are_the_triplet_products() {
        let mut rng = Lcg::new(5);
        let mut next = |n: usize| rng.below(n);
        for case in 0..200 {
            let (m, nvar) = (1 + case % 13, 1 + case % 7);
            let nnz = next(40);
            let (mut i, mut j, mut v) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..nnz {
                i.push(next(m));
                j.push(next(nvar));
                v.push(next(2001) as f64 / 37.0 - 27.0);
            }
            let x: Vec<f64> = (0..nvar).map(|_| next(999) as f64 / 7.0 - 70.0).collect();
            let y: Vec<f64> = (0..m).map(|_| next(999) as f64 / 11.0 - 45.0).collect();
            let a = Triplets {
                i: &i,
                j: &j,
                v: &v,
            };
            let n_eq = next(m + 1);
            let grouped = Grouped::new(&a, &v, m, nvar, n_eq);
            let b = vec![0.0; m];
            let plain = Problem {
                nvar,
                n_eq,
                p: Triplets {
                    i: &[],
                    j: &[],
                    v: &[],
                },
                q: &x,
                a,
                b: &b,
                knots: 0,
                grouped: None,
            };
            let fast = Problem {
                grouped: Some(&grouped),
                ..plain
            };
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let (mut o1, mut o2) = (vec![1.5; m], vec![-2.5; m]);
            plain.ax(&x, &mut o1);
            fast.ax(&x, &mut o2);
            assert_eq!(bits(&o1), bits(&o2), "A x, case {case}");
            let start: Vec<f64> = (0..nvar).map(|k| k as f64 * 0.3 - 1.0).collect();
            let (mut g1, mut g2) = (start.clone(), start);
            plain.add_aty(&y, &mut g1);
            fast.add_aty(&y, &mut g2);
            assert_eq!(bits(&g1), bits(&g2), "Aᵀ y, case {case}");
            // the inequality rows alone: A x there, and Aᵀ y with y zero on the equalities
            // (a start of +0 or nonzero entries, as the Newton solve's)
            let y_ineq: Vec<f64> = (0..m).map(|r| if r < n_eq { 0.0 } else { y[r] }).collect();
            let start: Vec<f64> = (0..nvar).map(|k| [0.0, -1.25, 3.5][k % 3]).collect();
            for pb in [&plain, &fast] {
                let mut full = vec![7.0; m];
                plain.ax(&x, &mut full);
                let mut ineq = vec![7.0; m];
                pb.ax_ineq(&x, &mut ineq);
                assert_eq!(
                    bits(&full[n_eq..]),
                    bits(&ineq[n_eq..]),
                    "A_I x, case {case}"
                );
                assert!(
                    ineq[..n_eq].iter().all(|&v| v == 7.0),
                    "equality rows untouched"
                );
                let mut g1 = start.clone();
                plain.add_aty(&y_ineq, &mut g1);
                let mut g2 = start.clone();
                pb.add_aty_ineq(&y, &mut g2);
                assert_eq!(bits(&g1), bits(&g2), "A_Iᵀ y, case {case}");
            }
        }
    }
}
