//! Parameters of the extraction (DESIGN §3, stages 2–5), validated once.

use serde::{Deserialize, Serialize};

use crate::error::ExtractError;

/// Among several plausible loops, one at least this many times as long as every other is
/// taken as the track without a start pose (`holes`).
pub(crate) const DOMINANT_RATIO: f64 = 1.5;

/// Knobs of the extraction; every field has its unit and default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExtractParams {
    /// Side of the square structuring element of the opening, pixels, odd (default 9, the Race Stack's).
    pub opening_size: usize,
    /// Erosions (then as many dilations) of the opening (default 2: a 9×9 kernel twice = one 17×17).
    pub opening_iterations: usize,
    /// Spacing of the resampled centerline, metres (default 0.1).
    pub spacing_m: f64,
    /// When the opening cuts every loop (a track narrower than the kernel, e.g. a diagonal
    /// stretch under 24 px), retry with half the radius until one survives (default true).
    pub shrink_opening: bool,
    /// Narrowest side of an obstacle the loop may pass, metres: the safety width, set by
    /// the pipeline from the racing-line parameters (not a configuration key; default 0,
    /// any side). See [`crate::loop_mask`].
    #[serde(skip)]
    pub min_passage_m: f64,
}

impl Default for ExtractParams {
    fn default() -> Self {
        ExtractParams {
            opening_size: 9,
            opening_iterations: 2,
            spacing_m: 0.1,
            shrink_opening: true,
            min_passage_m: 0.0,
        }
    }
}

impl ExtractParams {
    /// Checks the ranges; called by [`crate::extract`] before any work.
    pub fn validate(&self) -> Result<(), ExtractError> {
        if self.opening_size == 0 || self.opening_size.is_multiple_of(2) {
            return Err(ExtractError::Param {
                field: "opening_size",
                why: format!(
                    "must be an odd number of pixels >= 1 (found {})",
                    self.opening_size
                ),
            });
        }
        if self.opening_radius() > 254 {
            return Err(ExtractError::Param {
                field: "opening_iterations",
                why: format!(
                    "gives an opening radius of {} pixels; at most 254 is supported (opening_iterations × (opening_size − 1) / 2)",
                    self.opening_radius()
                ),
            });
        }
        if !(self.spacing_m.is_finite() && self.spacing_m > 0.0) {
            return Err(ExtractError::Param {
                field: "spacing_m",
                why: format!("must be > 0 metres (found {})", self.spacing_m),
            });
        }
        Ok(())
    }

    /// Chebyshev radius of the equivalent single square opening, pixels.
    pub fn opening_radius(&self) -> usize {
        self.opening_iterations
            .saturating_mul(self.opening_size.saturating_sub(1) / 2)
    }
}
