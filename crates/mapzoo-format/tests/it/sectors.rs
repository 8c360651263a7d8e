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

/// Regression (issue 25): a boundary given as a list (`start: [1]`) was shown in block style,
/// "(found - 1)"; a value is shown on one line as it would be written inline.
#[test]
fn a_list_where_a_number_belongs_is_shown_inline() {
    let p = std::path::Path::new("ot_sectors.yaml");
    for (value, shown) in [("[1]", "[1]"), ("[1, 2]", "[1,2]"), ("{a: 1}", "{\"a\":1}")] {
        let text = format!(
            "n_sectors: 1\nyeet_factor: 1.25\nspline_len: 30\not_sector_begin: 0.5\nOvertaking_sector0:\n  start: {value}\n  end: 9\n  ot_flag: true\n"
        );
        let e = OtSectors::from_yaml_str(&text, p).unwrap_err().to_string();
        assert!(
            e.contains("\"Overtaking_sector0.start\" must be an integer")
                && e.contains(&format!("(found {shown})"))
                && !e.contains('\n'),
            "{value}: {e}"
        );
    }
    let speed = "global_limit: 0.5\nn_sectors: 1\nSector0:\n  start: 0\n  end: [9]\n  scaling: 0.5\n  only_FTG: false\n  no_FTG: false\n";
    let e = SpeedScaling::from_yaml_str(speed, p)
        .unwrap_err()
        .to_string();
    assert!(e.contains("(found [9])"), "{e}");
}
