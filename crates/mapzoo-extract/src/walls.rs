//! Stage 6, track bounds (DESIGN §3.6): the two walls of the track region as
//! polylines, and d_right / d_left per centerline point.
//!
//! The Race Stack floods the opened map from the centerline (watershed on the
//! negated distance transform, masked by the free space), which fills exactly
//! the track's free component, and takes that region's outer and inner
//! contours. Here the same contours are traced directly on the chosen region
//! (Moore-neighbour tracing with Jacob's stopping rule): the outer boundary and
//! the boundary of the infield hole, as the centres of the region's boundary
//! pixels ([`contours`]). Distances are to those contours resampled at 0.1 m,
//! as the Race Stack does, found with a bucket grid ([`mapzoo_geom::PointIndex`])
//! rather than all pairs ([`track_bounds`]).
//!
//! Every other hole of the region is an obstacle on the track (a box, a pillar, a speck
//! that survived the cleaning): a wall of its own. The loop passes each one on one side,
//! so each lies wholly on one side of the centerline: the left when it is inside a
//! counter-clockwise loop or outside a clockwise one, else the right; its
//! boundary then counts for that side's distance, so d_right / d_left never reach
//! through an obstacle, and it is handed on as a [`mapzoo_geom::Obstacle`] of the
//! walls so the racing lines keep clear of it too.

use mapzoo_format::{OccupancyMap, Waypoint};

use crate::centerline::Centerline;
use crate::space::FreeSpace;
use mapzoo_geom::{resample_closed, signed_area2, Norm, Obstacle, PointIndex, Side};

use crate::mask::Mask;
use crate::skeleton::{pixel_area2, SkeletonLoop};

/// Bucket size of the nearest-wall grid, metres.
const GRID_CELL_M: f64 = 0.5;
/// Bucket size of the clearance grid, pixels.
const CLEARANCE_CELL_PX: f64 = 8.0;
/// Spacing at which walls are resampled for d_right / d_left, metres (the Race Stack's).
const WALL_STEP_M: f64 = 0.1;

/// The boundaries of a [`FreeSpace`], traced (row-major indices into its mask, in tracing
/// order, not closed): the centres of the component's boundary pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Contours {
    /// The outer boundary.
    pub outer: Vec<usize>,
    /// The boundary around the infield.
    pub infield: Vec<usize>,
    /// The boundary around each obstacle, in the order of [`FreeSpace::obstacles`].
    pub obstacles: Vec<Vec<usize>>,
}

/// Traces the outer, infield and obstacle boundaries of `space`.
pub fn contours(space: &FreeSpace) -> Contours {
    let mask = &space.mask;
    // The pixel above a hole's first pixel is in the component; its south is in the hole.
    let around =
        |hole: &crate::mask::Component| trace_boundary(mask, hole.first - mask.width, SOUTH);
    Contours {
        outer: trace_boundary(mask, mask.ones().next().unwrap_or(0), WEST),
        infield: around(&space.infield),
        obstacles: space.obstacles.iter().map(around).collect(),
    }
}

/// Distance from each pixel of `skeleton_loop` to the nearest boundary pixel of the free
/// space, plus half a pixel (boundary pixel centres lie half a pixel inside its edge), pixels.
pub fn loop_clearance(
    space: &FreeSpace,
    contours: &Contours,
    skeleton_loop: &SkeletonLoop,
) -> Vec<f64> {
    let crop_xy = |&p: &usize| {
        let (c, r) = space.mask.col_row(p);
        [c as f64, r as f64]
    };
    let loop_xy: Vec<[f64; 2]> = skeleton_loop.pixels.iter().map(crop_xy).collect();
    let boundary_xy: Vec<[f64; 2]> = contours
        .outer
        .iter()
        .chain(&contours.infield)
        .chain(contours.obstacles.iter().flatten())
        .map(crop_xy)
        .collect();
    let boundary = PointIndex::new(boundary_xy, CLEARANCE_CELL_PX, Norm::Hypot);
    loop_xy
        .iter()
        .map(|&p| boundary.distance(p) + 0.5)
        .collect()
}

/// Stage 6's result: the centerline with its distances to the walls, and the walls.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The oriented, resampled centerline.
    pub centerline: Centerline,
    /// Distance from each centerline point to the right wall (or an obstacle on the right), metres.
    pub d_right: Vec<f64>,
    /// Distance from each centerline point to the left wall (or an obstacle on the left), metres.
    pub d_left: Vec<f64>,
    /// Right wall, world metres: boundary pixel centres of the free space, in the Race
    /// Stack's (OpenCV contour) order.
    pub right_wall: Vec<[f64; 2]>,
    /// Left wall, world metres, as `right_wall`.
    pub left_wall: Vec<[f64; 2]>,
    /// The obstacles inside the track region, in the order of [`FreeSpace::obstacles`]:
    /// outline (boundary pixel centres, world metres), side, box, and the room beyond.
    pub obstacles: Vec<Obstacle>,
}

impl Track {
    /// The centerline as waypoints: s_m = spacing·id, psi, kappa, d_right, d_left set, vx = ax = 0.
    pub fn waypoints(&self) -> Vec<Waypoint> {
        let line = &self.centerline;
        line.points
            .iter()
            .enumerate()
            .map(|(i, p)| Waypoint {
                id: i as i64,
                s_m: line.spacing_m * i as f64,
                d_m: 0.0,
                x_m: p[0],
                y_m: p[1],
                d_right: self.d_right[i],
                d_left: self.d_left[i],
                psi_rad: line.psi[i],
                kappa_radpm: line.kappa[i],
                vx_mps: 0.0,
                ax_mps2: 0.0,
            })
            .collect()
    }
}

/// Stage 6: right and left walls from the free space's outer and infield boundaries, and
/// the distances of the centerline's points to them and to the obstacles on each side
/// (module doc).
pub fn track_bounds(
    map: &OccupancyMap,
    space: &FreeSpace,
    contours: &Contours,
    centerline: Centerline,
) -> Track {
    let points = &centerline.points;
    let order = |pix: &[usize], outer: bool| -> Vec<[f64; 2]> {
        opencv_order(pix, &space.mask, outer)
            .into_iter()
            .map(|p| {
                let (c, r) = space.image_pixel(p);
                let (x, y) = map.pixel_to_world(c as f64, r as f64);
                [x, y]
            })
            .collect()
    };
    let outer = order(&contours.outer, true);
    let inner = order(&contours.infield, false);
    // Driving counter-clockwise the infield is on the left.
    let ccw = signed_area2(points) > 0.0;
    let (right_wall, left_wall) = if ccw { (outer, inner) } else { (inner, outer) };
    let mut right_pts = resample_closed(&right_wall, WALL_STEP_M);
    let mut left_pts = resample_closed(&left_wall, WALL_STEP_M);
    let mut obstacles = Vec::with_capacity(contours.obstacles.len());
    if !contours.obstacles.is_empty() {
        let wall_index = |pts: &[[f64; 2]]| PointIndex::new(pts.to_vec(), GRID_CELL_M, Norm::Hypot);
        let (right_only, left_only) = (wall_index(&right_pts), wall_index(&left_pts));
        for (hole, boundary) in space.obstacles.iter().zip(&contours.obstacles) {
            let outline = order(boundary, false);
            let (c, r) = space.image_pixel(hole.first);
            let (x, y) = map.pixel_to_world(c as f64, r as f64);
            let side = if inside(points, [x, y]) == ccw {
                Side::Left
            } else {
                Side::Right
            };
            let pts = resample_closed(&outline, WALL_STEP_M);
            // Beyond it: the wall on its own side, which the loop does not pass.
            let beyond = match side {
                Side::Left => &left_only,
                Side::Right => &right_only,
            };
            let room = outline
                .iter()
                .map(|&p| beyond.distance(p))
                .fold(f64::INFINITY, f64::min);
            match side {
                Side::Left => left_pts.extend(&pts),
                Side::Right => right_pts.extend(&pts),
            }
            obstacles.push(Obstacle::new(outline, side, map.resolution, room));
        }
    }
    let right_index = PointIndex::new(right_pts, GRID_CELL_M, Norm::Hypot);
    let left_index = PointIndex::new(left_pts, GRID_CELL_M, Norm::Hypot);
    Track {
        d_right: points.iter().map(|&p| right_index.distance(p)).collect(),
        d_left: points.iter().map(|&p| left_index.distance(p)).collect(),
        right_wall,
        left_wall,
        obstacles,
        centerline,
    }
}

/// Whether world point `p` lies inside the closed polygon `points` (even–odd rule).
fn inside(points: &[[f64; 2]], p: [f64; 2]) -> bool {
    let n = points.len();
    let mut odd = false;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                odd = !odd;
            }
        }
    }
    odd
}

/// Moore directions (dr, dc), clockwise on screen (rows grow downwards), from east.
const DIRS: [(isize, isize); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Index of direction west of the Moore directions (clockwise on screen from east).
pub(crate) const WEST: usize = 4;
/// Index of direction south of the Moore directions.
pub(crate) const SOUTH: usize = 2;

fn dir_index(dr: isize, dc: isize) -> usize {
    DIRS.iter().position(|&d| d == (dr, dc)).unwrap_or(0)
}

/// Traces the boundary of `mask` through pixel `start` (row-major index), whose neighbour
/// in direction `back` ([`WEST`], [`SOUTH`], …) is outside the mask; returns the boundary
/// pixels in order (not closed).
pub(crate) fn trace_boundary(mask: &Mask, start: usize, back: usize) -> Vec<usize> {
    let inside = |r: isize, c: isize| mask.get(c, r);
    let mut out = vec![start];
    let (c, r) = mask.col_row(start);
    let (mut r, mut c) = (r as isize, c as isize);
    let mut b = back;
    let mut first_move: Option<usize> = None;
    // Each boundary pixel is entered at most 4 times; the guard only stops bad input.
    for _ in 0..8 * mask.len() + 8 {
        let Some(d) = (1..=8)
            .map(|k| (b + k) % 8)
            .find(|&d| inside(r + DIRS[d].0, c + DIRS[d].1))
        else {
            return out;
        };
        if mask.index(c as usize, r as usize) == start && first_move == Some(d) {
            out.pop();
            return out;
        }
        first_move.get_or_insert(d);
        let prev = DIRS[(d + 7) % 8];
        let (qr, qc) = (r + DIRS[d].0, c + DIRS[d].1);
        b = dir_index(r + prev.0 - qr, c + prev.1 - qc);
        r = qr;
        c = qc;
        out.push(mask.index(c as usize, r as usize));
    }
    out
}

/// A traced boundary (crop indices) in the order OpenCV's `findContours` gives it to the
/// Race Stack: an outer boundary from its first pixel in raster order of the upside-down
/// image (largest row, then smallest column), with positive shoelace area in (column, row)
/// coordinates; a hole's boundary from the first such pixel whose right neighbour is outside
/// the mask (in the hole: the region is wider than one pixel after the opening), with
/// negative area. The 0.1 m resampling of the walls starts at that point, so d_right and
/// d_left depend on it.
pub(crate) fn opencv_order(contour: &[usize], mask: &Mask, outer: bool) -> Vec<usize> {
    let n = contour.len();
    let key = |p: usize| {
        let (c, r) = mask.col_row(p);
        (std::cmp::Reverse(r), c)
    };
    let start = (0..n)
        .filter(|&k| {
            let (c, r) = mask.col_row(contour[k]);
            outer || (c + 1 < mask.width && !mask.get(c as isize + 1, r as isize))
        })
        .min_by_key(|&k| key(contour[k]))
        .unwrap_or(0);
    let area2 = pixel_area2(contour, mask);
    if (area2 >= 0) == outer {
        (0..n).map(|k| contour[(start + k) % n]).collect()
    } else {
        (0..n).map(|k| contour[(start + n - k) % n]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::label_components;

    #[test]
    fn traces_outer_and_hole_boundaries_of_an_annulus() {
        let m = Mask::parse(&[
            "..........",
            ".########.",
            ".########.",
            ".##....##.",
            ".##....##.",
            ".########.",
            ".########.",
            "..........",
        ]);
        let w = m.width;
        let first = m.ones().next().unwrap();
        let outer = trace_boundary(&m, first, WEST);
        assert_eq!(outer.len(), 2 * (7 + 5));
        let (_, comps) = label_components(&m.inverted(), false);
        let hole = comps.iter().find(|c| !c.touches_border).unwrap();
        let inner = trace_boundary(&m, hole.first - w, SOUTH);
        // The ring of pixels around the 4×2 hole with its corners cut (8-connected): 2·(4+2).
        assert_eq!(inner.len(), 12);
        for &p in &inner {
            let (r, c) = ((p / w) as isize, (p % w) as isize);
            assert!(m[p]);
            assert!(
                DIRS.iter()
                    .any(|&(dr, dc)| !m[(r + dr) as usize * w + (c + dc) as usize]
                        && (3..=4).contains(&(r + dr))
                        && (3..=6).contains(&(c + dc))),
                "pixel ({c}, {r}) touches the hole"
            );
        }
        for k in 0..inner.len() {
            let (a, b) = (inner[k], inner[(k + 1) % inner.len()]);
            let (dr, dc) = (
                (a / w) as isize - (b / w) as isize,
                (a % w) as isize - (b % w) as isize,
            );
            assert!(dr.abs() <= 1 && dc.abs() <= 1 && (dr, dc) != (0, 0));
        }
    }
}
