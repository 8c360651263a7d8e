//! Each kind of bad input gives the [`FormatError`] kind a caller matches on,
//! naming the file and the field, line or column.

use std::path::Path;

use mapzoo_format::{
    decode_gray_png, waypoints_from_csv_str, FormatError, MapMeta, OtSectors, SpeedScaling,
    TrackFiles, WritePolicy, WAYPOINT_CSV_HEADER,
};

const MAP_YAML: &str = "image: t.png\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";

fn yaml_error(text: &str) -> FormatError {
    MapMeta::from_yaml_str(text, Path::new("t.yaml")).unwrap_err()
}

#[test]
fn a_missing_map_field_is_missing_field() {
    let err = yaml_error(&MAP_YAML.replace("resolution: 0.05\n", ""));
    assert!(
        matches!(&err, FormatError::MissingField { field, .. } if field == "resolution"),
        "{err:?}"
    );
    assert_eq!(err.path(), Path::new("t.yaml"));
    assert!(
        err.to_string()
            .starts_with("t.yaml: missing field \"resolution\""),
        "{err}"
    );
}

#[test]
fn an_out_of_range_map_field_is_bad_value() {
    let err = yaml_error(&MAP_YAML.replace("negate: 0", "negate: 2"));
    assert!(matches!(&err, FormatError::BadValue { field, line: None, .. } if field == "negate"));
    assert_eq!(err.reason(), "field \"negate\" must be 0 or 1 (found 2)");
}

#[test]
fn broken_yaml_is_syntax_with_its_line() {
    let err = yaml_error("image: [t.png\nresolution: 0.05\n");
    assert!(
        matches!(err, FormatError::Syntax { line: Some(_), .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("not valid YAML"), "{err}");
}

#[test]
fn a_bad_csv_cell_is_bad_value_on_its_line() {
    let text = format!("{WAYPOINT_CSV_HEADER}\n0;0;0;x;0;1;1;0;0;0;0\n");
    let err = waypoints_from_csv_str(&text, Path::new("c.csv")).unwrap_err();
    assert!(
        matches!(&err, FormatError::BadValue { field, line: Some(2), .. } if field == "x_m"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "c.csv: line 2, column 4 \"x_m\": expected a number, found \"x\""
    );
}

#[test]
fn a_short_csv_row_is_syntax_on_its_line() {
    let text = format!("{WAYPOINT_CSV_HEADER}\n0;0;0\n");
    let err = waypoints_from_csv_str(&text, Path::new("c.csv")).unwrap_err();
    assert!(
        matches!(
            err,
            FormatError::Syntax {
                line: Some(2),
                column: None,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_missing_header_column_is_missing_field() {
    let header = WAYPOINT_CSV_HEADER.replace("; ax_mps2", "");
    let err = waypoints_from_csv_str(&format!("{header}\n"), Path::new("c.csv")).unwrap_err();
    assert!(
        matches!(&err, FormatError::MissingField { field, .. } if field == "ax_mps2"),
        "{err:?}"
    );
}

#[test]
fn sector_counts_that_disagree_are_inconsistent() {
    let text = "global_limit: 0.5\nn_sectors: 2\nSector0:\n  start: 0\n  end: 10\n  scaling: 0.5\n  only_FTG: false\n  no_FTG: false\n";
    let s = SpeedScaling::from_yaml_str(text, Path::new("speed_scaling.yaml")).unwrap();
    let err = s.validate(10, Path::new("speed_scaling.yaml")).unwrap_err();
    assert!(matches!(err, FormatError::Inconsistent { .. }), "{err:?}");
    let err = OtSectors::from_yaml_str("n_sectors: 1\n", Path::new("ot_sectors.yaml")).unwrap_err();
    assert!(
        matches!(&err, FormatError::MissingField { field, .. } if field == "yeet_factor"),
        "{err:?}"
    );
}

#[test]
fn bytes_that_are_no_png_are_bad_image() {
    let err = decode_gray_png(b"not a png", Path::new("t.png")).unwrap_err();
    assert!(matches!(err, FormatError::BadImage { .. }), "{err:?}");
}

#[test]
fn writing_over_a_set_with_create_is_exists() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    std::fs::create_dir(&dir).unwrap();
    let err = TrackFiles::new("t")
        .write(&dir, WritePolicy::Create)
        .unwrap_err();
    assert!(matches!(err, FormatError::Exists { .. }), "{err:?}");
    assert_eq!(err.path(), dir);
}

#[test]
fn a_missing_file_is_io() {
    let err = MapMeta::read(Path::new("/no/such/t.yaml")).unwrap_err();
    assert!(matches!(err, FormatError::Io { .. }), "{err:?}");
    assert!(err.to_string().starts_with("/no/such/t.yaml: "), "{err}");
}
