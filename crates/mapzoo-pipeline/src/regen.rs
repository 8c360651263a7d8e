//! `regen`: rebuild a set from its own (edited) map, keeping its start point,
//! its driving direction and its hand-tuned sector files (DESIGN §1, §2.4).

use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_format::set::layout::{OT_SECTORS, SPEED_SCALING};
use mapzoo_format::set::{SetFolder, WritePolicy};
use mapzoo_format::{Flavor, Hint, Waypoint};
use mapzoo_raceline::LineKind;
use serde::Serialize;

use crate::build::{build, default_sectors, write_error, BuildRequest, TrackSet};
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
    /// Whether the sector files were reset to the defaults (missing, or `force_sectors`).
    pub sectors_reset: bool,
    /// Files of the folder that are not part of the set, left in place unchanged.
    pub kept_files: Vec<String>,
    /// The flavour the set was found in and written in (`ros1`, `ros2`; DESIGN §2.3).
    pub flavor: String,
}

/// The pieces of an existing set that a regeneration keeps.
struct Existing {
    folder: SetFolder,
    yaml: PathBuf,
    start: Option<StartPose>,
    iqp: Option<Vec<Waypoint>>,
    iqp_lap_s: Option<f64>,
    sp_lap_s: Option<f64>,
    flavor: Option<Flavor>,
}

fn read_existing(dir: &Path) -> Result<Existing, PipelineError> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| PipelineError::input(dir, "not a track folder"))?;
    let folder = SetFolder::open_as(dir, &name)?;
    let yaml = folder.names().yaml;
    if !folder.has(&yaml) {
        return Err(PipelineError::input(
            dir,
            format!("no {yaml} in the folder; regen needs the set's own map YAML (name the folder after the track)"),
        ));
    }
    let old = folder.read_lines()?;
    let (iqp_lap_s, sp_lap_s) = old.global.as_ref().map_or((None, None), |g| {
        (g.map_info.iqp_lap_time_s, g.map_info.sp_lap_time_s)
    });
    Ok(Existing {
        yaml: folder.path(&yaml),
        start: start_pose_of(old.centerline_waypoints()),
        iqp: old.racing_line().map(<[Waypoint]>::to_vec),
        iqp_lap_s,
        sp_lap_s,
        flavor: old.flavor(),
        folder,
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

/// Rebuilds the set in `dir` in place (atomically) and reports what changed; the set keeps
/// its own flavour (ROS 1 or ROS 2).
pub fn regen(
    dir: &Path,
    config: &Config,
    force_sectors: bool,
) -> Result<RegenReport, PipelineError> {
    regen_as(dir, config, force_sectors, None)
}

/// [`regen`] writing the Race Stack files in `flavor` (`None`: the set's own, ROS 1 when
/// the set has no JSON or sector files).
pub fn regen_as(
    dir: &Path,
    config: &Config,
    force_sectors: bool,
    flavor: Option<Flavor>,
) -> Result<RegenReport, PipelineError> {
    // "." or "sets/f/.." name a folder too: work on its real path.
    let dir = &dir.canonicalize().map_err(|e| PipelineError::io(dir, e))?;
    let old = read_existing(dir)?;
    let req = BuildRequest {
        yaml: old.yaml.clone(),
        name: Some(old.folder.track().to_string()),
        start: old.start,
        reverse: false,
    };
    let mut set = build(&req, config)?;
    let (sectors_remapped, sectors_reset) = keep_sectors(
        &mut set,
        &old.folder,
        old.iqp.as_deref(),
        config,
        force_sectors,
    )?;

    let flavor = flavor
        .or(old.flavor)
        .or((!sectors_reset).then_some(set.speed_scaling.flavor))
        .unwrap_or_default();
    let mut files = set.files();
    files.set_flavor(flavor);
    // The folder's other files stay where they are; the set's files are swapped in together.
    let written = files.write(dir, WritePolicy::Merge).map_err(write_error)?;
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
        kept_files: written.kept,
        flavor: flavor.name().to_string(),
    })
}

/// Puts the folder's own sector files into `set`, remapped by arc length when the
/// racing line's point count changed. Returns (remapped, reset).
fn keep_sectors(
    set: &mut TrackSet,
    folder: &SetFolder,
    old_iqp: Option<&[Waypoint]>,
    config: &Config,
    force_sectors: bool,
) -> Result<(bool, bool), PipelineError> {
    let speed_path = folder.path(SPEED_SCALING);
    let ot_path = folder.path(OT_SECTORS);
    let n_new = set.lines[LineKind::Iqp].waypoints.len();
    let (speed, ot) = if force_sectors || !(folder.has(SPEED_SCALING) && folder.has(OT_SECTORS)) {
        (None, None)
    } else {
        (folder.read_speed_scaling()?, folder.read_ot_sectors()?)
    };
    let (Some(mut speed), Some(mut ot)) = (speed, ot) else {
        let (speed, ot) = default_sectors(n_new, &config.sectors);
        set.speed_scaling = speed;
        set.ot_sectors = ot;
        return Ok((false, true));
    };
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
            return Err(PipelineError::input_with_hint(
                folder.dir(),
                "the sector files cannot be remapped: the folder has no racing line (global_waypoints.json or racing-line CSV)",
                Hint::ResetSectors,
            ))
        }
    };
    speed.validate(n_new, &speed_path)?;
    ot.validate(n_new, &ot_path)?;
    set.speed_scaling = speed;
    set.ot_sectors = ot;
    Ok((remapped, false))
}
