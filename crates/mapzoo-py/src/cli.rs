//! The `mapzoo` command of the Python wheel: the binary's `src/main.rs` and its command
//! modules, compiled into the extension, so `pip install` gives the same command as
//! `cargo install` without a second build or a binary to ship.

use std::process::ExitCode;

#[allow(dead_code)]
#[path = "../../../src/main.rs"]
mod main;

/// Runs the command line on `argv` (program name first) and returns its exit code.
pub fn run(argv: Vec<String>) -> i32 {
    let code = main::run(argv);
    (0..=255u8)
        .find(|&c| ExitCode::from(c) == code)
        .map_or(1, i32::from)
}
