//! Every file of a MapZoo track set, read and written exactly (DESIGN §2).
//!
//! No math lives here beyond the pixel ↔ world transform: the crate knows
//! the formats, their field names and their quirks, and reports bad input
//! with the file and the field, line or pixel that is wrong.

pub mod error;
pub mod map;
pub mod testdata;
pub mod waypoint;

pub use error::FormatError;
pub use map::{FreeRule, MapMeta, OccupancyMap};
pub use waypoint::Waypoint;
