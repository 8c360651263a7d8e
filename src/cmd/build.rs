//! `mapzoo build MAP.yaml... --out DIR`: maps → complete MapZoo sets.

use std::path::PathBuf;
use std::process::ExitCode;

use mapzoo_extract::StartPose;
use mapzoo_format::{Flavor, WritePolicy};
use mapzoo_pipeline::{
    build_for_writing, run_batch, update_set_from, write_set, BuildRecord, BuildRequest,
    FailureRecord, PriorLine,
};
use mapzoo_raceline::LineKind;

use super::common::{
    cli_message, note_jobs, ok_record, parse_start, table_row, ConfigArgs, LineArgs, LineProgress,
    Progress,
};
use super::setfiles::{move_lines, written_lines};

/// Arguments of `mapzoo build`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Map-server YAML files.
    #[arg(required = true, value_name = "MAP.yaml")]
    pub maps: Vec<PathBuf>,
    /// Output folder; each track goes to DIR/<name>/.
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Track name (only with one map); default: the YAML's file stem, less `_map` (`Austin_map.yaml`: Austin) unless its folder has the whole stem.
    #[arg(long)]
    pub name: Option<String>,
    /// Start pose x,y,yaw (metres, radians): waypoint 0 and driving direction.
    #[arg(long, value_parser = parse_start, allow_hyphen_values = true, value_name = "X,Y,YAW")]
    pub start: Option<StartPose>,
    /// Drive the loop the other way round.
    #[arg(long)]
    pub reverse: bool,
    /// Update existing output folders: the set's files are replaced (one edited since mapzoo
    /// wrote it is kept as <name>.bak), other files stay, and hand-tuned sector files are kept,
    /// each boundary moved to the same place on the new line.
    #[arg(long)]
    pub force: bool,
    /// With --force: reset the sector files of an existing folder to the defaults.
    #[arg(long, requires = "force")]
    pub force_sectors: bool,
    /// Parallel tracks (0 = one per core; more than the cores is lowered to the cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Print one JSON record per track on stdout, in input order: a built track's figures
    /// ("status": "ok"), or a failed track's error ("status": "failed", "error", "message",
    /// "file", and "x", "y", "row" where known).
    #[arg(long)]
    pub json: bool,
    /// Print per-stage timings.
    #[arg(long, short)]
    pub verbose: bool,
    /// Race Stack file flavour: ros1 (the MapZoo dataset's) or ros2 (the ROS 2 Race Stack's).
    #[arg(long, default_value = "ros1", value_name = "ros1|ros2")]
    pub flavor: Flavor,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Builds every map; exit 1 if any failed.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.name.is_some() && args.maps.len() > 1 {
        anyhow::bail!(
            "--name names one track; it cannot be used with {} maps",
            args.maps.len()
        );
    }
    let mut config = args.config.resolve()?;
    args.lines.apply(&mut config)?;
    let requests: Vec<BuildRequest> = args
        .maps
        .iter()
        .map(|yaml| BuildRequest {
            yaml: yaml.clone(),
            name: args.name.clone(),
            start: args.start,
            reverse: args.reverse,
        })
        .collect();
    let mut seen = std::collections::BTreeMap::new();
    for req in &requests {
        if let Some(first) = seen.insert(req.track_name(), &req.yaml) {
            anyhow::bail!(
                "{} and {} both build track {:?} into the same folder; build them into different --out folders",
                first.display(),
                req.yaml.display(),
                req.track_name()
            );
        }
    }
    note_jobs(args.jobs);
    let progress = Progress::new(requests.len(), args.json);
    let results = run_batch(
        &requests,
        args.jobs,
        |req| {
            let t = std::time::Instant::now();
            let line_progress = LineProgress::new(&req.track_name(), requests.len() > 1);
            // the folder's line is read first: its old JSON is gone before the new one is made
            let prior = match args.force {
                true => Some(PriorLine::read(
                    &args.out,
                    &req.track_name(),
                    args.force_sectors,
                )?),
                false => None,
            };
            let mut set = line_progress.run(|| build_for_writing(req, &config, args.flavor))?;
            for note in &set.map.notes {
                eprintln!("note: {note}");
            }
            for note in &set.extraction.notes {
                eprintln!("note: {note}");
            }
            let (dir, notes) = if let Some(prior) = prior {
                let up = update_set_from(&mut set, &args.out, args.force_sectors, prior)?;
                let mut notes = move_lines(&up.sectors.moves);
                notes.extend(written_lines(&up.written));
                (up.written.dir, notes)
            } else {
                let dir = write_set(&set, &args.out, WritePolicy::Create)?;
                (dir, Vec::new())
            };
            let mut record = set.record();
            record.seconds = t.elapsed().as_secs_f64();
            Ok((dir, record, notes))
        },
        |_, r| match r {
            Ok((dir, rec, notes)) => {
                let mut laps: Vec<String> = rec
                    .lines
                    .iter()
                    .map(|l| format!("{} {:.4} s", l.kind.label(), l.lap_s))
                    .collect();
                if rec.racing != LineKind::RACING {
                    laps.push(format!("driving the {} line", rec.racing.label()));
                }
                let mut text = format!(
                    "ok    {}: {} -> {}",
                    rec.track,
                    laps.join(", "),
                    dir.display()
                );
                for n in notes {
                    text.push('\n');
                    text.push_str(n);
                }
                progress.done(&text)
            }
            Err(e) => progress.done(&format!("FAIL  {}", cli_message(e))),
        },
    );
    progress.finish();
    let mut failed = 0;
    let mut ok: Vec<&BuildRecord> = Vec::new();
    for r in &results {
        match r {
            Ok((_, rec, _)) => ok.push(rec),
            Err(_) => failed += 1,
        }
    }
    if args.json {
        for (req, r) in requests.iter().zip(&results) {
            println!("{}", json_record(req, r)?);
        }
    } else {
        print_summary(&ok, failed, args.verbose);
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `--json` line of one track: a built track's record (the `raceline` keys, one
/// `<stage>_s` key per stage, then "status": "ok"), or a failed track's [`FailureRecord`].
fn json_record(
    req: &BuildRequest,
    r: &Result<(PathBuf, BuildRecord, Vec<String>), mapzoo_pipeline::PipelineError>,
) -> anyhow::Result<String> {
    Ok(match r {
        Ok((_, rec, _)) => ok_record(serde_json::to_value(rec)?),
        Err(e) => serde_json::to_string(&FailureRecord::new(&req.track_name(), e, cli_message(e)))?,
    })
}

fn print_summary(ok: &[&BuildRecord], failed: usize, verbose: bool) {
    if ok.is_empty() {
        println!("0 built, {failed} failed");
        return;
    }
    const WIDTHS: [usize; 9] = [20, 6, 6, 6, 10, 9, 10, 9, 8];
    let header = [
        "track",
        "cent",
        "iqp",
        "sp",
        "IQP lap s",
        "IQP vmax",
        "SP lap s",
        "SP vmax",
        "seconds",
    ];
    println!("{}", table_row(&WIDTHS, &header.map(String::from), None));
    for r in ok {
        let (iqp, sp) = (&r[LineKind::Iqp], &r[LineKind::Sp]);
        let cells = [
            r.track.clone(),
            r.centerline_points.to_string(),
            iqp.points.to_string(),
            sp.points.to_string(),
            format!("{:.4}", iqp.lap_s),
            format!("{:.4}", iqp.vmax),
            format!("{:.4}", sp.lap_s),
            format!("{:.4}", sp.vmax),
            format!("{:.3}", r.seconds),
        ];
        println!("{}", table_row(&WIDTHS, &cells, None));
        if verbose {
            for (stage, s) in &r.stages {
                println!("    {stage:<18} {s:>8.4} s");
            }
        }
    }
    if failed > 0 {
        println!("{} built, {failed} failed", ok.len());
    }
}
