//! Unknown space stays unknown (issue 11 item 3): a uniform grey region joined to the image
//! border that the YAML's thresholds call free.
//!
//! The ROS 2 map saver (Nav2, slam_toolbox) writes unknown space as grey 205 with
//! free_thresh 0.25, which makes it free (slam_toolbox #587, navigation2 #5278); other maps
//! use another uniform grey (e.g. 216). Such a region surrounds the walls and runs to the
//! image border, so a wall gap makes the track "leak" into it, or a loop goes round the
//! outer wall through it. When one grey level of at most 240, darker than the map's track
//! (at least 64 free pixels, and a hundredth of its own count, are lighter), is free and
//! covers most of the free pixels on the image border, it is the map's unknown grey: every free pixel of exactly
//! that grey is taken as unknown (not free), with a note. The infield of a SLAM map is
//! unknown in the same grey without touching the border, hence every pixel of it.

use mapzoo_format::{Occupancy, OccupancyMap};

use crate::note::ExtractNote;

/// Fewest free border pixels of the grey for it to count as the unknown grey.
const MIN_BORDER_PIXELS: usize = 8;
/// Lightest grey that can be an unknown grey (lighter is the white of free space).
const MAX_UNKNOWN_GREY: u8 = 240;

/// `map` with the free pixels of the uniform grey that is its unknown space (module doc)
/// taken as unknown, and the note saying so; `None` when there is no such grey.
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
    // A grey, not the white of free space (254, 255 or a near-white anti-aliasing level).
    if n < MIN_BORDER_PIXELS || 2 * n < free_on_border || grey > MAX_UNKNOWN_GREY {
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
    if lighter < (MIN_BORDER_PIXELS * MIN_BORDER_PIXELS).max(all[grey as usize] / 100) {
        return None;
    }
    let unknown: Vec<bool> = map
        .gray
        .iter()
        .zip(&map.free)
        .map(|(&g, &f)| f && g == grey)
        .collect();
    let count = all[grey as usize];
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
