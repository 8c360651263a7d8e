//! One module per subcommand; each has `Args` (clap) and `run`.

pub mod build;
pub mod centerline;
pub mod check;
pub mod common;
pub mod dataset;
pub mod demo;
pub mod export;
pub mod generate;
pub mod raceline;
pub mod regen;
pub mod render;
pub mod setfiles;
pub mod validate;
pub mod view;
