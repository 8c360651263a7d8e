//! The image frame: its size and origin from the bounding box of the free
//! space (or an exact size, the track centred), and world ↔ pixel transforms.

use crate::constants::{MAX_PIXELS, MAX_SIDE};
use crate::error::SynthError;
use crate::options::SynthOptions;

/// Image size and origin.
pub(crate) struct Frame {
    /// Image width, pixels.
    pub(crate) width: usize,
    /// Image height, pixels.
    pub(crate) height: usize,
    /// World position of the bottom-left pixel, metres.
    pub(crate) origin: [f64; 2],
    /// Metres per pixel.
    pub(crate) res: f64,
}

impl Frame {
    /// The frame around `bbox` (world metres) for these options.
    pub(crate) fn fit(bbox: &Bbox, opts: &SynthOptions) -> Result<Frame, SynthError> {
        let res = opts.resolution;
        let need = |lo: f64, hi: f64| ((hi - lo) / res).ceil() + 1.0;
        let (nw, nh) = (
            need(bbox.min[0], bbox.max[0]),
            need(bbox.min[1], bbox.max[1]),
        );
        let (width, height, origin) = match opts.image_size {
            Some([w, h]) => {
                if nw > w as f64 || nh > h as f64 {
                    return Err(SynthError::DoesNotFit {
                        need_width: nw.min(1e12) as usize,
                        need_height: nh.min(1e12) as usize,
                        width: w,
                        height: h,
                        resolution: res,
                    });
                }
                let cx = (bbox.min[0] + bbox.max[0]) / 2.0;
                let cy = (bbox.min[1] + bbox.max[1]) / 2.0;
                let mut ox = round_mm(cx - (w as f64 - 1.0) / 2.0 * res);
                let mut oy = round_mm(cy - (h as f64 - 1.0) / 2.0 * res);
                // Rounding the origin may push an edge out by < 1 mm; pull it back in.
                if ox > bbox.min[0] {
                    ox = floor_mm(bbox.min[0]);
                }
                if oy > bbox.min[1] {
                    oy = floor_mm(bbox.min[1]);
                }
                (w, h, [ox, oy])
            }
            None => {
                let ox = floor_mm(bbox.min[0] - opts.margin);
                let oy = floor_mm(bbox.min[1] - opts.margin);
                let w = ((bbox.max[0] + opts.margin - ox) / res).ceil() + 1.0;
                let h = ((bbox.max[1] + opts.margin - oy) / res).ceil() + 1.0;
                if !(w <= MAX_SIDE as f64 && h <= MAX_SIDE as f64 && w * h <= MAX_PIXELS as f64) {
                    return Err(SynthError::TooLarge {
                        width: w.min(1e12) as usize,
                        height: h.min(1e12) as usize,
                    });
                }
                (w as usize, h as usize, [ox, oy])
            }
        };
        Ok(Frame {
            width,
            height,
            origin,
            res,
        })
    }

    /// World → fractional pixel (col, row).
    pub(crate) fn to_px(&self, p: [f64; 2]) -> [f64; 2] {
        [
            (p[0] - self.origin[0]) / self.res,
            (self.height as f64 - 1.0) - (p[1] - self.origin[1]) / self.res,
        ]
    }

    /// Fractional pixel (col, row) → world.
    pub(crate) fn to_world(&self, c: f64, r: f64) -> [f64; 2] {
        [
            self.origin[0] + c * self.res,
            self.origin[1] + (self.height as f64 - 1.0 - r) * self.res,
        ]
    }

    /// The pixel (col, row) nearest to world point `p`, clamped into the image.
    pub(crate) fn pixel_of(&self, p: [f64; 2]) -> [usize; 2] {
        let q = self.to_px(p);
        [
            q[0].round().clamp(0.0, self.width as f64 - 1.0) as usize,
            q[1].round().clamp(0.0, self.height as f64 - 1.0) as usize,
        ]
    }
}

/// Rounded to the millimetre.
fn round_mm(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Rounded down to the millimetre.
fn floor_mm(v: f64) -> f64 {
    (v * 1000.0).floor() / 1000.0
}

/// An axis-aligned bounding box, world metres.
pub(crate) struct Bbox {
    min: [f64; 2],
    max: [f64; 2],
}

impl Bbox {
    /// The empty box.
    pub(crate) fn empty() -> Self {
        Bbox {
            min: [f64::INFINITY; 2],
            max: [f64::NEG_INFINITY; 2],
        }
    }

    /// Grows the box to hold the disc at `c` with radius `r`.
    pub(crate) fn add_disc(&mut self, c: [f64; 2], r: f64) {
        for ((lo, hi), v) in self.min.iter_mut().zip(self.max.iter_mut()).zip(c) {
            *lo = lo.min(v - r);
            *hi = hi.max(v + r);
        }
    }
}

/// Distance, metres, from p along unit `dir` to where it leaves the image rectangle.
pub(crate) fn ray_to_border(frame: &Frame, p: [f64; 2], dir: [f64; 2]) -> Option<f64> {
    let lo = frame.to_world(0.0, frame.height as f64 - 1.0);
    let hi = frame.to_world(frame.width as f64 - 1.0, 0.0);
    let mut t_exit = f64::INFINITY;
    for k in 0..2 {
        if dir[k].abs() < 1e-12 {
            continue;
        }
        let bound = if dir[k] > 0.0 { hi[k] } else { lo[k] };
        t_exit = t_exit.min((bound - p[k]) / dir[k]);
    }
    (t_exit.is_finite() && t_exit > 0.0).then_some(t_exit)
}
