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
//! The modules are private; everything a caller needs is re-exported here at the root.
//! The kernels the property tests check, with their naive twins, are in
//! `reference` (tests and the `reference` feature only).

#![warn(missing_docs)]

mod banded;
mod clearance;
mod compute;
mod error;
mod fitpack;
mod fpclos;
mod input;
mod iqp;
mod mintime;
mod par;
mod params;
mod prep;
pub mod progress;
mod qp;
mod record;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod result;
mod seamless;
mod sp;
mod spline;
mod stage;
mod stages;
mod status;
mod suggest;
#[cfg(test)]
mod testing;
mod trajectory;
mod velocity;
mod walls;

pub use compute::{compute, compute_lines, compute_lines_once, reftrack_from_waypoints};
pub use error::{
    LineInputError, ObstacleNote, OptimizeError, Remedy, MAX_COORD_M, MAX_LAP_M, MAX_SAMPLES,
};
pub use input::{check_input_line, check_point_count, open_count};
pub use iqp::IqpSolution;
pub use mapzoo_format::format_number;
pub use mapzoo_format::LineKind;
pub use mintime::{mintime, MintimeSolution};
pub use params::{RacelineParams, MAX_STEP_M, MIN_STEP_M};
pub use prep::RefTrack;
pub use qp::{QpProblem, QpSettings, QpSolver};
pub use record::{LineFigures, MintimeFigures, RacelineRecord};
pub use result::{RacelineResult, RacingLine};
pub use seamless::{canonical_start, start_near};
pub use spline::{distance_scaling, ClosedSpline, Sampled};
pub use stage::Stage;
pub use stages::{iqp, prep, sp};
pub use status::QpStatus;
pub use trajectory::{race_stack_heading, sample, Trajectory};
pub use velocity::{ax_profile, lap_time, velocity_profile, Vehicle};
pub use walls::{walls_from_centerline, Obstacle, ResampledWalls, Side, Walls};
