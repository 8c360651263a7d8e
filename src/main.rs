//! The `mapzoo` command line: one subcommand per job, exit codes 0 (ok),
//! 1 (a check or a track failed), 2 (usage or input error).

mod cmd;

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
    /// Check MapZoo or Race Stack track folders against the dataset's checklist.
    Validate(cmd::validate::Args),
    /// Generate a random synthetic track map (PNG + map-server YAML) from a seed.
    Generate(cmd::generate::Args),
    /// Draw a picture of a track set, or a gallery of many.
    Render(cmd::render::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => cmd::validate::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Render(args) => cmd::render::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::from(2)
        }
    }
}
