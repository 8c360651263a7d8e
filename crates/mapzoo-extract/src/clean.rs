//! Stage 2, cleaning (DESIGN §3.2): the morphological opening of the free
//! space and the choice of the free region that holds the track loop, the
//! [`FreeSpace`] that [`free_space`] returns.
//!
//! The Race Stack opens with a 9×9 kernel twice (OpenCV: erode, erode, dilate,
//! dilate), which equals one 17×17 square opening. OpenCV pads erosions with
//! "free" and dilations with "occupied", so the image edge neither eats into a
//! track that touches it nor grows one; [`open_free`] clips its windows to the
//! image to the same effect, and [`open_free_naive`] spells the rule out.
//!
//! The track region is the 8-connected free component with a hole (the
//! infield); its largest hole that is not small (`holes`: a speck, a table or a
//! pillar never is the infield) is the infield, the other holes are obstacles.
//! A region may touch the image border: the border is a wall, and `leak`
//! decides whether its free space really escapes through a wall gap.

use mapzoo_format::OccupancyMap;

use crate::bits::Bits;
use crate::error::{ExtractError, MapPoint};
use crate::holes::{resolve, small_loop_error, sort_holes, SmallHole};
use crate::mask::{label_complement, Component, Mask};
use crate::params::ExtractParams;
use crate::pose::StartPose;
use crate::space::FreeSpace;

/// Checks that `map` is usable: its sizes agree, resolution > 0, finite origin.
pub(crate) fn check_map(map: &OccupancyMap) -> Result<(), ExtractError> {
    let (width, height) = (map.width, map.height);
    if width == 0 || height == 0 || map.free.len() != width * height {
        return Err(ExtractError::BadMap {
            width,
            height,
            len: map.free.len(),
        });
    }
    let sane = map.resolution.is_finite()
        && map.resolution > 0.0
        && map.origin.iter().all(|v| v.is_finite());
    if !sane {
        return Err(ExtractError::Param {
            field: "map",
            why: format!(
                "needs a resolution > 0 and a finite origin (found {} and {:?}); fix the map YAML",
                map.resolution, map.origin
            ),
        });
    }
    Ok(())
}

/// Square opening of a free mask with Chebyshev radius `radius` pixels.
///
/// Erosion then dilation on the mask packed 64 pixels to a word ([`Bits::dilate`]: shifted
/// ORs of whole words, O(width · height · log radius / 64)). Windows are clipped to the
/// image, which is OpenCV's padding: the erosion treats outside as free, the dilation as
/// empty.
pub fn open_free(free: &Mask, radius: usize) -> Mask {
    if radius == 0 || !free.any() || free.data.iter().all(|&f| f) {
        return free.clone();
    }
    open_packed(&Bits::pack(free, true), radius).unpack(false)
}

/// [`open_free`] of the free pixels whose complement `occupied` is, packed.
fn open_packed(occupied: &Bits, radius: usize) -> Bits {
    // Erosion with outside counted free = the complement of dilating the occupied pixels.
    let mut eroded = occupied.dilate(radius);
    eroded.invert();
    eroded.dilate(radius)
}

#[cfg(any(test, feature = "reference"))]
/// Reference twin of [`open_free`]: erosion keeps a pixel when every in-image pixel
/// within the window is free (outside counts as free), dilation sets a pixel when
/// any in-image pixel within the window is set (outside counts as empty).
pub fn open_free_naive(free: &Mask, radius: usize) -> Mask {
    let window = |src: &Mask, all: bool| -> Mask {
        let mut out = Mask::new(src.width, src.height);
        let r = radius as isize;
        for i in 0..src.len() {
            let (col, row) = src.col_row(i);
            let (col, row) = (col as isize, row as isize);
            let mut acc = all;
            'win: for dr in -r..=r {
                for dc in -r..=r {
                    if !src.contains(col + dc, row + dr) {
                        continue;
                    }
                    let v = src.get(col + dc, row + dr);
                    if all != v {
                        acc = v;
                        break 'win;
                    }
                }
            }
            out[i] = acc;
        }
        out
    };
    window(&window(free, true), false)
}

impl FreeSpace {
    /// Cuts component `label` out of `labels` (the labelling of an image of `width` ×
    /// `height` pixels) with a
    /// one-pixel margin, clipped to the image, and finds its holes; `Err` when none can be
    /// an infield (with the largest small one, if any).
    fn cut(
        labels: &[u32],
        (width, height): (usize, usize),
        label: u32,
        comp: &Component,
    ) -> Result<Cut, Option<SmallHole>> {
        let col0 = comp.bbox[0].saturating_sub(1);
        let row0 = comp.bbox[1].saturating_sub(1);
        let col1 = (comp.bbox[2] + 1).min(width - 1);
        let row1 = (comp.bbox[3] + 1).min(height - 1);
        let (cw, ch) = (col1 - col0 + 1, row1 - row0 + 1);
        let mut mask = Mask::new(cw, ch);
        for r in 0..ch {
            let src = &labels[(row0 + r) * width + col0..(row0 + r) * width + col0 + cw];
            for (m, &l) in mask.data[r * cw..(r + 1) * cw].iter_mut().zip(src) {
                *m = l == label;
            }
        }
        // Holes: complement components inside the crop that do not touch the crop's frame
        // (everything outside the crop is outside the region's bounding box, hence not a hole).
        let (hole_labels, comps) = label_complement(&mask, false);
        let region_extent = (comp.bbox[2] - comp.bbox[0] + 1).max(comp.bbox[3] - comp.bbox[1] + 1);
        let holes = sort_holes(&mask, &hole_labels, comps, region_extent, (col0, row0))?;
        drop(hole_labels);
        Ok(Cut {
            space: FreeSpace {
                col0,
                row0,
                mask,
                infield: holes.infield,
                obstacles: holes.obstacles,
                touches_border: comp.touches_border,
                area: comp.area,
                image_width: width,
                image_height: height,
                opening_radius_px: 0,
                notes: Vec::new(),
            },
            rivals: holes.rivals,
        })
    }

    /// The same region with `rival` (one of its obstacles) as the infield.
    fn around(&self, rival: &Component) -> FreeSpace {
        let mut other = self.clone();
        other.obstacles.retain(|h| h != rival);
        other.obstacles.push(self.infield.clone());
        other
            .obstacles
            .sort_by(|a, b| b.area.cmp(&a.area).then(a.first.cmp(&b.first)));
        other.infield = rival.clone();
        other
    }
}

/// A region cut out with its holes sorted, and the other holes about as large as its
/// infield that could be an infield too (a figure eight).
#[derive(Debug, Clone)]
pub(crate) struct Cut {
    space: FreeSpace,
    rivals: Vec<Component>,
}

/// What the search for the track region found.
#[derive(Debug)]
pub(crate) enum TrackChoice {
    /// The holed region that holds the track (it may touch the image border: the border is
    /// a wall, unless it leaks).
    Track(Cut),
    /// No free region has a hole that can be an infield; the largest free region and the
    /// largest small hole found, for the message.
    NoHole(Option<Component>, Option<SmallHole>),
    /// Loops about equally plausible, in separate regions.
    Ambiguous(Vec<FreeSpace>),
}

/// How many of the largest free regions are examined for holes.
const MAX_CANDIDATES: usize = 16;
/// How many holed regions are kept for the final choice.
const MAX_KEPT: usize = 4;

/// Chooses the free region that holds the track loop (module doc).
///
/// Among holed regions (touching the image border or not: the border is a wall), one whose
/// infield holds another holed region with at least a quarter of its infield's area, or one
/// that spans half its infield's width and height, is the space around a track (the free
/// outside of an F1TENTH-style map, or a walled frame around it), not the track; of the rest
/// the one with the largest infield wins, unless the next one's infield is at least half as
/// large.
pub(crate) fn choose_track(opened: &Bits) -> TrackChoice {
    let (labels, comps) = opened.label(true);
    let mut order: Vec<usize> = (0..comps.len()).collect();
    order.sort_by(|&a, &b| comps[b].area.cmp(&comps[a].area).then(a.cmp(&b)));
    let largest = order.first().map(|&k| comps[k].area).unwrap_or(0);
    let mut kept: Vec<Cut> = Vec::new();
    let mut small: Option<SmallHole> = None;
    for &k in order.iter().take(MAX_CANDIDATES) {
        let comp = &comps[k];
        // Specks left by the opening cannot hold a track loop.
        if comp.area * 100 < largest {
            break;
        }
        let region = match FreeSpace::cut(&labels, opened.size(), k as u32 + 1, comp) {
            Ok(region) => region,
            Err(found) => {
                if small.is_none() {
                    small = found;
                }
                continue;
            }
        };
        kept.push(region);
        kept.sort_by_key(|r| std::cmp::Reverse(r.space.infield.area));
        kept.truncate(MAX_KEPT);
    }
    drop(labels);
    let encloses = |a: &FreeSpace, b: &FreeSpace| {
        let f = b.first_pixel();
        // `b` fills `a`'s infield: at least half its width and half its height.
        let hole = a.infield.bbox;
        let fills = 2 * b.mask.width > hole[2] - hole[0] && 2 * b.mask.height > hole[3] - hole[1];
        (4 * b.infield.area >= a.infield.area || fills)
            && a.hole_at(f % a.image_width, f / a.image_width) == Some(a.infield.area)
    };
    let plain: Vec<usize> = (0..kept.len())
        .filter(|&i| !(0..kept.len()).any(|j| j != i && encloses(&kept[i].space, &kept[j].space)))
        .collect();
    if plain.len() >= 2 {
        let first = kept[plain[0]].space.infield.area;
        let rivals: Vec<FreeSpace> = plain
            .iter()
            .filter(|&&i| 2 * kept[i].space.infield.area >= first)
            .map(|&i| kept[i].space.clone())
            .collect();
        if rivals.len() >= 2 {
            return TrackChoice::Ambiguous(rivals);
        }
    }
    if let Some(&i) = plain.first() {
        return TrackChoice::Track(kept.swap_remove(i));
    }
    TrackChoice::NoHole(order.first().map(|&k| comps[k].clone()), small)
}

/// Stage 2: opens the map's free space and cuts out the component that holds the track
/// loop, with its infield and obstacles (module doc). [`free_space_near`] without a start
/// pose: equally plausible loops are an error.
pub fn free_space(map: &OccupancyMap, params: &ExtractParams) -> Result<FreeSpace, ExtractError> {
    free_space_near(map, params, None)
}

/// Stage 2 as [`free_space`]; where two or more loops are about equally plausible (two
/// tracks, a figure eight, a maze), `start` picks the one whose loop passes nearest to it
/// (without it: [`ExtractError::Ambiguous`] lists them).
///
/// A kernel wider than a stretch of track cuts the loop; then (with
/// [`ExtractParams::shrink_opening`]) smaller ones are tried, and if none keeps a loop the
/// first failure is reported. A component that touches the image border is returned with
/// [`FreeSpace::touches_border`] set: the border is a wall, and whether the free space
/// leaks is decided once its loop is known.
pub fn free_space_near(
    map: &OccupancyMap,
    params: &ExtractParams,
    start: Option<StartPose>,
) -> Result<FreeSpace, ExtractError> {
    params.validate()?;
    check_map(map)?;
    let free = Mask {
        width: map.width,
        height: map.height,
        data: map.free.clone(),
    };
    let (choice, radius) = open_until_holed(map, &free, params)?;
    let (mut cands, two_infields) = match choice {
        TrackChoice::Track(c) => {
            let Cut { space, rivals } = c;
            let mut all: Vec<FreeSpace> = rivals.iter().map(|r| space.around(r)).collect();
            all.insert(0, space);
            (all, true)
        }
        TrackChoice::Ambiguous(all) => (all, false),
        TrackChoice::NoHole(largest, small) => {
            return Err(match small {
                Some(s) => small_loop_error(map, &s),
                None => no_hole(map, largest, None),
            })
        }
    };
    for c in &mut cands {
        c.opening_radius_px = radius;
    }
    if cands.len() == 1 {
        return Ok(cands.swap_remove(0));
    }
    resolve(map, cands, two_infields, start)
}

/// Opens `free` with the configured radius, halving it while the opening leaves no holed
/// region (module doc of [`free_space`]); the choice and the radius that gave it.
///
/// A track region that touches the image border is kept while smaller openings are tried
/// for one that does not (a narrow track inside the free outside of an F1TENTH-style map
/// needs a smaller opening to keep its loop); without one, the first border region is the
/// choice.
fn open_until_holed(
    map: &OccupancyMap,
    free: &Mask,
    params: &ExtractParams,
) -> Result<(TrackChoice, usize), ExtractError> {
    let mut radius = params.opening_radius();
    // `None` in a failure: the opening left no free pixel.
    let mut first_failure: Option<(Option<TrackChoice>, usize)> = None;
    let mut first_border: Option<(TrackChoice, usize)> = None;
    let occupied = Bits::pack(free, true);
    loop {
        let opened = open_packed(&occupied, radius);
        let choice = opened.any().then(|| choose_track(&opened));
        drop(opened);
        match choice {
            Some(TrackChoice::Track(r)) if r.space.touches_border => {
                first_border.get_or_insert((TrackChoice::Track(r), radius));
            }
            Some(TrackChoice::Track(r)) => return Ok((TrackChoice::Track(r), radius)),
            Some(TrackChoice::Ambiguous(all)) => {
                return Ok((TrackChoice::Ambiguous(all), radius));
            }
            other => {
                first_failure.get_or_insert((other, radius));
            }
        }
        if radius == 0 || !params.shrink_opening {
            if let Some(found) = first_border {
                return Ok(found);
            }
            return match first_failure.take() {
                Some((Some(TrackChoice::NoHole(Some(largest), None)), r)) => {
                    let opened = open_free(free, r);
                    let why = crate::barrier::find_barrier(map, &opened, &largest);
                    Err(no_hole(map, Some(largest), why))
                }
                Some((Some(choice), r)) => Ok((choice, r)),
                other => {
                    let r = other.map_or(radius, |f| f.1);
                    Err(no_free_space(map, r))
                }
            };
        }
        radius /= 2;
    }
}

/// The error for a map whose free space has no holed region; `largest` is its largest
/// free region.
fn no_hole(
    map: &OccupancyMap,
    largest: Option<Component>,
    barrier: Option<String>,
) -> ExtractError {
    let why = match largest {
        Some(c) if c.area == map.width * map.height => {
            "every pixel is free (a blank image?); check the image and the free-space rule"
                .to_string()
        }
        Some(c) => {
            let at = MapPoint::of(map, c.first % map.width, c.first / map.width);
            let border = if c.touches_border {
                " reaches the image border and"
            } else {
                ""
            };
            let cut = barrier.map(|b| format!("; {b}")).unwrap_or_else(|| {
                "; if the track has an infield, a wall gap joins it to the track: close the gap"
                    .to_string()
            });
            format!("the largest free region ({} pixels, from {at}){border} has no hole, so there is no infield for a loop to go around{cut}", c.area)
        }
        None => "the free space is empty".to_string(),
    };
    ExtractError::NoLoop { why }
}

/// The error for a map whose opened free space (radius `radius`) is empty: when no pixel
/// of the map is free at all, says so with the lightest grey of the image.
fn no_free_space(map: &OccupancyMap, radius: usize) -> ExtractError {
    if map.free.iter().any(|&f| f) {
        return ExtractError::NoFreeSpace {
            opening: 2 * radius + 1,
        };
    }
    ExtractError::NothingFree {
        lightest: map.gray.iter().copied().max().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::label_components;
    use proptest::prelude::*;

    #[test]
    fn opening_removes_specks_and_keeps_wide_bands() {
        let free = Mask::parse(&[
            "..........",
            ".#........",
            "..........",
            "...####...",
            "...####...",
            "...####...",
            "...####...",
            "..........",
        ]);
        let out = open_free(&free, 1);
        assert!(!out.get(1, 1), "a lone free pixel is removed");
        assert_eq!(out, open_free_naive(&free, 1));
        assert_eq!(out.count(), 16);
    }

    #[test]
    fn opening_does_not_erode_from_the_image_edge() {
        // A 3-pixel-wide band along the left edge survives a radius-1 opening, as in OpenCV;
        // a band of the same width one pixel in from the edge does too, a 2-pixel one does not.
        let free = Mask::parse(&[
            "###.......",
            "###..##...",
            "###..##...",
            "###..##...",
            "###..##...",
            "###.......",
        ]);
        let out = open_free(&free, 1);
        for r in 0..free.height as isize {
            for c in 0..3 {
                assert!(out.get(c, r), "edge band pixel ({c}, {r}) kept");
            }
            assert!(!out.get(5, r) && !out.get(6, r), "2-wide band removed");
        }
        assert_eq!(out, open_free_naive(&free, 1));
    }

    #[test]
    fn opening_of_a_corner_block_literal() {
        // A block in the image's corner survives a radius-1 opening whole (the edge counts as
        // free for the erosion, as empty for the dilation); the pixel hanging off it does not.
        let free = Mask::parse(&[
            "#####.", //
            "#####.", //
            "###...", //
            "#.....", //
            "......",
        ]);
        let want = Mask::parse(&[
            "#####.", //
            "#####.", //
            "###...", //
            "......", //
            "......",
        ]);
        assert_eq!(open_free(&free, 1), want);
        assert_eq!(open_free_naive(&free, 1), want);
    }

    #[test]
    fn uniform_images_open_to_themselves() {
        for v in [false, true] {
            let m = Mask::filled(3, 2, v);
            assert_eq!(open_free(&m, 8), m);
            assert_eq!(open_free_naive(&m, 8), m);
        }
    }

    #[test]
    fn holes_and_border_flags() {
        let free = Mask::parse(&[
            "..........",
            ".#######..",
            ".#.....#..",
            ".#.....#..",
            ".#######..",
            ".........#",
        ]);
        let (labels, comps) = label_components(&free, true);
        assert_eq!(comps.len(), 2);
        assert!(!comps[0].touches_border && comps[1].touches_border);
        let region = FreeSpace::cut(&labels, (free.width, free.height), 1, &comps[0])
            .expect("a hole")
            .space;
        assert!(region.obstacles.is_empty());
        assert_eq!(region.infield.area, 10);
        match choose_track(&Bits::pack(&free, false)) {
            TrackChoice::Track(r) => assert_eq!(r.space.area, 18),
            other => panic!("expected a track, got {other:?}"),
        }
    }

    proptest! {
        #[test]
        fn opening_matches_naive(w in 1usize..24, h in 1usize..24, radius in 0usize..30, seed in any::<u64>(), density in 1u64..10) {
            let mut s = seed | 1;
            let data = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 10 < density }).collect();
            let free = Mask { width: w, height: h, data };
            prop_assert_eq!(open_free(&free, radius), open_free_naive(&free, radius));
        }
    }
}
