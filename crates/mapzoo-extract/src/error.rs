//! Typed errors of the extraction stages (DESIGN §3, stages 2–6). Each names
//! the pixel and the world position where the problem is, and what to do.

use std::fmt;

use mapzoo_format::{FreeRule, Hint, OccupancyMap};

/// A pixel of the map with its world position, for messages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapPoint {
    /// Image column, pixels from the left.
    pub col: usize,
    /// Image row, pixels from the top.
    pub row: usize,
    /// World x of the pixel, metres.
    pub x: f64,
    /// World y of the pixel, metres.
    pub y: f64,
}

impl MapPoint {
    /// Image pixel (col, row) of `map` with its world position.
    pub fn of(map: &OccupancyMap, col: usize, row: usize) -> Self {
        let (x, y) = map.pixel_to_world(col as f64, row as f64);
        MapPoint { col, row, x, y }
    }
}

impl fmt::Display for MapPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pixel (col {}, row {}), world ({:.3}, {:.3}) m",
            self.col, self.row, self.x, self.y
        )
    }
}

/// Everything that can stop the extraction of a centerline from a map.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// A parameter is out of range; `field` is its name in [`crate::ExtractParams`].
    #[error("extraction parameter \"{field}\" {why}")]
    Param {
        /// The parameter's name.
        field: &'static str,
        /// What is wrong with it and what is allowed.
        why: String,
    },
    /// The pixel buffers do not match the stated width × height.
    #[error("the occupancy map is {width}×{height} pixels but holds {len} values; rebuild it with OccupancyMap::from_gray")]
    BadMap {
        /// Stated width, pixels.
        width: usize,
        /// Stated height, pixels.
        height: usize,
        /// Length of the free mask.
        len: usize,
    },
    /// Nothing is left of the free space after the opening.
    #[error("no free space is left after cleaning ({opening}×{opening} square opening): the map has no track wider than {opening} pixels; check the free-space rule ({}) and the YAML thresholds", Hint::FreeRule(FreeRule::Nonzero))]
    NoFreeSpace {
        /// Side of the square opening, pixels.
        opening: usize,
    },
    /// The free space has no region that goes around an infield.
    #[error("no closed loop in the free space: {why}")]
    NoLoop {
        /// Why, naming the region looked at.
        why: String,
    },
    /// Two loops are about equally plausible (two tracks, or a figure eight).
    #[error("several equally plausible loops: {why}; crop the map to one track or mark the other occupied")]
    Ambiguous {
        /// Where they are and how large their infields are.
        why: String,
    },
    /// The track's free space is connected to the image border: a wall has a gap.
    #[error("the track's free space leaks: it leaves the track at {gap}, through an opening about {gap_width_px} pixels wide (a gap in the wall?), and reaches the image border at {border}; close the gap with occupied pixels, or mark the outside as unknown")]
    Leak {
        /// Where the leak leaves the track (the mouth of the gap in the wall).
        gap: MapPoint,
        /// Where the leaking free space touches the image border.
        border: MapPoint,
        /// Width of the gap, pixels (twice the clearance at its narrowest point).
        gap_width_px: usize,
    },
    /// The track's free space runs into a free infield: the inner wall has a gap.
    #[error("the track's free space leaks into the infield: it leaves the track at {gap}, through an opening about {gap_width_px} pixels wide (a gap in the inner wall?), and spreads over free space inside the loop, e.g. at {inside}; close the gap with occupied pixels, or mark the infield occupied")]
    InfieldLeak {
        /// Where the leak leaves the track (the mouth of the gap in the wall).
        gap: MapPoint,
        /// A free pixel of the infield that the track's free space reaches.
        inside: MapPoint,
        /// Width of the gap, pixels.
        gap_width_px: usize,
    },
}

impl ExtractError {
    /// The remedy this error suggests, if any; its [`std::fmt::Display`] words it in API terms.
    pub fn hint(&self) -> Option<Hint> {
        match self {
            ExtractError::NoFreeSpace { .. } => Some(Hint::FreeRule(FreeRule::Nonzero)),
            _ => None,
        }
    }
}
