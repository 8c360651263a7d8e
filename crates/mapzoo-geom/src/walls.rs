//! Track walls (DESIGN §3.6 and "Notes for parity"): the right and left
//! boundaries as closed polylines, the obstacles inside the track (boxes,
//! pillars, specks: each a closed outline on one side of the driving line),
//! the one way to rebuild the two boundaries from a line ± its widths along
//! normals, and their 0.1 m resampling indexed for the nearest-distance widths
//! the shortest path, the clearance checks and the output files use. An
//! obstacle counts as part of the wall on its side, so every consumer of the
//! distances sees it.

use crate::index::PointIndex;
use crate::polyline::{offset_along_normals, point_segment_distance, resample_closed_numpy};
use crate::{Norm, Point};

/// Cell of the nearest-point grids over resampled walls, metres.
const WALL_GRID_CELL_M: f64 = 0.5;

/// The two track boundaries as closed polylines (last point not repeated), metres, and the
/// obstacles inside the track.
///
/// ```
/// use mapzoo_geom::Walls;
/// // A straight 1 m piece of line with its right normal (−y), 0.5 m to each side.
/// let walls = Walls::from_normals(&[[0.0, 0.0], [1.0, 0.0]], &[[0.0, -1.0]; 2], &[0.5; 2], &[0.5; 2]);
/// assert_eq!(walls.right, vec![[0.0, -0.5], [1.0, -0.5]]);
/// assert_eq!(walls.left, vec![[0.0, 0.5], [1.0, 0.5]]);
/// // Resampled every 0.1 m and indexed: distances from a point to both walls.
/// let (d_right, d_left) = walls.resampled(0.1).distances([0.5, 0.0]);
/// assert!((d_right - 0.5).abs() < 1e-12 && (d_left - 0.5).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walls {
    /// Right wall (in the driving direction), metres.
    pub right: Vec<Point>,
    /// Left wall, metres.
    pub left: Vec<Point>,
    /// Obstacles inside the track region (empty for walls rebuilt from widths).
    pub obstacles: Vec<Obstacle>,
}

/// Which side of the driving line something lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Right of the driving direction.
    Right,
    /// Left of the driving direction.
    Left,
}

impl Side {
    /// "right" or "left".
    pub fn name(self) -> &'static str {
        match self {
            Side::Right => "right",
            Side::Left => "left",
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Right => Side::Left,
            Side::Left => Side::Right,
        }
    }
}

/// An occupied component inside the track region (a box, a pillar, a speck): a wall of its
/// own that the loop passes on one side.
#[derive(Debug, Clone, PartialEq)]
pub struct Obstacle {
    /// The free boundary pixel centres around it, a closed polyline (last point not
    /// repeated), world metres.
    pub outline: Vec<Point>,
    /// The side of the driving line it lies on (it bounds that side's width).
    pub side: Side,
    /// Centre of its bounding box, world metres.
    pub centre: Point,
    /// Size of its bounding box (x, y), metres.
    pub size: [f64; 2],
    /// Room between it and the next wall on the side the loop does not take, metres: the
    /// nearest distance between their boundary pixel centres, measured as the track width
    /// d_right + d_left is (infinite when unknown).
    pub room_beyond: f64,
}

impl Obstacle {
    /// An obstacle from its outline; `pixel` is the map resolution, metres (the outline runs
    /// through the centres of the free pixels around the occupied ones, so the occupied
    /// pixels' box is the outline's less one pixel).
    pub fn new(outline: Vec<Point>, side: Side, pixel: f64, room_beyond: f64) -> Self {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in &outline {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        // The outline runs through the centres of the free pixels around the occupied ones.
        let size = [
            (hi[0] - lo[0] - pixel).max(pixel),
            (hi[1] - lo[1] - pixel).max(pixel),
        ];
        Obstacle {
            centre: [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0],
            size,
            outline,
            side,
            room_beyond,
        }
    }

    /// Its outline resampled at ≈`step` metres (the outline itself when it is too short to
    /// resample).
    fn points(&self, step: f64) -> Vec<Point> {
        let pts = resample_closed_numpy(&self.outline, step);
        if pts.len() < self.outline.len().min(3) {
            self.outline.clone()
        } else {
            pts
        }
    }
}

impl Walls {
    /// Walls rebuilt from a line: point i moved `d_right[i]` metres along its right-pointing
    /// unit normal `normals[i]` (right wall) and `d_left[i]` metres against it (left wall).
    /// The racing-line stage takes the normals of the closed spline through its centerline
    /// (`mapzoo_raceline::walls_from_centerline`).
    pub fn from_normals(
        pts: &[Point],
        normals: &[[f64; 2]],
        d_right: &[f64],
        d_left: &[f64],
    ) -> Self {
        let minus_left: Vec<f64> = d_left.iter().map(|d| -d).collect();
        Walls {
            right: offset_along_normals(pts, normals, d_right),
            left: offset_along_normals(pts, normals, &minus_left),
            obstacles: Vec::new(),
        }
    }

    /// Whether both walls are empty.
    pub fn is_empty(&self) -> bool {
        self.right.is_empty() && self.left.is_empty()
    }

    /// Both walls, right then left, with their names.
    pub fn named(&self) -> [(&'static str, &[Point]); 2] {
        [("right wall", &self.right), ("left wall", &self.left)]
    }

    /// Both walls resampled at ≈`step` metres ([`resample_closed_numpy`]) and indexed for
    /// nearest-point queries; each obstacle's resampled outline joins the wall on its side.
    pub fn resampled(&self, step: f64) -> ResampledWalls {
        let index = |w: &[Point], side: Side| {
            let mut pts = resample_closed_numpy(w, step);
            let wall = pts.len();
            for o in self.obstacles.iter().filter(|o| o.side == side) {
                pts.extend(o.points(step));
            }
            (
                PointIndex::new(pts, WALL_GRID_CELL_M, Norm::SqrtOfSquares),
                wall,
            )
        };
        let (right, right_wall) = index(&self.right, Side::Right);
        let (left, left_wall) = index(&self.left, Side::Left);
        let mut owner = Vec::new();
        let mut pts = Vec::new();
        for (k, o) in self.obstacles.iter().enumerate() {
            let outline = o.points(step);
            owner.extend(std::iter::repeat_n(k, outline.len()));
            pts.extend(outline);
        }
        ResampledWalls {
            right,
            left,
            right_wall,
            left_wall,
            obstacles: PointIndex::new(pts, WALL_GRID_CELL_M, Norm::Hypot),
            owner,
            sides: self.obstacles.iter().map(|o| o.side).collect(),
        }
    }
}

/// Walls ready for distance queries.
#[derive(Debug, Clone)]
pub struct ResampledWalls {
    right: PointIndex,
    left: PointIndex,
    /// How many of `right`'s points are the wall's (a closed loop); the rest are obstacles'.
    right_wall: usize,
    /// How many of `left`'s points are the wall's.
    left_wall: usize,
    /// Every obstacle's resampled outline.
    obstacles: PointIndex,
    /// The obstacle (index into [`Walls::obstacles`]) of each point of `obstacles`.
    owner: Vec<usize>,
    /// The side of each obstacle.
    sides: Vec<Side>,
}

/// The obstacle point nearest to a query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestObstacle {
    /// Index of the obstacle in [`Walls::obstacles`].
    pub obstacle: usize,
    /// Its side of the driving line.
    pub side: Side,
    /// Distance from the query to its resampled outline, metres.
    pub distance: f64,
}

impl ResampledWalls {
    /// Distances from `p` to the nearest point of the right and left wall, metres.
    pub fn distances(&self, p: Point) -> (f64, f64) {
        (self.right.distance(p), self.left.distance(p))
    }

    /// Distances from `p` to the right and left wall as closed polylines through their
    /// resampled points, metres (to the two segments at the nearest point; to an obstacle's
    /// point where that is nearest). Unlike [`Self::distances`], whose nearest point changes
    /// with a kink at every edge between two points' cells, these vary smoothly with `p`.
    pub fn polyline_distances(&self, p: Point) -> (f64, f64) {
        (
            polyline_distance(&self.right, self.right_wall, p),
            polyline_distance(&self.left, self.left_wall, p),
        )
    }

    /// The resampled right wall points.
    pub fn right_points(&self) -> &[Point] {
        self.right.points()
    }

    /// The resampled left wall points.
    pub fn left_points(&self) -> &[Point] {
        self.left.points()
    }

    /// Whether any obstacle lies inside the track.
    pub fn has_obstacles(&self) -> bool {
        !self.owner.is_empty()
    }

    /// Distance from `p` to the nearest of the walls and obstacles, metres.
    pub fn clearance(&self, p: Point) -> f64 {
        let (r, l) = self.distances(p);
        let o = self
            .nearest_obstacle(p)
            .map_or(f64::INFINITY, |n| n.distance);
        r.min(l).min(o)
    }

    /// The obstacle nearest to `p` (its outline, resampled), if there is any.
    pub fn nearest_obstacle(&self, p: Point) -> Option<NearestObstacle> {
        let near = self.obstacles.nearest(p)?;
        let obstacle = self.owner[near.index];
        Some(NearestObstacle {
            obstacle,
            side: self.sides[obstacle],
            distance: near.distance,
        })
    }
}

/// Distance from `p` to the closed polyline through the first `wall` points of `index`, by the
/// two segments at its nearest point; the point distance when the nearest is beyond `wall`.
fn polyline_distance(index: &PointIndex, wall: usize, p: Point) -> f64 {
    let Some(near) = index.nearest(p) else {
        return f64::INFINITY;
    };
    if near.index >= wall || wall < 2 {
        return near.distance;
    }
    let pts = index.points();
    let i = near.index;
    let to_segment = |a: Point, b: Point| point_segment_distance(p, a, b, Norm::Hypot);
    to_segment(pts[(i + wall - 1) % wall], pts[i]).min(to_segment(pts[i], pts[(i + 1) % wall]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Closed walls round an ellipse: right at 1.0×, left at 1.3× the size.
    fn elliptic_walls() -> Walls {
        let ring = |k: f64| -> Vec<Point> {
            (0..200)
                .map(|i| {
                    let t = i as f64 / 200.0 * std::f64::consts::TAU;
                    [k * 8.0 * t.cos(), k * 5.0 * t.sin()]
                })
                .collect()
        };
        Walls {
            right: ring(1.0),
            left: ring(1.3),
            obstacles: Vec::new(),
        }
    }

    proptest! {
        /// Between the walls, the polyline distance is the distance to the nearest of all the
        /// resampled wall's segments, and never more than the nearest point's.
        #[test]
        fn polyline_distances_are_the_nearest_segments(t in 0.0f64..6.3, f in 1.02f64..1.28) {
            let walls = elliptic_walls();
            let resampled = walls.resampled(0.1);
            let p = [f * 8.0 * t.cos(), f * 5.0 * t.sin()];
            let (right, left) = resampled.polyline_distances(p);
            for (got, pts, point) in [
                (right, resampled.right_points(), resampled.distances(p).0),
                (left, resampled.left_points(), resampled.distances(p).1),
            ] {
                let n = pts.len();
                let naive = (0..n)
                    .map(|i| point_segment_distance(p, pts[i], pts[(i + 1) % n], Norm::Hypot))
                    .fold(f64::INFINITY, f64::min);
                prop_assert!((got - naive).abs() < 1e-12, "{got} vs {naive}");
                prop_assert!(got <= point + 1e-12);
            }
        }
    }

    #[test]
    fn rebuilt_walls_lie_along_the_normals() {
        let pts = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]];
        let normals = [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0]];
        let w = Walls::from_normals(&pts, &normals, &[1.0, 2.0, 0.5], &[0.25, 0.5, 1.0]);
        assert_eq!(w.right, vec![[0.0, -1.0], [3.0, 0.0], [1.0, 1.5]]);
        assert_eq!(w.left, vec![[0.0, 0.25], [0.5, 0.0], [1.0, 0.0]]);
        assert_eq!(w.named()[1].0, "left wall");
        assert!(!w.is_empty() && Walls::default().is_empty());
    }

    #[test]
    fn resampled_square_walls_measure_widths() {
        let right: Vec<Point> = vec![[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]];
        let left: Vec<Point> = vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let r = Walls {
            right,
            left,
            obstacles: Vec::new(),
        }
        .resampled(0.1);
        assert_eq!(r.right_points().len(), 160);
        assert_eq!(r.left_points().len(), 80);
        let (dr, dl) = r.distances([1.5, 0.0]);
        assert!((dr - 0.5).abs() < 1e-12 && (dl - 0.5).abs() < 1e-12);
    }

    #[test]
    fn an_obstacle_bounds_the_width_on_its_side_only() {
        let right: Vec<Point> = vec![[-3.0, -3.0], [3.0, -3.0], [3.0, 3.0], [-3.0, 3.0]];
        let left: Vec<Point> = vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        // A 0.2 m box at (2.0, 0.0), between the walls, on the right; and a one-point speck.
        let square = vec![[1.9, -0.1], [2.1, -0.1], [2.1, 0.1], [1.9, 0.1]];
        let walls = Walls {
            right,
            left,
            obstacles: vec![
                Obstacle::new(square, Side::Right, 0.05, 0.9),
                Obstacle::new(vec![[0.0, 2.0]], Side::Left, 0.05, f64::INFINITY),
            ],
        };
        assert_eq!(walls.obstacles[0].centre, [2.0, 0.0]);
        assert!((walls.obstacles[0].size[0] - 0.15).abs() < 1e-12);
        let r = walls.resampled(0.1);
        assert!(r.has_obstacles());
        // At (1.5, 0): 0.4 m to the box on the right (to its resampled outline), 0.5 m to
        // the inner wall on the left.
        let (dr, dl) = r.distances([1.5, 0.0]);
        assert!(
            (dr - 0.4).abs() < 1e-3 && (dl - 0.5).abs() < 1e-9,
            "{dr} {dl}"
        );
        let near = r.nearest_obstacle([1.5, 0.0]).unwrap();
        assert_eq!((near.obstacle, near.side), (0, Side::Right));
        // The speck counts on the left only.
        let (dr, dl) = r.distances([0.0, 1.5]);
        assert!(
            (dl - 0.5).abs() < 1e-9 && (dr - 1.5).abs() < 1e-9,
            "{dr} {dl}"
        );
        assert_eq!(r.nearest_obstacle([0.0, 1.8]).unwrap().obstacle, 1);
        // The clearance is the nearest of all: the box, the speck, a wall.
        assert!((r.clearance([1.5, 0.0]) - 0.4).abs() < 1e-3);
        assert!((r.clearance([0.0, 1.8]) - 0.2).abs() < 1e-9);
        assert!((r.clearance([0.0, -2.0]) - 1.0).abs() < 1e-9);
        // Without obstacles nothing is near.
        let plain = Walls {
            obstacles: Vec::new(),
            ..walls
        }
        .resampled(0.1);
        assert!(!plain.has_obstacles() && plain.nearest_obstacle([0.0, 0.0]).is_none());
    }
}
