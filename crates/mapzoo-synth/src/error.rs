//! Typed errors of the generator and the checks that produce them.

use crate::{MAX_FEATURE_M, MAX_PIXELS, MAX_SIDE};

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
    #[error("the image would be {width}×{height} px, more than the generator's limit of {MAX_SIDE} px a side and {MAX_PIXELS} px in all; use a coarser resolution or a smaller margin")]
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
