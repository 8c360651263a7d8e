//! The `mapzoo` binary as a user runs it: one test binary, one module per
//! command, the helpers they share (`support`) and one test per fixed bug
//! (`regression`).

mod build;
mod centerline;
mod dataset;
mod generate;
mod inputs;
mod interop;
mod map_image;
mod no_panic;
mod raceline;
mod regression;
mod render;
mod sets;
mod slam;
mod support;
mod validate;
mod view;
