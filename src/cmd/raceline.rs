//! `mapzoo raceline INPUT --out DIR`: stages 7–11 (DESIGN §3) on an existing
//! centerline: the IQP and SP racing lines, their velocity profiles and lap
//! times, written as waypoint CSVs and a Race Stack global_waypoints.json.
//!
//! INPUT is a MapZoo centerline CSV, a TUM centerline CSV
//! (`x_m, y_m, w_tr_right_m, w_tr_left_m`) or a global_waypoints.json (its
//! centerline_waypoints). Walls come from the JSON's trackbounds_markers, or are
//! rebuilt as centerline ± d_right/d_left along the normals. Reading the input
//! and writing the set are library calls (`mapzoo_pipeline::read_centerline_track`,
//! `mapzoo_format::set`); this maps arguments and prints.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use mapzoo_format::set::{TrackFiles, WritePolicy};
use mapzoo_format::Waypoint;
use mapzoo_pipeline::{line_files, read_centerline_track};
use mapzoo_raceline::{RacelineParams, RacelineResult};

use super::common::ConfigArgs;

/// Arguments of `mapzoo raceline`.
#[derive(clap::Args)]
pub struct Args {
    /// MapZoo centerline CSV, TUM centerline CSV, or global_waypoints.json.
    pub input: PathBuf,
    /// Output folder: created with all files at once if new; if it exists, its other files are
    /// kept and files of the same names are replaced together (all written first, then swapped in).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print one JSON record with the figures instead of a text summary.
    #[arg(long)]
    pub json: bool,
    /// Profile, TOML file (its [raceline] table is used; the whole file is checked as
    /// `build --config` checks it) and the safety widths.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// The racing-line parameters: the profile, the TOML file and the safety widths, resolved and
/// validated as `build` does.
fn params(args: &Args) -> anyhow::Result<RacelineParams> {
    if args.config.free_rule.is_some() {
        bail!("--free-rule has no effect on `raceline`, which reads no map; leave it out");
    }
    Ok(args.config.resolve()?.raceline)
}

/// The output set: the centerline, the IQP and SP lines as CSVs and their global_waypoints.json.
fn output_files(track: &str, centerline: &[Waypoint], result: &RacelineResult) -> TrackFiles {
    line_files(track, centerline, result)
}

/// Runs stages 7–11 and writes the files; exit 0, or 2 (via `Err`) on bad input or an infeasible track.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let params = params(&args)?;
    let input = read_centerline_track(&args.input)?;
    let start = Instant::now();
    let result = mapzoo_raceline::compute(&input.centerline, input.walls.as_ref(), &params)
        .with_context(|| format!("{}", args.input.display()))?;
    let seconds = start.elapsed().as_secs_f64();

    // Other files of an existing --out folder stay; the four are swapped in together.
    let written = output_files(&input.track, &input.centerline, &result)
        .write(&args.out, WritePolicy::Merge)?;
    for line in super::setfiles::written_lines(&written) {
        eprintln!("{line}");
    }
    for w in &result.warnings {
        eprintln!("warning: {}: {w}", args.input.display());
    }
    let record = result.record(&input.track, input.centerline.len(), seconds);
    if args.json {
        println!("{}", serde_json::to_string(&record)?);
    } else {
        let lines: Vec<String> = record
            .lines
            .iter()
            .map(|l| {
                format!(
                    "{} {:.4} s, {:.4} m/s, {} points, {:.2} m",
                    l.kind.label(),
                    l.lap_s,
                    l.vmax,
                    l.points,
                    l.length_m
                )
            })
            .collect();
        println!(
            "{}: {} ({:.3} s) -> {}",
            input.track,
            lines.join("; "),
            seconds,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
