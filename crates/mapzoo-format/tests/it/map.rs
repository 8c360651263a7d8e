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
