//! What stages 7–11 give for one track: a list of [`RacingLine`]s, one per [`LineKind`], with
//! the walls they were measured against, and what the Race Stack's files and the summary record
//! are made of them.

use std::time::Instant;

use mapzoo_format::{GlobalParts, GlobalWaypoints, LineKind, LineParts, Waypoint};

use crate::error::OptimizeError;
use crate::mintime;
use crate::params::RacelineParams;
use crate::record::{LineFigures, MintimeFigures, RacelineRecord};
use crate::stage::Stage;
use crate::trajectory::Trajectory;
use crate::walls::{ResampledWalls, Walls};

/// One racing line of a result: its kind, closed trajectory and figures.
#[derive(Debug, Clone, PartialEq)]
pub struct RacingLine {
    /// Which optimisation made it.
    pub kind: LineKind,
    /// The trajectory, closed (last row = first with s_m = lap length), d_right/d_left the
    /// distances to the walls.
    pub waypoints: Vec<Waypoint>,
    /// Lap time, seconds.
    pub lap_time_s: f64,
    /// Top speed, m/s.
    pub v_max: f64,
    /// Lap length, metres.
    pub length_m: f64,
}

impl RacingLine {
    /// A line of `kind` from its sampled, velocity-profiled trajectory, waypoints measured
    /// against `walls`.
    pub(crate) fn new(kind: LineKind, traj: &Trajectory, walls: &ResampledWalls) -> Self {
        RacingLine {
            kind,
            waypoints: traj.waypoints(walls),
            lap_time_s: traj.lap_time,
            v_max: traj.v_max(),
            length_m: traj.length,
        }
    }
}

/// Everything stages 7–11 produce for one track.
#[derive(Debug, Clone)]
pub struct RacelineResult {
    /// The racing lines, in [`LineKind::ALL`] order.
    pub lines: Vec<RacingLine>,
    /// Wall-clock seconds per stage ([`Stage::Prep`], [`Stage::Iqp`], [`Stage::IqpSp`],
    /// [`Stage::Sp`], [`Stage::Total`]).
    pub timings: Vec<(Stage, f64)>,
    /// Problems that did not stop the computation (e.g. an SP line folding at a thin wall).
    pub warnings: Vec<String>,
    /// The walls the widths were measured to: those given, or the ones rebuilt from the
    /// centerline (closed polylines, last point not repeated), metres.
    pub walls: Walls,
    /// The line the car drives ([`LineKind::RACING`] unless [`Self::drive`] chose another):
    /// the one in `<T>_racing_line.csv` and in the IQP slot of global_waypoints.json.
    pub racing: LineKind,
    /// How the min-time line was found, once [`Self::add_mintime`] has run.
    pub mintime: Option<MintimeFigures>,
}

impl RacelineResult {
    /// The line of `kind`, if it was computed.
    pub fn line(&self, kind: LineKind) -> Option<&RacingLine> {
        self.lines.iter().find(|l| l.kind == kind)
    }

    /// The waypoints of the line of `kind` (empty if it was not computed).
    pub fn waypoints(&self, kind: LineKind) -> &[Waypoint] {
        self.line(kind).map_or(&[], |l| &l.waypoints)
    }

    /// The line the car drives ([`Self::racing`]): the IQP line unless [`Self::drive`] chose
    /// another.
    pub fn racing_line(&self) -> &RacingLine {
        self.line(self.racing)
            .unwrap_or_else(|| &self[LineKind::Iqp])
    }

    /// Makes the line of `kind` the one the car drives: it goes into `<T>_racing_line.csv`
    /// and the IQP slot of global_waypoints.json (the slot the Race Stack's controller reads),
    /// and the sector files index it. Errors if the result has no such line.
    pub fn drive(&mut self, kind: LineKind) -> Result<(), OptimizeError> {
        if self.line(kind).is_none() {
            return Err(OptimizeError::Numerical {
                stage: Stage::Total,
                message: format!(
                    "the {} line cannot be driven: it was not computed (add it to the lines)",
                    kind.name()
                ),
            });
        }
        self.racing = kind;
        Ok(())
    }

    /// The Race Stack's `global_waypoints.json` of this result: the centerline, every line,
    /// and [`Self::walls`] as the track bounds. The driven line ([`Self::racing`]) fills the
    /// IQP slot; when that is not the IQP line, `map_info_str` says which line it is.
    pub fn global_waypoints(&self, centerline: &[Waypoint]) -> GlobalWaypoints {
        let parts = |l: &RacingLine, kind: LineKind| LineParts {
            kind,
            wpnts: l.waypoints.clone(),
            lap_time_s: l.lap_time_s,
            max_speed_mps: l.v_max,
        };
        let lines = LineKind::ALL
            .into_iter()
            .filter_map(|kind| match kind {
                LineKind::Iqp => Some(parts(self.racing_line(), kind)),
                _ => self.line(kind).map(|l| parts(l, kind)),
            })
            .collect();
        let mut global = GlobalWaypoints::build(GlobalParts {
            centerline: centerline.to_vec(),
            lines,
            right_bound: self.walls.right.clone(),
            left_bound: self.walls.left.clone(),
        });
        global.note_iqp_slot(self.racing);
        global
    }

    /// The summary record of this result for `track` (no stage timings; add them to
    /// [`RacelineRecord::stages`] where known).
    pub fn record(&self, track: &str, centerline_points: usize, seconds: f64) -> RacelineRecord {
        RacelineRecord {
            track: track.to_string(),
            centerline_points,
            lines: self.lines.iter().map(LineFigures::from).collect(),
            racing: self.racing,
            seconds,
            stages: Vec::new(),
            mintime: self.mintime,
        }
    }
}

impl RacelineResult {
    /// Adds the minimum-lap-time line ([`mintime()`]) from this result's IQP line and walls,
    /// after the other lines, with its time as [`Stage::Mintime`] (before [`Stage::Total`],
    /// which grows by it). Replaces a min-time line already there. Errors if the result has
    /// no IQP line.
    pub fn add_mintime(&mut self, params: &RacelineParams) -> Result<(), OptimizeError> {
        let t = Instant::now();
        let Some(iqp) = self.line(LineKind::Iqp) else {
            return Err(OptimizeError::Numerical {
                stage: Stage::Mintime,
                message: "the minimum-time line starts from the IQP line, which this result lacks"
                    .into(),
            });
        };
        let walls = self.walls.resampled(params.wall_resample_step);
        let (line, figures) = mintime_line(iqp, &walls, params)?;
        let seconds = t.elapsed().as_secs_f64();
        self.put_mintime(line, figures, seconds);
        if let Some((_, total)) = self.timings.iter_mut().find(|(s, _)| *s == Stage::Total) {
            *total += seconds;
        }
        Ok(())
    }

    /// Puts the minimum-lap-time line made in `seconds` after the other lines, and its time
    /// as [`Stage::Mintime`] before [`Stage::Total`] (which it leaves as it is).
    pub(crate) fn put_mintime(&mut self, line: RacingLine, figures: MintimeFigures, seconds: f64) {
        self.lines.retain(|l| l.kind != LineKind::Mintime);
        self.lines.push(line);
        self.mintime = Some(figures);
        self.timings.retain(|(s, _)| *s != Stage::Mintime);
        let at = self
            .timings
            .iter()
            .position(|(s, _)| *s == Stage::Total)
            .unwrap_or(self.timings.len());
        self.timings.insert(at, (Stage::Mintime, seconds));
    }
}

/// The minimum-lap-time line ([`mintime()`]) from the IQP line `iqp` within `walls` (the
/// result's walls resampled at `wall_resample_step`), and its figures.
pub(crate) fn mintime_line(
    iqp: &RacingLine,
    walls: &ResampledWalls,
    params: &RacelineParams,
) -> Result<(RacingLine, MintimeFigures), OptimizeError> {
    let traj = Trajectory::from_waypoints(&iqp.waypoints);
    let fast = mintime::mintime(&traj, walls, params, &params.vehicle())?;
    let line = RacingLine::new(LineKind::Mintime, &fast.trajectory, walls);
    let figures = MintimeFigures {
        qps: fast.iterations,
        kept: fast.accepted,
        fine_lap_s: fast.fine_lap_s,
    };
    Ok((line, figures))
}

impl std::ops::Index<LineKind> for RacelineResult {
    type Output = RacingLine;

    /// The line of `kind`. Panics if it is absent; a result of [`compute`] holds every
    /// [`LineKind`].
    fn index(&self, kind: LineKind) -> &RacingLine {
        match self.line(kind) {
            Some(line) => line,
            None => panic!("no {kind} line in this result"),
        }
    }
}

impl From<&RacingLine> for LineFigures {
    fn from(l: &RacingLine) -> Self {
        LineFigures {
            kind: l.kind,
            points: l.waypoints.len(),
            lap_s: l.lap_time_s,
            vmax: l.v_max,
            length_m: l.length_m,
        }
    }
}
