//! `mapzoo validate DIR...`: the dataset's checklist, one line per check.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `mapzoo validate`.
#[derive(clap::Args)]
pub struct Args {
    /// Track folders (MapZoo or Race Stack layout).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Print one JSON record per folder instead of text lines.
    #[arg(long)]
    pub json: bool,
}

/// Runs the checks; exit 0 when all pass, 1 when any fails.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let _ = (&args.dirs, args.json);
    anyhow::bail!("validate: not implemented yet")
}
