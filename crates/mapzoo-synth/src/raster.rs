//! Rasterisation: the signed distance to the free band's edge per pixel, the
//! gray values it gives (binary or an anti-aliased ramp, unknown beyond the
//! walls), and obstacles carved out of it.

use mapzoo_geom::{offset_point, Norm};

use crate::constants::{FREE, OCCUPIED, UNKNOWN};
use crate::frame::Frame;
use crate::options::ObstacleShape;
use crate::truth::PlacedObstacle;

/// Signed distance to the free region's edge per pixel, pixel units; exact
/// where it is at most `reach`, larger than `reach` (or +∞) elsewhere.
pub(crate) struct Field {
    /// Image width, pixels.
    pub(crate) width: usize,
    /// Image height, pixels.
    pub(crate) height: usize,
    /// Distance up to which the field is exact, pixels.
    reach: f64,
    /// Signed distance per pixel, row-major, pixels (negative inside).
    pub(crate) dist: Vec<f32>,
}

impl Field {
    /// A field of `width` × `height` pixels with nothing free yet.
    pub(crate) fn new(width: usize, height: usize, reach: f64) -> Self {
        Field {
            width,
            height,
            reach,
            dist: vec![f32::INFINITY; width * height],
        }
    }

    /// The distance at pixel (c, r), +∞ outside the image.
    pub(crate) fn at(&self, c: i64, r: i64) -> f64 {
        if c < 0 || r < 0 || c as usize >= self.width || r as usize >= self.height {
            return f64::INFINITY;
        }
        self.dist[r as usize * self.width + c as usize] as f64
    }

    /// Unions a capsule a → b with radius ra → rb (pixel units) into the field.
    pub(crate) fn capsule(&mut self, a: [f64; 2], b: [f64; 2], ra: f64, rb: f64) {
        let pad = ra.max(rb) + self.reach;
        let c0 = (a[0].min(b[0]) - pad).floor().max(0.0);
        let c1 = (a[0].max(b[0]) + pad).ceil().min(self.width as f64 - 1.0);
        let r0 = (a[1].min(b[1]) - pad).floor().max(0.0);
        let r1 = (a[1].max(b[1]) + pad).ceil().min(self.height as f64 - 1.0);
        if c0 > c1 || r0 > r1 {
            return;
        }
        let (c0, c1, r0, r1) = (c0 as usize, c1 as usize, r0 as usize, r1 as usize);
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let inv = if len2 > 0.0 { 1.0 / len2 } else { 0.0 };
        let dr = rb - ra;
        for r in r0..=r1 {
            let py = r as f64 - a[1];
            let row = &mut self.dist[r * self.width..(r + 1) * self.width];
            for (c, cell) in row.iter_mut().enumerate().take(c1 + 1).skip(c0) {
                let px = c as f64 - a[0];
                let t = ((px * ab[0] + py * ab[1]) * inv).clamp(0.0, 1.0);
                let dx = px - t * ab[0];
                let dy = py - t * ab[1];
                let d = (dx * dx + dy * dy).sqrt() - (ra + t * dr);
                let d = d as f32;
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }
}

impl Field {
    /// Unions the band around the closed polyline `pts` (pixel coordinates)
    /// with radius `radii` (pixels, linear along each segment) into the field.
    ///
    /// Each pixel is evaluated only where its nearest polyline point can be:
    /// in the strip beside a segment (foot point inside it) or, at a vertex,
    /// in the wedge on the convex side. That is a few hundred pixels per
    /// segment instead of the whole bounding box of its capsule. It equals
    /// the union of [`Field::capsule`]s for a constant radius; with a varying
    /// radius it can differ at a vertex by the radius change along the
    /// adjacent segment (a small fraction of a pixel for smooth widths).
    pub(crate) fn band(&mut self, pts: &[[f64; 2]], radii: &[f64]) {
        let n = pts.len();
        for i in 0..n {
            let j = (i + 1) % n;
            self.strip(pts[i], pts[j], radii[i], radii[j]);
            let h = (i + n - 1) % n;
            self.wedge(pts[h], pts[i], pts[j], radii[i]);
        }
    }

    /// The pixels whose foot point on segment a → b lies inside it.
    fn strip(&mut self, a: [f64; 2], b: [f64; 2], ra: f64, rb: f64) {
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len = ab[0].hypot(ab[1]);
        if len < 1e-9 {
            return;
        }
        let u = [ab[0] / len, ab[1] / len];
        let nrm = [-u[1], u[0]];
        let big = ra.max(rb) + self.reach;
        let ys = [
            a[1] + big * nrm[1],
            a[1] - big * nrm[1],
            b[1] + big * nrm[1],
            b[1] - big * nrm[1],
        ];
        let y0 = ys
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            .floor()
            .max(0.0);
        let y1 = ys
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            .ceil()
            .min(self.height as f64 - 1.0);
        if y0 > y1 {
            return;
        }
        let dr = rb - ra;
        for r in y0 as usize..=y1 as usize {
            let py = r as f64 - a[1];
            // 0 ≤ (p − a)·u ≤ len and |(p − a)·n| ≤ big, each linear in the column.
            let Some((lo, hi)) = clip(u[0], py * u[1], 0.0, len)
                .and_then(|iv| intersect(iv, clip(nrm[0], py * nrm[1], -big, big)?))
            else {
                continue;
            };
            let c0 = (a[0] + lo).ceil().max(0.0);
            let c1 = (a[0] + hi).floor().min(self.width as f64 - 1.0);
            if c0 > c1 {
                continue;
            }
            let row = &mut self.dist[r * self.width..(r + 1) * self.width];
            for (c, cell) in row
                .iter_mut()
                .enumerate()
                .take(c1 as usize + 1)
                .skip(c0 as usize)
            {
                let px = c as f64 - a[0];
                let t = ((px * u[0] + py * u[1]) / len).clamp(0.0, 1.0);
                let d = ((px * nrm[0] + py * nrm[1]).abs() - (ra + t * dr)) as f32;
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }

    /// The pixels nearest to vertex v between segments prev → v and v → next
    /// (the wedge on the convex side of the turn).
    fn wedge(&mut self, prev: [f64; 2], v: [f64; 2], next: [f64; 2], rv: f64) {
        let (l0, l1) = (Norm::Hypot.distance(prev, v), Norm::Hypot.distance(v, next));
        if l0 < 1e-9 || l1 < 1e-9 {
            self.capsule(v, v, rv, rv);
            return;
        }
        let u0 = [(v[0] - prev[0]) / l0, (v[1] - prev[1]) / l0];
        let u1 = [(next[0] - v[0]) / l1, (next[1] - v[1]) / l1];
        let bis = [u0[0] - u1[0], u0[1] - u1[1]];
        let blen = bis[0].hypot(bis[1]);
        if blen < 1e-12 {
            return;
        }
        let big = rv + self.reach;
        let (c0, c1, r0, r1) = if u0[0] * u1[0] + u0[1] * u1[1] > 0.9 {
            // Small turn: the sector hugs its two edge rays and its mid ray.
            let side = |w: [f64; 2], other: [f64; 2], sign: f64| {
                let m = [-w[1], w[0]];
                if (m[0] * other[0] + m[1] * other[1]) * sign >= 0.0 {
                    m
                } else {
                    [-m[0], -m[1]]
                }
            };
            let m0 = side(u0, u1, -1.0);
            let m1 = side(u1, u0, 1.0);
            let mid = [bis[0] / blen, bis[1] / blen];
            let pts = [
                v,
                offset_point(v, m0, big),
                offset_point(v, m1, big),
                offset_point(v, mid, big),
            ];
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in pts {
                for k in 0..2 {
                    lo[k] = lo[k].min(p[k] - 2.0);
                    hi[k] = hi[k].max(p[k] + 2.0);
                }
            }
            (lo[0], hi[0], lo[1], hi[1])
        } else {
            (v[0] - big, v[0] + big, v[1] - big, v[1] + big)
        };
        let c0 = c0.floor().max(0.0);
        let c1 = c1.ceil().min(self.width as f64 - 1.0);
        let r0 = r0.floor().max(0.0);
        let r1 = r1.ceil().min(self.height as f64 - 1.0);
        if c0 > c1 || r0 > r1 {
            return;
        }
        for r in r0 as usize..=r1 as usize {
            let py = r as f64 - v[1];
            for c in c0 as usize..=c1 as usize {
                let px = c as f64 - v[0];
                if px * u0[0] + py * u0[1] < 0.0 || px * u1[0] + py * u1[1] > 0.0 {
                    continue;
                }
                let d = ((px * px + py * py).sqrt() - rv) as f32;
                let cell = &mut self.dist[r * self.width + c];
                if d < *cell {
                    *cell = d;
                }
            }
        }
    }
}

/// The interval of x with lo ≤ x·k + off ≤ hi; `None` if empty; unbounded if k = 0 and it holds.
fn clip(k: f64, off: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if k.abs() < 1e-12 {
        return (lo..=hi)
            .contains(&off)
            .then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (x0, x1) = ((lo - off) / k, (hi - off) / k);
    Some((x0.min(x1), x0.max(x1)))
}

/// The intersection of two intervals; `None` if empty.
fn intersect(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo <= hi).then_some((lo, hi))
}

/// Gray pixels from the distance to the free region's edge: free inside,
/// occupied outside, a coverage ramp `ramp` px wide across the edge if
/// `ramp` > 0, and unknown farther than `unknown_beyond` px.
pub(crate) fn gray_from_field(field: &Field, ramp: f64, unknown_beyond: Option<f64>) -> Vec<u8> {
    let mut gray = vec![OCCUPIED; field.width * field.height];
    for (g, &f) in gray.iter_mut().zip(field.dist.iter()) {
        let f = f as f64;
        *g = if ramp > 0.0 && f.abs() < ramp / 2.0 {
            coverage_gray(0.5 - f / ramp)
        } else if f <= 0.0 {
            FREE
        } else {
            OCCUPIED
        };
        if let Some(t) = unknown_beyond {
            if f > t && *g == OCCUPIED {
                *g = UNKNOWN;
            }
        }
    }
    gray
}

/// Gray of a pixel whose free coverage is `cov` (clamped to 0..1).
fn coverage_gray(cov: f64) -> u8 {
    (cov.clamp(0.0, 1.0) * FREE as f64).round() as u8
}

/// Carves an obstacle out of the gray image (occupied, with the anti-alias ramp if `ramp` > 0).
pub(crate) fn carve_obstacle(gray: &mut [u8], frame: &Frame, ob: &PlacedObstacle, ramp: f64) {
    let res = frame.res;
    let c = frame.to_px(ob.center);
    // Heading in pixel axes: rows grow downwards, so the y component flips.
    let u = [ob.heading.cos(), -ob.heading.sin()];
    let v = [-u[1], u[0]];
    let pad = ob.shape.half_along().hypot(ob.shape.half_across()) / res + ramp + 2.0;
    let c0 = (c[0] - pad).floor().max(0.0);
    let c1 = (c[0] + pad).ceil().min(frame.width as f64 - 1.0);
    let r0 = (c[1] - pad).floor().max(0.0);
    let r1 = (c[1] + pad).ceil().min(frame.height as f64 - 1.0);
    if c0 > c1 || r0 > r1 {
        return;
    }
    for r in r0 as usize..=r1 as usize {
        for col in c0 as usize..=c1 as usize {
            let d = [col as f64 - c[0], r as f64 - c[1]];
            let sdf = match ob.shape {
                ObstacleShape::Disc { radius } => (d[0] * d[0] + d[1] * d[1]).sqrt() - radius / res,
                ObstacleShape::Box { length, width } => {
                    let qx = (d[0] * u[0] + d[1] * u[1]).abs() - length / 2.0 / res;
                    let qy = (d[0] * v[0] + d[1] * v[1]).abs() - width / 2.0 / res;
                    let outside = qx.max(0.0).hypot(qy.max(0.0));
                    outside + qx.max(qy).min(0.0)
                }
            };
            let g = if ramp > 0.0 {
                coverage_gray(0.5 + sdf / ramp)
            } else if sdf <= 0.0 {
                OCCUPIED
            } else {
                FREE
            };
            let cell = &mut gray[r * frame.width + col];
            *cell = (*cell).min(g);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::f64::consts::TAU;

    /// The reference twin of [`Field::band`]: every capsule over its whole bounding box.
    fn capsules(w: usize, h: usize, reach: f64, pts: &[[f64; 2]], radii: &[f64]) -> Field {
        let mut f = Field::new(w, h, reach);
        let n = pts.len();
        for i in 0..n {
            let j = (i + 1) % n;
            f.capsule(pts[i], pts[j], radii[i], radii[j]);
        }
        f
    }

    /// A random star-shaped closed polygon in a 64×64 px image.
    fn polygon() -> impl Strategy<Value = (Vec<[f64; 2]>, Vec<f64>)> {
        (3usize..24).prop_flat_map(|n| {
            (
                proptest::collection::vec((6.0f64..26.0, 0.0f64..1.0), n),
                proptest::collection::vec(1.0f64..6.0, n),
            )
                .prop_map(move |(polar, radii)| {
                    let pts = polar
                        .iter()
                        .enumerate()
                        .map(|(i, &(r, jitter))| {
                            let a = TAU * (i as f64 + 0.8 * jitter) / n as f64;
                            [32.0 + r * a.cos(), 32.0 + r * a.sin()]
                        })
                        .collect();
                    (pts, radii)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// With a constant radius the strip-and-wedge band equals the union of capsules.
        #[test]
        fn band_equals_capsules_for_constant_radius((pts, radii) in polygon()) {
            let r = radii[0];
            let radii = vec![r; pts.len()];
            let reach = 3.0;
            let mut fast = Field::new(64, 64, reach);
            fast.band(&pts, &radii);
            let slow = capsules(64, 64, reach, &pts, &radii);
            for (i, (&a, &b)) in fast.dist.iter().zip(&slow.dist).enumerate() {
                if (b as f64) <= reach {
                    prop_assert!((a - b).abs() < 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                } else {
                    prop_assert!(a as f64 > reach - 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                }
            }
        }

        /// With a varying radius they differ by at most the radius change along one segment.
        #[test]
        fn band_is_close_to_capsules_for_varying_radius((pts, radii) in polygon()) {
            let reach = 3.0;
            let n = pts.len();
            let step = (0..n).map(|i| (radii[(i + 1) % n] - radii[i]).abs()).fold(0.0, f64::max);
            let mut fast = Field::new(64, 64, reach);
            fast.band(&pts, &radii);
            let slow = capsules(64, 64, reach, &pts, &radii);
            for (i, (&a, &b)) in fast.dist.iter().zip(&slow.dist).enumerate() {
                if (b as f64) <= reach - step {
                    let (a, b) = (a as f64, b as f64);
                    prop_assert!(a >= b - 1e-3 && a <= b + step + 1e-3, "pixel {}: band {} vs capsules {}", i, a, b);
                }
            }
        }
    }
}
