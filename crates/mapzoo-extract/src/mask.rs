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
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.data
            .iter()
            .enumerate()
            .filter_map(|(i, &v)| v.then_some(i))
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
