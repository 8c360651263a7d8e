//! Closed splines: the O(N) cyclic tridiagonal solve against a dense solve, and
//! C2 continuity across the seam.

use mapzoo_raceline::reference::{c2_rhs, c2_system, solve_cyclic_tridiagonal};
use mapzoo_raceline::{distance_scaling, ClosedSpline};
use proptest::prelude::*;

use crate::dense::Mat;
use crate::support::loop_points;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

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
        let mut m = Mat::zeros(n, n);
        for j in 0..n {
            m[(j, (j + n - 1) % n)] += sub[j];
            m[(j, j)] += diag[j];
            m[(j, (j + 1) % n)] += sup[j];
        }
        let dense = m.solve(&rhs).unwrap();
        for (a, b) in fast.iter().zip(dense.iter()) {
            prop_assert!((a - b).abs() < 1e-8 * (1.0 + b.abs()), "{a} vs {b}");
        }
    }

    /// Closed splines are C2 at every knot, including the seam from segment N−1 to 0

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
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `sample_count` with the count `sample` chose places the same points.
    #[test]
    fn sample_count_is_sample_for_its_count(
        radius in 2.0f64..20.0,
        n in 8usize..80,
        step in 0.05f64..0.5,
    ) {
        let pts: Vec<[f64; 2]> = (0..n)
            .map(|i| {
                let t = i as f64 / n as f64 * std::f64::consts::TAU;
                [radius * t.cos(), 0.6 * radius * t.sin()]
            })
            .collect();
        let spline = mapzoo_raceline::ClosedSpline::through(&pts, None).unwrap();
        let by_step = spline.sample(step);
        prop_assert_eq!(spline.sample_count(by_step.points.len()), by_step);
    }
}
