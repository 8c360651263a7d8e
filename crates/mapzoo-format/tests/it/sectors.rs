//! The sector files against the published Race Stack files: exact round trip, valid for their lines.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{GlobalWaypoints, OtSectors, SpeedScaling};

use crate::support::{files, name};

#[test]
fn sector_files_round_trip_exactly() {
    let Some(data) = reference_data_or_skip("sector_files_round_trip_exactly") else {
        return;
    };
    let speed = files(&data, &|p| name(p) == "speed_scaling.yaml");
    let ot = files(&data, &|p| name(p) == "ot_sectors.yaml");
    assert!(speed.len() >= 6 && ot.len() >= 7, "{speed:?} {ot:?}");
    for p in speed {
        let raw = std::fs::read_to_string(&p).unwrap();
        let s = SpeedScaling::read(&p).unwrap();
        assert_eq!(s.to_yaml_string(), raw, "{}", p.display());
        let n = s.sectors.last().unwrap().end as usize;
        s.validate(n, &p).unwrap();
    }
    for p in ot {
        let raw = std::fs::read_to_string(&p).unwrap();
        let s = OtSectors::read(&p).unwrap();
        assert_eq!(s.to_yaml_string(), raw, "{}", p.display());
        let n = s.sectors.last().unwrap().end as usize;
        s.validate(n, &p).unwrap();
    }
}

#[test]
fn racestack_sectors_match_their_iqp_lines() {
    let Some(data) = reference_data_or_skip("racestack_sectors_match_their_iqp_lines") else {
        return;
    };
    for t in ["f", "hangar", "circle"] {
        let dir = data.join("racestack").join(t);
        let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
        let n = g.iqp.wpnts.len();
        SpeedScaling::read(&dir.join("speed_scaling.yaml"))
            .unwrap()
            .validate(n, &dir)
            .unwrap();
        OtSectors::read(&dir.join("ot_sectors.yaml"))
            .unwrap()
            .validate(n, &dir)
            .unwrap();
    }
}
