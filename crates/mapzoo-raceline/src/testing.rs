//! What the unit tests share.

/// A deterministic pseudo-random sequence (a 64-bit linear congruential generator with
/// Knuth's MMIX constants): the unit tests' generated problems, the same on every run.
pub(crate) struct Lcg(u64);

impl Lcg {
    pub(crate) fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    fn step(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// A value in [−1, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        ((self.step() >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    /// An index in 0..n.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.step() >> 33) as usize % n
    }
}
