//! The one file a racing-line run starts from (DESIGN §3 stages 7–11): a
//! MapZoo centerline CSV, a TUM centerline CSV (`x_m, y_m, w_tr_right_m,
//! w_tr_left_m`) or a `global_waypoints.json` (its centerline waypoints and
//! track bounds), told apart by extension and content.

use std::path::Path;

use crate::error::{FormatError, Result};
use crate::global::GlobalWaypoints;
use crate::set::layout::{CENTERLINE_SUFFIX, GLOBAL_WAYPOINTS};
use crate::tum::{read_centerline_detect, CenterlineFormat};
use crate::waypoint::Waypoint;

/// Which kind of file the centerline came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// A MapZoo waypoint CSV (DESIGN §2.2), every column as written.
    MapZooCsv,
    /// A TUM centerline CSV: `psi_rad` and `kappa_radpm` are 0 until a caller fits them.
    TumCsv,
    /// A Race Stack `global_waypoints.json`.
    GlobalWaypoints,
}

/// A centerline read from one file, with the track bounds if the file has them.
#[derive(Debug, Clone, PartialEq)]
pub struct CenterlineInput {
    /// Track name: `<T>_centerline.csv` → T, `<T>/global_waypoints.json` → T, else the file stem.
    pub track: String,
    /// Which kind of file it was.
    pub format: InputFormat,
    /// The centerline waypoints.
    pub centerline: Vec<Waypoint>,
    /// Right track bound, world metres (empty when the file has none).
    pub right_bound: Vec<[f64; 2]>,
    /// Left track bound, world metres (empty when the file has none).
    pub left_bound: Vec<[f64; 2]>,
}

/// The largest centerline file read: 256 MiB (a 100 km line at 0.1 m spacing is ~100 MiB).
const MAX_CENTERLINE_BYTES: u64 = 256 << 20;

impl CenterlineInput {
    /// Reads `path`: a `.json` as global_waypoints.json, anything else as a MapZoo or TUM CSV.
    pub fn read(path: &Path) -> Result<Self> {
        const WHAT: &str =
            "centerline (a MapZoo centerline CSV, a TUM centerline CSV or a global_waypoints.json)";
        match crate::input_file::check_input_file(path, MAX_CENTERLINE_BYTES, WHAT) {
            Err(FormatError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Err(FormatError::bad_path(
                    path,
                    "no such file; give a MapZoo centerline CSV, a TUM centerline CSV or a global_waypoints.json",
                ));
            }
            other => {
                other?;
            }
        }
        let track = input_track_name(path);
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if ext == "json" {
            let gw = GlobalWaypoints::read(path)?;
            return Ok(CenterlineInput {
                track,
                format: InputFormat::GlobalWaypoints,
                right_bound: gw.right_bound(),
                left_bound: gw.left_bound(),
                centerline: gw.centerline.wpnts,
            });
        }
        let (format, centerline) = read_centerline_detect(path)?;
        Ok(CenterlineInput {
            track,
            format: match format {
                CenterlineFormat::MapZoo => InputFormat::MapZooCsv,
                CenterlineFormat::Tum => InputFormat::TumCsv,
            },
            centerline,
            right_bound: Vec::new(),
            left_bound: Vec::new(),
        })
    }

    /// Whether the file gave both track bounds.
    pub fn has_bounds(&self) -> bool {
        !self.right_bound.is_empty() && !self.left_bound.is_empty()
    }
}

/// Track name from an input path: `<T>_centerline.csv` → T, `<T>/global_waypoints.json` → T
/// (the folder of its canonical path, `track` if none), else the file stem.
pub fn input_track_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "track".into());
    if Some(stem.as_str()) == GLOBAL_WAYPOINTS.strip_suffix(".json") {
        let dir = path
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        return dir
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "track".into());
    }
    let suffix = CENTERLINE_SUFFIX
        .strip_suffix(".csv")
        .unwrap_or(CENTERLINE_SUFFIX);
    stem.strip_suffix(suffix).unwrap_or(&stem).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_names_of_inputs() {
        assert_eq!(input_track_name(Path::new("a/Oval_centerline.csv")), "Oval");
        assert_eq!(input_track_name(Path::new("a/ovaltum.csv")), "ovaltum");
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("f");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("global_waypoints.json"), "{}").unwrap();
        assert_eq!(input_track_name(&dir.join("global_waypoints.json")), "f");
    }

    #[test]
    fn a_missing_input_names_the_file_and_what_to_give() {
        let err = CenterlineInput::read(Path::new("missing.csv")).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("missing.csv: no such file"), "{text}");
    }

    #[test]
    fn csv_inputs_are_told_apart_by_content() {
        let tmp = tempfile::tempdir().unwrap();
        let tum = tmp.path().join("t.csv");
        std::fs::write(
            &tum,
            "# x_m,y_m,w_tr_right_m,w_tr_left_m\n0,0,1,1\n1,0,1,1\n",
        )
        .unwrap();
        let input = CenterlineInput::read(&tum).unwrap();
        assert_eq!(input.format, InputFormat::TumCsv);
        assert_eq!(input.centerline.len(), 2);
        assert!(!input.has_bounds());
    }
}
