//! Reads a track folder into a [`TrackPicture`]: a MapZoo set or a Race
//! Stack map folder (DESIGN §2), found and read by the format crate's
//! [`SetFolder`]. Every file except the map is optional; a file that is
//! present but malformed is an error naming it.
//!
//! Sources, first found wins: lines and bounds from `global_waypoints.json`,
//! else the centerline and racing-line CSVs (the racing line is the IQP
//! trajectory, §2.3; a TUM centerline of the f1tenth racetracks, with or
//! without its `#` header, is read too) with bounds from the centerline's widths; lap times
//! from `map_info_str`; sectors from `speed_scaling.yaml` and `ot_sectors.yaml`; the
//! minimum-time line from `<T>_mintime.csv` if present (its lap from its own speeds).
//! The caller says which pixels of the map are free.

use std::path::Path;

use mapzoo_format::set::layout::{line_csv, IQP_LINE, MINTIME_LINE};
use mapzoo_format::set::{MapYaml, SetFolder};
use mapzoo_format::FreeRule;
use mapzoo_format::LineKind;
use mapzoo_geom::Walls;

use crate::error::RenderError;
use crate::track::{walls_from_widths, PictureLine, SectorSpan, TrackPicture};

/// Loads everything a picture of the track in `dir` shows; `rule` classifies the map's pixels.
pub fn load_track(dir: &Path, rule: FreeRule) -> Result<TrackPicture, RenderError> {
    let folder = SetFolder::open(dir)?;
    let name = match folder.track() {
        "" => "track".to_string(),
        t => t.to_string(),
    };
    let yaml = map_yaml(&folder, dir, &name)?;
    let (_, map) = folder.read_map(&yaml, rule)?;
    let mut track = TrackPicture::new(name, map);

    let files = folder.read_lines()?;
    if let Some(mut global) = files.global {
        let info = global.map_info;
        track.walls = Walls {
            right: global.right_bound(),
            left: global.left_bound(),
            obstacles: Vec::new(),
        };
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
                    waypoints: global
                        .line_mut(kind)
                        .map(|(_, w)| std::mem::take(&mut w.wpnts))
                        .unwrap_or_default(),
                    lap_s: info.lap_time_s(kind).or(est),
                    max_mps: info.max_speed_mps(kind),
                }
            })
            .to_vec();
        // A set that drives another line (`--racing-line mintime`) has it in the IQP slot,
        // and the IQP line as <T>_iqp.csv (read below).
        if let Some(kind) = info.iqp_slot {
            let slot = track.lines.iter().position(|l| l.kind == LineKind::Iqp);
            match slot {
                // a line the file also holds in its own slot (SP): once is enough
                Some(i) if track.lines.iter().any(|l| l.kind == kind) => {
                    track.lines.remove(i);
                }
                Some(i) => track.lines[i].kind = kind,
                None => {}
            }
            track.racing = kind;
        }
        track.centerline = global.centerline.wpnts;
    } else {
        track.centerline = files.centerline_waypoints().to_vec();
        track.line_mut(LineKind::RACING).waypoints =
            files.racing_line().map(<[_]>::to_vec).unwrap_or_default();
    }
    if track.walls.is_empty() {
        track.walls = walls_from_widths(&track.centerline);
    }
    // the minimum-time line of `--lines iqp,sp,mintime`, and the IQP line of a set that
    // drives another
    for (kind, name) in [(LineKind::Mintime, MINTIME_LINE), (LineKind::Iqp, IQP_LINE)] {
        let path = dir.join(line_csv(folder.track(), name));
        if path.is_file() {
            let waypoints = mapzoo_format::read_waypoint_csv(&path)?;
            let traj = mapzoo_raceline::Trajectory::from_waypoints(&waypoints);
            let line = PictureLine {
                kind,
                lap_s: (waypoints.len() > 1).then_some(traj.lap_time),
                max_mps: (waypoints.len() > 1).then(|| traj.v_max()),
                waypoints,
            };
            match track.lines.iter_mut().find(|l| l.kind == kind) {
                Some(old) => *old = line,
                None => track.lines.push(line),
            }
        }
    }
    read_sectors(&folder, &mut track)?;
    Ok(track)
}

/// The folder's map YAML, or why there is none to draw.
fn map_yaml(folder: &SetFolder, dir: &Path, name: &str) -> Result<String, RenderError> {
    match folder.map_yaml() {
        MapYaml::Found(yaml) => Ok(yaml),
        other => {
            let found = match other {
                MapYaml::Several(many) => format!("several YAMLs: {}", many.join(", ")),
                _ => "no map YAML".to_string(),
            };
            Err(RenderError::NoMap {
                dir: dir.to_path_buf(),
                found,
                expected: format!("{name}.yaml"),
            })
        }
    }
}

/// The speed-scaling and overtaking sectors of the folder's sector files, where present.
fn read_sectors(folder: &SetFolder, track: &mut TrackPicture) -> Result<(), RenderError> {
    if let Some(s) = folder.read_speed_scaling()? {
        track.speed_sectors = s
            .sectors
            .iter()
            .map(|k| span(k.start, k.end, format!("x{:.2}", k.scaling)))
            .collect();
    }
    if let Some(s) = folder.read_ot_sectors()? {
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
    Ok(())
}

/// A sector span from the files' signed indices (negative ones read as 0).
fn span(start: i64, end: i64, note: String) -> SectorSpan {
    SectorSpan {
        start: start.max(0) as usize,
        end: end.max(0) as usize,
        note,
    }
}
