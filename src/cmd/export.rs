//! `mapzoo export SET... --to racetracks|tum --out DIR`: sets in another consumer's
//! layout (f1tenth_racetracks / f1tenth_gym, TUM), each as DIR/<T>/. The files are made by
//! `mapzoo_format::export_set`; this maps arguments and prints.

use std::path::PathBuf;
use std::process::ExitCode;

use mapzoo_format::{export_set, ExportFormat, FormatError, WritePolicy};

use super::common::cli_message;

/// Arguments of `mapzoo export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Set folders (MapZoo sets or Race Stack map folders, ROS 1 or ROS 2).
    #[arg(required = true, value_name = "SET")]
    pub sets: Vec<PathBuf>,
    /// Layout: racetracks (f1tenth_racetracks, f1tenth_gym's maps/) or tum
    /// (global_racetrajectory_optimization's input track and output trajectories).
    #[arg(long, value_name = "racetracks|tum")]
    pub to: ExportFormat,
    /// Output folder; each set goes to DIR/<name>/.
    #[arg(long, short, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace existing output folders.
    #[arg(long)]
    pub force: bool,
}

/// Exports every set; exit 1 if any failed.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut failed = 0;
    for dir in &args.sets {
        let done = export_set(dir, args.to).and_then(|e| {
            e.write(&args.out, WritePolicy::from(args.force))
                .map(|w| (e, w))
        });
        match done {
            Ok((e, w)) => {
                let names: Vec<&str> = e.files.iter().map(|(n, _)| n.as_str()).collect();
                println!(
                    "ok    {}: {} -> {} ({})",
                    e.track,
                    args.to.name(),
                    w.dir.display(),
                    names.join(", ")
                );
            }
            Err(FormatError::Exists { path }) => {
                failed += 1;
                eprintln!(
                    "FAIL  {}: {} exists; pass --force to replace it",
                    dir.display(),
                    path.display()
                );
            }
            Err(e) => {
                failed += 1;
                eprintln!("FAIL  {}", cli_message(&e));
            }
        }
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
