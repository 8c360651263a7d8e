//! Stage 3a, thinning (DESIGN §3.3): the free region to a one-pixel skeleton.
//!
//! This is the algorithm the Race Stack runs, scikit-image's
//! `skeletonize(method="lee")`: Lee, Kashyap & Chu (1994), "Building skeleton
//! models via 3-D medial surface/axis thinning algorithms", as ported to
//! ImageJ and scikit-image by I. Arganda-Carreras. A 2-D image is thinned as a
//! single slice of a 3-D volume padded with zeros: a pixel may go when it is
//! a border point of the current sweep direction, is not an end point, keeps
//! the Euler characteristic (the 26-neighbourhood table δG₂₆ of the paper) and
//! is simple (its neighbours stay one 26-connected piece). Candidates of a sweep
//! are collected first, then re-checked one by one in raster order; the
//! re-check (in the scikit-image 0.26 the Race Stack reference runs) asks only
//! that the pixel is still simple.
//!
//! scikit-image sweeps the directions W, E, S, N (its 4, 3, 2, 1) for a 2-D
//! image, and the Race Stack hands it the map flipped upside down (row 0 =
//! bottom), so which pixel goes first depends on both: [`skeletonize`] thins the
//! flipped image with the same sweep order to give the same pixels (checked
//! pixel for pixel against scikit-image 0.26 on random images).
//!
//! In 2-D the whole test depends on the 8 neighbours only, so it is tabulated
//! once ([`tables`]). [`skeletonize`] re-checks only pixels on the
//! region's frontier (pixels with all 8 neighbours set are never deletable);
//! [`skeletonize_naive`] scans the whole image every sweep, as the original.

use std::sync::OnceLock;

// The 8 in-plane neighbours (dr, dc) in the bit order of the table index.
use crate::mask::{Mask, NEIGHBOURS_8 as NB8};

/// Column δG₂₆ of Table 2 in Lee et al. (1994), indexed by octant configuration / 2.
const EULER_LUT: [i8; 128] = [
    1, -1, -1, 1, -3, -1, -1, 1, -1, 1, 1, -1, 3, 1, 1, -1, -3, -1, 3, 1, 1, -1, 3, 1, -1, 1, 1,
    -1, 3, 1, 1, -1, -3, 3, -1, 1, 1, 3, -1, 1, -1, 1, 1, -1, 3, 1, 1, -1, 1, 3, 3, 1, 5, 3, 3, 1,
    -1, 1, 1, -1, 3, 1, 1, -1, -7, -1, -1, 1, -3, -1, -1, 1, -1, 1, 1, -1, 3, 1, 1, -1, -3, -1, 3,
    1, 1, -1, 3, 1, -1, 1, 1, -1, 3, 1, 1, -1, -3, 3, -1, 1, 1, 3, -1, 1, -1, 1, 1, -1, 3, 1, 1,
    -1, 1, 3, 3, 1, 5, 3, 3, 1, -1, 1, 1, -1, 3, 1, 1, -1,
];

/// Neighbourhood indices of the eight octants (2×2×2 cubes around the centre, index 13).
const OCTANTS: [[usize; 7]; 8] = [
    [2, 1, 11, 10, 5, 4, 14],
    [0, 9, 3, 12, 1, 10, 4],
    [8, 7, 17, 16, 5, 4, 14],
    [6, 15, 7, 16, 3, 12, 4],
    [20, 23, 19, 22, 11, 14, 10],
    [18, 21, 9, 12, 19, 22, 10],
    [26, 23, 17, 14, 25, 22, 16],
    [24, 25, 15, 16, 21, 22, 12],
];

/// Index of (dp, dr, dc) in the 27-neighbourhood of the original code.
fn nb27(dp: isize, dr: isize, dc: isize) -> usize {
    (9 * (dp + 1) + 3 * (dc + 1) + (dr + 1)) as usize
}

fn euler_invariant(nb: &[u8; 27]) -> bool {
    let mut euler = 0i32;
    for oct in &OCTANTS {
        let mut n = 1usize;
        for (j, &idx) in oct.iter().enumerate() {
            if nb[idx] == 1 {
                n |= 1 << (7 - j);
            }
        }
        euler += EULER_LUT[n >> 1] as i32;
    }
    euler == 0
}

fn simple(nb: &[u8; 27]) -> bool {
    // Count 26-connected pieces among the 26 neighbours (the centre left out).
    let coords: Vec<(isize, isize, isize)> = (0..27)
        .filter(|&i| i != 13 && nb[i] == 1)
        .map(|i| {
            (
                (i / 9) as isize - 1,
                ((i / 3) % 3) as isize - 1,
                (i % 3) as isize - 1,
            )
        })
        .collect();
    let mut seen = vec![false; coords.len()];
    let mut pieces = 0;
    for s in 0..coords.len() {
        if seen[s] {
            continue;
        }
        pieces += 1;
        seen[s] = true;
        let mut stack = vec![s];
        while let Some(a) = stack.pop() {
            for b in 0..coords.len() {
                let (pa, pb) = (coords[a], coords[b]);
                if !seen[b]
                    && (pa.0 - pb.0).abs() <= 1
                    && (pa.1 - pb.1).abs() <= 1
                    && (pa.2 - pb.2).abs() <= 1
                {
                    seen[b] = true;
                    stack.push(b);
                }
            }
        }
    }
    pieces <= 1
}

/// The two tests by in-plane neighbour code (bit k = NB8\[k\] set).
pub(crate) struct Tables {
    /// A candidate: simple, Euler invariant and not an end point.
    pub deletable: [bool; 256],
    /// Still simple (the re-check).
    pub simple: [bool; 256],
}

/// The tables of the deletion tests, built once from the 3-D definitions.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            deletable: [false; 256],
            simple: [false; 256],
        };
        for code in 0..256 {
            let mut nb = [0u8; 27];
            nb[13] = 1;
            for (k, &(dr, dc)) in NB8.iter().enumerate() {
                if code & (1 << k) != 0 {
                    nb[nb27(0, dr, dc)] = 1;
                }
            }
            let endpoint = nb.iter().map(|&v| v as u32).sum::<u32>() == 2;
            t.simple[code] = simple(&nb);
            t.deletable[code] = !endpoint && euler_invariant(&nb) && t.simple[code];
        }
        t
    })
}

/// Sweep directions of scikit-image for 2-D images: W, E, S, N (its 4, 3, 2, 1).
#[derive(Clone, Copy)]
enum Border {
    /// The pixel one row up (in the thinned array) is empty.
    W,
    /// The pixel one row down is empty.
    E,
    /// The pixel one column right is empty.
    S,
    /// The pixel one column left is empty.
    N,
}

const SWEEPS: [Border; 4] = [Border::W, Border::E, Border::S, Border::N];

struct Padded {
    pw: usize,
    img: Vec<u8>,
}

impl Padded {
    /// Copies the mask upside down into a zero-padded buffer (module doc).
    fn flipped(mask: &Mask) -> Self {
        let (width, height) = (mask.width, mask.height);
        let pw = width + 2;
        let mut img = vec![0u8; pw * (height + 2)];
        for r in 0..height {
            let dst = (height - r) * pw + 1;
            for (px, &v) in img[dst..dst + width].iter_mut().zip(mask.row(r)) {
                *px = v as u8;
            }
        }
        Padded { pw, img }
    }

    fn unflip(&self, width: usize, height: usize) -> Mask {
        let mut out = Mask::new(width, height);
        for r in 0..height {
            let src = (height - r) * self.pw + 1;
            for c in 0..width {
                out.data[r * width + c] = self.img[src + c] == 1;
            }
        }
        out
    }

    fn code(&self, i: usize) -> usize {
        let pw = self.pw;
        let g = |j: usize| self.img[j] as usize;
        g(i - pw - 1)
            | g(i - pw) << 1
            | g(i - pw + 1) << 2
            | g(i - 1) << 3
            | g(i + 1) << 4
            | g(i + pw - 1) << 5
            | g(i + pw) << 6
            | g(i + pw + 1) << 7
    }

    fn is_border(&self, i: usize, b: Border) -> bool {
        match b {
            Border::W => self.img[i - self.pw] == 0,
            Border::E => self.img[i + self.pw] == 0,
            Border::S => self.img[i + 1] == 0,
            Border::N => self.img[i - 1] == 0,
        }
    }
}

/// Lee skeleton of `mask` (row 0 on top), frontier-tracking version.
///
/// The frontier is a bit set over the padded image: walking its words visits the pixels in
/// raster order, the order the candidates of a sweep are re-checked in, without sorting,
/// and costs a 64th of a scan of the image per sweep. A pixel enters the frontier when a
/// neighbour is deleted and leaves it when it is deleted itself.
pub fn skeletonize(mask: &Mask) -> Mask {
    let t = tables();
    let mut p = Padded::flipped(mask);
    let pw = p.pw;
    let offsets = [pw - 1, pw, pw + 1, 1];
    let mut front = vec![0u64; p.img.len().div_ceil(64)];
    for i in 0..p.img.len() {
        if p.img[i] == 1 && p.code(i) != 0xFF {
            front[i / 64] |= 1 << (i % 64);
        }
    }
    let mut candidates = Vec::new();
    loop {
        let mut unchanged = 0;
        for &b in &SWEEPS {
            candidates.clear();
            for (w, word) in front.iter_mut().enumerate() {
                let mut bits = *word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if p.img[i] == 0 {
                        *word &= !(1 << (i % 64));
                    } else if p.is_border(i, b) && t.deletable[p.code(i)] {
                        candidates.push(i);
                    }
                }
            }
            let mut changed = false;
            for &i in &candidates {
                if t.simple[p.code(i)] {
                    p.img[i] = 0;
                    changed = true;
                    for &o in &offsets {
                        for j in [i - o, i + o] {
                            if p.img[j] == 1 {
                                front[j / 64] |= 1 << (j % 64);
                            }
                        }
                    }
                }
            }
            if !changed {
                unchanged += 1;
            }
        }
        if unchanged == SWEEPS.len() {
            break;
        }
    }
    p.unflip(mask.width, mask.height)
}

#[cfg(any(test, feature = "reference"))]
/// Reference twin of [`skeletonize`]: every sweep scans the whole image, as scikit-image does.
pub fn skeletonize_naive(mask: &Mask) -> Mask {
    let t = tables();
    let (width, height) = (mask.width, mask.height);
    let mut p = Padded::flipped(mask);
    let pw = p.pw;
    loop {
        let mut unchanged = 0;
        for &b in &SWEEPS {
            let mut candidates = Vec::new();
            for rp in 1..=height {
                for c in 1..=width {
                    let i = rp * pw + c;
                    if p.img[i] == 1 && p.is_border(i, b) && t.deletable[p.code(i)] {
                        candidates.push(i);
                    }
                }
            }
            let mut changed = false;
            for i in candidates {
                if t.simple[p.code(i)] {
                    p.img[i] = 0;
                    changed = true;
                }
            }
            if !changed {
                unchanged += 1;
            }
        }
        if unchanged == SWEEPS.len() {
            break;
        }
    }
    p.unflip(width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::label_components;
    use proptest::prelude::*;

    /// A 10 × 7 px ring, 2–3 px thick, around a 4 × 3 px hole.
    const ANNULUS: [&str; 9] = [
        "............",
        ".##########.",
        ".##########.",
        ".###....###.",
        ".###....###.",
        ".###....###.",
        ".##########.",
        ".##########.",
        "............",
    ];

    fn holes(mask: &Mask) -> usize {
        let (_, comps) = label_components(&mask.inverted(), false);
        comps.iter().filter(|c| !c.touches_border).count()
    }

    #[test]
    fn interior_and_isolated_pixels_are_never_deleted() {
        let t = &tables().deletable;
        assert!(!t[0xFF], "interior pixel");
        assert!(!t[0], "isolated pixel");
        // End points (one neighbour) stay.
        for k in 0..8 {
            assert!(!t[1 << k]);
        }
    }

    #[test]
    fn annulus_thins_to_a_one_pixel_loop() {
        let m = Mask::parse(&ANNULUS);
        let s = skeletonize(&m);
        assert_eq!(s, skeletonize_naive(&m));
        assert_eq!(holes(&s), 1, "the hole survives");
        let (w, h) = (s.width, s.height);
        let (_, comps) = label_components(&s, true);
        assert_eq!(comps.len(), 1);
        // One pixel wide: no 2×2 block of skeleton pixels.
        for r in 0..h - 1 {
            for c in 0..w - 1 {
                let block = [
                    r * w + c,
                    r * w + c + 1,
                    (r + 1) * w + c,
                    (r + 1) * w + c + 1,
                ];
                assert!(!block.iter().all(|&i| s[i]), "2×2 block at ({c}, {r})");
            }
        }
    }

    /// scikit-image 0.26 `skeletonize(img[::-1], method="lee")[::-1]` of these images.
    #[test]
    fn matches_scikit_image() {
        let m = Mask::parse(&[
            "...........",
            ".#########.",
            ".#########.",
            ".#########.",
            "...........",
        ]);
        let want = Mask::parse(&[
            "...........",
            "...........",
            ".#########.",
            "...........",
            "...........",
        ]);
        assert_eq!(skeletonize(&m), want);
        let m = Mask::parse(&ANNULUS);
        let want = Mask::parse(&[
            "............",
            "....####....",
            "...#....#...",
            "..#......#..",
            "..#......#..",
            "..#......#..",
            "...######...",
            "............",
            "............",
        ]);
        assert_eq!(skeletonize(&m), want);
    }

    #[test]
    fn bar_thins_to_a_line_inside_it() {
        let m = Mask::parse(&[
            "...........",
            ".#########.",
            ".#########.",
            ".#########.",
            "...........",
        ]);
        let s = skeletonize(&m);
        assert!(s.data.iter().zip(&m.data).all(|(&a, &b)| !a || b));
        assert!(s.count() >= 5);
        assert!(
            s.row(2).iter().filter(|&&v| v).count() >= 5,
            "on the middle row"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Larger images, with blobs and holes, that take many sweeps.
        #[test]
        fn fast_matches_naive_on_large_blobs(w in 60usize..140, h in 40usize..90, seed in any::<u64>(), blobs in 1usize..12) {
            let mut s = seed | 1;
            let mut next = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
            let discs: Vec<(f64, f64, f64)> = (0..blobs)
                .map(|_| ((next() % w as u64) as f64, (next() % h as u64) as f64, 3.0 + (next() % 20) as f64))
                .collect();
            let data = (0..w * h)
                .map(|i| {
                    let (c, r) = ((i % w) as f64, (i / w) as f64);
                    let inside = discs.iter().filter(|d| (c - d.0).hypot(r - d.1) < d.2).count();
                    inside % 2 == 1 || next() % 50 == 0
                })
                .collect();
            let m = Mask { width: w, height: h, data };
            prop_assert_eq!(skeletonize(&m), skeletonize_naive(&m));
        }
    }

    proptest! {
        #[test]
        fn fast_matches_naive(w in 1usize..20, h in 1usize..20, seed in any::<u64>(), density in 1u64..6) {
            let mut s = seed | 1;
            let data = (0..w * h).map(|_| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s % 6 < density }).collect();
            let m = Mask { width: w, height: h, data };
            let fast = skeletonize(&m);
            prop_assert_eq!(&fast, &skeletonize_naive(&m));
            // Topology: same number of 8-components and 4-holes.
            let (_, a) = label_components(&m, true);
            let (_, b) = label_components(&fast, true);
            prop_assert_eq!(a.len(), b.len());
            prop_assert_eq!(holes(&m), holes(&fast));
        }
    }
}
