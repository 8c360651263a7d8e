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
    /// A uniform grey joined to the image border counted as free under the YAML's thresholds
    /// though the track is lighter: it was taken as unknown space.
    GreyIsUnknown {
        /// The grey level, 0..255.
        grey: u8,
        /// How many pixels of it were taken as unknown.
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
            ExtractNote::GreyIsUnknown { grey, pixels } => write!(
                f,
                "{pixels} pixels of uniform grey {grey}, joined to the image border, count as free under the YAML's free_thresh (occupancy {:.3}) though the track is lighter; they were taken as unknown space, as the map means (the ROS 2 map saver writes unknown as 205 with free_thresh 0.25: slam_toolbox #587, navigation2 #5278); set free_thresh to at most {:.3} in the YAML to read it so without this note",
                (255.0 - *grey as f64) / 255.0,
                (255.0 - *grey as f64) / 255.0
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
