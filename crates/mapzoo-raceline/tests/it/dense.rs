//! A small dense matrix for the naive twins of the tests: row-major storage,
//! products, transpose, and LU with partial pivoting (solve and inverse). Only
//! what the dense reference formulations need; sizes are a few hundred at most.

use std::ops::{Index, IndexMut};

/// A dense `rows × cols` matrix of f64, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Mat {
    /// The zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Mat {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// The matrix whose entry (r, c) is `f(r, c)`.
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f64) -> Self {
        let mut m = Self::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                m[(r, c)] = f(r, c);
            }
        }
        m
    }

    /// Row `r` as a slice.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    /// The product `self · other`.
    pub fn mul(&self, other: &Mat) -> Mat {
        assert_eq!(self.cols, other.rows, "matrix product: inner sizes differ");
        let mut out = Mat::zeros(self.rows, other.cols);
        for r in 0..self.rows {
            for k in 0..self.cols {
                let a = self[(r, k)];
                if a == 0.0 {
                    continue;
                }
                for c in 0..other.cols {
                    out[(r, c)] += a * other[(k, c)];
                }
            }
        }
        out
    }

    /// The product `self · v` with a column vector.
    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        assert_eq!(self.cols, v.len(), "matrix-vector product: sizes differ");
        (0..self.rows)
            .map(|r| self.row(r).iter().zip(v).map(|(a, b)| a * b).sum())
            .collect()
    }

    /// The solution x of `self · x = b` by LU with partial pivoting; `None` when singular.
    pub fn solve(&self, b: &[f64]) -> Option<Vec<f64>> {
        let x = self.solve_many(&Mat::from_fn(b.len(), 1, |r, _| b[r]))?;
        Some(x.data)
    }

    /// The inverse, by LU with partial pivoting; `None` when singular.
    pub fn inverse(&self) -> Option<Mat> {
        self.solve_many(&Mat::from_fn(self.rows, self.rows, |r, c| {
            f64::from(r == c)
        }))
    }

    /// The solution X of `self · X = B` (Gaussian elimination with partial pivoting).
    fn solve_many(&self, b: &Mat) -> Option<Mat> {
        let n = self.rows;
        assert_eq!(n, self.cols, "solve: the matrix is not square");
        assert_eq!(n, b.rows, "solve: right-hand side has the wrong size");
        let mut a = self.clone();
        let mut x = b.clone();
        let scale = a.data.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for k in 0..n {
            let pivot = (k..n).max_by(|&i, &j| a[(i, k)].abs().total_cmp(&a[(j, k)].abs()))?;
            if a[(pivot, k)].abs() <= 1e-14 * scale {
                return None;
            }
            a.swap_rows(k, pivot);
            x.swap_rows(k, pivot);
            for i in k + 1..n {
                let factor = a[(i, k)] / a[(k, k)];
                if factor == 0.0 {
                    continue;
                }
                for c in k..n {
                    a[(i, c)] -= factor * a[(k, c)];
                }
                for c in 0..x.cols {
                    x[(i, c)] -= factor * x[(k, c)];
                }
            }
        }
        for k in (0..n).rev() {
            for c in 0..x.cols {
                let tail: f64 = (k + 1..n).map(|j| a[(k, j)] * x[(j, c)]).sum();
                x[(k, c)] = (x[(k, c)] - tail) / a[(k, k)];
            }
        }
        Some(x)
    }

    fn swap_rows(&mut self, i: usize, j: usize) {
        if i != j {
            for c in 0..self.cols {
                self.data.swap(i * self.cols + c, j * self.cols + c);
            }
        }
    }
}

impl Index<(usize, usize)> for Mat {
    type Output = f64;
    fn index(&self, (r, c): (usize, usize)) -> &f64 {
        assert!(
            r < self.rows && c < self.cols,
            "index ({r}, {c}) out of range"
        );
        &self.data[r * self.cols + c]
    }
}

impl IndexMut<(usize, usize)> for Mat {
    fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut f64 {
        assert!(
            r < self.rows && c < self.cols,
            "index ({r}, {c}) out of range"
        );
        &mut self.data[r * self.cols + c]
    }
}

#[test]
fn lu_inverse_times_matrix_is_identity() {
    // A matrix that needs pivoting: a zero on the first diagonal entry.
    let m = Mat::from_fn(5, 5, |r, c| {
        if r == c && r == 0 {
            0.0
        } else {
            1.0 / (1.0 + r as f64 + 2.0 * c as f64) + f64::from(r == c)
        }
    });
    let inv = m.inverse().expect("regular");
    let id = m.mul(&inv);
    for r in 0..5 {
        for c in 0..5 {
            assert!(
                (id[(r, c)] - f64::from(r == c)).abs() < 1e-12,
                "({r}, {c}) = {}",
                id[(r, c)]
            );
        }
    }
    let x = m.solve(&[1.0, 2.0, 3.0, 4.0, 5.0]).expect("regular");
    let b = m.mul_vec(&x);
    for (i, v) in b.iter().enumerate() {
        assert!((v - (i + 1) as f64).abs() < 1e-12);
    }
}

#[test]
fn singular_matrix_is_refused() {
    let m = Mat::from_fn(3, 3, |r, c| (r + c) as f64);
    assert!(m.inverse().is_none());
    assert!(m.solve(&[1.0, 2.0, 3.0]).is_none());
}
