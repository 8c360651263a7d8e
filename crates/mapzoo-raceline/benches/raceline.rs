//! Benchmarks of stages 7–11 (issue 4 targets: whole stage < 100 ms for the
//! Race Stack's f, < 300 ms for MapZoo Austin; the Python reference takes 12 s
//! and 42 s): one sparse IQP solve on the prepped reference line, and the whole
//! stage (prep, IQP, second IQP, SP, sampling, velocity profiles).
//! Needs ../shared/data (or $MAPZOO_DATA); prints a notice and measures nothing without it.

use criterion::{criterion_group, criterion_main, Criterion};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::iqp::CurvatureQp;
use mapzoo_raceline::spline::distance_scaling;
use mapzoo_raceline::{
    compute, prep, reftrack_from_waypoints, ClosedSpline, RacelineParams, Walls,
};

/// (name, centerline, walls, parameters) of the benchmarked tracks.
fn tracks() -> Vec<(&'static str, Vec<Waypoint>, Option<Walls>, RacelineParams)> {
    let Some(data) = reference_data_or_skip("raceline benches") else {
        return Vec::new();
    };
    let gw = GlobalWaypoints::read(&data.join("racestack/f/global_waypoints.json")).expect("f");
    let walls = Walls {
        right: gw.right_bound(),
        left: gw.left_bound(),
    };
    let austin =
        mapzoo_format::read_waypoint_csv(&data.join("mapzoo/Austin/Austin_centerline.csv"))
            .expect("Austin");
    vec![
        (
            "f",
            gw.centerline.wpnts.clone(),
            Some(walls),
            RacelineParams::racestack(),
        ),
        ("Austin", austin, None, RacelineParams::mapzoo()),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, centerline, walls, params) in tracks() {
        let reference = prep(&reftrack_from_waypoints(&centerline), &params).expect("prep");
        let scaling = distance_scaling(&reference.xy);
        let normals = ClosedSpline::through(&reference.xy, Some(&scaling))
            .expect("spline")
            .normals();
        let qp = CurvatureQp {
            reftrack: &reference,
            normals: &normals,
            scaling: &scaling,
            kappa_bound: params.curvlim,
            safety_width: params.safety_width,
        };
        c.bench_function(&format!("iqp_solve/{name}"), |b| {
            b.iter(|| qp.solve(1).expect("qp"))
        });
        c.bench_function(&format!("raceline_stage/{name}"), |b| {
            b.iter(|| compute(&centerline, walls.as_ref(), &params).expect("compute"))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
