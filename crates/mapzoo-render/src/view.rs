//! Where the map lands in the picture: one uniform scale from map pixels to
//! image pixels (true scale, no stretch) and the world ↔ image transform
//! built on the map's own pixel convention (DESIGN §2.1).

use mapzoo_format::map::world_to_pixel;
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
    let at = |c: usize, r: usize| map.gray[r * map.width + c] as f64;
    let inv = 1.0 / view.scale;
    for y in y0..y1 {
        let v = (y as f64 + 0.5 - view.top) * inv;
        if v < 0.0 || v >= map.height as f64 {
            continue;
        }
        for x in x0..x1 {
            let u = (x as f64 + 0.5 - view.left) * inv;
            if u < 0.0 || u >= map.width as f64 {
                continue;
            }
            let g = if view.scale >= 1.0 {
                // Bilinear between map pixel centres at (c + 0.5, r + 0.5).
                let (fu, fv) = (u - 0.5, v - 0.5);
                let c0 = fu.floor().clamp(0.0, (map.width - 1) as f64) as usize;
                let r0 = fv.floor().clamp(0.0, (map.height - 1) as f64) as usize;
                let c1 = (c0 + 1).min(map.width - 1);
                let r1 = (r0 + 1).min(map.height - 1);
                let tu = (fu - c0 as f64).clamp(0.0, 1.0);
                let tv = (fv - r0 as f64).clamp(0.0, 1.0);
                let top = at(c0, r0) * (1.0 - tu) + at(c1, r0) * tu;
                let bottom = at(c0, r1) * (1.0 - tu) + at(c1, r1) * tu;
                top * (1.0 - tv) + bottom * tv
            } else {
                let (ua, ub) = (
                    (x as f64 - view.left) * inv,
                    (x as f64 + 1.0 - view.left) * inv,
                );
                let (va, vb) = (
                    (y as f64 - view.top) * inv,
                    (y as f64 + 1.0 - view.top) * inv,
                );
                let c_lo = ua.floor().max(0.0) as usize;
                let c_hi = (ub.ceil() as usize).clamp(c_lo + 1, map.width);
                let r_lo = va.floor().max(0.0) as usize;
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

    #[test]
    fn reduced_map_averages() {
        let m = map(4, 4, [0, 255].repeat(8));
        let v = MapView::fit(&m, 0.0, 0.0, 2.0, 2.0);
        let mut c = Canvas::new(2, 2, [1, 2, 3]);
        draw_map(&mut c, &m, &v);
        assert_eq!(c.get(0, 0), Some([173, 173, 173]));
    }
}
