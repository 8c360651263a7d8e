//! Property tests of the racing-line kernels against simple twins (STYLE:
//! "a naive twin for every fast kernel"): the sparse curvature QP against
//! TUM's dense formulation, the cyclic tridiagonal spline against a dense
//! solve, C2 continuity across the seam, the velocity profile against a plain
//! forward–backward loop, and the racing line's clearance from exact walls.

// The dense twin follows TUM's index loops over its matrices on purpose.
#![allow(clippy::needless_range_loop)]

use mapzoo_format::Waypoint;
use mapzoo_raceline::iqp::CurvatureQp;
use mapzoo_raceline::spline::{c2_rhs, c2_system, distance_scaling, solve_cyclic_tridiagonal};
use mapzoo_raceline::velocity::{velocity_profile, velocity_profile_reference, Vehicle};
use mapzoo_raceline::{compute, ClosedSpline, LineKind, RacelineParams, RefTrack};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

/// A smooth closed loop r(θ) = R·(1 + a2·cos(2θ + φ2) + a3·cos(3θ + φ3)), counter-clockwise,
/// sampled at `n` angles with a random jitter of the angle (uneven spacing).
fn loop_points(
    n: usize,
    radius: f64,
    a2: f64,
    a3: f64,
    phase: f64,
    jitter: &[f64],
) -> Vec<[f64; 2]> {
    (0..n)
        .map(|i| {
            let th =
                (i as f64 + 0.3 * jitter[i % jitter.len()]) * 2.0 * std::f64::consts::PI / n as f64;
            let r = radius
                * (1.0 + a2 * (2.0 * th + phase).cos() + a3 * (3.0 * th + 2.0 * phase).cos());
            [r * th.cos(), 1.3 * r * th.sin()]
        })
        .collect()
}

/// TUM `opt_min_curv`'s dense QP before its bounds: Hessian, linear term, curvature rows and
/// the reference line's curvature at the knots (1/m).
struct DenseQp {
    h: DMatrix<f64>,
    f: DVector<f64>,
    e_kappa: DMatrix<f64>,
    k_ref: DVector<f64>,
}

/// TUM `opt_min_curv`'s dense matrices (A⁻¹ of the 4N×4N spline system, N×N Hessian).
fn dense_problem(qp: &CurvatureQp) -> Option<DenseQp> {
    let rt = qp.reftrack;
    let n = rt.len();
    let s = qp.scaling;
    // spline system M (TUM calc_splines, closed) for coefficient vector [a0 a1 a2 a3] per segment
    let mut m = DMatrix::<f64>::zeros(4 * n, 4 * n);
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
    let minv = m.try_inverse()?;
    let mut a_ex_b = DMatrix::<f64>::zeros(n, 4 * n);
    let mut a_ex_c = DMatrix::<f64>::zeros(n, 4 * n);
    for i in 0..n {
        a_ex_b[(i, 4 * i + 1)] = 1.0;
        a_ex_c[(i, 4 * i + 2)] = 2.0;
    }
    let t_c = &a_ex_c * &minv;
    let mut m_x = DMatrix::<f64>::zeros(4 * n, n);
    let mut m_y = DMatrix::<f64>::zeros(4 * n, n);
    let mut q_x = DVector::<f64>::zeros(4 * n);
    let mut q_y = DVector::<f64>::zeros(4 * n);
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
    let xp = &a_ex_b * &minv * &q_x;
    let yp = &a_ex_b * &minv * &q_y;
    let t_nx = &t_c * &m_x;
    let t_ny = &t_c * &m_y;
    let mut h = DMatrix::<f64>::zeros(n, n);
    let mut f = DVector::<f64>::zeros(n);
    let mut e_kappa = DMatrix::<f64>::zeros(n, n);
    let mut k_ref = DVector::<f64>::zeros(n);
    let cx = &t_c * &q_x;
    let cy = &t_c * &q_y;
    for i in 0..n {
        let cp = 1.0 / (xp[i] * xp[i] + yp[i] * yp[i]).powf(1.5);
        let cp2 = cp * cp;
        let (pxx, pyy, pxy) = (
            cp2 * yp[i] * yp[i],
            cp2 * xp[i] * xp[i],
            cp2 * -2.0 * xp[i] * yp[i],
        );
        let rx = t_nx.row(i);
        let ry = t_ny.row(i);
        h += rx.transpose() * rx * pxx + ry.transpose() * rx * pxy + ry.transpose() * ry * pyy;
        f += (rx.transpose() * (2.0 * pxx * cx[i] + pxy * cy[i])
            + ry.transpose() * (pxy * cx[i] + 2.0 * pyy * cy[i]))
            .column(0);
        e_kappa.set_row(i, &(ry * (cp * xp[i]) - rx * (cp * yp[i])));
        k_ref[i] = cp * xp[i] * cy[i] - cp * yp[i] * cx[i];
    }
    let h = (&h + h.transpose()) / 2.0;
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
        f.as_slice(),
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
    // set (rows whose slack is below their multiplier) densely.
    let a_dense = DMatrix::from_fn(4 * n, n, |r, c| {
        let (i, k) = (r % n, c);
        match r / n {
            0 => f64::from(i == k),
            1 => -f64::from(i == k),
            2 => e_kappa[(i, k)],
            _ => -e_kappa[(i, k)],
        }
    });
    let active: Vec<usize> = (0..4 * n).filter(|&r| sol.s[r] < sol.z[r]).collect();
    let m = active.len();
    let mut kkt = DMatrix::zeros(n + m, n + m);
    let mut rhs = DVector::zeros(n + m);
    for r in 0..n {
        for c in 0..n {
            kkt[(r, c)] = h[(r, c)];
        }
        rhs[r] = -f[r];
    }
    for (j, &row) in active.iter().enumerate() {
        for c in 0..n {
            kkt[(n + j, c)] = a_dense[(row, c)];
            kkt[(c, n + j)] = a_dense[(row, c)];
        }
        rhs[n + j] = b[row];
    }
    let exact = kkt.lu().solve(&rhs)?;
    let x: Vec<f64> = exact.iter().take(n).copied().collect();
    // Keep it only if it is still feasible; otherwise the interior-point answer stands.
    let ax = &a_dense * DVector::from_column_slice(&x);
    let feasible = (0..4 * n).all(|r| ax[r] <= b[r] + 1e-9);
    Some(if feasible { x } else { sol.x.clone() })
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

/// Both formulations agree on infeasibility too: a closed loop turns by 2π, so inside a
/// corridor about 1 m wide around a ≈ 10 × 13 m loop its curvature cannot stay under
/// 0.01 1/m (radius 100 m), and neither formulation may report a solution.
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
        assert!(qp.solve(1).is_err(), "n {n}: sparse solved");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The sparse QP (second derivatives as variables, C2 equalities) has the same minimiser as
    /// TUM's dense one, for the distance-scaled first spline and the unscaled re-fits. Feasible
    /// by construction: every width exceeds half the safety width and the curvature bound is
    /// above the reference line's largest |κ|, so α = 0 satisfies every constraint strictly and
    /// both formulations must solve.
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
        let sparse = qp.solve(1);
        prop_assert!(dense.is_some(), "dense QP failed on a feasible problem (κ bound {})", qp.kappa_bound);
        prop_assert!(sparse.is_ok(), "sparse QP failed on a feasible problem: {:?}", sparse.err());
        let (s, d) = (sparse.unwrap(), dense.unwrap());
        prop_assert_eq!(s.len(), d.len());
        for (a, b) in s.iter().zip(&d) {
            prop_assert!((a - b).abs() < 1e-6, "sparse {a} vs dense {b}");
        }
    }

    /// The O(N) cyclic tridiagonal solve equals a dense solve of the same system.
    #[test]
    fn cyclic_tridiagonal_matches_dense(
        values in prop::collection::vec(-10.0f64..10.0, 3..40),
        scale in prop::collection::vec(0.5f64..2.0, 40),
    ) {
        let n = values.len();
        let scaling = &scale[..n];
        let (sub, diag, sup) = c2_system(scaling);
        let rhs = c2_rhs(&values, scaling);
        let fast = solve_cyclic_tridiagonal(&sub, &diag, &sup, &rhs).unwrap();
        let mut m = DMatrix::<f64>::zeros(n, n);
        for j in 0..n {
            m[(j, (j + n - 1) % n)] += sub[j];
            m[(j, j)] += diag[j];
            m[(j, (j + 1) % n)] += sup[j];
        }
        let dense = m.lu().solve(&DVector::from_vec(rhs)).unwrap();
        for (a, b) in fast.iter().zip(dense.iter()) {
            prop_assert!((a - b).abs() < 1e-8 * (1.0 + b.abs()), "{a} vs {b}");
        }
    }

    /// Closed splines are C2 at every knot, including the seam from segment N−1 to 0
    /// (in TUM's local parameters: P_i'(1) = s_i·P_{i+1}'(0), P_i''(1) = s_i²·P_{i+1}''(0)).
    #[test]
    fn spline_is_c2_across_the_seam(
        n in 5usize..50,
        radius in 2.0f64..20.0,
        a2 in 0.0f64..0.3,
        jitter in prop::collection::vec(-1.0f64..1.0, 5),
        scaled in any::<bool>(),
    ) {
        let pts = loop_points(n, radius, a2, 0.05, 0.7, &jitter);
        let scaling = if scaled { distance_scaling(&pts) } else { vec![1.0; n] };
        let sp = ClosedSpline::through(&pts, Some(&scaling)).unwrap();
        for i in 0..n {
            let j = (i + 1) % n;
            for c in [&sp.coeffs_x, &sp.coeffs_y] {
                let (a, b) = (c[i], c[j]);
                let p1 = a[0] + a[1] + a[2] + a[3];
                let d1 = a[1] + 2.0 * a[2] + 3.0 * a[3];
                let dd1 = 2.0 * a[2] + 6.0 * a[3];
                let tol = 1e-9 * (1.0 + radius);
                prop_assert!((p1 - b[0]).abs() < tol, "C0 at knot {j}");
                prop_assert!((d1 - scaling[i] * b[1]).abs() < tol, "C1 at knot {j}");
                prop_assert!((dd1 - scaling[i] * scaling[i] * 2.0 * b[2]).abs() < tol, "C2 at knot {j}");
            }
        }
    }

    /// TUM's phase-structured forward–backward solver equals a plain two-lap sweep.
    #[test]
    fn velocity_profile_matches_plain_loop(
        kappa in prop::collection::vec(-1.2f64..1.2, 10..300),
        el in prop::collection::vec(0.05f64..0.15, 300),
        straight in prop::collection::vec(any::<bool>(), 300),
        dyn_exp in 1.0f64..2.0,
    ) {
        let n = kappa.len();
        // long straights (tiny curvature) let the car reach v_max
        let kappa: Vec<f64> = (0..n).map(|i| if straight[i] { kappa[i] * 1e-3 } else { kappa[i] }).collect();
        let params = RacelineParams { dyn_model_exp: dyn_exp, ..RacelineParams::racestack() };
        let veh = Vehicle::from_params(&params);
        let fast = velocity_profile(&kappa, &el[..n], &veh);
        let plain = velocity_profile_reference(&kappa, &el[..n], &veh);
        for (a, b) in fast.iter().zip(&plain) {
            prop_assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
    }
}

/// A synthetic track: smooth loop centerline at ≈0.1 m, exact walls at ± width along the normals.
fn synthetic_track(radius: f64, a2: f64, a3: f64, phase: f64, width: f64) -> Vec<Waypoint> {
    let dense = loop_points(4000, radius, a2, a3, phase, &[0.0]);
    mapzoo_synth::tracks::centerline_along(&dense, 0.1, width)
}

/// Regression: on a smooth ellipse of uniform width most SP shifts sit on their bound; Clarabel
/// stalled there (InsufficientProgress) at the tight tolerances. Found by the clearance property below.
#[test]
fn shortest_path_on_a_uniform_ellipse_is_solved() {
    let cl = synthetic_track(6.0, 0.0, 0.0, 0.0, 1.0);
    let params = RacelineParams {
        safety_width: 0.5,
        safety_width_sp: 0.5,
        ..RacelineParams::mapzoo()
    };
    let r = compute(&cl, None, &params).unwrap();
    assert!(
        r[LineKind::Sp].length_m < r[LineKind::Iqp].length_m,
        "SP {} m is not shorter than IQP {} m",
        r[LineKind::Sp].length_m,
        r[LineKind::Iqp].length_m
    );
    for w in &r[LineKind::Iqp].waypoints {
        assert!(w.d_right.min(w.d_left) >= 0.25 - 0.02, "{w:?}");
    }
    // The SP's α is smoothed after the QP (TUM's 7-point average), so it may cut its bound slightly.
    for w in &r[LineKind::Sp].waypoints {
        assert!(w.d_right.min(w.d_left) > 0.0, "{w:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// No racing-line point closer to a wall than safety_width/2 − 0.02 m.
    #[test]
    fn racing_line_keeps_clear_of_walls(
        radius in 6.0f64..10.0,
        a2 in 0.0f64..0.2,
        a3 in 0.0f64..0.06,
        phase in 0.0f64..6.0,
        width in 1.0f64..1.6,
        safety_width in 0.5f64..1.4,
    ) {
        let cl = synthetic_track(radius, a2, a3, phase, width);
        let params = RacelineParams { safety_width, safety_width_sp: safety_width, ..RacelineParams::mapzoo() };
        let r = compute(&cl, None, &params).unwrap();
        for w in &r[LineKind::Iqp].waypoints {
            prop_assert!(w.d_right.min(w.d_left) >= safety_width / 2.0 - 0.02, "{w:?}");
        }
    }
}

/// With different safety widths the IQP comes from `safety_width` and the SP from a second IQP
/// at `safety_width_sp`: each equals the run with both widths set to that one value.
#[test]
fn sp_width_only_changes_the_sp() {
    let cl = synthetic_track(8.0, 0.15, 0.04, 1.0, 1.4);
    let both = |iqp_w: f64, sp_w: f64| {
        let params = RacelineParams {
            safety_width: iqp_w,
            safety_width_sp: sp_w,
            ..RacelineParams::mapzoo()
        };
        compute(&cl, None, &params).unwrap()
    };
    let mixed = both(0.7, 1.2);
    let narrow = both(0.7, 0.7);
    let wide = both(1.2, 1.2);
    assert_eq!(
        mixed[LineKind::Iqp].waypoints,
        narrow[LineKind::Iqp].waypoints
    );
    assert_eq!(mixed[LineKind::Sp].waypoints, wide[LineKind::Sp].waypoints);
    assert_ne!(
        mixed[LineKind::Iqp].lap_time_s,
        wide[LineKind::Iqp].lap_time_s
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The bucket-grid nearest-wall distance equals a brute-force scan of the resampled walls,
    /// for query points inside, on and far outside the walls' extent.
    #[test]
    fn wall_distance_matches_brute_force(
        radius in 1.0f64..15.0,
        a2 in 0.0f64..0.3,
        jitter in prop::collection::vec(-1.0f64..1.0, 5),
        queries in prop::collection::vec((-40.0f64..40.0, -40.0f64..40.0), 1..40),
    ) {
        let right = loop_points(300, radius + 1.0, a2, 0.02, 0.3, &jitter);
        let left = loop_points(200, radius, a2, 0.02, 0.3, &jitter);
        let walls = mapzoo_raceline::Walls { right, left }.resampled(0.1);
        let brute = |pts: &[[f64; 2]], q: [f64; 2]| {
            pts.iter().map(|p| (p[0] - q[0]).hypot(p[1] - q[1])).fold(f64::INFINITY, f64::min)
        };
        let mut qs: Vec<[f64; 2]> = queries.iter().map(|&(x, y)| [x, y]).collect();
        qs.push(walls.right_points()[3]);
        for q in qs {
            let (dr, dl) = walls.distances(q);
            prop_assert!((dr - brute(walls.right_points(), q)).abs() < 1e-12);
            prop_assert!((dl - brute(walls.left_points(), q)).abs() < 1e-12);
        }
    }
}

/// The result carries the walls its widths were measured to: the rebuilt ones without walls,
/// the given ones otherwise (so callers need not rebuild them).
#[test]
fn result_carries_the_walls_used() {
    let cl = synthetic_track(7.0, 0.1, 0.03, 0.5, 1.3);
    let rebuilt =
        mapzoo_raceline::walls::from_centerline(&mapzoo_raceline::reftrack_from_waypoints(&cl))
            .unwrap();
    let params = RacelineParams::mapzoo();
    let r = compute(&cl, None, &params).unwrap();
    assert_eq!(r.walls, rebuilt);
    let given = mapzoo_raceline::Walls {
        right: rebuilt.right.iter().step_by(2).copied().collect(),
        left: rebuilt.left.iter().step_by(2).copied().collect(),
    };
    assert_eq!(compute(&cl, Some(&given), &params).unwrap().walls, given);
}
