//! Sections of a `global_waypoints.json` encoded ahead of the whole file.
//!
//! Most of the file does not depend on the racing lines: the centerline's markers and
//! waypoints and the track-bound markers are two thirds of its bytes for the Race Stack map
//! `f`. A build encodes them while the racing lines are still being computed, and each line's
//! section as soon as that line is final; the file's text then takes every section it finds
//! here for its own arrays ([`GlobalWaypoints::to_json_string_with`]). A section is kept with
//! the arrays it was encoded from and used only for a file holding equal arrays, so the
//! bytes written never depend on what was encoded ahead, or in which flavour.

use std::iter;

use super::json_text::section_text;
use super::ros_msgs::{MarkerArray, WpntArray};
use super::{GlobalWaypoints, LineKind};

/// A part of the file after its head (`map_info_str`, `est_lap_time`), which depends on
/// nothing but its own arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonSection {
    /// `centerline_markers` and `centerline_waypoints`.
    Centerline,
    /// One racing line's `global_traj_markers_<name>` and `global_traj_wpnts_<name>` (none for
    /// a line the file does not carry).
    Line(LineKind),
    /// `trackbounds_markers`.
    Trackbounds,
}

impl JsonSection {
    /// Every section, in file order.
    pub fn in_order() -> impl Iterator<Item = JsonSection> {
        iter::once(JsonSection::Centerline)
            .chain(LineKind::ALL.into_iter().map(JsonSection::Line))
            .chain(iter::once(JsonSection::Trackbounds))
    }

    /// The arrays of this section in `g` (`None` for a line the file does not carry).
    fn arrays(self, g: &GlobalWaypoints) -> Option<(&MarkerArray, Option<&WpntArray>)> {
        match self {
            JsonSection::Centerline => Some((&g.centerline_markers, Some(&g.centerline))),
            JsonSection::Line(kind) => g.line(kind).map(|(m, w)| (m, Some(w))),
            JsonSection::Trackbounds => Some((&g.trackbounds_markers, None)),
        }
    }

    /// The arrays of this section taken out of `g`.
    fn take_arrays(self, g: &mut GlobalWaypoints) -> Option<(MarkerArray, Option<WpntArray>)> {
        match self {
            JsonSection::Centerline => Some((
                std::mem::take(&mut g.centerline_markers),
                Some(std::mem::take(&mut g.centerline)),
            )),
            JsonSection::Line(kind) => g
                .line_mut(kind)
                .map(|(m, w)| (std::mem::take(m), Some(std::mem::take(w)))),
            JsonSection::Trackbounds => Some((std::mem::take(&mut g.trackbounds_markers), None)),
        }
    }
}

/// Sections of a `global_waypoints.json` encoded ahead, each with the arrays it was encoded
/// from (see the module documentation).
#[derive(Clone, Default)]
pub struct GlobalJsonParts {
    parts: Vec<Part>,
}

impl std::fmt::Debug for GlobalJsonParts {
    /// The sections held, not their text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("GlobalJsonParts")
            .field(&self.sections())
            .finish()
    }
}

/// One section's text and the arrays it was encoded from.
#[derive(Clone)]
struct Part {
    section: JsonSection,
    markers: MarkerArray,
    wpnts: Option<WpntArray>,
    text: String,
}

impl GlobalJsonParts {
    /// Encodes `sections` of `g` (a file built from the parts known so far, in the flavour it
    /// will be written in) and keeps them with `g`'s arrays, replacing those of the same
    /// sections held before. A section that cannot be encoded is left out: the whole file's
    /// encoding reports it.
    pub fn encode(&mut self, mut g: GlobalWaypoints, sections: &[JsonSection]) {
        for &section in sections {
            let Ok(text) = section_text(&g, section) else {
                continue;
            };
            let Some((markers, wpnts)) = section.take_arrays(&mut g) else {
                continue;
            };
            self.parts.retain(|p| p.section != section);
            self.parts.push(Part {
                section,
                markers,
                wpnts,
                text,
            });
        }
    }

    /// Adds the sections of `other`, which replace those of the same sections held here.
    pub fn extend(&mut self, other: GlobalJsonParts) {
        for part in other.parts {
            self.parts.retain(|p| p.section != part.section);
            self.parts.push(part);
        }
    }

    /// The sections held, in the order they were added.
    pub fn sections(&self) -> Vec<JsonSection> {
        self.parts.iter().map(|p| p.section).collect()
    }

    /// Whether `section` was encoded ahead (for whichever arrays).
    pub(super) fn holds(&self, section: JsonSection) -> bool {
        self.parts.iter().any(|p| p.section == section)
    }

    /// The text of `section` in `g`, if it was encoded ahead from arrays equal to `g`'s.
    pub(super) fn text(&self, g: &GlobalWaypoints, section: JsonSection) -> Option<&str> {
        let part = self.parts.iter().find(|p| p.section == section)?;
        let (markers, wpnts) = section.arrays(g)?;
        (part.wpnts.as_ref() == wpnts && part.markers == *markers).then_some(part.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::super::json_text::{global_json, global_json_with, push_section, tests::global};
    use super::*;
    use crate::flavor::Flavor;
    use proptest::prelude::*;

    fn subset(mask: u8) -> Vec<JsonSection> {
        JsonSection::in_order()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, s)| s)
            .collect()
    }

    proptest! {
        /// Any sections encoded ahead from the file itself give the bytes of the one-shot
        /// encoder (which the serde view checks); sections encoded from another file, or from
        /// the same file in the other flavour, are not used.
        #[test]
        fn sections_encoded_ahead_give_the_one_shot_bytes(
            g in global(),
            other in global(),
            mask in any::<u8>(),
            other_mask in any::<u8>(),
        ) {
            let ok = || Ok::<(), ()>(());
            let whole = global_json(&g).unwrap();
            let mut ahead = GlobalJsonParts::default();
            ahead.encode(g.clone(), &subset(mask));
            let mut fed = String::new();
            let lead = &mut |piece: &str| fed.push_str(piece);
            let with = global_json_with(&g, &ahead, lead, ok).unwrap();
            let led: String = with.pieces()[..with.led()].concat();
            prop_assert_eq!(fed.as_str(), led.as_str());
            prop_assert_eq!(with.len(), whole.len());
            prop_assert_eq!(&with.into_string(), &whole);

            let mut stale = GlobalJsonParts::default();
            stale.encode(other, &subset(other_mask));
            let mut flipped = g.clone();
            flipped.set_flavor(match g.flavor() {
                Flavor::Ros1 => Flavor::Ros2,
                Flavor::Ros2 => Flavor::Ros1,
            });
            stale.encode(flipped, &subset(!mask));
            let with = global_json_with(&g, &stale, &mut |_| {}, ok).unwrap();
            prop_assert_eq!(&with.into_string(), &whole);
        }
    }

    /// The sections cover the file: its head, the sections in order and its end are all of it.
    #[test]
    fn sections_concatenate_to_the_file() {
        let g = GlobalWaypoints::build(crate::global::GlobalParts {
            centerline: vec![crate::Waypoint::default(); 3],
            lines: Vec::new(),
            right_bound: vec![[1.0, 2.0]],
            left_bound: vec![[3.0, 4.0]],
        });
        let whole = global_json(&g).unwrap();
        let mut body = String::new();
        for section in JsonSection::in_order() {
            push_section(&mut body, &g, section).unwrap();
        }
        let head_end = whole.find(", \"centerline_markers\"").unwrap();
        assert_eq!(&whole[head_end..whole.len() - 1], body);
        let mut ahead = GlobalJsonParts::default();
        ahead.encode(
            g.clone(),
            &[JsonSection::Trackbounds, JsonSection::Centerline],
        );
        assert_eq!(
            ahead.sections(),
            [JsonSection::Trackbounds, JsonSection::Centerline]
        );
        // used for the file it was encoded from, not once its arrays change
        assert!(ahead.text(&g, JsonSection::Centerline).is_some());
        assert!(ahead.text(&g, JsonSection::Line(LineKind::Iqp)).is_none());
        let mut moved = g.clone();
        moved.centerline.wpnts[1].x_m = 0.5;
        assert!(ahead.text(&moved, JsonSection::Centerline).is_none());
        assert!(ahead.text(&moved, JsonSection::Trackbounds).is_some());
    }

    /// A file whose numbers are checked beside the encoding of its last sections is refused
    /// as one written in one go is, naming the entry.
    #[test]
    fn a_non_finite_number_is_refused_with_sections_held() {
        let mut g = GlobalWaypoints::build(crate::global::GlobalParts {
            centerline: vec![crate::Waypoint::default(); 3],
            ..crate::global::GlobalParts::default()
        });
        let mut ahead = GlobalJsonParts::default();
        ahead.encode(g.clone(), &[JsonSection::Centerline]);
        g.iqp.wpnts.push(crate::Waypoint {
            vx_mps: f64::NAN,
            ..Default::default()
        });
        let path = std::path::Path::new("g.json");
        let err = g.to_json_text_with(path, &ahead, |_| {}).unwrap_err();
        let err = err.to_string();
        assert!(
            err.contains("global_traj_wpnts_iqp") && err.contains("vx_mps"),
            "{err}"
        );
    }
}
