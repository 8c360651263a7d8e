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

/// One of several equally plausible loops, for [`ExtractError::Ambiguous`].
#[derive(Debug, Clone, PartialEq)]
pub struct LoopCandidate {
    /// Length of its skeleton loop, metres.
    pub length_m: f64,
    /// The middle of the infield it goes round.
    pub at: MapPoint,
}

impl fmt::Display for LoopCandidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {:.1} m loop around {}", self.length_m, self.at)
    }
}

/// The candidates of an ambiguity, one after the other.
fn list(candidates: &[LoopCandidate]) -> String {
    candidates
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Occupancy probability (255 − grey) / 255 of a grey level (map_server, negate 0).
fn occupancy(grey: u8) -> f64 {
    (255.0 - grey as f64) / 255.0
}

/// The sizes of a small hole, worded.
fn small_room(room_m: &Option<f64>, region_m: f64) -> String {
    match room_m {
        Some(r) => format!(", with free space about {r:.1} m across round it"),
        None => format!(", in a free region {region_m:.1} m across"),
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
    /// No pixel of the map is free at all (before any cleaning).
    #[error("no pixel of the map is free: the lightest grey in the image is {lightest} of 255, an occupancy of {:.3} ((255 - grey) / 255 with negate 0), which the YAML's free_thresh does not call free; if the track is drawn in that grey, set free_thresh above {:.3} in the YAML, or {}", occupancy(*lightest), occupancy(*lightest), Hint::FreeRule(FreeRule::Nonzero))]
    NothingFree {
        /// The lightest grey level of the image.
        lightest: u8,
    },
    /// The only loops in the free space circle small things (a pillar in an open room):
    /// no track loop.
    #[error("no track loop: the only loop in the free space goes round something small, {:.2} × {:.2} m at {at}{}, not round a track's infield (an open room or hall, not a track?); a track's infield is larger than the track is wide", size_m[0], size_m[1], small_room(room_m, *region_m))]
    NoTrackLoop {
        /// The middle of the largest small hole found.
        at: MapPoint,
        /// Its width and height, metres.
        size_m: [f64; 2],
        /// Width of the free space around it, metres, when measured.
        room_m: Option<f64>,
        /// Longest side of the free region it lies in, metres.
        region_m: f64,
    },
    /// The free space has no region that goes around an infield.
    #[error("no closed loop in the free space: {why}")]
    NoLoop {
        /// Why, naming the region looked at.
        why: String,
    },
    /// Two or more loops are about equally plausible (two tracks, a figure eight, a maze).
    #[error("several equally plausible loops ({why}): {}; {}, or crop the map to one track or mark the others occupied", list(candidates), Hint::StartPose)]
    Ambiguous {
        /// What makes them separate loops.
        why: String,
        /// The loops, longest first.
        candidates: Vec<LoopCandidate>,
    },
    /// The track's free space is connected to the image border: a wall has a gap.
    #[error("the track's free space leaks: it first leaves the track at {gap}, through an opening about {gap_width_px} pixels wide (a gap in the outer wall?), into free space outside the track's walls that reaches the image border at {border}; close the gap with occupied pixels, or mark the outside as unknown")]
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
            ExtractError::NoFreeSpace { .. } | ExtractError::NothingFree { .. } => {
                Some(Hint::FreeRule(FreeRule::Nonzero))
            }
            ExtractError::Ambiguous { .. } => Some(Hint::StartPose),
            _ => None,
        }
    }
}
