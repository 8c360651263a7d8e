//! The width profile: constant, or smooth and random within [min, max].

use std::f64::consts::TAU;

use crate::options::WidthSpec;
use crate::rng::{tag, SplitMix64};

/// Smooth periodic width in [min, max] as a function of the lap fraction u ∈ [0, 1).
pub(crate) struct WidthProfile {
    mid: f64,
    half: f64,
    terms: [(f64, f64); 3],
    norm: f64,
}

impl WidthProfile {
    /// The profile of `spec`; a smooth one draws its harmonics from `seed`.
    pub(crate) fn new(spec: WidthSpec, seed: u64) -> Self {
        match spec {
            WidthSpec::Constant(w) => WidthProfile {
                mid: w,
                half: 0.0,
                terms: [(0.0, 0.0); 3],
                norm: 1.0,
            },
            WidthSpec::Smooth { min, max } => {
                let mut rng = SplitMix64::stream(seed, tag::WIDTH);
                let mut terms = [(0.0, 0.0); 3];
                let mut norm = 0.0;
                for (k, t) in terms.iter_mut().enumerate() {
                    let amp = rng.uniform(0.3, 1.0) / (k + 1) as f64;
                    *t = (amp, rng.uniform(0.0, TAU));
                    norm += amp;
                }
                WidthProfile {
                    mid: (min + max) / 2.0,
                    half: (max - min) / 2.0,
                    terms,
                    norm,
                }
            }
        }
    }

    /// Full width at lap fraction `u`, metres.
    pub(crate) fn at(&self, u: f64) -> f64 {
        let mut v = 0.0;
        for (k, &(amp, phase)) in self.terms.iter().enumerate() {
            v += amp * ((k + 1) as f64 * TAU * u + phase).cos();
        }
        self.mid + self.half * v / self.norm
    }
}
