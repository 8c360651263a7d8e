//! The `mapzoo` command line: one subcommand per job. Exit codes (README,
//! "Exit codes"): 0 everything asked was done; 1 a batch command finished but
//! some of its items failed or differ (`build`, `regen`, `check`, `validate`,
//! `render --gallery`); 2 the command could not do its job (usage, configuration,
//! input or output error, the one track of `centerline` / `raceline` / `render` /
//! `generate`, or an internal error).

mod cmd;
mod interrupt;
mod malloc;

use clap::{Parser, Subcommand};

/// Occupancy-grid race-track maps to the complete MapZoo file set.
#[derive(Parser)]
#[command(name = "mapzoo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the complete MapZoo set of each map into DIR/<name>/.
    Build(cmd::build::Args),
    /// Rebuild sets after a map edit, keeping start, direction and sector files.
    Regen(cmd::regen::Args),
    /// Rebuild published sets from their maps and compare with their published lap times.
    Check(cmd::check::Args),
    /// Generate a built-in example track and build its set.
    Demo(cmd::demo::Args),
    /// Check MapZoo or Race Stack track folders against the dataset's checklist.
    Validate(cmd::validate::Args),
    /// Generate a random synthetic track map (PNG + map-server YAML) from a seed.
    Generate(cmd::generate::Args),
    /// Datasets of many tracks: build (sharded, resumable, indexed) and merge shard indexes.
    Dataset(cmd::dataset::Args),
    /// Draw a picture of a track set, or a gallery of many.
    Render(cmd::render::Args),
    /// Racing lines (IQP, SP), velocity profiles and lap times from an existing centerline.
    Raceline(cmd::raceline::Args),
    /// Extract a map's centerline (with d_right, d_left, psi, kappa) into a waypoint CSV.
    Centerline(cmd::centerline::Args),
    /// Write sets in another consumer's layout: f1tenth_racetracks / f1tenth_gym, or TUM.
    Export(cmd::export::Args),
    /// Write one interactive HTML page of track sets: map, lines, speeds, sectors, linked plots.
    View(cmd::view::Args),
}

fn main() -> std::process::ExitCode {
    malloc::tune();
    // A panic is a bug; a batch catches it as that track's error and goes on. Say so in
    // words (where, and what to report) instead of the runtime's default text.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!("internal error{at}: {what} (a bug in mapzoo; please report it with the input)");
    }));
    run(std::env::args_os())
}

/// The command line on `args` (the program name first). The Python package's `mapzoo`
/// command runs this too: `crates/mapzoo-py` compiles this file into its extension.
pub(crate) fn run<I, T>(args: I) -> std::process::ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    interrupt::install();
    let cli = Cli::parse_from(args);
    let run = std::panic::catch_unwind(|| match cli.command {
        Command::Build(args) => cmd::build::run(args),
        Command::Regen(args) => cmd::regen::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Demo(args) => cmd::demo::run(args),
        Command::Validate(args) => cmd::validate::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Dataset(args) => cmd::dataset::run(args),
        Command::Render(args) => cmd::render::run(args),
        Command::Raceline(args) => cmd::raceline::run(args),
        Command::Centerline(args) => cmd::centerline::run(args),
        Command::Export(args) => cmd::export::run(args),
        Command::View(args) => cmd::view::run(args),
    });
    interrupt::finished();
    // The hook has said what panicked; a panic outside a batch ends the command as an error.
    let Ok(result) = run else {
        return std::process::ExitCode::from(2);
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", message(&err));
            std::process::ExitCode::from(2)
        }
    }
}

/// The error and its causes, each cause only where the message does not already include it.
fn message(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if !text.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
    }
    // Library errors word their remedies in API terms; the command line names its flags.
    cmd::common::flag_words(text, err.as_ref())
}
