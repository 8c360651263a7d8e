//! Integration tests of mapzoo-render, one binary, modules mirroring `src/`:
//! [`picture`] (one track, checked pixel by pixel) and [`gallery`]. The
//! generated track they draw is [`support`], kept at `tests/support/mod.rs`
//! because the CLI tests include it from there too.

mod gallery;
mod picture;
#[path = "../support/mod.rs"]
mod support;
