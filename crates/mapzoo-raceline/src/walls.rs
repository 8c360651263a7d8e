//! Track walls for the racing-line stages (DESIGN §3 "Notes for parity": the
//! SP's widths are nearest distances to the walls): the [`Walls`] type and
//! its 0.1 m resampling live in [`mapzoo_geom`]; here they are rebuilt from a
//! centerline along its spline normals and checked before the stages run.

pub use mapzoo_geom::{Obstacle, ResampledWalls, Side, Walls};

use crate::error::{check_extent, check_finite, check_samples, OptimizeError};
use crate::prep::RefTrack;
use crate::spline::ClosedSpline;

/// Walls rebuilt from a centerline: each point ± d_right / d_left along the normal of the
/// closed (distance-scaled) spline through the centerline ([`Walls::from_normals`]).
pub fn walls_from_centerline(track: &RefTrack) -> Result<Walls, OptimizeError> {
    let normals = ClosedSpline::through_scaled(&track.xy)?.normals();
    Ok(Walls::from_normals(
        &track.xy,
        &normals,
        &track.w_right,
        &track.w_left,
    ))
}

/// At least 3 finite points per wall and one per obstacle outline, none beyond ±[`crate::error::MAX_COORD_M`], each wall
/// at most [`crate::error::MAX_LAP_M`] long.
pub(crate) fn check(walls: &Walls) -> Result<(), OptimizeError> {
    for (what, wall) in walls.named() {
        if wall.len() < 3 {
            return Err(OptimizeError::TooFewPoints {
                what,
                found: wall.len(),
                needed: 3,
            });
        }
        let flat: Vec<f64> = wall.iter().flat_map(|p| [p[0], p[1]]).collect();
        check_finite(what, &flat)?;
        check_extent(what, wall)?;
    }
    for obstacle in &walls.obstacles {
        let what = "obstacle outline";
        if obstacle.outline.is_empty() {
            return Err(OptimizeError::TooFewPoints {
                what,
                found: 0,
                needed: 1,
            });
        }
        let flat: Vec<f64> = obstacle.outline.iter().flat_map(|p| [p[0], p[1]]).collect();
        check_finite(what, &flat)?;
        check_extent(what, &obstacle.outline)?;
    }
    Ok(())
}

/// Rejects a `step` at which resampling the walls would give more than
/// [`crate::error::MAX_SAMPLES`] points (call after [`check`]).
pub(crate) fn check_resample(walls: &Walls, step: f64) -> Result<(), OptimizeError> {
    for (what, wall) in walls.named() {
        let length = mapzoo_geom::closed_length(wall, mapzoo_geom::Norm::Hypot);
        check_samples(what, "wall_resample_step", length, step)?;
    }
    Ok(())
}
