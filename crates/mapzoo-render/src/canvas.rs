//! The raster layer: an RGB canvas, anti-aliased strokes built from
//! capsules (line segments with round caps), discs and convex polygons, and
//! bitmap text. Coverage is the analytic distance of a pixel centre to the
//! shape, so every result is a pure function of the input (deterministic).
//!
//! A [`Stroke`] collects the coverage of one whole shape before it is
//! blended once onto the canvas: where the segments of a polyline overlap
//! at a joint, the pixel takes the larger coverage instead of being blended
//! twice, which would leave darker beads at every waypoint.

use crate::colormap::Rgb;
use crate::font;

/// A point in image pixels: x to the right, y down; pixel (i, j) covers
/// [i, i+1) × [j, j+1) and has its centre at (i + 0.5, j + 0.5).
pub type Px = [f64; 2];

/// An RGB raster, row-major, row 0 on top.
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<Rgb>,
}

impl Canvas {
    /// A canvas of `width` × `height` pixels filled with `background`.
    pub fn new(width: usize, height: usize, background: Rgb) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![background; width * height],
        }
    }

    /// Width, pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height, pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The colour of pixel (x, y); `None` outside the canvas (the unit tests read pixels back).
    #[cfg(test)]
    pub fn get(&self, x: usize, y: usize) -> Option<Rgb> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }

    /// Sets pixel (x, y); ignored outside the canvas.
    pub fn set(&mut self, x: usize, y: usize, colour: Rgb) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = colour;
        }
    }

    /// Blends `colour` over pixel index `i` with opacity `alpha` in [0, 1].
    fn blend_index(&mut self, i: usize, colour: Rgb, alpha: f32) {
        let dst = &mut self.pixels[i];
        for k in 0..3 {
            let d = dst[k] as f32;
            dst[k] = (d + (colour[k] as f32 - d) * alpha).round() as u8;
        }
    }

    /// Fills the pixels whose centres lie in [x0, x1) × [y0, y1) with `colour`.
    pub fn fill_rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, colour: Rgb) {
        let Some((cx0, cx1)) = pixel_span(x0, x1, self.width) else {
            return;
        };
        let Some((cy0, cy1)) = pixel_span(y0, y1, self.height) else {
            return;
        };
        for y in cy0..cy1 {
            self.pixels[y * self.width + cx0..y * self.width + cx1].fill(colour);
        }
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel a
    /// `scale` × `scale` block; returns the drawn width in pixels.
    pub fn draw_text(&mut self, x: f64, y: f64, text: &str, scale: usize, colour: Rgb) -> f64 {
        let s = scale as f64;
        for (n, c) in text.chars().enumerate() {
            let gx = x + (n * font::ADVANCE) as f64 * s;
            for (r, bits) in font::glyph_rows(c).iter().enumerate() {
                for col in 0..font::GLYPH_WIDTH {
                    if bits & (1 << (font::GLYPH_WIDTH - 1 - col)) != 0 {
                        let px = gx + col as f64 * s;
                        let py = y + r as f64 * s;
                        self.fill_rect(px, py, px + s, py + s, colour);
                    }
                }
            }
        }
        font::text_width(text, scale) as f64
    }

    /// Blends the shape collected in `stroke` onto the canvas and empties it.
    pub fn composite(&mut self, stroke: &mut Stroke) {
        debug_assert_eq!((stroke.width, stroke.height), (self.width, self.height));
        for &i in &stroke.touched {
            let a = stroke.coverage[i];
            if a > 0.0 {
                self.blend_index(i, stroke.colour[i], a);
            }
            stroke.coverage[i] = 0.0;
        }
        stroke.touched.clear();
    }

    /// The pixels as an `image` buffer.
    pub fn into_image(self) -> image::RgbImage {
        let (w, h) = (self.width as u32, self.height as u32);
        image::RgbImage::from_raw(w, h, self.pixels.into_flattened())
            .unwrap_or_else(|| image::RgbImage::new(w, h))
    }
}

/// Indices of the pixels whose centres lie in [a, b), clipped to 0..n.
fn pixel_span(a: f64, b: f64, n: usize) -> Option<(usize, usize)> {
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    let lo = (a - 0.5).ceil().max(0.0);
    let hi = (b - 0.5).ceil().min(n as f64);
    (lo < hi).then_some((lo as usize, hi as usize))
}

/// Coverage buffer of one shape, the size of its canvas (see the module doc).
#[derive(Debug, Clone)]
pub struct Stroke {
    width: usize,
    height: usize,
    coverage: Vec<f32>,
    colour: Vec<Rgb>,
    touched: Vec<usize>,
}

impl Stroke {
    /// An empty stroke for a canvas of `width` × `height` pixels.
    pub fn new(width: usize, height: usize) -> Self {
        Stroke {
            width,
            height,
            coverage: vec![0.0; width * height],
            colour: vec![[0, 0, 0]; width * height],
            touched: Vec::new(),
        }
    }

    /// A stroke sized for `canvas`.
    pub fn for_canvas(canvas: &Canvas) -> Self {
        Self::new(canvas.width, canvas.height)
    }

    /// Records coverage `a` of colour `c` at pixel index `i`, keeping the larger.
    fn put(&mut self, i: usize, a: f32, c: Rgb) {
        let old = self.coverage[i];
        if old == 0.0 && a > 0.0 {
            self.touched.push(i);
        }
        if a > old {
            self.coverage[i] = a;
            self.colour[i] = c;
        }
    }

    /// Pixel index ranges of the box [lo, hi] grown by one pixel, clipped.
    fn bbox(&self, lo: Px, hi: Px) -> Option<(usize, usize, usize, usize)> {
        let (x0, x1) = pixel_span(lo[0] - 1.0, hi[0] + 1.0, self.width)?;
        let (y0, y1) = pixel_span(lo[1] - 1.0, hi[1] + 1.0, self.height)?;
        Some((x0, x1, y0, y1))
    }

    /// A capsule of `radius` pixels around segment a–b; the colour of each
    /// pixel is `colour(t)` with t in [0, 1] its projection onto a→b.
    pub fn segment(&mut self, a: Px, b: Px, radius: f64, colour: &dyn Fn(f64) -> Rgb) {
        if !(a.iter().chain(&b).all(|v| v.is_finite()) && radius > 0.0) {
            return;
        }
        let lo = [a[0].min(b[0]) - radius, a[1].min(b[1]) - radius];
        let hi = [a[0].max(b[0]) + radius, a[1].max(b[1]) + radius];
        let Some((x0, x1, y0, y1)) = self.bbox(lo, hi) else {
            return;
        };
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len2 = dx * dx + dy * dy;
        for y in y0..y1 {
            let py = y as f64 + 0.5;
            for x in x0..x1 {
                let px = x as f64 + 0.5;
                let t = if len2 > 0.0 {
                    (((px - a[0]) * dx + (py - a[1]) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (px - a[0] - t * dx, py - a[1] - t * dy);
                let d = (ex * ex + ey * ey).sqrt();
                let cov = (radius + 0.5 - d).clamp(0.0, 1.0) as f32;
                if cov > 0.0 {
                    self.put(y * self.width + x, cov, colour(t));
                }
            }
        }
    }

    /// A disc of `radius` pixels at `c`.
    pub fn disc(&mut self, c: Px, radius: f64, colour: Rgb) {
        self.segment(c, c, radius, &|_| colour);
    }

    /// A filled convex polygon (vertices in either winding order).
    pub fn convex(&mut self, vertices: &[Px], colour: Rgb) {
        if vertices.len() < 3 || !vertices.iter().flatten().all(|v| v.is_finite()) {
            return;
        }
        let mut area2 = 0.0;
        for (i, p) in vertices.iter().enumerate() {
            let q = vertices[(i + 1) % vertices.len()];
            area2 += p[0] * q[1] - q[0] * p[1];
        }
        if area2.abs() < 1e-12 {
            return;
        }
        // Outward unit normals; the sign of the area fixes the winding.
        let sign = area2.signum();
        let edges: Vec<(Px, Px)> = (0..vertices.len())
            .map(|i| {
                let p = vertices[i];
                let q = vertices[(i + 1) % vertices.len()];
                let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
                let len = (ex * ex + ey * ey).sqrt().max(1e-12);
                (p, [sign * ey / len, -sign * ex / len])
            })
            .collect();
        let lo = vertices
            .iter()
            .fold([f64::INFINITY; 2], |m, v| [m[0].min(v[0]), m[1].min(v[1])]);
        let hi = vertices.iter().fold([f64::NEG_INFINITY; 2], |m, v| {
            [m[0].max(v[0]), m[1].max(v[1])]
        });
        let Some((x0, x1, y0, y1)) = self.bbox(lo, hi) else {
            return;
        };
        for y in y0..y1 {
            let py = y as f64 + 0.5;
            for x in x0..x1 {
                let px = x as f64 + 0.5;
                let outside = edges
                    .iter()
                    .map(|(p, n)| (px - p[0]) * n[0] + (py - p[1]) * n[1])
                    .fold(f64::NEG_INFINITY, f64::max);
                let cov = (0.5 - outside).clamp(0.0, 1.0) as f32;
                if cov > 0.0 {
                    self.put(y * self.width + x, cov, colour);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Rgb = [255, 255, 255];
    const K: Rgb = [0, 0, 0];

    /// The canvas as rows of `#` (dark), `+` (partly covered) and `.` (background).
    fn ascii(c: &Canvas) -> Vec<String> {
        (0..c.height())
            .map(|y| {
                (0..c.width())
                    .map(|x| match c.get(x, y).map(|p| p[0]) {
                        Some(0) => '#',
                        Some(255) => '.',
                        _ => '+',
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn horizontal_segment_covers_its_rows() {
        let mut c = Canvas::new(8, 5, W);
        let mut s = Stroke::for_canvas(&c);
        s.segment([1.5, 2.5], [6.5, 2.5], 0.5, &|_| K);
        c.composite(&mut s);
        assert_eq!(
            ascii(&c),
            ["........", "........", ".######.", "........", "........"]
        );
    }

    #[test]
    fn disc_is_symmetric_and_solid_inside() {
        let mut c = Canvas::new(9, 9, W);
        let mut s = Stroke::for_canvas(&c);
        s.disc([4.5, 4.5], 3.5, K);
        c.composite(&mut s);
        let rows = ascii(&c);
        assert_eq!(rows[4], ".#######.");
        assert_eq!(rows[1], rows[7]);
        for (y, row) in rows.iter().enumerate() {
            let rev: String = row.chars().rev().collect();
            assert_eq!(row, &rev, "row {y} not mirror-symmetric");
        }
    }

    #[test]
    fn joint_is_blended_once() {
        // Two collinear segments meeting at x = 4 must look like one segment.
        let mut one = Canvas::new(10, 5, W);
        let mut s = Stroke::for_canvas(&one);
        s.segment([1.0, 2.3], [9.0, 2.3], 1.2, &|_| K);
        one.composite(&mut s);
        let mut two = Canvas::new(10, 5, W);
        s.segment([1.0, 2.3], [4.0, 2.3], 1.2, &|_| K);
        s.segment([4.0, 2.3], [9.0, 2.3], 1.2, &|_| K);
        two.composite(&mut s);
        assert_eq!(one, two);
    }

    #[test]
    fn triangle_fills_inside_only() {
        let mut c = Canvas::new(7, 7, W);
        let mut s = Stroke::for_canvas(&c);
        s.convex(&[[0.0, 0.0], [7.0, 0.0], [0.0, 7.0]], K);
        c.composite(&mut s);
        let rows = ascii(&c);
        assert_eq!(rows[0], "######+");
        assert_eq!(rows[6], "+......");
    }

    #[test]
    fn text_draws_glyph_pixels() {
        let mut c = Canvas::new(6, 8, W);
        c.draw_text(0.0, 0.0, "L", 1, K);
        let rows = ascii(&c);
        assert_eq!(rows[0], "#.....");
        assert_eq!(rows[6], "#####.");
    }

    /// The capsule coverage of every pixel of the canvas, without the bounding box.
    fn naive_capsule(w: usize, h: usize, a: Px, b: Px, r: f64) -> Canvas {
        let mut c = Canvas::new(w, h, W);
        for y in 0..h {
            for x in 0..w {
                let p = [x as f64 + 0.5, y as f64 + 0.5];
                let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                let len2 = dx * dx + dy * dy;
                let t = if len2 > 0.0 {
                    (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let d = (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy);
                let cov = (r + 0.5 - d).clamp(0.0, 1.0) as f32;
                if cov > 0.0 {
                    c.blend_index(y * w + x, K, cov);
                }
            }
        }
        c
    }

    proptest::proptest! {
        #[test]
        fn bounded_capsule_matches_the_whole_canvas_sweep(
            ax in -10.0f64..40.0, ay in -10.0f64..30.0,
            bx in -10.0f64..40.0, by in -10.0f64..30.0,
            r in 0.2f64..6.0,
        ) {
            let mut c = Canvas::new(30, 20, W);
            let mut s = Stroke::for_canvas(&c);
            s.segment([ax, ay], [bx, by], r, &|_| K);
            c.composite(&mut s);
            proptest::prop_assert_eq!(c, naive_capsule(30, 20, [ax, ay], [bx, by], r));
        }
    }

    #[test]
    fn shapes_outside_or_non_finite_are_ignored() {
        let mut c = Canvas::new(4, 4, W);
        let mut s = Stroke::for_canvas(&c);
        s.segment([f64::NAN, 0.0], [1.0, 1.0], 1.0, &|_| K);
        s.segment([-50.0, -50.0], [-40.0, -40.0], 1.0, &|_| K);
        s.disc([1e300, 1.0], 2.0, K);
        s.convex(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], K);
        c.composite(&mut s);
        c.fill_rect(f64::NEG_INFINITY, 0.0, 2.0, 2.0, K);
        assert_eq!(c, Canvas::new(4, 4, W));
    }
}
