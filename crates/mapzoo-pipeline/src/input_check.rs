//! The input-line checks of a centerline file, before any stage runs on it
//! (`mapzoo_raceline::check_input_line`, issue 12 item 8).

use std::path::Path;

use mapzoo_format::Waypoint;
use mapzoo_raceline::{check_input_line, reftrack_from_waypoints, OptimizeError};

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
    track.check("centerline").map_err(wrap)?;
    check_input_line(&track, 0.0).map_err(|e| wrap(e.into()))
}
