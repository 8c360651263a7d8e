//! One waypoint of a centerline or trajectory: the 11 columns of DESIGN §2.2,
//! and the Race Stack `Wpnt` message fields of §2.3, in the same order.

use serde::{Deserialize, Serialize};

/// One waypoint, as in the MapZoo CSVs and the Race Stack JSON.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Waypoint {
    /// Index along the line, from 0.
    pub id: i64,
    /// Arc length from the first waypoint, metres.
    pub s_m: f64,
    /// Lateral offset from the reference line, metres (0 in MapZoo files).
    pub d_m: f64,
    /// World x, metres.
    pub x_m: f64,
    /// World y, metres.
    pub y_m: f64,
    /// Distance to the right track boundary, metres.
    pub d_right: f64,
    /// Distance to the left track boundary, metres.
    pub d_left: f64,
    /// Heading, radians, 0 = +x, counter-clockwise positive.
    pub psi_rad: f64,
    /// Signed curvature, 1/m, positive = turning left.
    pub kappa_radpm: f64,
    /// Speed, m/s.
    pub vx_mps: f64,
    /// Longitudinal acceleration, m/s².
    pub ax_mps2: f64,
}

impl Waypoint {
    /// The ten float fields in column order (all but `id`).
    pub fn values(&self) -> [f64; 10] {
        [
            self.s_m,
            self.d_m,
            self.x_m,
            self.y_m,
            self.d_right,
            self.d_left,
            self.psi_rad,
            self.kappa_radpm,
            self.vx_mps,
            self.ax_mps2,
        ]
    }
}
