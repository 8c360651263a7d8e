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

use anyhow::bail;
use mapzoo_format::set::layout::RACING_LINE;
use mapzoo_format::set::{TrackFiles, WritePolicy};
use mapzoo_format::{file_flavor, Flavor, Waypoint};
use mapzoo_pipeline::{
    compute_lines, line_files, read_centerline_track, read_trajectory, CenterlineTrack, Config,
    FailureRecord, PipelineError, TrajectoryLap,
};
use mapzoo_raceline::{LineKind, RacelineResult};

use super::common::{cli_message, ok_record, LineArgs, LineConfigArgs, LineProgress};

/// Arguments of `mapzoo raceline`.
#[derive(clap::Args)]
pub struct Args {
    /// MapZoo centerline CSV, TUM centerline CSV, or global_waypoints.json.
    pub input: PathBuf,
    /// Output folder: created with all files at once if new; if it exists, its other files are
    /// kept and files of the same names are replaced together (all written first, then swapped in).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print one JSON record with the figures instead of a text summary (for a failed track:
    /// "status": "failed", "error", "message", "file", and "x", "y", "row" where known).
    #[arg(long)]
    pub json: bool,
    /// Race Stack file flavour of the output (ros1, ros2); default: the input JSON's, else ros1.
    #[arg(long, value_name = "ros1|ros2")]
    pub flavor: Option<Flavor>,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub config: LineConfigArgs,
}

/// The configuration: the profile, the TOML file, the safety widths and the lines, resolved
/// and validated as `build` does.
fn config(args: &Args) -> anyhow::Result<Config> {
    let mut config = args.config.resolve("raceline")?;
    args.lines.apply(&mut config)?;
    Ok(config)
}

/// The output set: the centerline, the IQP and SP lines as CSVs and their global_waypoints.json.
fn output_files(track: &str, centerline: &[Waypoint], result: &RacelineResult) -> TrackFiles {
    line_files(track, centerline, result)
}

/// Reads the input and computes its racing lines.
fn lines(args: &Args, config: &Config) -> Result<(CenterlineTrack, RacelineResult), PipelineError> {
    let input = read_centerline_track(&args.input)?;
    let result =
        compute_lines(&input.centerline, input.walls.as_ref(), config).map_err(|source| {
            PipelineError::Optimize {
                path: args.input.clone(),
                source,
            }
        })?;
    Ok((input, result))
}

/// Runs stages 7–11 and writes the files; exit 0, or 2 (via `Err`) on bad input or an infeasible track.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = config(&args)?;
    if let Some(lap) = read_trajectory(&args.input, &config.raceline)? {
        return trajectory(&args, lap);
    }
    let start = Instant::now();
    let track = mapzoo_format::set::input_track_name(&args.input);
    let (input, result) = match LineProgress::new(&track, false).run(|| lines(&args, &config)) {
        Ok(done) => done,
        Err(e) => {
            if args.json {
                let track = mapzoo_format::set::input_track_name(&args.input);
                let record = FailureRecord::new(&track, &e, cli_message(&e));
                println!("{}", serde_json::to_string(&record)?);
            }
            return Err(e.into());
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    for note in &input.notes {
        eprintln!("note: {}: {note}", args.input.display());
    }

    let flavor = match args.flavor {
        Some(f) => f,
        None => file_flavor(&args.input)?.unwrap_or_default(),
    };
    let mut files = output_files(&input.track, &input.centerline, &result);
    files.set_flavor(flavor);
    // Other files of an existing --out folder stay; the four are swapped in together.
    let written = files.write(&args.out, WritePolicy::Merge)?;
    for line in super::setfiles::written_lines(&written) {
        eprintln!("{line}");
    }
    for w in &result.warnings {
        eprintln!("warning: {}: {w}", args.input.display());
    }
    let record = result.record(&input.track, input.centerline.len(), seconds);
    if args.json {
        println!("{}", ok_record(serde_json::to_value(&record)?));
    } else {
        let mut lines: Vec<String> = record
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
        if record.racing != LineKind::RACING {
            lines.push(format!("driving the {} line", record.racing.label()));
        }
        println!(
            "{} ({flavor}): {} ({:.3} s) -> {}",
            input.track,
            lines.join("; "),
            seconds,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A finished trajectory (TUM, f1tenth_racetracks): its lap with the configured vehicle,
/// written as the set's racing-line CSV.
fn trajectory(args: &Args, lap: TrajectoryLap) -> anyhow::Result<ExitCode> {
    if args.flavor.is_some() {
        bail!("--flavor has no effect on a trajectory input, which gives only a racing-line CSV; leave it out");
    }
    if args.lines.lines.is_some() || args.lines.racing_line.is_some() {
        bail!("--lines and --racing-line have no effect on a trajectory input, which is timed as it is; leave them out");
    }
    let mut files = TrackFiles::new(&lap.track);
    files.lines = vec![(RACING_LINE.to_string(), lap.waypoints.clone())];
    files.write(&args.out, WritePolicy::Merge)?;
    let n = lap.waypoints.len();
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "track": lap.track,
                "input": "trajectory",
                "heading": format!("{:?}", lap.heading),
                "lap_s": lap.lap_time_s,
                "vmax": lap.v_max,
                "points": n,
                "length_m": lap.length_m,
                "file_lap_s": lap.file_lap_time_s,
            })
        );
    } else {
        println!(
            "{}: trajectory ({:?} heading): lap {:.4} s, {:.4} m/s, {} points, {:.2} m (its own speeds: {:.4} s) -> {}",
            lap.track,
            lap.heading,
            lap.lap_time_s,
            lap.v_max,
            n,
            lap.length_m,
            lap.file_lap_time_s,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
