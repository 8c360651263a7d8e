//! Stage 2, before the opening: what inside free space is noise or a drawn annotation, and
//! what is an obstacle (issue 20).
//!
//! map_server gives each pixel one of three classes: free, occupied (a wall, a cone: evidence
//! of something there) and unknown (no evidence either way). Team maps carry marks that are
//! neither walls nor cones: single unknown pixels a SLAM run left inside the driven area, a
//! one-pixel grey (often dotted) trace of the line a car drove, light-grey pencil marks. The
//! Race Stack reads every non-black pixel as free, so its planner never sees them; taken as
//! obstacles they make a 2 m track "0.2 m wide beside a 0.10 × 0.10 m obstacle".
//!
//! A *speck* is a connected (8-neighbour) group of non-free pixels that
//! - lies wholly inside free space: every pixel around it is free and it does not touch the
//!   image border,
//! - is *faint*: every pixel of it is unknown, or occupied only by a light grey (nearer the
//!   map's free grey than the opposite extreme: a threshold quirk, not ink). One occupied
//!   (dark) pixel makes the group an obstacle, whatever its size: a cone seen by a lidar is
//!   an arc one pixel thick, and at 0.1 m per pixel a small cone is one pixel,
//! - is not of a real obstacle's size: at most one pixel thick (no 2 × 2 block: a dot, a
//!   dash, a one-pixel trace), or thinner than [`MIN_REAL_M`] (the largest square inside
//!   it, in metres: a 2 × 2 grey blot at 0.05 m per pixel, but not at 0.1),
//! - encloses nothing, or is the trace of a lap driven round a wall: a ring (even one
//!   pixel thick) may be a drawn wall and stays, unless it goes round an occupied pixel (an
//!   infield's wall) and the free space outside it is closed off from the image border (by
//!   the outer wall), as a line driven round a walled track is.
//!
//! Specks are taken as free (the Race Stack's reading, and what the map means) and the
//! extraction's note says how many pixels, how many specks and where
//! ([`crate::ExtractNote::NoiseIgnored`]). Anything else that is not free stays what the map
//! says: an occupied pixel, a real-sized unknown blob, a ring, anything joined to a wall.

use mapzoo_format::{Occupancy, OccupancyMap};

use crate::mask::{label_components, Component, Mask, NEIGHBOURS_4};

/// Smallest side of a real obstacle, metres: a faint group thinner than this (the largest
/// square that fits inside it) is noise. The smallest cones of 1:10 races are about 0.15 m.
pub(crate) const MIN_REAL_M: f64 = 0.15;

/// One speck taken as free: its pixels (image row-major indices, raster order) and box.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Speck {
    /// Its pixels, row-major image indices, in raster order.
    pub pixels: Vec<usize>,
    /// Bounding box `[col_min, row_min, col_max, row_max]`, inclusive, pixels.
    pub bbox: [usize; 4],
}

/// `map` with its specks (module doc) taken as free, and the specks; `None` when it has none.
pub(crate) fn drop_specks(map: &OccupancyMap) -> Option<(OccupancyMap, Vec<Speck>)> {
    let (w, h) = (map.width, map.height);
    let n = w * h;
    if w == 0 || h == 0 || map.free.len() != n || map.gray.len() != n || map.occupancy.len() != n {
        return None;
    }
    let faint = faint_pixels(map)?;
    let blocked = Mask {
        width: w,
        height: h,
        data: map.free.iter().map(|&f| !f).collect(),
    };
    let (labels, comps) = label_components(&blocked, true);
    // The free regions, to tell whether the free space outside a ring reaches the border:
    // labelled when the first ring round a wall asks.
    let free_regions = std::cell::OnceCell::new();
    let free_regions = || free_regions.get_or_init(|| label_components(&blocked.inverted(), true));
    // Components with a pixel that is not faint are obstacles (or walls).
    let mut all_faint = vec![true; comps.len()];
    for (&l, &f) in labels.iter().zip(&faint) {
        if l != 0 && !f {
            all_faint[l as usize - 1] = false;
        }
    }
    let mut specks = Vec::new();
    for (k, comp) in comps.iter().enumerate() {
        if comp.touches_border || !all_faint[k] {
            continue;
        }
        let label = k as u32 + 1;
        let local = crop(&labels, w, label, comp);
        let thick = thickness(&local);
        if thick > 1 && thick as f64 * map.resolution >= MIN_REAL_M - 1e-9 {
            continue;
        }
        if let Some(inside) = enclosed(&local) {
            let [c0, r0, ..] = comp.bbox;
            let image = |i: usize| {
                let (c, r) = local.col_row(i);
                (r0 + r - 1) * w + c0 + c - 1
            };
            // Round a wall: an occupied pixel inside it (ring pixels themselves are faint).
            let round_wall = inside.ones().any(|i| {
                let p = image(i);
                !map.free[p] && !faint[p]
            });
            if !round_wall {
                continue;
            }
            // Outside it, free space closed off from the image border: the free region of
            // the first free pixel next to it (every pixel next to a speck is free).
            let outside_closed = (0..local.len())
                .find(|&i| {
                    !local[i] && !inside[i] && local.neighbours(i, &NEIGHBOURS_4).any(|q| local[q])
                })
                .map(|i| {
                    let (free_labels, free_comps) = free_regions();
                    let l = free_labels[image(i)];
                    l != 0 && !free_comps[l as usize - 1].touches_border
                })
                .unwrap_or(false);
            if !outside_closed {
                continue;
            }
        }
        let [c0, r0, ..] = comp.bbox;
        let pixels = local
            .ones()
            .map(|i| {
                let (c, r) = local.col_row(i);
                (r0 + r - 1) * w + c0 + c - 1
            })
            .collect();
        specks.push(Speck {
            pixels,
            bbox: comp.bbox,
        });
    }
    if specks.is_empty() {
        return None;
    }
    let mut out = map.clone();
    for s in &specks {
        for &i in &s.pixels {
            out.free[i] = true;
            out.occupancy[i] = Occupancy::Free;
        }
    }
    Some((out, specks))
}

/// Which pixels are faint (module doc): unknown, or occupied in a grey nearer the mean grey
/// of the free pixels than the opposite extreme (a negated map's free grey is dark, so its
/// light marks are dark too). `None` when nothing is free.
fn faint_pixels(map: &OccupancyMap) -> Option<Vec<bool>> {
    let (sum, count) = map
        .gray
        .iter()
        .zip(&map.free)
        .filter(|(_, &f)| f)
        .fold((0u64, 0u64), |(s, c), (&g, _)| (s + g as u64, c + 1));
    if count == 0 {
        return None;
    }
    let free_grey = (sum / count) as i32;
    // The same rule as a match on the class, written as comparisons without branches so
    // that it runs on vectors.
    Some(
        map.occupancy
            .iter()
            .zip(&map.gray)
            .map(|(&o, &g)| {
                (o == Occupancy::Unknown)
                    | ((o == Occupancy::Occupied) & ((g as i32 - free_grey).abs() < 128))
            })
            .collect(),
    )
}

/// Component `label` of `labels` (an image `width` wide) in its bounding box with a margin
/// of one unset pixel on every side.
fn crop(labels: &[u32], width: usize, label: u32, comp: &Component) -> Mask {
    let [c0, r0, c1, r1] = comp.bbox;
    let (cw, ch) = (c1 - c0 + 3, r1 - r0 + 3);
    let mut m = Mask::new(cw, ch);
    for r in r0..=r1 {
        for c in c0..=c1 {
            if labels[r * width + c] == label {
                let i = m.index(c - c0 + 1, r - r0 + 1);
                m.data[i] = true;
            }
        }
    }
    m
}

/// Side of the largest square of set pixels in `m`, pixels.
fn thickness(m: &Mask) -> usize {
    // side[c] of the previous row: the largest square with its bottom-right corner there.
    let mut prev = vec![0usize; m.width + 1];
    let mut cur = vec![0usize; m.width + 1];
    let mut best = 0;
    for r in 0..m.height {
        for c in 0..m.width {
            cur[c + 1] = if m.data[r * m.width + c] {
                1 + prev[c].min(prev[c + 1]).min(cur[c])
            } else {
                0
            };
            best = best.max(cur[c + 1]);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    best
}

/// The unset pixels of `m` (which has an unset frame) that its set pixels enclose (not
/// 4-connected to the frame); `None` when there is none.
fn enclosed(m: &Mask) -> Option<Mask> {
    let mut seen = vec![false; m.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(p) = stack.pop() {
        for q in m.neighbours(p, &NEIGHBOURS_4) {
            if !m[q] && !seen[q] {
                seen[q] = true;
                stack.push(q);
            }
        }
    }
    let data: Vec<bool> = (0..m.len()).map(|i| !m[i] && !seen[i]).collect();
    let inside = Mask::from_vec(m.width, m.height, data)?;
    inside.any().then_some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mapzoo_format::FreeRule;
    use mapzoo_format::MapMeta;

    /// A literal map at `res` m/px: `.` free (254), `u` unknown grey (205), `l` light grey
    /// (180, occupied under the low occupied_thresh 0.25), `#` black; free_thresh 0.196.
    fn literal(rows: &[&str], res: f64) -> OccupancyMap {
        let (w, h) = (rows[0].len(), rows.len());
        let gray = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'.' => 254,
                b'u' => 205,
                b'l' => 180,
                _ => 0,
            })
            .collect();
        let meta = MapMeta {
            image: "m.png".into(),
            resolution: res,
            origin: [0.0; 3],
            negate: 0,
            occupied_thresh: 0.25,
            free_thresh: 0.196,
            mode: None,
        };
        OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::MapServer)
    }

    fn dropped(rows: &[&str], res: f64) -> usize {
        drop_specks(&literal(rows, res)).map_or(0, |(_, s)| s.iter().map(|s| s.pixels.len()).sum())
    }

    #[test]
    fn lone_faint_pixels_and_one_pixel_traces_are_specks() {
        let rows = [
            "..........",
            ".u....l...",
            "..........",
            "...u.u.u..",
            "....u.....",
            "..........",
        ];
        for res in [0.05, 0.1] {
            let (map, specks) = drop_specks(&literal(&rows, res)).expect("specks");
            assert_eq!(specks.iter().map(|s| s.pixels.len()).sum::<usize>(), 6);
            assert!(map.free.iter().all(|&f| f));
            assert!(map.occupancy.iter().all(|&o| o == Occupancy::Free));
        }
    }

    #[test]
    fn occupied_pixels_rings_border_groups_and_real_blobs_stay() {
        // A black pixel, a faint group with one black pixel, a one-pixel ring, a faint pixel
        // on the border, a 3×3 unknown blob: none is a speck at 0.05 m/px.
        let rows = [
            "u.............",
            "..#...uu#.....",
            "..............",
            "..uuu....uuu..",
            "..u.u....uuu..",
            "..uuu....uuu..",
            "..............",
        ];
        assert_eq!(dropped(&rows, 0.05), 0);
        // A 2×2 unknown blot is 0.1 m at 0.05 m/px (noise) but 0.2 m at 0.1 m/px (kept).
        let blot = ["......", "..uu..", "..uu..", "......"];
        assert_eq!(dropped(&blot, 0.05), 4);
        assert_eq!(dropped(&blot, 0.1), 0);
    }

    #[test]
    fn a_ring_round_a_wall_inside_walls_is_a_driven_lap() {
        // A one-pixel unknown ring round an occupied infield, inside an outer wall: the trace
        // of a lap. Without the outer wall (free space to the border) it may be a drawn wall,
        // and so may a ring round free space only.
        let lap = [
            "############",
            "#..........#",
            "#.uuuuuuuu.#",
            "#.u......u.#",
            "#.u.####.u.#",
            "#.u......u.#",
            "#.uuuuuuuu.#",
            "#..........#",
            "############",
        ];
        assert_eq!(dropped(&lap, 0.1), 22);
        let open: Vec<String> = lap[1..8].iter().map(|r| r.replace('#', ".")).collect();
        let mut open: Vec<String> = open.iter().map(|r| format!(".{r}.")).collect();
        open[3] = "...u.####.u...".into();
        let refs: Vec<&str> = open.iter().map(|r| r.as_str()).collect();
        assert_eq!(dropped(&refs, 0.1), 0);
        let empty: Vec<String> = lap.iter().map(|r| r.replace("####", "....")).collect();
        let mut empty = empty;
        empty[0] = "############".into();
        empty[8] = "############".into();
        let refs: Vec<&str> = empty.iter().map(|r| r.as_str()).collect();
        assert_eq!(dropped(&refs, 0.1), 0);
    }

    #[test]
    fn thickness_is_the_largest_square() {
        let m = Mask::parse(&["##..", "###.", ".###", "..##"]);
        assert_eq!(thickness(&m), 2);
        assert_eq!(thickness(&Mask::parse(&["#.#", ".#.", "#.#"])), 1);
        assert_eq!(thickness(&Mask::new(3, 3)), 0);
    }
}
