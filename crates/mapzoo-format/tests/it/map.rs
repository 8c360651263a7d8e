//! The map-server YAMLs against the published files: exact round trip, every f1tenth YAML reads.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::MapMeta;

use crate::support::{files, name};

#[test]
fn map_yamls_round_trip_exactly() {
    let Some(data) = reference_data_or_skip("map_yamls_round_trip_exactly") else {
        return;
    };
    let mut found = files(&data.join("mapzoo"), &|p| name(p).ends_with(".yaml"));
    found.extend(files(&data.join("racestack"), &|p| {
        name(p).ends_with(".yaml")
    }));
    found.retain(|p| {
        !matches!(
            name(p).as_str(),
            "speed_scaling.yaml" | "ot_sectors.yaml" | "global_planner_params.yaml"
        )
    });
    assert!(found.len() >= 7, "{found:?}");
    for p in found {
        let raw = std::fs::read_to_string(&p).unwrap();
        let meta = MapMeta::read(&p).unwrap();
        assert_eq!(meta.to_yaml_string(), raw, "{}", p.display());
    }
}

#[test]
fn f1tenth_map_yamls_read() {
    let Some(data) = reference_data_or_skip("f1tenth_map_yamls_read") else {
        return;
    };
    let found = files(&data.join("f1tenth"), &|p| name(p).ends_with(".yaml"));
    assert_eq!(found.len(), 18);
    for p in found {
        let meta = MapMeta::read(&p).unwrap();
        assert!(meta.image_path(&p).is_file(), "{}", p.display());
        let again = MapMeta::from_yaml_str(&meta.to_yaml_string(), &p).unwrap();
        assert_eq!(again, meta);
    }
}

/// Regression (issue 25): an origin yaw of 1e10 rad was accepted silently; a yaw beyond ten
/// turns is refused naming the field and the plausible range, one within it is read.
#[test]
fn an_origin_yaw_beyond_ten_turns_is_refused_with_the_range() {
    let p = std::path::Path::new("m.yaml");
    let yaml = |yaw: &str| {
        format!("image: m.png\nresolution: 0.05\norigin: [0.0, 0.0, {yaw}]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n")
    };
    for yaw in ["0", "3.14159", "-62.8", "62.83"] {
        let m = mapzoo_format::MapMeta::from_yaml_str(&yaml(yaw), p);
        assert!(m.is_ok(), "{yaw}: {:?}", m.err());
    }
    for yaw in ["1e10", "-62.84", "1000"] {
        let e = mapzoo_format::MapMeta::from_yaml_str(&yaml(yaw), p)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("m.yaml: ") && e.contains("\"origin\"[2]") && e.contains("±62.83 rad"),
            "{yaw}: {e}"
        );
    }
}
