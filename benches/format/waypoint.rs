//! The waypoint CSV: write and read.

use std::path::Path;

use criterion::Criterion;
use mapzoo_format::{waypoints_from_csv_str, waypoints_to_csv_string};

use super::circle;

/// Writes and reads the CSV of a MapZoo-size racing line.
pub fn bench(c: &mut Criterion) {
    let line = circle(1436, 22.9, 10.0);
    let csv = waypoints_to_csv_string(&line);
    c.bench_function("waypoint CSV write (1436 rows)", |b| {
        b.iter(|| waypoints_to_csv_string(&line))
    });
    c.bench_function("waypoint CSV read (1436 rows)", |b| {
        b.iter(|| waypoints_from_csv_str(&csv, Path::new("t.csv")).unwrap())
    });
}
