//! Stage 3b, loop extraction (DESIGN §3.3 and "Notes for parity: loop choice"):
//! spur pruning and the shortest skeleton cycle that winds once around the infield.
//!
//! The skeleton is a graph (8-neighbour pixels, edge lengths 1 and √2). Spurs
//! are pruned by peeling end points until none is left (the 2-core), which
//! removes every tree hanging off a cycle. A ray from a point inside the infield
//! to the top of the image cuts the plane; a closed walk that crosses it an odd
//! number of times winds around the infield. Dijkstra on the two-sheeted graph
//! (crossing the ray switches sheet) from a node to its copy on the other sheet
//! gives the shortest such walk through that node; every such walk contains an
//! end of a crossing edge, so the minimum over those ends is the shortest cycle.
//! Holes other than the infield (obstacles) do not count, so the cycle passes
//! each obstacle on its shorter side.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use mapzoo_format::OccupancyMap;

use crate::error::ExtractError;
use crate::mask::{Mask, NEIGHBOURS_8 as STEPS};
#[cfg(test)]
use crate::skeleton::cycle_length;
use crate::skeleton::{pixel_area2, SkeletonLoop};
use crate::space::FreeSpace;

/// Stage 3b: prunes the spurs of `skeleton` (the [`crate::thin::skeletonize`] of
/// `space.mask`) and takes its shortest cycle around the infield, with the corner pixels put
/// back, in the Race Stack's order (module doc).
///
/// A free space that touches the image border has the border as a wall; it fails here with
/// [`ExtractError::Leak`] only when it escapes through a wall gap into free space outside the
/// track's walls, which needs the loop to tell and to locate the gap.
pub fn skeleton_loop(
    map: &OccupancyMap,
    space: &FreeSpace,
    mut skeleton: Mask,
) -> Result<SkeletonLoop, ExtractError> {
    prune_spurs(&mut skeleton);
    let ray = space.mask.col_row(space.infield.first);
    let Some(cycle) = infield_cycle(&skeleton, ray) else {
        return Err(ExtractError::NoLoop {
            why: format!(
                "the skeleton of the track region has no cycle around its infield (at {})",
                space.map_point(map, space.infield.first)
            ),
        });
    };
    let pixels = race_stack_order(&with_corners(&cycle, &skeleton), &skeleton);
    drop(skeleton);
    if space.touches_border {
        if let Some(e) = crate::leak::border_leak(map, space, &pixels) {
            return Err(e);
        }
    }
    Ok(SkeletonLoop { pixels })
}

/// The pruned skeleton graph of a crop.
struct Graph {
    /// Crop pixel index of each node.
    pixel: Vec<usize>,
    /// Neighbours of each node: (node, length in pixels, crosses the ray).
    adj: Vec<Vec<(u32, f64, bool)>>,
}

/// Removes spurs in place: repeatedly deletes skeleton pixels with at most one neighbour.
pub(crate) fn prune_spurs(skel: &mut Mask) {
    let mut degree: HashMap<usize, usize> = HashMap::new();
    let mut queue = Vec::new();
    for i in skel.ones() {
        let d = skel.set_neighbours8(i).count();
        degree.insert(i, d);
        if d <= 1 {
            queue.push(i);
        }
    }
    while let Some(i) = queue.pop() {
        if !skel[i] {
            continue;
        }
        skel[i] = false;
        let neighbours: Vec<usize> = skel.set_neighbours8(i).collect();
        for j in neighbours {
            if let Some(d) = degree.get_mut(&j) {
                *d -= 1;
                if *d == 1 {
                    queue.push(j);
                }
            }
        }
    }
}

impl Graph {
    fn build(skel: &Mask, ray: (usize, usize)) -> Self {
        let pixel: Vec<usize> = skel.ones().collect();
        let id: HashMap<usize, u32> = pixel
            .iter()
            .enumerate()
            .map(|(k, &p)| (p, k as u32))
            .collect();
        let (hc, hr) = (ray.0 as isize, ray.1 as isize);
        let adj = pixel
            .iter()
            .map(|&p| {
                let (c, r) = skel.col_row(p);
                let (c, r) = (c as isize, r as isize);
                STEPS
                    .iter()
                    .filter_map(|&(dr, dc)| {
                        let (rr, cc) = (r + dr, c + dc);
                        if !skel.contains(cc, rr) {
                            return None;
                        }
                        let q = skel.index(cc as usize, rr as usize);
                        let &k = id.get(&q)?;
                        let len = if dr != 0 && dc != 0 {
                            std::f64::consts::SQRT_2
                        } else {
                            1.0
                        };
                        Some((k, len, crosses_ray((c, r), (cc, rr), (hc, hr))))
                    })
                    .collect()
            })
            .collect();
        Graph { pixel, adj }
    }
}

/// Whether the segment between pixel centres `a` and `b` (col, row) crosses the upward ray
/// from (hr + ¼, hc + ¼), a point inside hole pixel `h` that no such segment passes through.
fn crosses_ray(a: (isize, isize), b: (isize, isize), h: (isize, isize)) -> bool {
    let (left, right) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    if left.0 != h.0 || right.0 != h.0 + 1 {
        return false;
    }
    // Row where the segment meets column hc + ¼, times 4, against the ray's start row times 4.
    4 * left.1 + (right.1 - left.1) < 4 * h.1 + 1
}

/// The shortest cycle of the skeleton winding once around the hole pixel `ray` (col, row),
/// as crop pixel indices in order (not closed). `None` when no cycle goes around it.
pub fn infield_cycle(skel: &Mask, ray: (usize, usize)) -> Option<Vec<usize>> {
    let g = Graph::build(skel, ray);
    let n = g.pixel.len();
    let mut sources: Vec<u32> = Vec::new();
    for (u, edges) in g.adj.iter().enumerate() {
        if edges.iter().any(|e| e.2) {
            sources.push(u as u32);
        }
    }
    let mut dist = vec![f64::INFINITY; 2 * n];
    let mut prev = vec![u32::MAX; 2 * n];
    let mut best: Option<(f64, Vec<u32>)> = None;
    for &s in &sources {
        dist.iter_mut().for_each(|d| *d = f64::INFINITY);
        let start = 2 * s;
        let goal = 2 * s + 1;
        dist[start as usize] = 0.0;
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0f64.to_bits(), start)));
        let bound = best.as_ref().map_or(f64::INFINITY, |b| b.0);
        while let Some(Reverse((bits, state))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > dist[state as usize] {
                continue;
            }
            if d >= bound || state == goal {
                break;
            }
            let (u, sheet) = (state / 2, state % 2);
            for &(v, len, cross) in &g.adj[u as usize] {
                let next = 2 * v + (sheet ^ cross as u32);
                let nd = d + len;
                if nd < dist[next as usize] {
                    dist[next as usize] = nd;
                    prev[next as usize] = state;
                    heap.push(Reverse((nd.to_bits(), next)));
                }
            }
        }
        let d = dist[goal as usize];
        if d < best.as_ref().map_or(f64::INFINITY, |b| b.0) {
            let mut path = Vec::new();
            let mut st = goal;
            while st != start {
                path.push(st / 2);
                st = prev[st as usize];
            }
            path.reverse();
            // path ends at s (the goal's node); rotate so the cycle starts at s.
            path.pop();
            path.insert(0, s);
            best = Some((d, path));
        }
    }
    best.map(|(_, path)| path.into_iter().map(|k| g.pixel[k as usize]).collect())
}

#[cfg(any(test, feature = "reference"))]
/// Reference twin for tests: the shortest odd-crossing closed walk by Bellman–Ford over every
/// node of the unpruned skeleton (no spur pruning, no source restriction). Returns its length.
pub fn infield_cycle_length_naive(skel: &Mask, ray: (usize, usize)) -> Option<f64> {
    let g = Graph::build(skel, ray);
    let n = g.pixel.len();
    let mut best = f64::INFINITY;
    for s in 0..n {
        let mut dist = vec![f64::INFINITY; 2 * n];
        dist[2 * s] = 0.0;
        for _ in 0..2 * n {
            let mut changed = false;
            for u in 0..n {
                for sheet in 0..2 {
                    let d = dist[2 * u + sheet];
                    if !d.is_finite() {
                        continue;
                    }
                    for &(v, len, cross) in &g.adj[u] {
                        let next = 2 * v as usize + (sheet ^ cross as usize);
                        if d + len < dist[next] - 1e-12 {
                            dist[next] = d + len;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        best = best.min(dist[2 * s + 1]);
    }
    best.is_finite().then_some(best)
}

/// Puts back the corner pixels a shortest cycle cuts: where two consecutive cycle pixels are
/// diagonal neighbours and a skeleton pixel off the cycle touches both by an edge, that pixel
/// goes between them. The Race Stack walks the skeleton's contour, which visits such corners,
/// and the smoothing works along the pixel sequence, so its points depend on them.
pub(crate) fn with_corners(cycle: &[usize], skel: &Mask) -> Vec<usize> {
    let on_cycle: std::collections::HashSet<usize> = cycle.iter().copied().collect();
    let mut out = Vec::with_capacity(cycle.len() + cycle.len() / 8);
    for k in 0..cycle.len() {
        let (a, b) = (cycle[k], cycle[(k + 1) % cycle.len()]);
        out.push(a);
        let (ca, ra) = skel.col_row(a);
        let (cb, rb) = skel.col_row(b);
        if ra != rb && ca != cb {
            // The two pixels that touch both a and b by an edge.
            for c in [skel.index(cb, ra), skel.index(ca, rb)] {
                if skel[c] && !on_cycle.contains(&c) {
                    out.push(c);
                    break;
                }
            }
        }
    }
    out
}

/// The cycle in the order OpenCV's `findContours` gives the Race Stack: from the pixel that
/// comes first in raster order of the upside-down image (largest row, then smallest column),
/// turning with positive shoelace area in (column, row) coordinates (clockwise in the world).
/// The smoothing's seam patch ([`crate::smooth::race_stack_seam`]) depends on where it starts.
/// `grid` is the mask the indices address.
pub(crate) fn race_stack_order(cycle: &[usize], grid: &Mask) -> Vec<usize> {
    let n = cycle.len();
    if n == 0 {
        return Vec::new();
    }
    let key = |p: usize| {
        let (c, r) = grid.col_row(p);
        (std::cmp::Reverse(r), c)
    };
    let start = (0..n).min_by_key(|&k| key(cycle[k])).unwrap_or(0);
    let area2 = pixel_area2(cycle, grid);
    if area2 >= 0 {
        (0..n).map(|k| cycle[(start + k) % n]).collect()
    } else {
        (0..n).map(|k| cycle[(start + n - k) % n]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn picks_the_loop_around_the_infield_not_the_small_one() {
        // The big ring goes around the infield (marked by `ray` at col 6, row 4);
        // the small ring on the right (around an obstacle) must not win.
        let mut s = Mask::parse(&[
            "..............",
            ".##########...",
            ".#........#...",
            ".#........#...",
            ".#........###.",
            ".#........#.#.",
            ".#........###.",
            ".##########...",
            "....#.........",
            "....#.........",
        ]);
        prune_spurs(&mut s);
        assert!(!s.get(4, 9), "the spur is pruned");
        let cyc = infield_cycle(&s, (6, 4)).expect("a cycle");
        let len = cycle_length(&cyc, &s);
        // 30 four-neighbour steps around the ring, each corner cut by a diagonal.
        let expected = 30.0 - 4.0 * (2.0 - std::f64::consts::SQRT_2);
        assert!((len - expected).abs() < 1e-9, "length {len}");
        assert!(
            cyc.iter().all(|&p| s.col_row(p).0 <= 10),
            "stays off the obstacle ring"
        );
    }

    #[test]
    fn corners_go_back_and_order_follows_opencv() {
        let s = Mask::parse(&[".....", "..#..", ".#.#.", "..##.", "....."]);
        let w = s.width;
        // A diamond-ish loop; the shortest cycle cuts the corner at (3, 3).
        let cut = vec![w + 2, 2 * w + 3, 3 * w + 2, 2 * w + 1];
        let full = with_corners(&cut, &s);
        assert_eq!(
            full,
            vec![w + 2, 2 * w + 3, 3 * w + 3, 3 * w + 2, 2 * w + 1]
        );
        let ordered = race_stack_order(&full, &s);
        // Starts at the bottom row's leftmost pixel, then turns clockwise on screen.
        assert_eq!(ordered[0], 3 * w + 2);
        assert_eq!(ordered[1], 2 * w + 1);
    }

    #[test]
    fn no_cycle_around_a_point_outside_every_loop() {
        let s = Mask::parse(&[".....", ".###.", ".#.#.", ".###.", "....."]);
        assert!(infield_cycle(&s, (2, 2)).is_some());
        let t = Mask::parse(&[".....", ".###.", ".....", ".###.", "....."]);
        assert!(infield_cycle(&t, (2, 2)).is_none());
    }

    proptest! {
        #[test]
        fn dijkstra_matches_bellman_ford(w in 3usize..10, h in 3usize..10, seed in any::<u64>()) {
            let mut st = seed | 1;
            let data = (0..w * h).map(|_| { st ^= st << 13; st ^= st >> 7; st ^= st << 17; st % 3 == 0 }).collect();
            let mut s = Mask { width: w, height: h, data };
            let ray = ((st as usize / 7) % w, (st as usize / 97) % h);
            let at = s.index(ray.0, ray.1);
            s[at] = false;
            let naive = infield_cycle_length_naive(&s, ray);
            prune_spurs(&mut s);
            let fast = infield_cycle(&s, ray).map(|c| cycle_length(&c, &s));
            match (fast, naive) {
                (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-9, "{} vs {}", a, b),
                (None, None) => {}
                (a, b) => prop_assert!(false, "fast {:?} naive {:?}", a, b),
            }
        }
    }
}
