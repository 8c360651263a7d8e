//! The speed colour scale: matplotlib's viridis, perceptually uniform and
//! readable in gray, sampled at ten evenly spaced stops and interpolated
//! linearly in sRGB between them.

/// An sRGB colour, 8 bits per channel.
pub type Rgb = [u8; 3];

/// viridis at 0, 1/9, …, 1 (the stops of matplotlib's 256-entry table).
const VIRIDIS: [Rgb; 10] = [
    [0x44, 0x01, 0x54],
    [0x48, 0x28, 0x78],
    [0x3e, 0x4a, 0x89],
    [0x31, 0x68, 0x8e],
    [0x26, 0x82, 0x8e],
    [0x1f, 0x9e, 0x89],
    [0x35, 0xb7, 0x79],
    [0x6d, 0xcd, 0x59],
    [0xb4, 0xde, 0x2c],
    [0xfd, 0xe7, 0x25],
];

/// The viridis colour at `t` in [0, 1] (clamped; NaN gives the low end).
pub fn viridis(t: f64) -> Rgb {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |k: usize| (a[k] as f64 + (b[k] as f64 - a[k] as f64) * f).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// A speed range mapped onto the colour scale, m/s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedScale {
    /// Speed drawn in the darkest colour, m/s.
    pub min: f64,
    /// Speed drawn in the brightest colour, m/s, > `min`.
    pub max: f64,
}

impl SpeedScale {
    /// The range covering `speeds` (non-finite values ignored); a flat or
    /// empty set gets a 1 m/s wide range so every speed still has a colour.
    pub fn covering(speeds: impl IntoIterator<Item = f64>) -> Self {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in speeds.into_iter().filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            return SpeedScale { min: 0.0, max: 1.0 };
        }
        if hi - lo < 1e-9 {
            return SpeedScale {
                min: lo - 0.5,
                max: hi + 0.5,
            };
        }
        SpeedScale { min: lo, max: hi }
    }

    /// Position of speed `v` (m/s) on the scale, 0..1 (clamped).
    pub fn fraction(&self, v: f64) -> f64 {
        ((v - self.min) / (self.max - self.min)).clamp(0.0, 1.0)
    }

    /// The colour of speed `v`, m/s.
    pub fn colour(&self, v: f64) -> Rgb {
        viridis(self.fraction(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luma(c: Rgb) -> f64 {
        0.2126 * c[0] as f64 + 0.7152 * c[1] as f64 + 0.0722 * c[2] as f64
    }

    #[test]
    fn ends_are_matplotlib_viridis() {
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
        assert_eq!(viridis(-3.0), viridis(0.0));
        assert_eq!(viridis(f64::NAN), viridis(0.0));
        assert_eq!(viridis(7.0), viridis(1.0));
    }

    #[test]
    fn brightness_rises_with_speed() {
        let mut last = -1.0;
        for i in 0..=200 {
            let l = luma(viridis(i as f64 / 200.0));
            assert!(l >= last - 0.5, "luma falls at {i}: {l} < {last}");
            last = l;
        }
    }

    #[test]
    fn scale_covers_speeds_and_survives_flat_input() {
        let s = SpeedScale::covering([3.0, f64::NAN, 9.0, 5.0]);
        assert_eq!((s.min, s.max), (3.0, 9.0));
        assert_eq!(s.colour(9.0), viridis(1.0));
        assert!((s.fraction(6.0) - 0.5).abs() < 1e-12);
        let flat = SpeedScale::covering([4.0, 4.0]);
        assert!(flat.max > flat.min);
        let none = SpeedScale::covering(std::iter::empty());
        assert!(none.max > none.min);
    }
}
