//! Locating a leak (DESIGN "Notes for parity: loop choice"): where the track's
//! free space escapes to the image border through a gap in a wall.
//!
//! Every pixel of the leaking region gets its clearance (chamfer distance to
//! the nearest pixel outside the region; the image edge does not count, so the
//! border is not mistaken for a narrow place). The widest path from the loop to
//! the image border (the path maximising its smallest clearance, found with a
//! max-first search) must squeeze through the gap. The gap is reported where
//! that path, coming from the loop, first gets (within half a pixel) as narrow
//! as its narrowest place: the mouth of the passage at the track's edge.

use std::collections::BinaryHeap;

use crate::clean::Region;

/// Chamfer distance (1, √2) from each pixel of `mask` to the nearest pixel not in it, pixels.
pub fn clearance(mask: &[bool], width: usize, height: usize) -> Vec<f32> {
    let d2 = std::f32::consts::SQRT_2;
    let mut d: Vec<f32> = mask
        .iter()
        .map(|&m| if m { f32::INFINITY } else { 0.0 })
        .collect();
    for r in 0..height {
        for c in 0..width {
            let i = r * width + c;
            let mut v = d[i];
            if c > 0 {
                v = v.min(d[i - 1] + 1.0);
            }
            if r > 0 {
                v = v.min(d[i - width] + 1.0);
                if c > 0 {
                    v = v.min(d[i - width - 1] + d2);
                }
                if c + 1 < width {
                    v = v.min(d[i - width + 1] + d2);
                }
            }
            d[i] = v;
        }
    }
    for r in (0..height).rev() {
        for c in (0..width).rev() {
            let i = r * width + c;
            let mut v = d[i];
            if c + 1 < width {
                v = v.min(d[i + 1] + 1.0);
            }
            if r + 1 < height {
                v = v.min(d[i + width] + 1.0);
                if c + 1 < width {
                    v = v.min(d[i + width + 1] + d2);
                }
                if c > 0 {
                    v = v.min(d[i + width - 1] + d2);
                }
            }
            d[i] = v;
        }
    }
    d
}

/// The gap of a leaking region: (crop index of the narrowest pixel, crop index where the
/// path reaches the image border, clearance at the gap in pixels). `None` when the loop
/// cannot reach the image border (the region does not leak).
pub fn locate_leak(
    region: &Region,
    image_width: usize,
    image_height: usize,
    loop_pixels: &[usize],
) -> Option<(usize, usize, f32)> {
    let (w, h) = (region.width, region.height);
    let clear = clearance(&region.mask, w, h);
    let at_border = |i: usize| {
        let (c, r) = region.image_pixel(i);
        c == 0 || r == 0 || c + 1 == image_width || r + 1 == image_height
    };
    let mut best = vec![f32::NEG_INFINITY; w * h];
    let mut prev = vec![u32::MAX; w * h];
    let mut heap = BinaryHeap::new();
    for &p in loop_pixels {
        best[p] = clear[p];
        heap.push((clear[p].to_bits(), p as u32));
    }
    let mut reached = None;
    while let Some((bits, p)) = heap.pop() {
        let (v, p) = (f32::from_bits(bits), p as usize);
        if v < best[p] {
            continue;
        }
        if at_border(p) {
            reached = Some(p);
            break;
        }
        let (r, c) = ((p / w) as isize, (p % w) as isize);
        for dr in -1..=1isize {
            for dc in -1..=1isize {
                let (rr, cc) = (r + dr, c + dc);
                if (dr, dc) == (0, 0) || rr < 0 || cc < 0 || rr as usize >= h || cc as usize >= w {
                    continue;
                }
                let q = rr as usize * w + cc as usize;
                if !region.mask[q] {
                    continue;
                }
                let nv = v.min(clear[q]);
                if nv > best[q] {
                    best[q] = nv;
                    prev[q] = p as u32;
                    heap.push((nv.to_bits(), q as u32));
                }
            }
        }
    }
    let end = reached?;
    let mut path = vec![end];
    while prev[*path.last()? as usize] != u32::MAX {
        path.push(prev[*path.last()?] as usize);
    }
    let narrow = path.iter().map(|&p| clear[p]).fold(f32::INFINITY, f32::min);
    // `path` runs from the border back to the loop; the gap is where it first gets about as
    // narrow as its narrowest place, seen from the loop: the mouth of the passage.
    let k = path.iter().rposition(|&p| clear[p] <= narrow + 0.5)?;
    let gap = path[k];
    Some((gap, end, narrow))
}
