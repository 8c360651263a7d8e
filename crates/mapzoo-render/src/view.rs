//! Where the map lands in the picture: one uniform scale from map pixels to
//! image pixels (true scale, no stretch) and the world ↔ image transform
//! built on the map's own pixel convention (DESIGN §2.1).

use mapzoo_format::world_to_pixel;
use mapzoo_format::OccupancyMap;

use crate::canvas::{Canvas, Px};

/// Gray drawn for a black (occupied) map pixel; lines stay readable on it.
const GRAY_OCCUPIED: f64 = 96.0;
/// Gray drawn for a white (free) map pixel.
const GRAY_FREE: f64 = 250.0;

/// The placement of an occupancy map in a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapView {
    /// Image x of the map's left edge, pixels.
    pub left: f64,
    /// Image y of the map's top edge, pixels.
    pub top: f64,
    /// Image pixels per map pixel.
    pub scale: f64,
    /// Map width, map pixels.
    pub map_width: usize,
    /// Map height, map pixels.
    pub map_height: usize,
    /// Map resolution, metres per map pixel.
    pub resolution: f64,
    /// World pose `[x, y, yaw]` of the map's bottom-left pixel (metres, radians).
    pub origin: [f64; 3],
}

impl MapView {
    /// The largest true-scale placement of `map` inside the box at
    /// (`left`, `top`) of `box_w` × `box_h` pixels, centred in it.
    pub fn fit(map: &OccupancyMap, left: f64, top: f64, box_w: f64, box_h: f64) -> Self {
        let (w, h) = (map.width.max(1) as f64, map.height.max(1) as f64);
        let scale = (box_w / w).min(box_h / h);
        MapView {
            left: left + (box_w - w * scale) / 2.0,
            top: top + (box_h - h * scale) / 2.0,
            scale,
            map_width: map.width,
            map_height: map.height,
            resolution: map.resolution,
            origin: map.origin,
        }
    }

    /// Width of the drawn map, image pixels.
    pub fn width_px(&self) -> f64 {
        self.map_width as f64 * self.scale
    }

    /// Height of the drawn map, image pixels.
    pub fn height_px(&self) -> f64 {
        self.map_height as f64 * self.scale
    }

    /// Image position of world point (x, y) metres; map pixel (c, r) lands
    /// at the centre of its scaled block.
    pub fn world_to_image(&self, x: f64, y: f64) -> Px {
        let (c, r) = world_to_pixel(self.origin, self.resolution, self.map_height, x, y);
        [
            self.left + (c + 0.5) * self.scale,
            self.top + (r + 0.5) * self.scale,
        ]
    }

    /// Image pixels per world metre.
    pub fn px_per_metre(&self) -> f64 {
        self.scale / self.resolution
    }
}

/// Display gray of a map gray value: the map's own shades, compressed so
/// occupied space is mid-gray instead of black.
fn display_gray(v: f64) -> u8 {
    (GRAY_OCCUPIED + (GRAY_FREE - GRAY_OCCUPIED) * v / 255.0).round() as u8
}

/// Draws the map's gray pixels into its view: bilinear when enlarged, the
/// mean of the covered map pixels when reduced (no aliasing of thin walls).
pub fn draw_map(canvas: &mut Canvas, map: &OccupancyMap, view: &MapView) {
    if map.width == 0 || map.height == 0 || map.gray.len() != map.width * map.height {
        return;
    }
    let x0 = view.left.max(0.0).floor() as usize;
    let y0 = view.top.max(0.0).floor() as usize;
    let x1 = ((view.left + view.width_px()).ceil().max(0.0) as usize).min(canvas.width());
    let y1 = ((view.top + view.height_px()).ceil().max(0.0) as usize).min(canvas.height());
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let inv = 1.0 / view.scale;
    // The sampling of a picture column depends on x only and of a row on y
    // only, so both are worked out once per column and row.
    let cols: Vec<Option<Taps>> = (x0..x1)
        .map(|x| Taps::new(x as f64, view.left, inv, view.scale, map.width))
        .collect();
    let rows: Vec<Option<Taps>> = (y0..y1)
        .map(|y| Taps::new(y as f64, view.top, inv, view.scale, map.height))
        .collect();
    let at = |c: usize, r: usize| map.gray[r * map.width + c] as f64;
    for (y, row) in (y0..y1).zip(&rows) {
        let Some(row) = row else { continue };
        for (x, col) in (x0..x1).zip(&cols) {
            let Some(col) = col else { continue };
            let g = match (row, col) {
                (Taps::Linear(r0, r1, tv), Taps::Linear(c0, c1, tu)) => {
                    let top = at(*c0, *r0) * (1.0 - tu) + at(*c1, *r0) * tu;
                    let bottom = at(*c0, *r1) * (1.0 - tu) + at(*c1, *r1) * tu;
                    top * (1.0 - tv) + bottom * tv
                }
                (Taps::Box(r_lo, r_hi), Taps::Box(c_lo, c_hi)) => {
                    let mut sum = 0.0;
                    for r in *r_lo..*r_hi {
                        for c in *c_lo..*c_hi {
                            sum += at(c, r);
                        }
                    }
                    sum / ((r_hi - r_lo) * (c_hi - c_lo)) as f64
                }
                _ => continue,
            };
            let d = display_gray(g);
            canvas.set(x, y, [d, d, d]);
        }
    }
}

/// How one picture column (or row) samples the map along that axis.
enum Taps {
    /// Enlarged: map pixels `a`, `b` mixed with weight `t` on `b`.
    Linear(usize, usize, f64),
    /// Reduced: the mean over map pixels `lo..hi`.
    Box(usize, usize),
}

impl Taps {
    /// Sampling of picture pixel `i` for a map edge at `edge` (picture
    /// pixels), `inv` map pixels per picture pixel, over `n` map pixels;
    /// `None` when the pixel centre falls outside the map.
    fn new(i: f64, edge: f64, inv: f64, scale: f64, n: usize) -> Option<Self> {
        let u = (i + 0.5 - edge) * inv;
        if u < 0.0 || u >= n as f64 {
            return None;
        }
        if scale >= 1.0 {
            // Bilinear between map pixel centres at (c + 0.5).
            let f = u - 0.5;
            let a = f.floor().clamp(0.0, (n - 1) as f64) as usize;
            let b = (a + 1).min(n - 1);
            Some(Taps::Linear(a, b, (f - a as f64).clamp(0.0, 1.0)))
        } else {
            let lo = ((i - edge) * inv).floor().max(0.0) as usize;
            let hi = ((((i + 1.0 - edge) * inv).ceil()) as usize).clamp(lo + 1, n);
            Some(Taps::Box(lo.min(n - 1), hi))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mapzoo_format::{FreeRule, MapMeta};

    fn map(width: usize, height: usize, gray: Vec<u8>) -> OccupancyMap {
        let meta = MapMeta {
            image: "m.png".into(),
            resolution: 0.1,
            origin: [-1.0, 2.0, 0.0],
            negate: 0,
            occupied_thresh: 0.65,
            free_thresh: 0.196,
            mode: None,
        };
        OccupancyMap::from_gray(width, height, gray, &meta, FreeRule::MapServer)
    }

    #[test]
    fn world_point_of_a_map_pixel_lands_in_its_block() {
        let m = map(4, 3, vec![0; 12]);
        let v = MapView::fit(&m, 10.0, 20.0, 40.0, 40.0);
        assert_eq!(v.scale, 10.0);
        let (x, y) = m.pixel_to_world(2.0, 1.0);
        let p = v.world_to_image(x, y);
        assert!((p[0] - (v.left + 25.0)).abs() < 1e-9, "{p:?}");
        assert!((p[1] - (v.top + 15.0)).abs() < 1e-9, "{p:?}");
        assert!((v.top - 25.0).abs() < 1e-12, "centred vertically");
    }

    #[test]
    fn enlarged_map_keeps_pixel_grays_at_block_centres() {
        // A 2×2 map: black, white / white, black.
        let m = map(2, 2, vec![0, 255, 255, 0]);
        let v = MapView::fit(&m, 0.0, 0.0, 8.0, 8.0);
        let mut c = Canvas::new(8, 8, [1, 2, 3]);
        draw_map(&mut c, &m, &v);
        assert_eq!(c.get(0, 0), Some([96, 96, 96]));
        assert_eq!(c.get(7, 0), Some([250, 250, 250]));
        assert_eq!(c.get(7, 7), Some([96, 96, 96]));
    }

    /// Per-pixel resampling, every weight worked out at the pixel.
    fn naive_draw_map(canvas: &mut Canvas, map: &OccupancyMap, view: &MapView) {
        let at = |c: usize, r: usize| map.gray[r * map.width + c] as f64;
        for y in 0..canvas.height() {
            for x in 0..canvas.width() {
                let u = (x as f64 + 0.5 - view.left) / view.scale;
                let v = (y as f64 + 0.5 - view.top) / view.scale;
                if u < 0.0 || v < 0.0 || u >= map.width as f64 || v >= map.height as f64 {
                    continue;
                }
                let g = if view.scale >= 1.0 {
                    let (fu, fv) = (u - 0.5, v - 0.5);
                    let c0 = fu.floor().clamp(0.0, (map.width - 1) as f64) as usize;
                    let r0 = fv.floor().clamp(0.0, (map.height - 1) as f64) as usize;
                    let (c1, r1) = ((c0 + 1).min(map.width - 1), (r0 + 1).min(map.height - 1));
                    let tu = (fu - c0 as f64).clamp(0.0, 1.0);
                    let tv = (fv - r0 as f64).clamp(0.0, 1.0);
                    let top = at(c0, r0) * (1.0 - tu) + at(c1, r0) * tu;
                    let bottom = at(c0, r1) * (1.0 - tu) + at(c1, r1) * tu;
                    top * (1.0 - tv) + bottom * tv
                } else {
                    let ua = (x as f64 - view.left) / view.scale;
                    let ub = (x as f64 + 1.0 - view.left) / view.scale;
                    let va = (y as f64 - view.top) / view.scale;
                    let vb = (y as f64 + 1.0 - view.top) / view.scale;
                    let c_lo = (ua.floor().max(0.0) as usize).min(map.width - 1);
                    let c_hi = (ub.ceil() as usize).clamp(c_lo + 1, map.width);
                    let r_lo = (va.floor().max(0.0) as usize).min(map.height - 1);
                    let r_hi = (vb.ceil() as usize).clamp(r_lo + 1, map.height);
                    let mut sum = 0.0;
                    for r in r_lo..r_hi {
                        for c in c_lo..c_hi {
                            sum += at(c, r);
                        }
                    }
                    sum / ((r_hi - r_lo) * (c_hi - c_lo)) as f64
                };
                let d = display_gray(g);
                canvas.set(x, y, [d, d, d]);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn tabled_resampling_matches_per_pixel_resampling(
            w in 1usize..12, h in 1usize..12,
            seed in proptest::collection::vec(proptest::num::u8::ANY, 144),
            box_w in 3.0f64..60.0, box_h in 3.0f64..60.0,
            left in -5.0f64..5.0, top in -5.0f64..5.0,
        ) {
            let m = map(w, h, seed[..w * h].to_vec());
            let v = MapView::fit(&m, left, top, box_w, box_h);
            let mut fast = Canvas::new(64, 64, [1, 2, 3]);
            draw_map(&mut fast, &m, &v);
            let mut slow = Canvas::new(64, 64, [1, 2, 3]);
            naive_draw_map(&mut slow, &m, &v);
            proptest::prop_assert_eq!(fast, slow);
        }
    }

    #[test]
    fn reduced_map_averages() {
        let m = map(4, 4, [0, 255].repeat(8));
        let v = MapView::fit(&m, 0.0, 0.0, 2.0, 2.0);
        let mut c = Canvas::new(2, 2, [1, 2, 3]);
        draw_map(&mut c, &m, &v);
        assert_eq!(c.get(0, 0), Some([173, 173, 173]));
    }
}
