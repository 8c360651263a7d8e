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
