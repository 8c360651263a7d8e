//! The whole pipeline (DESIGN §3): one validated [`Config`], the stages wired
//! map → file set ([`build()`]), regeneration of an edited set ([`regen()`]),
//! atomic output and batches over many tracks.

pub mod batch;
pub mod build;
pub mod check;
pub mod config;
pub mod error;
pub mod from_centerline;
pub mod regen;

pub use build::{build, build_map, write_set, BuildRecord, BuildRequest, LoadedMap, TrackSet};
pub use check::{check, CheckOptions, CheckReport};
pub use config::{Config, Overrides, Profile};
pub use error::PipelineError;
pub use regen::{regen, RegenReport};
