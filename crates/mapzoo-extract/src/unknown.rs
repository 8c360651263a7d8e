//! Unknown space stays unknown (issue 11 item 3): a uniform grey region joined to the image
//! border that the YAML's thresholds call free.
//!
//! The ROS 2 map saver (Nav2, slam_toolbox) writes unknown space as grey 205 with
//! free_thresh 0.25, which makes it free (slam_toolbox #587, navigation2 #5278); other maps
//! use another uniform grey (e.g. 216). Such a region surrounds the walls and runs to the
//! image border, so a wall gap makes the track "leak" into it. When the extraction fails on a
//! map where one grey level, darker than the map's lightest free grey, is free and covers
//! most of the free pixels on the image border, the pixels of exactly that grey joined to
//! the border are taken as unknown and the extraction runs again, with a note.

use mapzoo_format::{Occupancy, OccupancyMap};

use crate::note::ExtractNote;

/// Fewest free border pixels of the grey for it to count as the unknown grey.
const MIN_BORDER_PIXELS: usize = 8;

/// `map` with the uniform free grey joined to the image border taken as unknown, and the
/// note saying so; `None` when there is no such grey (module doc).
pub(crate) fn border_grey_as_unknown(map: &OccupancyMap) -> Option<(OccupancyMap, ExtractNote)> {
    let (w, h) = (map.width, map.height);
    if w == 0 || h == 0 || map.gray.len() != w * h || map.free.len() != w * h {
        return None;
    }
    let border = (0..w)
        .flat_map(|c| [c, (h - 1) * w + c])
        .chain((0..h).flat_map(|r| [r * w, r * w + w - 1]));
    let mut counts = [0usize; 256];
    let mut free_on_border = 0usize;
    for i in border {
        if map.free[i] {
            counts[map.gray[i] as usize] += 1;
            free_on_border += 1;
        }
    }
    let (grey, &n) = counts.iter().enumerate().max_by_key(|(g, &n)| (n, *g))?;
    let grey = grey as u8;
    if n < MIN_BORDER_PIXELS || 2 * n < free_on_border {
        return None;
    }
    // The track's own free space is lighter: the grey is not the map's free colour.
    let mut all = [0usize; 256];
    for (&g, &f) in map.gray.iter().zip(&map.free) {
        if f {
            all[g as usize] += 1;
        }
    }
    let lighter: usize = all[grey as usize + 1..].iter().sum();
    if lighter < MIN_BORDER_PIXELS * MIN_BORDER_PIXELS {
        return None;
    }
    // Flood the grey (4-neighbours, exactly that grey, free) from the border.
    let is_grey = |i: usize| map.free[i] && map.gray[i] == grey;
    let mut unknown = vec![false; w * h];
    let mut stack: Vec<usize> = (0..w)
        .flat_map(|c| [c, (h - 1) * w + c])
        .chain((0..h).flat_map(|r| [r * w, r * w + w - 1]))
        .filter(|&i| is_grey(i))
        .collect();
    for &i in &stack {
        unknown[i] = true;
    }
    let mut count = stack.len();
    while let Some(i) = stack.pop() {
        let (c, r) = (i % w, i / w);
        let mut visit = |j: usize| {
            if !unknown[j] && is_grey(j) {
                unknown[j] = true;
                count += 1;
                stack.push(j);
            }
        };
        if c > 0 {
            visit(i - 1);
        }
        if c + 1 < w {
            visit(i + 1);
        }
        if r > 0 {
            visit(i - w);
        }
        if r + 1 < h {
            visit(i + w);
        }
    }
    let mut out = map.clone();
    for (i, &u) in unknown.iter().enumerate() {
        if u {
            out.free[i] = false;
            if let Some(o) = out.occupancy.get_mut(i) {
                *o = Occupancy::Unknown;
            }
        }
    }
    Some((
        out,
        ExtractNote::GreyIsUnknown {
            grey,
            pixels: count,
        },
    ))
}
