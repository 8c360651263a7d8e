//! Updating a set folder in place (`build --force`, and `regen`'s sector files): the set's
//! files replace those of the same names, every other file stays, and the folder's own sector
//! files are carried to the same places on the new racing line.

use std::path::Path;

use mapzoo_format::set::layout::{OT_SECTORS, SPEED_SCALING};
use mapzoo_format::set::{SetFolder, WritePolicy};
use mapzoo_format::{BoundaryMove, Hint, Waypoint};
use serde::Serialize;

use crate::build::{check_track_name, default_sectors, write_error, TrackSet};
use crate::config::SectorDefaults;
use crate::error::PipelineError;

/// Writes `set` as `out/<name>/`, updating an existing folder in place (what `build --force`
/// does): the set's files replace those of the same names (a file the user edited since
/// mapzoo wrote it is moved aside to `<name>.bak`), every other file stays, and the folder's
/// own sector files are kept, their boundaries moved to the same places on the new line,
/// unless `reset_sectors`. A missing folder is created. Reports what was replaced and kept.
pub fn update_set(
    set: &mut TrackSet,
    out: &Path,
    reset_sectors: bool,
) -> Result<UpdatedSet, PipelineError> {
    let prior = PriorLine::read(out, &set.name, reset_sectors)?;
    update_set_from(set, out, reset_sectors, prior)
}

/// The racing line of a set folder before its update, where the boundaries of its sector
/// files sit ([`update_set_from`]). Read before the new set is built, the old
/// global_waypoints.json (megabytes of text and markers) is gone before the new one is
/// encoded: the two are never in memory together.
#[derive(Debug, Clone, Default)]
pub struct PriorLine {
    /// The folder's racing line (its JSON's IQP line, else its racing-line CSV), read only
    /// when its sector files are to be carried over.
    iqp: Option<Vec<Waypoint>>,
}

impl PriorLine {
    /// The line of `out/<name>/`, for an update keeping its sector files unless
    /// `reset_sectors` (nothing is read then, nor without both sector files).
    pub fn read(out: &Path, name: &str, reset_sectors: bool) -> Result<Self, PipelineError> {
        check_track_name(name)?;
        let dir = out.join(name);
        if reset_sectors || !dir.is_dir() {
            return Ok(PriorLine::default());
        }
        let folder = SetFolder::open_as(&dir, name)?;
        if !keeps_sectors(&folder, reset_sectors) {
            return Ok(PriorLine::default());
        }
        let iqp = folder
            .read_lines()
            .ok()
            .and_then(|f| f.racing_line().map(<[_]>::to_vec));
        Ok(PriorLine { iqp })
    }
}

/// Whether an update keeps the sector files of `folder` (remapped onto the new line): both
/// are there and they are not being reset. [`PriorLine::read`] reads the old line only then.
fn keeps_sectors(folder: &SetFolder, reset: bool) -> bool {
    !reset && folder.has(SPEED_SCALING) && folder.has(OT_SECTORS)
}

/// [`update_set`] with the folder's racing line read before the set was built.
pub fn update_set_from(
    set: &mut TrackSet,
    out: &Path,
    reset_sectors: bool,
    prior: PriorLine,
) -> Result<UpdatedSet, PipelineError> {
    check_track_name(&set.name)?;
    let dir = out.join(&set.name);
    let mut sectors = SectorsKept::default();
    if dir.is_dir() {
        let folder = SetFolder::open_as(&dir, &set.name)?;
        let defaults = set_sector_defaults(set);
        sectors = carry_sectors(set, &folder, prior.iqp.as_deref(), &defaults, reset_sectors)?;
    }
    let written = set
        .files()
        .write_with(&dir, WritePolicy::Merge, &set.ahead)
        .map_err(write_error)?;
    Ok(UpdatedSet { written, sectors })
}

/// The sector defaults a set was built with.
fn set_sector_defaults(set: &TrackSet) -> SectorDefaults {
    set.settings.config.sectors.clone()
}

/// What [`update_set`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatedSet {
    /// The files replaced, moved aside and kept, and stale staging folders removed.
    pub written: mapzoo_format::set::Written,
    /// What became of the folder's sector files.
    pub sectors: SectorsKept,
}

/// What became of a folder's sector files when its set was rebuilt.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SectorsKept {
    /// Some boundary moved to another index.
    pub remapped: bool,
    /// The files were reset to the defaults (missing, or asked for).
    pub reset: bool,
    /// Boundaries that moved more than a waypoint spacing, per file.
    pub moves: Vec<(String, BoundaryMove)>,
}

/// Puts the folder's own sector files into `set`, each boundary moved to the same place on
/// the new racing line ([`mapzoo_format::remap_ranges_by_position`]); the defaults when the
/// folder has none or `reset`. Boundaries that moved more than the new line's waypoint
/// spacing are reported.
pub(crate) fn carry_sectors(
    set: &mut TrackSet,
    folder: &SetFolder,
    old_iqp: Option<&[Waypoint]>,
    defaults: &SectorDefaults,
    reset: bool,
) -> Result<SectorsKept, PipelineError> {
    let speed_path = folder.path(SPEED_SCALING);
    let ot_path = folder.path(OT_SECTORS);
    let new_line = &set.lines.racing_line().waypoints;
    let n_new = new_line.len();
    let (speed, ot) = if keeps_sectors(folder, reset) {
        (folder.read_speed_scaling()?, folder.read_ot_sectors()?)
    } else {
        (None, None)
    };
    let (Some(mut speed), Some(mut ot)) = (speed, ot) else {
        let (speed, ot) = default_sectors(n_new, defaults);
        set.speed_scaling = speed;
        set.ot_sectors = ot;
        return Ok(SectorsKept {
            reset: true,
            ..SectorsKept::default()
        });
    };
    let Some(old) = old_iqp else {
        return Err(PipelineError::input_with_hint(
            folder.dir(),
            "the sector files cannot be remapped: the folder has no racing line (global_waypoints.json or racing-line CSV)",
            Hint::ResetSectors,
        ));
    };
    // Hand-tuned files that were already wrong are reported, not silently repaired by the remap.
    speed.validate(old.len(), &speed_path)?;
    ot.validate(old.len(), &ot_path)?;
    let (old_xy, new_xy) = (xy(old), xy(new_line));
    let remap_error =
        |path: &Path, what: String| PipelineError::input_with_hint(path, what, Hint::ResetSectors);
    let before = (speed.ranges(), ot.ranges());
    let speed_moves = speed
        .remap_by_position(&old_xy, &new_xy)
        .map_err(|e| remap_error(&speed_path, e))?;
    let ot_moves = ot
        .remap_by_position(&old_xy, &new_xy)
        .map_err(|e| remap_error(&ot_path, e))?;
    speed.validate(n_new, &speed_path)?;
    ot.validate(n_new, &ot_path)?;
    let spacing = new_line.last().map_or(0.0, |w| w.s_m) / (n_new.max(2) - 1) as f64;
    let moves = [(SPEED_SCALING, speed_moves), (OT_SECTORS, ot_moves)]
        .into_iter()
        .flat_map(|(file, m)| {
            m.into_iter()
                .filter(|b| b.moved_m > spacing)
                .map(move |b| (file.to_string(), b))
        })
        .collect();
    let remapped = (speed.ranges(), ot.ranges()) != before;
    set.speed_scaling = speed;
    set.ot_sectors = ot;
    Ok(SectorsKept {
        remapped,
        reset: false,
        moves,
    })
}

fn xy(line: &[Waypoint]) -> Vec<[f64; 2]> {
    line.iter().map(|w| [w.x_m, w.y_m]).collect()
}
