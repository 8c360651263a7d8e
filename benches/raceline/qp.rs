//! Issue 21: each racing-line QP with both solvers at N = 500, 1,000, 2,000 and 5,000 knots,
//! so the growth with N shows: one IQP iteration (the curvature QP with its polish), the SP
//! (its QP, polish and smoothing) and one min-time SCP step (the QP on shifts, second
//! derivatives and squared speeds). The tracks are generated loops whose length puts N knots
//! at the usual spacing (0.2 m reference step, min-time knots every second 0.1 m sample).

use criterion::{BenchmarkId, Criterion};
use mapzoo_raceline::reference::{CurvatureQp, MintimeStep};
use mapzoo_raceline::{
    compute_lines, distance_scaling, prep, reftrack_from_waypoints, sp, ClosedSpline, LineKind,
    QpSolver, RacelineParams, Trajectory,
};

/// Knot counts benchmarked.
const SIZES: [usize; 4] = [500, 1000, 2000, 5000];

/// Interior-point iterations of the fixed-work bench ([`bench_iterations`]): fewer than any
/// of the curvature QPs here converges in (12–24).
const FIXED_ITERATIONS: usize = 10;

/// A smooth generated loop about `length` metres long, its centerline at ≈0.1 m with 0.9 m
/// to either wall.
fn track(length: f64) -> Vec<mapzoo_format::Waypoint> {
    // r(θ) = R(1 + 0.15 cos 2θ + 0.05 cos 3θ), y stretched by 1.3: perimeter ≈ 7.3 R
    let radius = length / 7.3;
    let dense: Vec<[f64; 2]> = (0..8000)
        .map(|i| {
            let th = i as f64 * std::f64::consts::TAU / 8000.0;
            let r = radius * (1.0 + 0.15 * (2.0 * th).cos() + 0.05 * (3.0 * th + 1.0).cos());
            [r * th.cos(), 1.3 * r * th.sin()]
        })
        .collect();
    mapzoo_synth::tracks::centerline_along(&dense, 0.1, 0.9)
}

/// The curvature QP of one IQP iteration on a generated loop of about `n` knots (the
/// racestack parameters), with what the other QPs are built from: the reference line, its
/// scaling and normals, the parameters.
struct Sized {
    centerline: Vec<mapzoo_format::Waypoint>,
    reference: mapzoo_raceline::RefTrack,
    scaling: Vec<f64>,
    normals: Vec<[f64; 2]>,
    params: RacelineParams,
}

impl Sized {
    fn new(n: usize) -> Sized {
        let mut params = RacelineParams::racestack();
        params.qp_solver = QpSolver::Banded;
        let centerline = track(0.2 * n as f64);
        let reference = prep(&reftrack_from_waypoints(&centerline), &params).expect("prep");
        let scaling = distance_scaling(&reference.xy);
        let normals = ClosedSpline::through(&reference.xy, Some(&scaling))
            .expect("spline")
            .normals();
        Sized {
            centerline,
            reference,
            scaling,
            normals,
            params,
        }
    }

    fn iqp(&self) -> CurvatureQp<'_> {
        CurvatureQp {
            reftrack: &self.reference,
            normals: &self.normals,
            scaling: &self.scaling,
            kappa_bound: self.params.curvlim,
            safety_width: self.params.safety_width,
        }
    }
}

/// Issue 21's O(N) claim without the iteration count: a solve's interior-point iterations
/// vary with the problem (the curvature QPs of [`bench`] take 12–24), so the per-solve times
/// grow unevenly with N; here every size runs the same work, the banded solver's set-up
/// (equilibration, the knot structure, the start) and [`FIXED_ITERATIONS`] iterations from
/// the cold start, on the curvature QPs of [`bench`]; and Clarabel's set-up and as many
/// iterations, the cost of an iteration compared.
pub fn bench_iterations(c: &mut Criterion) {
    let mut group = c.benchmark_group("qp_fixed");
    group.sample_size(10);
    for n in SIZES {
        let sized = Sized::new(n);
        let iqp = sized.iqp();
        // the work is the same only if no size stops early
        let clarabel_iterations = FIXED_ITERATIONS as u32;
        assert!(
            iqp.interior_point_iterations(FIXED_ITERATIONS).is_some()
                && iqp.clarabel_iterations(clarabel_iterations).is_some(),
            "the curvature QP of {n} knots stops within {FIXED_ITERATIONS} iterations"
        );
        let knots = sized.reference.len();
        group.bench_with_input(
            BenchmarkId::new(format!("iqp_{FIXED_ITERATIONS}_iterations/banded"), knots),
            &n,
            |b, _| b.iter(|| iqp.interior_point_iterations(FIXED_ITERATIONS)),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("iqp_{FIXED_ITERATIONS}_iterations/clarabel"), knots),
            &n,
            |b, _| b.iter(|| iqp.clarabel_iterations(clarabel_iterations)),
        );
    }
    group.finish();
}

pub fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("qp");
    group.sample_size(10);
    for n in SIZES {
        let sized = Sized::new(n);
        let mut params = sized.params.clone();
        let (centerline, reference) = (&sized.centerline, &sized.reference);
        let iqp = sized.iqp();
        let lines = compute_lines(centerline, None, &params, &[LineKind::Iqp]).expect("iqp");
        let iqp_line = Trajectory::from_waypoints(&lines[LineKind::Iqp].waypoints);
        let walls = lines.walls.resampled(params.wall_resample_step);
        let vehicle = params.vehicle();
        for solver in [QpSolver::Banded, QpSolver::Clarabel] {
            let name = solver.name();
            let knots = reference.len();
            group.bench_with_input(
                BenchmarkId::new(format!("iqp/{name}"), knots),
                &n,
                |b, _| b.iter(|| iqp.solve_with(1, solver).expect("iqp qp")),
            );
            params.qp_solver = solver;
            group.bench_with_input(BenchmarkId::new(format!("sp/{name}"), knots), &n, |b, _| {
                b.iter(|| sp(reference, params.safety_width_sp, &params).expect("sp"))
            });
            let step = MintimeStep::new(&iqp_line, &walls, &params, &vehicle, 2).expect("step");
            group.bench_with_input(
                BenchmarkId::new(format!("mintime_step/{name}"), step.knots()),
                &n,
                |b, _| b.iter(|| step.solve().expect("min-time step")),
            );
        }
    }
    group.finish();
}
