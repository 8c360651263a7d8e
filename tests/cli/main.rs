//! The `mapzoo` binary as a user runs it: one test binary, one module per command.

mod build;
mod centerline;
mod generate;
mod raceline;
mod render;
mod validate;
