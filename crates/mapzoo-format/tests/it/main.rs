//! The integration tests of mapzoo-format, one module per source module:
//! the readers and writers against the published reference files of
//! ../shared/data (every file read and written again comes back unchanged),
//! the error kinds a caller matches on, and no input making a reader panic.

mod error;
mod flavor;
mod global;
mod map;
mod map_bounds;
mod map_image;
mod map_ros;
mod nesting;
mod no_panic;
mod sectors;
mod support;
mod tum;
mod vehicle;
mod waypoint;
