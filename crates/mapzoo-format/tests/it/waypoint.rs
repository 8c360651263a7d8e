//! The MapZoo waypoint CSVs against the published files: read → write gives the same bytes.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{read_waypoint_csv, waypoints_from_csv_str, write_waypoint_csv};

use crate::support::{files, name};

#[test]
fn mapzoo_csvs_round_trip() {
    let Some(data) = reference_data_or_skip("mapzoo_csvs_round_trip") else {
        return;
    };
    let found = files(&data.join("mapzoo"), &|p| {
        let n = name(p);
        n.ends_with("_centerline.csv") || n.ends_with("_racing_line.csv")
    });
    assert!(found.len() >= 5, "found {found:?}");
    let tmp = tempfile::tempdir().unwrap();
    for path in found {
        let raw = std::fs::read_to_string(&path).unwrap();
        let w = read_waypoint_csv(&path).unwrap();
        let out = tmp.path().join("w.csv");
        write_waypoint_csv(&out, &w).unwrap();
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(written.lines().next(), raw.lines().next(), "header");
        let back = read_waypoint_csv(&out).unwrap();
        assert_eq!(back.len(), w.len());
        for (a, b) in w.iter().zip(&back) {
            assert_eq!(a.id, b.id);
            for (x, y) in a.values().iter().zip(b.values()) {
                assert!((x - y).abs() <= 1e-8, "{}: {x} vs {y}", path.display());
            }
        }
        assert!(
            written == raw,
            "{}: written text differs from the published file",
            path.display()
        );
    }
}

#[test]
fn spaces_after_semicolons_are_accepted() {
    let Some(data) = reference_data_or_skip("spaces_after_semicolons_are_accepted") else {
        return;
    };
    let path = data.join("mapzoo/Austin/Austin_racing_line.csv");
    let raw = std::fs::read_to_string(&path).unwrap();
    let spaced = raw.replace(';', "; ").replace('\n', "\r\n");
    let a = read_waypoint_csv(&path).unwrap();
    let b = waypoints_from_csv_str(&spaced, &path).unwrap();
    assert_eq!(a, b);
}
