//! `mapzoo dataset build|merge`: many tracks, generated or from a folder of maps, built
//! into one dataset folder with an index (issue 22). The logic is the pipeline's
//! (`mapzoo_pipeline::build_shard`, `merge`); this module parses and prints.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use mapzoo_pipeline::{
    build_shard, generated_tracks, map_tracks, merge, write_index, IndexRow, Outcome, Shard,
};

use super::common::{note_jobs, ConfigArgs, LineArgs};
use super::generate::SynthArgs;

/// Arguments of `mapzoo dataset`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: DatasetCommand,
}

/// The dataset subcommands.
#[derive(clap::Subcommand)]
pub enum DatasetCommand {
    /// Generate N tracks (or take a folder of maps) and build each into DIR/sets/<name>/,
    /// writing DIR/index.csv and DIR/index.jsonl; a rerun skips every complete set.
    Build(Box<BuildArgs>),
    /// Join the shard indexes DIR/index-K-of-N.* into DIR/index.csv and DIR/index.jsonl.
    Merge(MergeArgs),
}

/// Arguments of `mapzoo dataset build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// The dataset folder (created if missing): maps/, sets/, rows/ and the index.
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Generate N tracks synth<SEED+i> (needs --seed).
    #[arg(long, value_name = "N", requires = "seed", conflicts_with = "maps")]
    pub count: Option<usize>,
    /// The first seed of the generated tracks.
    #[arg(long, conflicts_with = "maps")]
    pub seed: Option<u64>,
    /// Build the maps of this folder (every map YAML in it and one folder level down).
    #[arg(long, value_name = "FOLDER")]
    pub maps: Option<PathBuf>,
    /// Build only shard K of N (the tracks i with i % N = K-1) and write index-K-of-N.csv/jsonl;
    /// N processes with K = 1 … N build disjoint parts (`dataset merge` joins their indexes).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Parallel tracks (0 = one per core; more than the cores is lowered to the cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    #[command(flatten)]
    pub synth: SynthArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Arguments of `mapzoo dataset merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The dataset folder the shards were built into.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Runs a dataset subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        DatasetCommand::Build(a) => build(*a),
        DatasetCommand::Merge(a) => {
            let rows = merge(&a.dir)?;
            let failed = rows.iter().filter(|r| !r.ok()).count();
            println!(
                "{} rows ({} ok, {failed} failed) -> {}",
                rows.len(),
                rows.len() - failed,
                a.dir.join("index.csv").display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn build(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let mut config = args.config.resolve()?;
    args.lines.apply(&mut config)?;
    let tracks = match (&args.maps, args.count, args.seed) {
        (Some(folder), _, _) => map_tracks(folder)?,
        (None, Some(count), Some(seed)) => {
            generated_tracks(&args.synth.options(seed), seed, count)?
        }
        _ => {
            bail!("give --count N --seed S (generated tracks) or --maps FOLDER (a folder of maps)")
        }
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create the folder", args.out.display()))?;
    note_jobs(args.jobs);
    let total = (0..tracks.len()).filter(|&i| shard.holds(i)).count();
    let progress = RunProgress::new(total);
    let rows = build_shard(
        &args.out,
        &tracks,
        shard,
        &config,
        args.jobs,
        |row, outcome| progress.done(row, outcome),
    );
    progress.finish();
    let rows: Vec<IndexRow> = rows.into_iter().map(|(r, _)| r).collect();
    let [csv, jsonl] = write_index(&args.out, &shard.index_stem(), &rows)?;
    let counts = progress.counts();
    println!(
        "{} tracks: {} built, {} already complete, {} failed -> {}, {}",
        rows.len(),
        counts[0],
        counts[1],
        counts[2],
        csv.display(),
        jsonl.display()
    );
    let laps: Vec<f64> = rows.iter().filter_map(|r| r.iqp_lap_s).collect();
    if !laps.is_empty() {
        let q = super::generate::quantiles(laps);
        println!(
            "IQP lap s: min {:.3}, median {:.3}, max {:.3}",
            q[0], q[2], q[4]
        );
    }
    Ok(if counts[2] > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Progress of a long run: an indicatif bar with rate and ETA on a terminal, else a plain
/// line every 10 s (and at the end) with the count, rate and ETA; failures are always named.
struct RunProgress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    total: usize,
    /// built, skipped, failed; and when the last plain line was printed
    state: Mutex<([usize; 3], Instant)>,
}

impl RunProgress {
    fn new(total: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} {per_sec} eta {eta} {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        let now = Instant::now();
        RunProgress {
            bar,
            start: now,
            total,
            state: Mutex::new(([0; 3], now)),
        }
    }

    fn done(&self, row: &IndexRow, outcome: Outcome) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let slot = match outcome {
            Outcome::Built => 0,
            Outcome::Skipped => 1,
            Outcome::Failed => 2,
        };
        state.0[slot] += 1;
        let failure = (outcome == Outcome::Failed).then(|| {
            format!(
                "FAIL  {}: {} ({})",
                row.name,
                row.message.as_deref().unwrap_or(""),
                row.error.as_deref().unwrap_or("")
            )
        });
        match &self.bar {
            Some(bar) => {
                if let Some(f) = failure {
                    bar.println(f);
                }
                bar.inc(1);
            }
            None => {
                if let Some(f) = failure {
                    eprintln!("{f}");
                }
                let n: usize = state.0.iter().sum();
                if state.1.elapsed() >= Duration::from_secs(10) || n == self.total {
                    state.1 = Instant::now();
                    let secs = self.start.elapsed().as_secs_f64();
                    let rate = n as f64 / secs.max(1e-9);
                    let eta = (self.total - n) as f64 / rate.max(1e-9);
                    eprintln!(
                        "{n}/{} tracks ({} built, {} complete before, {} failed), {rate:.2} tracks/s, eta {eta:.0} s",
                        self.total, state.0[0], state.0[1], state.0[2]
                    );
                }
            }
        }
    }

    fn counts(&self) -> [usize; 3] {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
