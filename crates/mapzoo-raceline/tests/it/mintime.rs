//! The minimum-lap-time line ([`mapzoo_raceline::mintime`], issue 14): on generated tracks
//! never slower than the IQP or the SP line, inside the corridor, deterministic; its lap is
//! our own velocity profile on its own geometry; a first-order optimality check by finite
//! differences of that lap time; and the reference tracks f and Austin (figures printed).

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::GlobalWaypoints;
use mapzoo_geom::{closed_arc_lengths, Norm};
use mapzoo_raceline::{
    compute, velocity_profile, ClosedSpline, LineKind, RacelineParams, Trajectory, Walls,
};
use proptest::prelude::*;

use crate::support::{solve, synthetic_track, timed_spline};

/// Smallest distance of the line's points to the walls, metres.
fn min_clearance(traj: &Trajectory, walls: &Walls, step: f64) -> f64 {
    let w = walls.resampled(step);
    traj.xy
        .iter()
        .map(|&p| {
            let (r, l) = w.distances(p);
            r.min(l)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn the_iqp_line_rebuilt_from_its_waypoints_has_the_same_lap() {
    let cl = synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3);
    let params = RacelineParams::mapzoo();
    let r = compute(&cl, None, &params).unwrap();
    let traj = Trajectory::from_waypoints(&r[LineKind::Iqp].waypoints);
    assert_eq!(traj.lap_time, r[LineKind::Iqp].lap_time_s);
    assert_eq!(traj.clone().with_velocity(&params.vehicle()), traj);
}

#[test]
fn mintime_is_faster_than_iqp_on_a_generated_track_and_its_lap_is_our_profile() {
    let cl = synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3);
    let params = RacelineParams::mapzoo();
    let s = solve(&cl, None, &params);
    let traj = &s.sol.trajectory;
    eprintln!(
        "iqp {:.4} s, sp {:.4} s, mintime {:.4} s ({} iterations, {} kept, {:.3} s)",
        s.iqp, s.sp, traj.lap_time, s.sol.iterations, s.sol.accepted, s.seconds
    );
    // a real improvement on a track with room to use
    assert!(
        !s.sol.is_iqp && traj.lap_time < s.iqp * 0.995,
        "{} vs {}",
        traj.lap_time,
        s.iqp
    );
    // the reported lap is our velocity profile on the line's own geometry
    let v = velocity_profile(&traj.kappa, &traj.el_lengths, &params.vehicle());
    assert_eq!(v, traj.vx);
    let again = traj.clone().with_velocity(&params.vehicle());
    assert_eq!(again.lap_time, traj.lap_time);
    // ≈0.1 m spacing
    let step = params.stepsize_interp_after_opt;
    assert!(traj
        .el_lengths
        .iter()
        .all(|&d| d > 0.5 * step && d < 1.5 * step));
}

/// First-order optimality, independently of the optimiser's model: at the solution, shifting
/// its knots along their normals by a smooth bump anywhere (the lap re-timed at 0.02 m, as the
/// min-time step times its candidates) gains almost nothing compared with what the solution
/// gained over the IQP.
#[test]
fn no_smooth_bump_improves_the_solution_much() {
    let cl = synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3);
    let params = RacelineParams::mapzoo();
    let s = solve(&cl, None, &params);
    assert!(!s.sol.is_iqp);
    let vehicle = params.vehicle();
    let walls = s.walls.resampled(params.wall_resample_step);
    let half = params.safety_width / 2.0;
    let knots = &s.sol.knots;
    let n = knots.len();
    let normals = ClosedSpline::through(knots, None).unwrap().normals();
    let arc = closed_arc_lengths(knots, Norm::Hypot);
    let length = arc[n];
    let lap_of = |shift: &dyn Fn(usize) -> f64| -> Option<f64> {
        let pts: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = shift(k);
                [
                    knots[k][0] + a * normals[k][0],
                    knots[k][1] + a * normals[k][1],
                ]
            })
            .collect();
        let (_, points, _) = timed_spline(&pts, params.stepsize_interp_after_opt, &vehicle)?;
        let clear = points.iter().all(|&p| {
            let (r, l) = walls.distances(p);
            r.min(l) >= half - 0.02
        });
        clear.then(|| timed_spline(&pts, 0.02, &vehicle).map(|t| t.0))?
    };
    let base = lap_of(&|_| 0.0).unwrap();
    let iqp = timed_spline(&s.iqp_line.xy, 0.02, &vehicle).unwrap().0;
    let gain = iqp - base;
    let (width, height) = (3.0, 0.02);
    let mut best = 0.0_f64;
    for centre in (0..n).step_by(5) {
        let c = arc[centre];
        let bump = |k: usize, sign: f64| {
            let mut d = (arc[k] - c).abs();
            d = d.min(length - d);
            if d < width {
                sign * height * 0.5 * (1.0 + (std::f64::consts::PI * d / width).cos())
            } else {
                0.0
            }
        };
        for sign in [1.0, -1.0] {
            if let Some(t) = lap_of(&|k| bump(k, sign)) {
                best = best.max(base - t);
            }
        }
    }
    eprintln!(
        "at 0.02 m: IQP {iqp:.5} s, min-time {base:.5} s (gain {gain:.4} s), best 2 cm bump gain {best:.5} s"
    );
    assert!(gain > 0.0);
    assert!(
        best < 0.05 * gain,
        "a 2 cm bump still gains {best} s (solution gained {gain} s)"
    );
}

/// The min-time line is the same bit for bit whether its candidates' two samplings and wall
/// distances run side by side (one track alone: a second core is free, as on CI's two cores)
/// or one after the other (inside a thread pool, as a batch runs its tracks), and so are its
/// iteration and kept-step counts.
#[test]
fn mintime_is_the_same_alone_and_inside_a_pool() {
    assert!(
        std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2,
        "this check needs a second core"
    );
    let params = RacelineParams::mapzoo();
    for cl in [
        synthetic_track(8.0, 0.15, 0.05, 1.0, 1.3),
        synthetic_track(6.5, 0.1, 0.03, 4.0, 1.1),
    ] {
        let alone = solve(&cl, None, &params).sol;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let pooled = pool.install(|| solve(&cl, None, &params)).sol;
        assert_eq!(alone.trajectory, pooled.trajectory);
        assert_eq!(
            alone.fine_lap_s.map(f64::to_bits),
            pooled.fine_lap_s.map(f64::to_bits)
        );
        assert_eq!(
            (alone.iterations, alone.accepted),
            (pooled.iterations, pooled.accepted)
        );
        assert!(alone.iterations > 1, "the iteration ran");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Never slower than the IQP or the SP, inside the corridor, the same line twice.
    #[test]
    fn mintime_beats_iqp_and_sp_inside_the_corridor_deterministically(
        radius in 6.0f64..10.0,
        a2 in 0.0f64..0.2,
        a3 in 0.0f64..0.06,
        phase in 0.0f64..6.0,
        width in 1.0f64..1.6,
        safety_width in 0.5f64..1.2,
    ) {
        let cl = synthetic_track(radius, a2, a3, phase, width);
        let params = RacelineParams { safety_width, safety_width_sp: safety_width, ..RacelineParams::mapzoo() };
        let s = solve(&cl, None, &params);
        let traj = &s.sol.trajectory;
        prop_assert!(traj.lap_time <= s.iqp, "mintime {} > IQP {}", traj.lap_time, s.iqp);
        prop_assert!(traj.lap_time <= s.sp, "mintime {} > SP {}", traj.lap_time, s.sp);
        let clear = min_clearance(traj, &s.walls, params.wall_resample_step);
        prop_assert!(clear >= safety_width / 2.0 - 0.02, "clearance {clear}");
        let again = solve(&cl, None, &params);
        prop_assert_eq!(&again.sol.trajectory, traj);
    }
}

/// The tracks: f (Race Stack profile, from its global_waypoints.json) and MapZoo
/// Austin (default profile, from its centerline). Checks never slower than the IQP (reported
/// laps), inside the corridor, and the lap re-timed at 0.02 m (the measure: the line's
/// own spline sampled every 0.02 m, our velocity profile) within 0.3 % of the laps
/// (f 10.486 s, Austin 17.844 s). Also prints the lap of a spline through the written
/// ≈0.1 m waypoints re-timed at 0.02 m (what a reader of the CSV would get).
#[test]
fn reference_tracks_f_and_austin() {
    let Some(data) = reference_data_or_skip("reference_tracks_f_and_austin") else {
        return;
    };
    let gw = GlobalWaypoints::read(&data.join("racestack/f/global_waypoints.json")).unwrap();
    let walls = Walls {
        right: gw.right_bound(),
        left: gw.left_bound(),
        obstacles: Vec::new(),
    };
    let austin =
        mapzoo_format::read_waypoint_csv(&data.join("mapzoo/Austin/Austin_centerline.csv"))
            .unwrap();
    let cases = [
        (
            "f",
            gw.centerline.wpnts.clone(),
            Some(walls),
            RacelineParams::racestack(),
            10.486,
        ),
        ("Austin", austin, None, RacelineParams::mapzoo(), 17.844),
    ];
    for (name, cl, walls, params, target) in cases {
        let s = solve(&cl, walls.as_ref(), &params);
        let traj = &s.sol.trajectory;
        let clear = min_clearance(traj, &s.walls, params.wall_resample_step);
        assert!(!s.sol.is_iqp, "{name}: no step kept");
        let vehicle = params.vehicle();
        let fine = timed_spline(&s.sol.knots, 0.02, &vehicle).unwrap().0;
        let from_csv = timed_spline(&traj.xy, 0.02, &vehicle).unwrap().0;
        eprintln!(
            "{name}: IQP {:.4} s, mintime {:.4} s ({:+.2} % vs IQP); re-timed at 0.02 m {fine:.4} s \
             ({:+.2} % vs target {target}), from the waypoints {from_csv:.4} s ({:+.2} %); \
             {} iterations ({} kept), {:.3} s, clearance {clear:.3} m, {} points",
            s.iqp,
            traj.lap_time,
            100.0 * (traj.lap_time / s.iqp - 1.0),
            100.0 * (fine / target - 1.0),
            100.0 * (from_csv / target - 1.0),
            s.sol.iterations,
            s.sol.accepted,
            s.seconds,
            traj.xy.len() + 1,
        );
        assert!(traj.lap_time <= s.iqp);
        assert!(
            clear >= params.safety_width / 2.0 - 0.02,
            "{name}: clearance {clear}"
        );
        assert!(
            (fine / target - 1.0).abs() <= 0.003,
            "{name}: lap re-timed at 0.02 m {fine} s, target {target} s"
        );
    }
}

/// `compute_lines` with the min-time line leaves the IQP and SP lines as `compute` gives them,
/// adds the line last with its stage time, and its line is `mintime()`'s.
#[test]
fn compute_lines_adds_the_line_and_changes_nothing_else() {
    use mapzoo_raceline::{compute_lines, Stage};
    let cl = synthetic_track(7.0, 0.1, 0.04, 2.0, 1.2);
    let params = RacelineParams::mapzoo();
    let plain = compute(&cl, None, &params).unwrap();
    let fast = compute_lines(&cl, None, &params, &LineKind::EVERY).unwrap();
    assert_eq!(plain.lines[..], fast.lines[..2]);
    assert_eq!(fast.lines.len(), 3);
    assert_eq!(fast.lines[2].kind, LineKind::Mintime);
    assert!(fast.timings.iter().any(|(s, _)| *s == Stage::Mintime));
    assert!(plain.line(LineKind::Mintime).is_none());
    let s = solve(&cl, None, &params);
    assert_eq!(
        fast[LineKind::Mintime].lap_time_s,
        s.sol.trajectory.lap_time
    );
    assert!(fast[LineKind::Mintime].lap_time_s <= plain[LineKind::Iqp].lap_time_s);
}

/// Regression: on f1tenth_racetracks Oschersleben (walls rebuilt from its widths, the corridor
/// binding over long stretches) the min-time step stopped at −1.9 % (re-timed at 0.02 m):
/// every step after the fourth was taken right up to the corridor, came back from the spline
/// and its resampling a few micrometres over it, and was rejected whole. With the QP kept
/// `QP_MARGIN_M` inside the corridor it reaches −3.1 %; the test asks for −2.5 %, and the line
/// inside the corridor.
#[test]
fn steps_a_few_micrometres_over_the_corridor_were_rejected_whole() {
    let Some(data) = reference_data_or_skip("steps_a_few_micrometres_over_the_corridor") else {
        return;
    };
    let params = RacelineParams::mapzoo();
    let (s, fine, clear) = f1tenth_mintime(&data, "Oschersleben", &params);
    let iqp = timed_spline(&s.iqp_line.xy, 0.02, &params.vehicle())
        .unwrap()
        .0;
    eprintln!(
        "Oschersleben at 0.02 m: IQP {iqp:.4} s, min-time {fine:.4} s ({:+.2} %), {} iterations \
         ({} kept), clearance {clear:.4} m",
        100.0 * (fine / iqp - 1.0),
        s.sol.iterations,
        s.sol.accepted
    );
    assert!(fine < iqp * (1.0 - 0.025), "min-time {fine} s, IQP {iqp} s");
    assert!(
        clear >= params.safety_width / 2.0 - 0.02,
        "clearance {clear}"
    );
}

/// The min-time line of f1tenth_racetracks `track` from its centerline (not the IQP line), its
/// lap at 0.02 m and its clearance.
fn f1tenth_mintime(
    data: &std::path::Path,
    track: &str,
    params: &RacelineParams,
) -> (crate::support::Solved, f64, f64) {
    let cl = mapzoo_format::read_centerline_any(
        &data.join(format!("f1tenth/{track}/{track}_centerline.csv")),
    )
    .unwrap();
    let s = solve(&cl, None, params);
    assert!(!s.sol.is_iqp, "{track}: the IQP line was returned");
    let fine = timed_spline(&s.sol.knots, 0.02, &params.vehicle())
        .unwrap()
        .0;
    let clear = min_clearance(&s.sol.trajectory, &s.walls, params.wall_resample_step);
    (s, fine, clear)
}

/// Regression (issue 21): on f1tenth_racetracks Sepang from its centerline the iteration of
/// issue 21 (5–16 QPs) stopped at another local optimum, 44.5528 s at 0.02 m where the longer
/// iteration before it reached 44.5461 s: its steps were rejected by differences the QP's
/// model cannot see. The second chance (the region re-opened, a heavier curvature-change
/// penalty, rejected steps tried shorter) takes it to 44.5427 s; the test asks for the lap of
/// before, the line inside the corridor, and the second chance never slower than the first
/// pass (every kept step is faster).
#[test]
fn sepang_stopped_at_a_slower_local_optimum_than_before() {
    let Some(data) = reference_data_or_skip("sepang_stopped_at_a_slower_local_optimum") else {
        return;
    };
    let params = RacelineParams::mapzoo();
    let (s, fine, clear) = f1tenth_mintime(&data, "Sepang", &params);
    eprintln!(
        "Sepang at 0.02 m: min-time {fine:.4} s, {} iterations ({} kept), clearance {clear:.4} m",
        s.sol.iterations, s.sol.accepted
    );
    assert!(fine <= 44.5461, "min-time {fine} s at 0.02 m");
    assert!(
        clear >= params.safety_width / 2.0 - 0.02,
        "clearance {clear}"
    );
}

/// On a long generated track (≈280 m, 22 bends: the knots ≈0.6 m apart, as on the f1tenth
/// tracks) the iteration ends in a bounded number of QPs, well short of `MAX_ITERATIONS`, with
/// few steps rejected and a real gain over the IQP line re-timed independently at 0.02 m,
/// inside the corridor. The corridor between the knots is exact for the spline, so few steps
/// are rejected for samples a few millimetres over it (before: 20 QPs, 4 rejected, 29.4931 s;
/// then 16, 3 rejected, 29.4922 s; on the long f1tenth tracks 30–78 QPs before, 5–16 then).
/// The second chance adds two QPs here, one of them the rejected step that ends it (18 QPs,
/// 4 rejected, 29.4920 s).
#[test]
fn a_long_track_ends_in_a_bounded_number_of_iterations() {
    // r(θ) = 40 m · (1 + 0.06·cos 11θ + 0.03·cos(17θ + 1))
    let dense: Vec<[f64; 2]> = (0..8000)
        .map(|i| {
            let th = std::f64::consts::TAU * i as f64 / 8000.0;
            let r = 40.0 * (1.0 + 0.06 * (11.0 * th).cos() + 0.03 * (17.0 * th + 1.0).cos());
            [r * th.cos(), r * th.sin()]
        })
        .collect();
    let cl = mapzoo_synth::tracks::centerline_along(&dense, 0.1, 1.2);
    let params = RacelineParams::mapzoo();
    let s = solve(&cl, None, &params);
    let vehicle = params.vehicle();
    let length = s.iqp_line.length;
    assert!(length > 250.0, "track {length} m");
    assert!(!s.sol.is_iqp);
    let fine = timed_spline(&s.sol.knots, 0.02, &vehicle).unwrap().0;
    let iqp = timed_spline(&s.iqp_line.xy, 0.02, &vehicle).unwrap().0;
    let clear = min_clearance(&s.sol.trajectory, &s.walls, params.wall_resample_step);
    eprintln!(
        "long track {length:.0} m, {} knots: IQP {iqp:.4} s, min-time {fine:.4} s ({:+.2} %), \
         {} iterations ({} kept), {:.3} s, clearance {clear:.4} m",
        s.sol.knots.len(),
        100.0 * (fine / iqp - 1.0),
        s.sol.iterations,
        s.sol.accepted,
        s.seconds
    );
    assert!(fine < iqp * (1.0 - 0.05), "min-time {fine} s, IQP {iqp} s");
    assert!(
        s.sol.iterations <= 20 && s.sol.iterations - s.sol.accepted <= 4,
        "{} iterations ({} kept)",
        s.sol.iterations,
        s.sol.accepted
    );
    assert!(
        clear >= params.safety_width / 2.0 - 0.02,
        "clearance {clear}"
    );
}
