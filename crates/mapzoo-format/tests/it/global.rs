//! `global_waypoints.json` against the published Race Stack files: read → write gives the same bytes.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalParts, GlobalWaypoints, LineKind, LineParts};

use crate::support::{files, name, python_loads, same_tree};

#[test]
fn global_waypoints_round_trip_exactly() {
    let Some(data) = reference_data_or_skip("global_waypoints_round_trip_exactly") else {
        return;
    };
    let found = files(&data.join("racestack"), &|p| {
        name(p) == "global_waypoints.json"
    });
    assert_eq!(found.len(), 3, "expected f, hangar and circle");
    let tmp = tempfile::tempdir().unwrap();
    for path in found {
        let raw = std::fs::read_to_string(&path).unwrap();
        let g = GlobalWaypoints::read(&path).unwrap();
        assert!(!g.centerline.wpnts.is_empty() && !g.iqp.wpnts.is_empty());
        assert!(g.map_info.iqp_lap_time_s.is_some() && g.map_info.sp_lap_time_s.is_some());
        let out = tmp.path().join("global_waypoints.json");
        g.write(&out).unwrap();
        let again = GlobalWaypoints::read(&out).unwrap();
        assert_eq!(again, g, "{}: read → write → read differs", path.display());
        let written = std::fs::read_to_string(&out).unwrap();
        let a: serde_json::Value = serde_json::from_str(&raw).unwrap();
        let b: serde_json::Value = serde_json::from_str(&written).unwrap();
        if let Err(e) = same_tree(&a, &b, "") {
            panic!("{}: trees differ at {e}", path.display());
        }
        assert!(
            written == raw,
            "{}: written text differs from the published file",
            path.display()
        );
        python_loads(&out);
    }
}

#[test]
fn build_reproduces_the_published_f_file() {
    let Some(data) = reference_data_or_skip("build_reproduces_the_published_f_file") else {
        return;
    };
    let path = data.join("racestack/f/global_waypoints.json");
    let g = GlobalWaypoints::read(&path).unwrap();
    let info = g.map_info;
    let parts = GlobalParts {
        centerline: g.centerline.wpnts.clone(),
        lines: vec![
            LineParts {
                kind: LineKind::Iqp,
                wpnts: g.iqp.wpnts.clone(),
                lap_time_s: info.iqp_lap_time_s.unwrap(),
                max_speed_mps: info.iqp_max_speed_mps.unwrap(),
            },
            LineParts {
                kind: LineKind::Sp,
                wpnts: g.sp.wpnts.clone(),
                lap_time_s: g.est_lap_time.unwrap(),
                max_speed_mps: info.sp_max_speed_mps.unwrap(),
            },
        ],
        right_bound: g.right_bound(),
        left_bound: g.left_bound(),
    };
    assert_eq!(parts.right_bound.len() + parts.left_bound.len(), 3404);
    let built = GlobalWaypoints::build(parts);
    let text = built.to_json_string(&path).unwrap();
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(
        text == raw,
        "building f from its parts does not give the published file"
    );
}
