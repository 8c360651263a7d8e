//! Where a wall cuts the track (issue 12: "a wall painted across the track"): a free region
//! without a hole whose two ends face each other across a thin wall.
//!
//! Walking through the free region (breadth-first, 8-neighbours) from the pixel farthest
//! from its first one, the two ends of a track cut by a wall are the nearest and the
//! farthest pixels; across the wall they are a few pixels apart in the image. The pair of
//! boundary pixels at most [`MAX_THICKNESS`] pixels apart whose walking distances differ
//! most is that place, when the difference is most of the region's length.

use std::collections::VecDeque;

use mapzoo_format::OccupancyMap;

use crate::clean::{label_components, Component};
use crate::error::MapPoint;
use crate::mask::{Mask, NEIGHBOURS_4};

/// Thickest wall looked across, pixels.
const MAX_THICKNESS: isize = 20;

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
    // Pairs across a wall: (walking difference, p, q, distance in the image).
    let mut pairs: Vec<(u32, usize, usize, f64)> = Vec::new();
    let mut top = 0u32;
    for &p in &boundary {
        let (c, r) = mask.col_row(p);
        for dr in -MAX_THICKNESS..=MAX_THICKNESS {
            for dc in -MAX_THICKNESS..=MAX_THICKNESS {
                let (cc, rr) = (c as isize + dc, r as isize + dr);
                if !mask.get(cc, rr) {
                    continue;
                }
                let q = mask.index(cc as usize, rr as usize);
                let gap = ((dr * dr + dc * dc) as f64).sqrt();
                // Only the far side's pairs that could be the wall: most of the way round.
                if d[q] <= d[p] || gap > MAX_THICKNESS as f64 || 2 * (d[q] - d[p]) < longest {
                    continue;
                }
                top = top.max(d[q] - d[p]);
                pairs.push((d[q] - d[p], p, q, gap));
            }
        }
    }
    // Of the pairs about as far apart the long way round as the farthest, the closest in
    // the image: straight across the wall, not across its rounded corners.
    let slack = 2 * MAX_THICKNESS as u32 + 2;
    let (diff, p, q, gap) = pairs
        .into_iter()
        .filter(|t| t.0 + slack >= top)
        .min_by(|a, b| a.3.total_cmp(&b.3).then(b.0.cmp(&a.0)))?;
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
