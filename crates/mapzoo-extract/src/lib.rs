//! Extraction: occupancy map → cleaned free space → skeleton loop →
//! centerline, walls and boundary distances (DESIGN §3, stages 1–6).
//!
//! [`extract`] runs the stages in order, each in its own module:
//! [`clean`] (opening, track region), [`thin`] (Lee skeleton), [`cycle`]
//! (spur pruning, the loop around the infield), [`smooth`] (circular
//! Savitzky–Golay), [`centerline`] (metres, start and direction, 0.1 m
//! resampling, heading and curvature) and [`walls`] (track bounds,
//! d_right / d_left); [`leak`] locates a wall gap when the track leaks.

pub mod centerline;
pub mod clean;
pub mod cycle;
pub mod error;
pub mod geom;
pub mod leak;
pub mod params;
pub mod smooth;
pub mod thin;
pub mod walls;

use std::time::Instant;

use mapzoo_format::{OccupancyMap, Waypoint};

pub use centerline::StartPose;
pub use error::{ExtractError, MapPoint};
pub use params::ExtractParams;

use clean::{Region, TrackChoice};

/// Everything the extraction produces for one map.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// Centerline waypoints ≈`spacing_m` apart, s_m = spacing·id, psi/kappa/d_right/d_left set, vx = ax = 0; not closed.
    pub centerline: Vec<Waypoint>,
    /// Right wall, world metres: boundary pixel centres of the track region, in the Race
    /// Stack's (OpenCV contour) order.
    pub right_wall: Vec<[f64; 2]>,
    /// Left wall, world metres, as `right_wall`.
    pub left_wall: Vec<[f64; 2]>,
    /// The cleaned track-only free mask, row-major like [`OccupancyMap::free`].
    pub track_free: Vec<bool>,
    /// Seconds spent in each stage, in order.
    pub timings: Vec<(&'static str, f64)>,
    /// Chebyshev radius of the opening actually used, pixels (smaller than asked when it was shrunk).
    pub opening_radius_px: usize,
}

/// Bucket size of the nearest-wall grid, metres.
const GRID_CELL_M: f64 = 0.5;
/// Bucket size of the clearance grid, pixels.
const CLEARANCE_CELL_PX: f64 = 8.0;
/// Spacing at which walls are resampled for d_right / d_left, metres (the Race Stack's).
const WALL_STEP_M: f64 = 0.1;

struct Clock {
    t: Instant,
    timings: Vec<(&'static str, f64)>,
}

impl Clock {
    fn lap(&mut self, stage: &'static str) {
        let now = Instant::now();
        self.timings.push((stage, (now - self.t).as_secs_f64()));
        self.t = now;
    }
}

fn map_point(map: &OccupancyMap, col: usize, row: usize) -> MapPoint {
    let (x, y) = map.pixel_to_world(col as f64, row as f64);
    MapPoint { col, row, x, y }
}

/// Extracts the centerline, walls and boundary distances of `map` (DESIGN §3, stages 2–6).
///
/// `start` fixes waypoint 0 and the driving direction (default: the map origin, yaw 0);
/// `reverse` then drives the other way round.
pub fn extract(
    map: &OccupancyMap,
    params: &ExtractParams,
    start: Option<StartPose>,
    reverse: bool,
) -> Result<Extraction, ExtractError> {
    params.validate()?;
    let (width, height) = (map.width, map.height);
    if width == 0 || height == 0 || map.free.len() != width * height {
        return Err(ExtractError::BadMap {
            width,
            height,
            len: map.free.len(),
        });
    }
    let sane = map.resolution.is_finite()
        && map.resolution > 0.0
        && map.origin.iter().all(|v| v.is_finite());
    if !sane {
        return Err(ExtractError::Param {
            field: "map",
            why: format!(
                "needs a resolution > 0 and a finite origin (found {} and {:?}); fix the map YAML",
                map.resolution, map.origin
            ),
        });
    }
    let start = start.unwrap_or(StartPose {
        x: map.origin[0],
        y: map.origin[1],
        yaw: 0.0,
    });
    if !(start.x.is_finite() && start.y.is_finite() && start.yaw.is_finite()) {
        return Err(ExtractError::Param {
            field: "start",
            why: format!(
                "must be finite x, y, yaw (found {}, {}, {})",
                start.x, start.y, start.yaw
            ),
        });
    }
    let mut clock = Clock {
        t: Instant::now(),
        timings: Vec::new(),
    };

    // Stage 2: opening, track region. A kernel wider than a stretch of track cuts the loop;
    // then smaller ones are tried, and if none keeps a loop the first failure is reported.
    let mut radius = params.opening_radius();
    // `None` in a failure: the opening left no free pixel.
    let mut first_failure: Option<(Option<TrackChoice>, usize)> = None;
    let (choice, radius) = loop {
        let opened = clean::open_free(&map.free, width, height, radius);
        let choice = opened
            .iter()
            .any(|&v| v)
            .then(|| clean::choose_track(&opened, width, height));
        drop(opened);
        match choice {
            Some(TrackChoice::Track(r)) => break (TrackChoice::Track(r), radius),
            Some(TrackChoice::Ambiguous(two)) => break (TrackChoice::Ambiguous(two), radius),
            other => {
                first_failure.get_or_insert((other, radius));
            }
        }
        if radius == 0 || !params.shrink_opening {
            match first_failure.take() {
                Some((Some(choice), r)) => break (choice, r),
                other => {
                    let r = other.map_or(radius, |f| f.1);
                    return Err(ExtractError::NoFreeSpace { opening: 2 * r + 1 });
                }
            }
        }
        radius /= 2;
    };
    clock.lap("clean");
    let (region, leaking) = match choice {
        TrackChoice::Track(r) => (r, false),
        TrackChoice::Leaking(r) => (r, true),
        TrackChoice::Ambiguous(two) => {
            let at = |(first, infield): (usize, usize)| {
                format!(
                    "one at {} around an infield of {infield} pixels",
                    map_point(map, first % width, first / width)
                )
            };
            return Err(ExtractError::Ambiguous {
                why: format!("{} and {}", at(two[0]), at(two[1])),
            });
        }
        TrackChoice::NoHole(largest) => {
            let why = match largest {
                Some(c) if c.area == width * height => {
                    "every pixel is free (a blank image?); check the image and the free-space rule"
                        .to_string()
                }
                Some(c) => {
                    let at = map_point(map, c.first % width, c.first / width);
                    let border = if c.touches_border {
                        " reaches the image border and"
                    } else {
                        ""
                    };
                    format!("the largest free region ({} pixels, from {at}){border} has no hole, so there is no infield for a loop to go around; if the track has an infield, a wall gap joins it to the track: close the gap", c.area)
                }
                None => "the free space is empty".to_string(),
            };
            return Err(ExtractError::NoLoop { why });
        }
    };

    // Two infields of about the same size (a figure eight): no single loop goes round.
    if let [a, b, ..] = region.holes.as_slice() {
        if 2 * b.area >= a.area {
            let at = |h: &clean::Component| {
                let (c, r) = region.image_pixel(h.first);
                format!(
                    "one around the infield at {} ({} pixels)",
                    map_point(map, c, r),
                    h.area
                )
            };
            return Err(ExtractError::Ambiguous {
                why: format!("the track region has two infields: {} and {}", at(a), at(b)),
            });
        }
    }

    // Stage 3: skeleton, spurs, loop around the infield.
    let mut skel = thin::skeletonize(&region.mask, region.width, region.height);
    clock.lap("thin");
    cycle::prune_spurs(&mut skel, region.width, region.height);
    let infield = &region.holes[0];
    let ray = (infield.first % region.width, infield.first / region.width);
    let Some(cycle_px) = cycle::infield_cycle(&skel, region.width, region.height, ray) else {
        let (c, r) = region.image_pixel(infield.first);
        return Err(ExtractError::NoLoop {
            why: format!(
                "the skeleton of the track region has no cycle around its infield (at {})",
                map_point(map, c, r)
            ),
        });
    };
    let cycle_px = cycle::race_stack_order(
        &cycle::with_corners(&cycle_px, &skel, region.width),
        region.width,
    );
    drop(skel);
    clock.lap("loop");
    if leaking {
        return Err(leak_error(map, &region, &cycle_px));
    }
    // Stage 4: smoothing in pixels, then metres. A smoothed point may move at most half the
    // clearance of its loop pixel (distance to the region's boundary, pixels).
    let n = cycle_px.len();
    let outer_px = walls::trace_boundary(
        &region.mask,
        region.width,
        region.height,
        region.mask.iter().position(|&v| v).unwrap_or(0),
        walls::WEST,
    );
    let holes_px: Vec<Vec<usize>> = region
        .holes
        .iter()
        .map(|hole| {
            walls::trace_boundary(
                &region.mask,
                region.width,
                region.height,
                hole.first - region.width,
                walls::SOUTH,
            )
        })
        .collect();
    let crop_xy = |p: &usize| [(p % region.width) as f64, (p / region.width) as f64];
    let loop_xy: Vec<[f64; 2]> = cycle_px.iter().map(crop_xy).collect();
    let boundary_xy: Vec<[f64; 2]> = outer_px
        .iter()
        .chain(holes_px.iter().flatten())
        .map(crop_xy)
        .collect();
    let boundary = walls::PointGrid::new(&boundary_xy, &loop_xy, CLEARANCE_CELL_PX);
    clock.lap("boundary");
    // Boundary pixel centres lie half a pixel inside the free space's edge.
    let loop_clearance: Vec<f64> = loop_xy.iter().map(|&p| boundary.nearest(p) + 0.5).collect();
    let limit: Vec<f64> = loop_clearance.iter().map(|&d| 0.5 * d).collect();
    if let Some(spill) = leak::infield_spill(&region, &cycle_px, &loop_clearance) {
        if let Some((gap, inside, clearance)) = leak::locate_leak(&region, &cycle_px, |i| spill[i])
        {
            let (gc, gr) = region.image_pixel(gap);
            let (ic, ir) = region.image_pixel(inside);
            return Err(ExtractError::InfieldLeak {
                gap: map_point(map, gc, gr),
                inside: map_point(map, ic, ir),
                gap_width_px: (2.0 * clearance - 1.0).round().max(1.0) as usize,
            });
        }
    }

    let cols: Vec<f64> = loop_xy.iter().map(|p| p[0]).collect();
    let rows: Vec<f64> = loop_xy.iter().map(|p| p[1]).collect();
    let Some((mut cols, mut rows, window)) = smooth::smooth_loop(&cols, &rows, &limit) else {
        let (c, r) = region.image_pixel(cycle_px[0]);
        return Err(ExtractError::NoLoop {
            why: format!(
                "the loop around the infield at {} is only {n} pixels long; a track needs at least 5",
                map_point(map, c, r)
            ),
        });
    };
    smooth::race_stack_seam(&mut cols, window);
    smooth::race_stack_seam(&mut rows, window);
    let smooth_m: Vec<[f64; 2]> = cols
        .iter()
        .zip(&rows)
        .map(|(&c, &r)| {
            let (x, y) = map.pixel_to_world(c + region.col0 as f64, r + region.row0 as f64);
            [x, y]
        })
        .collect();
    clock.lap("smooth");

    // Stage 5: start, direction, resampling.
    let (s0, tangent) = centerline::project(&smooth_m, start.x, start.y);
    let loop_heading = tangent[1].atan2(tangent[0]);
    let forward = centerline::same_direction(loop_heading, start.yaw) != reverse;
    let total = geom::closed_length(&smooth_m);
    let count = ((total / params.spacing_m).ceil() as usize).max(3);
    let points = centerline::resample_from(&smooth_m, s0, count, forward);
    let (psi, kappa) = centerline::heading_curvature(&points, params.spacing_m);
    clock.lap("resample");

    // Stage 6: walls and distances.
    let bounds = track_bounds(map, &region, &outer_px, &holes_px, &points);
    let centerline = points
        .iter()
        .enumerate()
        .map(|(i, p)| Waypoint {
            id: i as i64,
            s_m: params.spacing_m * i as f64,
            d_m: 0.0,
            x_m: p[0],
            y_m: p[1],
            d_right: bounds.d_right[i],
            d_left: bounds.d_left[i],
            psi_rad: psi[i],
            kappa_radpm: kappa[i],
            vx_mps: 0.0,
            ax_mps2: 0.0,
        })
        .collect();
    let mut track_free = vec![false; width * height];
    for (i, &m) in region.mask.iter().enumerate() {
        if m {
            let (c, r) = region.image_pixel(i);
            track_free[r * width + c] = true;
        }
    }
    clock.lap("walls");
    Ok(Extraction {
        centerline,
        right_wall: bounds.right_wall,
        left_wall: bounds.left_wall,
        track_free,
        timings: clock.timings,
        opening_radius_px: radius,
    })
}

/// Stage 6's result: the walls (OpenCV contour order) and each waypoint's distances to them.
struct Bounds {
    right_wall: Vec<[f64; 2]>,
    left_wall: Vec<[f64; 2]>,
    d_right: Vec<f64>,
    d_left: Vec<f64>,
}

/// Right and left walls from the region's outer and infield boundaries (crop pixels), and the
/// distances of `points` (world, driving order) to them and to the obstacles on each side.
fn track_bounds(
    map: &OccupancyMap,
    region: &Region,
    outer_px: &[usize],
    holes_px: &[Vec<usize>],
    points: &[[f64; 2]],
) -> Bounds {
    let to_world = |pix: &[usize]| -> Vec<[f64; 2]> {
        pix.iter()
            .map(|&p| {
                let (c, r) = region.image_pixel(p);
                let (x, y) = map.pixel_to_world(c as f64, r as f64);
                [x, y]
            })
            .collect()
    };
    let order = |pix: &[usize], outer: bool| {
        to_world(&walls::opencv_order(pix, region.width, &region.mask, outer))
    };
    let outer = order(outer_px, true);
    let inner = order(&holes_px[0], false);
    // Driving counter-clockwise the infield is on the left.
    let ccw = walls::signed_area2(points) > 0.0;
    let (right_wall, left_wall) = if ccw { (outer, inner) } else { (inner, outer) };
    let mut right_pts = walls::resample_closed(&right_wall, WALL_STEP_M);
    let mut left_pts = walls::resample_closed(&left_wall, WALL_STEP_M);
    if holes_px.len() > 1 {
        let mut obstacle_pts = Vec::new();
        for hole in &holes_px[1..] {
            obstacle_pts.extend(walls::resample_closed(&order(hole, false), WALL_STEP_M));
        }
        let side = walls::PointGrid::new(points, &obstacle_pts, GRID_CELL_M);
        for p in obstacle_pts {
            if obstacle_on_left(points, &side, p) {
                left_pts.push(p);
            } else {
                right_pts.push(p);
            }
        }
    }
    let right_grid = walls::PointGrid::new(&right_pts, points, GRID_CELL_M);
    let left_grid = walls::PointGrid::new(&left_pts, points, GRID_CELL_M);
    Bounds {
        d_right: points.iter().map(|&p| right_grid.nearest(p)).collect(),
        d_left: points.iter().map(|&p| left_grid.nearest(p)).collect(),
        right_wall,
        left_wall,
    }
}

/// Whether world point `p` lies left of the centerline `points` (driving order) at its nearest
/// point; `grid` holds `points`.
fn obstacle_on_left(points: &[[f64; 2]], grid: &walls::PointGrid, p: [f64; 2]) -> bool {
    let n = points.len();
    let (_, k) = grid.nearest_index(p);
    let (a, b) = (points[k], points[(k + 1) % n]);
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0.0
}

fn leak_error(map: &OccupancyMap, region: &Region, cycle_px: &[usize]) -> ExtractError {
    match leak::locate_leak(region, cycle_px, |i| {
        leak::on_image_border(region, map.width, map.height, i)
    }) {
        Some((gap, border, clearance)) => {
            let (gc, gr) = region.image_pixel(gap);
            let (bc, br) = region.image_pixel(border);
            ExtractError::Leak {
                gap: map_point(map, gc, gr),
                border: map_point(map, bc, br),
                gap_width_px: (2.0 * clearance - 1.0).round().max(1.0) as usize,
            }
        }
        None => {
            let (c, r) = region.image_pixel(cycle_px[0]);
            ExtractError::NoLoop {
                why: format!(
                    "the track region around {} touches the image border but no path leads there",
                    map_point(map, c, r)
                ),
            }
        }
    }
}
