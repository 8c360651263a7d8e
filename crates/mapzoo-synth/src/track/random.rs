//! The random centerline: a star-shaped radial Fourier loop, sampled at
//! equal arc length and shrunk towards a circle until it keeps its walls apart.

use std::f64::consts::{PI, TAU};

use mapzoo_geom::angle::wrap_to_pi_euclid;
use mapzoo_geom::{Norm, PointIndex};

use super::width::WidthProfile;
use super::Track;
use crate::constants::POINT_SPACING;
use crate::error::{opt_err, SynthError};
use crate::options::WidthSpec;
use crate::rng::{tag, SplitMix64};
use crate::truth::TruthPoint;

/// Radial Fourier loop r(θ) = 1 + Σ a_k cos(kθ + φ_k), k = 2..=7, Σ|a_k| < 1.
struct Radial {
    terms: Vec<(f64, f64, f64)>,
}

impl Radial {
    /// r, dr/dθ, d²r/dθ² at θ.
    fn eval(&self, theta: f64) -> (f64, f64, f64) {
        let (mut r, mut r1, mut r2) = (1.0, 0.0, 0.0);
        for &(k, a, phi) in &self.terms {
            let (s, c) = (k * theta + phi).sin_cos();
            r += a * c;
            r1 -= a * k * s;
            r2 -= a * k * k * c;
        }
        (r, r1, r2)
    }

    /// Position, first and second derivative with respect to θ (unit scale).
    fn derivs(&self, theta: f64) -> ([f64; 2], [f64; 2], [f64; 2]) {
        let (r, r1, r2) = self.eval(theta);
        let (s, c) = theta.sin_cos();
        (
            [r * c, r * s],
            [r1 * c - r * s, r1 * s + r * c],
            [r2 * c - 2.0 * r1 * s - r * c, r2 * s + 2.0 * r1 * c - r * s],
        )
    }
}

/// A random loop of length `lap` metres from `seed`, with `min_wall` metres between its parts.
pub(crate) fn random_track(
    seed: u64,
    lap: f64,
    width: WidthSpec,
    min_wall: f64,
) -> Result<Track, SynthError> {
    let mut rng = SplitMix64::stream(seed, tag::SHAPE);
    let base: Vec<(f64, f64, f64)> = (2..=7)
        .map(|k| {
            let k = k as f64;
            (
                k,
                rng.uniform(-1.0, 1.0) * 0.55 / k.powf(1.5),
                rng.uniform(0.0, TAU),
            )
        })
        .collect();
    let profile = WidthProfile::new(width, seed);
    let mut amp = 1.0;
    // Shrinking the harmonics makes the loop rounder; at amplitude 0 it is a
    // circle of radius lap/2π, which passes whenever the track fits at all.
    for attempt in 0..60 {
        if attempt == 59 {
            amp = 0.0;
        }
        let radial = Radial {
            terms: base.iter().map(|&(k, a, p)| (k, a * amp, p)).collect(),
        };
        let track = sample_radial(&radial, lap, &profile);
        if track_is_clean(&track, min_wall) {
            return Ok(track);
        }
        amp *= 0.85;
    }
    Err(opt_err(
        "lap_length",
        format!("a {lap} m loop cannot hold this track width without touching itself; use a longer lap or a narrower width"),
    ))
}

/// The loop sampled every ≈[`POINT_SPACING`] of arc length, scaled to `lap` metres, waypoint 0 at (0, 0) heading +x.
fn sample_radial(radial: &Radial, lap: f64, profile: &WidthProfile) -> Track {
    // Arc length of the unit-scale curve by a fine polyline; its error at
    // 8192 samples is far below a pixel.
    const FINE: usize = 8192;
    let mut cum = Vec::with_capacity(FINE + 1);
    cum.push(0.0);
    let mut prev = radial.derivs(0.0).0;
    for i in 1..=FINE {
        let p = radial.derivs(TAU * i as f64 / FINE as f64).0;
        let last = *cum.last().unwrap_or(&0.0);
        cum.push(last + Norm::Hypot.distance(p, prev));
        prev = p;
    }
    let unit_len = cum[FINE];
    let scale_to = lap / unit_len;
    let n = ((lap / POINT_SPACING).round() as usize).max(8);
    let (p0, d0, _) = radial.derivs(0.0);
    let rot = -d0[1].atan2(d0[0]);
    let (rs, rc) = rot.sin_cos();
    let mut points = Vec::with_capacity(n);
    let mut j = 0;
    for i in 0..n {
        let target = unit_len * i as f64 / n as f64;
        while j + 1 < FINE && cum[j + 1] < target {
            j += 1;
        }
        let frac = (target - cum[j]) / (cum[j + 1] - cum[j]);
        let theta = TAU * (j as f64 + frac) / FINE as f64;
        let (p, d1, d2) = radial.derivs(theta);
        let q = [p[0] - p0[0], p[1] - p0[1]];
        let x = (rc * q[0] - rs * q[1]) * scale_to;
        let y = (rs * q[0] + rc * q[1]) * scale_to;
        let psi = wrap_to_pi_euclid(d1[1].atan2(d1[0]) + rot);
        let speed2 = d1[0] * d1[0] + d1[1] * d1[1];
        let kappa = (d1[0] * d2[1] - d1[1] * d2[0]) / speed2.powf(1.5) / scale_to;
        let s = lap * i as f64 / n as f64;
        let w = profile.at(i as f64 / n as f64);
        points.push(TruthPoint {
            x,
            y,
            s,
            d_right: w / 2.0,
            d_left: w / 2.0,
            psi,
            kappa,
        });
    }
    Track {
        points,
        lap,
        ccw: true,
    }
}

/// Whether a sampled loop keeps its inner edge unfolded (radius ≥ width) and
/// leaves `min_wall` between parts farther apart than π·w_max along the lap.
fn track_is_clean(track: &Track, min_wall: f64) -> bool {
    let (points, lap) = (&track.points, track.lap);
    let w_max = points.iter().map(|p| p.width()).fold(0.0, f64::max);
    if points.iter().any(|p| p.kappa.abs() * p.width() > 1.0) {
        return false;
    }
    let window = PI * w_max;
    // Every pair closer than `need` is within `reach` (need ≤ w_max + min_wall); the index
    // makes the pair test near-linear.
    let reach = w_max + min_wall;
    let index = PointIndex::new(
        points.iter().map(|p| [p.x, p.y]).collect(),
        reach,
        Norm::Hypot,
    );
    for (i, p) in points.iter().enumerate() {
        for j in index.within([p.x, p.y], reach) {
            if j <= i {
                continue;
            }
            let q = &points[j];
            let ds = (q.s - p.s).abs();
            if ds.min(lap - ds) <= window {
                continue;
            }
            let need = p.d_left.max(p.d_right) + q.d_left.max(q.d_right) + min_wall;
            if Norm::Hypot.distance([p.x, p.y], [q.x, q.y]) < need {
                return false;
            }
        }
    }
    true
}
