//! Checks of a stage's input before the stage runs on it (issue 12 items 1 and 8): the
//! world size of a map, and the input line of the racing-line stages
//! (`mapzoo_raceline::check_input_line`).

use std::path::Path;

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
