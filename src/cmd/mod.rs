//! One module per subcommand; each has `Args` (clap) and `run`.

pub mod generate;
pub mod render;
pub mod validate;
