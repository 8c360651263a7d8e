//! `mapzoo validate DIR...`: the dataset's checklist, one line per check
//! (the checks live in `mapzoo_format::validate_dir`; this only prints).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use mapzoo_format::{validate_dir, CheckStatus as Status, Layout};

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

/// Runs the checks; exit 0 when all pass, 1 when any fails, 2 (via `Err`) when a folder does not exist.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for dir in &args.dirs {
        if !dir.is_dir() {
            bail!(
                "{}: not a folder; give one or more track folders (MapZoo or Race Stack layout)",
                dir.display()
            );
        }
    }
    let mut all_ok = true;
    let mut out = std::io::stdout().lock();
    for dir in &args.dirs {
        let report = validate_dir(dir);
        all_ok &= report.ok;
        let text = if args.json {
            format!("{}\n", serde_json::to_string(&report)?)
        } else {
            let layout = match report.layout {
                Layout::MapZoo => "MapZoo track set",
                Layout::RaceStack => "Race Stack map folder",
            };
            let mut t = format!("{} ({layout})\n", dir.display());
            for check in &report.checks {
                t.push_str(&format!("  {}\n", check.line()));
            }
            let count = |s: Status| report.checks.iter().filter(|c| c.status == s).count();
            let (pass, fail, skip) = (
                count(Status::Pass),
                count(Status::Fail),
                count(Status::Skip),
            );
            let verdict = if report.ok { "ok" } else { "FAILED" };
            t.push_str(&format!(
                "{}: {verdict} ({pass} pass, {fail} FAIL, {skip} skip)\n",
                dir.display()
            ));
            t
        };
        // A closed pipe (`| head`) ends the output quietly; the exit code still tells.
        if let Err(e) = out.write_all(text.as_bytes()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                break;
            }
            return Err(e.into());
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
