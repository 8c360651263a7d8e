//! Every file of a MapZoo track set, read and written exactly (DESIGN §2).
//!
//! No math lives here beyond the pixel ↔ world transform: the crate knows
//! the formats, their field names and their quirks, and reports bad input
//! with the file and the field, line or pixel that is wrong
//! ([`FormatError`], one kind per problem a caller can match on). The folder
//! of a set (file names, discovery, the files in memory, the one staged
//! writer) is owned by [`set`].
//!
//! The API is flat: every type and reader/writer is at the crate root.
//! [`set`] (the set folder and its file names in [`set::layout`]) and
//! [`global`] (`global_waypoints.json`) are modules of their own.
//!
//! # Read and write a set
//!
//! ```
//! use mapzoo_format::{SetFolder, TrackFiles, Waypoint, WritePolicy};
//!
//! let tmp = tempfile::tempdir()?;
//! let dir = tmp.path().join("oval");
//! let mut files = TrackFiles::new("oval");
//! let line: Vec<Waypoint> = (0..4)
//!     .map(|i| Waypoint { id: i, s_m: 0.25 * i as f64, d_right: 1.0, d_left: 1.0, ..Waypoint::default() })
//!     .collect();
//! files.centerline = Some(line.clone());
//! files.write(&dir, WritePolicy::Create)?; // every file reaches `dir` together
//!
//! let folder = SetFolder::open(&dir)?;
//! assert_eq!(folder.track(), "oval");
//! assert!(folder.has("oval_centerline.csv"));
//! assert_eq!(folder.read_lines()?.centerline_waypoints(), line.as_slice());
//!
//! // `Create` never overwrites; `Replace` and `Merge` say what happens to the old folder.
//! assert!(matches!(
//!     files.write(&dir, WritePolicy::Create),
//!     Err(mapzoo_format::FormatError::Exists { .. })
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Read a map
//!
//! ```
//! use std::path::Path;
//! use mapzoo_format::{FreeRule, MapMeta, OccupancyMap};
//!
//! let yaml = "image: t.png\nresolution: 0.05\norigin: [-1.0, -2.0, 0.0]\n\
//!             negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";
//! let meta = MapMeta::from_yaml_str(yaml, Path::new("t.yaml"))?;
//! // A 3 × 2 image, row 0 on top: white is free, black is a wall.
//! let map = OccupancyMap::from_gray(3, 2, vec![255, 0, 255, 255, 255, 0], &meta, FreeRule::MapServer);
//! assert!(map.is_free(0, 0) && !map.is_free(1, 0));
//! assert_eq!(map.pixel_to_world(0.0, 1.0), (-1.0, -2.0)); // the bottom-left pixel is at the origin
//! // On disk: `OccupancyMap::load(Path::new("t.yaml"), FreeRule::MapServer)` reads both files.
//!
//! // A bad field is an error a caller can match on, naming the file and the field.
//! let err = MapMeta::from_yaml_str(&yaml.replace("0.05", "-0.1"), Path::new("t.yaml")).unwrap_err();
//! assert!(matches!(&err, mapzoo_format::FormatError::BadValue { field, .. } if field == "resolution"));
//! assert_eq!(err.to_string(), "t.yaml: field \"resolution\" must be > 0 (found -0.1)");
//! # Ok::<(), mapzoo_format::FormatError>(())
//! ```
//!
//! # Read and write a waypoint CSV
//!
//! ```
//! use mapzoo_format::{read_waypoint_csv, write_waypoint_csv, Waypoint, WAYPOINT_CSV_HEADER};
//!
//! let tmp = tempfile::tempdir()?;
//! let path = tmp.path().join("t_centerline.csv");
//! let line = vec![Waypoint { x_m: 1.5, y_m: -2.0, ..Waypoint::default() }];
//! write_waypoint_csv(&path, &line)?; // atomic: a temporary sibling renamed into place
//! let text = std::fs::read_to_string(&path)?;
//! assert!(text.starts_with(WAYPOINT_CSV_HEADER));
//! assert_eq!(read_waypoint_csv(&path)?, line);
//!
//! // A bad cell names its line and column.
//! let bad = text.replace("1.50000000", "oops");
//! let err = mapzoo_format::waypoints_from_csv_str(&bad, &path).unwrap_err();
//! assert!(matches!(err, mapzoo_format::FormatError::BadValue { line: Some(2), .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod atomic;
mod decoded;
mod error;
pub mod export;
mod flavor;
pub mod global;
mod hint;
mod input_file;
mod map;
mod nesting;
mod number;
mod pnm;
mod published;
mod pyfmt;
mod raster;
mod sectors;
pub mod set;
mod table;
#[cfg(any(test, feature = "reference"))]
pub mod testdata;
mod tum;
mod validate;
mod vehicle;
mod waypoint;

pub use atomic::write_file as write_file_atomic;
pub use decoded::{DecodedImage, MapImageFormat, MAX_IMAGE_PIXELS};
pub use error::{FormatError, Result};
pub use export::{export_set, Export, ExportFormat};
pub use flavor::{file_flavor, Flavor};
pub use global::{GlobalParts, GlobalWaypoints, LineKind, LineParts, MapInfo};
pub use hint::Hint;
pub use input_file::{
    check_input_file, read_image_file, read_input_file, read_text_file, MAX_CSV_BYTES,
    MAX_IMAGE_BYTES, MAX_JSON_BYTES, MAX_TOML_BYTES, MAX_YAML_BYTES,
};
pub use map::{
    check_extent, decode_gray_png, encode_gray_png, is_free, is_free_level, occupancy,
    occupancy_level, pixel_to_world, read_gray_png, world_to_pixel, write_gray_png, FreeRule,
    MapMeta, Occupancy, OccupancyMap, MAX_ORIGIN_M, MAX_ORIGIN_YAW, MAX_RESOLUTION,
    MAX_WORLD_EXTENT_M, MIN_RESOLUTION, PLAUSIBLE_RESOLUTION,
};
pub use nesting::{
    check_nesting, check_nesting_limit, parse_yaml, yaml_node_budget, Syntax, MAX_NESTING_DEPTH,
};
pub use number::{format_number, shown_path};
pub use published::{published_from_str, read_published_csv, PublishedRow};
pub use raster::{decode_map_image, image_as_png, sniff_image_format};
pub use sectors::{
    remap_ranges_by_position, BoundaryMove, OtSector, OtSectors, SpeedScaling, SpeedSector,
};
pub use set::{Layout, SetFolder, StagedSet, TrackFiles, WritePolicy};
pub use tum::{
    centerline_any_from_str, centerline_from_str as tum_centerline_from_str,
    centerline_to_string as tum_centerline_to_string, is_trajectory_text,
    raceline_from_str as tum_raceline_from_str, raceline_to_string as tum_raceline_to_string,
    read_centerline as read_tum_centerline, read_centerline_any, read_centerline_detect,
    read_raceline as read_tum_raceline, read_trajectory_detect as read_tum_trajectory_detect,
    CenterlineFormat, TumRacelinePoint, TumTrackPoint,
    CENTERLINE_COLUMNS as TUM_CENTERLINE_COLUMNS, RACELINE_COLUMNS as TUM_RACELINE_COLUMNS,
};
pub use validate::{
    validate_dir, CheckStatus, ValidationCheck, ValidationReport, SPACING_M, SPACING_TOLERANCE_M,
    TRAJECTORY_TOLERANCE,
};
pub use vehicle::VehicleFiles;
pub use waypoint::{
    check_finite as check_finite_waypoints, from_csv_str as waypoints_from_csv_str,
    read_csv as read_waypoint_csv, to_csv_string as waypoints_to_csv_string,
    write_csv as write_waypoint_csv, Waypoint, CSV_COLUMNS as WAYPOINT_CSV_COLUMNS,
    CSV_HEADER as WAYPOINT_CSV_HEADER,
};
