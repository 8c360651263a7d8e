//! `global_waypoints.json`, the Race Stack's one-file form of a track set
//! (DESIGN §2.3): lap-time summary, centerline, IQP and SP trajectories, and
//! ROS visualization markers for each plus the track bounds.
//!
//! Reading accepts the older Race Stack variants (no `est_lap_time`, "Shortest
//! Path" for "SP", header `seq` 0 or 1); writing reproduces Python's
//! `json.dumps` byte for byte, so a published file read and written again is
//! unchanged.

use std::path::Path;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;
use crate::pyfmt;
use crate::waypoint::{Waypoint, CSV_COLUMNS};

/// The nine top-level keys, in the order the Race Stack writes them.
pub const KEYS: [&str; 9] = [
    "map_info_str",
    "est_lap_time",
    "centerline_markers",
    "centerline_waypoints",
    "global_traj_markers_iqp",
    "global_traj_wpnts_iqp",
    "global_traj_markers_sp",
    "global_traj_wpnts_sp",
    "trackbounds_markers",
];

/// ROS `Marker.SPHERE`.
pub const MARKER_SPHERE: i32 = 2;
/// ROS `Marker.CYLINDER`.
pub const MARKER_CYLINDER: i32 = 3;

/// Diameter of centerline and bound spheres, metres.
const SPHERE_SCALE: f64 = 0.05;
/// Diameter of trajectory cylinders, metres.
const CYLINDER_DIAMETER: f64 = 0.1;

/// ROS `std_msgs/Header`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Header {
    /// Sequence number (ROS 1 only: the Race Stack writes 0 in markers, 0 or 1 in waypoint
    /// arrays); `None` in ROS 2 headers, which have no `seq`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u32>,
    /// Time stamp (always zero in the files).
    pub stamp: RosTime,
    /// Coordinate frame, `"map"` in markers, `""` in waypoint arrays.
    pub frame_id: String,
}

impl Header {
    /// A header of `flavor`: ROS 1 with `seq`, ROS 2 without; zero stamp.
    pub fn new(seq: u32, frame_id: &str, flavor: Flavor) -> Self {
        let mut h = Header {
            seq: Some(seq),
            stamp: RosTime::default(),
            frame_id: frame_id.to_string(),
        };
        h.set_flavor(flavor, seq);
        h
    }

    /// The flavour of this header: ROS 2 when it has no `seq` and its stamp is `{sec, nanosec}`.
    pub fn flavor(&self) -> Flavor {
        match (self.seq, self.stamp.flavor) {
            (None, Flavor::Ros2) => Flavor::Ros2,
            _ => Flavor::Ros1,
        }
    }

    /// Rewrites the header in `flavor`: ROS 2 drops `seq`; ROS 1 keeps its `seq` or gets `seq`.
    pub fn set_flavor(&mut self, flavor: Flavor, seq: u32) {
        self.stamp.flavor = flavor;
        self.seq = match flavor {
            Flavor::Ros1 => Some(self.seq.unwrap_or(seq)),
            Flavor::Ros2 => None,
        };
    }
}

/// ROS `time` / `duration`: seconds and nanoseconds. ROS 1 names them `{secs, nsecs}`,
/// ROS 2 `{sec, nanosec}`; the reader takes either and remembers which in `flavor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RosTime {
    /// Whole seconds.
    pub secs: i64,
    /// Nanoseconds.
    pub nsecs: i64,
    /// Which names the fields have in the file.
    pub flavor: Flavor,
}

impl Serialize for RosTime {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (k_sec, k_nsec) = match self.flavor {
            Flavor::Ros1 => ("secs", "nsecs"),
            Flavor::Ros2 => ("sec", "nanosec"),
        };
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry(k_sec, &self.secs)?;
        map.serialize_entry(k_nsec, &self.nsecs)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for RosTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            secs: Option<i64>,
            nsecs: Option<i64>,
            sec: Option<i64>,
            nanosec: Option<i64>,
        }
        let r = Raw::deserialize(d)?;
        match (r.secs, r.nsecs, r.sec, r.nanosec) {
            (Some(secs), Some(nsecs), None, None) => Ok(RosTime {
                secs,
                nsecs,
                flavor: Flavor::Ros1,
            }),
            (None, None, Some(secs), Some(nsecs)) => Ok(RosTime {
                secs,
                nsecs,
                flavor: Flavor::Ros2,
            }),
            _ => Err(serde::de::Error::custom(
                "a ROS time needs `secs` and `nsecs` (ROS 1) or `sec` and `nanosec` (ROS 2)",
            )),
        }
    }
}

/// ROS `geometry_msgs/Point` (also used for `Vector3`), metres.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Point3 {
    /// x, metres.
    pub x: f64,
    /// y, metres.
    pub y: f64,
    /// z, metres.
    pub z: f64,
}

/// ROS `geometry_msgs/Quaternion`; `w` is written as an integer when integral,
/// as the Race Stack sets it to the Python int `1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quaternion {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
    /// z component.
    pub z: f64,
    /// w component.
    #[serde(serialize_with = "int_if_integral")]
    pub w: f64,
}

impl Default for Quaternion {
    fn default() -> Self {
        Quaternion {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        }
    }
}

fn int_if_integral<S: Serializer>(v: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
}

/// ROS `geometry_msgs/Pose`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Pose {
    /// Position, metres.
    pub position: Point3,
    /// Orientation (identity in the files).
    pub orientation: Quaternion,
}

/// ROS `std_msgs/ColorRGBA`, each channel 0..1.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ColorRgba {
    /// Red, 0..1.
    pub r: f64,
    /// Green, 0..1.
    pub g: f64,
    /// Blue, 0..1.
    pub b: f64,
    /// Opacity, 0..1.
    pub a: f64,
}

/// Colour of the right-bound spheres (r 0.5, b 0.5).
pub const RIGHT_BOUND_COLOR: ColorRgba = ColorRgba {
    r: 0.5,
    g: 0.0,
    b: 0.5,
    a: 1.0,
};
/// Colour of the left-bound spheres (r 0.5, g 1.0).
pub const LEFT_BOUND_COLOR: ColorRgba = ColorRgba {
    r: 0.5,
    g: 1.0,
    b: 0.0,
    a: 1.0,
};
/// Colour of the centerline spheres (blue).
pub const CENTERLINE_COLOR: ColorRgba = ColorRgba {
    r: 0.0,
    g: 0.0,
    b: 1.0,
    a: 1.0,
};
/// Colour of the IQP cylinders (red).
pub const IQP_COLOR: ColorRgba = ColorRgba {
    r: 1.0,
    g: 0.0,
    b: 0.0,
    a: 1.0,
};
/// Colour of the minimum-time line (cyan); it has no cylinders in global_waypoints.json.
pub const MINTIME_COLOR: ColorRgba = ColorRgba {
    r: 0.0,
    g: 0.8,
    b: 1.0,
    a: 1.0,
};
/// Colour of the SP cylinders (yellow).
pub const SP_COLOR: ColorRgba = ColorRgba {
    r: 1.0,
    g: 1.0,
    b: 0.0,
    a: 1.0,
};

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

/// Label of the `map_info_str` part naming the line in the IQP slot ([`MapInfo::iqp_slot`]).
const IQP_SLOT_LABEL: &str = "IQP slot";
/// The flag named in that part, followed by the line's name.
const RACING_LINE_FLAG: &str = "--racing-line ";

/// A full ROS `visualization_msgs/Marker`, fields in message order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// Message header (`seq` 0, frame `"map"`).
    pub header: Header,
    /// Namespace, `""`.
    pub ns: String,
    /// Index, running from 0 within the array.
    pub id: i64,
    /// Shape: [`MARKER_SPHERE`] or [`MARKER_CYLINDER`].
    #[serde(rename = "type")]
    pub kind: i32,
    /// 0 = add.
    pub action: i32,
    /// Where the marker sits, metres.
    pub pose: Pose,
    /// Size along x, y, z, metres.
    pub scale: Point3,
    /// Colour.
    pub color: ColorRgba,
    /// How long the marker lives (0 = forever).
    pub lifetime: RosTime,
    /// Whether the marker follows its frame.
    pub frame_locked: bool,
    /// Points of line/list markers (empty here), metres.
    pub points: Vec<Point3>,
    /// Per-point colours (empty here).
    pub colors: Vec<ColorRgba>,
    /// Text of text markers (`""`).
    pub text: String,
    /// Mesh of mesh markers (`""`).
    pub mesh_resource: String,
    /// Whether a mesh uses its own materials.
    pub mesh_use_embedded_materials: bool,
}

impl Marker {
    /// A marker of `kind` at `position` with `scale` and `color`, every other field as the Race Stack writes it.
    pub fn new(id: i64, kind: i32, position: Point3, scale: Point3, color: ColorRgba) -> Self {
        Marker {
            header: Header::new(0, "map", Flavor::Ros1),
            ns: String::new(),
            id,
            kind,
            action: 0,
            pose: Pose {
                position,
                orientation: Quaternion::default(),
            },
            scale,
            color,
            lifetime: RosTime::default(),
            frame_locked: false,
            points: Vec::new(),
            colors: Vec::new(),
            text: String::new(),
            mesh_resource: String::new(),
            mesh_use_embedded_materials: false,
        }
    }

    /// A sphere of diameter 0.05 m at (x, y, 0).
    pub fn sphere(id: i64, x: f64, y: f64, color: ColorRgba) -> Self {
        Marker::new(
            id,
            MARKER_SPHERE,
            Point3 { x, y, z: 0.0 },
            Point3 {
                x: SPHERE_SCALE,
                y: SPHERE_SCALE,
                z: SPHERE_SCALE,
            },
            color,
        )
    }
}

/// ROS `visualization_msgs/MarkerArray`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MarkerArray {
    /// The markers.
    pub markers: Vec<Marker>,
}

/// The Race Stack `WpntArray` message: a header and the waypoints.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WpntArray {
    /// Header (`seq` 0 or 1, frame `""`).
    pub header: Header,
    /// Waypoints in driving order.
    pub wpnts: Vec<Waypoint>,
}

impl WpntArray {
    /// An array with the header the current Race Stack writes (`seq` 1).
    pub fn new(wpnts: Vec<Waypoint>) -> Self {
        WpntArray {
            header: Header::new(1, "", Flavor::Ros1),
            wpnts,
        }
    }
}

/// The figures in `map_info_str`; `None` where the text lacks one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MapInfo {
    /// IQP lap time, seconds (4 decimals in the text).
    pub iqp_lap_time_s: Option<f64>,
    /// IQP maximum speed, m/s.
    pub iqp_max_speed_mps: Option<f64>,
    /// SP (shortest path) lap time, seconds.
    pub sp_lap_time_s: Option<f64>,
    /// SP maximum speed, m/s.
    pub sp_max_speed_mps: Option<f64>,
    /// The line the IQP slot holds when it is not the IQP line (mapzoo `--racing-line`,
    /// written by [`GlobalWaypoints::note_iqp_slot`]); its figures are the "IQP" ones.
    pub iqp_slot: Option<LineKind>,
}

impl MapInfo {
    /// The (lap time, maximum speed) slots of the line of `kind`.
    fn figures_mut(&mut self, kind: LineKind) -> Option<(&mut Option<f64>, &mut Option<f64>)> {
        match kind {
            LineKind::Iqp => Some((&mut self.iqp_lap_time_s, &mut self.iqp_max_speed_mps)),
            LineKind::Sp => Some((&mut self.sp_lap_time_s, &mut self.sp_max_speed_mps)),
            LineKind::Mintime => None,
        }
    }

    /// The lap time of the line of `kind`, seconds.
    pub fn lap_time_s(&self, kind: LineKind) -> Option<f64> {
        match kind {
            LineKind::Iqp => self.iqp_lap_time_s,
            LineKind::Sp => self.sp_lap_time_s,
            LineKind::Mintime => None,
        }
    }

    /// The maximum speed of the line of `kind`, m/s.
    pub fn max_speed_mps(&self, kind: LineKind) -> Option<f64> {
        match kind {
            LineKind::Iqp => self.iqp_max_speed_mps,
            LineKind::Sp => self.sp_max_speed_mps,
            LineKind::Mintime => None,
        }
    }

    /// Parses `map_info_str`, accepting "SP" and the older "Shortest Path" wording.
    pub fn parse(text: &str) -> Self {
        let mut info = MapInfo::default();
        for part in text.split(';') {
            let Some((label, value)) = part.split_once(':') else {
                continue;
            };
            let label = label.trim();
            let value = value.trim();
            if label == IQP_SLOT_LABEL {
                info.iqp_slot = value
                    .split_once(RACING_LINE_FLAG)
                    .and_then(|(_, rest)| rest.split(|c: char| !c.is_alphanumeric()).next())
                    .and_then(LineKind::from_name);
                continue;
            }
            let number = value
                .strip_suffix("m/s")
                .or_else(|| value.strip_suffix('s'))
                .unwrap_or(value)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite());
            let line = match label.split_once(' ') {
                Some((head, rest)) => LineKind::ALL
                    .into_iter()
                    .find(|k| k.label() == head)
                    .map(|k| (k, rest)),
                None => None,
            };
            let Some((kind, what)) = line.or_else(|| {
                label
                    .strip_prefix("Shortest Path ")
                    .map(|rest| (LineKind::Sp, rest))
            }) else {
                continue;
            };
            let Some((lap, vmax)) = info.figures_mut(kind) else {
                continue;
            };
            let slot = match what.trim() {
                "estimated lap time" => lap,
                "maximum speed" => vmax,
                _ => continue,
            };
            *slot = number;
        }
        info
    }

    /// The part of `map_info_str` that says the IQP slot holds the line of `kind`:
    /// `IQP slot: Min-time line (mapzoo --racing-line mintime); `.
    pub fn iqp_slot_text(kind: LineKind) -> String {
        format!(
            "{IQP_SLOT_LABEL}: {} line (mapzoo {RACING_LINE_FLAG}{}); ",
            kind.label(),
            kind.name()
        )
    }

    /// The text the current Race Stack writes: per line its lap time and maximum speed,
    /// 4 decimals, each part ending in `"; "`.
    pub fn to_text(lines: &[LineParts]) -> String {
        let mut text = String::new();
        for l in lines {
            let label = l.kind.label();
            text.push_str(&format!(
                "{label} estimated lap time: {:.4}s; {label} maximum speed: {:.4}m/s; ",
                l.lap_time_s, l.max_speed_mps
            ));
        }
        text
    }
}

/// `map_info_str` with each figure printed as the writer of `flavor` prints it: ROS 1
/// (the MapZoo dataset) `{:.4}`, ROS 2 (the Race Stack's `f"{round(x, 4)}"`) the same
/// digits without trailing zeros (`9.669`, `10.0`). Parts that are not `label: <number><unit>`
/// are kept as they are.
pub fn map_info_in(text: &str, flavor: Flavor) -> String {
    let mut out = String::with_capacity(text.len());
    for part in text.split_inclusive(';') {
        let Some((label, rest)) = part.split_once(": ") else {
            out.push_str(part);
            continue;
        };
        let body = rest.strip_suffix(';').unwrap_or(rest);
        let unit = if body.ends_with("m/s") { "m/s" } else { "s" };
        let number = body.strip_suffix(unit).and_then(|n| n.parse::<f64>().ok());
        let Some(v) = number.filter(|v| v.is_finite()) else {
            out.push_str(part);
            continue;
        };
        out.push_str(label);
        out.push_str(": ");
        out.push_str(&figure_in(v, flavor));
        out.push_str(unit);
        if rest.ends_with(';') {
            out.push(';');
        }
    }
    out
}

/// One figure of `map_info_str` in `flavor` (see [`map_info_in`]).
pub fn figure_in(v: f64, flavor: Flavor) -> String {
    let fixed = format!("{v:.4}");
    match flavor {
        Flavor::Ros1 => fixed,
        // Python's repr(round(v, 4)): the 4-decimal digits read back, shortest form.
        Flavor::Ros2 => pyfmt::float_repr(fixed.parse::<f64>().unwrap_or(v)),
    }
}

/// One racing line of a fresh `global_waypoints.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct LineParts {
    /// Which line.
    pub kind: LineKind,
    /// Its trajectory, closed (last = first).
    pub wpnts: Vec<Waypoint>,
    /// Lap time, seconds.
    pub lap_time_s: f64,
    /// Maximum speed, m/s.
    pub max_speed_mps: f64,
}

/// Everything needed to build a fresh `global_waypoints.json`.
#[derive(Debug, Clone, Default)]
pub struct GlobalParts {
    /// Centerline waypoints (vx, ax = 0).
    pub centerline: Vec<Waypoint>,
    /// The racing lines, in [`LineKind::ALL`] order; the [`LineKind::EST_LAP`] line's lap time
    /// is also written as `est_lap_time`.
    pub lines: Vec<LineParts>,
    /// Right track bound points (x, y), metres; may be empty.
    pub right_bound: Vec<[f64; 2]>,
    /// Left track bound points (x, y), metres; may be empty.
    pub left_bound: Vec<[f64; 2]>,
}

/// A whole `global_waypoints.json`, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalWaypoints {
    /// The `map_info_str.data` text, kept verbatim.
    pub map_info_str: String,
    /// The figures parsed from [`Self::map_info_str`].
    pub map_info: MapInfo,
    /// `est_lap_time.data`, seconds; absent in older files.
    pub est_lap_time: Option<f64>,
    /// Blue spheres, one per centerline waypoint.
    pub centerline_markers: MarkerArray,
    /// Centerline waypoints.
    pub centerline: WpntArray,
    /// Red cylinders, one per IQP waypoint, height v/v_max.
    pub iqp_markers: MarkerArray,
    /// IQP trajectory.
    pub iqp: WpntArray,
    /// Yellow cylinders, one per SP waypoint.
    pub sp_markers: MarkerArray,
    /// SP (shortest path) trajectory.
    pub sp: WpntArray,
    /// Spheres on the right bound, then on the left bound.
    pub trackbounds_markers: MarkerArray,
    /// Top-level keys this crate does not know, kept in order and written after the known ones.
    pub extra: Vec<(String, serde_json::Value)>,
}

/// Cylinders of a trajectory: height and z-centre from v / v_max (v_max = the trajectory's own maximum).
pub fn trajectory_markers(wpnts: &[Waypoint], color: ColorRgba) -> MarkerArray {
    let vmax = wpnts
        .iter()
        .map(|w| w.vx_mps)
        .fold(f64::NEG_INFINITY, f64::max);
    let markers = wpnts
        .iter()
        .enumerate()
        .map(|(i, w)| {
            // A standing trajectory (v_max = 0) gets flat markers, not 0/0.
            let h = if vmax > 0.0 { w.vx_mps / vmax } else { 0.0 };
            Marker::new(
                i as i64,
                MARKER_CYLINDER,
                Point3 {
                    x: w.x_m,
                    y: w.y_m,
                    z: h / 2.0,
                },
                Point3 {
                    x: CYLINDER_DIAMETER,
                    y: CYLINDER_DIAMETER,
                    z: h,
                },
                color,
            )
        })
        .collect();
    MarkerArray { markers }
}

/// Spheres of a centerline, one per waypoint.
pub fn centerline_markers(wpnts: &[Waypoint]) -> MarkerArray {
    MarkerArray {
        markers: wpnts
            .iter()
            .enumerate()
            .map(|(i, w)| Marker::sphere(i as i64, w.x_m, w.y_m, CENTERLINE_COLOR))
            .collect(),
    }
}

/// Bound spheres: right points first, then left, ids running on across both.
pub fn trackbounds_markers(right: &[[f64; 2]], left: &[[f64; 2]]) -> MarkerArray {
    let right = right.iter().map(|p| (p, RIGHT_BOUND_COLOR));
    let left = left.iter().map(|p| (p, LEFT_BOUND_COLOR));
    MarkerArray {
        markers: right
            .chain(left)
            .enumerate()
            .map(|(i, (p, c))| Marker::sphere(i as i64, p[0], p[1], c))
            .collect(),
    }
}

impl GlobalWaypoints {
    /// Builds a fresh file: markers generated as DESIGN §2.3 says, `map_info_str`
    /// with 4 decimals, `est_lap_time` = the SP lap time, waypoint headers `seq` 1.
    /// A kind missing from `parts.lines` gets empty arrays.
    pub fn build(mut parts: GlobalParts) -> Self {
        // only the Race Stack's lines go into the file
        parts.lines.retain(|l| l.kind.in_global_waypoints());
        let map_info_str = MapInfo::to_text(&parts.lines);
        let est_lap_time = parts
            .lines
            .iter()
            .find(|l| l.kind == LineKind::EST_LAP)
            .map(|l| l.lap_time_s);
        let mut g = GlobalWaypoints {
            map_info: MapInfo::parse(&map_info_str),
            map_info_str,
            est_lap_time,
            centerline_markers: centerline_markers(&parts.centerline),
            centerline: WpntArray::new(parts.centerline),
            iqp_markers: MarkerArray::default(),
            iqp: WpntArray::new(Vec::new()),
            sp_markers: MarkerArray::default(),
            sp: WpntArray::new(Vec::new()),
            trackbounds_markers: trackbounds_markers(&parts.right_bound, &parts.left_bound),
            extra: Vec::new(),
        };
        for line in parts.lines {
            if let Some((markers, wpnts)) = g.line_mut(line.kind) {
                *markers = trajectory_markers(&line.wpnts, line.kind.color());
                *wpnts = WpntArray::new(line.wpnts);
            }
        }
        g
    }

    /// The flavour the file was written in: the centerline array's header decides (ROS 2:
    /// no `seq`, stamp `{sec, nanosec}`).
    pub fn flavor(&self) -> Flavor {
        self.centerline.header.flavor()
    }

    /// Rewrites the file in `flavor`: every header and marker lifetime (ROS 2: no `seq`,
    /// `{sec, nanosec}`; ROS 1: `seq` 0 in markers and 1 in waypoint arrays where it had
    /// none, `{secs, nsecs}`), and the figures of `map_info_str` as that flavour's writer
    /// prints them (ROS 1 as the MapZoo dataset: 4 decimals; ROS 2 as the Race Stack's
    /// `round(x, 4)`: no trailing zeros). Waypoints and positions are untouched.
    pub fn set_flavor(&mut self, flavor: Flavor) {
        let wpnt_arrays = [&mut self.centerline, &mut self.iqp, &mut self.sp];
        for arr in wpnt_arrays {
            arr.header.set_flavor(flavor, 1);
        }
        let marker_arrays = [
            &mut self.centerline_markers,
            &mut self.iqp_markers,
            &mut self.sp_markers,
            &mut self.trackbounds_markers,
        ];
        for arr in marker_arrays {
            for m in &mut arr.markers {
                m.header.set_flavor(flavor, 0);
                m.lifetime.flavor = flavor;
            }
        }
        self.map_info_str = map_info_in(&self.map_info_str, flavor);
        self.map_info = MapInfo::parse(&self.map_info_str);
    }

    /// Marks the IQP slot as holding the line of `kind` instead of the IQP line (mapzoo
    /// `--racing-line`): `map_info_str` gains [`MapInfo::iqp_slot_text`] and
    /// [`Self::map_info`] says it. Nothing for [`LineKind::Iqp`].
    pub fn note_iqp_slot(&mut self, kind: LineKind) {
        if kind == LineKind::Iqp {
            return;
        }
        self.map_info_str.push_str(&MapInfo::iqp_slot_text(kind));
        self.map_info = MapInfo::parse(&self.map_info_str);
    }

    /// The marker and waypoint arrays of one racing line (`None` for a line the file does
    /// not carry, see [`LineKind::in_global_waypoints`]).
    pub fn line(&self, kind: LineKind) -> Option<(&MarkerArray, &WpntArray)> {
        match kind {
            LineKind::Iqp => Some((&self.iqp_markers, &self.iqp)),
            LineKind::Sp => Some((&self.sp_markers, &self.sp)),
            LineKind::Mintime => None,
        }
    }

    /// The marker and waypoint arrays of one racing line, mutable (`None` as in [`Self::line`]).
    pub fn line_mut(&mut self, kind: LineKind) -> Option<(&mut MarkerArray, &mut WpntArray)> {
        match kind {
            LineKind::Iqp => Some((&mut self.iqp_markers, &mut self.iqp)),
            LineKind::Sp => Some((&mut self.sp_markers, &mut self.sp)),
            LineKind::Mintime => None,
        }
    }

    /// Right-bound points (x, y) in metres: the bound markers with the right-bound colour.
    pub fn right_bound(&self) -> Vec<[f64; 2]> {
        self.bound_points(RIGHT_BOUND_COLOR)
    }

    /// Left-bound points (x, y) in metres: the bound markers with the left-bound colour.
    pub fn left_bound(&self) -> Vec<[f64; 2]> {
        self.bound_points(LEFT_BOUND_COLOR)
    }

    fn bound_points(&self, color: ColorRgba) -> Vec<[f64; 2]> {
        self.trackbounds_markers
            .markers
            .iter()
            .filter(|m| m.color == color)
            .map(|m| [m.pose.position.x, m.pose.position.y])
            .collect()
    }

    /// Reads and parses a `global_waypoints.json`.
    pub fn read(path: &Path) -> Result<Self> {
        let text = crate::input_file::read_text_file(
            path,
            crate::input_file::MAX_JSON_BYTES,
            "global_waypoints.json",
        )?;
        Self::from_json_str(&text, path)
    }

    /// Parses JSON text; `path` is used in messages only.
    pub fn from_json_str(text: &str, path: &Path) -> Result<Self> {
        crate::nesting::check_nesting(text, crate::nesting::Syntax::Json, path)?;
        // Fast path: one typed pass over a file with exactly the known keys.
        // Anything else (unknown keys, errors) takes the slow path below,
        // which keeps extra keys and says which entry is wrong.
        if let Ok(d) = serde_json::from_str::<Direct>(text) {
            return Ok(d.into_global());
        }
        let top: TopLevel =
            serde_json::from_str(text).map_err(|e| json_syntax_error(text, &e, path))?;
        let mut map_info_str = None;
        let mut est_lap_time = None;
        let mut centerline_markers = None;
        let mut centerline = None;
        let mut lines: Vec<(Option<MarkerArray>, Option<WpntArray>)> =
            LineKind::ALL.iter().map(|_| (None, None)).collect();
        let mut trackbounds_markers = None;
        let mut extra = Vec::new();
        for (key, raw) in top.0 {
            let raw = raw.get();
            if let Some(i) = LineKind::ALL.iter().position(|l| l.markers_key() == key) {
                lines[i].0 = Some(parse_markers(raw, &key, path)?);
                continue;
            }
            if let Some(i) = LineKind::ALL.iter().position(|l| l.wpnts_key() == key) {
                lines[i].1 = Some(parse_wpnts(raw, &key, path)?);
                continue;
            }
            match key.as_str() {
                "map_info_str" => {
                    map_info_str = Some(parse_part::<StringMsg>(raw, &key, path)?.data)
                }
                "est_lap_time" => {
                    let v = parse_part::<FloatMsg>(raw, &key, path)?.data;
                    est_lap_time = Some(v);
                }
                "centerline_markers" => centerline_markers = Some(parse_markers(raw, &key, path)?),
                "centerline_waypoints" => centerline = Some(parse_wpnts(raw, &key, path)?),
                "trackbounds_markers" => {
                    trackbounds_markers = Some(parse_markers(raw, &key, path)?)
                }
                _ => {
                    let v: serde_json::Value = parse_part(raw, &key, path)?;
                    extra.push((key, v));
                }
            }
        }
        let need = |key: &str| {
            FormatError::missing_field(
                path,
                key,
                format!(
                    "missing key \"{key}\"; a Race Stack global_waypoints.json has {}",
                    KEYS.join(", ")
                ),
            )
        };
        let map_info_str = map_info_str.ok_or_else(|| need("map_info_str"))?;
        let centerline_markers = centerline_markers.ok_or_else(|| need("centerline_markers"))?;
        let centerline = centerline.ok_or_else(|| need("centerline_waypoints"))?;
        let mut g = GlobalWaypoints {
            map_info: MapInfo::parse(&map_info_str),
            map_info_str,
            est_lap_time,
            centerline_markers,
            centerline,
            iqp_markers: MarkerArray::default(),
            iqp: WpntArray::default(),
            sp_markers: MarkerArray::default(),
            sp: WpntArray::default(),
            trackbounds_markers: MarkerArray::default(),
            extra,
        };
        // a missing key is reported in the Race Stack's key order
        for (kind, (markers, wpnts)) in LineKind::ALL.into_iter().zip(lines) {
            let markers = markers.ok_or_else(|| need(kind.markers_key()))?;
            let wpnts = wpnts.ok_or_else(|| need(kind.wpnts_key()))?;
            if let Some((m, w)) = g.line_mut(kind) {
                *m = markers;
                *w = wpnts;
            }
        }
        g.trackbounds_markers = trackbounds_markers.ok_or_else(|| need("trackbounds_markers"))?;
        Ok(g)
    }

    /// The JSON text, exactly as the Race Stack's `json.dumps` writes it.
    /// Fails (naming the entry) if any number is not finite.
    pub fn to_json_string(&self, path: &Path) -> Result<String> {
        self.check_finite(path)?;
        pyfmt::to_py_json_string(&SerView(self))
            .map_err(|e| FormatError::invalid(path, format!("could not encode JSON: {e}")))
    }

    /// Writes the file (see [`Self::to_json_string`]).
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = self.to_json_string(path)?;
        crate::atomic::write_file(path, text.as_bytes())
    }

    /// The waypoint arrays with their JSON keys: the centerline, then each racing line.
    pub fn waypoint_arrays(&self) -> Vec<(&'static str, &WpntArray)> {
        let mut arrays = vec![("centerline_waypoints", &self.centerline)];
        arrays.extend(
            LineKind::ALL
                .into_iter()
                .filter_map(|k| self.line(k).map(|(_, w)| (k.wpnts_key(), w))),
        );
        arrays
    }

    /// The marker arrays with their JSON keys: centerline, each racing line, track bounds.
    pub fn marker_arrays(&self) -> Vec<(&'static str, &MarkerArray)> {
        let mut arrays = vec![("centerline_markers", &self.centerline_markers)];
        arrays.extend(
            LineKind::ALL
                .into_iter()
                .filter_map(|k| self.line(k).map(|(m, _)| (k.markers_key(), m))),
        );
        arrays.push(("trackbounds_markers", &self.trackbounds_markers));
        arrays
    }

    /// Errors on the first non-finite number, naming the key, index and field.
    pub fn check_finite(&self, path: &Path) -> Result<()> {
        if let Some(v) = self.est_lap_time.filter(|v| !v.is_finite()) {
            return Err(FormatError::bad_value(
                path,
                "est_lap_time",
                None,
                format!("\"est_lap_time\" is {v}, not a finite number"),
            ));
        }
        for (key, arr) in self.waypoint_arrays() {
            for (i, w) in arr.wpnts.iter().enumerate() {
                if let Some(k) = w.values().iter().position(|v| !v.is_finite()) {
                    return Err(FormatError::bad_value(
                        path,
                        key,
                        None,
                        format!(
                            "\"{key}\" waypoint {i}: \"{}\" is {}, not a finite number",
                            CSV_COLUMNS[k + 1],
                            w.values()[k]
                        ),
                    ));
                }
            }
        }
        for (key, arr) in self.marker_arrays() {
            for (i, m) in arr.markers.iter().enumerate() {
                let p = m.pose.position;
                let o = m.pose.orientation;
                let (s, c) = (m.scale, m.color);
                let all = [
                    p.x, p.y, p.z, o.x, o.y, o.z, o.w, s.x, s.y, s.z, c.r, c.g, c.b, c.a,
                ];
                let inner = m
                    .points
                    .iter()
                    .flat_map(|q| [q.x, q.y, q.z])
                    .chain(m.colors.iter().flat_map(|q| [q.r, q.g, q.b, q.a]));
                if all.iter().copied().chain(inner).any(|v| !v.is_finite()) {
                    return Err(FormatError::bad_value(
                        path,
                        key,
                        None,
                        format!(
                            "\"{key}\" marker {i}: a pose, scale or colour value is not finite"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Serialises the struct in the Race Stack's key order.
struct SerView<'a>(&'a GlobalWaypoints);

impl Serialize for SerView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let g = self.0;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(
            "map_info_str",
            &StringMsg {
                data: g.map_info_str.clone(),
            },
        )?;
        if let Some(t) = g.est_lap_time {
            map.serialize_entry("est_lap_time", &FloatMsg { data: t })?;
        }
        map.serialize_entry("centerline_markers", &g.centerline_markers)?;
        map.serialize_entry("centerline_waypoints", &g.centerline)?;
        for kind in LineKind::ALL {
            if let Some((markers, wpnts)) = g.line(kind) {
                map.serialize_entry(kind.markers_key(), markers)?;
                map.serialize_entry(kind.wpnts_key(), wpnts)?;
            }
        }
        map.serialize_entry("trackbounds_markers", &g.trackbounds_markers)?;
        for (k, v) in &g.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The file with exactly the known keys, for the fast path of `from_json_str`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Direct {
    map_info_str: StringMsg,
    #[serde(default)]
    est_lap_time: Option<FloatMsg>,
    centerline_markers: MarkerArray,
    centerline_waypoints: WpntArray,
    global_traj_markers_iqp: MarkerArray,
    global_traj_wpnts_iqp: WpntArray,
    global_traj_markers_sp: MarkerArray,
    global_traj_wpnts_sp: WpntArray,
    trackbounds_markers: MarkerArray,
}

impl Direct {
    /// The file read in one typed pass as the set's global waypoints (no extra keys).
    fn into_global(self) -> GlobalWaypoints {
        GlobalWaypoints {
            map_info: MapInfo::parse(&self.map_info_str.data),
            map_info_str: self.map_info_str.data,
            est_lap_time: self.est_lap_time.map(|m| m.data),
            centerline_markers: self.centerline_markers,
            centerline: self.centerline_waypoints,
            iqp_markers: self.global_traj_markers_iqp,
            iqp: self.global_traj_wpnts_iqp,
            sp_markers: self.global_traj_markers_sp,
            sp: self.global_traj_wpnts_sp,
            trackbounds_markers: self.trackbounds_markers,
            extra: Vec::new(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct StringMsg {
    data: String,
}

#[derive(Serialize, Deserialize)]
struct FloatMsg {
    data: f64,
}

/// The top-level object as (key, unparsed value) pairs, in file order.
struct TopLevel(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopLevel;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object with the keys of global_waypoints.json")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<TopLevel, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Box<RawValue>>()? {
                    out.push((k, v));
                }
                Ok(TopLevel(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Deserialize)]
struct RawMarkerArray {
    markers: Vec<Box<RawValue>>,
}

#[derive(Deserialize)]
struct RawWpntArray {
    header: Header,
    wpnts: Vec<Box<RawValue>>,
}

fn parse_part<T: for<'de> Deserialize<'de>>(raw: &str, key: &str, path: &Path) -> Result<T> {
    serde_json::from_str(raw).map_err(|e| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!("key \"{key}\": {}", strip_position(&e)),
        )
    })
}

fn parse_markers(raw: &str, key: &str, path: &Path) -> Result<MarkerArray> {
    let arr: RawMarkerArray = parse_part(raw, key, path)?;
    let mut markers = Vec::with_capacity(arr.markers.len());
    for (i, m) in arr.markers.iter().enumerate() {
        markers.push(serde_json::from_str(m.get()).map_err(|e| {
            FormatError::bad_value(
                path,
                key,
                None,
                format!("key \"{key}\", marker {i}: {}", strip_position(&e)),
            )
        })?);
    }
    Ok(MarkerArray { markers })
}

fn parse_wpnts(raw: &str, key: &str, path: &Path) -> Result<WpntArray> {
    let arr: RawWpntArray = parse_part(raw, key, path)?;
    let mut wpnts = Vec::with_capacity(arr.wpnts.len());
    for (i, w) in arr.wpnts.iter().enumerate() {
        wpnts.push(serde_json::from_str(w.get()).map_err(|e| {
            FormatError::bad_value(
                path,
                key,
                None,
                format!("key \"{key}\", waypoint {i}: {}", strip_position(&e)),
            )
        })?);
    }
    Ok(WpntArray {
        header: arr.header,
        wpnts,
    })
}

/// serde_json's message without its "at line 1 column N" (positions inside a fragment mislead).
fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// A syntax error message that says where in the file, which entry, and what is there.
fn json_syntax_error(text: &str, e: &serde_json::Error, path: &Path) -> FormatError {
    let offset = line_col_to_offset(text, e.line(), e.column());
    let before = &text[..offset.min(text.len())];
    let key = KEYS
        .iter()
        .filter_map(|k| before.rfind(&format!("\"{k}\"")).map(|p| (p, *k)))
        .max_by_key(|(p, _)| *p)
        .map(|(_, k)| k);
    // A cut inside a number or a key reads as a syntax error at the very end.
    let at_end = offset + 2 >= text.trim_end().len() && !text.trim_end().ends_with('}');
    let truncated = matches!(e.classify(), serde_json::error::Category::Eof)
        || (at_end && matches!(e.classify(), serde_json::error::Category::Syntax));
    let mut what = if truncated {
        format!(
            "the JSON ends early (truncated?) at line {} column {}",
            e.line(),
            e.column()
        )
    } else {
        format!("not valid JSON: {e}")
    };
    let near = {
        let lo = before.len().saturating_sub(12);
        let lo = (0..=lo)
            .rev()
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(0);
        let hi = (offset + 12).min(text.len());
        let hi = (hi..=text.len())
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(text.len());
        &text[lo..hi]
    };
    if near.contains("NaN") || near.contains("Infinity") {
        what = format!(
            "a non-finite number (NaN or Infinity) at line {} column {}; every value must be a real number",
            e.line(),
            e.column()
        );
    }
    if let Some(k) = key {
        what.push_str(&format!(", inside \"{k}\""));
        if let Some(p) = before.rfind("\"id\": ") {
            let id: String = before[p + 6..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if !id.is_empty() {
                what.push_str(&format!(" near the entry with id {id}"));
            }
        }
    }
    FormatError::syntax(path, Some(e.line()), Some(e.column()), what)
}

fn line_col_to_offset(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let mut o = offset + col.saturating_sub(1);
            while o > 0 && !text.is_char_boundary(o.min(text.len())) {
                o -= 1;
            }
            return o.min(text.len());
        }
        offset += l.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_info_parses_both_wordings() {
        let new = MapInfo::parse("IQP estimated lap time: 18.5875s; IQP maximum speed: 12.5381m/s; SP estimated lap time: 20.5395s; SP maximum speed: 12.5212m/s; ");
        assert_eq!(new.iqp_lap_time_s, Some(18.5875));
        assert_eq!(new.iqp_max_speed_mps, Some(12.5381));
        assert_eq!(new.sp_lap_time_s, Some(20.5395));
        assert_eq!(new.sp_max_speed_mps, Some(12.5212));
        let old = MapInfo::parse("IQP estimated lap time: 3.8264s; IQP maximum speed: 5.9557m/s; Shortest Path estimated lap time: 4.1177s; Shortest Path maximum speed: 5.7266m/s; ");
        assert_eq!(old.sp_lap_time_s, Some(4.1177));
        assert_eq!(old.sp_max_speed_mps, Some(5.7266));
        assert_eq!(MapInfo::parse("garbage"), MapInfo::default());
        let line = |kind, lap_time_s, max_speed_mps| LineParts {
            kind,
            wpnts: Vec::new(),
            lap_time_s,
            max_speed_mps,
        };
        assert_eq!(
            MapInfo::to_text(&[
                line(LineKind::Iqp, 18.58749, 12.53812),
                line(LineKind::Sp, 20.539466068312272, 12.52119)
            ]),
            "IQP estimated lap time: 18.5875s; IQP maximum speed: 12.5381m/s; SP estimated lap time: 20.5395s; SP maximum speed: 12.5212m/s; "
        );
    }

    /// ROS 2 prints the figures as Python's `f"{round(x, 4)}"`; converting back gives 4 decimals.
    #[test]
    fn map_info_figures_follow_the_flavour() {
        assert_eq!(figure_in(9.668970483429684, Flavor::Ros2), "9.669");
        assert_eq!(figure_in(9.668970483429684, Flavor::Ros1), "9.6690");
        assert_eq!(figure_in(10.00001, Flavor::Ros2), "10.0");
        assert_eq!(figure_in(5.82099, Flavor::Ros2), "5.821");
        let ros1 = "IQP estimated lap time: 9.5544s; IQP maximum speed: 11.1678m/s; SP estimated lap time: 9.6690s; SP maximum speed: 11.1853m/s; ";
        let ros2 = map_info_in(ros1, Flavor::Ros2);
        assert_eq!(ros2, ros1.replace("9.6690s", "9.669s"));
        assert_eq!(map_info_in(&ros2, Flavor::Ros1), ros1);
        assert_eq!(MapInfo::parse(&ros2), MapInfo::parse(ros1));
        // text that is not a figure stays
        assert_eq!(
            map_info_in("garbage; a: b;", Flavor::Ros2),
            "garbage; a: b;"
        );
        for k in 0..2000 {
            let v = 0.37 * k as f64 + 1e-5 * (k % 7) as f64;
            let back: f64 = figure_in(v, Flavor::Ros2).parse().unwrap();
            assert_eq!(format!("{back:.4}"), figure_in(v, Flavor::Ros1), "{v}");
        }
    }

    /// The IQP-slot note reads back as the line it names, in both flavours, and leaves the
    /// figures alone; an IQP line in its own slot adds nothing.
    #[test]
    fn iqp_slot_note_reads_back() {
        let text = "IQP estimated lap time: 10.4886s; IQP maximum speed: 11.2943m/s; \
                    SP estimated lap time: 11.7476s; SP maximum speed: 11.1451m/s; ";
        let plain = MapInfo::parse(text);
        assert_eq!(plain.iqp_slot, None);
        for kind in [LineKind::Mintime, LineKind::Sp] {
            let noted = format!("{text}{}", MapInfo::iqp_slot_text(kind));
            for flavor in [Flavor::Ros1, Flavor::Ros2] {
                let info = MapInfo::parse(&map_info_in(&noted, flavor));
                assert_eq!(info.iqp_slot, Some(kind), "{noted}");
                assert_eq!(info.iqp_lap_time_s, Some(10.4886));
                assert_eq!(info.sp_lap_time_s, Some(11.7476));
            }
        }
        let mut g = GlobalWaypoints::build(GlobalParts {
            centerline: Vec::new(),
            lines: Vec::new(),
            right_bound: Vec::new(),
            left_bound: Vec::new(),
        });
        let before = g.map_info_str.clone();
        g.note_iqp_slot(LineKind::Iqp);
        assert_eq!(g.map_info_str, before);
        g.note_iqp_slot(LineKind::Mintime);
        assert_eq!(g.map_info.iqp_slot, Some(LineKind::Mintime));
        assert!(g.map_info_str.ends_with("(mapzoo --racing-line mintime); "));
    }

    #[test]
    fn build_generates_markers_as_specified() {
        let w = |id: i64, x: f64, v: f64| Waypoint {
            id,
            x_m: x,
            vx_mps: v,
            ..Default::default()
        };
        let parts = GlobalParts {
            centerline: vec![w(0, 0.0, 0.0), w(1, 1.0, 0.0)],
            lines: vec![
                LineParts {
                    kind: LineKind::Iqp,
                    wpnts: vec![w(0, 0.0, 2.0), w(1, 1.0, 4.0), w(2, 0.0, 2.0)],
                    lap_time_s: 1.0,
                    max_speed_mps: 4.0,
                },
                LineParts {
                    kind: LineKind::Sp,
                    wpnts: vec![w(0, 0.0, 3.0), w(1, 0.0, 3.0)],
                    lap_time_s: 2.5,
                    max_speed_mps: 3.0,
                },
            ],
            right_bound: vec![[1.0, 2.0]],
            left_bound: vec![[3.0, 4.0], [5.0, 6.0]],
        };
        let g = GlobalWaypoints::build(parts);
        assert_eq!(g.est_lap_time, Some(2.5));
        assert_eq!(g.map_info.sp_lap_time_s, Some(2.5));
        let m = &g.iqp_markers.markers[0];
        assert_eq!(m.kind, MARKER_CYLINDER);
        assert_eq!(m.scale.z, 0.5);
        assert_eq!(m.pose.position.z, 0.25);
        assert_eq!(m.color, IQP_COLOR);
        assert_eq!(g.sp_markers.markers[1].color, SP_COLOR);
        assert_eq!(g.centerline_markers.markers[1].kind, MARKER_SPHERE);
        let ids: Vec<i64> = g.trackbounds_markers.markers.iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![0, 1, 2]);
        assert_eq!(g.right_bound(), vec![[1.0, 2.0]]);
        assert_eq!(g.left_bound(), vec![[3.0, 4.0], [5.0, 6.0]]);
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        assert!(text.contains(r#""orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1}"#));
        let back = GlobalWaypoints::from_json_str(&text, Path::new("g.json")).unwrap();
        assert_eq!(back, g);
    }

    #[test]
    fn keys_follow_the_line_kinds() {
        let mut keys = vec!["map_info_str", "est_lap_time"];
        keys.extend(["centerline_markers", "centerline_waypoints"]);
        for kind in LineKind::ALL {
            keys.extend([kind.markers_key(), kind.wpnts_key()]);
            assert_eq!(
                kind.wpnts_key(),
                format!("global_traj_wpnts_{}", kind.name())
            );
            assert_eq!(
                kind.markers_key(),
                format!("global_traj_markers_{}", kind.name())
            );
        }
        keys.push("trackbounds_markers");
        assert_eq!(keys, KEYS);
    }

    #[test]
    fn missing_bounds_give_an_empty_array() {
        let g = GlobalWaypoints::build(GlobalParts::default());
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        assert!(text.ends_with(r#""trackbounds_markers": {"markers": []}}"#));
    }

    #[test]
    fn non_finite_values_are_refused_on_write() {
        let mut g = GlobalWaypoints::build(GlobalParts::default());
        g.iqp.wpnts.push(Waypoint {
            kappa_radpm: f64::NAN,
            ..Default::default()
        });
        let e = g
            .to_json_string(Path::new("g.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("global_traj_wpnts_iqp") && e.contains("kappa_radpm"),
            "{e}"
        );
    }

    #[test]
    fn syntax_errors_name_the_entry() {
        let g = GlobalWaypoints::build(GlobalParts {
            lines: vec![LineParts {
                kind: LineKind::Iqp,
                wpnts: vec![Waypoint::default(); 3],
                lap_time_s: 0.0,
                max_speed_mps: 0.0,
            }],
            ..Default::default()
        });
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        let broken = text.replacen("\"kappa_radpm\": 0.0", "\"kappa_radpm\": NaN", 2);
        let e = GlobalWaypoints::from_json_str(&broken, Path::new("g.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("non-finite") && e.contains("global_traj_wpnts_iqp"),
            "{e}"
        );
        // Cuts anywhere, inside numbers, keys or between tokens, read as truncation.
        for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
            for k in 0..6 {
                let e = GlobalWaypoints::from_json_str(&text[..cut + k], Path::new("g.json"))
                    .unwrap_err()
                    .to_string();
                assert!(e.contains("truncated"), "cut at {}: {e}", cut + k);
                if cut + k + 1 >= text.len() {
                    break;
                }
            }
        }
    }

    #[test]
    fn unknown_top_level_keys_survive() {
        let g = GlobalWaypoints::build(GlobalParts::default());
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        let with = text.replacen("{", r#"{"planner_version": {"data": "v2", "n": 1}, "#, 1);
        let back = GlobalWaypoints::from_json_str(&with, Path::new("g.json")).unwrap();
        assert_eq!(back.extra.len(), 1);
        assert_eq!(back.extra[0].0, "planner_version");
        let out = back.to_json_string(Path::new("g.json")).unwrap();
        assert!(
            out.ends_with(r#""planner_version": {"data": "v2", "n": 1}}"#),
            "{out}"
        );
    }
}
