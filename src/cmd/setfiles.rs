//! What the commands that rebuild or update a set share: where the configuration comes from
//! (the set's recorded `mapzoo.toml`, or the flags), and the lines that name what a write
//! replaced, moved aside, kept and cleaned up.

use std::path::PathBuf;

use mapzoo_format::set::{Written, SETTINGS_FILE};
use mapzoo_format::BoundaryMove;
use mapzoo_pipeline::{ConfigChoice, Overrides};

use super::common::ConfigArgs;

/// The configuration of a rebuild: `--profile`, `--config` or `--vehicle` make a new
/// configuration (the set's recorded one is not used, and a note says so); otherwise the
/// recorded settings, with `--free-rule` and the safety widths on top. The flags are validated here, before any work.
pub fn config_choice(
    args: &ConfigArgs,
    dirs: &[PathBuf],
) -> anyhow::Result<(ConfigChoice, Option<String>)> {
    let given = args.resolve()?;
    if args.raceline.profile.is_some() || args.config.is_some() || args.raceline.vehicle.is_some() {
        let recorded = dirs.iter().any(|d| d.join(SETTINGS_FILE).is_file());
        let note = recorded.then(|| {
            format!(
                "--profile / --config / --vehicle given: the settings recorded in {SETTINGS_FILE} are not used"
            )
        });
        return Ok((ConfigChoice::from(given), note));
    }
    Ok((
        ConfigChoice::Recorded(Overrides {
            profile: None,
            free_rule: args.free_rule,
            safety_width: args.raceline.safety_width,
            safety_width_sp: args.raceline.safety_width_sp,
        }),
        None,
    ))
}

/// At most this many moved sector boundaries are listed one per line.
const MOVES_LISTED: usize = 10;

/// Indented lines naming the sector boundaries that moved more than a waypoint spacing.
pub fn move_lines(moves: &[(String, BoundaryMove)]) -> Vec<String> {
    let mut out: Vec<String> = moves
        .iter()
        .take(MOVES_LISTED)
        .map(|(file, m)| {
            format!(
                "      {file}: the end of {} moved {:.2} m to the nearest point of the new line (index {} -> {})",
                m.sector, m.moved_m, m.old_index, m.new_index
            )
        })
        .collect();
    if moves.len() > MOVES_LISTED {
        out.push(format!(
            "      ... and {} more sector boundaries moved more than a waypoint spacing",
            moves.len() - MOVES_LISTED
        ));
    }
    out
}

/// Indented lines naming what a write into an existing folder did (none for a new folder).
pub fn written_lines(w: &Written) -> Vec<String> {
    let mut out = Vec::new();
    if !w.replaced.is_empty() {
        out.push(format!("      replaced: {}", w.replaced.join(", ")));
    }
    for (file, to) in &w.backed_up {
        out.push(format!(
            "      {file} was edited since mapzoo wrote it (or is the map it was built from): kept as {to}"
        ));
    }
    if !w.kept.is_empty() {
        out.push(format!("      kept (not mapzoo's): {}", w.kept.join(", ")));
    }
    for c in &w.cleaned {
        out.push(format!(
            "      removed the staging folder of an interrupted run: {}",
            c.display()
        ));
    }
    out
}
