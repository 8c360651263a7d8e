//! Stage 2's result (DESIGN §3.2): the free region that holds the track loop, cut out of the
//! map with its infield and obstacles ([`FreeSpace`]), and where its pixels are on the map.
//! `clean` makes it; the later stages read it.

use mapzoo_format::OccupancyMap;

use crate::error::MapPoint;
use crate::mask::{Component, Mask, NEIGHBOURS_4};

/// The cleaned free component that holds the track loop, cut out of the map with a
/// one-pixel margin, with its infield and obstacles named (stage 2's result).
#[derive(Debug, Clone)]
pub struct FreeSpace {
    /// Image column of the crop's column 0.
    pub col0: usize,
    /// Image row of the crop's row 0.
    pub row0: usize,
    /// The component's pixels in the crop.
    pub mask: Mask,
    /// The infield: the largest bounded 4-connected hole of the component that is not small
    /// (crop indices).
    pub infield: Component,
    /// The other holes (obstacles on the track), largest first (crop indices).
    pub obstacles: Vec<Component>,
    /// Whether the component touches the image border (the border is then a wall, unless the
    /// free space escapes through a wall gap: a leak).
    pub touches_border: bool,
    /// Number of pixels of the component.
    pub area: usize,
    /// Width of the whole map image, pixels.
    pub image_width: usize,
    /// Height of the whole map image, pixels.
    pub image_height: usize,
    /// Chebyshev radius of the opening that was used, pixels (smaller than asked when shrunk).
    pub opening_radius_px: usize,
    /// What choosing this region assumed (one loop taken among several because it dominates).
    pub notes: Vec<crate::ExtractNote>,
}

impl FreeSpace {
    /// Image (col, row) of crop pixel index `i`.
    pub fn image_pixel(&self, i: usize) -> (usize, usize) {
        let (c, r) = self.mask.col_row(i);
        (self.col0 + c, self.row0 + r)
    }

    /// Crop pixel `i` with its world position in `map`, for messages.
    pub fn map_point(&self, map: &OccupancyMap, i: usize) -> MapPoint {
        let (c, r) = self.image_pixel(i);
        MapPoint::of(map, c, r)
    }

    /// Whether crop pixel `i` lies on the border of the map image.
    pub fn on_image_border(&self, i: usize) -> bool {
        let (c, r) = self.image_pixel(i);
        c == 0 || r == 0 || c + 1 == self.image_width || r + 1 == self.image_height
    }

    /// The component as a mask of the whole image (the cleaned track-only free space).
    pub fn image_mask(&self) -> Mask {
        let mut out = Mask::new(self.image_width, self.image_height);
        for i in self.mask.ones() {
            let (c, r) = self.image_pixel(i);
            out.data[r * self.image_width + c] = true;
        }
        out
    }

    /// The area of the hole holding image pixel (col, row), pixels; `None` when the pixel is
    /// in the region or outside every hole of it.
    pub fn hole_at(&self, col: usize, row: usize) -> Option<usize> {
        if col < self.col0 || row < self.row0 {
            return None;
        }
        let (c, r) = ((col - self.col0) as isize, (row - self.row0) as isize);
        if !self.mask.contains(c, r) || self.mask.get(c, r) {
            return None;
        }
        let start = self.mask.index(c as usize, r as usize);
        let mut seen = vec![false; self.mask.len()];
        let mut stack = vec![start];
        seen[start] = true;
        let mut area = 0;
        while let Some(p) = stack.pop() {
            area += 1;
            if self.mask.on_frame(p) {
                return None;
            }
            for q in self.mask.neighbours(p, &NEIGHBOURS_4) {
                if !self.mask[q] && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        Some(area)
    }

    /// The first pixel of the region, image row-major index.
    pub(crate) fn first_pixel(&self) -> usize {
        let i = self.mask.ones().next().unwrap_or(0);
        let (c, r) = self.image_pixel(i);
        r * self.image_width + c
    }
}
