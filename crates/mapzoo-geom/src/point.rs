//! A point in the plane ([`Point`]) and the two ways a distance between points is rounded
//! ([`Norm`]), which published files depend on.

/// A point in the plane, `[x, y]`, metres.
pub type Point = [f64; 2];

/// How the length of a difference vector (dx, dy) is rounded.
///
/// Both are the Euclidean norm; they may differ in the last bit, and published
/// files depend on which one a stage uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    /// `dx.hypot(dy)`: the extraction's distances and arc lengths.
    Hypot,
    /// `(dx² + dy²).sqrt()`, as NumPy computes a norm: TUM's helpers, the racing-line stages.
    SqrtOfSquares,
}

impl Norm {
    /// Length of the difference vector (dx, dy), metres.
    #[inline]
    pub fn length(self, dx: f64, dy: f64) -> f64 {
        match self {
            Norm::Hypot => dx.hypot(dy),
            Norm::SqrtOfSquares => (dx.powi(2) + dy.powi(2)).sqrt(),
        }
    }

    /// Distance between `a` and `b`, metres.
    #[inline]
    pub fn distance(self, a: Point, b: Point) -> f64 {
        self.length(b[0] - a[0], b[1] - a[1])
    }

    /// A key that orders distances from `q` to `p` as this norm does, cheaper to
    /// compare than the distance itself (the squared length for
    /// [`Norm::SqrtOfSquares`]); [`Norm::key_distance`] turns it into metres.
    #[inline]
    pub(crate) fn key(self, p: Point, q: Point) -> f64 {
        match self {
            Norm::Hypot => (p[0] - q[0]).hypot(p[1] - q[1]),
            Norm::SqrtOfSquares => (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2),
        }
    }

    /// The distance, metres, of a [`Norm::key`].
    #[inline]
    pub(crate) fn key_distance(self, key: f64) -> f64 {
        match self {
            Norm::Hypot => key,
            Norm::SqrtOfSquares => key.sqrt(),
        }
    }
}
