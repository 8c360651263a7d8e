//! Stage 7, reference-line prep (DESIGN §3.7; TUM `interp_track`,
//! `spline_approximation`): linear interpolation at `stepsize_prep`, a periodic
//! cubic smoothing spline (FITPACK, s = `s_reg`), points evenly in the spline
//! parameter at ≈`stepsize_reg`, and the widths carried over to the new points,
//! shifted by how far the smoothed line moved from each input point.

use crate::error::{check_extent, check_finite, check_samples, OptimizeError, MAX_COORD_M};
use crate::fitpack::{fmin_1d, PeriodicSpline};
use crate::params::RacelineParams;
use mapzoo_geom::numpy::{interp, linspace};
use mapzoo_geom::{closed_arc_lengths, Norm};

/// A closed reference line with track widths (TUM's `reftrack`), unclosed: the last point is not a copy of the first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RefTrack {
    /// Points, metres.
    pub xy: Vec<[f64; 2]>,
    /// Distance to the right boundary at each point, metres.
    pub w_right: Vec<f64>,
    /// Distance to the left boundary at each point, metres.
    pub w_left: Vec<f64>,
}

impl RefTrack {
    /// Number of points.
    pub fn len(&self) -> usize {
        self.xy.len()
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.xy.is_empty()
    }

    /// Reject NaN/inf, lines too short to close, points beyond ±[`MAX_COORD_M`], widths beyond
    /// [`MAX_COORD_M`] and laps longer than [`crate::error::MAX_LAP_M`], naming the row.
    pub fn check(&self, what: &'static str) -> Result<(), OptimizeError> {
        if self.xy.len() < 3 {
            return Err(OptimizeError::TooFewPoints {
                what,
                found: self.xy.len(),
                needed: 3,
            });
        }
        let xs: Vec<f64> = self.xy.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = self.xy.iter().map(|p| p[1]).collect();
        check_finite("x_m", &xs)?;
        check_finite("y_m", &ys)?;
        check_finite("d_right", &self.w_right)?;
        check_finite("d_left", &self.w_left)?;
        for (col, values) in [("d_right", &self.w_right), ("d_left", &self.w_left)] {
            if let Some(index) = values.iter().position(|w| w.abs() > MAX_COORD_M) {
                return Err(OptimizeError::WidthOutOfRange {
                    what: col,
                    index,
                    value: values[index],
                    limit: MAX_COORD_M,
                });
            }
        }
        check_extent(what, &self.xy)
    }
}

/// TUM `interp_track`: the closed track linearly interpolated at ≈`step` metres (unclosed result).
pub fn interp_track(track: &RefTrack, step: f64) -> RefTrack {
    let n = track.len();
    let cum = closed_arc_lengths(&track.xy, Norm::SqrtOfSquares);
    let total = cum[n];
    let num = (total / step).ceil() as usize + 1;
    let d = linspace(0.0, total, num);
    let col = |f: &dyn Fn(usize) -> f64| -> Vec<f64> {
        let vals: Vec<f64> = (0..=n).map(|i| f(i % n)).collect();
        let mut out = interp(&d, &cum, &vals);
        out.pop();
        out
    };
    let x = col(&|i| track.xy[i][0]);
    let y = col(&|i| track.xy[i][1]);
    RefTrack {
        xy: x.into_iter().zip(y).map(|(a, b)| [a, b]).collect(),
        w_right: col(&|i| track.w_right[i]),
        w_left: col(&|i| track.w_left[i]),
    }
}

/// TUM `side_of_line`: sign of z relative to the directed line a→b (+1 left, −1 right, 0 on it).
fn side_of_line(a: [f64; 2], b: [f64; 2], z: [f64; 2]) -> f64 {
    let v = (b[0] - a[0]) * (z[1] - a[1]) - (b[1] - a[1]) * (z[0] - a[0]);
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The checks before a reference line is prepped: finite and in range ([`RefTrack::check`]),
/// and neither the `stepsize_prep` nor the `stepsize_reg` sampling of its lap too many points.
pub(crate) fn check_reference(
    track: &RefTrack,
    params: &RacelineParams,
) -> Result<(), OptimizeError> {
    track.check("reference line")?;
    let lap = closed_arc_lengths(&track.xy, Norm::SqrtOfSquares)[track.len()];
    check_samples("reference line", "stepsize_prep", lap, params.stepsize_prep)?;
    check_samples("reference line", "stepsize_reg", lap, params.stepsize_reg)
}

/// Stage 7: the smoothed reference line with widths from a closed track (TUM `spline_approximation`).
pub fn prep(track: &RefTrack, params: &RacelineParams) -> Result<RefTrack, OptimizeError> {
    check_reference(track, params)?;
    let mut interp_cl = interp_track(track, params.stepsize_prep).xy;
    interp_cl.push(interp_cl[0]);

    let n_cl = track.len() + 1;
    let mut track_cl = track.xy.clone();
    track_cl.push(track.xy[0]);
    let cum = closed_arc_lengths(&track.xy, Norm::SqrtOfSquares);
    let total = cum[track.len()];

    let spline = PeriodicSpline::fit(&interp_cl, params.s_reg)?;

    // length of the smoothed loop from points every ≈0.25 m (TUM: ceil(length)·4 points)
    let n_len = total.ceil() as usize * 4;
    let mut len_smoothed = 0.0;
    let mut prev = spline.eval(0.0);
    for &u in &linspace(0.0, 1.0, n_len)[1..] {
        let p = spline.eval(u);
        len_smoothed += ((p[0] - prev[0]).powi(2) + (p[1] - prev[1]).powi(2)).sqrt();
        prev = p;
    }
    let n_reg = (len_smoothed / params.stepsize_reg).ceil() as usize + 1;
    let u_reg = linspace(0.0, 1.0, n_reg);
    let path: Vec<[f64; 2]> = u_reg[..n_reg - 1].iter().map(|&u| spline.eval(u)).collect();

    // closest spline point to every input point (TUM: Nelder–Mead from the chord-length guess)
    let mut closest_u = vec![0.0; n_cl];
    let mut closest = vec![[0.0; 2]; n_cl];
    let mut dists = vec![0.0; n_cl];
    for i in 0..n_cl {
        let p = track_cl[i];
        let dist = |u: f64| {
            let s = spline.eval(u);
            ((s[0] - p[0]).powi(2) + (s[1] - p[1]).powi(2)).sqrt()
        };
        let u = fmin_1d(dist, cum[i] / total);
        closest_u[i] = u;
        closest[i] = spline.eval(u);
        dists[i] = ((closest[i][0] - p[0]).powi(2) + (closest[i][1] - p[1]).powi(2)).sqrt();
    }
    let mut sides: Vec<f64> = (0..n_cl - 1)
        .map(|i| side_of_line(track_cl[i], track_cl[i + 1], closest[i]))
        .collect();
    sides.push(sides[0]);
    let n = track.len();
    let wr_new: Vec<f64> = (0..n_cl)
        .map(|i| track.w_right[i % n] + sides[i] * dists[i])
        .collect();
    let wl_new: Vec<f64> = (0..n_cl)
        .map(|i| track.w_left[i % n] - sides[i] * dists[i])
        .collect();
    let mut w_right = interp(&u_reg, &closest_u, &wr_new);
    let mut w_left = interp(&u_reg, &closest_u, &wl_new);
    w_right.pop();
    w_left.pop();
    Ok(RefTrack {
        xy: path,
        w_right,
        w_left,
    })
}
