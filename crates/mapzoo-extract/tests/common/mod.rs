//! Helpers shared by the extraction test binaries.

/// Distance from `p` to the closed polyline `line`, metres (brute force: a test reference).
pub fn dist_to_loop(line: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let n = line.len();
    (0..n)
        .map(|k| {
            let (a, b) = (line[k], line[(k + 1) % n]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a[0] + t * dx - p[0]).hypot(a[1] + t * dy - p[1])
        })
        .fold(f64::INFINITY, f64::min)
}
