//! Obstacle clearance of the racing lines (issue 11, item 5): an obstacle
//! inside the track (a box, a pillar, a speck) is a wall, and no line may come
//! closer to it than half the safety width.
//!
//! The IQP and SP constraints hold at their knots with widths that are nearest
//! distances carried along the line (linearised in the IQP's iterations,
//! smoothed after the SP's QP), so near a small obstacle, whose distance
//! changes quickly along the track, a line can still clip it. Each line is
//! therefore checked at its sampled points against the obstacles' outlines;
//! where it comes too close, the reference widths on that side are narrowed
//! near the place by the shortfall and the stage is solved again (at most
//! [`MAX_ROUNDS`] times). The outer walls keep the Race Stack's behaviour
//! (parity): a map without obstacles never enters this loop.

use mapzoo_geom::{Norm, Obstacle, PointIndex, ResampledWalls, Side};

use crate::error::{ObstacleNote, OptimizeError};
use crate::prep::RefTrack;
use crate::stage::Stage;
use crate::trajectory::Trajectory;

/// Re-solves a line at most this many times before giving up.
pub(crate) const MAX_ROUNDS: usize = 8;
/// Extra room asked for beyond the shortfall when narrowing a width, metres.
const MARGIN_M: f64 = 0.01;
/// Knots of the reference within this distance of the knot nearest a shortfall are
/// narrowed with it, metres (the SP's moving average and the IQP's spline reach this far).
const REACH_M: f64 = 0.8;
/// Room kept beyond half the safety width when shifting knots back, metres: between two
/// knots (0.2 m apart) the spline can pass a small obstacle a few millimetres closer.
const CLAMP_MARGIN_M: f64 = 0.02;

/// A point of a line closer to an obstacle than half the safety width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Shortfall {
    /// The line point, metres.
    pub point: [f64; 2],
    /// The obstacle's side.
    pub side: Side,
    /// Index of the obstacle in the walls.
    pub obstacle: usize,
    /// Half the safety width less the distance, metres (> 0).
    pub deficit: f64,
}

/// Points of `line` closer than `half` to an obstacle of `walls`.
pub(crate) fn shortfalls(line: &[[f64; 2]], walls: &ResampledWalls, half: f64) -> Vec<Shortfall> {
    if !walls.has_obstacles() {
        return Vec::new();
    }
    line.iter()
        .filter_map(|&p| {
            let near = walls.nearest_obstacle(p)?;
            (near.distance < half).then_some(Shortfall {
                point: p,
                side: near.side,
                obstacle: near.obstacle,
                deficit: half - near.distance,
            })
        })
        .collect()
}

/// Shifts `alpha` (metres, positive right, along the unit `normals` of the knots `xy`) back
/// where a knot would come closer than `half` (plus [`CLAMP_MARGIN_M`]) to its nearest
/// obstacle, by the distance from the knot to it: the QP's own width bound, which the SP's
/// moving average can overstep.
pub(crate) fn clamp_to_obstacles(
    xy: &[[f64; 2]],
    alpha: &mut [f64],
    walls: &ResampledWalls,
    half: f64,
) {
    if !walls.has_obstacles() {
        return;
    }
    for (p, a) in xy.iter().zip(alpha.iter_mut()) {
        let Some(near) = walls.nearest_obstacle(*p) else {
            continue;
        };
        let room = near.distance - half - CLAMP_MARGIN_M;
        match near.side {
            Side::Right => *a = a.min(room),
            Side::Left => *a = a.max(-room),
        }
    }
}

/// Rounds of shifting back and smoothing again in [`clamp_smoothly`].
const SMOOTH_ROUNDS: usize = 6;

/// [`clamp_to_obstacles`], alternated with `smooth` a few times so that the shifted knots
/// do not kink the line, then once more; no change without a knot too close.
pub(crate) fn clamp_smoothly(
    xy: &[[f64; 2]],
    alpha: &mut Vec<f64>,
    walls: &ResampledWalls,
    half: f64,
    smooth: impl Fn(&[f64]) -> Vec<f64>,
) {
    let before = alpha.clone();
    clamp_to_obstacles(xy, alpha, walls, half);
    if *alpha == before {
        return;
    }
    for _ in 0..SMOOTH_ROUNDS {
        *alpha = smooth(alpha);
        clamp_to_obstacles(xy, alpha, walls, half);
    }
}

/// Narrows the widths of `track` on the side of each shortfall, at the knots within
/// [`REACH_M`] of the knot nearest to it, by its deficit plus [`MARGIN_M`] (the largest
/// deficit per knot and side).
pub(crate) fn narrow(track: &mut RefTrack, found: &[Shortfall]) {
    let knots = PointIndex::new(track.xy.clone(), REACH_M, Norm::Hypot);
    let n = track.len();
    let mut cut_right = vec![0.0_f64; n];
    let mut cut_left = vec![0.0_f64; n];
    for s in found {
        let Some(near) = knots.nearest(s.point) else {
            continue;
        };
        let cut = match s.side {
            Side::Right => &mut cut_right,
            Side::Left => &mut cut_left,
        };
        for j in knots.within(track.xy[near.index], REACH_M) {
            cut[j] = cut[j].max(s.deficit + MARGIN_M);
        }
    }
    for j in 0..n {
        track.w_right[j] -= cut_right[j];
        track.w_left[j] -= cut_left[j];
    }
}

/// Solves a line with `solve` on `reference`, narrowing the reference where the line comes
/// too close to an obstacle and solving again; the error after [`MAX_ROUNDS`] names the
/// obstacle.
pub(crate) fn keep_clear<T>(
    stage: Stage,
    reference: &RefTrack,
    walls: &ResampledWalls,
    obstacles: &[Obstacle],
    safety_width: f64,
    mut solve: impl FnMut(&RefTrack) -> Result<(T, Trajectory), OptimizeError>,
) -> Result<(T, Trajectory), OptimizeError> {
    let half = safety_width / 2.0;
    let mut first = solve(reference)?;
    let mut found = shortfalls(&first.1.xy, walls, half);
    if found.is_empty() {
        return Ok(first);
    }
    let mut narrowed = reference.clone();
    for _ in 0..MAX_ROUNDS {
        narrow(&mut narrowed, &found);
        first = solve(&narrowed)?;
        found = shortfalls(&first.1.xy, walls, half);
        if found.is_empty() {
            return Ok(first);
        }
    }
    let worst = found
        .iter()
        .max_by(|a, b| a.deficit.total_cmp(&b.deficit))
        .copied()
        .unwrap_or(found[0]);
    Err(OptimizeError::ObstacleTooClose {
        stage,
        x: worst.point[0],
        y: worst.point[1],
        obstacle: Box::new(note(&obstacles[worst.obstacle], f64::NAN)),
        clearance: half - worst.deficit,
        needed: half,
    })
}

/// An obstacle for a message; `room_passed` is the track width beside it (NaN: unknown).
pub(crate) fn note(obstacle: &Obstacle, room_passed: f64) -> ObstacleNote {
    ObstacleNote {
        centre: obstacle.centre,
        size: obstacle.size,
        side: obstacle.side.name(),
        room_passed,
        room_beyond: obstacle.room_beyond,
    }
}
