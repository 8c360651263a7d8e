//! Helpers shared by the extraction test modules.

use mapzoo_format::OccupancyMap;
use mapzoo_geom::{point_segment_distance, Norm};

/// Distance from `p` to the closed polyline `line`, metres (brute force: a test reference).
pub fn dist_to_loop(line: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let n = line.len();
    (0..n)
        .map(|k| point_segment_distance(p, line[k], line[(k + 1) % n], Norm::Hypot))
        .fold(f64::INFINITY, f64::min)
}

/// The part `[c0, c1) × [r0, r1)` of `map`, with the origin moved so that every kept pixel
/// keeps its world position (yaw 0).
pub fn crop(map: &OccupancyMap, c0: usize, r0: usize, c1: usize, r1: usize) -> OccupancyMap {
    let (w, h) = (c1 - c0, r1 - r0);
    fn pick<T: Clone>(
        map: &OccupancyMap,
        v: &[T],
        c0: usize,
        r0: usize,
        c1: usize,
        r1: usize,
    ) -> Vec<T> {
        (r0..r1)
            .flat_map(|r| v[r * map.width + c0..r * map.width + c1].to_vec())
            .collect()
    }
    let mut origin = map.origin;
    origin[0] += c0 as f64 * map.resolution;
    origin[1] += (map.height - r1) as f64 * map.resolution;
    OccupancyMap {
        width: w,
        height: h,
        resolution: map.resolution,
        origin,
        gray: pick(map, &map.gray, c0, r0, c1, r1),
        free: pick(map, &map.free, c0, r0, c1, r1),
        occupancy: pick(map, &map.occupancy, c0, r0, c1, r1),
        notes: Vec::new(),
    }
}

/// The bounding box of the free pixels, `[c0, r0, c1, r1]` inclusive.
pub fn free_bbox(map: &OccupancyMap) -> [usize; 4] {
    let mut b = [usize::MAX, usize::MAX, 0, 0];
    for (i, _) in map.free.iter().enumerate().filter(|(_, &f)| f) {
        let (c, r) = (i % map.width, i / map.width);
        b = [b[0].min(c), b[1].min(r), b[2].max(c), b[3].max(r)];
    }
    b
}
