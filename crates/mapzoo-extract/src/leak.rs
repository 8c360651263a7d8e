//! Locating a leak (DESIGN "Notes for parity: loop choice"): where the track's
//! free space escapes through a gap in a wall, to the image border or into a
//! free infield.
//!
//! Every pixel of the leaking region gets its clearance (chamfer distance to
//! the nearest pixel outside the region; the image edge does not count, so the
//! border is not mistaken for a narrow place). The widest path from the loop to
//! the image border (the path maximising its smallest clearance, found with a
//! max-first search) must squeeze through the gap. Coming from the loop, that
//! path gets as narrow as the passage beyond at the gap's mouth; from a point
//! just in front of it, the nearest wall pixels on either side of the path are
//! the two wall ends, and the gap is reported at their middle (the mouth's
//! centre on the wall line).

use std::collections::BinaryHeap;

use mapzoo_format::OccupancyMap;

use crate::error::ExtractError;
use crate::mask::{label_complement, Mask};
use crate::skeleton::{cycle_length, SkeletonLoop};
use crate::space::FreeSpace;

/// The leak of a free space that touches the image border ([`FreeSpace::touches_border`]),
/// found from its loop `pixels`; `None` when it does not leak.
///
/// The image border is a wall: a track, or a corridor off it, that runs into the edge of the
/// image does not leak. The free space leaks when it escapes through a gap in the track's
/// outer wall into free space outside it: then most of the outer wall near the loop (the
/// pixels outside the loop, next to the free space, within twice the track's half width plus
/// two pixels of the loop) is an island, free space all round it, instead of being joined to
/// the occupied space at the image border. The leak is located on the widest path from the
/// loop to free space beyond the track band and near such an island (module doc), and the
/// border pixel nearest to where that path ends is named.
pub(crate) fn border_leak(
    map: &OccupancyMap,
    space: &FreeSpace,
    pixels: &[usize],
) -> Option<ExtractError> {
    let mask = &space.mask;
    let n = pixels.len();
    if n < 3 {
        return None;
    }
    let clear = clearance(mask);
    let mut along: Vec<f32> = pixels.iter().map(|&p| clear[p]).collect();
    along.sort_by(f32::total_cmp);
    let reach = 2.0 * along[(n - 1) * 95 / 100] + 2.0;
    let inside = inside_loop(mask, pixels);
    let mut seeds = Mask::filled(mask.width, mask.height, true);
    for &p in pixels {
        seeds[p] = false;
    }
    let to_loop = clearance(&seeds);
    drop(seeds);
    let (labels, comps) = label_complement(mask, false);
    let island = |i: usize| labels[i] != 0 && !comps[labels[i] as usize - 1].touches_border;
    let (mut walls, mut on_islands) = (0usize, 0usize);
    let (w, h) = (mask.width, mask.height);
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if mask[i] || inside[i] || to_loop[i] > reach {
                continue;
            }
            // Next to the free space by an edge (the in-grid 4-neighbours).
            let edge = (r > 0 && mask[i - w])
                || (c > 0 && mask[i - 1])
                || (c + 1 < w && mask[i + 1])
                || (r + 1 < h && mask[i + w]);
            if edge {
                walls += 1;
                on_islands += island(i) as usize;
            }
        }
    }
    if walls == 0 || 2 * on_islands <= walls {
        return None;
    }
    // Beyond the track band and near an island: the free space outside its walls.
    let not_island = Mask {
        width: mask.width,
        height: mask.height,
        data: (0..mask.len()).map(|i| !island(i)).collect(),
    };
    let to_island = clearance(&not_island);
    drop(not_island);
    let beyond = |i: usize| mask[i] && !inside[i] && to_loop[i] > reach && to_island[i] <= reach;
    let Some((gap, end, clearance)) = locate_leak(space, pixels, beyond) else {
        return Some(ExtractError::NoLoop {
            why: format!(
                "the track region around {} is walled by islands of occupied space in free space, but no path leads out to it",
                space.map_point(map, pixels[0])
            ),
        });
    };
    let border = nearest_border(space, end).unwrap_or(end);
    Some(ExtractError::Leak {
        gap: space.map_point(map, gap),
        border: space.map_point(map, border),
        gap_width_px: gap_width_px(clearance),
    })
}

/// The image-border pixel of the region nearest to crop pixel `from` through the region.
fn nearest_border(space: &FreeSpace, from: usize) -> Option<usize> {
    let mask = &space.mask;
    let mut seen = vec![false; mask.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    seen[from] = true;
    while let Some(p) = queue.pop_front() {
        if space.on_image_border(p) {
            return Some(p);
        }
        for q in mask.set_neighbours8(p) {
            if !seen[q] {
                seen[q] = true;
                queue.push_back(q);
            }
        }
    }
    None
}

/// Where the edges of the closed pixel polygon `loop_pixels` cross row r + ¼ of the crop
/// `mask`: the column of each crossing, per row, in increasing order.
fn row_crossings(mask: &Mask, loop_pixels: &[usize]) -> Vec<Vec<f64>> {
    let n = loop_pixels.len();
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); mask.height];
    for k in 0..n {
        let (a, b) = (loop_pixels[k], loop_pixels[(k + 1) % n]);
        let (ca, ra) = mask.col_row(a);
        let (cb, rb) = mask.col_row(b);
        let (ca, ra, cb, rb) = (ca as f64, ra as f64, cb as f64, rb as f64);
        if ra == rb {
            continue;
        }
        let row = ra.min(rb) as usize;
        let t = (row as f64 + 0.25 - ra) / (rb - ra);
        crossings[row].push(ca + t * (cb - ca));
    }
    for xs in &mut crossings {
        xs.sort_by(f64::total_cmp);
    }
    crossings
}

/// Which pixels of the crop `mask` lie inside the closed pixel polygon `loop_pixels`: an odd
/// number of its edges cross row r + ¼ left of column c + ¼.
pub(crate) fn inside_loop(mask: &Mask, loop_pixels: &[usize]) -> Vec<bool> {
    let (w, h) = (mask.width, mask.height);
    let mut inside = vec![false; w * h];
    for (r, xs) in row_crossings(mask, loop_pixels).iter().enumerate() {
        // Column c is inside when an odd number of crossings lie left of c + ¼: between
        // the first column past crossing 2m and the first column past crossing 2m + 1.
        let row = &mut inside[r * w..(r + 1) * w];
        for pair in xs.chunks(2) {
            let from = first_column_past(pair[0], w);
            let to = pair.get(1).map_or(w, |&x| first_column_past(x, w));
            row[from..to].fill(true);
        }
    }
    inside
}

/// The first column c of `w` with x < c + ¼ (`w` when none).
fn first_column_past(x: f64, w: usize) -> usize {
    let guess = (x - 0.25).floor();
    let mut c = if guess < 0.0 {
        0
    } else {
        (guess as usize).saturating_add(1).min(w)
    };
    // Settle on the comparison itself, whatever the rounding of the guess.
    while c > 0 && x < (c - 1) as f64 + 0.25 {
        c -= 1;
    }
    while c < w && x >= c as f64 + 0.25 {
        c += 1;
    }
    c
}

#[cfg(test)]
/// Reference twin of [`inside_loop`]: each pixel counts the crossings left of it.
pub(crate) fn inside_loop_naive(mask: &Mask, loop_pixels: &[usize]) -> Vec<bool> {
    let (w, h) = (mask.width, mask.height);
    let mut inside = vec![false; w * h];
    for (r, xs) in row_crossings(mask, loop_pixels).iter().enumerate() {
        let mut k = 0;
        for c in 0..w {
            while k < xs.len() && xs[k] < c as f64 + 0.25 {
                k += 1;
            }
            inside[r * w + c] = k % 2 == 1;
        }
    }
    inside
}

/// Fails with [`ExtractError::InfieldLeak`] when the track's free space spills over a free
/// infield through a gap in the inner wall (`infield_spill`); `clearance` is each loop
/// pixel's distance to the free space's boundary, pixels.
pub fn check_infield(
    map: &OccupancyMap,
    space: &FreeSpace,
    skeleton_loop: &SkeletonLoop,
    clearance: &[f64],
) -> Result<(), ExtractError> {
    let pixels = &skeleton_loop.pixels;
    if let Some(spill) = infield_spill(space, pixels, clearance) {
        if let Some((gap, inside, clearance)) = locate_leak(space, pixels, |i| spill[i]) {
            return Err(ExtractError::InfieldLeak {
                gap: space.map_point(map, gap),
                inside: space.map_point(map, inside),
                gap_width_px: gap_width_px(clearance),
            });
        }
    }
    Ok(())
}

/// Width of a gap whose narrowest clearance is `clearance` pixels, pixels (at least 1).
fn gap_width_px(clearance: f32) -> usize {
    (2.0 * clearance - 1.0).round().max(1.0) as usize
}

/// Chamfer distance (1, √2) from each pixel of `mask` to the nearest pixel not in it, pixels.
///
/// The two raster passes of the chamfer transform, each row split in two: the terms from the
/// row before (above in the forward pass, below in the backward one) are independent across
/// the row, only the pixel beside chains one to the next. A minimum of the same terms in
/// another order is the same number, so this equals `clearance_naive` (the tests) exactly.
pub(crate) fn clearance(mask: &Mask) -> Vec<f32> {
    let (width, height) = (mask.width, mask.height);
    let d2 = std::f32::consts::SQRT_2;
    let mut d: Vec<f32> = mask
        .data
        .iter()
        .map(|&m| if m { f32::INFINITY } else { 0.0 })
        .collect();
    if width == 0 {
        return d;
    }
    // from the row before, with the diagonal neighbours inside the row (the middle of the
    // row as zipped slices, so that it runs without bounds checks, on vectors)
    let from_row = |row: &mut [f32], prev: &[f32]| {
        row[0] = row[0].min(prev[0] + 1.0);
        if width > 1 {
            row[0] = row[0].min(prev[1] + d2);
            let middle = row[1..width - 1]
                .iter_mut()
                .zip(&prev[1..width - 1])
                .zip(prev[..width - 2].iter().zip(&prev[2..width]));
            for ((v, &up), (&left, &right)) in middle {
                *v = lesser(lesser(lesser(*v, up + 1.0), left + d2), right + d2);
            }
            let c = width - 1;
            row[c] = row[c].min(prev[c] + 1.0).min(prev[c - 1] + d2);
        }
    };
    for r in 0..height {
        let (done, rest) = d.split_at_mut(r * width);
        let row = &mut rest[..width];
        if r > 0 {
            from_row(row, &done[(r - 1) * width..r * width]);
        }
        let mut left = row[0];
        for v in &mut row[1..] {
            left = lesser(*v, left + 1.0);
            *v = left;
        }
    }
    for r in (0..height).rev() {
        let (head, below) = d.split_at_mut((r + 1) * width);
        let row = &mut head[r * width..];
        if r + 1 < height {
            from_row(row, &below[..width]);
        }
        let mut right = row[width - 1];
        for v in row[..width - 1].iter_mut().rev() {
            right = lesser(*v, right + 1.0);
            *v = right;
        }
    }
    d
}

/// The smaller of two distances: `f32::min` without its NaN test (no distance here is NaN,
/// nor −0, so the value is the same), which the row loops run as one vector minimum.
#[inline]
fn lesser(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

#[cfg(test)]
/// Reference twin of [`clearance`]: the two raster passes pixel by pixel.
pub(crate) fn clearance_naive(mask: &Mask) -> Vec<f32> {
    let (width, height) = (mask.width, mask.height);
    let d2 = std::f32::consts::SQRT_2;
    let mut d: Vec<f32> = mask
        .data
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

/// The gap of a leaking region: (crop index of the gap's mouth, crop index where the path
/// reaches a `target` pixel, clearance at the gap in pixels). `None` when no target pixel can
/// be reached from the loop.
pub(crate) fn locate_leak(
    region: &FreeSpace,
    loop_pixels: &[usize],
    target: impl Fn(usize) -> bool,
) -> Option<(usize, usize, f32)> {
    let mask = &region.mask;
    let clear = clearance(mask);
    let (w, h) = (mask.width, mask.height);
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
        if target(p) {
            reached = Some(p);
            break;
        }
        for q in mask.set_neighbours8(p) {
            let nv = v.min(clear[q]);
            if nv > best[q] {
                best[q] = nv;
                prev[q] = p as u32;
                heap.push((nv.to_bits(), q as u32));
            }
        }
    }
    let end = reached?;
    let mut path = vec![end];
    while prev[*path.last()? as usize] != u32::MAX {
        path.push(prev[*path.last()?] as usize);
    }
    let narrow = path.iter().map(|&p| clear[p]).fold(f32::INFINITY, f32::min);
    // `path` runs from the border back to the loop. Inside the passage the clearance stays at
    // its level (half the gap's width); coming from the loop it falls towards that level and
    // reaches it at the mouth, the line between the wall ends. The level is the median
    // clearance of the passage's pixels (robust to the chamfer's ±½ px along slanted walls).
    let mut passage: Vec<f32> = path
        .iter()
        .map(|&p| clear[p])
        .filter(|&c| c <= narrow + 2.0)
        .collect();
    passage.sort_by(f32::total_cmp);
    let level = passage[passage.len() / 2];
    let k = path.iter().rposition(|&p| clear[p] <= level + 0.25)?;
    // A point a few pixels in front of the mouth, where the nearest wall pixels on either
    // side are the wall ends (inside the passage they would be its side walls).
    let front = (k..path.len())
        .find(|&j| clear[path[j]] >= level + 1.5)
        .unwrap_or(k);
    let gap = mouth_centre(region, &path, front, level).unwrap_or(path[k]);
    Some((gap, end, narrow))
}

/// The middle of the two wall ends nearest to path pixel `path[k]`, one on each side of the
/// path: the mouth of the gap when `path[k]` lies just in front of it (crop index).
fn mouth_centre(region: &FreeSpace, path: &[usize], k: usize, level: f32) -> Option<usize> {
    let mask = &region.mask;
    let xy = |p: usize| {
        let (c, r) = mask.col_row(p);
        (c as f64, r as f64)
    };
    // Direction of the path at k, outwards (the path runs from the border to the loop).
    let outer = xy(path[k.saturating_sub(3)]);
    let inner = xy(path[(k + 3).min(path.len() - 1)]);
    let dir = (outer.0 - inner.0, outer.1 - inner.1);
    if dir.0 == 0.0 && dir.1 == 0.0 {
        return None;
    }
    let (mx, my) = xy(path[k]);
    let reach = (level + 8.0).ceil() as isize;
    let mut best = [(f64::INFINITY, (0.0, 0.0)); 2];
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let (x, y) = (mx as isize + dx, my as isize + dy);
            if !mask.contains(x, y) || mask.get(x, y) {
                continue;
            }
            let (qx, qy) = (x as f64 - mx, y as f64 - my);
            let side = (dir.0 * qy - dir.1 * qx > 0.0) as usize;
            let d = qx.hypot(qy);
            if d < best[side].0 {
                best[side] = (d, (x as f64, y as f64));
            }
        }
    }
    if !(best[0].0.is_finite() && best[1].0.is_finite()) {
        return None;
    }
    let cx = ((best[0].1 .0 + best[1].1 .0) / 2.0).round() as usize;
    let cy = ((best[0].1 .1 + best[1].1 .1) / 2.0).round() as usize;
    Some(mask.index(cx, cy))
}

/// Pixels of the region inside the loop and farther from it than twice the track's half
/// width (its 95th-percentile clearance along the loop) plus two pixels: free infield that no
/// wall separates from the track. `None` unless they cover more than a square of that side
/// (a spur's tip or a pocket does not; a joined infield does). `loop_clearance` is each loop
/// pixel's distance to the region's boundary, pixels.
///
/// A cheap test comes first: a walled track has about loop length × half width of free
/// pixels inside its loop; only when there are more than twice that (plus the square) are
/// the distances to the loop computed.
pub(crate) fn infield_spill(
    region: &FreeSpace,
    loop_pixels: &[usize],
    loop_clearance: &[f64],
) -> Option<Vec<bool>> {
    let mask = &region.mask;
    let (w, h) = (mask.width, mask.height);
    let n = loop_pixels.len();
    if n < 3 || loop_clearance.len() != n {
        return None;
    }
    let mut along = loop_clearance.to_vec();
    along.sort_by(f64::total_cmp);
    let reach = 2.0 * along[(n - 1) * 95 / 100] + 2.0;
    let mean_half = loop_clearance.iter().sum::<f64>() / n as f64;
    let length = cycle_length(loop_pixels, mask);
    // Inside the loop, and free.
    let mut inside = inside_loop(mask, loop_pixels);
    let mut count = 0usize;
    for (v, &m) in inside.iter_mut().zip(&region.mask.data) {
        *v = *v && m;
        count += *v as usize;
    }
    if (count as f64) <= 2.0 * length * mean_half + reach * reach {
        return None;
    }
    // Distance to the loop: chamfer from the loop pixels over the whole crop.
    let mut seeds = Mask::filled(w, h, true);
    for &p in loop_pixels {
        seeds[p] = false;
    }
    let to_loop = clearance(&seeds);
    let mut far = 0usize;
    for (i, v) in inside.iter_mut().enumerate() {
        *v = *v && to_loop[i] as f64 > reach;
        far += *v as usize;
    }
    (far as f64 > reach * reach).then_some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn clearance_matches_naive(w in 0usize..24, h in 0usize..24, seed in any::<u64>(), density in 1u64..8) {
            let mut s = seed | 1;
            let data = (0..w * h)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s % 8 < density
                })
                .collect();
            let m = Mask { width: w, height: h, data };
            let fast = clearance(&m);
            let naive = clearance_naive(&m);
            prop_assert_eq!(
                fast.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                naive.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    proptest! {
        /// Closed 8-connected walks (loops may touch or cross themselves) on small crops.
        #[test]
        fn inside_loop_matches_naive(w in 1usize..30, h in 1usize..30, seed in any::<u64>(), len in 0usize..200) {
            let mut s = seed | 1;
            let mut next = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
            let m = Mask::new(w, h);
            let (mut c, mut r) = ((next() % w as u64) as isize, (next() % h as u64) as isize);
            let mut pixels = Vec::new();
            for _ in 0..len {
                pixels.push(r as usize * w + c as usize);
                let dc = (next() % 3) as isize - 1;
                let dr = (next() % 3) as isize - 1;
                c = (c + dc).clamp(0, w as isize - 1);
                r = (r + dr).clamp(0, h as isize - 1);
            }
            prop_assert_eq!(inside_loop(&m, &pixels), inside_loop_naive(&m, &pixels));
        }
    }

    #[test]
    fn clearance_of_a_bar_grows_inwards() {
        let m = Mask::parse(&[".....", ".###.", ".###.", ".###.", "....."]);
        let d = clearance(&m);
        assert_eq!(d[2 * 5 + 2], 2.0);
        assert_eq!(d[5 + 1], 1.0);
        assert_eq!(d[0], 0.0);
    }
}
