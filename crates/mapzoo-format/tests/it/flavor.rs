//! The ROS 2 flavour (DESIGN §2.3) against the ROS 2 Race Stack's published sets in
//! ../shared/data/racestack-ros2: read, detected, written as its own writer writes it, and
//! converted between the flavours without touching a waypoint.

use std::path::Path;

use mapzoo_format::testdata::{json_tokens as tokens, reference_data_or_skip};
use mapzoo_format::{file_flavor, Flavor, GlobalWaypoints, OtSectors, SpeedScaling, TrackFiles};

/// What the Race Stack's `convert_old_gbwpnts.sh` (jq) does to a number token: an integral
/// float loses its `.0`; every other number keeps its digits.
fn jq_number(tok: &str) -> String {
    let numeric = tok.starts_with(|c: char| c == '-' || c.is_ascii_digit());
    match tok.parse::<f64>() {
        Ok(v) if numeric && v.fract() == 0.0 && v.abs() < 1e15 && !tok.contains('e') => {
            format!("{}", v as i64)
        }
        _ => tok.to_string(),
    }
}

#[test]
fn ros2_sets_are_read_and_written_as_the_ros2_race_stack_writes_them() {
    let Some(data) = reference_data_or_skip("ros2_sets_are_read_as_ros2") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for track in ["glc_ot_ez", "hangar_1905_v0", "GLC_smile_small"] {
        let path = data
            .join("racestack-ros2")
            .join(track)
            .join("global_waypoints.json");
        let raw = std::fs::read_to_string(&path).unwrap();
        let g = GlobalWaypoints::read(&path).unwrap();
        assert_eq!(g.flavor(), Flavor::Ros2, "{track}");
        assert_eq!(file_flavor(&path).unwrap(), Some(Flavor::Ros2));
        assert!(g.centerline.header.seq.is_none());
        let out = tmp.path().join(format!("{track}.json"));
        g.write(&out).unwrap();
        let written = std::fs::read_to_string(&out).unwrap();
        assert!(!written.contains("\"seq\"") && !written.contains("\"secs\""));
        assert_eq!(GlobalWaypoints::read(&out).unwrap(), g, "{track}");
        // Written by the ROS 2 global planner (json.dump; hangar_1905_v0, whose seq was
        // removed by hand, leaving `{ "stamp"`): the same tokens. Converted by
        // convert_old_gbwpnts.sh (jq; indented): the same tokens once jq's number layout is
        // applied. Either way: the same key tree, key order, header shape and digits.
        let jq = raw.starts_with("{\n");
        let ours: Vec<String> = tokens(&written)
            .iter()
            .map(|t| if jq { jq_number(t) } else { t.clone() })
            .collect();
        let theirs = tokens(&raw);
        assert_eq!(ours.len(), theirs.len(), "{track}");
        if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
            panic!(
                "{track}: token {i}: ours {:?}, published {:?}",
                ours[i], theirs[i]
            );
        }
    }
}

#[test]
fn flavours_convert_both_ways_without_touching_a_waypoint() {
    let Some(data) = reference_data_or_skip("flavours_convert_both_ways") else {
        return;
    };
    let f = data.join("racestack/f/global_waypoints.json");
    let raw = std::fs::read_to_string(&f).unwrap();
    let g1 = GlobalWaypoints::read(&f).unwrap();
    assert_eq!(g1.flavor(), Flavor::Ros1);
    let mut g2 = g1.clone();
    g2.set_flavor(Flavor::Ros2);
    assert_eq!(g2.flavor(), Flavor::Ros2);
    let text2 = g2.to_json_string(Path::new("g.json")).unwrap();
    assert!(!text2.contains("\"seq\"") && !text2.contains("secs"));
    assert_eq!(
        text2.matches("\"nanosec\": 0").count(),
        // one stamp per header (markers and 3 arrays) and one lifetime per marker
        2 * g1
            .marker_arrays()
            .iter()
            .map(|(_, a)| a.markers.len())
            .sum::<usize>()
            + 3
    );
    assert_eq!(g2.centerline.wpnts, g1.centerline.wpnts);
    assert_eq!(g2.iqp.wpnts, g1.iqp.wpnts);
    assert_eq!(g2.map_info, g1.map_info);
    let mut back = g2.clone();
    back.set_flavor(Flavor::Ros1);
    assert!(back.to_json_string(Path::new("g.json")).unwrap() == raw);
}

#[test]
fn the_ros2_hangar_converts_to_ros1_and_back_byte_for_byte() {
    let Some(data) = reference_data_or_skip("ros2_hangar_converts") else {
        return;
    };
    let p = data.join("racestack-ros2/hangar_1905_v0/global_waypoints.json");
    let raw = std::fs::read_to_string(&p).unwrap();
    let mut g = GlobalWaypoints::read(&p).unwrap();
    g.set_flavor(Flavor::Ros1);
    let ros1 = g.to_json_string(&p).unwrap();
    assert!(ros1.contains("\"seq\": 1, \"stamp\": {\"secs\": 0, \"nsecs\": 0}"));
    // the ROS 1 writer prints 4 decimals; the ROS 2 planner's round(x, 4) drops the zero
    assert!(ros1.contains("SP estimated lap time: 9.6690s") && raw.contains("9.669s"));
    g.set_flavor(Flavor::Ros2);
    // the published file differs only by the `{ "stamp"` its hand edit left
    assert!(g.to_json_string(&p).unwrap() == raw.replace("{ \"stamp\"", "{\"stamp\""));
}

/// The sector files as the ROS 2 nodes load them: one top-level key, the node name, holding
/// `ros__parameters`, whose values have the types the nodes declare.
#[test]
fn ros2_sector_files_are_ros2_parameter_files() {
    let check = |text: &str, node: &str, floats: &[&str], ints: &[&str], sector: &str| {
        let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).unwrap();
        let top = doc.as_mapping().unwrap();
        assert_eq!(top.len(), 1, "{text}");
        assert_eq!(top.keys().next().unwrap().as_str(), Some(node));
        let params = doc[node]["ros__parameters"].as_mapping().unwrap();
        for k in floats {
            assert!(params[*k].is_f64(), "{node}: {k} must be a float: {text}");
        }
        for k in ints {
            assert!(
                params[*k].is_u64(),
                "{node}: {k} must be an integer: {text}"
            );
        }
        let n = params["n_sectors"].as_u64().unwrap();
        for i in 0..n {
            let s = &params[format!("{sector}{i}").as_str()];
            assert!(s["start"].is_u64() && s["end"].is_u64(), "{text}");
        }
        n
    };
    let mut speed = SpeedScaling::single(300, 0.7, 1.0);
    speed.flavor = Flavor::Ros2;
    let text = speed.to_yaml_string();
    assert_eq!(
        check(
            &text,
            "sector_tuner",
            &["global_limit"],
            &["n_sectors"],
            "Sector"
        ),
        1
    );
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
    let s0 = &doc["sector_tuner"]["ros__parameters"]["Sector0"];
    assert!(s0["scaling"].is_f64() && s0["only_FTG"].is_bool() && s0["no_FTG"].is_bool());
    let mut ot = OtSectors::single(300);
    ot.flavor = Flavor::Ros2;
    let text = ot.to_yaml_string();
    check(
        &text,
        "ot_interpolator",
        &["yeet_factor", "ot_sector_begin"],
        &["n_sectors", "spline_len"],
        "Overtaking_sector",
    );
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
    assert!(doc["ot_interpolator"]["ros__parameters"]["Overtaking_sector0"]["ot_flag"].is_bool());

    // The published ROS 2 files pass the same check, and read back as ROS 2.
    if let Some(data) = reference_data_or_skip("ros2_sector_files") {
        for track in ["glc_ot_ez", "GLC_smile_small"] {
            let dir = data.join("racestack-ros2").join(track);
            let text = std::fs::read_to_string(dir.join("speed_scaling.yaml")).unwrap();
            check(
                &text,
                "sector_tuner",
                &["global_limit"],
                &["n_sectors"],
                "Sector",
            );
            let text = std::fs::read_to_string(dir.join("ot_sectors.yaml")).unwrap();
            check(
                &text,
                "ot_interpolator",
                &["yeet_factor", "ot_sector_begin"],
                &["n_sectors", "spline_len"],
                "Overtaking_sector",
            );
            let p = dir.join("speed_scaling.yaml");
            assert_eq!(file_flavor(&p).unwrap(), Some(Flavor::Ros2));
        }
    }
}

/// A set's flavour: the JSON's, else the sector files'; setting it reaches every flavoured file.
#[test]
fn a_set_reports_and_takes_one_flavour() {
    let mut files = TrackFiles::new("t");
    assert_eq!(files.flavor(), None);
    files.speed_scaling = Some(SpeedScaling::single(10, 0.7, 0.7));
    files.ot_sectors = Some(OtSectors::single(10));
    assert_eq!(files.flavor(), Some(Flavor::Ros1));
    files.set_flavor(Flavor::Ros2);
    assert_eq!(files.flavor(), Some(Flavor::Ros2));
    let encoded = files.encode(Path::new("t")).unwrap();
    for (name, bytes) in encoded {
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("ros__parameters:"), "{name}: {text}");
    }
}
