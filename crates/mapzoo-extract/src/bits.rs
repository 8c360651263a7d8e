//! A binary image packed 64 pixels to a word, for the morphology of stage 2
//! (`clean`): a square dilation ORs whole words instead of counting pixels, and the
//! opened image is labelled without unpacking it.
//!
//! Each row starts on a word boundary; bit `c % 64` of word `c / 64` of a row is column
//! `c`. Bits past the last column are always unset.

use crate::mask::{label_rows, pack_row, Component, Mask};

/// A `width` × `height` binary image, rows of `wpr` words each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bits {
    width: usize,
    height: usize,
    /// Words per row.
    wpr: usize,
    words: Vec<u64>,
}

/// Each byte's eight bits as pixels, bit k to pixel k.
static SPREAD: [[bool; 8]; 256] = {
    let mut t = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            t[b][k] = (b >> k) & 1 != 0;
            k += 1;
        }
        b += 1;
    }
    t
};

impl Bits {
    /// Packs `mask`, complemented when `invert`.
    pub(crate) fn pack(mask: &Mask, invert: bool) -> Self {
        let (width, height) = (mask.width, mask.height);
        let wpr = width.div_ceil(64);
        let mut words = vec![0u64; wpr * height];
        for (r, out) in words.chunks_mut(wpr.max(1)).enumerate().take(height) {
            pack_row(mask.row(r), out);
            if invert {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = !*o & tail(width - 64 * k);
                }
            }
        }
        Bits {
            width,
            height,
            wpr,
            words,
        }
    }

    /// (width, height), pixels.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The words of row `r`.
    pub(crate) fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.wpr..(r + 1) * self.wpr]
    }

    /// Whether any pixel is set.
    pub(crate) fn any(&self) -> bool {
        self.words.iter().any(|&w| w != 0)
    }

    /// [`crate::mask::label_components`] of this image.
    pub(crate) fn label(&self, eight: bool) -> (Vec<u32>, Vec<Component>) {
        label_rows(self.width, self.height, eight, |r, out| {
            out.copy_from_slice(self.row(r))
        })
    }

    /// Unpacks to a mask, complemented when `invert`.
    pub(crate) fn unpack(&self, invert: bool) -> Mask {
        let mut out = Mask::new(self.width, self.height);
        if self.wpr == 0 {
            return out;
        }
        for (row, words) in out
            .data
            .chunks_mut(self.width)
            .zip(self.words.chunks(self.wpr))
        {
            for (chunk, &w) in row.chunks_mut(64).zip(words) {
                let w = if invert { !w } else { w };
                let done = chunk.len() - chunk.len() % 8;
                let mut eights = chunk.chunks_exact_mut(8);
                for (k, e) in eights.by_ref().enumerate() {
                    e.copy_from_slice(&SPREAD[(w >> (8 * k)) as usize & 0xFF]);
                }
                for (k, px) in eights.into_remainder().iter_mut().enumerate() {
                    *px = (w >> (done + k)) & 1 != 0;
                }
            }
        }
        out
    }

    /// Complements every pixel in place.
    pub(crate) fn invert(&mut self) {
        if self.wpr == 0 {
            return;
        }
        let last = tail(self.width - 64 * (self.wpr - 1));
        for row in self.words.chunks_mut(self.wpr) {
            for w in row.iter_mut() {
                *w = !*w;
            }
            if let Some(w) = row.last_mut() {
                *w &= last;
            }
        }
    }

    /// Sets each pixel that has a set pixel within Chebyshev radius `radius` (windows
    /// clipped to the image: outside counts as unset). Each direction (right, left, down,
    /// up) spreads the set bits `radius` places by doubling: after spreading by s, one
    /// shifted OR spreads by up to 2s.
    pub(crate) fn dilate(&self, radius: usize) -> Bits {
        if radius == 0 || self.words.is_empty() {
            return self.clone();
        }
        let wpr = self.wpr;
        let mut rows = self.words.clone();
        let mut left = vec![0u64; wpr];
        let last = tail(self.width - 64 * (wpr - 1));
        for row in rows.chunks_mut(wpr) {
            if row.iter().all(|&w| w == 0) {
                continue;
            }
            left.copy_from_slice(row);
            spread(radius, |step| shl_or(row, step));
            spread(radius, |step| shr_or(&mut left, step));
            for (w, &l) in row.iter_mut().zip(&left) {
                *w |= l;
            }
            if let Some(w) = row.last_mut() {
                *w &= last;
            }
        }
        let mut up = rows.clone();
        let height = self.height;
        // Down: row r gets rows r - step.
        spread(radius, |step| {
            for r in (step..height).rev() {
                let (head, tail) = rows.split_at_mut(r * wpr);
                let src = &head[(r - step) * wpr..(r - step + 1) * wpr];
                for (d, &s) in tail[..wpr].iter_mut().zip(src) {
                    *d |= s;
                }
            }
        });
        // Up: row r gets rows r + step.
        spread(radius, |step| {
            for r in 0..height.saturating_sub(step) {
                let (head, tail) = up.split_at_mut((r + step) * wpr);
                let src = &tail[..wpr];
                for (d, &s) in head[r * wpr..(r + 1) * wpr].iter_mut().zip(src) {
                    *d |= s;
                }
            }
        });
        for (w, &u) in rows.iter_mut().zip(&up) {
            *w |= u;
        }
        Bits {
            width: self.width,
            height: self.height,
            wpr,
            words: rows,
        }
    }
}

/// The low `n` bits set (all 64 when `n` ≥ 64).
fn tail(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Calls `or_shifted(step)` with steps that spread a set bit over `radius` more places:
/// spread by s so far, a step of min(s, radius − s) makes it s + step.
fn spread(radius: usize, mut or_shifted: impl FnMut(usize)) {
    let mut s = 0;
    while s < radius {
        let step = (s + 1).min(radius - s);
        or_shifted(step);
        s += step;
    }
}

/// `row |= row << step` over the whole row (towards higher columns).
fn shl_or(row: &mut [u64], step: usize) {
    let (ws, bs) = (step / 64, step % 64);
    for i in (ws..row.len()).rev() {
        let lo = row[i - ws];
        let mut v = lo << bs;
        if bs != 0 && i > ws {
            v |= row[i - ws - 1] >> (64 - bs);
        }
        row[i] |= v;
    }
}

/// `row |= row >> step` over the whole row (towards lower columns).
fn shr_or(row: &mut [u64], step: usize) {
    let (ws, bs) = (step / 64, step % 64);
    let n = row.len();
    for i in 0..n.saturating_sub(ws) {
        let hi = row[i + ws];
        let mut v = hi >> bs;
        if bs != 0 && i + ws + 1 < n {
            v |= row[i + ws + 1] << (64 - bs);
        }
        row[i] |= v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Window dilation pixel by pixel, windows clipped to the image.
    fn dilate_naive(m: &Mask, radius: usize) -> Mask {
        let r = radius as isize;
        let mut out = Mask::new(m.width, m.height);
        for i in 0..m.len() {
            let (c, row) = m.col_row(i);
            let (c, row) = (c as isize, row as isize);
            out[i] = (-r..=r).any(|dr| (-r..=r).any(|dc| m.get(c + dc, row + dr)));
        }
        out
    }

    proptest! {
        #[test]
        fn pack_round_trips_and_dilates_as_windows(w in 1usize..150, h in 1usize..12, radius in 0usize..140, seed in any::<u64>(), density in 1u64..40) {
            let mut s = seed | 1;
            let data = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 200 < density }).collect();
            let m = Mask { width: w, height: h, data };
            let b = Bits::pack(&m, false);
            prop_assert_eq!(&b.unpack(false), &m);
            prop_assert_eq!(&Bits::pack(&m, true).unpack(false), &m.inverted());
            let mut inv = b.clone();
            inv.invert();
            prop_assert_eq!(&inv, &Bits::pack(&m, true));
            prop_assert_eq!(&inv.unpack(true), &m);
            prop_assert_eq!(b.dilate(radius).unpack(false), dilate_naive(&m, radius));
        }
    }
}
