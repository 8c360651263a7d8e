//! Stages 4b and 5 (DESIGN §3.4–3.5): the smoothed loop in metres, resampled at
//! equal spacing from the start pose, in the driving direction, with heading and
//! curvature.
//!
//! Waypoint 0 is the point of the loop nearest to the start pose; the loop is
//! flipped when its direction there differs from the pose's yaw by more than
//! 90°. Resampling is linear along the closed polyline with ⌈L / spacing⌉ equal
//! steps, as the Race Stack's `np.linspace` over the closed loop without its end
//! point. Heading and curvature are the Race Stack's numerical ones
//! (`calc_head_curv_num`: central differences, curvature = change of heading
//! over the two neighbouring steps), taken around the closed loop.

use std::f64::consts::PI;

use mapzoo_geom::angle::{same_direction, wrap_to_pi_shifted};
use mapzoo_geom::{closed_length, project_closed, resample_from, Norm};

use crate::pose::StartPose;
use crate::smooth::SmoothedLoop;

/// Stage 5's result: the centerline, oriented, resampled at equal spacing, with heading
/// and curvature.
#[derive(Debug, Clone, PartialEq)]
pub struct Centerline {
    /// Points, world metres, from waypoint 0 in the driving direction; closed implicitly.
    pub points: Vec<[f64; 2]>,
    /// Heading at each point, radians, in the Race Stack's centerline convention
    /// (`heading_curvature`).
    pub psi: Vec<f64>,
    /// Curvature at each point, 1/m, positive = turning left.
    pub kappa: Vec<f64>,
    /// Nominal spacing of the points, metres (the actual one is the lap over their count).
    pub spacing_m: f64,
}

/// Stage 5: starts the smoothed loop at the point nearest to `start`, turns it to the
/// driving direction (`start`'s yaw, then the other way round when `reverse`), resamples it
/// at ⌈L / `spacing_m`⌉ equal steps (at least 3) and takes heading and curvature (module doc).
pub fn orient(
    smoothed: &SmoothedLoop,
    start: StartPose,
    reverse: bool,
    spacing_m: f64,
) -> Centerline {
    let line = &smoothed.points;
    let at = project_closed(line, [start.x, start.y]);
    let loop_heading = at.tangent[1].atan2(at.tangent[0]);
    let forward = same_direction(loop_heading, start.yaw) != reverse;
    let total = closed_length(line, Norm::Hypot);
    let count = ((total / spacing_m).ceil() as usize).max(3);
    let points = resample_from(line, at.s, count, forward);
    let (psi, kappa) = heading_curvature(&points, spacing_m);
    Centerline {
        points,
        psi,
        kappa,
        spacing_m,
    }
}

/// Heading and curvature at each point of a closed loop of points `step` metres apart.
///
/// Heading (radians) is in the Race Stack's centerline convention: the TUM heading
/// (0 = +y, in \[−π, π)) plus π/2, so in \[−π/2, 3π/2); curvature in 1/m, positive = left,
/// the change of heading between the two neighbours over 2·`step` (the Race Stack hands TUM
/// the nominal spacing as element length, not the slightly shorter actual one).
pub(crate) fn heading_curvature(pts: &[[f64; 2]], step: f64) -> (Vec<f64>, Vec<f64>) {
    let n = pts.len();
    let at = |k: isize| pts[k.rem_euclid(n as isize) as usize];
    let heading: Vec<f64> = (0..n as isize)
        .map(|k| {
            let (a, b) = (at(k - 1), at(k + 1));
            (b[1] - a[1]).atan2(b[0] - a[0])
        })
        .collect();
    let psi = heading
        .iter()
        .map(|&h| wrap_to_pi_shifted(h - PI / 2.0) + PI / 2.0)
        .collect();
    let kappa = (0..n as isize)
        .map(|k| {
            let hk = |j: isize| heading[j.rem_euclid(n as isize) as usize];
            wrap_to_pi_shifted(hk(k + 1) - hk(k - 1)) / (2.0 * step)
        })
        .collect();
    (psi, kappa)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(n: usize, r: f64) -> Vec<[f64; 2]> {
        (0..n)
            .map(|k| {
                let t = 2.0 * PI * k as f64 / n as f64;
                [r * t.cos(), r * t.sin()]
            })
            .collect()
    }

    #[test]
    fn circle_heading_and_curvature() {
        let c = circle(400, 2.0);
        let step = 2.0 * 2.0 * (PI / 400.0).sin();
        let (psi, kappa) = heading_curvature(&c, step);
        for k in 0..400 {
            assert!((kappa[k] - 0.5).abs() < 1e-3, "kappa {}", kappa[k]);
            assert!(psi[k] >= -PI / 2.0 && psi[k] < 1.5 * PI);
        }
        // At angle 0 the counter-clockwise tangent points along +y.
        assert!((psi[0] - PI / 2.0).abs() < 1e-9);
    }

    #[test]
    fn start_and_direction() {
        let c = circle(100, 1.0);
        let at = project_closed(&c, [0.0, 1.5]);
        let (s0, tangent) = (at.s, at.tangent);
        assert!((s0 - PI / 2.0).abs() < 0.01);
        assert!(tangent[0] < -0.99);
        let fwd = resample_from(&c, s0, 10, true);
        let back = resample_from(&c, s0, 10, false);
        assert!((fwd[0][1] - 1.0).abs() < 1e-3 && (back[0][1] - 1.0).abs() < 1e-3);
        assert!(fwd[1][0] < 0.0 && back[1][0] > 0.0);
        assert!(same_direction(3.0, -3.0) && !same_direction(0.0, 2.0));
    }
}
