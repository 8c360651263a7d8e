//! The track-set folder (DESIGN §2): one owner of its file names, of the
//! discovery of a folder, of the typed files in memory and of the one staged
//! atomic writer every command uses.
//!
//! - [`layout`]: the file names of a MapZoo set and of a Race Stack map
//!   folder, and which [`Layout`] a folder has.
//! - [`SetFolder`]: what a folder holds (listed once), and the reading rules
//!   every command shares (JSON first, then the CSVs).
//! - [`TrackFiles`]: the files of a set in memory, typed, and their encoding
//!   to bytes; [`EncodedAhead`]: files encoded before the set is complete.
//! - [`StagedSet`] and [`WritePolicy`]: files are staged in a hidden folder
//!   and reach the target together (create, replace or merge).
//! - [`CenterlineInput`]: the one file a racing-line run starts from (MapZoo
//!   CSV, TUM CSV or global_waypoints.json).
//!
//! A new file flavour (the ROS 2 JSON and sector files) is a new [`Layout`]
//! told apart in [`SetFolder::layout`] and encoded in [`TrackFiles::encode`];
//! a new export format is one more field of [`TrackFiles`] with its name in
//! [`layout`].

mod ahead;
mod checksum;
mod files;
mod folder;
mod input;
pub mod layout;
mod record;
pub(crate) mod staging;
mod writer;

pub use ahead::EncodedAhead;
pub use checksum::{content_hash, hash_matches};
pub use files::{CentMap, MapFile, TrackFiles};
pub use folder::{folder_track_name, MapYaml, SetFolder};
pub use input::{input_track_name, CenterlineInput, InputFormat};
pub use layout::{Layout, SetNames};
pub use record::{SetRecord, SETTINGS_FILE};
pub use staging::{interrupt_cleanup, sweep_stale, OWNER_MARKER};
pub use writer::{StagedSet, WritePolicy, Written};
