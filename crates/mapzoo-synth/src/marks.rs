//! Marks inside the track that are not obstacles, drawn onto a generated map: a one-pixel
//! (dotted) grey trace of a driven line and lone grey pixels, as team maps carry them (issue
//! 20). Each mark pixel keeps two pixels clear of everything that was not free before it was
//! drawn (walls, obstacles) and of other marks, so every mark stays a speck of its own.

use crate::constants::FREE;
use crate::output::SynthMap;
use crate::rng::SplitMix64;

/// Whether every pixel within Chebyshev distance 2 of (col, row) is free in `gray`, except
/// those `own` allows (the trace's own earlier pixels).
fn clear(map: &SynthMap, gray: &[u8], col: i64, row: i64, own: impl Fn(usize) -> bool) -> bool {
    (-2..=2).all(|dr| {
        (-2..=2).all(|dc| {
            let (c, r) = (col + dc, row + dr);
            if c < 0 || r < 0 || c as usize >= map.width || r as usize >= map.height {
                return false;
            }
            let i = r as usize * map.width + c as usize;
            gray[i] == FREE || own(i)
        })
    })
}

/// Draws a one-pixel trace of grey `grey` along the true centerline shifted `offset` metres
/// to the left, in dashes of `dash[0]` metres drawn and `dash[1]` metres left out
/// (`dash[1] = 0`: a continuous line). Returns the pixels drawn (row-major indices, in the
/// order drawn); a pixel within two of a wall, an obstacle or another mark is left out.
pub fn draw_trace(map: &mut SynthMap, offset: f64, grey: u8, dash: [f64; 2]) -> Vec<usize> {
    let before = map.gray.clone();
    let t = map.truth.centerline.clone();
    let step = map.meta.resolution / 4.0;
    let period = (dash[0] + dash[1]).max(step);
    let mut drawn: Vec<usize> = Vec::new();
    let mut mine = vec![false; map.gray.len()];
    for k in 0..t.len() {
        let (a, b) = (&t[k], &t[(k + 1) % t.len()]);
        let len = (b.x - a.x).hypot(b.y - a.y);
        if len <= 0.0 {
            continue;
        }
        let n = (len / step).ceil().max(1.0) as usize;
        for j in 0..n {
            let f = j as f64 / n as f64;
            let s = a.s + f * len;
            if s.rem_euclid(period) >= dash[0] {
                continue;
            }
            // The left normal of the segment, as long as `offset`.
            let (nx, ny) = (-(b.y - a.y) / len * offset, (b.x - a.x) / len * offset);
            let (x, y) = (a.x + f * (b.x - a.x) + nx, a.y + f * (b.y - a.y) + ny);
            let (c, r) = map.world_to_pixel(x, y);
            let (c, r) = (c.round() as i64, r.round() as i64);
            if !clear(map, &before, c, r, |i| mine[i]) {
                continue;
            }
            let i = r as usize * map.width + c as usize;
            if !mine[i] {
                mine[i] = true;
                map.gray[i] = grey;
                drawn.push(i);
            }
        }
    }
    drawn
}

/// Sets `count` lone pixels of grey `grey` inside the track, at random (stream `seed`) but
/// each with every pixel within two of it free: away from walls, obstacles and other marks.
/// Returns the pixels set (row-major indices); fewer than `count` when the track has no room.
pub fn sprinkle(map: &mut SynthMap, count: usize, grey: u8, seed: u64) -> Vec<usize> {
    let mut rng = SplitMix64::new(seed);
    let t = map.truth.centerline.clone();
    let mut set = Vec::new();
    for _ in 0..count {
        for _try in 0..100 {
            let p = &t[rng.below(t.len() as u64) as usize];
            let off = rng.uniform(-p.d_right, p.d_left);
            let (x, y) = (p.x - p.psi.sin() * off, p.y + p.psi.cos() * off);
            let (c, r) = map.world_to_pixel(x, y);
            let (c, r) = (c.round() as i64, r.round() as i64);
            if clear(map, &map.gray, c, r, |_| false) {
                let i = r as usize * map.width + c as usize;
                map.gray[i] = grey;
                set.push(i);
                break;
            }
        }
    }
    set
}
