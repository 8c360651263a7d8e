//! One module per subcommand; each has `Args` (clap) and `run`.

pub mod validate;
