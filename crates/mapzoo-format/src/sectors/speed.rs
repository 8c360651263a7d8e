//! `speed_scaling.yaml`: the fraction of the planned speed driven in each sector of
//! the racing line (the Race Stack's `sector_tuner`), with its follow-the-gap flags.

use std::path::Path;

use serde_yaml_ng::Value;

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;
use crate::pyfmt::float_repr;

use super::ranges::{
    arc_map, check_count, check_ranges, fraction_map, ranges, remap_sectors,
    remap_sectors_by_position, BoundaryMove, Sector,
};
use super::yaml::{
    blank_lines_after, finish_text, push_extra, push_sector_head, read_sector_file, Doc, SPEED_NODE,
};

/// One speed-scaling sector: waypoints `start..=end` of the racing line.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedSector {
    /// First waypoint index.
    pub start: i64,
    /// Last waypoint index (the last sector ends at the racing line's point count).
    pub end: i64,
    /// Fraction of the planned speed driven here, in (0, 1].
    pub scaling: f64,
    /// Follow-the-gap only in this sector.
    pub only_ftg: bool,
    /// Never follow-the-gap in this sector.
    pub no_ftg: bool,
    /// Keys of the sector this crate does not know, in file order.
    pub extra: Vec<(String, Value)>,
}

/// `speed_scaling.yaml`.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedScaling {
    /// Global speed limit factor, in (0, 1].
    pub global_limit: f64,
    /// `n_sectors` as written in the file (the writer writes `sectors.len()`).
    pub declared_n_sectors: i64,
    /// Sectors `Sector0`, `Sector1`, … in index order.
    pub sectors: Vec<SpeedSector>,
    /// Top-level keys this crate does not know, in file order.
    pub extra: Vec<(String, Value)>,
    /// ROS 1 layout, or ROS 2 wrapped in `sector_tuner: ros__parameters:`.
    pub flavor: Flavor,
    /// Blank lines after the last entry, as the file had them (kept on rewrite).
    pub blank_lines_after: usize,
}

impl SpeedScaling {
    /// One sector over the whole line `0..=n` at `scaling`, as the Race Stack creates it.
    pub fn single(n: usize, global_limit: f64, scaling: f64) -> Self {
        SpeedScaling {
            global_limit,
            declared_n_sectors: 1,
            sectors: vec![SpeedSector {
                start: 0,
                end: n as i64,
                scaling,
                only_ftg: false,
                no_ftg: false,
                extra: Vec::new(),
            }],
            extra: Vec::new(),
            flavor: Flavor::Ros1,
            blank_lines_after: 0,
        }
    }

    /// The (start, end) index pairs of the sectors.
    pub fn ranges(&self) -> Vec<(i64, i64)> {
        ranges(&self.sectors)
    }

    /// Reads `speed_scaling.yaml`.
    pub fn read(path: &Path) -> Result<Self> {
        Self::from_yaml_str(&read_sector_file(path)?, path)
    }

    /// Parses the YAML text; `path` is used in messages only.
    pub fn from_yaml_str(text: &str, path: &Path) -> Result<Self> {
        let doc = Doc::parse(text, path, SPEED_NODE)?;
        let global_limit = doc.number("global_limit")?;
        let declared_n_sectors = doc.int("n_sectors")?;
        const FIELDS: [&str; 5] = ["start", "end", "scaling", "only_FTG", "no_FTG"];
        let sectors = doc.entries("Sector", &FIELDS, |f| {
            Ok(SpeedSector {
                start: f.int("start")?,
                end: f.int("end")?,
                scaling: f.number("scaling")?,
                only_ftg: f.boolean("only_FTG")?,
                no_ftg: f.boolean("no_FTG")?,
                extra: f.extra(&FIELDS),
            })
        })?;
        Ok(SpeedScaling {
            global_limit,
            declared_n_sectors,
            sectors,
            extra: doc.extra(&["global_limit", "n_sectors"], "Sector"),
            flavor: doc.flavor,
            blank_lines_after: blank_lines_after(text),
        })
    }

    /// The YAML text in the Race Stack's layout.
    pub fn to_yaml_string(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "global_limit: {}\n",
            float_repr(self.global_limit)
        ));
        s.push_str(&format!("n_sectors: {}\n", self.sectors.len()));
        push_extra(&mut s, &self.extra, "");
        for (i, sec) in self.sectors.iter().enumerate() {
            push_sector_head(&mut s, "Sector", i, sec.range());
            s.push_str(&format!("  scaling: {}\n", float_repr(sec.scaling)));
            s.push_str(&format!("  only_FTG: {}\n", sec.only_ftg));
            s.push_str(&format!("  no_FTG: {}\n", sec.no_ftg));
            push_extra(&mut s, &sec.extra, "  ");
        }
        finish_text(s, self.flavor, SPEED_NODE, self.blank_lines_after)
    }

    /// Writes the file.
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::atomic::write_file(path, self.to_yaml_string().as_bytes())
    }

    /// Checks the file against a racing line of `n` waypoints (DESIGN §2.4):
    /// n_sectors, index ranges, contiguity, scaling and global limit in (0, 1].
    pub fn validate(&self, n: usize, path: &Path) -> Result<()> {
        check_count(self.declared_n_sectors, self.sectors.len(), path)?;
        if !(self.global_limit > 0.0 && self.global_limit <= 1.0) {
            return Err(FormatError::bad_value(
                path,
                "global_limit",
                None,
                format!(
                    "\"global_limit\" must be in (0, 1] (found {})",
                    self.global_limit
                ),
            ));
        }
        for (i, s) in self.sectors.iter().enumerate() {
            if !(s.scaling > 0.0 && s.scaling <= 1.0) {
                return Err(FormatError::bad_value(
                    path,
                    format!("Sector{i}.scaling"),
                    None,
                    format!(
                        "Sector{i}: \"scaling\" must be in (0, 1] (found {})",
                        s.scaling
                    ),
                ));
            }
        }
        let ranges = self.ranges();
        check_ranges(&ranges, "Sector", n, path)
    }

    /// Remaps the indices to a line of `n_new` points from one of `n_old`, by arc-length fraction
    /// (points are equally spaced, so index / n is the fraction).
    pub fn remap(&mut self, n_old: usize, n_new: usize) {
        remap_sectors(&mut self.sectors, |i| fraction_map(i, n_old, n_new), n_new);
    }

    /// Remaps the indices by the arc length `s_m` of each point of the old and the new line.
    pub fn remap_by_arc_length(&mut self, old_s: &[f64], new_s: &[f64]) {
        remap_sectors(&mut self.sectors, |i| arc_map(i, old_s, new_s), new_s.len());
    }

    /// Moves each boundary to the point of the new line nearest to where it was on the old
    /// one, at the same place on the track (see [`remap_ranges_by_position`](crate::remap_ranges_by_position)); returns every
    /// interior boundary's move. Err (the file unchanged) when the new line is too short.
    pub fn remap_by_position(
        &mut self,
        old: &[[f64; 2]],
        new: &[[f64; 2]],
    ) -> std::result::Result<Vec<BoundaryMove>, String> {
        remap_sectors_by_position(&mut self.sectors, old, new, "Sector")
    }
}

impl Sector for SpeedSector {
    fn range(&self) -> (i64, i64) {
        (self.start, self.end)
    }
    fn set_range(&mut self, (start, end): (i64, i64)) {
        (self.start, self.end) = (start, end);
    }
}
