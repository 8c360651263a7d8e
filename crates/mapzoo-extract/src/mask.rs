//! The binary image every extraction stage works on (DESIGN §3.2–3.6): a
//! row-major grid of booleans with its size, pixel addressing and neighbours.
//!
//! Pixels are addressed either by (col, row), col from the left and row from
//! the top as in the image file, or by their row-major index
//! `row · width + col`; outside the grid every pixel reads as unset.

use std::ops::{Index, IndexMut};

/// The eight neighbours (d_row, d_col) of a pixel, row by row from the top left.
///
/// The order matters to the skeleton's lookup tables (bit k of a neighbour
/// code is entry k), so every stage uses this one table.
pub(crate) const NEIGHBOURS_8: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The four edge neighbours (d_row, d_col) of a pixel, in the order of [`NEIGHBOURS_8`].
pub(crate) const NEIGHBOURS_4: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// A `width` × `height` binary image, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    /// Columns, pixels.
    pub width: usize,
    /// Rows, pixels.
    pub height: usize,
    /// One value per pixel, row-major (`row · width + col`).
    pub data: Vec<bool>,
}

impl Mask {
    /// An all-unset mask of `width` × `height` pixels.
    pub fn new(width: usize, height: usize) -> Self {
        Mask::filled(width, height, false)
    }

    /// A mask of `width` × `height` pixels, every one `value`.
    pub fn filled(width: usize, height: usize, value: bool) -> Self {
        Mask {
            width,
            height,
            data: vec![value; width * height],
        }
    }

    /// Wraps row-major `data`; `None` unless it holds `width` × `height` values.
    pub fn from_vec(width: usize, height: usize, data: Vec<bool>) -> Option<Self> {
        (data.len() == width * height).then_some(Mask {
            width,
            height,
            data,
        })
    }

    /// Number of pixels.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the mask has no pixel at all.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Row-major index of pixel (col, row).
    pub fn index(&self, col: usize, row: usize) -> usize {
        row * self.width + col
    }

    /// (col, row) of row-major index `i`.
    pub fn col_row(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// Pixel (col, row); unset outside the mask.
    pub fn get(&self, col: isize, row: isize) -> bool {
        self.contains(col, row) && self.data[row as usize * self.width + col as usize]
    }

    /// Whether (col, row) lies inside the grid.
    pub fn contains(&self, col: isize, row: isize) -> bool {
        col >= 0 && row >= 0 && (col as usize) < self.width && (row as usize) < self.height
    }

    /// Whether pixel `i` lies on the grid's outermost frame.
    pub fn on_frame(&self, i: usize) -> bool {
        let (c, r) = self.col_row(i);
        c == 0 || r == 0 || c + 1 == self.width || r + 1 == self.height
    }

    /// Row-major indices of the in-grid neighbours of pixel `i`, in the order of `steps`
    /// ([`NEIGHBOURS_8`] or [`NEIGHBOURS_4`]), set or not.
    pub(crate) fn neighbours<'a>(
        &'a self,
        i: usize,
        steps: &'a [(isize, isize)],
    ) -> impl Iterator<Item = usize> + 'a {
        let (c, r) = self.col_row(i);
        let (c, r) = (c as isize, r as isize);
        steps.iter().filter_map(move |&(dr, dc)| {
            let (cc, rr) = (c + dc, r + dr);
            self.contains(cc, rr)
                .then(|| rr as usize * self.width + cc as usize)
        })
    }

    /// Row-major indices of the set pixels among the 8 neighbours of pixel `i`.
    pub fn set_neighbours8(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours(i, &NEIGHBOURS_8).filter(|&j| self.data[j])
    }

    /// Row-major indices of the set pixels, in raster order.
    ///
    /// Blocks of 64 pixels are tested whole first (an OR without early exit, which runs on
    /// vectors), so a sparse mask (a skeleton) costs little more than a pass over its bytes.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.data
            .chunks(64)
            .enumerate()
            .filter(|(_, block)| block.iter().fold(false, |any, &v| any | v))
            .flat_map(|(k, block)| {
                block
                    .iter()
                    .enumerate()
                    .filter_map(move |(j, &v)| v.then_some(64 * k + j))
            })
    }

    /// Number of set pixels.
    pub fn count(&self) -> usize {
        self.data.iter().filter(|&&v| v).count()
    }

    /// Whether any pixel is set.
    pub fn any(&self) -> bool {
        self.data.iter().any(|&v| v)
    }

    /// The complement: set where this mask is unset.
    pub fn inverted(&self) -> Mask {
        Mask {
            width: self.width,
            height: self.height,
            data: self.data.iter().map(|&v| !v).collect(),
        }
    }

    /// Row `row` of the mask.
    pub fn row(&self, row: usize) -> &[bool] {
        &self.data[row * self.width..(row + 1) * self.width]
    }

    /// A literal test image: `#` is set, anything else unset; one string per row.
    #[cfg(test)]
    pub(crate) fn parse(rows: &[&str]) -> Mask {
        Mask {
            width: rows.first().map_or(0, |r| r.len()),
            height: rows.len(),
            data: rows
                .iter()
                .flat_map(|r| r.bytes().map(|b| b == b'#'))
                .collect(),
        }
    }
}

impl Index<usize> for Mask {
    type Output = bool;
    fn index(&self, i: usize) -> &bool {
        &self.data[i]
    }
}

impl IndexMut<usize> for Mask {
    fn index_mut(&mut self, i: usize) -> &mut bool {
        &mut self.data[i]
    }
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

/// Gathers eight 0/1 bytes (little-endian in `v`) into one byte, byte k to bit k.
fn gather8(v: u64) -> u64 {
    v.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Packs one row of pixels into `out` (its `row.len().div_ceil(64)` words), column c to bit
/// c % 64 of word c / 64; bits past the row's end unset.
pub(crate) fn pack_row(row: &[bool], out: &mut [u64]) {
    for (o, chunk) in out.iter_mut().zip(row.chunks(64)) {
        let mut w = 0u64;
        let mut eights = chunk.chunks_exact(8);
        for (k, e) in eights.by_ref().enumerate() {
            let v = e
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            w |= gather8(v) << (8 * k);
        }
        let done = chunk.len() - eights.remainder().len();
        for (k, &b) in eights.remainder().iter().enumerate() {
            w |= u64::from(b) << (done + k);
        }
        *o = w;
    }
}

/// Labels the connected components of `mask` (8- or 4-connectivity), numbered in raster
/// order of their first pixel. Returns labels (0 = not in the mask, k + 1 = component k)
/// and the components. Works on runs of set pixels joined with union–find: each row is
/// packed 64 pixels to a word to find its runs a word at a time, and joined to the runs of
/// the row above that it overlaps in one merge of the two rows' runs.
pub fn label_components(mask: &Mask, eight: bool) -> (Vec<u32>, Vec<Component>) {
    label_rows(mask.width, mask.height, eight, |r, out| {
        pack_row(mask.row(r), out)
    })
}

/// [`label_components`] of the complement of `mask` (without building it).
pub(crate) fn label_complement(mask: &Mask, eight: bool) -> (Vec<u32>, Vec<Component>) {
    let width = mask.width;
    label_rows(width, mask.height, eight, |r, out| {
        pack_row(mask.row(r), out);
        for (k, w) in out.iter_mut().enumerate() {
            let valid = width - 64 * k;
            let tail = if valid >= 64 {
                u64::MAX
            } else {
                (1u64 << valid) - 1
            };
            *w = !*w & tail;
        }
    })
}

/// [`label_components`] of the `width` × `height` image whose row r `pack(r, out)` writes
/// packed into `out`.
pub(crate) fn label_rows(
    width: usize,
    height: usize,
    eight: bool,
    mut pack: impl FnMut(usize, &mut [u64]),
) -> (Vec<u32>, Vec<Component>) {
    // Runs (row, start, end) with end exclusive, in raster order.
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
    let mut packed = vec![0u64; width.div_ceil(64)];
    let mut prev = 0..0;
    for r in 0..height {
        pack(r, &mut packed);
        let first = runs.len();
        // The first run of the row above that may still touch a run of this row.
        let mut k0 = prev.start;
        let mut c = 0;
        while let Some(s) = next_bit(&packed, c, width, false) {
            let e = next_bit(&packed, s, width, true).unwrap_or(width);
            c = e;
            let (s, e) = (s as u32, e as u32);
            let id = runs.len() as u32;
            runs.push((r as u32, s, e));
            parent.push(id);
            // Join the runs of the row above that touch this one: those ending (with the
            // slack) before s touch no later run either.
            while k0 < prev.end && runs[k0].2 + slack <= s {
                k0 += 1;
            }
            let mut k = k0;
            while k < prev.end && runs[k].1 < e + slack {
                let (a, b) = (find(&mut parent, id), find(&mut parent, k as u32));
                // The older run's root stays the root, so roots are first runs.
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                parent[hi as usize] = lo;
                k += 1;
            }
        }
        prev = first..runs.len();
    }
    // Labels are written in raster order, each pixel once.
    let mut labels: Vec<u32> = Vec::with_capacity(width * height);
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
        labels.resize(r * width + s, 0);
        labels.resize(r * width + e, id + 1);
    }
    labels.resize(width * height, 0);
    (labels, comps)
}

/// The first column at or after `from` (below `width`) whose bit in the packed row `words`
/// is set (`unset`: is unset); `None` when there is none.
fn next_bit(words: &[u64], from: usize, width: usize, unset: bool) -> Option<usize> {
    let flip = if unset { u64::MAX } else { 0 };
    let mut w = from / 64;
    let mut bits = (*words.get(w)? ^ flip) & (u64::MAX << (from % 64));
    while bits == 0 {
        w += 1;
        bits = *words.get(w)? ^ flip;
    }
    let c = w * 64 + bits.trailing_zeros() as usize;
    (c < width).then_some(c)
}

#[cfg(any(test, feature = "reference"))]
/// Reference twin of [`label_components`]: flood fill from each unlabelled pixel.
pub fn label_components_naive(mask: &Mask, eight: bool) -> (Vec<u32>, Vec<Component>) {
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
            let (c, r) = mask.col_row(p);
            comp.area += 1;
            comp.bbox[0] = comp.bbox[0].min(c);
            comp.bbox[1] = comp.bbox[1].min(r);
            comp.bbox[2] = comp.bbox[2].max(c);
            comp.bbox[3] = comp.bbox[3].max(r);
            comp.touches_border |= mask.on_frame(p);
            for q in mask.neighbours(p, neighbours(eight)) {
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

/// The neighbour offsets of 8- or 4-connectivity.
#[cfg(any(test, feature = "reference"))]
fn neighbours(eight: bool) -> &'static [(isize, isize)] {
    if eight {
        &crate::mask::NEIGHBOURS_8
    } else {
        &NEIGHBOURS_4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_takes_byte_k_to_bit_k() {
        for b in 0..256u64 {
            let v = (0..8).fold(0u64, |acc, k| acc | ((b >> k) & 1) << (8 * k));
            assert_eq!(gather8(v), b);
        }
    }

    #[test]
    fn addressing_and_neighbours() {
        let m = Mask::parse(&["#..", ".#.", "..#", "#.."]);
        assert_eq!((m.width, m.height, m.count()), (3, 4, 4));
        assert_eq!(m.index(2, 1), 5);
        assert_eq!(m.col_row(5), (2, 1));
        assert!(m.get(1, 1) && !m.get(-1, 0) && !m.get(3, 0) && !m.get(0, 4));
        // Pixel (1, 1): all eight neighbours in the grid; set ones at (0, 0) and (2, 2).
        assert_eq!(m.neighbours(4, &NEIGHBOURS_8).count(), 8);
        assert_eq!(m.set_neighbours8(4).collect::<Vec<_>>(), vec![0, 8]);
        // The corner (0, 0) has three neighbours, one set.
        assert_eq!(
            m.neighbours(0, &NEIGHBOURS_8).collect::<Vec<_>>(),
            vec![1, 3, 4]
        );
        assert_eq!(
            m.neighbours(0, &NEIGHBOURS_4).collect::<Vec<_>>(),
            vec![1, 3]
        );
        assert_eq!(m.ones().collect::<Vec<_>>(), vec![0, 4, 8, 9]);
        assert!(m.on_frame(0) && m.on_frame(5) && !m.on_frame(4));
        assert_eq!(m.inverted().count(), 8);
        assert_eq!(m.row(3), &[true, false, false]);
        assert!(Mask::from_vec(2, 2, vec![true; 3]).is_none());
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn labelling_matches_naive(w in 1usize..30, h in 1usize..30, seed in any::<u64>(), eight in any::<bool>(), density in 1u64..5) {
            let mut s = seed | 1;
            let data = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 5 < density }).collect();
            let m = Mask { width: w, height: h, data };
            prop_assert_eq!(label_components(&m, eight), label_components_naive(&m, eight));
        }

        #[test]
        fn ones_are_the_set_pixels_in_order(n in 0usize..400, seed in any::<u64>(), density in 0u64..20) {
            let mut s = seed | 1;
            let data: Vec<bool> = (0..n).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 100 < density }).collect();
            let m = Mask { width: n.max(1), height: usize::from(n > 0), data };
            let want: Vec<usize> = (0..m.len()).filter(|&i| m[i]).collect();
            prop_assert_eq!(m.ones().collect::<Vec<_>>(), want);
        }

        /// Rows of several words, with long runs crossing word boundaries.
        #[test]
        fn labelling_wide_rows_matches_naive(w in 60usize..300, h in 1usize..12, seed in any::<u64>(), eight in any::<bool>(), switch in 2u64..40) {
            let mut s = seed | 1;
            let mut v = false;
            let data = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; if s % switch == 0 { v = !v; } v }).collect();
            let m = Mask { width: w, height: h, data };
            prop_assert_eq!(label_components(&m, eight), label_components_naive(&m, eight));
            prop_assert_eq!(label_complement(&m, eight), label_components_naive(&m.inverted(), eight));
        }
    }
}
