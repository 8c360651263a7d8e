//! Every file of a MapZoo track set, read and written exactly (DESIGN §2).
//!
//! No math lives here beyond the pixel ↔ world transform: the crate knows
//! the formats, their field names and their quirks, and reports bad input
//! with the file and the field, line or pixel that is wrong. The folder of a
//! set (file names, discovery, the files in memory, the one staged writer) is
//! owned by [`set`].

#![warn(missing_docs)]

pub mod atomic;
pub mod error;
pub mod flavor;
pub mod global;
pub mod map;
pub mod published;
pub mod pyfmt;
pub mod sectors;
pub mod set;
pub mod testdata;
pub mod tum;
pub mod validate;
pub mod waypoint;

pub use error::FormatError;
pub use flavor::Flavor;
pub use global::GlobalWaypoints;
pub use map::{FreeRule, MapMeta, OccupancyMap};
pub use sectors::{OtSectors, SpeedScaling};
pub use set::{SetFolder, StagedSet, TrackFiles, WritePolicy};
pub use tum::{read_centerline_any, CenterlineFormat};
pub use waypoint::Waypoint;
