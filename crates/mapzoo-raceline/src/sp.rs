//! Stage 9, the shortest-path racing line (DESIGN §3.9; TUM
//! `opt_shortest_path`): minimise Σ‖rᵢ₊₁ − rᵢ‖² over the shifts α with the
//! width bounds (each clipped to ≥ 1 mm as TUM does), then smooth α with a
//! circular moving average. The Hessian is cyclic tridiagonal (4 on the
//! diagonal, −2nᵢ·nᵢ₊₁ beside it), so the QP is sparse from the start.

use clarabel::algebra::CscMatrix;
use clarabel::solver::SupportedConeT;

use crate::error::OptimizeError;
use crate::iqp::{solve_qp, QpSolution};
use crate::prep::RefTrack;
use crate::spline::solve_cyclic_tridiagonal;

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
    let sol = solve_qp(
        &pm,
        &q,
        &a,
        &b,
        &[SupportedConeT::NonnegativeConeT(2 * n)],
        "sp",
        0,
    )?;
    let diag: Vec<f64> = (0..n)
        .map(|i| 2.0 * dot(normals[i], normals[i]) + 2.0 * dot(normals[i], normals[i]))
        .collect();
    let off: Vec<f64> = (0..n)
        .map(|i| -2.0 * dot(normals[i], normals[(i + 1) % n]))
        .collect();
    let upper = &b[..n];
    let lower = &b[n..];
    Ok(polish(&diag, &off, &q, upper, lower, &sol).unwrap_or(sol.x))
}

/// Exact solution on the interior point's active set (quadprog, which TUM uses, is an exact
/// active-set method; Clarabel stops ~1e-6 m short of the bounds). Fix the bounds whose slack is
/// below their dual, solve the cyclic tridiagonal KKT rows of the free shifts exactly, and keep
/// the result only if it is primal and dual feasible. `None` keeps the interior-point answer.
fn polish(
    diag: &[f64],
    off: &[f64],
    q: &[f64],
    upper: &[f64],
    lower: &[f64],
    sol: &QpSolution,
) -> Option<Vec<f64>> {
    let n = diag.len();
    // −1 at the lower bound, +1 at the upper bound, 0 free
    let active: Vec<i8> = (0..n)
        .map(|i| {
            if sol.s[i] < sol.z[i] {
                1
            } else if sol.s[n + i] < sol.z[n + i] {
                -1
            } else {
                0
            }
        })
        .collect();
    let mut x: Vec<f64> = (0..n)
        .map(|i| match active[i] {
            1 => upper[i],
            -1 => -lower[i],
            _ => sol.x[i],
        })
        .collect();
    let free: Vec<usize> = (0..n).filter(|&i| active[i] == 0).collect();
    // H x = −q on the free rows; H(i, i±1) = off[i] / off[i−1]
    let h_prev = |i: usize| off[(i + n - 1) % n];
    let h_next = |i: usize| off[i];
    if free.len() == n {
        let sub: Vec<f64> = (0..n).map(h_prev).collect();
        let sup: Vec<f64> = (0..n).map(h_next).collect();
        let rhs: Vec<f64> = q.iter().map(|v| -v).collect();
        x = solve_cyclic_tridiagonal(&sub, diag, &sup, &rhs).ok()?;
    } else if !free.is_empty() {
        // runs of consecutive free indices (cyclically), each a tridiagonal system
        let start = (0..n).find(|&i| active[i] != 0)?;
        let mut k = 0;
        while k < n {
            let i0 = (start + k) % n;
            if active[i0] != 0 {
                k += 1;
                continue;
            }
            let mut run = Vec::new();
            while k < n && active[(start + k) % n] == 0 {
                run.push((start + k) % n);
                k += 1;
            }
            let m = run.len();
            let mut sub = vec![0.0; m];
            let mut dg = vec![0.0; m];
            let mut sup = vec![0.0; m];
            let mut rhs = vec![0.0; m];
            for (r, &i) in run.iter().enumerate() {
                dg[r] = diag[i];
                sub[r] = h_prev(i);
                sup[r] = h_next(i);
                rhs[r] = -q[i];
            }
            // the fixed neighbours at both ends of the run move to the right-hand side
            let before = (run[0] + n - 1) % n;
            let after = (run[m - 1] + 1) % n;
            rhs[0] -= h_prev(run[0]) * x[before];
            rhs[m - 1] -= h_next(run[m - 1]) * x[after];
            let y = thomas_open(&sub, &dg, &sup, &rhs)?;
            for (r, &i) in run.iter().enumerate() {
                x[i] = y[r];
            }
        }
    }
    // primal feasibility of the free shifts, dual feasibility of the fixed ones
    let tol = 1e-9;
    for i in 0..n {
        let g = diag[i] * x[i] + h_prev(i) * x[(i + n - 1) % n] + h_next(i) * x[(i + 1) % n] + q[i];
        let ok = match active[i] {
            0 => x[i] <= upper[i] + tol && -x[i] <= lower[i] + tol,
            1 => g <= tol,
            _ => g >= -tol,
        };
        if !ok || !x[i].is_finite() {
            return None;
        }
    }
    Some(x)
}

/// Open tridiagonal solve (Thomas), `None` on a zero pivot.
fn thomas_open(sub: &[f64], diag: &[f64], sup: &[f64], rhs: &[f64]) -> Option<Vec<f64>> {
    let m = diag.len();
    let mut c = vec![0.0; m];
    let mut d = vec![0.0; m];
    let mut piv = diag[0];
    if piv == 0.0 {
        return None;
    }
    c[0] = sup[0] / piv;
    d[0] = rhs[0] / piv;
    for i in 1..m {
        piv = diag[i] - sub[i] * c[i - 1];
        if piv == 0.0 {
            return None;
        }
        c[i] = sup[i] / piv;
        d[i] = (rhs[i] - sub[i] * d[i - 1]) / piv;
    }
    let mut y = vec![0.0; m];
    y[m - 1] = d[m - 1];
    for i in (0..m - 1).rev() {
        y[i] = d[i] - c[i] * y[i + 1];
    }
    Some(y)
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
