//! Start-independent racing lines (`[raceline] seamless`, ARCHITECTURE.md "Seamless lines").
//!
//! The Race Stack's steps are periodic in their algebra (the closed C2 splines and both QPs
//! treat every knot alike) but several steps have a seam at the centerline's first point:
//! FITPACK's smoothing spline places its knots from it, the IQP stops after a fixed handful
//! of damped steps (so its line is an iterate that depends on where each re-sampling began)
//! and carries its widths along as width − shift (a corridor that drifts with that path),
//! the SP's reference repeats its first point at the end (a zero-length segment), and the
//! velocity profile's passes begin at point 0 (two laps, but its phases are cut there). The
//! seamless run replaces each: a circulant smoother ([`smooth`]), the IQP iterated to its
//! fixed point with widths measured to the walls ([`iqp`], [`prep`]), the SP reference
//! without the repeated point, and the profile's passes from the slowest corner
//! ([`crate::Vehicle::seamless`]).
//!
//! What is left is the phase of the grids themselves (the knots every `stepsize_reg`, the
//! waypoints every 0.1 m): the same line sampled at another phase times 0.03–0.1 % apart. So
//! the stages also start at [`canonical_start`], a waypoint chosen by the shape of the loop
//! alone, and every line is turned to begin at its waypoint nearest the given start
//! ([`start_lines_near`]): a centerline that only starts elsewhere gives the same line.

pub(crate) mod iqp;
pub(crate) mod prep;
mod smooth;

use mapzoo_format::Waypoint;

use crate::result::RacelineResult;

/// Half width, in waypoints, of the window over which [`canonical_start`] adds up the turning.
const STRAIGHT_WINDOW: usize = 10;

/// The index of the canonical start of a closed loop (unclosed points): the waypoint where the
/// loop is straightest, i.e. the smallest total |turning angle| over the STRAIGHT_WINDOW
/// waypoints either side, ties broken by the largest x, then the largest y.
///
/// It depends on the cyclic sequence of points only, not on which of them is first: every
/// score is summed in the same order relative to its own point. A straight is where a seam
/// of the TUM steps (a grid's phase) costs least.
pub fn canonical_start(xy: &[[f64; 2]]) -> usize {
    let n = xy.len();
    if n < 3 {
        return 0;
    }
    let turn: Vec<f64> = (0..n)
        .map(|i| {
            let (a, b, c) = (xy[(i + n - 1) % n], xy[i], xy[(i + 1) % n]);
            let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
            (u[0] * v[1] - u[1] * v[0])
                .atan2(u[0] * v[0] + u[1] * v[1])
                .abs()
        })
        .collect();
    let w = STRAIGHT_WINDOW.min((n - 1) / 2);
    let score = |i: usize| -> f64 {
        let mut acc = turn[i];
        for d in 1..=w {
            acc += turn[(i + d) % n] + turn[(i + n - d) % n];
        }
        acc
    };
    let mut best = 0;
    let mut best_score = score(0);
    for i in 1..n {
        let s = score(i);
        let better = match s.total_cmp(&best_score) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => xy[i][0]
                .total_cmp(&xy[best][0])
                .then(xy[i][1].total_cmp(&xy[best][1]))
                .is_gt(),
        };
        if better {
            best = i;
            best_score = s;
        }
    }
    best
}

/// Turn every line of `result` to begin at its waypoint nearest `start` (arc lengths and ids
/// from there; the points, speeds and lap time are those of the same closed line).
pub(crate) fn start_lines_near(result: &mut RacelineResult, start: [f64; 2]) {
    for line in &mut result.lines {
        line.waypoints = start_near(&line.waypoints, start);
    }
}

/// A closed waypoint list (last = first at s = lap length) turned to begin at its waypoint
/// nearest `start`.
pub fn start_near(closed: &[Waypoint], start: [f64; 2]) -> Vec<Waypoint> {
    let n = closed.len().saturating_sub(1);
    if n < 2 {
        return closed.to_vec();
    }
    let length = closed[n].s_m;
    let open = &closed[..n];
    let d2 = |w: &Waypoint| (w.x_m - start[0]).powi(2) + (w.y_m - start[1]).powi(2);
    let j = (0..n)
        .min_by(|&a, &b| d2(&open[a]).total_cmp(&d2(&open[b])))
        .unwrap_or(0);
    if j == 0 {
        return closed.to_vec();
    }
    let s0 = open[j].s_m;
    let mut out: Vec<Waypoint> = (0..n)
        .map(|k| {
            let mut w = open[(j + k) % n];
            w.id = k as i64;
            w.s_m = if k < n - j {
                w.s_m - s0
            } else {
                w.s_m + (length - s0)
            };
            w
        })
        .collect();
    let mut last = out[0];
    last.id = n as i64;
    last.s_m = length;
    out.push(last);
    out
}
