//! The `mapzoo` command line: one subcommand per job, exit codes 0 (ok),
//! 1 (a check or a track failed), 2 (usage or input error).

mod cmd;
mod interrupt;

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
    /// Draw a picture of a track set, or a gallery of many.
    Render(cmd::render::Args),
    /// Racing lines (IQP, SP), velocity profiles and lap times from an existing centerline.
    Raceline(cmd::raceline::Args),
    /// Extract a map's centerline (with d_right, d_left, psi, kappa) into a waypoint CSV.
    Centerline(cmd::centerline::Args),
}

fn main() -> std::process::ExitCode {
    interrupt::install();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => cmd::build::run(args),
        Command::Regen(args) => cmd::regen::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Demo(args) => cmd::demo::run(args),
        Command::Validate(args) => cmd::validate::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Render(args) => cmd::render::run(args),
        Command::Raceline(args) => cmd::raceline::run(args),
        Command::Centerline(args) => cmd::centerline::run(args),
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
