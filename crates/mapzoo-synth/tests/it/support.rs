//! Helpers shared by the generator tests: an independent band distance, a
//! sampling LCG, pixel lookup, flood fill and the default small options.

use std::collections::VecDeque;

use mapzoo_synth::{CenterlineSpec, SynthMap, SynthOptions, TruthPoint};

/// Signed distance from (x, y) to the band's edge (negative inside), metres:
/// the band is the union of the capsules around the truth segments, radius
/// half the width interpolated along each segment.
pub(crate) fn edge(points: &[TruthPoint], x: f64, y: f64) -> f64 {
    let n = points.len();
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (&points[i], &points[(i + 1) % n]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let len2 = ex * ex + ey * ey;
        let t = (((x - a.x) * ex + (y - a.y) * ey) / len2).clamp(0.0, 1.0);
        let d = (x - a.x - t * ex).hypot(y - a.y - t * ey);
        best = best.min(d - (a.d_left + t * (b.d_left - a.d_left)));
    }
    best
}

/// A tiny LCG, independent of the generator's RNG, to pick sample pixels.
pub(crate) struct Lcg(pub(crate) u64);
impl Lcg {
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

pub(crate) fn px(map: &SynthMap, x: f64, y: f64) -> (i64, i64) {
    let (c, r) = map.world_to_pixel(x, y);
    (c.round() as i64, r.round() as i64)
}

/// Free pixels reachable from (c, r) through free pixels (4-neighbours).
pub(crate) fn flood(map: &SynthMap, start: (i64, i64), free: impl Fn(u8) -> bool) -> Vec<bool> {
    let mut seen = vec![false; map.width * map.height];
    let mut queue = VecDeque::from([start]);
    while let Some((c, r)) = queue.pop_front() {
        match map.pixel(c, r) {
            Some(v) if free(v) => {}
            _ => continue,
        }
        let i = r as usize * map.width + c as usize;
        if seen[i] {
            continue;
        }
        seen[i] = true;
        queue.extend([(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]);
    }
    seen
}

pub(crate) fn touches_border(map: &SynthMap, seen: &[bool]) -> bool {
    (0..map.height).any(|r| {
        (0..map.width).any(|c| {
            let on_border = r == 0 || c == 0 || r == map.height - 1 || c == map.width - 1;
            on_border && seen[r * map.width + c]
        })
    })
}

pub(crate) fn opts(seed: u64) -> SynthOptions {
    SynthOptions {
        seed,
        centerline: CenterlineSpec::Random {
            lap_length: Some(50.0),
        },
        resolution: 0.08,
        ..SynthOptions::default()
    }
}
