//! An independent check of the minimum-lap-time line (issue 14): a slow, exact optimiser of
//! the same problem, used only here, that shares nothing with the min-time step's QP model.
//!
//! The problem: the knots of the min-time step (`reference::start_knots`, ≈0.2 m apart along
//! the IQP line) shifted along the same fixed normals; the objective is the lap our velocity
//! profile gives on the closed spline through them sampled every `reference::FINE_STEP_M`
//! (0.02 m), exactly as the min-time step times its candidates; admissible are lines whose
//! samples at the output step keep half the safety width less 0.015 m from the walls and
//! obstacles, whose knots keep half the safety width (as the QP's corridor) and whose
//! curvature stays within `curvlim`.
//!
//! The method: compass search (no derivatives: the lap is only piecewise smooth, a knot moved
//! by 0.2 mm already changes it by 1e-4 s with a kink at the optimum) over raised-cosine bumps
//! of half-widths 6, 3, 1.5 and 0.8 m centred every half-width/2 along the line, each with its
//! own step (start 1 cm, doubled after a success up to 10 cm, halved after a failure both
//! ways, down to 10 µm); a move is kept only if it shortens the lap and stays admissible. It
//! runs from the IQP line and from the min-time line (its knots, exactly) on three generated
//! tracks with both profiles.
//!
//! The property: the min-time lap is at most [`TOLERANCE`] (0.1 %) above the best lap the slow
//! optimiser reaches, and from the min-time line it gains less than that. 0.1 %: the QP's model
//! of the lap (speeds at the knots, the friction diamond linearised) differs from the re-timed
//! profile at about that level, below which its steps are no longer kept; it is a third of the
//! 0.3 % the reference tracks f and Austin are held to, and about 5 ms on these ≈5–6 s laps,
//! while a 2 mm knot error costs 0.2 s.

use std::time::Instant;

use mapzoo_format::Waypoint;
use mapzoo_geom::{closed_arc_lengths, Norm};
use mapzoo_raceline::reference::{start_knots, FINE_STEP_M};
use mapzoo_raceline::{ClosedSpline, RacelineParams, ResampledWalls, Vehicle};

use crate::support::{solve, synthetic_track, timed_spline, Solved};

/// Samples may come this much closer to a wall than half the safety width, metres.
const SAMPLE_SLACK_M: f64 = 0.015;
/// Laps the slow optimiser may time from the min-time line (half that from the IQP line).
const MAX_EVALS: usize = 4000;
/// How much slower than the slow optimiser's best the min-time line may be, relative.
const TOLERANCE: f64 = 1e-3;

/// The problem: knots on the IQP line shifted along fixed normals.
struct Reference<'a> {
    base: Vec<[f64; 2]>,
    normals: Vec<[f64; 2]>,
    walls: &'a ResampledWalls,
    vehicle: &'a Vehicle,
    step: f64,
    half: f64,
    min_clearance: f64,
    curvlim: f64,
}

/// A line through shifted knots, timed as the min-time step times its candidates (at
/// [`FINE_STEP_M`]) and, when checked, its samples at the output step.
struct Eval {
    lap: f64,
    clearance: f64,
    max_kappa: f64,
}

impl Reference<'_> {
    fn points(&self, alpha: &[f64]) -> Vec<[f64; 2]> {
        self.base
            .iter()
            .zip(&self.normals)
            .zip(alpha)
            .map(|((p, n), a)| [p[0] + a * n[0], p[1] + a * n[1]])
            .collect()
    }

    fn eval(&self, alpha: &[f64], check: bool) -> Option<Eval> {
        let knots = self.points(alpha);
        let (lap, _, _) = timed_spline(&knots, FINE_STEP_M, self.vehicle)?;
        if !(lap.is_finite() && lap > 0.0) {
            return None;
        }
        let (clearance, max_kappa) = if check {
            let (_, points, kappa) = timed_spline(&knots, self.step, self.vehicle)?;
            (
                points
                    .iter()
                    .map(|&p| self.walls.clearance(p))
                    .fold(f64::INFINITY, f64::min),
                kappa.iter().fold(0.0_f64, |m, k| m.max(k.abs())),
            )
        } else {
            (f64::NAN, f64::NAN)
        };
        Some(Eval {
            lap,
            clearance,
            max_kappa,
        })
    }
}

impl Reference<'_> {
    /// The smallest clearance each knot may have: half the safety width, or less where the
    /// start already has less.
    fn knot_floor(&self, start: &[f64]) -> Vec<f64> {
        self.points(start)
            .iter()
            .map(|&p| self.walls.clearance(p).min(self.half))
            .collect()
    }

    /// Whether an evaluated line is admissible: samples clear of the walls, curvature bounded,
    /// knots at least half the safety width from the walls.
    fn admissible(&self, alpha: &[f64], e: &Eval, knot_floor: &[f64]) -> bool {
        e.clearance >= self.min_clearance
            && e.max_kappa <= self.curvlim
            && self
                .points(alpha)
                .iter()
                .zip(knot_floor)
                .all(|(&p, &f)| self.walls.clearance(p) >= f)
    }
}

/// A smooth bump direction: raised cosine of half-width `w` metres centred at arc length `c`.
struct Dir {
    idx: Vec<usize>,
    w: Vec<f64>,
}

fn bumps(s: &[f64], length: f64, half_width: f64) -> Vec<Dir> {
    let count = ((length / (0.5 * half_width)).round() as usize).max(1);
    (0..count)
        .map(|j| {
            let c = length * j as f64 / count as f64;
            let mut idx = Vec::new();
            let mut w = Vec::new();
            for (k, &sk) in s.iter().enumerate() {
                let mut d = (sk - c).abs();
                d = d.min(length - d);
                if d < half_width {
                    idx.push(k);
                    w.push(0.5 * (1.0 + (std::f64::consts::PI * d / half_width).cos()));
                }
            }
            Dir { idx, w }
        })
        .collect()
}

/// Compass search over smooth bumps of several widths: each direction keeps its own step,
/// doubled after a success and halved after a failure both ways.
fn pattern_search(
    prob: &Reference,
    s: &[f64],
    length: f64,
    start: Vec<f64>,
    knot_floor: &[f64],
    max_evals: usize,
) -> (Vec<f64>, f64, usize) {
    let mut dirs = Vec::new();
    for hw in [6.0, 3.0, 1.5, 0.8] {
        dirs.extend(bumps(s, length, hw));
    }
    let mut step = vec![0.01; dirs.len()];
    let mut sign = vec![1.0; dirs.len()];
    let mut x = start;
    let mut f = prob.eval(&x, false).unwrap().lap;
    let mut evals = 0;
    while evals < max_evals {
        let mut moved = false;
        for (d, dir) in dirs.iter().enumerate() {
            if step[d] < 1e-5 {
                continue;
            }
            let mut ok = false;
            for sg in [sign[d], -sign[d]] {
                let mut y = x.clone();
                for (&k, &w) in dir.idx.iter().zip(&dir.w) {
                    y[k] += sg * step[d] * w;
                }
                evals += 1;
                let Some(e) = prob.eval(&y, false) else {
                    continue;
                };
                if e.lap < f - 1e-10 {
                    let Some(e) = prob.eval(&y, true) else {
                        continue;
                    };
                    if prob.admissible(&y, &e, knot_floor) {
                        x = y;
                        f = e.lap;
                        sign[d] = sg;
                        ok = true;
                        break;
                    }
                }
            }
            if ok {
                step[d] = (step[d] * 2.0).min(0.1);
                moved = true;
            } else {
                step[d] *= 0.5;
            }
        }
        if !moved && step.iter().all(|&h| h < 1e-5) {
            break;
        }
    }
    (x, f, evals)
}

/// What the slow optimiser found on one track.
struct Outcome {
    scp: f64,
    from_scp: f64,
    from_iqp: f64,
}

/// The min-time line of a track, then the slow optimiser from the IQP line and from that line.
fn compare(name: &str, cl: &[Waypoint], params: &RacelineParams) -> Outcome {
    let Solved {
        iqp_line: iqp,
        walls,
        sol,
        seconds: scp_seconds,
        ..
    } = solve(cl, None, params);
    let vehicle = params.vehicle();
    let walls = walls.resampled(params.wall_resample_step);
    assert!(!sol.is_iqp, "{name}: the min-time step kept no step");
    // the same knots and normals as the min-time step
    let base = start_knots(&iqp, params.stepsize_interp_after_opt);
    let mut s = closed_arc_lengths(&base, Norm::Hypot);
    s.pop();
    let normals = ClosedSpline::through(&base, None).unwrap().normals();
    assert_eq!(sol.knots.len(), base.len());
    let half = params.safety_width / 2.0;
    let mut prob = Reference {
        base,
        normals,
        walls: &walls,
        vehicle: &vehicle,
        step: params.stepsize_interp_after_opt,
        half,
        min_clearance: half - SAMPLE_SLACK_M,
        curvlim: params.curvlim,
    };
    let n = prob.base.len();
    let zero = vec![0.0; n];
    let e0 = prob.eval(&zero, true).unwrap();
    prob.min_clearance = prob.min_clearance.min(e0.clearance);
    prob.curvlim = prob.curvlim.max(e0.max_kappa);
    // the min-time line's knots as shifts along the normals (exact: knot = base + α·normal)
    let a_scp: Vec<f64> = sol
        .knots
        .iter()
        .zip(&prob.base)
        .zip(&prob.normals)
        .map(|((k, b), nr)| (k[0] - b[0]) * nr[0] + (k[1] - b[1]) * nr[1])
        .collect();
    let e_scp = prob.eval(&a_scp, true).unwrap();
    let rebuilt = timed_spline(&prob.points(&a_scp), prob.step, &vehicle)
        .unwrap()
        .0;
    assert!(
        (rebuilt - sol.trajectory.lap_time).abs() < 1e-9,
        "{name}: the knots rebuild the line"
    );
    let mut laps = Vec::new();
    for (start, label) in [(zero, "IQP"), (a_scp, "min-time")] {
        let floor = prob.knot_floor(&start);
        let t = Instant::now();
        let budget = if label == "IQP" {
            MAX_EVALS / 2
        } else {
            MAX_EVALS
        };
        let (_, lap, evals) = pattern_search(&prob, &s, iqp.length, start, &floor, budget);
        eprintln!(
            "{name}: slow optimiser from the {label} line: {lap:.5} s ({evals} laps timed, {:.1} s)",
            t.elapsed().as_secs_f64()
        );
        laps.push(lap);
    }
    let out = Outcome {
        scp: e_scp.lap,
        from_iqp: laps[0],
        from_scp: laps[1],
    };
    eprintln!(
        "{name}: IQP knots {:.5} s, min-time {:.5} s (timed at 0.02 m) ({} iterations, {:.2} s); slow optimiser best {:.5} s, \
         gain from the min-time line {:.4} %",
        e0.lap,
        out.scp,
        sol.iterations,
        scp_seconds,
        out.from_iqp.min(out.from_scp),
        100.0 * (out.scp - out.from_scp) / out.scp
    );
    out
}

/// The property of the module's doc on one track.
fn check(name: &str, cl: &[Waypoint], params: &RacelineParams) {
    let o = compare(name, cl, params);
    let best = o.from_iqp.min(o.from_scp);
    assert!(
        o.scp <= best * (1.0 + TOLERANCE),
        "{name}: min-time {} s, the slow optimiser reaches {best} s",
        o.scp
    );
    assert!(
        o.scp - o.from_scp < TOLERANCE * o.scp,
        "{name}: the slow optimiser gains {} s from the min-time line ({} s)",
        o.scp - o.from_scp,
        o.scp
    );
}

#[test]
fn mintime_is_near_optimal_on_the_bump_test_track() {
    check(
        "loop R8",
        &synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3),
        &RacelineParams::mapzoo(),
    );
}

#[test]
fn mintime_is_near_optimal_on_a_narrow_racestack_track() {
    check(
        "loop R6",
        &synthetic_track(6.0, 0.1, 0.04, 2.5, 1.0),
        &RacelineParams::racestack(),
    );
}

#[test]
fn mintime_is_near_optimal_on_a_wide_twisty_track() {
    check(
        "loop R7",
        &synthetic_track(7.0, 0.18, 0.06, 4.0, 1.5),
        &RacelineParams::mapzoo(),
    );
}
