//! Typed errors of the generator and the checks that produce them.

use crate::constants::{MAX_FEATURE_M, MAX_PIXELS, MAX_SIDE};

/// Typed errors of the generator: a bad option, or a map that cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// An option is out of range; `field` names it.
    #[error("synthetic map option \"{field}\": {what}")]
    Option {
        /// The option (field of [`crate::SynthOptions`] or of one of its parts).
        field: &'static str,
        /// What is wrong and what to do.
        what: String,
    },
    /// The track does not fit into the requested image size.
    #[error("the track needs {need_width}×{need_height} px at {resolution} m/px but the image is {width}×{height} px; use a larger image size or a coarser resolution")]
    DoesNotFit {
        /// Pixels the track needs across.
        need_width: usize,
        /// Pixels the track needs down.
        need_height: usize,
        /// Requested image width, pixels.
        width: usize,
        /// Requested image height, pixels.
        height: usize,
        /// Metres per pixel.
        resolution: f64,
    },
    /// The image would be larger than [`MAX_SIDE`] / [`MAX_PIXELS`].
    #[error("{}", too_large(*width, *height))]
    TooLarge {
        /// Image width, pixels.
        width: usize,
        /// Image height, pixels.
        height: usize,
    },
    /// A spur, pocket or wall gap would touch another part of the track.
    #[error("cannot place {what} at s = {s:.2} m: {why}")]
    Placement {
        /// The feature that did not fit.
        what: Feature,
        /// Arc length where it was asked for, metres.
        s: f64,
        /// Why, and what to do.
        why: &'static str,
    },
}

/// A feature placed along the track, as a [`SynthError::Placement`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// The spur of this index in [`crate::SynthOptions::spurs`].
    Spur(usize),
    /// The pocket of this index in [`crate::SynthOptions::pockets`].
    Pocket(usize),
    /// The wall gap.
    WallGap,
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Feature::Spur(i) => write!(f, "spur {i}"),
            Feature::Pocket(i) => write!(f, "pocket {i}"),
            Feature::WallGap => f.write_str("the wall gap"),
        }
    }
}

/// An out-of-range option.
pub(crate) fn opt_err(field: &'static str, what: impl Into<String>) -> SynthError {
    SynthError::Option {
        field,
        what: what.into(),
    }
}

/// A finite number > 0.
pub(crate) fn positive(field: &'static str, v: f64) -> Result<(), SynthError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(opt_err(
            field,
            format!("must be a finite number > 0 (found {v})"),
        ))
    }
}

/// A feature size: finite, > 0 and at most [`MAX_FEATURE_M`].
pub(crate) fn size(field: &'static str, v: f64) -> Result<(), SynthError> {
    positive(field, v)?;
    if v > MAX_FEATURE_M {
        return Err(opt_err(
            field,
            format!("must be at most {MAX_FEATURE_M} m (found {v})"),
        ));
    }
    Ok(())
}

/// A finite number.
pub(crate) fn finite(field: &'static str, v: f64) -> Result<(), SynthError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(opt_err(field, format!("must be finite (found {v})")))
    }
}

/// The message of [`SynthError::TooLarge`]: the size, which of the two limits it passes (in
/// words a reader takes in at a glance: 1.2e12 px, not thirteen digits), and what to change.
fn too_large(width: usize, height: usize) -> String {
    let px = |n: f64| {
        if n >= 1e6 {
            format!("{:.1} million", n / 1e6)
        } else {
            format!("{n:.0}")
        }
    };
    let (w, h) = (width as f64, height as f64);
    let size = if w >= 1e9 || h >= 1e9 {
        format!("{w:.1e}×{h:.1e} px")
    } else {
        format!("{width}×{height} px")
    };
    let passed = if width > MAX_SIDE || height > MAX_SIDE {
        format!("a side may be at most {MAX_SIDE} px")
    } else {
        format!(
            "it would hold {} pixels, and at most {} are allowed",
            px(w * h),
            px(MAX_PIXELS as f64)
        )
    };
    format!(
        "the image would be {size}, too large for the generator: {passed}; use a smaller image size, \
         or (for a size that follows from the track) a coarser resolution, a shorter lap or a smaller margin"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_limit_message_says_which_limit_and_stays_short() {
        let side = SynthError::TooLarge {
            width: 30_000,
            height: 10,
        }
        .to_string();
        assert!(
            side.contains("30000×10 px") && side.contains("at most 20000 px"),
            "{side}"
        );
        let area = SynthError::TooLarge {
            width: 15_000,
            height: 15_000,
        }
        .to_string();
        assert!(
            area.contains("225.0 million") && area.contains("100.0 million"),
            "{area}"
        );
        let huge = SynthError::TooLarge {
            width: 1_000_000_000_000,
            height: 3,
        }
        .to_string();
        assert!(huge.len() < 260 && huge.contains("1.0e12"), "{huge}");
    }
}
