//! `ot_sectors.yaml`: the sectors of the racing line where overtaking is allowed
//! (the Race Stack's `ot_interpolator`), with the overtaking spline's settings.

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
    blank_lines_after, finish_text, push_extra, push_sector_head, read_sector_file, Doc, OT_NODE,
};

/// One overtaking sector: waypoints `start..=end`.
#[derive(Debug, Clone, PartialEq)]
pub struct OtSector {
    /// First waypoint index.
    pub start: i64,
    /// Last waypoint index.
    pub end: i64,
    /// Whether overtaking is allowed here.
    pub ot_flag: bool,
    /// Keys of the sector this crate does not know, in file order.
    pub extra: Vec<(String, Value)>,
}

/// `ot_sectors.yaml`.
#[derive(Debug, Clone, PartialEq)]
pub struct OtSectors {
    /// Overtaking aggressiveness factor.
    pub yeet_factor: f64,
    /// Length of the overtaking spline, waypoints.
    pub spline_len: i64,
    /// Fraction of a sector after which overtaking may begin.
    pub ot_sector_begin: f64,
    /// `n_sectors` as written in the file (the writer writes `sectors.len()`).
    pub declared_n_sectors: i64,
    /// Sectors `Overtaking_sector0`, … in index order.
    pub sectors: Vec<OtSector>,
    /// Top-level keys this crate does not know, in file order.
    pub extra: Vec<(String, Value)>,
    /// ROS 1 layout, or ROS 2 wrapped in `ot_interpolator: ros__parameters:`.
    pub flavor: Flavor,
    /// Blank lines after the last entry, as the file had them (kept on rewrite).
    pub blank_lines_after: usize,
}

impl OtSectors {
    /// One sector over the whole line `0..=n`, overtaking off, the Race Stack's defaults.
    pub fn single(n: usize) -> Self {
        OtSectors {
            yeet_factor: 1.25,
            spline_len: 30,
            ot_sector_begin: 0.5,
            declared_n_sectors: 1,
            sectors: vec![OtSector {
                start: 0,
                end: n as i64,
                ot_flag: false,
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

    /// Reads `ot_sectors.yaml`.
    pub fn read(path: &Path) -> Result<Self> {
        Self::from_yaml_str(&read_sector_file(path)?, path)
    }

    /// Parses the YAML text; `path` is used in messages only.
    pub fn from_yaml_str(text: &str, path: &Path) -> Result<Self> {
        let doc = Doc::parse(text, path, OT_NODE)?;
        let declared_n_sectors = doc.int("n_sectors")?;
        let yeet_factor = doc.number("yeet_factor")?;
        let spline_len = doc.int("spline_len")?;
        let ot_sector_begin = doc.number("ot_sector_begin")?;
        const FIELDS: [&str; 3] = ["start", "end", "ot_flag"];
        let sectors = doc.entries("Overtaking_sector", &FIELDS, |f| {
            Ok(OtSector {
                start: f.int("start")?,
                end: f.int("end")?,
                ot_flag: f.boolean("ot_flag")?,
                extra: f.extra(&FIELDS),
            })
        })?;
        Ok(OtSectors {
            yeet_factor,
            spline_len,
            ot_sector_begin,
            declared_n_sectors,
            sectors,
            extra: doc.extra(
                &["n_sectors", "yeet_factor", "spline_len", "ot_sector_begin"],
                "Overtaking_sector",
            ),
            flavor: doc.flavor,
            blank_lines_after: blank_lines_after(text),
        })
    }

    /// The YAML text in the Race Stack's layout.
    pub fn to_yaml_string(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("n_sectors: {}\n", self.sectors.len()));
        s.push_str(&format!("yeet_factor: {}\n", float_repr(self.yeet_factor)));
        s.push_str(&format!("spline_len: {}\n", self.spline_len));
        s.push_str(&format!(
            "ot_sector_begin: {}\n",
            float_repr(self.ot_sector_begin)
        ));
        push_extra(&mut s, &self.extra, "");
        for (i, sec) in self.sectors.iter().enumerate() {
            push_sector_head(&mut s, "Overtaking_sector", i, sec.range());
            s.push_str(&format!("  ot_flag: {}\n", sec.ot_flag));
            push_extra(&mut s, &sec.extra, "  ");
        }
        finish_text(s, self.flavor, OT_NODE, self.blank_lines_after)
    }

    /// Writes the file.
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::atomic::write_file(path, self.to_yaml_string().as_bytes())
    }

    /// Checks the file against a racing line of `n` waypoints: n_sectors, index ranges, contiguity.
    pub fn validate(&self, n: usize, path: &Path) -> Result<()> {
        check_count(self.declared_n_sectors, self.sectors.len(), path)?;
        if !(self.ot_sector_begin.is_finite() && self.yeet_factor.is_finite()) {
            return Err(FormatError::bad_value(
                path,
                "yeet_factor",
                None,
                "\"yeet_factor\" and \"ot_sector_begin\" must be finite numbers",
            ));
        }
        let ranges = self.ranges();
        check_ranges(&ranges, "Overtaking_sector", n, path)
    }

    /// Remaps the indices to a line of `n_new` points from one of `n_old`, by arc-length fraction.
    pub fn remap(&mut self, n_old: usize, n_new: usize) {
        remap_sectors(&mut self.sectors, |i| fraction_map(i, n_old, n_new), n_new);
    }

    /// Remaps the indices by the arc length `s_m` of each point of the old and the new line.
    pub fn remap_by_arc_length(&mut self, old_s: &[f64], new_s: &[f64]) {
        remap_sectors(&mut self.sectors, |i| arc_map(i, old_s, new_s), new_s.len());
    }

    /// As [`SpeedScaling::remap_by_position`](crate::SpeedScaling::remap_by_position).
    pub fn remap_by_position(
        &mut self,
        old: &[[f64; 2]],
        new: &[[f64; 2]],
    ) -> std::result::Result<Vec<BoundaryMove>, String> {
        remap_sectors_by_position(&mut self.sectors, old, new, "Overtaking_sector")
    }
}

impl Sector for OtSector {
    fn range(&self) -> (i64, i64) {
        (self.start, self.end)
    }
    fn set_range(&mut self, (start, end): (i64, i64)) {
        (self.start, self.end) = (start, end);
    }
}
