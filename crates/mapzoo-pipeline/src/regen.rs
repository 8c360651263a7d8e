//! `regen`: rebuild a set from its own (edited) map, keeping its start point,
//! its driving direction and its hand-tuned sector files (DESIGN §1, §2.4).

use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_format::set::{SetFolder, WritePolicy};
use mapzoo_format::{BoundaryMove, Flavor, Waypoint};
use mapzoo_raceline::LineKind;
use serde::Serialize;

use crate::build::{build, write_error};
use crate::check::{check, CheckOptions};
use crate::config::Config;
use crate::error::PipelineError;
use crate::infer::{StartChoice, Trial};
use crate::request::{start_pose_of, BuildRequest};
use crate::settings::{read_settings, BuildSettings, ConfigChoice, SettingsSource};
use crate::update::carry_sectors;

/// What a regeneration changed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RegenReport {
    /// Track name.
    pub track: String,
    /// Lap time of the driven line (the IQP slot of global_waypoints.json: the IQP line
    /// unless `[lines] racing_line` says otherwise) before → after, seconds (before: from the
    /// old map_info_str, if readable).
    pub iqp_lap_s: (Option<f64>, f64),
    /// SP lap time before → after, seconds.
    pub sp_lap_s: (Option<f64>, f64),
    /// Points of the driven line (`<T>_racing_line.csv`) before → after.
    pub iqp_points: (Option<usize>, usize),
    /// Whether a sector boundary moved to another index (the line changed).
    pub sectors_remapped: bool,
    /// Whether the sector files were reset to the defaults (missing, or `force_sectors`).
    pub sectors_reset: bool,
    /// Sector boundaries that moved more than a waypoint spacing, per file.
    pub sector_moves: Vec<(String, BoundaryMove)>,
    /// Where the configuration came from: the set's mapzoo.toml, the defaults, the caller, or
    /// the settings search.
    pub settings: SettingsSource,
    /// The settings the search found, when they were used ([`regen_inferred`]).
    pub inferred: Option<Trial>,
    /// Files of the folder that are not part of the set, left in place unchanged.
    pub kept_files: Vec<String>,
    /// The flavour the set was found in and written in (`ros1`, `ros2`; DESIGN §2.3).
    pub flavor: String,
    /// Files of the set that were replaced.
    pub replaced_files: Vec<String>,
    /// Files moved aside before being replaced (file, new name): edited since mapzoo wrote them.
    pub backed_up_files: Vec<(String, String)>,
    /// Stale staging folders of interrupted runs that were removed.
    pub cleaned: Vec<PathBuf>,
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
    settings: Option<BuildSettings>,
}

fn read_existing(dir: &Path, given: bool) -> Result<Existing, PipelineError> {
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
    // A given configuration does not need the record: a broken one does not stop it.
    let settings = match read_settings(dir) {
        Err(_) if given => None,
        other => other?,
    };
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
        settings,
        folder,
    })
}

/// Rebuilds the set in `dir` in place (atomically) and reports what changed.
///
/// The configuration is the one the set recorded in its `mapzoo.toml` (with the overrides of
/// [`ConfigChoice::Recorded`]), or the given one ([`ConfigChoice::Given`], which a `&Config`
/// converts to); start and direction are those the set recorded (a start pose given to
/// `build`, with its direction), else its centerline's first point and heading (so an unedited
/// set is rebuilt byte for byte). The set keeps its own
/// flavour (ROS 1 or ROS 2). Files mapzoo did not write are kept; files it replaced and files
/// it moved aside are named in the report.
pub fn regen(
    dir: &Path,
    config: impl Into<ConfigChoice>,
    force_sectors: bool,
) -> Result<RegenReport, PipelineError> {
    regen_as(dir, config, force_sectors, None)
}

/// [`regen`] writing the Race Stack files in `flavor` (`None`: the set's own, as its files
/// or its record say; ROS 1 when it has none).
pub fn regen_as(
    dir: &Path,
    config: impl Into<ConfigChoice>,
    force_sectors: bool,
    flavor: Option<Flavor>,
) -> Result<RegenReport, PipelineError> {
    regen_with(dir, config.into(), force_sectors, flavor, None)
}

/// [`regen_as`] of a set that may have no `mapzoo.toml`: without one, the settings are those
/// [`check`]'s search finds to reproduce the set's published lap times (exactly, else within
/// `lap_tol`; [`SettingsSource::Inferred`]), and the set is refused, nothing written, when
/// none does. A set with a record, or whose rebuild with `config` already reproduces it, is
/// rebuilt as [`regen_as`] does.
pub fn regen_inferred(
    dir: &Path,
    config: impl Into<ConfigChoice>,
    force_sectors: bool,
    flavor: Option<Flavor>,
    lap_tol: f64,
) -> Result<RegenReport, PipelineError> {
    let choice = config.into();
    // a set with a record (or a broken one, which the rebuild reports) rebuilds as it says
    if !dir.is_dir() || !matches!(read_settings(dir), Ok(None)) {
        return regen_with(dir, choice, force_sectors, flavor, None);
    }
    let opts = CheckOptions {
        from_centerline: false,
        lap_tol,
        published: Vec::new(),
        infer: true,
    };
    let report = check(dir, choice.clone(), &opts)?;
    let Some(inference) = report.inference.filter(|_| !report.pass) else {
        return regen_with(dir, choice, force_sectors, flavor, None);
    };
    let chosen = match inference.exact.first() {
        Some(t) => t.clone(),
        None => match inference.best {
            Some(t) if inference.within_tolerance => t,
            _ => {
                let why = report
                    .explanations
                    .last()
                    .map_or_else(String::new, |e| format!(": {e}"));
                return Err(PipelineError::input(
                    dir,
                    format!(
                        "no plausible settings reproduce the published lap times{why}; give the settings it was built with (free rule, safety widths) instead of inferring them"
                    ),
                ));
            }
        },
    };
    let (mut config, _) = choice.resolve(None)?;
    let s = chosen.settings;
    config.map.free_rule = s.free_rule;
    config.raceline.safety_width = s.safety_width;
    config.raceline.safety_width_sp = s.safety_width_sp;
    config.validate(dir)?;
    regen_with(
        dir,
        ConfigChoice::from(config),
        force_sectors,
        flavor,
        Some(chosen),
    )
}

/// The rebuild of [`regen_as`]; `inferred`: the settings search's choice (its start and
/// direction; the configuration given carries its free rule and widths).
fn regen_with(
    dir: &Path,
    choice: ConfigChoice,
    force_sectors: bool,
    flavor: Option<Flavor>,
    inferred: Option<Trial>,
) -> Result<RegenReport, PipelineError> {
    if !dir.is_dir() {
        let what = if dir.exists() {
            "not a folder; give a set folder (DIR holding DIR.yaml and its map)"
        } else {
            "no such folder; give a set folder (DIR holding DIR.yaml and its map)"
        };
        return Err(PipelineError::input(dir, what));
    }
    // "." or "sets/f/.." name a folder too: work on its real path.
    let dir = &dir.canonicalize().map_err(|e| PipelineError::io(dir, e))?;
    let old = read_existing(dir, matches!(choice, ConfigChoice::Given(_)))?;
    let (config, mut source): (Config, SettingsSource) = choice.resolve(old.settings.as_ref())?;
    // The start pose the set was built with, if it recorded one (the same input gives the
    // same files), else the one of its centerline (driving direction included).
    let (mut start, mut reverse) = match old
        .settings
        .as_ref()
        .and_then(|s| s.start.map(|p| (p, s.reverse)))
    {
        Some((pose, reverse)) => (Some(pose), reverse),
        None => (old.start, false),
    };
    if let Some(t) = &inferred {
        source = SettingsSource::Inferred;
        reverse = t.settings.reverse;
        if t.settings.start == StartChoice::Extracted {
            start = None;
        }
    }
    let req = BuildRequest {
        yaml: old.yaml.clone(),
        name: Some(old.folder.track().to_string()),
        start,
        reverse,
    };
    let mut set = build(&req, &config)?;
    // The record keeps how the set was first placed (start as given, direction, flavour).
    if let Some(s) = &old.settings {
        set.settings.start = s.start;
        set.settings.reverse = s.reverse;
        set.settings.flavor = s.flavor;
    } else {
        set.settings.start = None;
        set.settings.reverse = reverse;
    }
    let sectors = carry_sectors(
        &mut set,
        &old.folder,
        old.iqp.as_deref(),
        &config.sectors,
        force_sectors,
    )?;

    let flavor = flavor
        .or(old.flavor)
        .or(old.settings.as_ref().map(|s| s.flavor))
        .unwrap_or_default();
    let mut files = set.files();
    files.set_flavor(flavor);
    // The folder's other files stay where they are; the set's files are swapped in together.
    let written = files.write(dir, WritePolicy::Merge).map_err(write_error)?;
    Ok(RegenReport {
        track: set.name.clone(),
        iqp_lap_s: (old.iqp_lap_s, set.lines.racing_line().lap_time_s),
        sp_lap_s: (old.sp_lap_s, set.lines[LineKind::Sp].lap_time_s),
        iqp_points: (
            old.iqp.as_ref().map(Vec::len),
            set.lines.racing_line().waypoints.len(),
        ),
        sectors_remapped: sectors.remapped,
        sectors_reset: sectors.reset,
        sector_moves: sectors.moves,
        settings: source,
        inferred,
        kept_files: written.kept,
        flavor: flavor.name().to_string(),
        replaced_files: written.replaced,
        backed_up_files: written.backed_up,
        cleaned: written.cleaned,
    })
}
