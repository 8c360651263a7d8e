//! File names of a track set (DESIGN §2) and the two folder layouts.
//!
//! A MapZoo set `<T>/` holds `<T>.png` + `<T>.yaml`, `<T>-cent.png` +
//! `<T>-cent.yaml`, `<T>_centerline.csv`, `<T>_racing_line.csv`,
//! `global_waypoints.json`, `speed_scaling.yaml` and `ot_sectors.yaml`; a Race
//! Stack map folder the map, the JSON and the sector files, no CSVs.

use serde::Serialize;

/// The Race Stack JSON of every set.
pub const GLOBAL_WAYPOINTS: &str = "global_waypoints.json";
/// The speed-scaling sector file.
pub const SPEED_SCALING: &str = "speed_scaling.yaml";
/// The overtaking sector file.
pub const OT_SECTORS: &str = "ot_sectors.yaml";
/// Both sector files, speed scaling first.
pub const SECTOR_FILES: [&str; 2] = [SPEED_SCALING, OT_SECTORS];
/// How a centerline CSV's name ends: `<T>_centerline.csv`.
pub const CENTERLINE_SUFFIX: &str = "_centerline.csv";
/// How the track-only map's YAML name ends: `<T>-cent.yaml`.
pub const CENT_YAML_SUFFIX: &str = "-cent.yaml";
/// Name of the racing line (the IQP trajectory) among a set's line CSVs: `<T>_racing_line.csv`.
pub const RACING_LINE: &str = "racing_line";
/// Name of the shortest-path line among a set's line CSVs: `<T>_sp.csv`.
pub const SP_LINE: &str = "sp";
/// Name of the minimum-lap-time line among a set's line CSVs (only when asked for): `<T>_mintime.csv`.
pub const MINTIME_LINE: &str = "mintime";
/// Name of the IQP line among a set's line CSVs when another line is driven (`--racing-line
/// mintime` puts that one into `<T>_racing_line.csv`): `<T>_iqp.csv`.
pub const IQP_LINE: &str = "iqp";

/// The CSV file of line `line` of track `track`: `<track>_<line>.csv`.
pub fn line_csv(track: &str, line: &str) -> String {
    format!("{track}_{line}.csv")
}

/// File names of the set of one track (DESIGN §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetNames {
    /// `<T>.png`.
    pub png: String,
    /// `<T>.yaml`.
    pub yaml: String,
    /// `<T>-cent.png`.
    pub cent_png: String,
    /// `<T>-cent.yaml`.
    pub cent_yaml: String,
    /// `<T>_centerline.csv`.
    pub centerline_csv: String,
    /// `<T>_racing_line.csv`.
    pub racing_line_csv: String,
}

impl SetNames {
    /// The names for track `track`.
    pub fn new(track: &str) -> Self {
        SetNames {
            png: format!("{track}.png"),
            yaml: format!("{track}.yaml"),
            cent_png: format!("{track}-cent.png"),
            cent_yaml: format!("{track}{CENT_YAML_SUFFIX}"),
            centerline_csv: format!("{track}{CENTERLINE_SUFFIX}"),
            racing_line_csv: line_csv(track, RACING_LINE),
        }
    }
}

/// Which kind of folder a track folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// A MapZoo track set: map, centerline and racing-line CSVs, JSON, sector files.
    MapZoo,
    /// A Race Stack map folder: map, JSON and sector files, no CSVs.
    RaceStack,
}

/// Whether `name` could be the map-server YAML of a folder: a `.yaml` / `.yml`
/// file that is neither a sector file nor a track-only `-cent` map.
pub fn is_map_yaml_candidate(name: &str) -> bool {
    (name.ends_with(".yaml") || name.ends_with(".yml"))
        && !SECTOR_FILES.contains(&name)
        && !name.ends_with(CENT_YAML_SUFFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_a_set() {
        let n = SetNames::new("f");
        assert_eq!(
            [
                n.png.as_str(),
                &n.yaml,
                &n.cent_png,
                &n.cent_yaml,
                &n.centerline_csv,
                &n.racing_line_csv
            ],
            [
                "f.png",
                "f.yaml",
                "f-cent.png",
                "f-cent.yaml",
                "f_centerline.csv",
                "f_racing_line.csv"
            ]
        );
        assert_eq!(line_csv("f", SP_LINE), "f_sp.csv");
        assert!(is_map_yaml_candidate("f.yml") && is_map_yaml_candidate("f.yaml"));
        for other in [
            "speed_scaling.yaml",
            "ot_sectors.yaml",
            "f-cent.yaml",
            "f.png",
        ] {
            assert!(!is_map_yaml_candidate(other), "{other}");
        }
    }
}
