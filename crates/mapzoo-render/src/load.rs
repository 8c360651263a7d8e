//! Reads a track folder into a [`TrackPicture`]: a MapZoo set or a Race
//! Stack map folder (DESIGN §2). Every file except the map is optional; a
//! file that is present but malformed is an error naming it.
//!
//! Sources, first found wins: lines and bounds from `global_waypoints.json`,
//! else the centerline and racing-line CSVs (the racing line is the IQP
//! trajectory, §2.3; a TUM centerline of the f1tenth racetracks, with or
//! without its `#` header, is read too) with bounds from the centerline's widths; lap times
//! from `map_info_str`; sectors from `speed_scaling.yaml` and `ot_sectors.yaml`.

use std::path::{Path, PathBuf};

use mapzoo_format::global::LineKind;
use mapzoo_format::sectors::{OtSectors, SpeedScaling};
use mapzoo_format::{waypoint, FormatError, FreeRule, GlobalWaypoints, OccupancyMap};

use crate::error::RenderError;
use crate::track::{walls_from_widths, PictureLine, SectorSpan, TrackPicture};

/// The Race Stack JSON of a folder.
const GLOBAL_JSON: &str = "global_waypoints.json";
/// Sector files of a folder.
const SECTOR_FILES: [&str; 2] = ["speed_scaling.yaml", "ot_sectors.yaml"];

/// Loads everything a picture of the track in `dir` shows.
pub fn load_track(dir: &Path) -> Result<TrackPicture, RenderError> {
    let names = list_files(dir)?;
    let name = track_name(dir);
    let yaml = map_yaml(dir, &names, &name)?;
    let (_, map) = OccupancyMap::load(&yaml, FreeRule::MapServer)?;
    let mut track = TrackPicture::new(name.clone(), map);

    if names.iter().any(|n| n == GLOBAL_JSON) {
        let mut global = GlobalWaypoints::read(&dir.join(GLOBAL_JSON))?;
        let info = global.map_info;
        track.walls = [global.right_bound(), global.left_bound()]
            .into_iter()
            .filter(|w| !w.is_empty())
            .collect();
        track.lines = LineKind::ALL
            .map(|kind| {
                // older files carry the SP lap time only as est_lap_time
                let est = if kind == LineKind::EST_LAP {
                    global.est_lap_time
                } else {
                    None
                };
                PictureLine {
                    kind,
                    waypoints: std::mem::take(&mut global.line_mut(kind).1.wpnts),
                    lap_s: info.lap_time_s(kind).or(est),
                    max_mps: info.max_speed_mps(kind),
                }
            })
            .to_vec();
        track.centerline = global.centerline.wpnts;
    } else {
        if let Some(f) = find(&names, &name, "_centerline.csv") {
            track.centerline = mapzoo_format::read_centerline_any(&dir.join(f))?;
        }
        if let Some(f) = find(&names, &name, "_racing_line.csv") {
            track.line_mut(LineKind::RACING).waypoints = waypoint::read_csv(&dir.join(f))?;
        }
    }
    if track.walls.is_empty() {
        track.walls = walls_from_widths(&track.centerline);
    }

    let [speed_file, ot_file] = SECTOR_FILES;
    if names.iter().any(|n| n == speed_file) {
        let s = SpeedScaling::read(&dir.join(speed_file))?;
        track.speed_sectors = s
            .sectors
            .iter()
            .map(|k| span(k.start, k.end, format!("x{:.2}", k.scaling)))
            .collect();
    }
    if names.iter().any(|n| n == ot_file) {
        let s = OtSectors::read(&dir.join(ot_file))?;
        track.overtaking_sectors = s
            .sectors
            .iter()
            .map(|k| {
                span(
                    k.start,
                    k.end,
                    if k.ot_flag {
                        "ot".into()
                    } else {
                        String::new()
                    },
                )
            })
            .collect();
    }
    Ok(track)
}

/// A sector span from the files' signed indices (negative ones read as 0).
fn span(start: i64, end: i64, note: String) -> SectorSpan {
    SectorSpan {
        start: start.max(0) as usize,
        end: end.max(0) as usize,
        note,
    }
}

/// The file names in `dir`, sorted.
fn list_files(dir: &Path) -> Result<Vec<String>, RenderError> {
    let entries = std::fs::read_dir(dir).map_err(|e| FormatError::io(dir, e))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}

/// The folder's name (of its canonical path for `.` and `..`).
fn track_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
        .or_else(|| {
            std::fs::canonicalize(dir)
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        })
        .unwrap_or_else(|| "track".to_string())
}

/// `<track><suffix>` if present, else the only file ending in `suffix`.
fn find<'a>(names: &'a [String], track: &str, suffix: &str) -> Option<&'a str> {
    let exact = format!("{track}{suffix}");
    if let Some(n) = names.iter().find(|n| **n == exact) {
        return Some(n);
    }
    let mut it = names.iter().filter(|n| n.ends_with(suffix));
    match (it.next(), it.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The map YAML: `<track>.yaml`, else the only YAML that is neither a
/// sector file nor the track-only `-cent` map.
fn map_yaml(dir: &Path, names: &[String], track: &str) -> Result<PathBuf, RenderError> {
    let exact = format!("{track}.yaml");
    if names.contains(&exact) {
        return Ok(dir.join(exact));
    }
    let candidates: Vec<&String> = names
        .iter()
        .filter(|n| {
            (n.ends_with(".yaml") || n.ends_with(".yml"))
                && !SECTOR_FILES.contains(&n.as_str())
                && !n.ends_with("-cent.yaml")
        })
        .collect();
    let found = match candidates.as_slice() {
        [one] => return Ok(dir.join(one)),
        [] => "no map YAML".to_string(),
        many => {
            let list: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
            format!("several YAMLs: {}", list.join(", "))
        }
    };
    Err(RenderError::NoMap {
        dir: dir.to_path_buf(),
        found,
        expected: exact,
    })
}
