//! Where a wall cuts the track (issue 12: "a wall painted across the track"): a free region
//! without a hole whose two ends face each other across a wall.
//!
//! Walking through the free region (breadth-first, 8-neighbours) from the pixel farthest
//! from its first one, the two ends of a track cut by a wall are the nearest and the
//! farthest pixels; across the wall they are close in the image. Of the boundary pixels
//! within a tenth of the region's length of either end, the closest pair in the image (one
//! at each end) is straight across the wall, when it is far closer than the walk round.

use std::collections::VecDeque;

use mapzoo_format::OccupancyMap;

use crate::error::MapPoint;
use crate::mask::{label_components, Component, Mask, NEIGHBOURS_4};

/// Breadth-first walking distances (8-neighbour steps) from `from` within `mask`.
fn walk(mask: &Mask, from: usize) -> Vec<u32> {
    let mut d = vec![u32::MAX; mask.len()];
    let mut queue = VecDeque::from([from]);
    d[from] = 0;
    while let Some(p) = queue.pop_front() {
        for q in mask.set_neighbours8(p) {
            if d[q] == u32::MAX {
                d[q] = d[p] + 1;
                queue.push_back(q);
            }
        }
    }
    d
}

/// The place where a wall cuts the free component `comp` of `opened` (the opened free space
/// of `map`, image-sized), worded for a message; `None` when no thin wall separates two
/// parts of it that are far apart through the free space.
pub(crate) fn find_barrier(map: &OccupancyMap, opened: &Mask, comp: &Component) -> Option<String> {
    let (labels, _) = label_components(opened, true);
    let label = labels[comp.first];
    let [c0, r0, c1, r1] = comp.bbox;
    let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
    let mut mask = Mask::new(w, h);
    for r in 0..h {
        for c in 0..w {
            mask.data[r * w + c] = labels[(r0 + r) * opened.width + c0 + c] == label;
        }
    }
    drop(labels);
    let first = mask.ones().next()?;
    let d0 = walk(&mask, first);
    let tip = (0..mask.len())
        .filter(|&i| d0[i] != u32::MAX)
        .max_by_key(|&i| d0[i])?;
    let d = walk(&mask, tip);
    let longest = mask.ones().map(|i| d[i]).max()?;
    let boundary: Vec<usize> = mask
        .ones()
        .filter(|&i| {
            let (c, r) = mask.col_row(i);
            NEIGHBOURS_4
                .iter()
                .any(|&(dr, dc)| !mask.get(c as isize + dc, r as isize + dr))
        })
        .collect();
    // The two ends: boundary pixels within a tenth of the length of either end of the walk.
    let tenth = longest / 10;
    let near: Vec<usize> = boundary
        .iter()
        .copied()
        .filter(|&i| d[i] <= tenth)
        .collect();
    let far: Vec<usize> = boundary
        .iter()
        .copied()
        .filter(|&i| d[i] + tenth >= longest)
        .collect();
    // The closest pair of ends in the image: straight across the wall between them.
    let mut best: Option<(usize, usize, f64)> = None;
    for &p in &near {
        let (pc, pr) = mask.col_row(p);
        for &q in &far {
            let (qc, qr) = mask.col_row(q);
            let gap = (pc as f64 - qc as f64).hypot(pr as f64 - qr as f64);
            if best.is_none_or(|b| gap < b.2) {
                best = Some((p, q, gap));
            }
        }
    }
    let (p, q, gap) = best?;
    let diff = d[q] - d[p];
    if (diff as f64) < 10.0 * gap {
        return None;
    }
    let (pc, pr) = mask.col_row(p);
    let (qc, qr) = mask.col_row(q);
    let at = MapPoint::of(map, c0 + (pc + qc) / 2, r0 + (pr + qr) / 2);
    let res = map.resolution;
    Some(format!(
        "a wall about {:.0} pixels ({:.2} m) thick cuts it at {at}: the free space on its two sides is {:.1} m apart the long way round; if the track runs through there, erase that wall (make it free); if the track's infield is free and joined to the track through a gap in the inner wall, close that gap instead",
        (gap - 1.0).max(1.0),
        (gap - 1.0).max(1.0) * res,
        diff as f64 * res
    ))
}
