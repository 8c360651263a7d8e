//! Stage 10 (DESIGN §3.10): a racing line sampled through its closed spline at ≈0.1 m, with
//! analytic heading and curvature ([`Trajectory`]), and its speed and lap time once stage 11
//! has run ([`Trajectory::with_velocity`]).

use mapzoo_format::Waypoint;

use crate::error::{self, OptimizeError};
use crate::spline::ClosedSpline;
use crate::velocity::{self, lap_time, velocity_profile, Vehicle};
use crate::walls::ResampledWalls;

/// A sampled racing line with its velocity profile (open: the closing point is not repeated).
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// Arc length of each point from the start, metres.
    pub s: Vec<f64>,
    /// Points, metres.
    pub xy: Vec<[f64; 2]>,
    /// Heading, 0 = +x, counter-clockwise, in (−π, π] (the Race Stack's convention), radians.
    pub psi: Vec<f64>,
    /// Signed curvature, positive left, 1/m.
    pub kappa: Vec<f64>,
    /// Distance from each point to the next (the last back to the first), metres.
    pub el_lengths: Vec<f64>,
    /// Lap length (sum of the spline segment lengths), metres.
    pub length: f64,
    /// Speed, m/s (zero until [`Trajectory::with_velocity`]).
    pub vx: Vec<f64>,
    /// Longitudinal acceleration to the next point, m/s².
    pub ax: Vec<f64>,
    /// Lap time, seconds.
    pub lap_time: f64,
}

impl Trajectory {
    /// Fill speed, acceleration and lap time for a vehicle (stage 11).
    pub fn with_velocity(mut self, vehicle: &Vehicle) -> Self {
        self.vx = velocity_profile(&self.kappa, &self.el_lengths, vehicle);
        self.ax = velocity::ax_profile(&self.vx, &self.el_lengths);
        self.lap_time = lap_time(&self.vx, &self.ax, &self.el_lengths);
        self
    }

    /// The trajectory of closed waypoints (the last repeats the first at s = lap length), as
    /// [`Trajectory::waypoints`] writes them: points, arc length, heading, curvature, speed and
    /// acceleration; the distances to the next point from the arc lengths.
    pub fn from_waypoints(waypoints: &[Waypoint]) -> Self {
        let n = waypoints.len().saturating_sub(1);
        let open = &waypoints[..n];
        let length = waypoints.last().map_or(0.0, |w| w.s_m);
        let s: Vec<f64> = open.iter().map(|w| w.s_m).collect();
        let mut el_lengths: Vec<f64> = s.windows(2).map(|w| w[1] - w[0]).collect();
        if let Some(last) = s.last() {
            el_lengths.push(length - last);
        }
        let vx: Vec<f64> = open.iter().map(|w| w.vx_mps).collect();
        let ax: Vec<f64> = open.iter().map(|w| w.ax_mps2).collect();
        let lap_time = if n > 0 {
            lap_time(&vx, &ax, &el_lengths)
        } else {
            0.0
        };
        Trajectory {
            s,
            xy: open.iter().map(|w| [w.x_m, w.y_m]).collect(),
            psi: open.iter().map(|w| w.psi_rad).collect(),
            kappa: open.iter().map(|w| w.kappa_radpm).collect(),
            el_lengths,
            length,
            vx,
            ax,
            lap_time,
        }
    }

    /// Highest speed, m/s.
    pub fn v_max(&self) -> f64 {
        self.vx.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
    }

    /// The closed point list: every point, then the first again (DESIGN §2.2).
    pub fn closed_points(&self) -> Vec<[f64; 2]> {
        let mut pts = self.xy.clone();
        pts.push(self.xy[0]);
        pts
    }

    /// Waypoints as the Race Stack writes them: closed (last row = first with s = lap length),
    /// d_right/d_left the distances to the walls.
    pub fn waypoints(&self, walls: &ResampledWalls) -> Vec<Waypoint> {
        let n = self.xy.len();
        (0..=n)
            .map(|k| {
                let i = k % n;
                let [x, y] = self.xy[i];
                let (d_right, d_left) = walls.distances([x, y]);
                Waypoint {
                    id: k as i64,
                    s_m: if k == n { self.length } else { self.s[i] },
                    d_m: 0.0,
                    x_m: x,
                    y_m: y,
                    d_right,
                    d_left,
                    psi_rad: self.psi[i],
                    kappa_radpm: self.kappa[i],
                    vx_mps: self.vx[i],
                    ax_mps2: self.ax[i],
                }
            })
            .collect()
    }
}

/// Stage 10: the racing line r = p + α·n through a closed spline, points every ≈`step` metres
/// of arc length, with analytic heading and curvature (TUM `create_raceline`, `calc_head_curv_an`).
pub fn sample(
    reference: &[[f64; 2]],
    normals: &[[f64; 2]],
    alpha: &[f64],
    step: f64,
) -> Result<Trajectory, OptimizeError> {
    let line = crate::iqp::shift_along_normals(reference, normals, alpha);
    Ok(sample_through(&line, step)?.0)
}

/// The closed spline through `line` (unscaled), points every ≈`step` metres of arc length with
/// analytic heading and curvature, no speed yet; and each point's spline segment and local
/// parameter in it (0..1).
pub(crate) fn sample_through(
    line: &[[f64; 2]],
    step: f64,
) -> Result<(Trajectory, Vec<usize>, Vec<f64>), OptimizeError> {
    sample_spline(&ClosedSpline::through(line, None)?, step)
}

/// As [`sample_through`], for a spline already made.
pub(crate) fn sample_spline(
    spline: &ClosedSpline,
    step: f64,
) -> Result<(Trajectory, Vec<usize>, Vec<f64>), OptimizeError> {
    let length: f64 = spline.lengths().iter().sum();
    error::check_samples("racing line", "stepsize_interp_after_opt", length, step)?;
    let sampled = spline.sample(step);
    let mut psi = Vec::with_capacity(sampled.points.len());
    let mut kappa = Vec::with_capacity(sampled.points.len());
    for (&seg, &t) in sampled.segment.iter().zip(&sampled.t) {
        let (p, k) = spline.heading_curvature(seg, t);
        psi.push(race_stack_heading(p));
        kappa.push(k);
    }
    let el_lengths = sampled.el_lengths_closed();
    let n = sampled.points.len();
    let traj = Trajectory {
        s: sampled.s,
        xy: sampled.points,
        psi,
        kappa,
        el_lengths,
        length: sampled.total,
        vx: vec![0.0; n],
        ax: vec![0.0; n],
        lap_time: 0.0,
    };
    Ok((traj, sampled.segment, sampled.t))
}

/// A TUM heading (0 = north, radians) as the Race Stack's: 0 = +x, counter-clockwise, in (−π, π].
///
/// For TUM's headings in (−π, π] this is ψ + π/2, less 2π where that exceeds π, bit for bit.
pub fn race_stack_heading(psi_tum: f64) -> f64 {
    mapzoo_geom::angle::wrap_to_pi(psi_tum + std::f64::consts::FRAC_PI_2)
}

#[cfg(test)]
mod tests {
    use super::race_stack_heading;
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    #[test]
    fn heading_is_turned_a_quarter_and_wrapped_into_half_open_range() {
        assert_eq!(race_stack_heading(0.0), FRAC_PI_2);
        assert_eq!(race_stack_heading(-FRAC_PI_2), 0.0);
        assert_eq!(race_stack_heading(FRAC_PI_2), PI);
        assert_eq!(race_stack_heading(PI), -FRAC_PI_2);
        assert_eq!(race_stack_heading(-PI), -FRAC_PI_2);
        for i in -400..=400 {
            let psi = i as f64 * 0.0251;
            let yaw = race_stack_heading(psi);
            assert!(yaw > -PI && yaw <= PI, "{psi} -> {yaw}");
            // the same direction
            let d = (yaw - psi - FRAC_PI_2).rem_euclid(TAU);
            assert!(d < 1e-9 || TAU - d < 1e-9, "{psi} -> {yaw}");
            // TUM's own headings: exactly the former ψ + π/2 − 2π·[> π]
            if psi > -PI && psi <= PI {
                let old = if psi + FRAC_PI_2 > PI {
                    psi + FRAC_PI_2 - TAU
                } else {
                    psi + FRAC_PI_2
                };
                assert_eq!(yaw, old, "{psi}");
            }
        }
    }
}
