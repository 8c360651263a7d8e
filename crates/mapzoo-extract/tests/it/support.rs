//! Helpers shared by the extraction test modules.

use mapzoo_geom::{point_segment_distance, Norm};

/// Distance from `p` to the closed polyline `line`, metres (brute force: a test reference).
pub fn dist_to_loop(line: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let n = line.len();
    (0..n)
        .map(|k| point_segment_distance(p, line[k], line[(k + 1) % n], Norm::Hypot))
        .fold(f64::INFINITY, f64::min)
}
