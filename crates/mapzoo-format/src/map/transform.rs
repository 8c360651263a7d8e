//! The pixel ↔ world transform of a map-server map: row 0 at the top of the image,
//! the origin at the bottom-left pixel, rotated by the origin's yaw.

/// World (x, y) of pixel (col, row) of an image with `height` rows, map origin `origin`.
///
/// x = origin_x + c·res, y = origin_y + (H − 1 − r)·res, rotated by the origin yaw
/// about the origin when it is non-zero.
pub fn pixel_to_world(
    origin: [f64; 3],
    resolution: f64,
    height: usize,
    col: f64,
    row: f64,
) -> (f64, f64) {
    let lx = col * resolution;
    let ly = (height as f64 - 1.0 - row) * resolution;
    let (s, c) = origin[2].sin_cos();
    (origin[0] + c * lx - s * ly, origin[1] + s * lx + c * ly)
}

/// Fractional pixel (col, row) of world (x, y); inverse of [`pixel_to_world`].
pub fn world_to_pixel(
    origin: [f64; 3],
    resolution: f64,
    height: usize,
    x: f64,
    y: f64,
) -> (f64, f64) {
    let (dx, dy) = (x - origin[0], y - origin[1]);
    let (s, c) = origin[2].sin_cos();
    let lx = c * dx + s * dy;
    let ly = -s * dx + c * dy;
    (lx / resolution, height as f64 - 1.0 - ly / resolution)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_world_round_trip_and_convention() {
        let origin = [-11.6, -26.5, 0.0];
        let (x, y) = pixel_to_world(origin, 0.05, 600, 0.0, 599.0);
        assert!((x - -11.6).abs() < 1e-12 && (y - -26.5).abs() < 1e-12);
        let (x, y) = pixel_to_world(origin, 0.05, 600, 10.0, 0.0);
        assert!((x - (-11.6 + 0.5)).abs() < 1e-12 && (y - (-26.5 + 599.0 * 0.05)).abs() < 1e-9);
        for yaw in [0.0, 0.3, -2.0] {
            let o = [1.0, 2.0, yaw];
            let (x, y) = pixel_to_world(o, 0.1, 50, 12.5, 7.25);
            let (c, r) = world_to_pixel(o, 0.1, 50, x, y);
            assert!((c - 12.5).abs() < 1e-9 && (r - 7.25).abs() < 1e-9);
        }
    }
}
