//! Errors of the racing-line stages (DESIGN §3, stages 7–11).

use thiserror::Error;

/// Why a racing line could not be computed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum OptimizeError {
    /// A parameter is out of range (checked once by `RacelineParams::validate`).
    #[error("parameter `{name}` {problem} (found {value})")]
    InvalidParameter {
        /// Parameter name as in `[raceline]` of pipeline.toml.
        name: &'static str,
        /// What is wrong with it.
        problem: &'static str,
        /// The offending value.
        value: f64,
    },
    /// The `[raceline]` table of a configuration file could not be read.
    #[error("configuration: {0}")]
    Config(String),
    /// An input value is NaN or infinite.
    #[error("{what}: value {index} is not finite ({value}); fix or remove that row")]
    NonFinite {
        /// Which input (e.g. "centerline x_m").
        what: &'static str,
        /// Index of the offending value.
        index: usize,
        /// The value.
        value: f64,
    },
    /// Too few points to build a closed line.
    #[error("{what}: {found} points, at least {needed} are needed for a closed line")]
    TooFewPoints {
        /// Which input.
        what: &'static str,
        /// Points found.
        found: usize,
        /// Points needed.
        needed: usize,
    },
    /// Two consecutive points coincide, so the line has no direction there.
    #[error(
        "{what}: points {index} and {next} coincide at ({x:.3}, {y:.3}); remove the duplicate"
    )]
    DuplicatePoint {
        /// Which input.
        what: &'static str,
        /// First index.
        index: usize,
        /// Second index.
        next: usize,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
    },
    /// The track is narrower than the safety width somewhere.
    #[error(
        "{stage}: track too narrow at s = {s_m:.2} m (x {x:.3}, y {y:.3}): width {width:.3} m < safety width {safety_width:.3} m; \
         lower safety_width or widen the track there"
    )]
    Infeasible {
        /// Stage name ("iqp", "iqp_sp", "sp").
        stage: &'static str,
        /// Arc length along the reference line, metres.
        s_m: f64,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
        /// Track width there (d_right + d_left), metres.
        width: f64,
        /// Safety width required, metres.
        safety_width: f64,
    },
    /// Neighbouring normals of the reference line cross before the shifted line reaches them, so the racing line folds back there.
    #[error(
        "{stage}: normals at s = {s_m:.2} m (x {x:.3}, y {y:.3}) and s = {other_s_m:.2} m cross before the line, \
         shifted {distance:.3} m to the {side}, reaches them (it would fold back); raise s_reg for a smoother \
         reference line, or narrow the track there"
    )]
    CrossingNormals {
        /// Stage name.
        stage: &'static str,
        /// Arc length of the first normal along the reference line, metres.
        s_m: f64,
        /// World x of the first normal's foot, metres.
        x: f64,
        /// World y of the first normal's foot, metres.
        y: f64,
        /// Arc length of the crossing normal, metres.
        other_s_m: f64,
        /// "left" or "right" of the reference line.
        side: &'static str,
        /// Distance from the reference line to the crossing, metres.
        distance: f64,
    },
    /// The QP solver did not reach a solution.
    #[error("{stage}: QP solver stopped with status {status} (iteration {iteration}); the track may be too narrow or too tight for curvlim")]
    Solver {
        /// Stage name.
        stage: &'static str,
        /// Clarabel status, as text.
        status: String,
        /// IQP outer iteration (1-based), 0 for the SP.
        iteration: usize,
    },
    /// The IQP did not converge within the iteration limit.
    #[error("iqp: curvature error still {error:.4} rad/m after {iterations} iterations (allowed {allowed}); raise iqp_curverror_allowed or iqp_iters_max")]
    NotConverged {
        /// Iterations run.
        iterations: usize,
        /// Last curvature error, rad/m.
        error: f64,
        /// Allowed error, rad/m.
        allowed: f64,
    },
    /// A numerical step failed (singular spline system, FITPACK error).
    #[error("{stage}: {message}")]
    Numerical {
        /// Stage name.
        stage: &'static str,
        /// What failed.
        message: String,
    },
}

/// Reject NaN/inf in a slice of values.
pub(crate) fn check_finite(what: &'static str, values: &[f64]) -> Result<(), OptimizeError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(OptimizeError::NonFinite {
            what,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}
