//! The ROS messages `global_waypoints.json` is made of, fields in message order:
//! `std_msgs/Header` with its time stamp, `geometry_msgs` points and poses,
//! `std_msgs/ColorRGBA`, `visualization_msgs/Marker(Array)` and the Race Stack's
//! `WpntArray`. Each serialises exactly as the Race Stack writes it (integral
//! floats as integers where the stack does).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::flavor::Flavor;
use crate::waypoint::Waypoint;

/// ROS `Marker.SPHERE`.
pub const MARKER_SPHERE: i32 = 2;
/// ROS `Marker.CYLINDER`.
pub const MARKER_CYLINDER: i32 = 3;

/// Diameter of centerline and bound spheres, metres.
const SPHERE_SCALE: f64 = 0.05;

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
    match as_integral(*v) {
        Some(i) => s.serialize_i64(i),
        None => s.serialize_f64(*v),
    }
}

/// `v` as the integer Python's json writes for it, when it is one (|v| < 9e15).
pub(super) fn as_integral(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
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
