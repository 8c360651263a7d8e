//! Stage 9, the shortest-path racing line (DESIGN §3.9; TUM
//! `opt_shortest_path`): minimise Σ‖rᵢ₊₁ − rᵢ‖² over the shifts α with the
//! width bounds (each clipped to ≥ 1 mm as TUM does), then smooth α with a
//! circular moving average. The Hessian is cyclic tridiagonal (4 on the
//! diagonal, −2nᵢ·nᵢ₊₁ beside it), so the QP is sparse from the start.

use clarabel::algebra::CscMatrix;
use clarabel::solver::SupportedConeT;

use crate::error::OptimizeError;
use crate::iqp::solve_qp;
use crate::prep::RefTrack;

/// Solve the shortest-path QP on a reference line with unit normals; α in metres, positive right.
pub fn shortest_path_qp(
    reftrack: &RefTrack,
    normals: &[[f64; 2]],
    safety_width: f64,
) -> Result<Vec<f64>, OptimizeError> {
    let n = reftrack.len();
    if normals.len() != n || n < 3 {
        return Err(OptimizeError::Numerical {
            stage: "sp",
            message: format!("{} reference points but {} normals", n, normals.len()),
        });
    }
    let p = &reftrack.xy;
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let sub = |a: [f64; 2], b: [f64; 2]| [a[0] - b[0], a[1] - b[1]];
    let mut pi = Vec::with_capacity(2 * n);
    let mut pj = Vec::with_capacity(2 * n);
    let mut pv = Vec::with_capacity(2 * n);
    let mut q = vec![0.0; n];
    for i in 0..n {
        let next = (i + 1) % n;
        let prev = (i + n - 1) % n;
        pi.push(i);
        pj.push(i);
        pv.push(2.0 * dot(normals[i], normals[i]) + 2.0 * dot(normals[i], normals[i]));
        let off = -2.0 * dot(normals[i], normals[next]);
        // upper triangle: (i, i+1), and the closing entry (0, n−1)
        if next > i {
            pi.push(i);
            pj.push(next);
        } else {
            pi.push(next);
            pj.push(i);
        }
        pv.push(off);
        q[i] =
            2.0 * dot(normals[i], sub(p[i], p[next])) + 2.0 * dot(normals[i], sub(p[i], p[prev]));
    }
    let pm = CscMatrix::new_from_triplets(n, n, pi, pj, pv);
    let half = safety_width / 2.0;
    let mut ai = Vec::with_capacity(2 * n);
    let mut aj = Vec::with_capacity(2 * n);
    let mut av = Vec::with_capacity(2 * n);
    let mut b = vec![0.0; 2 * n];
    for i in 0..n {
        ai.extend([i, n + i]);
        aj.extend([i, i]);
        av.extend([1.0, -1.0]);
        b[i] = (reftrack.w_right[i] - half).max(0.001);
        b[n + i] = (reftrack.w_left[i] - half).max(0.001);
    }
    let a = CscMatrix::new_from_triplets(2 * n, n, ai, aj, av);
    solve_qp(
        &pm,
        &q,
        &a,
        &b,
        &[SupportedConeT::NonnegativeConeT(2 * n)],
        "sp",
        0,
    )
}

/// Circular moving average over 2·half + 1 points.
pub fn smooth_circular(alpha: &[f64], half: usize) -> Vec<f64> {
    let n = alpha.len();
    let w = 2 * half + 1;
    (0..n)
        .map(|i| {
            let mut acc = 0.0;
            for k in 0..w {
                acc += alpha[(i + n * w + k - half) % n];
            }
            acc / w as f64
        })
        .collect()
}
