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

/// The gap of a leaking region: (crop index of the gap's mouth, crop index where the path
/// reaches a `target` pixel, clearance at the gap in pixels). `None` when no target pixel can
/// be reached from the loop.
pub fn locate_leak(
    region: &Region,
    loop_pixels: &[usize],
    target: impl Fn(usize) -> bool,
) -> Option<(usize, usize, f32)> {
    let (w, h) = (region.width, region.height);
    let clear = clearance(&region.mask, w, h);
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
fn mouth_centre(region: &Region, path: &[usize], k: usize, level: f32) -> Option<usize> {
    let w = region.width as isize;
    let h = region.height as isize;
    let xy = |p: usize| ((p % region.width) as f64, (p / region.width) as f64);
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
            if x < 0 || y < 0 || x >= w || y >= h || region.mask[(y * w + x) as usize] {
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
    Some(cy * region.width + cx)
}

/// Whether crop pixel `i` of `region` lies on the border of an image `width` × `height`.
pub fn on_image_border(region: &Region, width: usize, height: usize, i: usize) -> bool {
    let (c, r) = region.image_pixel(i);
    c == 0 || r == 0 || c + 1 == width || r + 1 == height
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
pub fn infield_spill(
    region: &Region,
    loop_pixels: &[usize],
    loop_clearance: &[f64],
) -> Option<Vec<bool>> {
    let (w, h) = (region.width, region.height);
    let n = loop_pixels.len();
    if n < 3 || loop_clearance.len() != n {
        return None;
    }
    let mut along = loop_clearance.to_vec();
    along.sort_by(f64::total_cmp);
    let reach = 2.0 * along[(n - 1) * 95 / 100] + 2.0;
    let mean_half = loop_clearance.iter().sum::<f64>() / n as f64;
    let length = crate::cycle::cycle_length(loop_pixels, w);
    // Inside the loop: crossings of the rows r + ¼ by the loop's edges, left of c + ¼.
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); h];
    for k in 0..n {
        let (a, b) = (loop_pixels[k], loop_pixels[(k + 1) % n]);
        let (ra, ca) = ((a / w) as f64, (a % w) as f64);
        let (rb, cb) = ((b / w) as f64, (b % w) as f64);
        if ra == rb {
            continue;
        }
        let row = ra.min(rb) as usize;
        let t = (row as f64 + 0.25 - ra) / (rb - ra);
        crossings[row].push(ca + t * (cb - ca));
    }
    let mut inside = vec![false; w * h];
    let mut count = 0usize;
    for (r, xs) in crossings.iter_mut().enumerate() {
        xs.sort_by(f64::total_cmp);
        let mut k = 0;
        for c in 0..w {
            while k < xs.len() && xs[k] < c as f64 + 0.25 {
                k += 1;
            }
            let i = r * w + c;
            if k % 2 == 1 && region.mask[i] {
                inside[i] = true;
                count += 1;
            }
        }
    }
    if (count as f64) <= 2.0 * length * mean_half + reach * reach {
        return None;
    }
    // Distance to the loop: chamfer from the loop pixels over the whole crop.
    let mut seeds = vec![true; w * h];
    for &p in loop_pixels {
        seeds[p] = false;
    }
    let to_loop = clearance(&seeds, w, h);
    let mut far = 0usize;
    for (i, v) in inside.iter_mut().enumerate() {
        *v = *v && to_loop[i] as f64 > reach;
        far += *v as usize;
    }
    (far as f64 > reach * reach).then_some(inside)
}
