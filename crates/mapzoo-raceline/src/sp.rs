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
use crate::status::QpSolution;
use crate::status::QpStatus;

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
    let (upper, lower) = qp.rhs().split_at(n);
    let sol = match qp.solve_unambiguous(Stage::Sp, 0) {
        Ok(sol) => sol,
        // A stalled interior point (a circle of some radii, issue 25): find the active set by
        // projected descent and solve it exactly. Only a failed solve gets here, so every line
        // that built before is unchanged.
        Err(
            e @ OptimizeError::Solver {
                status:
                    QpStatus::InsufficientProgress | QpStatus::MaxIterations | QpStatus::NumericalError,
                ..
            },
        ) => {
            return box_active_set(&diag, &off, qp.linear_term(), upper, lower).ok_or(e);
        }
        Err(e) => return Err(e),
    };
    Ok(polish_box_tridiagonal(&diag, &off, qp.linear_term(), upper, lower, &sol).unwrap_or(sol.x))
}

/// Most sweeps of the projected descent in [`box_active_set`].
const MAX_SWEEPS: usize = 20_000;

/// The box-constrained QP `min ½xᵀHx + qᵀx, −lower ≤ x ≤ upper` with H cyclic tridiagonal
/// (`diag`, `off[i]` = H(i, i+1)) and positive definite, without the interior point: projected
/// Gauss–Seidel sweeps (each coordinate minimised in turn and clamped to its box, which
/// converges for a positive definite H) until the bounds that hold stop changing, then that
/// active set solved exactly by the polish, which keeps it only if the KKT conditions hold.
fn box_active_set(
    diag: &[f64],
    off: &[f64],
    q: &[f64],
    upper: &[f64],
    lower: &[f64],
) -> Option<Vec<f64>> {
    let n = diag.len();
    if n < 3 || !diag.iter().all(|d| d.is_finite() && *d > 0.0) {
        return None;
    }
    let mut x = vec![0.0; n];
    let on_bound = |x: &[f64]| -> Vec<i8> {
        (0..n)
            .map(|i| {
                let tol = 1e-9 * (1.0 + upper[i].abs().max(lower[i].abs()));
                if x[i] >= upper[i] - tol {
                    1
                } else if -x[i] >= lower[i] - tol {
                    -1
                } else {
                    0
                }
            })
            .collect()
    };
    let mut last = on_bound(&x);
    for sweep in 0..MAX_SWEEPS {
        let mut change: f64 = 0.0;
        for i in 0..n {
            let g = q[i] + off[(i + n - 1) % n] * x[(i + n - 1) % n] + off[i] * x[(i + 1) % n];
            let xi = (-g / diag[i]).clamp(-lower[i], upper[i]);
            change = change.max((xi - x[i]).abs());
            x[i] = xi;
        }
        // try the polish whenever the active set has settled for a while, and at the end
        let active = on_bound(&x);
        let settled = active == last;
        last = active;
        if (settled && sweep % 50 == 49) || change < 1e-13 || sweep + 1 == MAX_SWEEPS {
            let guess = QpSolution {
                x: x.clone(),
                s: (0..2 * n)
                    .map(|r| f64::from(u8::from(last[r % n] != if r < n { 1 } else { -1 })))
                    .collect(),
                z: vec![0.5; 2 * n],
            };
            if let Some(exact) = polish_box_tridiagonal(diag, off, q, upper, lower, &guess) {
                return Some(exact);
            }
            if change < 1e-13 {
                return None;
            }
        }
    }
    None
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
