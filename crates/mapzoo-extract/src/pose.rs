//! Where waypoint 0 of the centerline goes and which way the car drives ([`StartPose`]): the
//! user's `--start`, or the extraction's own choice.

/// A start pose: where waypoint 0 is and which way the car drives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StartPose {
    /// World x, metres.
    pub x: f64,
    /// World y, metres.
    pub y: f64,
    /// Heading, radians, 0 = +x, counter-clockwise positive.
    pub yaw: f64,
}
