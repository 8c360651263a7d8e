//! A finished racing line read from a trajectory file (TUM's output `traj_race_cl.csv`,
//! f1tenth_racetracks' `<T>_raceline.csv`, mapzoo's `export --to tum`): its velocity profile
//! and lap time for the configured vehicle (DESIGN §3 stage 11 only), as `raceline` reports
//! them for such an input.

use std::path::Path;

use mapzoo_format::export::Heading;
use mapzoo_format::{
    read_tum_trajectory_detect, set::input_track_name, TumRacelinePoint, Waypoint,
};
use mapzoo_raceline::{ax_profile, lap_time, velocity_profile, RacelineParams, Vehicle};

use crate::error::PipelineError;

/// A trajectory file's line with the configured vehicle's velocity profile.
#[derive(Debug, Clone, PartialEq)]
pub struct TrajectoryLap {
    /// Track name (see [`mapzoo_format::set::input_track_name`]).
    pub track: String,
    /// The file's heading convention.
    pub heading: Heading,
    /// The line, closed (last = first with s = lap length), heading 0 = +x in (−π, π],
    /// speeds and accelerations recomputed; d_right / d_left 0 (the file has no widths).
    pub waypoints: Vec<Waypoint>,
    /// Lap time with the configured vehicle, seconds.
    pub lap_time_s: f64,
    /// Its top speed, m/s.
    pub v_max: f64,
    /// Lap length, metres.
    pub length_m: f64,
    /// The lap time of the file's own speeds (Σ 2Δs / (vᵢ + vᵢ₊₁)), seconds.
    pub file_lap_time_s: f64,
}

/// Reads `path` as a trajectory file; `None` when it is not one (a centerline or a JSON).
pub fn read_trajectory(
    path: &Path,
    params: &RacelineParams,
) -> Result<Option<TrajectoryLap>, PipelineError> {
    let is_csv = path
        .extension()
        .is_some_and(|e| !e.eq_ignore_ascii_case("json"));
    if !is_csv || !path.is_file() {
        return Ok(None);
    }
    let Some(points) = read_tum_trajectory_detect(path)? else {
        return Ok(None);
    };
    trajectory_lap(&points, path, params).map(Some)
}

/// The lap of `points` (open or closed) with the vehicle of `params`; `path` names the file in errors.
pub fn trajectory_lap(
    points: &[TumRacelinePoint],
    path: &Path,
    params: &RacelineParams,
) -> Result<TrajectoryLap, PipelineError> {
    let closed = points.len() > 1 && {
        let (a, b) = (points[0], points[points.len() - 1]);
        (a.x_m - b.x_m).hypot(a.y_m - b.y_m) < 1e-6
    };
    let open = if closed {
        &points[..points.len() - 1]
    } else {
        points
    };
    if open.len() < 3 {
        return Err(PipelineError::input(
            path,
            format!(
                "a trajectory needs 3 or more distinct points, found {}",
                open.len()
            ),
        ));
    }
    let n = open.len();
    // Distance to the next point: along the file's s where it rises, the chord otherwise.
    let mut el = Vec::with_capacity(n);
    for i in 0..n {
        let a = open[i];
        let (b, s_b) = if i + 1 < n {
            (open[i + 1], open[i + 1].s_m)
        } else if closed {
            (points[n], points[n].s_m)
        } else {
            (open[0], f64::NAN)
        };
        let ds = s_b - a.s_m;
        let chord = (b.x_m - a.x_m).hypot(b.y_m - a.y_m);
        el.push(if ds.is_finite() && ds > 0.0 {
            ds
        } else {
            chord
        });
    }
    if let Some(i) = el.iter().position(|d| *d <= 0.0 || !d.is_finite()) {
        return Err(PipelineError::input(
            path,
            format!("data row {} repeats the point before it; remove it", i + 2),
        ));
    }
    let kappa: Vec<f64> = open.iter().map(|p| p.kappa_radpm).collect();
    let vehicle = Vehicle::from_params(params);
    let vx = velocity_profile(&kappa, &el, &vehicle);
    let ax = ax_profile(&vx, &el);
    let lap = lap_time(&vx, &ax, &el);
    let file_vx: Vec<f64> = open.iter().map(|p| p.vx_mps).collect();
    let file_lap: f64 = (0..n)
        .map(|i| 2.0 * el[i] / (file_vx[i] + file_vx[(i + 1) % n]))
        .sum();
    let heading = Heading::detect(points);
    let length: f64 = el.iter().sum();
    let mut s = 0.0;
    let mut waypoints: Vec<Waypoint> = open
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let w = Waypoint {
                id: i as i64,
                s_m: s,
                x_m: p.x_m,
                y_m: p.y_m,
                psi_rad: heading.to_x_axis(p.psi_rad),
                kappa_radpm: p.kappa_radpm,
                vx_mps: vx[i],
                ax_mps2: ax[i],
                ..Waypoint::default()
            };
            s += el[i];
            w
        })
        .collect();
    let mut end = waypoints[0];
    end.id = n as i64;
    end.s_m = length;
    waypoints.push(end);
    Ok(TrajectoryLap {
        track: trajectory_track_name(path),
        heading,
        waypoints,
        lap_time_s: lap,
        v_max: vx.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        length_m: length,
        file_lap_time_s: file_lap,
    })
}

/// Track name of a trajectory file: `<T>_raceline.csv` → T (f1tenth_racetracks),
/// `<T>/traj_race_cl*.csv` → T (TUM's output name, as `export --to tum` lays it out).
fn trajectory_track_name(path: &Path) -> String {
    let name = input_track_name(path);
    if name.starts_with("traj_race") {
        let parent = path.canonicalize().ok().and_then(|p| {
            p.parent()
                .and_then(|d| d.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        });
        if let Some(p) = parent {
            return p;
        }
    }
    match name.strip_suffix("_raceline") {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A circle of radius `r` in `n` points, closed or open, headings in `h`'s convention.
    fn circle(n: usize, r: f64, closed: bool, h: Heading) -> Vec<TumRacelinePoint> {
        let step = std::f64::consts::TAU / n as f64;
        let chord = 2.0 * r * (step / 2.0).sin();
        (0..n + usize::from(closed))
            .map(|i| {
                let t = step * (i % n) as f64;
                TumRacelinePoint {
                    s_m: chord * i as f64,
                    x_m: r * t.cos(),
                    y_m: r * t.sin(),
                    psi_rad: h.from_x_axis(t + std::f64::consts::FRAC_PI_2),
                    kappa_radpm: 1.0 / r,
                    vx_mps: 3.0,
                    ax_mps2: 0.0,
                }
            })
            .collect()
    }

    #[test]
    fn closed_and_open_files_of_either_heading_give_one_lap() {
        let p = RacelineParams::racestack();
        let path = Path::new("t_raceline.csv");
        let a = trajectory_lap(&circle(200, 5.0, true, Heading::North), path, &p).unwrap();
        let b = trajectory_lap(&circle(200, 5.0, false, Heading::XAxis), path, &p).unwrap();
        assert_eq!(a.heading, Heading::North);
        assert_eq!(b.heading, Heading::XAxis);
        assert!((a.lap_time_s - b.lap_time_s).abs() < 1e-9);
        assert_eq!(a.waypoints.len(), 201);
        assert_eq!(a.waypoints[200].x_m, a.waypoints[0].x_m);
        for (u, v) in a.waypoints.iter().zip(&b.waypoints) {
            assert!((u.psi_rad - v.psi_rad).abs() < 1e-12);
        }
        // constant curvature: constant speed sqrt(a_y · r), the lap its length over that speed
        let v = (12.0f64 * 5.0).sqrt().min(p.v_max);
        assert!(
            (a.lap_time_s - a.length_m / v).abs() < 1e-6 * a.lap_time_s,
            "{a:?}"
        );
        assert!((a.file_lap_time_s - a.length_m / 3.0).abs() < 1e-9);
        assert_eq!(a.track, "t");
    }

    #[test]
    fn too_short_or_repeated_points_are_refused_naming_the_file() {
        let p = RacelineParams::racestack();
        let path = Path::new("t.csv");
        let short = &circle(200, 5.0, false, Heading::XAxis)[..2];
        let e = trajectory_lap(short, path, &p).unwrap_err().to_string();
        assert!(e.contains("t.csv") && e.contains("3 or more"), "{e}");
        let mut dup = circle(20, 5.0, false, Heading::XAxis);
        dup.insert(5, dup[4]);
        let e = trajectory_lap(&dup, path, &p).unwrap_err().to_string();
        assert!(e.contains("t.csv") && e.contains("data row 6"), "{e}");
    }
}
