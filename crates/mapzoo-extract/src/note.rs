//! Notes of the extraction: what it assumed about the map that the user should know,
//! for a map that built (typed, worded by their [`std::fmt::Display`]).

use std::fmt;

use mapzoo_format::OccupancyMap;

use crate::clean::FreeSpace;
use crate::error::MapPoint;

/// One thing the extraction assumed or changed, for the user to check.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtractNote {
    /// The track's free space reaches the image border; the border was taken as a wall.
    BorderIsWall {
        /// The first pixel (raster order) of the track's free space on the image border.
        at: MapPoint,
        /// How many of the track's pixels lie on the image border.
        pixels: usize,
    },
}

impl fmt::Display for ExtractNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractNote::BorderIsWall { at, pixels } => write!(
                f,
                "the track's free space reaches the image border ({pixels} pixels, the first at {at}); outside the image counts as a wall there"
            ),
        }
    }
}

/// The notes about the track region `space` of `map`.
pub(crate) fn notes_of(map: &OccupancyMap, space: &FreeSpace) -> Vec<ExtractNote> {
    let mut notes = Vec::new();
    if space.touches_border {
        let on_border: Vec<usize> = space
            .mask
            .ones()
            .filter(|&i| space.on_image_border(i))
            .collect();
        if let Some(&first) = on_border.first() {
            notes.push(ExtractNote::BorderIsWall {
                at: space.map_point(map, first),
                pixels: on_border.len(),
            });
        }
    }
    notes
}
