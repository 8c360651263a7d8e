//! Benchmarks of stages 7–11 (issue 4 targets: whole stage < 100 ms for the
//! Race Stack's f, < 300 ms for MapZoo Austin; the Python reference takes 12 s
//! and 42 s): one sparse IQP solve on the prepped reference line, and the whole
//! stage (prep, IQP, second IQP, SP, sampling, velocity profiles), and the stage with the
//! minimum-time line too (issue 14: that step under 1 s); and each QP with both solvers at
//! N = 500 … 5,000 knots (issue 21).
//! Needs ../shared/data (or $MAPZOO_DATA); prints a notice and measures nothing without it.

pub(crate) mod compute;
pub(crate) mod iqp;
pub(crate) mod mintime;
pub(crate) mod qp;

use criterion::{criterion_group, Criterion};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::{RacelineParams, Walls};

/// (name, centerline, walls, parameters) of the benchmarked tracks.
pub(crate) fn tracks() -> Vec<(&'static str, Vec<Waypoint>, Option<Walls>, RacelineParams)> {
    let Some(data) = reference_data_or_skip("raceline benches") else {
        return Vec::new();
    };
    let gw = GlobalWaypoints::read(&data.join("racestack/f/global_waypoints.json")).expect("f");
    let walls = Walls {
        right: gw.right_bound(),
        left: gw.left_bound(),
        obstacles: Vec::new(),
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = iqp::bench, compute::bench, mintime::bench, qp::bench, qp::bench_iterations
}
