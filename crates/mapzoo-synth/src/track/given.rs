//! A given centerline: checked, de-duplicated, with arc length, heading,
//! curvature and widths (given per point, or from the width profile).

use mapzoo_geom::angle::wrap_to_pi_euclid;
use mapzoo_geom::{closed_arc_lengths, signed_area2, Norm};

use super::width::WidthProfile;
use super::Track;
use crate::error::{opt_err, SynthError};
use crate::options::WidthSpec;
use crate::truth::TruthPoint;

/// The track along the closed polyline `raw` (world metres), full widths `widths` or from `width`.
pub(crate) fn given_track(
    raw: &[[f64; 2]],
    widths: Option<&[f64]>,
    width: WidthSpec,
    seed: u64,
) -> Result<Track, SynthError> {
    check_given(raw, widths)?;
    let (pts, ws) = distinct_points(raw, widths);
    let n = pts.len();
    if n < 3 {
        return Err(opt_err(
            "centerline.points",
            format!("a closed centerline needs at least 3 distinct points (found {n})"),
        ));
    }
    let s = closed_arc_lengths(&pts, Norm::Hypot);
    let lap = s[n];
    let profile = WidthProfile::new(width, seed);
    let points = (0..n)
        .map(|i| {
            let (a, p, b) = (pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]);
            let w = if widths.is_some() {
                ws[i]
            } else {
                profile.at(s[i] / lap)
            };
            TruthPoint {
                x: p[0],
                y: p[1],
                s: s[i],
                d_right: w / 2.0,
                d_left: w / 2.0,
                psi: wrap_to_pi_euclid((b[1] - a[1]).atan2(b[0] - a[0])),
                kappa: menger_curvature(a, p, b),
            }
        })
        .collect();
    Ok(Track {
        points,
        lap,
        ccw: signed_area2(&pts) >= 0.0,
    })
}

/// Every point finite; one finite width > 0 per point, if widths are given.
fn check_given(raw: &[[f64; 2]], widths: Option<&[f64]>) -> Result<(), SynthError> {
    if let Some(i) = raw
        .iter()
        .position(|p| !(p[0].is_finite() && p[1].is_finite()))
    {
        return Err(opt_err(
            "centerline.points",
            format!("point {i} is not finite ({:?})", raw[i]),
        ));
    }
    if let Some(ws) = widths {
        if ws.len() != raw.len() {
            return Err(opt_err(
                "centerline.widths",
                format!(
                    "{} widths for {} points; give one per point",
                    ws.len(),
                    raw.len()
                ),
            ));
        }
        if let Some(i) = ws.iter().position(|w| !(w.is_finite() && *w > 0.0)) {
            return Err(opt_err(
                "centerline.widths",
                format!("width {i} must be a finite number > 0 (found {})", ws[i]),
            ));
        }
    }
    Ok(())
}

/// The points without repeats (and without a closing copy of point 0), with
/// their widths kept aligned (NaN where none are given).
fn distinct_points(raw: &[[f64; 2]], widths: Option<&[f64]>) -> (Vec<[f64; 2]>, Vec<f64>) {
    let mut pts: Vec<[f64; 2]> = Vec::with_capacity(raw.len());
    let mut ws: Vec<f64> = Vec::with_capacity(raw.len());
    for (i, &p) in raw.iter().enumerate() {
        if pts
            .last()
            .is_some_and(|&q| Norm::Hypot.distance(p, q) < 1e-9)
        {
            continue;
        }
        pts.push(p);
        ws.push(widths.map_or(f64::NAN, |w| w[i]));
    }
    while pts.len() > 1 && Norm::Hypot.distance(pts[0], pts[pts.len() - 1]) < 1e-9 {
        pts.pop();
        ws.pop();
    }
    (pts, ws)
}

/// Signed curvature of the circle through three points, 1/m, positive turning left.
fn menger_curvature(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    let dist = |p, q| Norm::Hypot.distance(p, q);
    let denom = dist(a, b) * dist(b, c) * dist(a, c);
    if denom > 0.0 {
        2.0 * cross / denom
    } else {
        0.0
    }
}
