//! How a gray level becomes free, occupied or unknown (DESIGN §2.1): the
//! [`FreeRule`] chosen, the map-server thresholds of the YAML, and the [`Occupancy`]
//! class of each pixel; and the notes where map_server reads a YAML in an unusual way
//! ([`MapMeta::notes`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::meta::{MapMeta, PLAUSIBLE_RESOLUTION};

/// Which pixels count as free space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FreeRule {
    /// The YAML thresholds decide; unknown counts as occupied (ROS map_server).
    #[default]
    MapServer,
    /// Every non-black pixel is free (the Race Stack's rule; its PNGs are anti-aliased).
    Nonzero,
}

impl std::str::FromStr for FreeRule {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "map-server" => Ok(FreeRule::MapServer),
            "nonzero" => Ok(FreeRule::Nonzero),
            other => Err(format!(
                "unknown free-space rule {other:?}; use \"map-server\" or \"nonzero\""
            )),
        }
    }
}

/// The class ROS map_server gives a pixel: its OccupancyGrid value 0 (free),
/// 100 or a positive probability (occupied), −1 (unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Occupancy {
    /// Free space (map_server value 0).
    Free,
    /// An obstacle (map_server value 100, or a partial occupancy 1..99 in `scale` / `raw` mode).
    Occupied,
    /// Unknown space (map_server value −1): between the thresholds in `trinary` mode.
    Unknown,
}

impl Occupancy {
    /// `Free` for a free pixel, else `Occupied` (for maps classified by a boolean mask).
    pub fn from_free(free: bool) -> Self {
        if free {
            Occupancy::Free
        } else {
            Occupancy::Occupied
        }
    }

    /// Whether this is [`Occupancy::Free`].
    pub fn is_free(self) -> bool {
        self == Occupancy::Free
    }
}

/// Classifies one gray value (DESIGN §2.1).
pub fn is_free(v: u8, meta: &MapMeta, rule: FreeRule) -> bool {
    is_free_level(v as f64, meta, rule)
}

/// Classifies a gray level 0..=255 that may be fractional (the mean of RGB channels).
///
/// The map-server rule follows ROS map_server's `mode`: `trinary` (default) and
/// `scale` free a pixel when its occupancy p < `free_thresh` (the two modes only
/// differ in the values of non-free cells, which all count as occupied here);
/// `raw` stores the gray value itself (after `negate`, truncated to an integer)
/// as the occupancy value, so only a value of 0 is free.
pub fn is_free_level(v: f64, meta: &MapMeta, rule: FreeRule) -> bool {
    occupancy_level(v, meta, rule).is_free()
}

/// The tristate class of one gray value (see [`occupancy_level`]).
pub fn occupancy(v: u8, meta: &MapMeta, rule: FreeRule) -> Occupancy {
    occupancy_level(v as f64, meta, rule)
}

/// The tristate class of a gray level 0..=255 that may be fractional, as ROS map_server
/// (`image_loader.cpp`) classifies it.
///
/// `FreeRule::Nonzero`: non-zero is free, zero occupied, nothing unknown.
/// `FreeRule::MapServer`: after `negate`, the occupancy p = (255 − v) / 255 is tested
/// for occupied first (p > `occupied_thresh`), then free (p < `free_thresh`), else
/// unknown (`trinary`) or a partial occupancy (`scale`, classed occupied). In `raw`
/// mode the negated level, truncated, is the cell value itself: 0 free, 1..=100
/// occupied, anything else (255 is −1) unknown.
pub fn occupancy_level(v: f64, meta: &MapMeta, rule: FreeRule) -> Occupancy {
    match rule {
        FreeRule::Nonzero => Occupancy::from_free(v > 0.0),
        FreeRule::MapServer => {
            // ROS 1 map_server negates the mean first, in every mode.
            let level = if meta.negate == 1 { 255.0 - v } else { v };
            if meta.mode.as_deref() == Some("raw") {
                // 0 <= value < 1 truncates to 0.
                let t = level.trunc();
                return if t == 0.0 {
                    Occupancy::Free
                } else if (1.0..=100.0).contains(&t) {
                    Occupancy::Occupied
                } else {
                    Occupancy::Unknown
                };
            }
            // p = (255 − level) / 255, written per branch as before so no rounding moves a pixel.
            let p = if meta.negate == 1 {
                v / 255.0
            } else {
                (255.0 - v) / 255.0
            };
            if p > meta.occupied_thresh {
                Occupancy::Occupied
            } else if p < meta.free_thresh {
                Occupancy::Free
            } else if meta.mode.as_deref() == Some("scale") {
                Occupancy::Occupied
            } else {
                Occupancy::Unknown
            }
        }
    }
}

impl MapMeta {
    /// Notes for the user about how map_server reads this YAML (empty for an ordinary
    /// map); `path` names the YAML. Thresholds with occupied_thresh < free_thresh,
    /// a resolution outside the plausible range, a non-zero origin yaw.
    pub fn notes(&self, path: &Path) -> Vec<String> {
        self.notes_prefixed(&path.display().to_string())
    }

    /// [`Self::notes`], each starting with `p` and a colon.
    pub(super) fn notes_prefixed(&self, p: &str) -> Vec<String> {
        let mut notes = Vec::new();
        let (f, o) = (self.free_thresh, self.occupied_thresh);
        if o <= f && self.mode.as_deref() != Some("raw") {
            let free: Vec<u8> = (0..=255u8)
                .filter(|&v| occupancy(v, self, FreeRule::MapServer).is_free())
                .collect();
            let levels = match (free.first(), free.last()) {
                (Some(a), Some(b)) if a == b => format!("only gray {a} is free"),
                (Some(a), Some(b)) => format!("gray {a}..={b} is free"),
                _ => "no gray level is free".to_string(),
            };
            notes.push(format!(
                "{p}: occupied_thresh {} is not above free_thresh {}: read as ROS map_server reads it (occupied is tested first, so a pixel is free only when its occupancy p <= {} and nothing is unknown): {levels}",
                crate::format_number(o),
                crate::format_number(f),
                crate::format_number(o)
            ));
        }
        let (lo, hi) = PLAUSIBLE_RESOLUTION;
        if !(lo..=hi).contains(&self.resolution) {
            notes.push(format!(
                "{p}: resolution {} m/pixel is outside the usual {lo}–{hi} m/pixel of a 1:10 track map; check its unit",
                crate::format_number(self.resolution)
            ));
        }
        let yaw = self.origin[2];
        if yaw != 0.0 {
            notes.push(format!(
                "{p}: origin yaw {} rad ({:.1}°) is applied as map_server applies it (the image is rotated about the origin); the Race Stack's own planner ignores the yaw, so its lines would be rotated against these",
                crate::format_number(yaw),
                yaw.to_degrees()
            ));
        }
        notes
    }
}
