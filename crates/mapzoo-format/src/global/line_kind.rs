//! [`LineKind`]: which racing lines there are, in which order, and how every file
//! names, keys and draws each one.

use serde::{Deserialize, Serialize};

use super::markers::{IQP_COLOR, MINTIME_COLOR, SP_COLOR};
use super::ros_msgs::ColorRgba;

/// A kind of racing line: which optimisation made it, and how the files name and draw it.
///
/// The order of [`LineKind::ALL`] is the order of the lines everywhere: in
/// `map_info_str`, in the JSON keys, in records and in pictures. A new kind (a
/// minimum-time line) is a new variant here, with its names, key and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// Minimum curvature, iterated (IQP, DESIGN §3.8): the line the car drives.
    Iqp,
    /// Shortest path (SP, DESIGN §3.9).
    Sp,
    /// Minimum lap time (issue 14), from the IQP line; computed only when asked for
    /// (`--lines iqp,sp,mintime`), written as `<T>_mintime.csv`, not part of
    /// global_waypoints.json (not in [`LineKind::ALL`]).
    Mintime,
}

impl LineKind {
    /// The kinds of a Race Stack global_waypoints.json, in file order (the lines every run
    /// computes).
    pub const ALL: [LineKind; 2] = [LineKind::Iqp, LineKind::Sp];

    /// Every kind there is, in output order: [`LineKind::ALL`], then the minimum-time line.
    pub const EVERY: [LineKind; 3] = [LineKind::Iqp, LineKind::Sp, LineKind::Mintime];

    /// The kind of a short name ([`LineKind::name`]): `"iqp"`, `"sp"`, `"mintime"`.
    pub fn from_name(name: &str) -> Option<LineKind> {
        LineKind::EVERY.into_iter().find(|k| k.name() == name)
    }

    /// Whether global_waypoints.json carries this line.
    pub fn in_global_waypoints(self) -> bool {
        LineKind::ALL.contains(&self)
    }

    /// The line the car drives unless another is chosen (`--racing-line`): the one in
    /// `<T>_racing_line.csv` and the IQP slot of global_waypoints.json, the one the sector
    /// files index.
    pub const RACING: LineKind = LineKind::Iqp;

    /// The line whose lap time the Race Stack writes as `est_lap_time`.
    pub const EST_LAP: LineKind = LineKind::Sp;

    /// Short name in record keys (`iqp_lap_s`) and JSON keys: `"iqp"`, `"sp"`.
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Iqp => "iqp",
            LineKind::Sp => "sp",
            LineKind::Mintime => "mintime",
        }
    }

    /// Label in `map_info_str` and pictures: `"IQP"`, `"SP"`.
    pub fn label(self) -> &'static str {
        match self {
            LineKind::Iqp => "IQP",
            LineKind::Sp => "SP",
            LineKind::Mintime => "Min-time",
        }
    }

    /// JSON key of the waypoints: `global_traj_wpnts_<name>`.
    pub fn wpnts_key(self) -> &'static str {
        match self {
            LineKind::Iqp => "global_traj_wpnts_iqp",
            LineKind::Sp => "global_traj_wpnts_sp",
            LineKind::Mintime => "global_traj_wpnts_mintime",
        }
    }

    /// JSON key of the markers: `global_traj_markers_<name>`.
    pub fn markers_key(self) -> &'static str {
        match self {
            LineKind::Iqp => "global_traj_markers_iqp",
            LineKind::Sp => "global_traj_markers_sp",
            LineKind::Mintime => "global_traj_markers_mintime",
        }
    }

    /// Colour of the line's marker cylinders.
    pub fn color(self) -> ColorRgba {
        match self {
            LineKind::Iqp => IQP_COLOR,
            LineKind::Sp => SP_COLOR,
            LineKind::Mintime => MINTIME_COLOR,
        }
    }
}

impl std::fmt::Display for LineKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}
