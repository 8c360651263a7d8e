//! How the file draws its lines: the colour of each line and bound, and the marker
//! arrays generated from waypoints (centerline spheres, trajectory cylinders whose
//! height is v / v_max, bound spheres), as DESIGN §2.3 specifies.

use super::ros_msgs::{ColorRgba, Marker, MarkerArray, Point3, MARKER_CYLINDER};
use crate::waypoint::Waypoint;

/// Diameter of trajectory cylinders, metres.
const CYLINDER_DIAMETER: f64 = 0.1;

/// Colour of the right-bound spheres (r 0.5, b 0.5).
pub const RIGHT_BOUND_COLOR: ColorRgba = opaque(0.5, 0.0, 0.5);
/// Colour of the left-bound spheres (r 0.5, g 1.0).
pub const LEFT_BOUND_COLOR: ColorRgba = opaque(0.5, 1.0, 0.0);
/// Colour of the centerline spheres (blue).
pub const CENTERLINE_COLOR: ColorRgba = opaque(0.0, 0.0, 1.0);
/// Colour of the IQP cylinders (red).
pub const IQP_COLOR: ColorRgba = opaque(1.0, 0.0, 0.0);
/// Colour of the minimum-time line (cyan); it has no cylinders in global_waypoints.json.
pub const MINTIME_COLOR: ColorRgba = opaque(0.0, 0.8, 1.0);
/// Colour of the SP cylinders (yellow).
pub const SP_COLOR: ColorRgba = opaque(1.0, 1.0, 0.0);

/// A fully opaque colour.
const fn opaque(r: f64, g: f64, b: f64) -> ColorRgba {
    ColorRgba { r, g, b, a: 1.0 }
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
