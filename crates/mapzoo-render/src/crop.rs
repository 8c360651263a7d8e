//! The part of a map a picture shows: the track with a margin (issue 11 item 9), so
//! a 2000-pixel SLAM map with a small track in one corner does not draw a tiny track.

use crate::track::TrackPicture;

/// Margin around the track when a picture is cropped to it, metres.
pub const CROP_MARGIN_M: f64 = 1.0;

impl TrackPicture {
    /// This picture with its map cut to the bounding box of everything drawn on it (walls,
    /// centerline, racing lines) plus `margin_m` metres on every side, within the map. The
    /// world positions of the map's pixels do not change (the origin moves with the cut).
    /// A picture with nothing on it, or whose lines lie outside the map, is returned whole.
    pub fn cropped_to_track(&self, margin_m: f64) -> TrackPicture {
        let map = &self.map;
        if map.width == 0 || map.height == 0 || map.gray.len() != map.width * map.height {
            return self.clone();
        }
        let points = self
            .walls
            .right
            .iter()
            .chain(&self.walls.left)
            .copied()
            .chain(self.centerline.iter().map(|w| [w.x_m, w.y_m]))
            .chain(
                self.lines
                    .iter()
                    .flat_map(|l| l.waypoints.iter().map(|w| [w.x_m, w.y_m])),
            );
        let (mut c_lo, mut c_hi, mut r_lo, mut r_hi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for [x, y] in points {
            let (c, r) = map.world_to_pixel(x, y);
            if c.is_finite() && r.is_finite() {
                c_lo = c_lo.min(c);
                c_hi = c_hi.max(c);
                r_lo = r_lo.min(r);
                r_hi = r_hi.max(r);
            }
        }
        if c_lo > c_hi || r_lo > r_hi {
            return self.clone();
        }
        let pad = if map.resolution > 0.0 && margin_m.is_finite() {
            (margin_m.max(0.0) / map.resolution).ceil()
        } else {
            0.0
        };
        let (w, h) = (map.width as f64, map.height as f64);
        let c0 = (c_lo - pad).floor().clamp(0.0, w - 1.0) as usize;
        let c1 = (c_hi + pad).ceil().clamp(0.0, w - 1.0) as usize;
        let r0 = (r_lo - pad).floor().clamp(0.0, h - 1.0) as usize;
        let r1 = (r_hi + pad).ceil().clamp(0.0, h - 1.0) as usize;
        if c0 > c1 || r0 > r1 || (c0, r0, c1, r1) == (0, 0, map.width - 1, map.height - 1) {
            return self.clone();
        }
        let (cw, ch) = (c1 - c0 + 1, r1 - r0 + 1);
        fn cut<T: Copy>(
            v: &[T],
            width: usize,
            rows: std::ops::RangeInclusive<usize>,
            c0: usize,
            cw: usize,
        ) -> Vec<T> {
            rows.flat_map(|r| v[r * width + c0..r * width + c0 + cw].iter().copied())
                .collect()
        }
        let (ox, oy) = map.pixel_to_world(c0 as f64, r1 as f64);
        let mut out = self.clone();
        out.map.gray = cut(&map.gray, map.width, r0..=r1, c0, cw);
        if map.free.len() == map.gray.len() {
            out.map.free = cut(&map.free, map.width, r0..=r1, c0, cw);
        }
        out.map.width = cw;
        out.map.height = ch;
        out.map.origin = [ox, oy, map.origin[2]];
        out.whole_map_px = Some(self.whole_map_px.unwrap_or((map.width, map.height)));
        out
    }
}

#[cfg(test)]
mod tests {
    use mapzoo_format::{FreeRule, MapMeta, OccupancyMap, Waypoint};

    use super::*;

    fn picture(yaw: f64) -> TrackPicture {
        let (w, h) = (200, 120);
        let gray = (0..w * h).map(|i| (i % 251) as u8).collect();
        let meta = MapMeta {
            image: "m.png".into(),
            resolution: 0.05,
            origin: [-3.0, 2.0, yaw],
            negate: 0,
            occupied_thresh: 0.65,
            free_thresh: 0.196,
            mode: None,
        };
        let map = OccupancyMap::from_gray(w, h, gray, &meta, FreeRule::MapServer);
        let mut t = TrackPicture::new("t", map);
        // a small square of points around pixel (50, 40)..(70, 60)
        t.centerline = [(50.0, 40.0), (70.0, 40.0), (70.0, 60.0), (50.0, 60.0)]
            .iter()
            .map(|&(c, r)| {
                let (x_m, y_m) = t.map.pixel_to_world(c, r);
                Waypoint {
                    x_m,
                    y_m,
                    ..Waypoint::default()
                }
            })
            .collect();
        t
    }

    proptest::proptest! {
        /// Every kept pixel keeps its gray value at the same world position, and every point
        /// drawn lies inside the cut with the margin around it.
        #[test]
        fn crop_keeps_world_positions_and_the_track(yaw in -3.0f64..3.0, margin in 0.0f64..2.0) {
            let t = picture(yaw);
            let c = t.cropped_to_track(margin);
            proptest::prop_assert!(c.map.width < t.map.width && c.map.height < t.map.height);
            proptest::prop_assert_eq!(c.whole_map_px, Some((t.map.width, t.map.height)));
            proptest::prop_assert_eq!(c.cropped_to_track(margin).whole_map_px, c.whole_map_px);
            for r in 0..c.map.height {
                for col in 0..c.map.width {
                    let (x, y) = c.map.pixel_to_world(col as f64, r as f64);
                    let (oc, or) = t.map.world_to_pixel(x, y);
                    let (oc, or) = (oc.round() as usize, or.round() as usize);
                    proptest::prop_assert_eq!(
                        c.map.gray[r * c.map.width + col],
                        t.map.gray[or * t.map.width + oc]
                    );
                }
            }
            let pad = margin / 0.05 - 1e-6;
            for w in &c.centerline {
                let (col, r) = c.map.world_to_pixel(w.x_m, w.y_m);
                proptest::prop_assert!(col >= pad.min(50.0) - 1e-6 && r >= pad.min(40.0) - 1e-6);
                proptest::prop_assert!(col <= c.map.width as f64 - 1.0 - pad + 1e-6);
                proptest::prop_assert!(r <= c.map.height as f64 - 1.0 - pad + 1e-6);
            }
        }
    }

    #[test]
    fn an_empty_picture_is_kept_whole() {
        let mut t = picture(0.0);
        t.centerline.clear();
        assert_eq!(t.cropped_to_track(1.0), t);
    }
}
