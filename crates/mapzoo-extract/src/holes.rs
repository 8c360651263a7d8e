//! Stage 2, which holes can be a track's infield (issue 11: "the loop is the track, never a
//! tiny loop round an obstacle"), and the choice among equally plausible loops.
//!
//! A track's loop goes round an infield that is larger than the track is wide: a hole of the
//! free region is *small* (a speck, a table, a pillar, a letter of a label) when its longest
//! side is under a sixteenth of the region's, or shorter than the free space around it is wide
//! (the median distance from the hole's edge to the nearest other wall). A small hole never
//! becomes the infield; it stays an obstacle. A region whose holes are all small holds no
//! track loop: the opening is then retried smaller (a pinch it cut may hold the real loop),
//! and if nothing better turns up, the map is refused naming the largest small loop found.
//!
//! When two loops are about equally plausible (two regions, or two infields in one region),
//! each candidate's loop is traced; with a start pose the one nearest to it is taken. Without
//! one, a loop at least [`DOMINANT_RATIO`] times as long as every other is the race track
//! (the track is the long loop its walls are drawn around; a second loop round a room's
//! furniture, a pit building or a practice circle is much shorter), taken with a note naming
//! the others; loops of more similar lengths (two tracks, a figure eight) are refused listing
//! them (length, where).

use mapzoo_format::OccupancyMap;

use crate::cycle::skeleton_loop;
use crate::error::{ExtractError, LoopCandidate, MapPoint};
use crate::mask::{Component, Mask, NEIGHBOURS_4};
use crate::note::ExtractNote;
use crate::params::DOMINANT_RATIO;
use crate::pose::StartPose;
use crate::skeleton::cycle_length;
use crate::space::FreeSpace;

/// A hole too small to be an infield, as found (for the refusal's message).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SmallHole {
    /// Image pixel (col, row) of the middle of its bounding box.
    pub centre: (usize, usize),
    /// Width and height of its bounding box, pixels.
    pub size_px: [usize; 2],
    /// Width of the free space around it, pixels (0 when not measured).
    pub room_px: f64,
    /// Longest side of the free region around it, pixels.
    pub region_px: usize,
}

/// How many of the largest holes of a region are examined as infields.
const MAX_EXAMINED: usize = 8;

/// Longest side of a bounding box, pixels.
fn extent(bbox: &[usize; 4]) -> usize {
    (bbox[2] - bbox[0] + 1).max(bbox[3] - bbox[1] + 1)
}

/// `None` when hole `label` (4-connected labelling `labels` of the crop's complement,
/// component `hole`) can be the infield of the region `mask`, whose longest side is
/// `region_extent` pixels; otherwise what it is (module doc). `(col0, row0)` is the crop's
/// place in the image.
pub(crate) fn small_hole(
    mask: &Mask,
    labels: &[u32],
    label: u32,
    hole: &Component,
    region_extent: usize,
    origin: (usize, usize),
) -> Option<SmallHole> {
    let ext = extent(&hole.bbox);
    let found = |room_px: f64| SmallHole {
        centre: (
            origin.0 + (hole.bbox[0] + hole.bbox[2]) / 2,
            origin.1 + (hole.bbox[1] + hole.bbox[3]) / 2,
        ),
        size_px: [
            hole.bbox[2] - hole.bbox[0] + 1,
            hole.bbox[3] - hole.bbox[1] + 1,
        ],
        room_px,
        region_px: region_extent,
    };
    // Spanning half the region: an infield whatever the room around it (the common case,
    // decided without a distance transform).
    if 2 * ext >= region_extent {
        return None;
    }
    if 16 * ext < region_extent {
        return Some(found(0.0));
    }
    // The free space around the hole: distances to the nearest wall other than the hole.
    let mut open = mask.clone();
    let [c0, r0, c1, r1] = hole.bbox;
    for r in r0..=r1 {
        for c in c0..=c1 {
            let i = mask.index(c, r);
            if labels[i] == label {
                open.data[i] = true;
            }
        }
    }
    let clear = crate::leak::clearance(&open);
    drop(open);
    let mut around: Vec<f32> = Vec::new();
    for r in r0.saturating_sub(1)..=(r1 + 1).min(mask.height - 1) {
        for c in c0.saturating_sub(1)..=(c1 + 1).min(mask.width - 1) {
            let i = mask.index(c, r);
            if !mask[i] {
                continue;
            }
            if mask
                .neighbours(i, &NEIGHBOURS_4)
                .any(|q| labels[q] == label)
            {
                around.push(clear[i]);
            }
        }
    }
    if around.is_empty() {
        return None;
    }
    around.sort_by(f32::total_cmp);
    let room = around[around.len() / 2] as f64;
    ((ext as f64) < room).then(|| found(room))
}

/// The holes of a crop, largest first: the infield (the largest hole that is not small), the
/// rivals (other holes that are not small with at least half its area: a figure eight) and
/// the rest as obstacles; or, when no hole can be an infield, the largest small one (`None`
/// when there is no hole at all).
pub(crate) struct Holes {
    /// The infield.
    pub infield: Component,
    /// Other plausible infields about as large (at most 3).
    pub rivals: Vec<Component>,
    /// Every other hole, largest first (the rivals included).
    pub obstacles: Vec<Component>,
}

/// Sorts the holes of the crop `mask` (module doc); `labels`/`comps` label its complement with
/// 4-connectivity, `region_extent` is the region's longest side, `origin` the crop's place.
pub(crate) fn sort_holes(
    mask: &Mask,
    labels: &[u32],
    comps: Vec<Component>,
    region_extent: usize,
    origin: (usize, usize),
) -> Result<Holes, Option<SmallHole>> {
    let mut holes: Vec<(u32, Component)> = comps
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !c.touches_border)
        .map(|(k, c)| (k as u32 + 1, c))
        .collect();
    holes.sort_by(|a, b| b.1.area.cmp(&a.1.area).then(a.1.first.cmp(&b.1.first)));
    let mut first_small = None;
    let mut infield = None;
    for (k, (label, hole)) in holes.iter().enumerate().take(MAX_EXAMINED) {
        match small_hole(mask, labels, *label, hole, region_extent, origin) {
            None => {
                infield = Some(k);
                break;
            }
            Some(s) => {
                first_small.get_or_insert(s);
            }
        }
    }
    let Some(k) = infield else {
        return Err(first_small);
    };
    let (_, infield) = holes.remove(k);
    let rivals = holes
        .iter()
        .take_while(|(_, h)| 2 * h.area >= infield.area)
        .filter(|(label, h)| small_hole(mask, labels, *label, h, region_extent, origin).is_none())
        .map(|(_, h)| h.clone())
        .take(3)
        .collect();
    Ok(Holes {
        infield,
        rivals,
        obstacles: holes.into_iter().map(|(_, h)| h).collect(),
    })
}

/// The error for a map whose only loops circle small holes.
pub(crate) fn small_loop_error(map: &OccupancyMap, s: &SmallHole) -> ExtractError {
    let res = map.resolution;
    ExtractError::NoTrackLoop {
        at: MapPoint::of(map, s.centre.0, s.centre.1),
        size_m: [s.size_px[0] as f64 * res, s.size_px[1] as f64 * res],
        room_m: (s.room_px > 0.0).then_some(2.0 * s.room_px * res),
        region_m: s.region_px as f64 * res,
    }
}

/// The loop of each candidate (its length, world position, and distance to `start`); with a
/// start pose the candidate whose loop passes nearest to it, otherwise the one whose loop is
/// at least [`DOMINANT_RATIO`] times as long as every other (with an
/// [`ExtractNote::LoopChosen`]), otherwise [`ExtractError::Ambiguous`] listing them. Candidates without a loop are dropped; when
/// none has one the first is returned (its own error follows in the later stages).
pub(crate) fn resolve(
    map: &OccupancyMap,
    mut cands: Vec<FreeSpace>,
    two_infields: bool,
    start: Option<StartPose>,
) -> Result<FreeSpace, ExtractError> {
    let mut traced: Vec<(usize, LoopCandidate, f64)> = Vec::new();
    for (k, c) in cands.iter().enumerate() {
        let Ok(lp) = skeleton_loop(map, c, crate::thin::skeletonize(&c.mask)) else {
            continue;
        };
        let length_m = cycle_length(&lp.pixels, &c.mask) * map.resolution;
        let bb = c.infield.bbox;
        let at = MapPoint::of(
            map,
            c.col0 + (bb[0] + bb[2]) / 2,
            c.row0 + (bb[1] + bb[3]) / 2,
        );
        let near = start.map_or(f64::INFINITY, |s| {
            lp.pixels
                .iter()
                .map(|&p| {
                    let q = c.map_point(map, p);
                    (q.x - s.x).hypot(q.y - s.y)
                })
                .fold(f64::INFINITY, f64::min)
        });
        traced.push((k, LoopCandidate { length_m, at }, near));
    }
    if traced.is_empty() {
        return Ok(cands.swap_remove(0));
    }
    if traced.len() == 1 || start.is_some() {
        let best = traced
            .iter()
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .map_or(0, |t| t.0);
        return Ok(cands.swap_remove(best));
    }
    traced.sort_by(|a, b| b.1.length_m.total_cmp(&a.1.length_m));
    if traced[0].1.length_m >= DOMINANT_RATIO * traced[1].1.length_m {
        let others = traced[1..].iter().map(|t| t.1.clone()).collect();
        let (k, chosen, _) = traced.swap_remove(0);
        let mut space = cands.swap_remove(k);
        space.notes.push(ExtractNote::LoopChosen { chosen, others });
        return Ok(space);
    }
    let candidates: Vec<LoopCandidate> = traced.into_iter().map(|t| t.1).collect();
    Err(ExtractError::Ambiguous {
        why: if two_infields {
            "the track region has two infields".into()
        } else {
            "separate free regions hold a loop each".into()
        },
        candidates,
    })
}
