//! The periodic cubic smoothing spline of the reference-line prep (DESIGN §3
//! stage 7): SciPy's `splprep(k=3, s, per=1)` on chord-length parameters,
//! i.e. FITPACK `clocur`/`fpclos` (Dierckx, ported in [`crate::fpclos`]); evaluation as FITPACK `splev` (boundary intervals extrapolate); and
//! SciPy's Nelder–Mead `fmin`, used by TUM to find the closest spline point.

use crate::error::OptimizeError;

/// A periodic parametric cubic B-spline in the plane, parameter u ∈ [0, 1].
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodicSpline {
    /// Knots (FITPACK `t`, length n).
    pub knots: Vec<f64>,
    /// x coefficients (n − 4 of them).
    pub cx: Vec<f64>,
    /// y coefficients (n − 4 of them).
    pub cy: Vec<f64>,
}

const K: usize = 3;

impl PeriodicSpline {
    /// Smoothing fit to a closed point list (`points[last] == points[0]`), smoothing factor `s` (m²).
    pub fn fit(points: &[[f64; 2]], s: f64) -> Result<Self, OptimizeError> {
        let m = points.len();
        if m < 2 * K + 2 {
            return Err(OptimizeError::TooFewPoints {
                what: "smoothing spline input",
                found: m,
                needed: 2 * K + 2,
            });
        }
        // clocur's own chord-length parameters (ipar = 0): cumulative distances / total.
        let mut u = vec![0.0; m];
        for i in 1..m {
            let dx = points[i][0] - points[i - 1][0];
            let dy = points[i][1] - points[i - 1][1];
            u[i] = u[i - 1] + (dx * dx + dy * dy).sqrt();
        }
        let total = u[m - 1];
        for (i, p) in points.iter().enumerate().take(m - 1).skip(1) {
            if u[i] <= u[i - 1] {
                return Err(OptimizeError::DuplicatePoint {
                    what: "reference line (0.05 m interpolation)",
                    index: i - 1,
                    next: i,
                    x: p[0],
                    y: p[1],
                });
            }
        }
        for v in u.iter_mut().skip(1) {
            *v /= total;
        }
        u[m - 1] = 1.0;
        let fit = crate::fpclos::clocur(&u, points, s);
        // ier 1..3 (knot or iteration limits) are warnings in SciPy too: the fit is used as it is
        Ok(PeriodicSpline {
            knots: fit.t,
            cx: fit.c[0].clone(),
            cy: fit.c[1].clone(),
        })
    }

    /// The point at parameter `u` (FITPACK `splev`, extrapolating outside [t_k, t_{n−k−1}]).
    pub fn eval(&self, u: f64) -> [f64; 2] {
        let t = &self.knots;
        let l = knot_interval(t, u);
        let h = fpbspl(t, u, l);
        // the coefficients l − K ..= l, taken as windows so that the loop indexes them directly
        let (cx, cy) = (&self.cx[l - K..=l], &self.cy[l - K..=l]);
        let mut x = 0.0;
        let mut y = 0.0;
        for (j, hj) in h.iter().enumerate() {
            x += cx[j] * hj;
            y += cy[j] * hj;
        }
        [x, y]
    }
}

/// The knot interval l (0-based) with t[l] <= u < t[l+1], clamped to [k, n-k-2]: a binary
/// search of the (non-decreasing) knots, where FITPACK walks them one by one
/// (`knot_interval_linear` in the tests).
fn knot_interval(t: &[f64], u: f64) -> usize {
    let n = t.len();
    if n < 2 * K + 3 {
        return K;
    }
    K + t[K + 1..=n - K - 2].partition_point(|&x| x <= u)
}

/// FITPACK `fpbspl`: the k+1 non-zero cubic B-splines at x in knot interval l (0-based).
fn fpbspl(t: &[f64], x: f64, l: usize) -> [f64; K + 1] {
    // the knots it reads, t[l − K + 1..=l + K], as one window: slot w holds t[l − K + 1 + w]
    let tw = &t[l + 1 - K..=l + K];
    bsplines_in_window(&[tw[0], tw[1], tw[2], tw[3], tw[4], tw[5]], x)
}

/// The k+1 non-zero cubic B-splines at x (0-based) from the six knots around its interval,
/// `tw` = t[l − 2..=l + 3] for the interval [t[l], t[l+1]): FITPACK's `fpbspl` recurrence,
/// its operations in its order, one level at a time in fixed-size arrays (registers, not a
/// copy through memory). `fpclos` evaluates its B-splines with it too.
#[inline(always)]
pub(crate) fn bsplines_in_window(tw: &[f64; 2 * K], x: f64) -> [f64; K + 1] {
    let h = bspl_level([1.0, 0.0, 0.0, 0.0], 1, tw, x);
    let h = bspl_level(h, 2, tw, x);
    bspl_level(h, 3, tw, x)
}

/// Level j of [`fpbspl`]'s recurrence: the j + 1 B-splines of degree j from the j of degree
/// j − 1 (`hh`), FITPACK's operations in its order.
#[inline(always)]
fn bspl_level(hh: [f64; K + 1], j: usize, tw: &[f64; 2 * K], x: f64) -> [f64; K + 1] {
    let mut h = [0.0; K + 1];
    for i in 1..=j {
        // Fortran: li = l+i, lj = li-j with 1-based l; here l is 0-based
        let (tli, tlj) = (tw[i + K - 1], tw[i + K - 1 - j]);
        if tli == tlj {
            h[i] = 0.0;
            continue;
        }
        let f = hh[i - 1] / (tli - tlj);
        h[i - 1] += f * (tli - x);
        h[i] = f * (x - tlj);
    }
    h
}

/// SciPy `optimize.fmin` (Nelder–Mead, defaults xtol = ftol = 1e-4, 200 iterations and calls) in one dimension.
pub fn fmin_1d(f: impl Fn(f64) -> f64, x0: f64) -> f64 {
    const XATOL: f64 = 1e-4;
    const FATOL: f64 = 1e-4;
    const MAXITER: usize = 200;
    const MAXFUN: usize = 200;
    let (rho, chi, psi, sigma) = (1.0, 2.0, 0.5, 0.5);
    let calls = std::cell::Cell::new(0usize);
    let call = |x: f64| -> Option<f64> {
        if calls.get() >= MAXFUN {
            return None;
        }
        calls.set(calls.get() + 1);
        Some(f(x))
    };
    let x1 = if x0 != 0.0 {
        (1.0 + 0.05) * x0
    } else {
        0.00025
    };
    let mut sim = [x0, x1];
    let mut fsim = [f64::INFINITY; 2];
    if let Some(v) = call(sim[0]) {
        fsim[0] = v;
    }
    if let Some(v) = call(sim[1]) {
        fsim[1] = v;
    }
    let sort = |sim: &mut [f64; 2], fsim: &mut [f64; 2]| {
        // numpy argsort of two values: stable, NaN last
        let swap = fsim[1] < fsim[0] || (fsim[0].is_nan() && !fsim[1].is_nan());
        if swap {
            sim.swap(0, 1);
            fsim.swap(0, 1);
        }
    };
    sort(&mut sim, &mut fsim);
    let mut iterations = 1;
    while calls.get() < MAXFUN && iterations < MAXITER {
        if (sim[1] - sim[0]).abs() <= XATOL && (fsim[0] - fsim[1]).abs() <= FATOL {
            break;
        }
        // one iteration; a call past MAXFUN aborts it like SciPy's _MaxFuncCallError
        let step = (|| -> Option<()> {
            let xbar = sim[0];
            let xr = (1.0 + rho) * xbar - rho * sim[1];
            let fxr = call(xr)?;
            if fxr < fsim[0] {
                let xe = (1.0 + rho * chi) * xbar - rho * chi * sim[1];
                let fxe = call(xe)?;
                if fxe < fxr {
                    sim[1] = xe;
                    fsim[1] = fxe;
                } else {
                    sim[1] = xr;
                    fsim[1] = fxr;
                }
            } else {
                // with one dimension SciPy's fsim[-2] is fsim[0], so its plain-reflection case never applies
                let mut doshrink = false;
                if fxr < fsim[1] {
                    let xc = (1.0 + psi * rho) * xbar - psi * rho * sim[1];
                    let fxc = call(xc)?;
                    if fxc <= fxr {
                        sim[1] = xc;
                        fsim[1] = fxc;
                    } else {
                        doshrink = true;
                    }
                } else {
                    let xcc = (1.0 - psi) * xbar + psi * sim[1];
                    let fxcc = call(xcc)?;
                    if fxcc < fsim[1] {
                        sim[1] = xcc;
                        fsim[1] = fxcc;
                    } else {
                        doshrink = true;
                    }
                }
                if doshrink {
                    sim[1] = sim[0] + sigma * (sim[1] - sim[0]);
                    fsim[1] = call(sim[1])?;
                }
            }
            Some(())
        })();
        if step.is_some() {
            iterations += 1;
        }
        sort(&mut sim, &mut fsim);
    }
    sim[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FITPACK's walk along the knots.
    fn knot_interval_linear(t: &[f64], u: f64) -> usize {
        let n = t.len();
        let mut l = K;
        while l < n - K - 2 && u >= t[l + 1] {
            l += 1;
        }
        l
    }

    /// `splev` as first ported: FITPACK's knot walk, `fpbspl` indexing the knots one by one.
    fn eval_naive(sp: &PeriodicSpline, u: f64) -> [f64; 2] {
        let t = &sp.knots;
        let l = knot_interval_linear(t, u);
        let mut h = [0.0; K + 1];
        let mut hh = [0.0; K];
        h[0] = 1.0;
        for j in 1..=K {
            hh[..j].copy_from_slice(&h[..j]);
            h[0] = 0.0;
            for i in 1..=j {
                let li = l + i;
                let lj = li - j;
                if t[li] == t[lj] {
                    h[i] = 0.0;
                    continue;
                }
                let f = hh[i - 1] / (t[li] - t[lj]);
                h[i - 1] += f * (t[li] - u);
                h[i] = f * (u - t[lj]);
            }
        }
        let (mut x, mut y) = (0.0, 0.0);
        for (j, hj) in h.iter().enumerate() {
            x += sp.cx[l - K + j] * hj;
            y += sp.cy[l - K + j] * hj;
        }
        [x, y]
    }

    proptest::proptest! {
        /// `eval` gives bit-identical points to its naive twin, with repeated knots and
        /// parameters outside the knots (extrapolation).
        #[test]
        fn eval_matches_naive_twin(
            mut knots in proptest::collection::vec(-0.5..1.5f64, 8..40),
            coef in proptest::collection::vec((-50.0..50.0f64, -50.0..50.0f64), 40),
            us in proptest::collection::vec(-0.6..1.6f64, 1..20),
            dup in 0usize..40,
        ) {
            knots.sort_by(f64::total_cmp);
            let d = dup % (knots.len() - 1);
            knots[d + 1] = knots[d];
            let nc = knots.len() - K - 1;
            let sp = PeriodicSpline {
                cx: coef[..nc].iter().map(|c| c.0).collect(),
                cy: coef[..nc].iter().map(|c| c.1).collect(),
                knots,
            };
            for u in us {
                let (a, b) = (sp.eval(u), eval_naive(&sp, u));
                proptest::prop_assert_eq!((a[0].to_bits(), a[1].to_bits()), (b[0].to_bits(), b[1].to_bits()));
            }
        }

        #[test]
        fn knot_interval_matches_the_linear_walk(
            mut t in proptest::collection::vec(-2.0..3.0f64, 9..40),
            u in proptest::prop_oneof![-3.0..4.0f64, proptest::sample::select(vec![0.0, 1.0, f64::NAN])],
            dup in 0usize..40,
        ) {
            t.sort_by(f64::total_cmp);
            let d = dup % (t.len() - 1);
            t[d + 1] = t[d];
            let at = t[(dup * 7) % t.len()];
            for u in [u, at] {
                proptest::prop_assert_eq!(knot_interval(&t, u), knot_interval_linear(&t, u));
            }
        }
    }

    #[test]
    fn fmin_finds_parabola_minimum() {
        let x = fmin_1d(|x| (x - 0.3) * (x - 0.3), 0.5);
        assert!((x - 0.3).abs() < 2e-4, "{x}");
    }

    /// The smoothing spline's defining property: residual sum of squares = s (to FITPACK's
    /// tolerance 0.001·s), and the curve closes on itself.
    #[test]
    fn periodic_fit_meets_smoothing_factor() {
        let m = 400;
        let pts: Vec<[f64; 2]> = (0..=m)
            .map(|i| {
                let a = 2.0 * std::f64::consts::PI * (i % m) as f64 / m as f64;
                // deterministic wiggle as "noise"
                let r = 10.0 + 0.05 * ((i % m) as f64 * 1.7).sin();
                [r * a.cos(), 1.5 * r * a.sin()]
            })
            .collect();
        let s = 0.2;
        let sp = PeriodicSpline::fit(&pts, s).unwrap();
        // parameters as clocur computes them
        let mut u = vec![0.0; m + 1];
        for i in 1..=m {
            u[i] = u[i - 1] + (pts[i][0] - pts[i - 1][0]).hypot(pts[i][1] - pts[i - 1][1]);
        }
        let fp: f64 = (0..m)
            .map(|i| {
                let p = sp.eval(u[i] / u[m]);
                (p[0] - pts[i][0]).powi(2) + (p[1] - pts[i][1]).powi(2)
            })
            .sum();
        assert!((fp - s).abs() < 0.001 * s, "fp = {fp}");
        // clocur reports the same residual and no warning
        let fit = crate::fpclos::clocur(&u.iter().map(|v| v / u[m]).collect::<Vec<_>>(), &pts, s);
        assert!(
            (fit.fp - fp).abs() < 1e-9 * s,
            "clocur fp {} vs {fp}",
            fit.fp
        );
        assert_eq!(fit.ier, 0);
        let (a, b) = (sp.eval(0.0), sp.eval(1.0));
        assert!((a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9);
    }
}
