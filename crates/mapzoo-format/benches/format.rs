//! Read and write speed of the file formats on a synthetic 1,500-waypoint track
//! (the size of a MapZoo track), so the bench runs without reference data.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use mapzoo_format::global::{GlobalParts, GlobalWaypoints, LineKind, LineParts};
use mapzoo_format::waypoint::{self, Waypoint};

fn circle(n: usize, radius: f64, speed: f64) -> Vec<Waypoint> {
    (0..n)
        .map(|i| {
            let t = i as f64 / n as f64 * std::f64::consts::TAU;
            Waypoint {
                id: i as i64,
                s_m: radius * t,
                x_m: radius * t.cos(),
                y_m: radius * t.sin(),
                d_right: 1.0 + 0.1 * t.sin(),
                d_left: 1.0 - 0.1 * t.sin(),
                psi_rad: t + std::f64::consts::FRAC_PI_2,
                kappa_radpm: 1.0 / radius,
                vx_mps: speed * (1.0 + 0.2 * (3.0 * t).sin()),
                ax_mps2: 0.6 * speed * (3.0 * t).cos(),
                ..Default::default()
            }
        })
        .collect()
}

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

fn bench(c: &mut Criterion) {
    let path = Path::new("global_waypoints.json");
    let g = GlobalWaypoints::build(parts());
    let text = g.to_json_string(path).unwrap();
    c.bench_function("global_waypoints.json write (1.5k waypoints)", |b| {
        b.iter(|| g.to_json_string(path).unwrap())
    });
    c.bench_function("global_waypoints.json read (1.5k waypoints)", |b| {
        b.iter(|| GlobalWaypoints::from_json_str(&text, path).unwrap())
    });
    let line = circle(1436, 22.9, 10.0);
    let csv = waypoint::to_csv_string(&line);
    c.bench_function("waypoint CSV write (1436 rows)", |b| {
        b.iter(|| waypoint::to_csv_string(&line))
    });
    c.bench_function("waypoint CSV read (1436 rows)", |b| {
        b.iter(|| waypoint::from_csv_str(&csv, Path::new("t.csv")).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
