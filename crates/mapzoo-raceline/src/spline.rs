//! Closed C2 cubic splines through points, their normals, lengths, sampling,
//! heading and curvature (DESIGN §3 stages 7, 8 and 10; TUM
//! `calc_splines`, `calc_spline_lengths`, `interp_splines`, `calc_head_curv_an`).
//!
//! Segment i runs from point i to point i+1 (the last back to point 0) with a
//! local parameter t ∈ [0, 1]: P_i(t) = a0 + a1·t + a2·t² + a3·t³. TUM's first
//! spline of the reference line scales the C1/C2 conditions between segments by
//! the ratio of their lengths (`scaling`), which is the same as a natural
//! chord-length spline written in local t; the IQP's re-fits use no scaling.
//! Either way the conditions form a cyclic tridiagonal system in the second
//! derivatives z_i = P_i''(0), solved in O(N) instead of TUM's dense 4N×4N solve.

use mapzoo_geom::angle::normalize_psi;
use mapzoo_geom::numpy::linspace;
use mapzoo_geom::{closed_segment_lengths, Norm};

use crate::error::OptimizeError;
use crate::stage::Stage;

/// A closed piecewise-cubic curve, one segment per input point.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosedSpline {
    /// x coefficients [a0, a1, a2, a3] per segment, metres.
    pub coeffs_x: Vec<[f64; 4]>,
    /// y coefficients [a0, a1, a2, a3] per segment, metres.
    pub coeffs_y: Vec<[f64; 4]>,
}

/// TUM's C1/C2 scaling of a closed spline: el_i / el_{i+1} (cyclic), one per segment.
pub fn distance_scaling(points: &[[f64; 2]]) -> Vec<f64> {
    let el = closed_segment_lengths(points, Norm::SqrtOfSquares);
    let n = el.len();
    (0..n).map(|i| el[i] / el[(i + 1) % n]).collect()
}

/// The cyclic tridiagonal C2 system of a closed spline with the given scaling:
/// for knot j, `sub_j·z_{j−1} + diag_j·z_j + sup_j·z_{j+1} = 6·(s_{j−1}·d_j − d_{j−1})`,
/// where d_i = p_{i+1} − p_i. Returns (sub, diag, sup); sub is always 1.
pub fn c2_system(scaling: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = scaling.len();
    let mut sub = vec![1.0; n];
    let mut diag = vec![0.0; n];
    let mut sup = vec![0.0; n];
    for j in 0..n {
        let sp = scaling[(j + n - 1) % n];
        let sj = scaling[j];
        sub[j] = 1.0;
        diag[j] = 2.0 * sp * (sp + 1.0);
        sup[j] = sp * sj * sj;
    }
    (sub, diag, sup)
}

/// Right-hand side of [`c2_system`] for one coordinate of the points.
pub fn c2_rhs(values: &[f64], scaling: &[f64]) -> Vec<f64> {
    let n = values.len();
    (0..n)
        .map(|j| {
            let prev = (j + n - 1) % n;
            let next = (j + 1) % n;
            let d_j = values[next] - values[j];
            let d_prev = values[j] - values[prev];
            6.0 * (scaling[prev] * d_j - d_prev)
        })
        .collect()
}

/// Solve a cyclic tridiagonal system in place (Sherman–Morrison around the Thomas algorithm).
/// Row j: `sub[j]·x[j−1] + diag[j]·x[j] + sup[j]·x[j+1] = rhs[j]`, indices mod n, n ≥ 3.
pub fn solve_cyclic_tridiagonal(
    sub: &[f64],
    diag: &[f64],
    sup: &[f64],
    rhs: &[f64],
) -> Result<Vec<f64>, OptimizeError> {
    let n = diag.len();
    if n < 3 {
        return Err(spline_error(format!(
            "cyclic system needs at least 3 unknowns, got {n}"
        )));
    }
    let alpha = sup[n - 1];
    let beta = sub[0];
    let gamma = -diag[0];
    let mut bb = diag.to_vec();
    bb[0] = diag[0] - gamma;
    bb[n - 1] = diag[n - 1] - alpha * beta / gamma;
    let x = thomas(sub, &bb, sup, rhs)?;
    let mut u = vec![0.0; n];
    u[0] = gamma;
    u[n - 1] = alpha;
    let z = thomas(sub, &bb, sup, &u)?;
    let fact = (x[0] + beta * x[n - 1] / gamma) / (1.0 + z[0] + beta * z[n - 1] / gamma);
    let out: Vec<f64> = x.iter().zip(&z).map(|(xi, zi)| xi - fact * zi).collect();
    if out.iter().any(|v| !v.is_finite()) {
        return Err(spline_error("singular spline system (coincident points?)"));
    }
    Ok(out)
}

/// A failed spline solve.
fn spline_error(message: impl Into<String>) -> OptimizeError {
    OptimizeError::Numerical {
        stage: Stage::Spline,
        message: message.into(),
    }
}

/// Thomas algorithm for the open tridiagonal part (sub[0] and sup[n−1] ignored).
pub(crate) fn thomas(
    sub: &[f64],
    diag: &[f64],
    sup: &[f64],
    rhs: &[f64],
) -> Result<Vec<f64>, OptimizeError> {
    let n = diag.len();
    let mut c = vec![0.0; n];
    let mut d = vec![0.0; n];
    let mut piv = diag[0];
    if piv == 0.0 {
        return Err(spline_error("zero pivot in spline system"));
    }
    c[0] = sup[0] / piv;
    d[0] = rhs[0] / piv;
    for i in 1..n {
        piv = diag[i] - sub[i] * c[i - 1];
        if piv == 0.0 {
            return Err(spline_error("zero pivot in spline system"));
        }
        c[i] = if i < n - 1 { sup[i] / piv } else { 0.0 };
        d[i] = (rhs[i] - sub[i] * d[i - 1]) / piv;
    }
    let mut x = vec![0.0; n];
    x[n - 1] = d[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = d[i] - c[i] * x[i + 1];
    }
    Ok(x)
}

/// Second derivatives z_i = P_i''(0) of the closed spline through `values` (one coordinate).
pub fn second_derivatives(values: &[f64], scaling: &[f64]) -> Result<Vec<f64>, OptimizeError> {
    let (sub, diag, sup) = c2_system(scaling);
    solve_cyclic_tridiagonal(&sub, &diag, &sup, &c2_rhs(values, scaling))
}

/// Coefficients of each segment from the knot values and second derivatives.
pub fn coefficients(values: &[f64], z: &[f64], scaling: &[f64]) -> Vec<[f64; 4]> {
    let n = values.len();
    (0..n)
        .map(|i| {
            let next = (i + 1) % n;
            let d = values[next] - values[i];
            let w = scaling[i] * scaling[i] * z[next];
            [
                values[i],
                d - z[i] / 3.0 - w / 6.0,
                z[i] / 2.0,
                (w - z[i]) / 6.0,
            ]
        })
        .collect()
}

impl ClosedSpline {
    /// The closed C2 spline through `points` (unclosed: the last is not a copy of the first);
    /// `scaling` as from [`distance_scaling`], or `None` for TUM's unscaled form.
    pub fn through(points: &[[f64; 2]], scaling: Option<&[f64]>) -> Result<Self, OptimizeError> {
        let n = points.len();
        let ones;
        let scaling = match scaling {
            Some(s) => s,
            None => {
                ones = vec![1.0; n];
                &ones
            }
        };
        let xs: Vec<f64> = points.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = points.iter().map(|p| p[1]).collect();
        let zx = second_derivatives(&xs, scaling)?;
        let zy = second_derivatives(&ys, scaling)?;
        Ok(ClosedSpline {
            coeffs_x: coefficients(&xs, &zx, scaling),
            coeffs_y: coefficients(&ys, &zy, scaling),
        })
    }

    /// The closed spline through `points` with TUM's distance scaling ([`distance_scaling`]),
    /// as TUM fits a reference line the first time.
    pub fn through_scaled(points: &[[f64; 2]]) -> Result<Self, OptimizeError> {
        Self::through(points, Some(&distance_scaling(points)))
    }

    /// Number of segments (= number of points).
    pub fn len(&self) -> usize {
        self.coeffs_x.len()
    }

    /// Whether the spline has no segments.
    pub fn is_empty(&self) -> bool {
        self.coeffs_x.is_empty()
    }

    /// Unit normals at the knots, pointing to the right of the driving direction.
    pub fn normals(&self) -> Vec<[f64; 2]> {
        self.coeffs_x
            .iter()
            .zip(&self.coeffs_y)
            .map(|(cx, cy)| {
                let (nx, ny) = (cy[1], -cx[1]);
                let f = 1.0 / (nx * nx + ny * ny).sqrt();
                [f * nx, f * ny]
            })
            .collect()
    }

    /// Point of segment `i` at local parameter `t`, metres.
    pub fn point(&self, i: usize, t: f64) -> [f64; 2] {
        let (cx, cy) = (&self.coeffs_x[i], &self.coeffs_y[i]);
        let (t2, t3) = (t * t, t * t * t);
        [
            cx[0] + cx[1] * t + cx[2] * t2 + cx[3] * t3,
            cy[0] + cy[1] * t + cy[2] * t2 + cy[3] * t3,
        ]
    }

    /// Segment lengths, each as a 14-chord polyline (TUM `calc_spline_lengths`), metres.
    pub fn lengths(&self) -> Vec<f64> {
        let ts = linspace(0.0, 1.0, 15);
        (0..self.len())
            .map(|i| {
                let mut prev = self.point(i, ts[0]);
                let mut len = 0.0;
                for &t in &ts[1..] {
                    let p = self.point(i, t);
                    len += ((p[0] - prev[0]).powi(2) + (p[1] - prev[1]).powi(2)).sqrt();
                    prev = p;
                }
                len
            })
            .collect()
    }

    /// Heading (TUM convention: 0 = north, in [−π, π)) and curvature (1/m) at segment `i`, parameter `t`.
    pub fn heading_curvature(&self, i: usize, t: f64) -> (f64, f64) {
        let (cx, cy) = (&self.coeffs_x[i], &self.coeffs_y[i]);
        let xd = cx[1] + 2.0 * cx[2] * t + 3.0 * cx[3] * t * t;
        let yd = cy[1] + 2.0 * cy[2] * t + 3.0 * cy[3] * t * t;
        let xdd = 2.0 * cx[2] + 6.0 * cx[3] * t;
        let ydd = 2.0 * cy[2] + 6.0 * cy[3] * t;
        let psi = normalize_psi(yd.atan2(xd) - std::f64::consts::FRAC_PI_2);
        let kappa = (xd * ydd - yd * xdd) / (xd * xd + yd * yd).powf(1.5);
        (psi, kappa)
    }

    /// Points every ≈`step` metres of arc length (TUM `interp_splines`, last point excluded):
    /// (points, segment index, local t, arc length s of each point, total length).
    pub fn sample(&self, step: f64) -> Sampled {
        let lengths = self.lengths();
        let total = lengths.iter().fold(0.0, |acc, l| acc + l);
        self.sample_evenly(lengths, (total / step).ceil() as usize)
    }

    /// `count` points evenly in arc length from the start (the closing point excluded), as
    /// [`ClosedSpline::sample`] places them for its count.
    pub fn sample_count(&self, count: usize) -> Sampled {
        self.sample_evenly(self.lengths(), count)
    }

    /// `count` points evenly in arc length over the segments of `lengths`.
    fn sample_evenly(&self, lengths: Vec<f64>, count: usize) -> Sampled {
        let mut cum = Vec::with_capacity(lengths.len());
        let mut acc = 0.0;
        for l in &lengths {
            acc += l;
            cum.push(acc);
        }
        let total = acc;
        let n_interp = count + 1;
        let dists = linspace(0.0, total, n_interp);
        let mut out = Sampled {
            points: Vec::with_capacity(n_interp),
            segment: Vec::with_capacity(n_interp),
            t: Vec::with_capacity(n_interp),
            s: Vec::with_capacity(n_interp),
            total,
            segment_lengths: lengths.clone(),
        };
        let mut j = 0usize;
        for &d in &dists[..n_interp - 1] {
            // first segment whose cumulative end lies beyond d (np.argmax(d < cum))
            while j < cum.len() - 1 && cum[j] <= d {
                j += 1;
            }
            if cum[j] <= d {
                j = 0;
            }
            let t = if j > 0 {
                (d - cum[j - 1]) / lengths[j]
            } else {
                d / lengths[0]
            };
            out.points.push(self.point(j, t));
            out.segment.push(j);
            out.t.push(t);
            out.s.push(d);
        }
        out
    }
}

/// Points sampled along a [`ClosedSpline`].
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// Sampled points, metres.
    pub points: Vec<[f64; 2]>,
    /// Segment index of each point.
    pub segment: Vec<usize>,
    /// Local parameter of each point in its segment.
    pub t: Vec<f64>,
    /// Arc length of each point from the start, metres.
    pub s: Vec<f64>,
    /// Total length of the closed spline, metres.
    pub total: f64,
    /// Length of each segment, metres.
    pub segment_lengths: Vec<f64>,
}

impl Sampled {
    /// Distances from each point to the next, the last back to the start (closed), metres.
    pub fn el_lengths_closed(&self) -> Vec<f64> {
        let n = self.s.len();
        let mut el: Vec<f64> = self.s.windows(2).map(|w| w[1] - w[0]).collect();
        el.push(self.total - self.s[n - 1]);
        el
    }
}
