//! Stages 7–11 (DESIGN §3) from an existing centerline, the job of the
//! `raceline` command: read the one input file (MapZoo CSV, TUM CSV or
//! global_waypoints.json, see [`CenterlineInput`]), give a TUM centerline the
//! heading and curvature of its closed spline, and lay the lines out as a set
//! of files for the one set writer.

use std::path::Path;

use mapzoo_format::set::layout::SP_LINE;
use mapzoo_format::set::{CenterlineInput, InputFormat, TrackFiles};
use mapzoo_format::Waypoint;
use mapzoo_raceline::{ClosedSpline, LineKind, OptimizeError, RacelineResult, Walls};

use crate::error::PipelineError;

/// A centerline ready for the racing-line stages, with the walls if its file had them.
#[derive(Debug, Clone)]
pub struct CenterlineTrack {
    /// Track name (see [`mapzoo_format::set::input_track_name`]).
    pub track: String,
    /// The centerline waypoints; a TUM input's heading and curvature filled in.
    pub centerline: Vec<Waypoint>,
    /// The track bounds of a global_waypoints.json; `None` means: rebuild them from the widths.
    pub walls: Option<Walls>,
    /// What was done to the input for the user to know (a closing row dropped).
    pub notes: Vec<String>,
}

/// Reads the centerline file `path` (DESIGN §2.2, §4); a TUM centerline of 3
/// or more points gets heading and curvature from its closed spline.
pub fn read_centerline_track(path: &Path) -> Result<CenterlineTrack, PipelineError> {
    if path.is_dir() {
        return Err(PipelineError::input(
            path,
            "is a folder; give a file: a MapZoo <T>_centerline.csv, a TUM centerline CSV or a global_waypoints.json",
        ));
    }
    let input = CenterlineInput::read(path)?;
    let walls = input.has_bounds().then_some(Walls {
        right: input.right_bound,
        left: input.left_bound,
        obstacles: Vec::new(),
    });
    let mut centerline = input.centerline;
    let mut notes = Vec::new();
    // Many tools close the loop by repeating the first point as the last row; the spline
    // through a point and its copy is singular. The loop is closed anyway: drop the copy.
    let open = mapzoo_raceline::open_count(&centerline, |w| [w.x_m, w.y_m]);
    if centerline.len() > 2 && open < centerline.len() {
        notes.push(format!(
            "the last point (row {open}) repeats the first: a closed line, as many tools write it; the copy was dropped (mapzoo closes the loop itself)"
        ));
        centerline.truncate(open);
    }
    // The input line's checks (issue 12 item 8) before any spline is fitted through it.
    crate::input_check::check_centerline(path, &centerline)?;
    if input.format == InputFormat::TumCsv && centerline.len() >= 3 {
        // TUM files carry no heading or curvature: take them from the closed spline.
        let xy: Vec<[f64; 2]> = centerline.iter().map(|w| [w.x_m, w.y_m]).collect();
        let hk = knot_heading_curvature(&xy).map_err(|source| PipelineError::Optimize {
            path: path.to_path_buf(),
            source,
        })?;
        for (w, (psi, kappa)) in centerline.iter_mut().zip(hk) {
            w.psi_rad = psi;
            w.kappa_radpm = kappa;
        }
    }
    Ok(CenterlineTrack {
        track: input.track,
        centerline,
        walls,
        notes,
    })
}

/// Heading (0 = +x, (−π, π], radians) and curvature (1/m) at the knots of the closed spline through the points.
fn knot_heading_curvature(xy: &[[f64; 2]]) -> Result<Vec<(f64, f64)>, OptimizeError> {
    let sp = ClosedSpline::through_scaled(xy)?;
    Ok((0..xy.len())
        .map(|i| {
            let (psi, kappa) = sp.heading_curvature(i, 0.0);
            (mapzoo_raceline::race_stack_heading(psi), kappa)
        })
        .collect())
}

/// The files of a racing-line run: `<T>_centerline.csv`, the line CSVs of a set (the driven
/// line as `<T>_racing_line.csv`, `<T>_mintime.csv` if the result has that line, `<T>_iqp.csv`
/// when another line is driven), `<T>_sp.csv`, and global_waypoints.json.
pub fn line_files(track: &str, centerline: &[Waypoint], result: &RacelineResult) -> TrackFiles {
    let mut lines = crate::build::set_lines(result);
    lines.insert(
        1,
        (SP_LINE.to_string(), result.waypoints(LineKind::Sp).to_vec()),
    );
    TrackFiles {
        centerline: Some(centerline.to_vec()),
        lines,
        global: Some(result.global_waypoints(centerline)),
        ..TrackFiles::new(track)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A TUM oval gets a finite heading and a non-zero curvature at every point.
    #[test]
    fn tum_input_gets_heading_and_curvature() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("oval.csv");
        let mut text = String::from("# x_m,y_m,w_tr_right_m,w_tr_left_m\n");
        for i in 0..200 {
            let t = std::f64::consts::TAU * i as f64 / 200.0;
            text.push_str(&format!("{},{},1.0,1.0\n", 9.0 * t.cos(), 5.0 * t.sin()));
        }
        std::fs::write(&path, text).unwrap();
        let track = read_centerline_track(&path).unwrap();
        assert_eq!(track.track, "oval");
        assert!(track.walls.is_none());
        assert!(track
            .centerline
            .iter()
            .all(|w| w.psi_rad.is_finite() && w.kappa_radpm > 0.0));
    }
}
