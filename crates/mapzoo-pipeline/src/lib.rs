//! The whole pipeline (DESIGN §3): one validated [`Config`], the stages wired
//! map → file set ([`build()`], [`build_map`]), regeneration of an edited set
//! ([`regen()`]), the comparison of a rebuild with a published set
//! ([`check()`]), the racing lines of an existing centerline
//! ([`read_centerline_track`], [`line_files`]), atomic output ([`write_set`])
//! and batches over many tracks ([`run_batch`]).
//!
//! The modules are private; the API is here at the root.
//!
//! ```
//! use mapzoo_format::FreeRule;
//! use mapzoo_pipeline::{build, build_map, write_set, BuildRequest, Config, LoadedMap};
//! use mapzoo_raceline::LineKind;
//! use mapzoo_synth::{generate, CenterlineSpec, SynthOptions, WidthSpec};
//!
//! // A generated 45 m track, 3 m wide, written as a map (PNG + YAML) to a temporary folder.
//! let synth = generate(&SynthOptions {
//!     seed: 11,
//!     centerline: CenterlineSpec::Random { lap_length: Some(45.0) },
//!     width: WidthSpec::Constant(3.0),
//!     ..SynthOptions::default()
//! })?;
//! let tmp = tempfile::tempdir()?;
//! let [_, yaml] = synth.write(tmp.path(), "gen")?;
//!
//! // Stages 1–11 from the map file, then the set's files, written atomically.
//! let config = Config::default();
//! let req = BuildRequest { yaml, name: Some("t".into()), start: None, reverse: false };
//! let set = build(&req, &config)?;
//! assert!(set.lines[LineKind::Iqp].lap_time_s > 0.0);
//! let dir = write_set(&set, tmp.path(), false)?;
//! assert!(dir.join("t_centerline.csv").is_file() && dir.join("global_waypoints.json").is_file());
//!
//! // The same from a map in memory (no file read): the same centerline and lines.
//! let loaded = LoadedMap {
//!     meta: synth.meta.clone(),
//!     png: Vec::new(),
//!     map: synth.occupancy(config.map.free_rule),
//! };
//! let in_memory = build_map(&req, loaded, &config)?;
//! assert_eq!(in_memory.extraction.centerline, set.extraction.centerline);
//! assert_eq!(in_memory.lines[LineKind::Sp], set.lines[LineKind::Sp]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod batch;
mod build;
mod check;
mod config;
mod dataset;
mod error;
mod failure;
mod from_centerline;
mod infer;
mod input_check;
pub use input_check::{check_start, MAX_START_YAW};
mod regen;
mod request;
mod settings;
mod trajectory;
mod update;
mod vehicle;

pub use batch::{run_batch, run_caught, Jobs};
pub use build::{
    build, build_for_writing, build_map, compute_lines, write_set, write_set_as, BuildRecord,
    LoadedMap, TrackSet, MAX_TRACK_NAME_BYTES,
};
pub use check::{
    check, check_rebuilt, fmt_pct, markdown, read_published_csv, CheckOptions, CheckReport,
    Explanation, Figures, LineDistance, PublishedRow, Rebuilt,
};
pub use config::{
    read_config_text, Config, LineConfig, MapConfig, Overrides, Profile, SectorDefaults,
    VehicleOrigin, MAX_SECONDS,
};
pub use dataset::{
    build_key, build_shard, build_track, complete_row, generated_name, generated_tracks, index_of,
    index_texts, map_tracks, merge, read_row, row_path, sweep, write_index, DatasetTrack, IndexRow,
    Outcome, Shard, TrackSource, CSV_COLUMNS, MAPS_DIR, ROWS_DIR, SETS_DIR,
};
pub use error::PipelineError;
pub use failure::{FailureRecord, Location};
pub use from_centerline::{line_files, read_centerline_track, CenterlineTrack};
pub use infer::{Inference, StartChoice, Trial, TrialSettings, EXACT_S};
pub use regen::{regen, regen_as, regen_inferred, RegenReport};
pub use request::{start_pose_of, BuildRequest};
pub use settings::{read_settings, BuildSettings, ConfigChoice, SettingsSource, EXPLICIT};
pub use trajectory::{read_trajectory, trajectory_lap, TrajectoryLap};
pub use update::{update_set, update_set_from, PriorLine, SectorsKept, UpdatedSet};
pub use vehicle::{apply_vehicle, apply_vehicle_dir};
