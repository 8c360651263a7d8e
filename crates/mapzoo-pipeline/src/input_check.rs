//! Checks of a stage's input before the stage runs on it (issue 12 items 1 and 8): the
//! world size of a map, and the input line of the racing-line stages
//! (`mapzoo_raceline::check_input_line`).

use std::path::Path;

use mapzoo_extract::StartPose;
use mapzoo_format::{OccupancyMap, Waypoint};
use mapzoo_raceline::{
    check_input_line, check_point_count, reftrack_from_waypoints, OptimizeError,
};

use crate::error::PipelineError;

/// Checks the centerline read from `path`: finite, within range, and a line the racing-line
/// stages can start from (enough points, positive widths, no duplicate, no gap, no crossing).
/// The lap-length floor here is the absolute one; `compute` checks it again against the
/// configured `stepsize_reg`.
pub(crate) fn check_centerline(path: &Path, centerline: &[Waypoint]) -> Result<(), PipelineError> {
    let track = reftrack_from_waypoints(centerline);
    let wrap = |source: OptimizeError| PipelineError::Optimize {
        path: path.to_path_buf(),
        source,
    };
    check_point_count(&track).map_err(|e| wrap(e.into()))?;
    track.check("centerline").map_err(wrap)?;
    check_input_line(&track, 0.0).map_err(|e| wrap(e.into()))
}

/// Widest map accepted, metres on a side: every size that follows from the map (the
/// centerline's points, the racing lines' samples) stays bounded. A real track map spans
/// at most a few hundred metres; a map kilometres across has a resolution in the wrong unit.
pub const MAX_MAP_SIDE_M: f64 = 100_000.0;

/// Narrowest map accepted, metres on its longer side: no track fits in less.
pub const MIN_MAP_SIDE_M: f64 = 0.5;

/// Refuses a map whose world size (pixels × resolution) exceeds [`MAX_MAP_SIDE_M`] on a
/// side, or is under [`MIN_MAP_SIDE_M`] on both, naming the YAML's `resolution`, before
/// extraction allocates anything from it.
pub(crate) fn check_map_extent(yaml: &Path, map: &OccupancyMap) -> Result<(), PipelineError> {
    let (w, h) = (
        map.width as f64 * map.resolution,
        map.height as f64 * map.resolution,
    );
    let side = w.max(h);
    if w.is_finite() && h.is_finite() && (MIN_MAP_SIDE_M..=MAX_MAP_SIDE_M).contains(&side) {
        return Ok(());
    }
    let (limit, which) = if side < MIN_MAP_SIDE_M {
        (MIN_MAP_SIDE_M, "less than")
    } else {
        (MAX_MAP_SIDE_M, "more than")
    };
    let fmt = mapzoo_raceline::format_number;
    Err(PipelineError::input(
        yaml,
        format!(
            "field \"resolution\" is {} m/pixel, so the {}×{} px map would span {} × {} m, {which} the {} m \
             accepted; check its unit (a 1:10 track map is 0.01 to 0.2 m/pixel)",
            fmt(map.resolution),
            map.width,
            map.height,
            fmt(w),
            fmt(h),
            fmt(limit)
        ),
    ))
}

/// Largest |yaw| of a start pose, radians: ten turns. A yaw is an angle; 1e10 is a unit slip.
pub const MAX_START_YAW: f64 = 10.0 * std::f64::consts::TAU;

/// Refuses a start pose (`--start`, or one recorded in a set) that lies outside the map read
/// from `yaml` (its image's rectangle in the world frame) or whose yaw is beyond
/// ±[`MAX_START_YAW`], naming the plausible range; before extraction, which would otherwise
/// take waypoint 0 from the nearest point of a track kilometres away.
pub fn check_start(
    yaml: &Path,
    map: &OccupancyMap,
    start: &StartPose,
) -> Result<(), PipelineError> {
    let fmt = mapzoo_raceline::format_number;
    if !(-MAX_START_YAW..=MAX_START_YAW).contains(&start.yaw) {
        return Err(PipelineError::input(
            yaml,
            format!(
                "the start yaw {} rad is outside the plausible ±{:.2} rad (ten turns); give the heading in radians (0 = +x, counter-clockwise)",
                fmt(start.yaw),
                MAX_START_YAW
            ),
        ));
    }
    let (col, row) = map.world_to_pixel(start.x, start.y);
    let (w, h) = (map.width as f64, map.height as f64);
    let inside = (-0.5..=w - 0.5).contains(&col) && (-0.5..=h - 0.5).contains(&row);
    if inside {
        return Ok(());
    }
    // the world box of the image's corners (the origin yaw may rotate it)
    let corners = [
        (-0.5, -0.5),
        (w - 0.5, -0.5),
        (-0.5, h - 0.5),
        (w - 0.5, h - 0.5),
    ]
    .map(|(c, r)| map.pixel_to_world(c, r));
    let lo = |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::INFINITY, f64::min);
    let hi = |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
    Err(PipelineError::input(
        yaml,
        format!(
            "the start position ({}, {}) m lies outside the map, which spans x {:.2} to {:.2} m and y {:.2} to {:.2} m; give a start on the track, in the map's world frame (metres)",
            fmt(start.x),
            fmt(start.y),
            lo(|p| p.0),
            hi(|p| p.0),
            lo(|p| p.1),
            hi(|p| p.1)
        ),
    ))
}
