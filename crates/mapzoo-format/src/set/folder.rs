//! Discovery of a track folder: which files it holds, which [`Layout`] it has,
//! which track it is, and the reading rules every command shares: the lines
//! come from `global_waypoints.json` when the folder has one, else from the
//! centerline (MapZoo or TUM) and racing-line CSVs.

use std::path::{Path, PathBuf};

use crate::error::{FormatError, Result};
use crate::global::GlobalWaypoints;
use crate::map::{FreeRule, MapMeta, OccupancyMap};
use crate::sectors::{OtSectors, SpeedScaling};
use crate::set::files::TrackFiles;
use crate::set::layout::{
    is_map_yaml_candidate, Layout, SetNames, CENTERLINE_SUFFIX, GLOBAL_WAYPOINTS, OT_SECTORS,
    RACING_LINE, SPEED_SCALING,
};
use crate::waypoint;

/// The track a folder holds by its name: the folder's own name, or that of
/// its canonical path for `.`, `..` and paths ending in them; `None` for a
/// root or a path that does not resolve.
pub fn folder_track_name(dir: &Path) -> Option<String> {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
        .or_else(|| {
            std::fs::canonicalize(dir)
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        })
}

/// Which file is the folder's map-server YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapYaml {
    /// `<T>.yaml`, else the only candidate (see [`is_map_yaml_candidate`]).
    Found(String),
    /// No candidate at all.
    Missing,
    /// Several candidates and no `<T>.yaml`, sorted.
    Several(Vec<String>),
}

/// A track folder as listed once: its regular files by name, and the track name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetFolder {
    dir: PathBuf,
    track: String,
    files: Vec<String>,
}

impl SetFolder {
    /// Lists `dir`; the track is named after the folder ([`folder_track_name`], empty if none).
    pub fn open(dir: &Path) -> Result<Self> {
        Self::open_as(dir, &folder_track_name(dir).unwrap_or_default())
    }

    /// Lists `dir` as the folder of track `track`.
    pub fn open_as(dir: &Path, track: &str) -> Result<Self> {
        let entries = std::fs::read_dir(dir).map_err(|e| FormatError::io(dir, e))?;
        let mut files: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        Ok(SetFolder {
            dir: dir.to_path_buf(),
            track: track.to_string(),
            files,
        })
    }

    /// The folder as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The track name (file prefix of the set).
    pub fn track(&self) -> &str {
        &self.track
    }

    /// The regular files of the folder, sorted by name.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The file names of this track's set.
    pub fn names(&self) -> SetNames {
        SetNames::new(&self.track)
    }

    /// Whether the folder holds the regular file `name`.
    pub fn has(&self, name: &str) -> bool {
        self.files.iter().any(|f| f == name)
    }

    /// The path of `name` in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// `<track><suffix>` if present, else the only file ending in `suffix`.
    pub fn find(&self, suffix: &str) -> Option<&str> {
        let exact = format!("{}{suffix}", self.track);
        if let Some(n) = self.files.iter().find(|n| **n == exact) {
            return Some(n);
        }
        let mut it = self.files.iter().filter(|n| n.ends_with(suffix));
        match (it.next(), it.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// The centerline CSV ([`Self::find`] of `_centerline.csv`).
    pub fn centerline_csv(&self) -> Option<&str> {
        self.find(CENTERLINE_SUFFIX)
    }

    /// The racing-line CSV ([`Self::find`] of `_racing_line.csv`).
    pub fn racing_line_csv(&self) -> Option<&str> {
        self.find(&format!("_{RACING_LINE}.csv"))
    }

    /// MapZoo when the folder has a centerline or racing-line CSV, else Race Stack.
    pub fn layout(&self) -> Layout {
        if self.centerline_csv().is_some() || self.racing_line_csv().is_some() {
            Layout::MapZoo
        } else {
            Layout::RaceStack
        }
    }

    /// The map-server YAML: `<track>.yaml`, else the only candidate.
    pub fn map_yaml(&self) -> MapYaml {
        let exact = self.names().yaml;
        if self.has(&exact) {
            return MapYaml::Found(exact);
        }
        let mut candidates: Vec<String> = self
            .files
            .iter()
            .filter(|n| is_map_yaml_candidate(n))
            .cloned()
            .collect();
        match candidates.len() {
            0 => MapYaml::Missing,
            1 => MapYaml::Found(candidates.remove(0)),
            _ => MapYaml::Several(candidates),
        }
    }

    /// Loads the map-server YAML `yaml` of the folder and its image, classifying pixels with `rule`.
    pub fn read_map(&self, yaml: &str, rule: FreeRule) -> Result<(MapMeta, OccupancyMap)> {
        OccupancyMap::load(&self.path(yaml), rule)
    }

    /// The lines the folder publishes: `global_waypoints.json` when present,
    /// else the centerline CSV (MapZoo or TUM) and the racing-line CSV, each if present.
    pub fn read_lines(&self) -> Result<TrackFiles> {
        let mut files = TrackFiles::new(&self.track);
        if self.has(GLOBAL_WAYPOINTS) {
            files.global = Some(GlobalWaypoints::read(&self.path(GLOBAL_WAYPOINTS))?);
            return Ok(files);
        }
        if let Some(f) = self.centerline_csv() {
            files.centerline = Some(crate::tum::read_centerline_any(&self.path(f))?);
        }
        if let Some(f) = self.racing_line_csv() {
            let line = waypoint::read_csv(&self.path(f))?;
            files.lines.push((RACING_LINE.to_string(), line));
        }
        Ok(files)
    }

    /// `speed_scaling.yaml`, if the folder has it.
    pub fn read_speed_scaling(&self) -> Result<Option<SpeedScaling>> {
        self.has(SPEED_SCALING)
            .then(|| SpeedScaling::read(&self.path(SPEED_SCALING)))
            .transpose()
    }

    /// `ot_sectors.yaml`, if the folder has it.
    pub fn read_ot_sectors(&self) -> Result<Option<OtSectors>> {
        self.has(OT_SECTORS)
            .then(|| OtSectors::read(&self.path(OT_SECTORS)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[&str]) -> (tempfile::TempDir, SetFolder) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        std::fs::create_dir(&dir).unwrap();
        for f in files {
            std::fs::write(dir.join(f), "").unwrap();
        }
        std::fs::create_dir(dir.join("sub.yaml")).unwrap();
        let folder = SetFolder::open(&dir).unwrap();
        (tmp, folder)
    }

    #[test]
    fn lists_files_only_and_names_the_track_after_the_folder() {
        let (_tmp, f) = folder(&["t.yaml", "t.png", "global_waypoints.json"]);
        assert_eq!(f.track(), "t");
        assert_eq!(f.files(), ["global_waypoints.json", "t.png", "t.yaml"]);
        assert_eq!(f.layout(), Layout::RaceStack);
        assert_eq!(f.map_yaml(), MapYaml::Found("t.yaml".into()));
        let dot = SetFolder::open(&f.dir().join("..").join("t").join(".")).unwrap();
        assert_eq!(dot.track(), "t");
    }

    #[test]
    fn the_map_yaml_is_the_own_one_or_the_only_candidate() {
        let (_tmp, f) = folder(&["m.yml", "speed_scaling.yaml", "t-cent.yaml"]);
        assert_eq!(f.map_yaml(), MapYaml::Found("m.yml".into()));
        let (_tmp, f) = folder(&["a.yaml", "b.yaml"]);
        assert_eq!(
            f.map_yaml(),
            MapYaml::Several(vec!["a.yaml".into(), "b.yaml".into()])
        );
        let (_tmp, f) = folder(&["ot_sectors.yaml"]);
        assert_eq!(f.map_yaml(), MapYaml::Missing);
    }

    #[test]
    fn csvs_are_found_by_exact_name_or_as_the_only_one() {
        let (_tmp, f) = folder(&["x_centerline.csv", "t_racing_line.csv", "y_racing_line.csv"]);
        assert_eq!(f.centerline_csv(), Some("x_centerline.csv"));
        assert_eq!(f.racing_line_csv(), Some("t_racing_line.csv"));
        assert_eq!(f.layout(), Layout::MapZoo);
        let (_tmp, f) = folder(&["x_centerline.csv", "y_centerline.csv"]);
        assert_eq!(f.centerline_csv(), None);
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_it() {
        let err = SetFolder::open(Path::new("/no/such/folder")).unwrap_err();
        assert!(matches!(err, FormatError::Io { .. }), "{err}");
        assert!(err.to_string().contains("/no/such/folder"), "{err}");
    }
}
