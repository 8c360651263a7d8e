//! `regen`: rebuild a set from its own (edited) map, keeping its start point,
//! its driving direction and its hand-tuned sector files (DESIGN §1, §2.4).

use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_format::{waypoint, FormatError, GlobalWaypoints, OtSectors, SpeedScaling, Waypoint};
use mapzoo_raceline::LineKind;
use serde::Serialize;

use crate::atomic::StagedDir;
use crate::build::{
    build, default_sectors, write_files, BuildRequest, SetPaths, TrackSet, GLOBAL_WAYPOINTS,
    OT_SECTORS, SPEED_SCALING,
};
use crate::config::Config;
use crate::error::PipelineError;

/// What a regeneration changed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RegenReport {
    /// Track name.
    pub track: String,
    /// IQP lap time before → after, seconds (before: from the old map_info_str, if readable).
    pub iqp_lap_s: (Option<f64>, f64),
    /// SP lap time before → after, seconds.
    pub sp_lap_s: (Option<f64>, f64),
    /// IQP (racing line) points before → after.
    pub iqp_points: (Option<usize>, usize),
    /// Whether the sector indices were remapped to a new point count.
    pub sectors_remapped: bool,
    /// Whether the sector files were reset to the defaults (missing, or `--force-sectors`).
    pub sectors_reset: bool,
    /// Files of the folder that are not part of the set, carried over unchanged.
    pub kept_files: Vec<String>,
}

/// The pieces of an existing set that a regeneration keeps.
struct Existing {
    name: String,
    yaml: PathBuf,
    start: Option<StartPose>,
    iqp: Option<Vec<Waypoint>>,
    iqp_lap_s: Option<f64>,
    sp_lap_s: Option<f64>,
}

fn read_existing(dir: &Path) -> Result<Existing, PipelineError> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| PipelineError::config(dir, "not a track folder"))?;
    let paths = SetPaths::new(&name);
    let yaml = dir.join(&paths.yaml);
    if !yaml.is_file() {
        return Err(PipelineError::config(
            dir,
            format!("no {} in the folder; regen needs the set's own map YAML (name the folder after the track)", paths.yaml),
        ));
    }
    let global_path = dir.join(GLOBAL_WAYPOINTS);
    let (centerline, iqp, iqp_lap_s, sp_lap_s) = if global_path.is_file() {
        let g = GlobalWaypoints::read(&global_path)?;
        (
            g.centerline.wpnts.clone(),
            Some(g.iqp.wpnts.clone()),
            g.map_info.iqp_lap_time_s,
            g.map_info.sp_lap_time_s,
        )
    } else {
        let csv = dir.join(&paths.centerline_csv);
        let centerline = if csv.is_file() {
            waypoint::read_csv(&csv)?
        } else {
            Vec::new()
        };
        let rl = dir.join(&paths.racing_line_csv);
        let iqp = if rl.is_file() {
            Some(waypoint::read_csv(&rl)?)
        } else {
            None
        };
        (centerline, iqp, None, None)
    };
    Ok(Existing {
        name,
        yaml,
        start: start_pose_of(&centerline),
        iqp,
        iqp_lap_s,
        sp_lap_s,
    })
}

/// The start pose of a centerline: its first point, heading towards the second.
pub fn start_pose_of(centerline: &[Waypoint]) -> Option<StartPose> {
    let (a, b) = (centerline.first()?, centerline.get(1)?);
    let yaw = (b.y_m - a.y_m).atan2(b.x_m - a.x_m);
    yaw.is_finite().then_some(StartPose {
        x: a.x_m,
        y: a.y_m,
        yaw,
    })
}

/// Rebuilds the set in `dir` in place (atomically) and reports what changed.
pub fn regen(
    dir: &Path,
    config: &Config,
    force_sectors: bool,
) -> Result<RegenReport, PipelineError> {
    // "." or "sets/f/.." name a folder too: work on its real path.
    let dir = &dir.canonicalize().map_err(|e| PipelineError::io(dir, e))?;
    let old = read_existing(dir)?;
    let req = BuildRequest {
        yaml: old.yaml.clone(),
        name: Some(old.name.clone()),
        start: old.start,
        reverse: false,
    };
    let mut set = build(&req, config)?;
    let (sectors_remapped, sectors_reset) =
        keep_sectors(&mut set, dir, old.iqp.as_deref(), config, force_sectors)?;

    let staged = StagedDir::new(dir, true)?;
    write_files(&set, staged.path())?;
    let kept_files = carry_other_files(dir, staged.path())?;
    staged.commit()?;
    Ok(RegenReport {
        track: set.name.clone(),
        iqp_lap_s: (old.iqp_lap_s, set.lines[LineKind::Iqp].lap_time_s),
        sp_lap_s: (old.sp_lap_s, set.lines[LineKind::Sp].lap_time_s),
        iqp_points: (
            old.iqp.as_ref().map(Vec::len),
            set.lines[LineKind::Iqp].waypoints.len(),
        ),
        sectors_remapped,
        sectors_reset,
        kept_files,
    })
}

/// Puts the folder's own sector files into `set`, remapped by arc length when the
/// racing line's point count changed. Returns (remapped, reset).
fn keep_sectors(
    set: &mut TrackSet,
    dir: &Path,
    old_iqp: Option<&[Waypoint]>,
    config: &Config,
    force_sectors: bool,
) -> Result<(bool, bool), PipelineError> {
    let speed_path = dir.join(SPEED_SCALING);
    let ot_path = dir.join(OT_SECTORS);
    let n_new = set.lines[LineKind::Iqp].waypoints.len();
    if force_sectors || !(speed_path.is_file() && ot_path.is_file()) {
        let (speed, ot) = default_sectors(n_new, &config.sectors);
        set.speed_scaling = speed;
        set.ot_sectors = ot;
        return Ok((false, true));
    }
    let mut speed = SpeedScaling::read(&speed_path)?;
    let mut ot = OtSectors::read(&ot_path)?;
    if let Some(old) = old_iqp {
        // Hand-tuned files that were already wrong are reported, not silently repaired by the remap.
        speed.validate(old.len(), &speed_path)?;
        ot.validate(old.len(), &ot_path)?;
    }
    let new_s: Vec<f64> = set.lines[LineKind::Iqp]
        .waypoints
        .iter()
        .map(|w| w.s_m)
        .collect();
    let remapped = match old_iqp {
        Some(old) if old.len() != n_new => {
            let old_s: Vec<f64> = old.iter().map(|w| w.s_m).collect();
            speed.remap_by_arc_length(&old_s, &new_s);
            ot.remap_by_arc_length(&old_s, &new_s);
            true
        }
        Some(_) => false,
        None => {
            return Err(PipelineError::Format(FormatError::invalid(
                dir,
                "the sector files cannot be remapped: the folder has no racing line (global_waypoints.json or racing-line CSV); pass --force-sectors to reset them",
            )))
        }
    };
    speed.validate(n_new, &speed_path)?;
    ot.validate(n_new, &ot_path)?;
    set.speed_scaling = speed;
    set.ot_sectors = ot;
    Ok((remapped, false))
}

/// Copies every file of `old` that the set does not write into `new`; returns their names.
fn carry_other_files(old: &Path, new: &Path) -> Result<Vec<String>, PipelineError> {
    let mut kept = Vec::new();
    let entries = std::fs::read_dir(old).map_err(|e| PipelineError::io(old, e))?;
    let mut names: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    names.sort();
    for file in names {
        let to = new.join(&file);
        if to.exists() {
            continue;
        }
        let from = old.join(&file);
        if from.is_file() {
            std::fs::copy(&from, &to).map_err(|e| PipelineError::io(&from, e))?;
            kept.push(file.to_string_lossy().into_owned());
        }
    }
    Ok(kept)
}
