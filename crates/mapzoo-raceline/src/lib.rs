//! Racing lines: reference spline, sparse IQP, shortest path, velocity
//! profile and lap time (DESIGN §3, stages 7–11).
//!
//! [`compute`] runs the whole stage as the Race Stack's global planner does
//! around TUM's trajectory_planning_helpers: prep the centerline (§3.7), iterate
//! the minimum-curvature QP (§3.8), sample the line at ≈0.1 m and give it a
//! velocity profile and lap time (§3.10–11); then a second IQP at
//! `safety_width_sp` becomes the reference of the shortest-path QP (§3.9),
//! whose widths are the distances to the walls. Each stage is also a public
//! function: [`prep()`], [`iqp()`], [`sp()`], [`sample()`], [`velocity_profile()`],
//! [`lap_time()`].
//!
//! A result is a list of [`RacingLine`]s, one per [`LineKind`]; the JSON
//! ([`RacelineResult::global_waypoints`]), the summary record
//! ([`RacelineResult::record`]) and the pictures iterate over it. Every line's
//! QP is assembled, solved and polished as a [`QpProblem`]; the car is one
//! [`Vehicle`]; timings and errors name a [`Stage`].
//!
//! The modules are private; everything a caller needs is here at the root.
//! The kernels the property tests check, with their naive twins, are in
//! `reference` (tests and the `reference` feature only).

#![warn(missing_docs)]

mod banded;
mod clearance;
mod error;
mod fitpack;
mod fpclos;
mod input;
mod iqp;
mod mintime;
mod params;
mod prep;
mod qp;
mod record;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod sp;
mod spline;
mod stage;
mod suggest;
mod velocity;
mod walls;

use std::time::Instant;

use mapzoo_format::{GlobalParts, LineParts};
use mapzoo_format::{GlobalWaypoints, Waypoint};

pub use error::{ObstacleNote, OptimizeError, Remedy, MAX_COORD_M, MAX_LAP_M, MAX_SAMPLES};
pub use input::{check_input_line, check_point_count, LineInputError};
pub use iqp::IqpSolution;
pub use mapzoo_format::format_number;
pub use mapzoo_format::LineKind;
pub use mintime::{mintime, MintimeSolution};
pub use params::{RacelineParams, MAX_STEP_M, MIN_STEP_M};
pub use prep::RefTrack;
pub use qp::{QpProblem, QpSettings, QpSolver, QpStatus};
pub use record::{LineFigures, RacelineRecord};
pub use spline::{distance_scaling, ClosedSpline, Sampled};
pub use stage::Stage;
pub use velocity::{ax_profile, Vehicle};
pub use walls::{walls_from_centerline, Obstacle, ResampledWalls, Side, Walls};

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

/// Stage 7: the smoothed reference line with widths (TUM `spline_approximation`): linear
/// interpolation at `stepsize_prep`, a periodic smoothing spline (s = `s_reg`), points every
/// ≈`stepsize_reg` metres, widths carried over.
pub fn prep(track: &RefTrack, params: &RacelineParams) -> Result<RefTrack, OptimizeError> {
    prep::prep(track, params)
}

/// Stage 8: the iterated minimum-curvature QP on a prepped reference line at a safety width.
pub fn iqp(
    reference: &RefTrack,
    safety_width: f64,
    params: &RacelineParams,
) -> Result<IqpSolution, OptimizeError> {
    iqp::iqp(
        reference,
        safety_width,
        params.curvlim,
        params.stepsize_reg,
        params.iqp_iters_min,
        params.iqp_iters_max,
        params.iqp_curverror_allowed,
        params.qp_solver,
    )
}

/// Stage 9: shortest-path shifts on a prepped reference line: (normals, smoothed α).
pub fn sp(
    reference: &RefTrack,
    safety_width: f64,
    params: &RacelineParams,
) -> Result<(Vec<[f64; 2]>, Vec<f64>), OptimizeError> {
    iqp::check_width(reference, safety_width, Stage::Sp)?;
    let normals = ClosedSpline::through_scaled(&reference.xy)?.normals();
    let alpha = sp::shortest_path_qp(reference, &normals, safety_width, params.qp_solver)?;
    let alpha = sp::smooth_circular(&alpha, params.sp_alpha_smoothing_half_window);
    Ok((normals, alpha))
}

/// Stage 10: the racing line r = p + α·n through a closed spline, points every ≈`step` metres
/// of arc length, with analytic heading and curvature (TUM `create_raceline`, `calc_head_curv_an`).
pub fn sample(
    reference: &[[f64; 2]],
    normals: &[[f64; 2]],
    alpha: &[f64],
    step: f64,
) -> Result<Trajectory, OptimizeError> {
    let line = iqp::shift_along_normals(reference, normals, alpha);
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

/// Stage 11: the closed velocity profile (TUM `calc_vel_profile`, closed, ggv mode) from the
/// curvature at each point (1/m) and the distance to the next (the last to the first), m/s.
pub fn velocity_profile(kappa: &[f64], el_lengths: &[f64], vehicle: &Vehicle) -> Vec<f64> {
    velocity::velocity_profile(kappa, el_lengths, vehicle)
}

/// Stage 11: lap time of a closed profile (TUM `calc_t_profile`), seconds.
pub fn lap_time(vx: &[f64], ax: &[f64], el_lengths: &[f64]) -> f64 {
    velocity::lap_time(vx, ax, el_lengths)
}

/// One racing line of a result: its kind, closed trajectory and figures.
#[derive(Debug, Clone, PartialEq)]
pub struct RacingLine {
    /// Which optimisation made it.
    pub kind: LineKind,
    /// The trajectory, closed (last row = first with s_m = lap length), d_right/d_left the
    /// distances to the walls.
    pub waypoints: Vec<Waypoint>,
    /// Lap time, seconds.
    pub lap_time_s: f64,
    /// Top speed, m/s.
    pub v_max: f64,
    /// Lap length, metres.
    pub length_m: f64,
}

impl RacingLine {
    /// A line of `kind` from its sampled, velocity-profiled trajectory, waypoints measured
    /// against `walls`.
    fn new(kind: LineKind, traj: &Trajectory, walls: &ResampledWalls) -> Self {
        RacingLine {
            kind,
            waypoints: traj.waypoints(walls),
            lap_time_s: traj.lap_time,
            v_max: traj.v_max(),
            length_m: traj.length,
        }
    }
}

/// Everything stages 7–11 produce for one track.
#[derive(Debug, Clone)]
pub struct RacelineResult {
    /// The racing lines, in [`LineKind::ALL`] order.
    pub lines: Vec<RacingLine>,
    /// Wall-clock seconds per stage ([`Stage::Prep`], [`Stage::Iqp`], [`Stage::IqpSp`],
    /// [`Stage::Sp`], [`Stage::Total`]).
    pub timings: Vec<(Stage, f64)>,
    /// Problems that did not stop the computation (e.g. an SP line folding at a thin wall).
    pub warnings: Vec<String>,
    /// The walls the widths were measured to: those given, or the ones rebuilt from the
    /// centerline (closed polylines, last point not repeated), metres.
    pub walls: Walls,
    /// The line the car drives ([`LineKind::RACING`] unless [`Self::drive`] chose another):
    /// the one in `<T>_racing_line.csv` and in the IQP slot of global_waypoints.json.
    pub racing: LineKind,
}

impl RacelineResult {
    /// The line of `kind`, if it was computed.
    pub fn line(&self, kind: LineKind) -> Option<&RacingLine> {
        self.lines.iter().find(|l| l.kind == kind)
    }

    /// The waypoints of the line of `kind` (empty if it was not computed).
    pub fn waypoints(&self, kind: LineKind) -> &[Waypoint] {
        self.line(kind).map_or(&[], |l| &l.waypoints)
    }

    /// The line the car drives ([`Self::racing`]): the IQP line unless [`Self::drive`] chose
    /// another.
    pub fn racing_line(&self) -> &RacingLine {
        self.line(self.racing)
            .unwrap_or_else(|| &self[LineKind::Iqp])
    }

    /// Makes the line of `kind` the one the car drives: it goes into `<T>_racing_line.csv`
    /// and the IQP slot of global_waypoints.json (the slot the Race Stack's controller reads),
    /// and the sector files index it. Errors if the result has no such line.
    pub fn drive(&mut self, kind: LineKind) -> Result<(), OptimizeError> {
        if self.line(kind).is_none() {
            return Err(OptimizeError::Numerical {
                stage: Stage::Total,
                message: format!(
                    "the {} line cannot be driven: it was not computed (add it to the lines)",
                    kind.name()
                ),
            });
        }
        self.racing = kind;
        Ok(())
    }

    /// The Race Stack's `global_waypoints.json` of this result: the centerline, every line,
    /// and [`Self::walls`] as the track bounds. The driven line ([`Self::racing`]) fills the
    /// IQP slot; when that is not the IQP line, `map_info_str` says which line it is.
    pub fn global_waypoints(&self, centerline: &[Waypoint]) -> GlobalWaypoints {
        let parts = |l: &RacingLine, kind: LineKind| LineParts {
            kind,
            wpnts: l.waypoints.clone(),
            lap_time_s: l.lap_time_s,
            max_speed_mps: l.v_max,
        };
        let lines = LineKind::ALL
            .into_iter()
            .filter_map(|kind| match kind {
                LineKind::Iqp => Some(parts(self.racing_line(), kind)),
                _ => self.line(kind).map(|l| parts(l, kind)),
            })
            .collect();
        let mut global = GlobalWaypoints::build(GlobalParts {
            centerline: centerline.to_vec(),
            lines,
            right_bound: self.walls.right.clone(),
            left_bound: self.walls.left.clone(),
        });
        global.note_iqp_slot(self.racing);
        global
    }

    /// The summary record of this result for `track` (no stage timings; add them to
    /// [`RacelineRecord::stages`] where known).
    pub fn record(&self, track: &str, centerline_points: usize, seconds: f64) -> RacelineRecord {
        RacelineRecord {
            track: track.to_string(),
            centerline_points,
            lines: self.lines.iter().map(LineFigures::from).collect(),
            racing: self.racing,
            seconds,
            stages: Vec::new(),
        }
    }
}

impl RacelineResult {
    /// Adds the minimum-lap-time line ([`mintime()`]) from this result's IQP line and walls,
    /// after the other lines, with its time as [`Stage::Mintime`] (before [`Stage::Total`],
    /// which grows by it). Replaces a min-time line already there. Errors if the result has
    /// no IQP line.
    pub fn add_mintime(&mut self, params: &RacelineParams) -> Result<(), OptimizeError> {
        let t = Instant::now();
        let Some(iqp) = self.line(LineKind::Iqp) else {
            return Err(OptimizeError::Numerical {
                stage: Stage::Mintime,
                message: "the minimum-time line starts from the IQP line, which this result lacks"
                    .into(),
            });
        };
        let traj = Trajectory::from_waypoints(&iqp.waypoints);
        let walls = self.walls.resampled(params.wall_resample_step);
        let fast = mintime::mintime(&traj, &walls, params, &params.vehicle())?;
        self.lines.retain(|l| l.kind != LineKind::Mintime);
        self.lines
            .push(RacingLine::new(LineKind::Mintime, &fast.trajectory, &walls));
        let secs = t.elapsed().as_secs_f64();
        self.timings.retain(|(s, _)| *s != Stage::Mintime);
        let at = self
            .timings
            .iter()
            .position(|(s, _)| *s == Stage::Total)
            .unwrap_or(self.timings.len());
        self.timings.insert(at, (Stage::Mintime, secs));
        if let Some((_, total)) = self.timings.iter_mut().find(|(s, _)| *s == Stage::Total) {
            *total += secs;
        }
        Ok(())
    }
}

impl std::ops::Index<LineKind> for RacelineResult {
    type Output = RacingLine;

    /// The line of `kind`. Panics if it is absent; a result of [`compute`] holds every
    /// [`LineKind`].
    fn index(&self, kind: LineKind) -> &RacingLine {
        match self.line(kind) {
            Some(line) => line,
            None => panic!("no {kind} line in this result"),
        }
    }
}

/// The centerline as a reference track: x_m, y_m, d_right, d_left (open loop).
pub fn reftrack_from_waypoints(centerline: &[Waypoint]) -> RefTrack {
    RefTrack {
        xy: centerline.iter().map(|w| [w.x_m, w.y_m]).collect(),
        w_right: centerline.iter().map(|w| w.d_right).collect(),
        w_left: centerline.iter().map(|w| w.d_left).collect(),
    }
}

/// Stages 7–11 for one track: the racing lines of every [`LineKind`] (IQP, then SP) with
/// velocity profiles and lap times.
/// `centerline`: x_m, y_m, d_right, d_left are used (open loop). `walls`: the track boundaries
/// for the SP widths and the output d_right/d_left; `None` rebuilds them as centerline ±
/// d_right/d_left along the centerline's normals.
///
/// ```
/// use mapzoo_raceline::{compute, LineKind, RacelineParams};
///
/// // An oval test track (about 9 × 5 m half-axes), 1.2 m from the centerline to each wall.
/// let centerline = mapzoo_synth::tracks::oval(1.2);
/// let result = compute(&centerline, None, &RacelineParams::mapzoo())?;
///
/// let (iqp, sp) = (&result[LineKind::Iqp], &result[LineKind::Sp]);
/// assert!(iqp.lap_time_s > 0.0 && sp.lap_time_s > 0.0);
/// // the shortest path is shorter than the minimum-curvature line
/// assert!(sp.length_m < iqp.length_m);
/// // waypoints are closed: the last repeats the first at s = lap length
/// let (first, last) = (&iqp.waypoints[0], iqp.waypoints.last().unwrap());
/// assert_eq!((first.x_m, first.y_m), (last.x_m, last.y_m));
/// assert_eq!(last.s_m, iqp.length_m);
/// # Ok::<(), mapzoo_raceline::OptimizeError>(())
/// ```
///
/// Obstacles in `walls` are walls too: no line comes closer to one than half its safety
/// width. A track too narrow or too tight for the parameters fails naming its narrowest
/// point, the obstacle there if any, and the safety width (or curvlim) that would build,
/// found by solving again ([`Remedy`]).
pub fn compute(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
) -> Result<RacelineResult, OptimizeError> {
    compute_lines(centerline, walls, params, &LineKind::ALL)
}

/// [`compute`], with the further lines of `kinds` beyond [`LineKind::ALL`] (which are always
/// computed): [`LineKind::Mintime`], the minimum-lap-time line from the IQP line
/// ([`mintime()`]), timed as [`Stage::Mintime`]. The lines come in [`LineKind::EVERY`] order.
pub fn compute_lines(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
    kinds: &[LineKind],
) -> Result<RacelineResult, OptimizeError> {
    compute_once(centerline, walls, params, kinds).map_err(|e| {
        suggest::explain(e, params, walls, |p| {
            compute_once(centerline, walls, p, kinds)
        })
    })
}

/// [`compute_lines`] without the search for a remedy.
fn compute_once(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
    kinds: &[LineKind],
) -> Result<RacelineResult, OptimizeError> {
    params.validate()?;
    let vehicle = params.vehicle();
    let t0 = Instant::now();
    let mut timings = Vec::new();
    let track = reftrack_from_waypoints(centerline);
    track.check("centerline")?;
    check_input_line(&track, params.stepsize_reg)?;
    let walls_used = checked_walls(&track, walls, params)?;
    let walls = walls_used.resampled(params.wall_resample_step);

    let t = Instant::now();
    let reference = prep(&track, params)?;
    timings.push((Stage::Prep, t.elapsed().as_secs_f64()));

    let ((traj_iqp, t_iqp), (traj_iqp2, t_iqp2)) =
        iqp_lines(&reference, &walls, &walls_used.obstacles, params)?;
    let t = Instant::now();
    let traj_iqp = traj_iqp.with_velocity(&vehicle);
    timings.push((Stage::Iqp, t_iqp + t.elapsed().as_secs_f64()));
    timings.push((Stage::IqpSp, t_iqp2));

    let t = Instant::now();
    let (traj_sp, warnings) = sp_line(&traj_iqp2, &walls, &walls_used.obstacles, params, &vehicle)?;
    timings.push((Stage::Sp, t.elapsed().as_secs_f64()));

    let lines = vec![
        RacingLine::new(LineKind::Iqp, &traj_iqp, &walls),
        RacingLine::new(LineKind::Sp, &traj_sp, &walls),
    ];
    timings.push((Stage::Total, t0.elapsed().as_secs_f64()));
    let mut result = RacelineResult {
        lines,
        timings,
        warnings,
        walls: walls_used,
        racing: LineKind::RACING,
    };
    if kinds.contains(&LineKind::Mintime) {
        result.add_mintime(params)?;
    }
    Ok(result)
}

/// The walls of a run: those given, or rebuilt from the centerline; checked, and checked for
/// a resampling at `wall_resample_step`.
fn checked_walls(
    track: &RefTrack,
    walls: Option<&Walls>,
    params: &RacelineParams,
) -> Result<Walls, OptimizeError> {
    let walls = match walls {
        Some(w) => w.clone(),
        None => walls_from_centerline(track)?,
    };
    walls::check(&walls)?;
    walls::check_resample(&walls, params.wall_resample_step)?;
    Ok(walls)
}

/// A sampled trajectory and the wall-clock seconds it took.
type Timed = (Trajectory, f64);

/// The IQP line at `safety_width`, and the second IQP at `safety_width_sp` that the SP starts
/// from (the same line when the widths are equal; with different widths the two are
/// independent and run side by side).
///
/// Each line keeps half its safety width from every obstacle in `walls`
/// ([`clearance::keep_clear`]).
fn iqp_lines(
    reference: &RefTrack,
    walls: &ResampledWalls,
    obstacles: &[Obstacle],
    params: &RacelineParams,
) -> Result<(Timed, Timed), OptimizeError> {
    let racing_line = |width: f64| -> Result<Timed, OptimizeError> {
        let t = Instant::now();
        let ((), traj) =
            clearance::keep_clear(Stage::Iqp, reference, walls, obstacles, width, |rt| {
                let sol = iqp(rt, width, params)?;
                let traj = sample(
                    &sol.reftrack.xy,
                    &sol.normals,
                    &sol.alpha,
                    params.stepsize_interp_after_opt,
                )?;
                Ok(((), traj))
            })?;
        Ok((traj, t.elapsed().as_secs_f64()))
    };
    if params.safety_width_sp == params.safety_width {
        let (traj, t_iqp) = racing_line(params.safety_width)?;
        return Ok(((traj.clone(), t_iqp), (traj, 0.0)));
    }
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| racing_line(params.safety_width_sp));
        let first = racing_line(params.safety_width);
        (first, second.join())
    });
    let second = second.map_err(|_| OptimizeError::Numerical {
        stage: Stage::IqpSp,
        message: "the second IQP's thread panicked".into(),
    })?;
    Ok((first?, second?))
}

/// Stage 9 from the second IQP's trajectory: its closed points (incl. the repeated end point)
/// with their wall distances become the SP's reference, prepped, shifted and sampled, with a
/// velocity profile. The Race Stack keeps an SP line that folds at a thin wall (hangar); so do
/// we, with a warning.
///
/// The line keeps half its safety width from every obstacle ([`clearance::keep_clear`]).
fn sp_line(
    traj_iqp2: &Trajectory,
    walls: &ResampledWalls,
    obstacles: &[Obstacle],
    params: &RacelineParams,
    vehicle: &Vehicle,
) -> Result<(Trajectory, Vec<String>), OptimizeError> {
    let pts2 = traj_iqp2.closed_points();
    let (w_right, w_left): (Vec<f64>, Vec<f64>) = pts2.iter().map(|&p| walls.distances(p)).unzip();
    let cent2 = RefTrack {
        xy: pts2,
        w_right,
        w_left,
    };
    let reference_sp = prep(&cent2, params)?;
    let width = params.safety_width_sp;
    let ((reference_sp, normals_sp, alpha_sp), traj_sp) =
        clearance::keep_clear(Stage::Sp, &reference_sp, walls, obstacles, width, |rt| {
            let (normals, mut alpha) = sp(rt, width, params)?;
            clearance::clamp_smoothly(&rt.xy, &mut alpha, walls, width / 2.0, |a| {
                sp::smooth_circular(a, params.sp_alpha_smoothing_half_window)
            });
            let traj = sample(&rt.xy, &normals, &alpha, params.stepsize_interp_after_opt)?;
            Ok(((rt.clone(), normals, alpha), traj))
        })?;
    let mut warnings = Vec::new();
    if let Err(e) = iqp::check_folds(&reference_sp, &normals_sp, &alpha_sp, Stage::Sp) {
        warnings.push(e.to_string());
    }
    Ok((traj_sp.with_velocity(vehicle), warnings))
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
