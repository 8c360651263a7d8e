//! The seamless prep's smoothing: a Whittaker smoother on a closed, evenly spaced point
//! sequence. It treats every point alike (its matrix is circulant), where FITPACK's periodic
//! smoothing spline places its knots from the first point on.

use crate::error::OptimizeError;
use crate::stage::Stage;

/// Bisection steps on log₁₀ λ in [`smooth_closed`] (from 24 decades to 1e-17 of one).
const BISECTIONS: usize = 80;
/// The search range of log₁₀ λ.
const LOG_LAMBDA: (f64, f64) = (-12.0, 12.0);

/// The closed sequence `p` smoothed: the f minimising Σ|pᵢ − fᵢ|² + λ Σ|fᵢ₋₁ − 2fᵢ + fᵢ₊₁|²
/// (indices mod n), with λ chosen so that the residual Σ|pᵢ − fᵢ|² is `s` (FITPACK's meaning
/// of its smoothing factor). `s` = 0, or fewer than 5 points, returns `p`; an `s` beyond what
/// the strongest smoothing reaches takes that smoothing.
pub(crate) fn smooth_closed(p: &[[f64; 2]], s: f64) -> Result<Vec<[f64; 2]>, OptimizeError> {
    let n = p.len();
    if n < 5 || s <= 0.0 {
        return Ok(p.to_vec());
    }
    let xs: Vec<f64> = p.iter().map(|q| q[0]).collect();
    let ys: Vec<f64> = p.iter().map(|q| q[1]).collect();
    let smoothed = |log_lambda: f64| -> Result<(Vec<[f64; 2]>, f64), OptimizeError> {
        let factor = CyclicPenta::factor(n, 10f64.powf(log_lambda))?;
        let f: Vec<[f64; 2]> = factor
            .solve(&xs)
            .into_iter()
            .zip(factor.solve(&ys))
            .map(|(x, y)| [x, y])
            .collect();
        let rss = p
            .iter()
            .zip(&f)
            .map(|(a, b)| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2))
            .sum();
        Ok((f, rss))
    };
    let (mut lo, mut hi) = LOG_LAMBDA;
    let strongest = smoothed(hi)?;
    if strongest.1 <= s {
        return Ok(strongest.0);
    }
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if smoothed(mid)?.1 > s {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(smoothed(lo)?.0)
}

/// The Cholesky factor of I + λ·D², D the cyclic second difference: the symmetric cyclic
/// pentadiagonal matrix with 1 + 6λ on the diagonal, −4λ and λ beside it and in the corners.
/// Stored by rows from each row's first nonzero (two before the diagonal; the last two rows,
/// filled by the corners, from column 0), so factoring and solving are O(n).
struct CyclicPenta {
    /// First stored column of each row.
    first: Vec<usize>,
    /// Row i holds L[i][first[i]..=i].
    rows: Vec<Vec<f64>>,
}

impl CyclicPenta {
    /// Factor for `n` ≥ 5 points.
    fn factor(n: usize, lambda: f64) -> Result<Self, OptimizeError> {
        let first: Vec<usize> = (0..n)
            .map(|i| if i < 2 || i + 2 >= n { 0 } else { i - 2 })
            .collect();
        let entry = |i: usize, j: usize| -> f64 {
            let d = (i + n - j) % n;
            match d.min(n - d) {
                0 => 1.0 + 6.0 * lambda,
                1 => -4.0 * lambda,
                2 => lambda,
                _ => 0.0,
            }
        };
        let mut rows: Vec<Vec<f64>> = Vec::with_capacity(n);
        for i in 0..n {
            let fi = first[i];
            let mut row = vec![0.0; i - fi + 1];
            for j in fi..=i {
                let fj = first[j];
                let mut acc = entry(i, j);
                for k in fi.max(fj)..j {
                    let ljk = if j < i { rows[j][k - fj] } else { row[k - fi] };
                    acc -= row[k - fi] * ljk;
                }
                row[j - fi] = if j < i {
                    acc / rows[j][j - fj]
                } else if acc > 0.0 && acc.is_finite() {
                    acc.sqrt()
                } else {
                    return Err(OptimizeError::Numerical {
                        stage: Stage::Prep,
                        message: format!("smoothing system not positive definite at row {i}"),
                    });
                };
            }
            rows.push(row);
        }
        Ok(CyclicPenta { first, rows })
    }

    /// x with (I + λD²)·x = b.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let n = b.len();
        let mut y = b.to_vec();
        for i in 0..n {
            let fi = self.first[i];
            let row = &self.rows[i];
            let mut acc = y[i];
            for k in fi..i {
                acc -= row[k - fi] * y[k];
            }
            y[i] = acc / row[i - fi];
        }
        for i in (0..n).rev() {
            let fi = self.first[i];
            let row = &self.rows[i];
            y[i] /= row[i - fi];
            let xi = y[i];
            for k in fi..i {
                y[k] -= row[k - fi] * xi;
            }
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Dense Gaussian elimination of (I + λD²)x = b, the naive twin of [`CyclicPenta`].
    fn dense_solve(n: usize, lambda: f64, b: &[f64]) -> Vec<f64> {
        let mut a = vec![vec![0.0; n + 1]; n];
        for (i, row) in a.iter_mut().enumerate() {
            // D² = DᵀD row by row: (1, −4, 6, −4, 1) around the diagonal, cyclic
            for (off, w) in [(n - 2, 1.0), (n - 1, -4.0), (0, 6.0), (1, -4.0), (2, 1.0)] {
                row[(i + off) % n] += lambda * w;
            }
            row[i] += 1.0;
            row[n] = b[i];
        }
        for c in 0..n {
            let piv = (c..n)
                .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
                .unwrap();
            a.swap(c, piv);
            let pivot = a[c].clone();
            for (r, row) in a.iter_mut().enumerate() {
                if r != c {
                    let f = row[c] / pivot[c];
                    for (x, p) in row.iter_mut().zip(&pivot).skip(c) {
                        *x -= f * p;
                    }
                }
            }
        }
        (0..n).map(|i| a[i][n] / a[i][i]).collect()
    }

    /// A closed wobbly loop of `n` points, evenly spaced in angle.
    fn wobbly(n: usize, amp: f64, seed: f64) -> Vec<[f64; 2]> {
        (0..n)
            .map(|i| {
                let t = i as f64 / n as f64 * std::f64::consts::TAU;
                let r = 5.0 + amp * ((i as f64 * 12.9898 + seed).sin() * 43758.5453).fract();
                [r * t.cos(), r * t.sin()]
            })
            .collect()
    }

    proptest! {
        #[test]
        fn envelope_cholesky_matches_dense_elimination(
            n in 5usize..40,
            log_lambda in -3.0f64..6.0,
            seed in 0.0f64..100.0,
        ) {
            let lambda = 10f64.powf(log_lambda);
            let b: Vec<f64> = (0..n).map(|i| ((i as f64 + seed) * 1.7).sin()).collect();
            let fast = CyclicPenta::factor(n, lambda).unwrap().solve(&b);
            let slow = dense_solve(n, lambda, &b);
            for (f, s) in fast.iter().zip(&slow) {
                prop_assert!((f - s).abs() < 1e-9 * (1.0 + s.abs()), "{f} vs {s}");
            }
        }

        /// Every point alike: turning the input turns the output, and the residual is s.
        #[test]
        fn smoothing_turns_with_its_input(
            n in 20usize..300,
            turn in 1usize..300,
            s in 0.001f64..0.5,
            seed in 0.0f64..100.0,
        ) {
            let p = wobbly(n, 0.2, seed);
            let f = smooth_closed(&p, s).unwrap();
            let mut q = p.clone();
            q.rotate_left(turn % n);
            let g = smooth_closed(&q, s).unwrap();
            for i in 0..n {
                let (a, b) = (f[(i + turn) % n], g[i]);
                prop_assert!((a[0] - b[0]).hypot(a[1] - b[1]) < 1e-9);
            }
            let rss: f64 = p.iter().zip(&f).map(|(a, b)| (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sum();
            let max_rss: f64 = {
                let c = p.iter().fold([0.0, 0.0], |c, q| [c[0] + q[0] / n as f64, c[1] + q[1] / n as f64]);
                p.iter().map(|q| (q[0] - c[0]).powi(2) + (q[1] - c[1]).powi(2)).sum()
            };
            if s < max_rss {
                prop_assert!((rss - s).abs() < 1e-6 * s, "residual {rss} for s = {s}");
            }
        }
    }

    #[test]
    fn no_smoothing_returns_the_points() {
        let p = wobbly(30, 0.3, 1.0);
        assert_eq!(smooth_closed(&p, 0.0).unwrap(), p);
        assert_eq!(smooth_closed(&p[..4], 1.0).unwrap(), p[..4].to_vec());
    }
}
