//! Stages 7–11 for one track ([`compute`], [`compute_lines`]) as the Race Stack's global
//! planner runs them around TUM's trajectory_planning_helpers: prep the centerline, the IQP
//! line at `safety_width`, a second IQP at `safety_width_sp` as the reference of the SP, each
//! line kept clear of the obstacles, sampled, with a velocity profile; a failure explained by
//! the remedy that would build ([`crate::Remedy`]).

use std::time::Instant;

use mapzoo_format::{LineKind, Waypoint};

use crate::clearance;
use crate::error::OptimizeError;
use crate::input::{check_input_line, open_count};
use crate::params::RacelineParams;
use crate::prep::RefTrack;
use crate::progress;
use crate::result::{mintime_line, RacelineResult, RacingLine};
use crate::stage::Stage;
use crate::stages::{self, prep};
use crate::suggest;
use crate::trajectory::{sample, Trajectory};
use crate::velocity::Vehicle;
use crate::walls::{self, walls_from_centerline, Obstacle, ResampledWalls, Walls};

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
    let length: f64 = centerline
        .windows(2)
        .map(|w| (w[1].x_m - w[0].x_m).hypot(w[1].y_m - w[0].y_m))
        .sum();
    progress::report(progress::Event::Estimate(progress::Work::of(
        length, params,
    )));
    compute_once(centerline, walls, params, kinds).map_err(|e| {
        suggest::explain(e, params, walls, |p| {
            compute_once(centerline, walls, p, kinds)
        })
    })
}

/// [`compute_lines`] without the search for a remedy on failure: for a caller that tries
/// many settings and only needs to know which build (`mapzoo_pipeline`'s settings search).
pub fn compute_lines_once(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
    kinds: &[LineKind],
) -> Result<RacelineResult, OptimizeError> {
    compute_once(centerline, walls, params, kinds)
}

/// [`compute_lines`] without the search for a remedy. With `params.seamless` the stages run
/// from the centerline turned to its canonical start ([`crate::seamless::canonical_start`]) and
/// the lines are turned back to begin nearest the given first point.
fn compute_once(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    params: &RacelineParams,
    kinds: &[LineKind],
) -> Result<RacelineResult, OptimizeError> {
    let centerline = &centerline[..open_count(centerline, |w| [w.x_m, w.y_m])];
    if !params.seamless {
        return compute_from(centerline, walls, params, kinds);
    }
    let Some(first) = centerline.first() else {
        return compute_from(centerline, walls, params, kinds);
    };
    let track = reftrack_from_waypoints(centerline);
    track.check("centerline")?;
    let k = crate::seamless::canonical_start(&track.xy);
    let mut turned = centerline.to_vec();
    turned.rotate_left(k);
    let mut result = compute_from(&turned, walls, params, kinds)?;
    crate::seamless::start_lines_near(&mut result, [first.x_m, first.y_m]);
    Ok(result)
}

/// Stages 7–11 from `centerline` as given (its first point is the start of every resampling).
fn compute_from(
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
    let reference = if params.seamless {
        crate::seamless::prep::prep(&track, &walls, params)?
    } else {
        prep(&track, params)?
    };
    timings.push((Stage::Prep, t.elapsed().as_secs_f64()));

    progress::report(progress::Event::Stage(Stage::Iqp));
    let ((traj_iqp, t_iqp), (traj_iqp2, t_iqp2)) =
        iqp_lines(&reference, &walls, &walls_used.obstacles, params)?;

    // The SP starts from the second IQP's line, not from the IQP line's speeds: the IQP
    // line is finished (velocity profile, waypoints) on a second thread beside it, and the
    // min-time line, which starts from the IQP line, after it on the same thread.
    let t = Instant::now();
    progress::report(progress::Event::Stage(Stage::Sp));
    let watcher = progress::line_watcher();
    let with_mintime = kinds.contains(&LineKind::Mintime);
    let ((iqp, t_iqp_end, mintime), sp) = std::thread::scope(|scope| {
        let iqp = scope.spawn(|| {
            let t = Instant::now();
            let line = RacingLine::new(LineKind::Iqp, &traj_iqp.with_velocity(&vehicle), &walls);
            let seconds = t.elapsed().as_secs_f64();
            if let Some(watch) = &watcher {
                watch(&line);
            }
            let mintime = with_mintime.then(|| {
                let t = Instant::now();
                mintime_line(&line, &walls, params).map(|m| (m, t.elapsed().as_secs_f64()))
            });
            (line, seconds, mintime)
        });
        let sp = sp_line(&traj_iqp2, &walls, &walls_used.obstacles, params, &vehicle);
        let t_sp = t.elapsed().as_secs_f64();
        if with_mintime && sp.is_ok() {
            progress::report(progress::Event::Stage(Stage::Mintime));
        }
        let iqp = iqp.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (iqp, sp.map(|sp| (sp, t_sp)))
    });
    let ((traj_sp, warnings), t_sp) = sp?;
    timings.push((Stage::Iqp, t_iqp + t_iqp_end));
    timings.push((Stage::IqpSp, t_iqp2));
    timings.push((Stage::Sp, t_sp));

    let lines = vec![iqp, RacingLine::new(LineKind::Sp, &traj_sp, &walls)];
    timings.push((Stage::Total, t0.elapsed().as_secs_f64()));
    let mut result = RacelineResult {
        lines,
        timings,
        warnings,
        walls: walls_used,
        racing: LineKind::RACING,
        mintime: None,
    };
    if let Some(mintime) = mintime {
        let ((line, figures), seconds) = mintime?;
        result.put_mintime(line, figures, seconds);
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
                let sol = if params.seamless {
                    crate::seamless::iqp::iqp(rt, walls, width, params)?
                } else {
                    stages::iqp(rt, width, params)?
                };
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
    // the Race Stack hands over the closed points, the first repeated at the end: a
    // zero-length segment at the start; seamless lines leave it out
    let pts2 = if params.seamless {
        traj_iqp2.xy.clone()
    } else {
        traj_iqp2.closed_points()
    };
    let (w_right, w_left): (Vec<f64>, Vec<f64>) = pts2.iter().map(|&p| walls.distances(p)).unzip();
    let cent2 = RefTrack {
        xy: pts2,
        w_right,
        w_left,
    };
    let reference_sp = if params.seamless {
        crate::seamless::prep::prep(&cent2, walls, params)?
    } else {
        prep(&cent2, params)?
    };
    let width = params.safety_width_sp;
    let ((reference_sp, normals_sp, alpha_sp), traj_sp) =
        clearance::keep_clear(Stage::Sp, &reference_sp, walls, obstacles, width, |rt| {
            let (normals, mut alpha) = stages::sp(rt, width, params)?;
            clearance::clamp_smoothly(&rt.xy, &mut alpha, walls, width / 2.0, |a| {
                crate::sp::smooth_circular(a, params.sp_alpha_smoothing_half_window)
            });
            let traj = sample(&rt.xy, &normals, &alpha, params.stepsize_interp_after_opt)?;
            Ok(((rt.clone(), normals, alpha), traj))
        })?;
    let mut warnings = Vec::new();
    if let Err(e) = crate::iqp::check_folds(&reference_sp, &normals_sp, &alpha_sp, Stage::Sp) {
        warnings.push(e.to_string());
    }
    Ok((traj_sp.with_velocity(vehicle), warnings))
}
