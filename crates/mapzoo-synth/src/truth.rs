//! What a map was drawn from: the true centerline and the features as placed.

use crate::options::{ObstacleShape, Side};

/// One point of the true centerline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TruthPoint {
    /// World x, metres.
    pub x: f64,
    /// World y, metres.
    pub y: f64,
    /// Arc length from point 0, metres.
    pub s: f64,
    /// Distance to the right track edge, metres (half the width; spurs and pockets not counted).
    pub d_right: f64,
    /// Distance to the left track edge, metres (half the width).
    pub d_left: f64,
    /// Heading, radians, 0 = +x, counter-clockwise positive, in (−π, π].
    pub psi: f64,
    /// Signed curvature, 1/m, positive turning left.
    pub kappa: f64,
}

impl TruthPoint {
    /// Full track width here, metres.
    pub fn width(&self) -> f64 {
        self.d_left + self.d_right
    }
}

/// An obstacle as placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedObstacle {
    /// Arc length of its centre, metres.
    pub s: f64,
    /// Lateral offset from the centerline, metres, positive left.
    pub offset: f64,
    /// World position of its centre, metres.
    pub center: [f64; 2],
    /// Track heading it is aligned with, radians.
    pub heading: f64,
    /// Its shape.
    pub shape: ObstacleShape,
    /// Free width between it and the left edge, metres (negative: it overlaps the wall).
    pub passage_left: f64,
    /// Free width between it and the right edge, metres.
    pub passage_right: f64,
}

/// A spur as placed: a capsule from the centerline point at `s` to `tip`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedSpur {
    /// Arc length where it branches off, metres.
    pub s: f64,
    /// Left or right of the driving direction.
    pub side: Side,
    /// Centerline point it starts from, world metres.
    pub root: [f64; 2],
    /// Its dead end, world metres.
    pub tip: [f64; 2],
    /// Corridor width, metres.
    pub width: f64,
}

/// A pocket as placed: a disc merged into the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedPocket {
    /// Arc length of its middle, metres.
    pub s: f64,
    /// Left or right of the driving direction.
    pub side: Side,
    /// Disc centre, world metres.
    pub center: [f64; 2],
    /// Disc radius, metres.
    pub radius: f64,
    /// Reach beyond the track edge, metres.
    pub depth: f64,
}

/// The wall gap as placed: where the free space leaks to the image border.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGap {
    /// Arc length where the corridor leaves the track, metres.
    pub s: f64,
    /// Left or right of the driving direction (the outer side).
    pub side: Side,
    /// Corridor width, metres.
    pub width: f64,
    /// Unit direction of the corridor, world.
    pub direction: [f64; 2],
    /// World point where the corridor crosses the track edge, metres.
    pub wall_world: [f64; 2],
    /// Pixel (col, row) where the corridor crosses the track edge.
    pub wall_pixel: [usize; 2],
    /// World point where the corridor's axis meets the image border, metres.
    pub border_world: [f64; 2],
    /// Pixel (col, row) on the image border at the corridor's axis.
    pub border_pixel: [usize; 2],
}

/// What the map was drawn from, for comparing extraction results.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundTruth {
    /// The centerline, closed implicitly (the last point is not a copy of the first).
    pub centerline: Vec<TruthPoint>,
    /// Lap length, metres.
    pub lap_length: f64,
    /// Whether the centerline runs counter-clockwise (infield on the left).
    pub counter_clockwise: bool,
    /// Obstacles, in the order given then random.
    pub obstacles: Vec<PlacedObstacle>,
    /// Spurs, in the order given then random.
    pub spurs: Vec<PlacedSpur>,
    /// Pockets, in the order given then random.
    pub pockets: Vec<PlacedPocket>,
    /// The wall gap, if any.
    pub gap: Option<PlacedGap>,
}
