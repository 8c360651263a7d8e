//! Plane vectors as `[f64; 2]`, metres or pixels, and angle wrapping.

use std::f64::consts::{PI, TAU};

/// Euclidean distance.
pub(crate) fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Sum.
pub(crate) fn add(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

/// Scaled by k.
pub(crate) fn scale(a: [f64; 2], k: f64) -> [f64; 2] {
    [a[0] * k, a[1] * k]
}

/// Angle wrapped into (−π, π].
pub(crate) fn wrap_angle(a: f64) -> f64 {
    let w = a.rem_euclid(TAU);
    if w > PI {
        w - TAU
    } else {
        w
    }
}
