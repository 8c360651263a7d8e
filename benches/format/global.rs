//! `global_waypoints.json`: build, write and read.

use std::path::Path;

use criterion::Criterion;
use mapzoo_format::{GlobalParts, GlobalWaypoints, LineKind, LineParts};

use super::circle;

/// The parts of a MapZoo-size set: a 1.5k-waypoint centerline, two lines, 3k-point bounds.
fn parts() -> GlobalParts {
    let bound = |r: f64| -> Vec<[f64; 2]> {
        (0..3000)
            .map(|i| {
                let t = i as f64 / 3000.0 * std::f64::consts::TAU;
                [r * t.cos(), r * t.sin()]
            })
            .collect()
    };
    GlobalParts {
        centerline: circle(1500, 23.9, 0.0),
        lines: vec![
            LineParts {
                kind: LineKind::Iqp,
                wpnts: circle(1436, 22.9, 10.0),
                lap_time_s: 18.5875,
                max_speed_mps: 12.0,
            },
            LineParts {
                kind: LineKind::Sp,
                wpnts: circle(1400, 22.3, 9.0),
                lap_time_s: 20.5395,
                max_speed_mps: 10.8,
            },
        ],
        right_bound: bound(25.0),
        left_bound: bound(22.0),
    }
}

/// Writes and reads the JSON of a MapZoo-size track.
pub fn bench(c: &mut Criterion) {
    let path = Path::new("global_waypoints.json");
    let g = GlobalWaypoints::build(parts());
    let text = g.to_json_string(path).unwrap();
    c.bench_function("global_waypoints.json write (1.5k waypoints)", |b| {
        b.iter(|| g.to_json_string(path).unwrap())
    });
    c.bench_function("global_waypoints.json read (1.5k waypoints)", |b| {
        b.iter(|| GlobalWaypoints::from_json_str(&text, path).unwrap())
    });
    // An unknown key takes the file off the one-pass reader, through serde.
    let other = text.replacen('{', r#"{"planner": {"data": "v2"}, "#, 1);
    c.bench_function(
        "global_waypoints.json read, any layout (1.5k waypoints)",
        |b| b.iter(|| GlobalWaypoints::from_json_str(&other, path).unwrap()),
    );
}
