//! Between stages 2 and 3: the side on which the loop passes each obstacle
//! (issue 11, item 5). The shortest skeleton cycle passes an obstacle on its
//! shorter side, however narrow; a car of the safety width needs a side at
//! least that wide. So where exactly one side of an obstacle (towards the outer
//! wall or towards the infield) is narrower than
//! [`crate::ExtractParams::min_passage_m`], the loop is looked for in a copy of
//! the track region with that gap closed ([`loop_mask`]), and takes the other
//! side: the shorter of the wide-enough sides (when both are wide enough, nothing
//! changes). The walls and the obstacle itself stay as they are, so the racing
//! lines still keep clear of it. When both sides are too narrow nothing is closed
//! either: the racing-line stage then fails at the narrowest point, naming the
//! obstacle and the room on each side.
//!
//! Widths are measured as d_right + d_left are: between the centres of the free
//! boundary pixels on either side. Only the gaps to the outer wall and to the
//! infield count; a gap between two obstacles is not closed (the cleaning already
//! merges obstacles closer than its kernel).

use mapzoo_geom::{Norm, PointIndex};

use crate::mask::Mask;
use crate::space::FreeSpace;
use crate::walls::contours;

/// Bucket size of the boundary indices, pixels.
const CELL_PX: f64 = 8.0;
/// Thickness added to the bridge beyond the exact shortest gap, pixels (an 8-connected cut).
const BRIDGE_SLACK_PX: f64 = 2.0;
/// A side must be this much wider than the safety width to count, pixels: the walls are
/// polylines through the boundary pixel centres, whose diagonal steps cut up to half a
/// pixel into the gap on each side.
const POLYLINE_SLACK_PX: f64 = 1.0;

/// The room on the two sides of one obstacle, between boundary pixel centres, pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Passage {
    /// Towards the outer wall.
    pub outer: f64,
    /// Towards the infield.
    pub infield: f64,
}

/// The room on each side of every obstacle of `space` (in the order of
/// [`FreeSpace::obstacles`]), pixels.
pub fn passages(space: &FreeSpace) -> Vec<Passage> {
    let c = contours(space);
    let xy = |pix: &[usize]| -> Vec<[f64; 2]> {
        pix.iter()
            .map(|&p| {
                let (col, row) = space.mask.col_row(p);
                [col as f64, row as f64]
            })
            .collect()
    };
    let outer = PointIndex::new(xy(&c.outer), CELL_PX, Norm::Hypot);
    let infield = PointIndex::new(xy(&c.infield), CELL_PX, Norm::Hypot);
    let gap = |index: &PointIndex, pts: &[[f64; 2]]| {
        pts.iter()
            .map(|&p| index.distance(p))
            .fold(f64::INFINITY, f64::min)
    };
    c.obstacles
        .iter()
        .map(|hole| {
            let pts = xy(hole);
            Passage {
                outer: gap(&outer, &pts),
                infield: gap(&infield, &pts),
            }
        })
        .collect()
}

/// The mask of `space` (crop) with the too-narrow side of each obstacle closed where its
/// other side is wide enough, for finding the loop in (module doc); `None` when nothing is
/// closed. `min_passage_px` is the safety width in pixels (≤ 0: nothing is closed).
pub fn loop_mask(space: &FreeSpace, min_passage_px: f64) -> Option<Mask> {
    if space.obstacles.is_empty() || min_passage_px.is_nan() || min_passage_px <= 0.0 {
        return None;
    }
    let rooms = passages(space);
    let narrow: Vec<(usize, bool)> = rooms
        .iter()
        .enumerate()
        .filter_map(|(k, r)| {
            let need = min_passage_px + POLYLINE_SLACK_PX;
            let (out_ok, in_ok) = (r.outer >= need, r.infield >= need);
            // Exactly one side too narrow: close it (true: towards the outer wall).
            (out_ok != in_ok).then_some((k, in_ok))
        })
        .collect();
    if narrow.is_empty() {
        return None;
    }
    let c = contours(space);
    let mut mask = space.mask.clone();
    let width = mask.width;
    let xy = |p: usize| [(p % width) as f64, (p / width) as f64];
    let outer = PointIndex::new(
        c.outer.iter().map(|&p| xy(p)).collect(),
        CELL_PX,
        Norm::Hypot,
    );
    let infield = PointIndex::new(
        c.infield.iter().map(|&p| xy(p)).collect(),
        CELL_PX,
        Norm::Hypot,
    );
    for (k, towards_outer) in narrow {
        let (wall, gap) = if towards_outer {
            (&outer, rooms[k].outer)
        } else {
            (&infield, rooms[k].infield)
        };
        let hole_pts: Vec<[f64; 2]> = c.obstacles[k].iter().map(|&p| xy(p)).collect();
        let hole = PointIndex::new(hole_pts, CELL_PX, Norm::Hypot);
        let reach = gap + BRIDGE_SLACK_PX;
        let [c0, r0, c1, r1] = space.obstacles[k].bbox;
        let pad = reach.ceil() as usize + 1;
        let (h, w) = (mask.height, width);
        for row in r0.saturating_sub(pad)..(r1 + pad + 1).min(h) {
            for col in c0.saturating_sub(pad)..(c1 + pad + 1).min(w) {
                let i = row * w + col;
                if !mask.data[i] {
                    continue;
                }
                let p = [col as f64, row as f64];
                if hole.distance(p) + wall.distance(p) <= reach {
                    mask.data[i] = false;
                }
            }
        }
    }
    Some(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::{label_components, Component};

    /// The region of a literal mask, with its holes as [`FreeSpace`] defines them.
    fn space_of(rows: &[&str]) -> FreeSpace {
        let mask = Mask::parse(rows);
        let (_, comps) = label_components(&mask.inverted(), false);
        let mut holes: Vec<Component> = comps.into_iter().filter(|c| !c.touches_border).collect();
        holes.sort_by(|a, b| b.area.cmp(&a.area).then(a.first.cmp(&b.first)));
        let mut holes = holes.into_iter();
        let infield = holes.next().unwrap();
        FreeSpace {
            col0: 0,
            row0: 0,
            area: mask.count(),
            image_width: mask.width,
            image_height: mask.height,
            mask,
            infield,
            obstacles: holes.collect(),
            touches_border: false,
            opening_radius_px: 0,
            notes: Vec::new(),
        }
    }

    // A ring 9 pixels wide around a 6 × 4 infield; a 2 × 2 obstacle in the top stretch,
    // one free pixel from the outer wall's row and five from the infield's.
    const RING: [&str; 24] = [
        "........................",
        ".######################.",
        ".######################.",
        ".##########..##########.",
        ".##########..##########.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".#########......#######.",
        ".#########......#######.",
        ".#########......#######.",
        ".#########......#######.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        ".######################.",
        "........................",
    ];

    #[test]
    fn rooms_are_measured_between_boundary_pixel_centres() {
        let space = space_of(&RING);
        assert_eq!(space.obstacles.len(), 1);
        let rooms = passages(&space);
        // Boundary pixels: row 2 above the obstacle, row 1 along the outer wall: 1 apart;
        // row 5 below it, row 9 above the infield: 4 apart.
        assert_eq!(
            rooms,
            vec![Passage {
                outer: 1.0,
                infield: 4.0
            }]
        );
    }

    #[test]
    fn the_narrow_side_is_closed_only_when_the_other_is_wide_enough() {
        let space = space_of(&RING);
        // A car 2 pixels wide: the outer side (1) is too narrow, the infield side (4) is
        // wide enough (with the pixel of slack): the outer side is closed.
        let closed = loop_mask(&space, 2.0).expect("the outer side is closed");
        for col in 10..14 {
            for row in 1..3 {
                assert!(!closed.get(col, row), "({col}, {row}) still free");
            }
        }
        // Nothing else changes: the infield side stays open.
        for col in 10..14 {
            for row in 5..10 {
                assert!(closed.get(col, row), "({col}, {row}) closed");
            }
        }
        // Too narrow on both sides (4 < 4 + the slack), or no minimum: nothing is closed.
        assert_eq!(loop_mask(&space, 4.0), None);
        assert_eq!(loop_mask(&space, 0.0), None);
    }
}
