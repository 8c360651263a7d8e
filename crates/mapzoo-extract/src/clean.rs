//! Stage 2, cleaning (DESIGN §3.2): the morphological opening of the free
//! space and the choice of the free region that holds the track loop.
//!
//! The Race Stack opens with a 9×9 kernel twice (OpenCV: erode, erode, dilate,
//! dilate), which equals one 17×17 square opening. OpenCV pads erosions with
//! "free" and dilations with "occupied", so the image edge neither eats into a
//! track that touches it nor grows one; imageproc's distance-based `open`
//! behaves the same way, and [`open_free_naive`] spells the rule out.
//!
//! The track region is the 8-connected free component with a hole (the
//! infield) that does not touch the image border; its largest hole is the
//! infield. A holed region that touches the border is a leak.

use image::GrayImage;
use imageproc::distance_transform::Norm;

/// Square opening of a free mask (row-major, `width` × `height`) with Chebyshev radius `radius` pixels.
pub fn open_free(free: &[bool], width: usize, height: usize, radius: usize) -> Vec<bool> {
    // imageproc caps distances at width + height, so on an image with no free (or no
    // occupied) pixel a radius above that would flip it: uniform images (the input, or an
    // erosion that left nothing) are kept as they are.
    if radius == 0 || free.iter().all(|&f| f) || !free.iter().any(|&f| f) {
        return free.to_vec();
    }
    let raw: Vec<u8> = free.iter().map(|&f| if f { 255 } else { 0 }).collect();
    let Some(img) = GrayImage::from_raw(width as u32, height as u32, raw) else {
        return free.to_vec();
    };
    // Radius is validated to fit u8 (ExtractParams::validate).
    let k = radius.min(254) as u8;
    let eroded = imageproc::morphology::erode(&img, Norm::LInf, k);
    if eroded.iter().all(|&v| v == 0) {
        return vec![false; free.len()];
    }
    let opened = imageproc::morphology::dilate(&eroded, Norm::LInf, k);
    opened.into_raw().into_iter().map(|v| v != 0).collect()
}

/// Reference twin of [`open_free`]: erosion keeps a pixel when every in-image pixel
/// within the window is free (outside counts as free), dilation sets a pixel when
/// any in-image pixel within the window is set (outside counts as empty).
pub fn open_free_naive(free: &[bool], width: usize, height: usize, radius: usize) -> Vec<bool> {
    let window = |src: &[bool], all: bool| -> Vec<bool> {
        let mut out = vec![false; src.len()];
        let r = radius as i64;
        for row in 0..height as i64 {
            for col in 0..width as i64 {
                let mut acc = all;
                'win: for dr in -r..=r {
                    for dc in -r..=r {
                        let (rr, cc) = (row + dr, col + dc);
                        if rr < 0 || cc < 0 || rr >= height as i64 || cc >= width as i64 {
                            continue;
                        }
                        let v = src[rr as usize * width + cc as usize];
                        if all && !v {
                            acc = false;
                            break 'win;
                        }
                        if !all && v {
                            acc = true;
                            break 'win;
                        }
                    }
                }
                out[row as usize * width + col as usize] = acc;
            }
        }
        out
    };
    let eroded = window(free, true);
    window(&eroded, false)
}

/// One connected component of a mask.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    /// Number of pixels.
    pub area: usize,
    /// First pixel in raster order (row-major index).
    pub first: usize,
    /// Bounding box `[col_min, row_min, col_max, row_max]`, inclusive, pixels.
    pub bbox: [usize; 4],
    /// Whether the component touches the image border.
    pub touches_border: bool,
}

/// Labels the connected components of `mask` (8- or 4-connectivity), numbered in raster
/// order of their first pixel. Returns labels (0 = not in the mask, k + 1 = component k)
/// and the components. Works on runs of set pixels joined with union–find.
pub fn label_components(
    mask: &[bool],
    width: usize,
    height: usize,
    eight: bool,
) -> (Vec<u32>, Vec<Component>) {
    // Runs [start, end) of each row, and the index of each row's first run.
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            parent[a as usize] = parent[parent[a as usize] as usize];
            a = parent[a as usize];
        }
        a
    }
    let slack = eight as u32;
    let mut prev = 0..0;
    for r in 0..height {
        let row = &mask[r * width..(r + 1) * width];
        let first = runs.len();
        let mut c = 0;
        while c < width {
            if !row[c] {
                c += 1;
                continue;
            }
            let s = c;
            while c < width && row[c] {
                c += 1;
            }
            let id = runs.len() as u32;
            runs.push((r as u32, s as u32, c as u32));
            parent.push(id);
            // Join the runs of the row above that touch this one.
            for k in prev.clone() {
                let (_, ps, pe) = runs[k];
                if ps < c as u32 + slack && s as u32 <= pe - 1 + slack {
                    let (a, b) = (find(&mut parent, id), find(&mut parent, k as u32));
                    // The older run's root stays the root, so roots are first runs.
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    parent[hi as usize] = lo;
                }
            }
        }
        prev = first..runs.len();
    }
    let mut labels = vec![0u32; mask.len()];
    let mut comp_of_root = vec![u32::MAX; runs.len()];
    let mut comps: Vec<Component> = Vec::new();
    for (k, &(r, s, e)) in runs.iter().enumerate() {
        let root = find(&mut parent, k as u32) as usize;
        let (r, s, e) = (r as usize, s as usize, e as usize);
        if comp_of_root[root] == u32::MAX {
            comp_of_root[root] = comps.len() as u32;
            comps.push(Component {
                area: 0,
                first: r * width + s,
                bbox: [usize::MAX, usize::MAX, 0, 0],
                touches_border: false,
            });
        }
        let id = comp_of_root[root];
        let comp = &mut comps[id as usize];
        comp.area += e - s;
        comp.bbox[0] = comp.bbox[0].min(s);
        comp.bbox[1] = comp.bbox[1].min(r);
        comp.bbox[2] = comp.bbox[2].max(e - 1);
        comp.bbox[3] = comp.bbox[3].max(r);
        if r == 0 || s == 0 || r + 1 == height || e == width {
            comp.touches_border = true;
        }
        labels[r * width + s..r * width + e].fill(id + 1);
    }
    (labels, comps)
}

/// Reference twin of [`label_components`]: flood fill from each unlabelled pixel.
pub fn label_components_naive(
    mask: &[bool],
    width: usize,
    height: usize,
    eight: bool,
) -> (Vec<u32>, Vec<Component>) {
    let mut labels = vec![0u32; mask.len()];
    let mut comps = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || labels[start] != 0 {
            continue;
        }
        let id = comps.len() as u32 + 1;
        let mut comp = Component {
            area: 0,
            first: start,
            bbox: [usize::MAX, usize::MAX, 0, 0],
            touches_border: false,
        };
        labels[start] = id;
        stack.push(start);
        while let Some(p) = stack.pop() {
            let (r, c) = (p / width, p % width);
            comp.area += 1;
            comp.bbox[0] = comp.bbox[0].min(c);
            comp.bbox[1] = comp.bbox[1].min(r);
            comp.bbox[2] = comp.bbox[2].max(c);
            comp.bbox[3] = comp.bbox[3].max(r);
            if r == 0 || c == 0 || r + 1 == height || c + 1 == width {
                comp.touches_border = true;
            }
            for (dr, dc) in neighbours(eight) {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if rr < 0 || cc < 0 || rr >= height as isize || cc >= width as isize {
                    continue;
                }
                let q = rr as usize * width + cc as usize;
                if mask[q] && labels[q] == 0 {
                    labels[q] = id;
                    stack.push(q);
                }
            }
        }
        comps.push(comp);
    }
    (labels, comps)
}

fn neighbours(eight: bool) -> &'static [(isize, isize)] {
    if eight {
        &crate::geom::NEIGHBOURS_8
    } else {
        &crate::geom::NEIGHBOURS_4
    }
}

/// A free region cut out of the map with a one-pixel margin: its own pixels only.
#[derive(Debug, Clone)]
pub struct Region {
    /// Image column of the crop's column 0.
    pub col0: usize,
    /// Image row of the crop's row 0.
    pub row0: usize,
    /// Crop width, pixels.
    pub width: usize,
    /// Crop height, pixels.
    pub height: usize,
    /// The region's pixels in the crop, row-major.
    pub mask: Vec<bool>,
    /// Bounded 4-connected components of the complement (holes), largest first.
    pub holes: Vec<Component>,
    /// Whether the region touches the image border.
    pub touches_border: bool,
    /// Number of pixels of the region.
    pub area: usize,
}

impl Region {
    /// Cuts component `label` out of `labels` with a one-pixel margin (clipped to the image),
    /// and finds its holes.
    pub fn cut(labels: &[u32], width: usize, height: usize, label: u32, comp: &Component) -> Self {
        let col0 = comp.bbox[0].saturating_sub(1);
        let row0 = comp.bbox[1].saturating_sub(1);
        let col1 = (comp.bbox[2] + 1).min(width - 1);
        let row1 = (comp.bbox[3] + 1).min(height - 1);
        let (cw, ch) = (col1 - col0 + 1, row1 - row0 + 1);
        let mut mask = vec![false; cw * ch];
        for r in 0..ch {
            let src = &labels[(row0 + r) * width + col0..(row0 + r) * width + col0 + cw];
            for (m, &l) in mask[r * cw..(r + 1) * cw].iter_mut().zip(src) {
                *m = l == label;
            }
        }
        // Holes: complement components inside the crop that do not touch the crop's frame
        // (everything outside the crop is outside the region's bounding box, hence not a hole).
        let complement: Vec<bool> = mask.iter().map(|&m| !m).collect();
        let (_, comps) = label_components(&complement, cw, ch, false);
        let mut holes: Vec<Component> = comps.into_iter().filter(|c| !c.touches_border).collect();
        holes.sort_by(|a, b| b.area.cmp(&a.area).then(a.first.cmp(&b.first)));
        Region {
            col0,
            row0,
            width: cw,
            height: ch,
            mask,
            holes,
            touches_border: comp.touches_border,
            area: comp.area,
        }
    }

    /// Image (col, row) of crop pixel index `i`.
    pub fn image_pixel(&self, i: usize) -> (usize, usize) {
        (self.col0 + i % self.width, self.row0 + i / self.width)
    }
}

/// What the search for the track region found.
#[derive(Debug)]
pub enum TrackChoice {
    /// A holed region that does not touch the image border: the track.
    Track(Region),
    /// Only holed regions touching the image border: the best one, to locate the leak.
    Leaking(Region),
    /// No free region has a hole; the largest free region, for the message.
    NoHole(Option<Component>),
    /// Two loops are about equally plausible: (first pixel, infield pixels) of each, image
    /// coordinates (row-major index).
    Ambiguous([(usize, usize); 2]),
}

/// How many of the largest free regions are examined for holes.
const MAX_CANDIDATES: usize = 16;
/// How many holed regions are kept for the final choice.
const MAX_KEPT: usize = 4;

impl Region {
    /// The area of the hole holding image pixel (col, row), pixels; `None` when the pixel is
    /// in the region or outside every hole of it.
    pub fn hole_at(&self, col: usize, row: usize) -> Option<usize> {
        if col < self.col0 || row < self.row0 {
            return None;
        }
        let (c, r) = (col - self.col0, row - self.row0);
        if c >= self.width || r >= self.height || self.mask[r * self.width + c] {
            return None;
        }
        let mut seen = vec![false; self.mask.len()];
        let mut stack = vec![r * self.width + c];
        seen[r * self.width + c] = true;
        let mut area = 0;
        while let Some(p) = stack.pop() {
            area += 1;
            let (pr, pc) = (p / self.width, p % self.width);
            if pr == 0 || pc == 0 || pr + 1 == self.height || pc + 1 == self.width {
                return None;
            }
            for q in [p - self.width, p - 1, p + 1, p + self.width] {
                if !self.mask[q] && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        Some(area)
    }

    /// The first pixel of the region, image row-major index.
    fn first_pixel(&self, image_width: usize) -> usize {
        let i = self.mask.iter().position(|&m| m).unwrap_or(0);
        let (c, r) = self.image_pixel(i);
        r * image_width + c
    }
}

/// Chooses the free region that holds the track loop (module doc).
///
/// Among holed regions that do not touch the image border, one whose infield holds another
/// holed region with at least a quarter of its infield's area is the space around a track
/// (a walled frame around an F1TENTH-style map), not the track; of the rest the one with the
/// largest infield wins, unless the next one's infield is at least half as large.
pub fn choose_track(opened: &[bool], width: usize, height: usize) -> TrackChoice {
    let (labels, comps) = label_components(opened, width, height, true);
    let mut order: Vec<usize> = (0..comps.len()).collect();
    order.sort_by(|&a, &b| comps[b].area.cmp(&comps[a].area).then(a.cmp(&b)));
    let largest = order.first().map(|&k| comps[k].area).unwrap_or(0);
    let mut kept: Vec<Region> = Vec::new();
    let mut leaking: Option<Region> = None;
    for &k in order.iter().take(MAX_CANDIDATES) {
        let comp = &comps[k];
        // Specks left by the opening cannot hold a track loop.
        if comp.area * 100 < largest {
            break;
        }
        let region = Region::cut(&labels, width, height, k as u32 + 1, comp);
        let Some(infield) = region.holes.first() else {
            continue;
        };
        if region.touches_border {
            if leaking
                .as_ref()
                .map_or(true, |b| infield.area > b.holes[0].area)
            {
                leaking = Some(region);
            }
        } else {
            kept.push(region);
            kept.sort_by(|a, b| b.holes[0].area.cmp(&a.holes[0].area));
            kept.truncate(MAX_KEPT);
        }
    }
    drop(labels);
    let encloses = |a: &Region, b: &Region| {
        let f = b.first_pixel(width);
        4 * b.holes[0].area >= a.holes[0].area
            && a.hole_at(f % width, f / width) == Some(a.holes[0].area)
    };
    let plain: Vec<usize> = (0..kept.len())
        .filter(|&i| !(0..kept.len()).any(|j| j != i && encloses(&kept[i], &kept[j])))
        .collect();
    if plain.len() >= 2 {
        let (a, b) = (&kept[plain[0]], &kept[plain[1]]);
        if 2 * b.holes[0].area >= a.holes[0].area {
            return TrackChoice::Ambiguous([
                (a.first_pixel(width), a.holes[0].area),
                (b.first_pixel(width), b.holes[0].area),
            ]);
        }
    }
    if let Some(&i) = plain.first() {
        return TrackChoice::Track(kept.swap_remove(i));
    }
    match leaking {
        Some(r) => TrackChoice::Leaking(r),
        None => TrackChoice::NoHole(order.first().map(|&k| comps[k].clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::grid;
    use proptest::prelude::*;

    #[test]
    fn opening_removes_specks_and_keeps_wide_bands() {
        let (free, w, h) = grid(&[
            "..........",
            ".#........",
            "..........",
            "...####...",
            "...####...",
            "...####...",
            "...####...",
            "..........",
        ]);
        let out = open_free(&free, w, h, 1);
        assert!(!out[w + 1], "a lone free pixel is removed");
        assert_eq!(out, open_free_naive(&free, w, h, 1));
        assert_eq!(out.iter().filter(|&&v| v).count(), 16);
    }

    #[test]
    fn opening_does_not_erode_from_the_image_edge() {
        // A 3-pixel-wide band along the left edge survives a radius-1 opening, as in OpenCV;
        // a band of the same width one pixel in from the edge does too, a 2-pixel one does not.
        let (free, w, h) = grid(&[
            "###.......",
            "###..##...",
            "###..##...",
            "###..##...",
            "###..##...",
            "###.......",
        ]);
        let out = open_free(&free, w, h, 1);
        for r in 0..h {
            for c in 0..3 {
                assert!(out[r * w + c], "edge band pixel ({c}, {r}) kept");
            }
            assert!(!out[r * w + 5] && !out[r * w + 6], "2-wide band removed");
        }
        assert_eq!(out, open_free_naive(&free, w, h, 1));
    }

    #[test]
    fn uniform_images_open_to_themselves() {
        for v in [false, true] {
            let m = vec![v; 6];
            assert_eq!(open_free(&m, 3, 2, 8), m);
            assert_eq!(open_free_naive(&m, 3, 2, 8), m);
        }
    }

    #[test]
    fn holes_and_border_flags() {
        let (free, w, h) = grid(&[
            "..........",
            ".#######..",
            ".#.....#..",
            ".#.....#..",
            ".#######..",
            ".........#",
        ]);
        let (labels, comps) = label_components(&free, w, h, true);
        assert_eq!(comps.len(), 2);
        assert!(!comps[0].touches_border && comps[1].touches_border);
        let region = Region::cut(&labels, w, h, 1, &comps[0]);
        assert_eq!(region.holes.len(), 1);
        assert_eq!(region.holes[0].area, 10);
        match choose_track(&free, w, h) {
            TrackChoice::Track(r) => assert_eq!(r.area, 18),
            other => panic!("expected a track, got {other:?}"),
        }
    }

    proptest! {
        #[test]
        fn labelling_matches_naive(w in 1usize..30, h in 1usize..30, seed in any::<u64>(), eight in any::<bool>(), density in 1u64..5) {
            let mut s = seed | 1;
            let m: Vec<bool> = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 5 < density }).collect();
            prop_assert_eq!(label_components(&m, w, h, eight), label_components_naive(&m, w, h, eight));
        }

        #[test]
        fn opening_matches_naive(w in 1usize..24, h in 1usize..24, radius in 0usize..12, seed in any::<u64>()) {
            let mut s = seed | 1;
            let free: Vec<bool> = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 5 != 0 }).collect();
            prop_assert_eq!(open_free(&free, w, h, radius), open_free_naive(&free, w, h, radius));
        }
    }
}
