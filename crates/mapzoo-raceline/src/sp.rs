//! Stage 9, the shortest-path racing line (DESIGN §3.9; TUM
//! `opt_shortest_path`): minimise Σ‖rᵢ₊₁ − rᵢ‖² over the shifts α with the
//! width bounds (each clipped to ≥ 1 mm as TUM does), then smooth α with a
//! circular moving average. The Hessian is cyclic tridiagonal (4 on the
//! diagonal, −2nᵢ·nᵢ₊₁ beside it), so the QP is sparse from the start; it is
//! assembled, solved and polished by [`crate::qp`].

use crate::error::OptimizeError;
use crate::prep::RefTrack;
use crate::qp::{polish_box_tridiagonal, QpProblem, QpSolver};
use crate::stage::Stage;

/// Solve the shortest-path QP on a reference line with unit normals by `solver`; α in metres,
/// positive right.
pub fn shortest_path_qp(
    reftrack: &RefTrack,
    normals: &[[f64; 2]],
    safety_width: f64,
    solver: QpSolver,
) -> Result<Vec<f64>, OptimizeError> {
    let n = reftrack.len();
    if normals.len() != n || n < 3 {
        return Err(OptimizeError::Numerical {
            stage: Stage::Sp,
            message: format!("{} reference points but {} normals", n, normals.len()),
        });
    }
    let p = &reftrack.xy;
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let sub = |a: [f64; 2], b: [f64; 2]| [a[0] - b[0], a[1] - b[1]];
    // rows 0..n: α ≤ w_right − half, rows n..2n: −α ≤ w_left − half
    // the cyclic tridiagonal Hessian: diag[i] = H(i, i), off[i] = H(i, i+1)
    let diag: Vec<f64> = (0..n)
        .map(|i| 2.0 * dot(normals[i], normals[i]) + 2.0 * dot(normals[i], normals[i]))
        .collect();
    let off: Vec<f64> = (0..n)
        .map(|i| -2.0 * dot(normals[i], normals[(i + 1) % n]))
        .collect();
    let mut qp = QpProblem::new(n, 0, 2 * n, 2 * n, 2 * n);
    qp.set_knots(n);
    qp.set_solver(solver);
    for i in 0..n {
        let next = (i + 1) % n;
        let prev = (i + n - 1) % n;
        qp.hessian(i, i, diag[i]);
        // upper triangle: (i, i+1), and the closing entry (0, n−1)
        if next > i {
            qp.hessian(i, next, off[i]);
        } else {
            qp.hessian(next, i, off[i]);
        }
        qp.linear(
            i,
            2.0 * dot(normals[i], sub(p[i], p[next])) + 2.0 * dot(normals[i], sub(p[i], p[prev])),
        );
    }
    let half = safety_width / 2.0;
    for i in 0..n {
        qp.constraint(i, i, 1.0);
        qp.constraint(n + i, i, -1.0);
        qp.bound(i, (reftrack.w_right[i] - half).max(0.001));
        qp.bound(n + i, (reftrack.w_left[i] - half).max(0.001));
    }
    let sol = qp.solve(Stage::Sp, 0)?;
    let (upper, lower) = qp.rhs().split_at(n);
    Ok(polish_box_tridiagonal(&diag, &off, qp.linear_term(), upper, lower, &sol).unwrap_or(sol.x))
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
