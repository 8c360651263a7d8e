//! Errors of the racing-line stages (DESIGN §3, stages 7–11).

use thiserror::Error;

use crate::stage::Stage;
use crate::status::QpStatus;

/// Why a racing line could not be computed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum OptimizeError {
    /// A parameter is out of range (checked once by `RacelineParams::validate`).
    #[error("parameter `{name}` {problem} (found {})", crate::format_number(*.value))]
    InvalidParameter {
        /// Parameter name as in `[raceline]` of pipeline.toml.
        name: &'static str,
        /// What is wrong with it.
        problem: &'static str,
        /// The offending value.
        value: f64,
    },
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
    /// A point lies absurdly far from the origin (a unit mix-up or a stray point).
    #[error(
        "{what}: point {index} at ({}, {}) is more than {limit} m from the origin; check the units or remove that point",
        crate::format_number(*.x), crate::format_number(*.y)
    )]
    FarPoint {
        /// Which input (e.g. "centerline", "right wall").
        what: &'static str,
        /// Index of the point (row of the input).
        index: usize,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
        /// Largest coordinate accepted, metres.
        limit: f64,
    },
    /// A track width is absurdly large.
    #[error(
        "{what}: value {index} is {} m, beyond {limit} m; check the units or fix that row",
        crate::format_number(*.value)
    )]
    WidthOutOfRange {
        /// Which column ("d_right" or "d_left").
        what: &'static str,
        /// Row of the value.
        index: usize,
        /// The value, metres.
        value: f64,
        /// Largest magnitude accepted, metres.
        limit: f64,
    },
    /// A closed line is absurdly long.
    #[error(
        "{what}: lap length {length_m:.0} m exceeds {limit_m:.0} m (longest step {step_m:.1} m, from point {index} \
         to the next); check the units or remove that point"
    )]
    TooLong {
        /// Which input.
        what: &'static str,
        /// Length of the closed line, metres.
        length_m: f64,
        /// Longest lap accepted, metres.
        limit_m: f64,
        /// Start of the longest step between consecutive points.
        index: usize,
        /// Length of that step, metres.
        step_m: f64,
    },
    /// Sampling a line at the configured step would need too many points.
    #[error(
        "{what}: {length_m:.1} m at {param} = {step_m} m would give {count} points, more than {max}; raise {param}"
    )]
    TooManySamples {
        /// Which line.
        what: &'static str,
        /// Parameter that sets the step.
        param: &'static str,
        /// Length of the line, metres.
        length_m: f64,
        /// The step, metres.
        step_m: f64,
        /// Points the sampling would produce.
        count: f64,
        /// Most points accepted.
        max: usize,
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
    /// The input centerline is not a line to optimise (`check_input_line`).
    #[error(transparent)]
    Input(#[from] LineInputError),
    /// The track is narrower than the safety width: its narrowest point, what bounds it, and
    /// what would build.
    #[error(
        "{stage}: track too narrow: its narrowest point is at s = {s_m:.2} m (x {x:.3}, y {y:.3}), width {width:.3} m \
         < safety width {safety_width:.3} m{}{remedy}; lower safety_width or widen the track there",
        .obstacle.as_ref().map_or(String::new(), |o| format!(", beside {o}"))
    )]
    Infeasible {
        /// The stage ([`Stage::Iqp`] or [`Stage::Sp`]).
        stage: Stage,
        /// Arc length along the reference line, metres.
        s_m: f64,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
        /// Track width there (d_right + d_left), metres: the narrowest of the whole loop.
        width: f64,
        /// Safety width required, metres.
        safety_width: f64,
        /// The obstacle that narrows the track there, if one does.
        obstacle: Option<Box<ObstacleNote>>,
        /// What would build instead (found by solving again), if anything.
        remedy: Box<Remedy>,
    },
    /// Neighbouring normals of the reference line cross before the shifted line reaches them, so the racing line folds back there.
    #[error(
        "{stage}: normals at s = {s_m:.2} m (x {x:.3}, y {y:.3}) and s = {other_s_m:.2} m cross before the line, \
         shifted {distance:.3} m to the {side}, reaches them (it would fold back); raise s_reg for a smoother \
         reference line, or narrow the track there"
    )]
    CrossingNormals {
        /// The stage.
        stage: Stage,
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
    /// The reference line turns tighter than the curvature limit where the track leaves too
    /// little room to straighten it, so the IQP has no feasible shift.
    #[error(
        "{stage}: no line within curvlim {curvlim:.2} 1/m: at s = {s_m:.2} m (x {x:.3}, y {y:.3}) the line turns with \
         curvature {kappa:.3} 1/m and the safety width leaves only {room:.3} m of lateral room (iteration {iteration}){remedy}; \
         lower safety_width, raise curvlim, or widen the track there"
    )]
    TooTight {
        /// The stage.
        stage: Stage,
        /// Arc length along the IQP's reference line, metres.
        s_m: f64,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
        /// Reference-line curvature there, 1/m.
        kappa: f64,
        /// The curvature limit, 1/m.
        curvlim: f64,
        /// Room the line may move across there (width − safety_width), metres.
        room: f64,
        /// IQP outer iteration (1-based).
        iteration: usize,
        /// What would build instead (found by solving again), if anything.
        remedy: Box<Remedy>,
    },
    /// A racing line still comes closer to an obstacle inside the track than half the
    /// safety width after the widths beside it were narrowed.
    #[error(
        "{stage}: the line passes {clearance:.3} m from {obstacle} at (x {x:.3}, y {y:.3}), closer than half the \
         safety width ({needed:.3} m); lower safety_width or clear the obstacle from the map"
    )]
    ObstacleTooClose {
        /// The stage.
        stage: Stage,
        /// World x of the line point, metres.
        x: f64,
        /// World y of the line point, metres.
        y: f64,
        /// The obstacle.
        obstacle: Box<ObstacleNote>,
        /// Distance from the line to its outline, metres.
        clearance: f64,
        /// Half the safety width, metres.
        needed: f64,
    },
    /// The QP solver did not reach a solution.
    #[error("{stage}: QP solver stopped with status {status} (iteration {iteration}); the track may be too narrow or too tight for curvlim")]
    Solver {
        /// The stage.
        stage: Stage,
        /// Why Clarabel stopped.
        status: QpStatus,
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
    /// The seamless IQP (`[raceline] seamless`) did not reach its fixed point within the limit.
    #[error("iqp (seamless): the line still moved {shift_m:.2e} m in the last of {iterations} iterations (converged below {tolerance_m} m); raise iqp_iters_max, or build without --seamless")]
    SeamlessNotConverged {
        /// Iterations run.
        iterations: usize,
        /// The largest shift of a knot the last QP asked for, metres.
        shift_m: f64,
        /// The shift the iteration stops below, metres.
        tolerance_m: f64,
    },
    /// A numerical step failed (singular spline system, FITPACK error).
    #[error("{stage}: {message}")]
    Numerical {
        /// The stage.
        stage: Stage,
        /// What failed.
        message: String,
    },
}

/// An obstacle inside the track, for messages: where it is, how large, and the room on
/// each side of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObstacleNote {
    /// Centre of its box, world metres.
    pub centre: [f64; 2],
    /// Size of its box (x, y), metres.
    pub size: [f64; 2],
    /// Which side of the line it is on ("left" or "right").
    pub side: &'static str,
    /// Room on the side the loop passes it (the track width there), metres; not finite when
    /// unknown.
    pub room_passed: f64,
    /// Room on its other side (between it and the wall beyond), metres; not finite when
    /// unknown.
    pub room_beyond: f64,
}

impl std::fmt::Display for ObstacleNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y] = self.centre;
        let [w, h] = self.size;
        write!(
            f,
            "the obstacle at (x {x:.3}, y {y:.3}), {w:.2} × {h:.2} m, on the {} of the line",
            self.side
        )?;
        let rooms = [
            (self.room_passed, "on the side the loop passes it"),
            (self.room_beyond, "on its other side"),
        ];
        let rooms: Vec<String> = rooms
            .iter()
            .filter(|(r, _)| r.is_finite())
            .map(|(r, what)| format!("{r:.3} m {what}"))
            .collect();
        if !rooms.is_empty() {
            write!(f, " (room {})", rooms.join(", "))?;
        }
        Ok(())
    }
}

/// What would build instead of a failed run, found by solving again with other parameters
/// (issue 11, item 7): the largest safety width, or the smallest curvature limit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Remedy {
    /// The IQP's safety width of the largest pair that builds (both capped at one value on
    /// a 0.01 m grid), metres.
    pub safety_width: Option<f64>,
    /// The SP's safety width of that pair, metres.
    pub safety_width_sp: Option<f64>,
    /// The smallest curvature limit (0.05 1/m grid) that builds at the given widths, 1/m.
    pub curvlim: Option<f64>,
}

impl Remedy {
    /// The hint of the safety widths that build, if they were found.
    pub fn hint(&self) -> Option<mapzoo_format::Hint> {
        Some(mapzoo_format::Hint::SafetyWidths {
            iqp: self.safety_width?,
            sp: self.safety_width_sp?,
        })
    }
}

impl std::fmt::Display for Remedy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let (Some(a), Some(b), Some(hint)) =
            (self.safety_width, self.safety_width_sp, self.hint())
        {
            let w = a.max(b);
            write!(
                f,
                "; the largest safety width that builds is {w:.2} m: {hint}"
            )?;
        }
        if let Some(c) = self.curvlim {
            write!(f, "; curvlim = {c:.2} 1/m builds at these safety widths")?;
        }
        Ok(())
    }
}

impl OptimizeError {
    /// The remedy this error suggests, if it found one (the safety widths that build).
    pub fn hint(&self) -> Option<mapzoo_format::Hint> {
        match self {
            OptimizeError::Infeasible { remedy, .. } | OptimizeError::TooTight { remedy, .. } => {
                remedy.hint()
            }
            _ => None,
        }
    }
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

/// Largest |x| or |y| of any input point, metres (a 1000 km square: beyond it the input is in
/// the wrong units or has a stray point).
pub const MAX_COORD_M: f64 = 1e6;

/// Longest closed line (centerline lap or wall), metres.
pub const MAX_LAP_M: f64 = 100_000.0;

/// Most points any resampling may produce (100 km at 0.05 m).
pub const MAX_SAMPLES: usize = 2_000_000;

/// Reject points farther than [`MAX_COORD_M`] from the origin and closed lines longer than
/// [`MAX_LAP_M`], naming the point; the points must be finite.
pub(crate) fn check_extent(what: &'static str, pts: &[[f64; 2]]) -> Result<(), OptimizeError> {
    if let Some(index) = pts
        .iter()
        .position(|p| p[0].abs() > MAX_COORD_M || p[1].abs() > MAX_COORD_M)
    {
        return Err(OptimizeError::FarPoint {
            what,
            index,
            x: pts[index][0],
            y: pts[index][1],
            limit: MAX_COORD_M,
        });
    }
    let n = pts.len();
    let (mut length, mut longest, mut at) = (0.0, 0.0, 0);
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let step = (b[0] - a[0]).hypot(b[1] - a[1]);
        length += step;
        if step > longest {
            (longest, at) = (step, i);
        }
    }
    if length > MAX_LAP_M {
        return Err(OptimizeError::TooLong {
            what,
            length_m: length,
            limit_m: MAX_LAP_M,
            index: at,
            step_m: longest,
        });
    }
    Ok(())
}

/// Reject a sampling of `length_m` at `step_m` that would exceed [`MAX_SAMPLES`] points.
pub(crate) fn check_samples(
    what: &'static str,
    param: &'static str,
    length_m: f64,
    step_m: f64,
) -> Result<(), OptimizeError> {
    let count = (length_m / step_m).ceil() + 1.0;
    if count.is_nan() || count > MAX_SAMPLES as f64 {
        return Err(OptimizeError::TooManySamples {
            what,
            param,
            length_m,
            step_m,
            count,
            max: MAX_SAMPLES,
        });
    }
    Ok(())
}

/// Fewest points of an input line.
pub const MIN_INPUT_POINTS: usize = 5;

/// Shortest lap of an input line, metres (and at least [`MIN_REFERENCE_POINTS`] steps of
/// `stepsize_reg`).
pub const MIN_INPUT_LAP_M: f64 = 2.0;

/// Fewest points of the smoothed reference line (lap length / `stepsize_reg`).
pub const MIN_REFERENCE_POINTS: usize = 20;

/// A step between neighbouring points is a gap when it is longer than this many metres …
pub const GAP_MIN_M: f64 = 1.5;

/// … and longer than this many times the line's median step.
pub const GAP_FACTOR: f64 = 8.0;

/// What is wrong with an input centerline, naming the row.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LineInputError {
    /// Too few points to make a closed line.
    #[error("centerline: {found} points; at least {MIN_INPUT_POINTS} are needed for a closed line to optimise")]
    TooFewPoints {
        /// Points found (a closing copy of the first not counted).
        found: usize,
    },
    /// A width is zero or negative.
    #[error("centerline: {column} of point {row} (data row {}) at ({x:.3}, {y:.3}) is {value} m; widths must be > 0 \
             (the distance from the centerline to that wall)", row + 1)]
    NonPositiveWidth {
        /// "d_right" or "d_left".
        column: &'static str,
        /// The point's index.
        row: usize,
        /// The value, metres.
        value: f64,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
    },
    /// Two neighbouring points coincide.
    #[error("centerline: points {row} and {next} (data rows {} and {}) coincide at ({x:.3}, {y:.3}); remove the duplicate",
            row + 1, next + 1)]
    Duplicate {
        /// The first point's index.
        row: usize,
        /// The next point's index.
        next: usize,
        /// World x, metres.
        x: f64,
        /// World y, metres.
        y: f64,
    },
    /// The lap is too short to optimise.
    #[error("centerline: the lap is {length_m:.2} m long, shorter than the {min_m:.2} m needed to optimise \
             (at least {MIN_INPUT_LAP_M} m and {MIN_REFERENCE_POINTS} steps of stepsize_reg); check the units, or lower stepsize_reg")]
    TooShort {
        /// Lap length, metres.
        length_m: f64,
        /// Shortest lap accepted, metres.
        min_m: f64,
    },
    /// Two neighbouring points are far apart compared with the rest of the line.
    #[error("centerline: a gap of {gap_m:.2} m between point {row} (data row {}) at ({x:.3}, {y:.3}) and point {next}, \
             where the line's points are {median_m:.3} m apart elsewhere; the line would bridge it with a straight \
             segment. Fill the gap{}", row + 1, if *next == 0 { " (the line does not close: its last point is far from its first)" } else { "" })]
    Gap {
        /// The point before the gap.
        row: usize,
        /// The point after it (0 when the gap is the closing step).
        next: usize,
        /// Length of the gap, metres.
        gap_m: f64,
        /// Median step of the line, metres.
        median_m: f64,
        /// World x of the point before the gap, metres.
        x: f64,
        /// World y of the point before the gap, metres.
        y: f64,
    },
    /// The line crosses itself (a figure-eight, or a stray point).
    #[error("centerline: the segment from point {row} to {} crosses the segment from point {other} to {} at \
             ({x:.3}, {y:.3}); a centerline must be a simple loop (no figure-eight); fix the points near data \
             rows {} and {}", row + 1, other + 1, row + 1, other + 1)]
    SelfIntersection {
        /// Start of the first segment.
        row: usize,
        /// Start of the second segment.
        other: usize,
        /// World x of the crossing, metres.
        x: f64,
        /// World y of the crossing, metres.
        y: f64,
    },
}

impl LineInputError {
    /// The row (0-based point index) the error names (0 when it names none).
    pub fn row(&self) -> usize {
        match self {
            LineInputError::TooFewPoints { .. } | LineInputError::TooShort { .. } => 0,
            LineInputError::NonPositiveWidth { row, .. }
            | LineInputError::Duplicate { row, .. }
            | LineInputError::Gap { row, .. }
            | LineInputError::SelfIntersection { row, .. } => *row,
        }
    }

    /// The world position the error names, metres.
    pub fn xy(&self) -> Option<(f64, f64)> {
        match self {
            LineInputError::TooFewPoints { .. } | LineInputError::TooShort { .. } => None,
            LineInputError::NonPositiveWidth { x, y, .. }
            | LineInputError::Duplicate { x, y, .. }
            | LineInputError::Gap { x, y, .. }
            | LineInputError::SelfIntersection { x, y, .. } => Some((*x, *y)),
        }
    }
}
