//! `global_waypoints.json`, the Race Stack's one-file form of a track set
//! (DESIGN §2.3): lap-time summary, centerline, IQP and SP trajectories, and
//! ROS visualization markers for each plus the track bounds.
//!
//! Reading accepts the older Race Stack variants (no `est_lap_time`, "Shortest
//! Path" for "SP", header `seq` 0 or 1); writing reproduces Python's
//! `json.dumps` byte for byte, so a published file read and written again is
//! unchanged.
//!
//! The module is laid out by concept: [`GlobalWaypoints`] and the parts a fresh file
//! is built from live here; [`LineKind`] (which lines, their names and keys) in
//! `line_kind`, the ROS messages in `ros_msgs`, the marker colours and generators in
//! `markers`, `map_info_str` ([`MapInfo`]) in `map_info`, the JSON text in `json`, and its
//! sections encoded ahead of the whole file ([`GlobalJsonParts`]) in `json_parts`.
//! Every item is re-exported here, so `global::X` names it.

mod json;
mod json_layout;
mod json_parts;
mod json_text;
mod line_kind;
mod map_info;
mod markers;
mod ros_msgs;

use std::path::Path;

pub use json_parts::{GlobalJsonParts, JsonSection};
pub use json_text::JsonText;
pub use line_kind::LineKind;
pub use map_info::{figure_in, map_info_in, MapInfo};
pub use markers::{
    centerline_markers, trackbounds_markers, trajectory_markers, CENTERLINE_COLOR, IQP_COLOR,
    LEFT_BOUND_COLOR, MINTIME_COLOR, RIGHT_BOUND_COLOR, SP_COLOR,
};
pub use ros_msgs::{
    ColorRgba, Header, Marker, MarkerArray, Point3, Pose, Quaternion, RosTime, WpntArray,
    MARKER_CYLINDER, MARKER_SPHERE,
};

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;
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

impl GlobalWaypoints {
    /// A file as a reader has it after the centerline: its info string, lap time, centerline
    /// and unknown keys, the line slots and bound markers still empty (the readers fill them).
    pub(super) fn read_head(
        map_info_str: String,
        est_lap_time: Option<f64>,
        centerline_markers: MarkerArray,
        centerline: WpntArray,
        extra: Vec<(String, serde_json::Value)>,
    ) -> Self {
        GlobalWaypoints {
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
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
