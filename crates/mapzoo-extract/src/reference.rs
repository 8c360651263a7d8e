//! Naive twins of the extraction's fast kernels, each beside the kernel it
//! checks: plainly correct and slow, the references of the property tests
//! (STYLE: a naive twin for every fast kernel). Built for tests and with the
//! `reference` feature.

pub use crate::clean::{open_free, open_free_naive};
pub use crate::cycle::{infield_cycle, infield_cycle_length_naive};
pub use crate::mask::{label_components, label_components_naive};
pub use crate::skeleton::cycle_length;
pub use crate::smooth::{savgol_circular, savgol_circular_naive};
pub use crate::thin::skeletonize_naive;
