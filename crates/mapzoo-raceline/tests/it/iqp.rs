//! Stage 8: the sparse curvature QP against TUM's dense formulation (STYLE:
//! the sparse QP against a small dense solve), feasible and infeasible.

// The dense twin follows TUM's index loops over its matrices on purpose.
#![allow(clippy::needless_range_loop)]

use mapzoo_raceline::reference::CurvatureQp;
use mapzoo_raceline::{distance_scaling, ClosedSpline, QpSolver, RefTrack};
use proptest::prelude::*;

use crate::dense::Mat;
use crate::support::loop_points;

/// TUM `opt_min_curv`'s dense QP before its bounds: Hessian, linear term, curvature rows and
/// the reference line's curvature at the knots (1/m).
struct DenseQp {
    h: Mat,
    f: Vec<f64>,
    e_kappa: Mat,
    k_ref: Vec<f64>,
}

/// TUM `opt_min_curv`'s dense matrices (A⁻¹ of the 4N×4N spline system, N×N Hessian).
fn dense_problem(qp: &CurvatureQp) -> Option<DenseQp> {
    let rt = qp.reftrack;
    let n = rt.len();
    let s = qp.scaling;
    // spline system M (TUM calc_splines, closed) for coefficient vector [a0 a1 a2 a3] per segment
    let mut m = Mat::zeros(4 * n, 4 * n);
    for i in 0..n {
        let j = 4 * i;
        m[(j, j)] = 1.0;
        for c in 0..4 {
            m[(j + 1, j + c)] = 1.0;
        }
        let nx = 4 * ((i + 1) % n);
        m[(j + 2, j + 1)] = 1.0;
        m[(j + 2, j + 2)] = 2.0;
        m[(j + 2, j + 3)] = 3.0;
        m[(j + 2, nx + 1)] -= s[i];
        m[(j + 3, j + 2)] = 2.0;
        m[(j + 3, j + 3)] = 6.0;
        m[(j + 3, nx + 2)] -= 2.0 * s[i] * s[i];
    }
    let minv = m.inverse()?;
    let mut a_ex_b = Mat::zeros(n, 4 * n);
    let mut a_ex_c = Mat::zeros(n, 4 * n);
    for i in 0..n {
        a_ex_b[(i, 4 * i + 1)] = 1.0;
        a_ex_c[(i, 4 * i + 2)] = 2.0;
    }
    let t_b = a_ex_b.mul(&minv);
    let t_c = a_ex_c.mul(&minv);
    let mut m_x = Mat::zeros(4 * n, n);
    let mut m_y = Mat::zeros(4 * n, n);
    let mut q_x = vec![0.0; 4 * n];
    let mut q_y = vec![0.0; 4 * n];
    for i in 0..n {
        let j = 4 * i;
        let nx = (i + 1) % n;
        m_x[(j, i)] = qp.normals[i][0];
        m_x[(j + 1, nx)] = qp.normals[nx][0];
        m_y[(j, i)] = qp.normals[i][1];
        m_y[(j + 1, nx)] = qp.normals[nx][1];
        q_x[j] = rt.xy[i][0];
        q_x[j + 1] = rt.xy[nx][0];
        q_y[j] = rt.xy[i][1];
        q_y[j + 1] = rt.xy[nx][1];
    }
    let xp = t_b.mul_vec(&q_x);
    let yp = t_b.mul_vec(&q_y);
    let t_nx = t_c.mul(&m_x);
    let t_ny = t_c.mul(&m_y);
    let mut h = Mat::zeros(n, n);
    let mut f = vec![0.0; n];
    let mut e_kappa = Mat::zeros(n, n);
    let mut k_ref = vec![0.0; n];
    let cx = t_c.mul_vec(&q_x);
    let cy = t_c.mul_vec(&q_y);
    for i in 0..n {
        let cp = 1.0 / (xp[i] * xp[i] + yp[i] * yp[i]).powf(1.5);
        let cp2 = cp * cp;
        let (pxx, pyy, pxy) = (
            cp2 * yp[i] * yp[i],
            cp2 * xp[i] * xp[i],
            cp2 * -2.0 * xp[i] * yp[i],
        );
        let (rx, ry) = (t_nx.row(i), t_ny.row(i));
        // H += rxᵀrx·pxx + ryᵀrx·pxy + ryᵀry·pyy; f += rxᵀ(2pxx·cx + pxy·cy) + ryᵀ(pxy·cx + 2pyy·cy)
        for r in 0..n {
            for c in 0..n {
                h[(r, c)] += rx[r] * rx[c] * pxx + ry[r] * rx[c] * pxy + ry[r] * ry[c] * pyy;
            }
            f[r] += rx[r] * (2.0 * pxx * cx[i] + pxy * cy[i])
                + ry[r] * (pxy * cx[i] + 2.0 * pyy * cy[i]);
            e_kappa[(i, r)] = ry[r] * (cp * xp[i]) - rx[r] * (cp * yp[i]);
        }
        k_ref[i] = cp * xp[i] * cy[i] - cp * yp[i] * cx[i];
    }
    let h = Mat::from_fn(n, n, |r, c| (h[(r, c)] + h[(c, r)]) / 2.0);
    Some(DenseQp {
        h,
        f,
        e_kappa,
        k_ref,
    })
}

/// The dense QP of [`dense_problem`] with `qp`'s width and curvature bounds, solved with Clarabel.
fn dense_alpha(qp: &CurvatureQp, dense: &DenseQp) -> Option<Vec<f64>> {
    use clarabel::algebra::CscMatrix;
    use clarabel::solver::{
        DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
    };
    let rt = qp.reftrack;
    let n = rt.len();
    let DenseQp {
        h,
        f,
        e_kappa,
        k_ref,
    } = dense;
    let mut pi = Vec::new();
    let mut pj = Vec::new();
    let mut pv = Vec::new();
    for c in 0..n {
        for r in 0..=c {
            pi.push(r);
            pj.push(c);
            pv.push(h[(r, c)]);
        }
    }
    let p = CscMatrix::new_from_triplets(n, n, pi, pj, pv);
    let mut ai = Vec::new();
    let mut aj = Vec::new();
    let mut av = Vec::new();
    let mut b = vec![0.0; 4 * n];
    let half = qp.safety_width / 2.0;
    for i in 0..n {
        ai.extend([i, n + i]);
        aj.extend([i, i]);
        av.extend([1.0, -1.0]);
        b[i] = rt.w_right[i] - half;
        b[n + i] = rt.w_left[i] - half;
        for k in 0..n {
            ai.extend([2 * n + i, 3 * n + i]);
            aj.extend([k, k]);
            av.extend([e_kappa[(i, k)], -e_kappa[(i, k)]]);
        }
        b[2 * n + i] = qp.kappa_bound - k_ref[i];
        b[3 * n + i] = qp.kappa_bound + k_ref[i];
    }
    let a = CscMatrix::new_from_triplets(4 * n, n, ai, aj, av);
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .tol_gap_abs(1e-10)
        .tol_gap_rel(1e-10)
        .tol_feas(1e-10)
        .build()
        .ok()?;
    let mut solver = DefaultSolver::new(
        &p,
        f,
        &a,
        &b,
        &[SupportedConeT::NonnegativeConeT(4 * n)],
        settings,
    )
    .ok()?;
    solver.solve();
    let sol = &solver.solution;
    if !matches!(
        sol.status,
        SolverStatus::Solved | SolverStatus::AlmostSolved
    ) {
        return None;
    }
    // An interior point stops short of the bounds by ~1e-7, which an ill-conditioned curvature
    // Hessian turns into ~1e-6 in α. Make the reference exact: solve the KKT system of its active
    // set (rows whose slack is below their multiplier) densely, and where that point violates a
    // row or holds one with a negative multiplier (a weakly active row the interior point
    // classed wrongly), correct the set and solve again: the minimiser is the point that is
    // feasible with non-negative multipliers.
    let a_dense = Mat::from_fn(4 * n, n, |r, c| {
        let (i, k) = (r % n, c);
        match r / n {
            0 => f64::from(i == k),
            1 => -f64::from(i == k),
            2 => e_kappa[(i, k)],
            _ => -e_kappa[(i, k)],
        }
    });
    let mut active: Vec<bool> = (0..4 * n).map(|r| sol.s[r] < sol.z[r]).collect();
    for _ in 0..10 {
        let rows: Vec<usize> = (0..4 * n).filter(|&r| active[r]).collect();
        let m = rows.len();
        let mut kkt = Mat::zeros(n + m, n + m);
        let mut rhs = vec![0.0; n + m];
        for r in 0..n {
            for c in 0..n {
                kkt[(r, c)] = h[(r, c)];
            }
            rhs[r] = -f[r];
        }
        for (j, &row) in rows.iter().enumerate() {
            for c in 0..n {
                kkt[(n + j, c)] = a_dense[(row, c)];
                kkt[(c, n + j)] = a_dense[(row, c)];
            }
            rhs[n + j] = b[row];
        }
        let exact = kkt.solve(&rhs)?;
        let x: Vec<f64> = exact.iter().take(n).copied().collect();
        let ax = a_dense.mul_vec(&x);
        let violated: Vec<usize> = (0..4 * n)
            .filter(|&r| !active[r] && ax[r] > b[r] + 1e-12)
            .collect();
        let pulling: Vec<usize> = (0..m)
            .filter(|&j| exact[n + j] < -1e-12)
            .map(|j| rows[j])
            .collect();
        if violated.is_empty() && pulling.is_empty() {
            return Some(x);
        }
        violated
            .iter()
            .chain(&pulling)
            .for_each(|&r| active[r] = !active[r]);
    }
    // no set settled: the interior-point answer stands
    Some(sol.x.clone())
}

/// A closed reference line for the curvature QP: the loop of [`loop_points`] with widths cycling
/// through `widths`, its spline scaling (distance-scaled or all ones) and normals.
#[allow(clippy::too_many_arguments)]
fn qp_track(
    n: usize,
    radius: f64,
    a2: f64,
    a3: f64,
    phase: f64,
    jitter: &[f64],
    widths: &[f64],
    scaled: bool,
) -> (RefTrack, Vec<f64>, Vec<[f64; 2]>) {
    let xy = loop_points(n, radius, a2, a3, phase, jitter);
    let k = widths.len();
    let rt = RefTrack {
        w_right: (0..n).map(|i| widths[i % k]).collect(),
        w_left: (0..n).map(|i| widths[(i + 2) % k]).collect(),
        xy,
    };
    let scaling = if scaled {
        distance_scaling(&rt.xy)
    } else {
        vec![1.0; n]
    };
    let normals = ClosedSpline::through(&rt.xy, Some(&scaling))
        .unwrap()
        .normals();
    (rt, scaling, normals)
}

/// Both formulations agree on infeasibility too, with either solver: a closed loop turns by 2π,
/// so inside a corridor about 1 m wide around a ≈ 10 × 13 m loop its curvature cannot stay
/// under 0.01 1/m (radius 100 m), and neither formulation may report a solution.
#[test]
fn sparse_and_dense_qp_both_reject_an_infeasible_bound() {
    let jitter = [0.3, -0.5, 0.8, 0.0, -0.2, 0.6, -0.9];
    for (n, scaled) in [(24, true), (40, false), (57, true)] {
        let (rt, scaling, normals) =
            qp_track(n, 5.0, 0.1, 0.03, 1.0, &jitter, &[1.0, 1.1, 0.9], scaled);
        let mut qp = CurvatureQp {
            reftrack: &rt,
            normals: &normals,
            scaling: &scaling,
            kappa_bound: 1.0,
            safety_width: 0.7,
        };
        let problem = dense_problem(&qp).unwrap();
        qp.kappa_bound = 0.01;
        assert!(dense_alpha(&qp, &problem).is_none(), "n {n}: dense solved");
        for solver in [QpSolver::Clarabel, QpSolver::Banded] {
            assert!(
                qp.solve_with(1, solver).is_err(),
                "n {n}: sparse solved ({solver:?})"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The sparse QP (second derivatives as variables, C2 equalities), solved by either solver,
    /// has the same minimiser as TUM's dense one, for the distance-scaled first spline and the
    /// unscaled re-fits. Feasible by construction: every width exceeds half the safety width
    /// and the curvature bound is above the reference line's largest |κ|, so α = 0 satisfies
    /// every constraint strictly and both formulations must solve.
    #[test]
    fn sparse_qp_matches_dense(
        n in 20usize..60,
        radius in 4.0f64..8.0,
        a2 in 0.0f64..0.2,
        a3 in 0.0f64..0.08,
        phase in 0.0f64..6.0,
        jitter in prop::collection::vec(-1.0f64..1.0, 7),
        widths in prop::collection::vec(0.6f64..1.6, 5),
        scaled in any::<bool>(),
        bound_factor in 1.02f64..3.0,
    ) {
        let (rt, scaling, normals) = qp_track(n, radius, a2, a3, phase, &jitter, &widths, scaled);
        let mut qp = CurvatureQp { reftrack: &rt, normals: &normals, scaling: &scaling, kappa_bound: 1.0, safety_width: 0.7 };
        let problem = dense_problem(&qp).expect("the spline system of a smooth loop is regular");
        let k_max = problem.k_ref.iter().fold(0.0f64, |m, k| m.max(k.abs()));
        qp.kappa_bound = bound_factor * k_max;
        let dense = dense_alpha(&qp, &problem);
        prop_assert!(dense.is_some(), "dense QP failed on a feasible problem (κ bound {})", qp.kappa_bound);
        let d = dense.unwrap();
        for solver in [QpSolver::Clarabel, QpSolver::Banded] {
            let sparse = qp.solve_with(1, solver);
            prop_assert!(sparse.is_ok(), "sparse QP ({:?}) failed on a feasible problem: {:?}", solver, sparse.err());
            let s = sparse.unwrap();
            prop_assert_eq!(s.len(), d.len());
            for (a, b) in s.iter().zip(&d) {
                prop_assert!((a - b).abs() < 1e-6, "sparse ({:?}) {} vs dense {}", solver, a, b);
            }
        }
    }
}
