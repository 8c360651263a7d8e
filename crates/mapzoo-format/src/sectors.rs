//! The hand-tuned sector files `speed_scaling.yaml` and `ot_sectors.yaml`
//! (DESIGN §2.4): index ranges into the IQP racing line, read, written,
//! checked against the line's length, and remapped when that length changes.
//!
//! Keys this crate does not know are kept and written back, so a regeneration
//! never drops a user's additions. Both flavours are read and written: ROS 1's
//! plain mapping and ROS 2's, wrapped in `<node>: ros__parameters:` (the node is
//! `sector_tuner` for speed scaling, `ot_interpolator` for overtaking sectors).

use std::path::Path;

use serde_yaml_ng::{Mapping, Value};

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;
use crate::pyfmt::float_repr;

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
            s.push_str(&format!("Sector{i}:\n"));
            s.push_str(&format!("  start: {}\n", sec.start));
            s.push_str(&format!("  end: {}\n", sec.end));
            s.push_str(&format!("  scaling: {}\n", float_repr(sec.scaling)));
            s.push_str(&format!("  only_FTG: {}\n", sec.only_ftg));
            s.push_str(&format!("  no_FTG: {}\n", sec.no_ftg));
            push_extra(&mut s, &sec.extra, "  ");
        }
        let mut s = wrap(s, self.flavor, SPEED_NODE);
        s.push_str(&"\n".repeat(self.blank_lines_after));
        s
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
    /// one, at the same place on the track (see [`remap_ranges_by_position`]); returns every
    /// interior boundary's move. Err (the file unchanged) when the new line is too short.
    pub fn remap_by_position(
        &mut self,
        old: &[[f64; 2]],
        new: &[[f64; 2]],
    ) -> std::result::Result<Vec<BoundaryMove>, String> {
        let (ranges, moves) = remap_ranges_by_position(&self.ranges(), old, new, "Sector")?;
        for (s, r) in self.sectors.iter_mut().zip(ranges) {
            s.set_range(r);
        }
        Ok(moves)
    }
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
            s.push_str(&format!("Overtaking_sector{i}:\n"));
            s.push_str(&format!("  start: {}\n", sec.start));
            s.push_str(&format!("  end: {}\n", sec.end));
            s.push_str(&format!("  ot_flag: {}\n", sec.ot_flag));
            push_extra(&mut s, &sec.extra, "  ");
        }
        let mut s = wrap(s, self.flavor, OT_NODE);
        s.push_str(&"\n".repeat(self.blank_lines_after));
        s
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

    /// As [`SpeedScaling::remap_by_position`].
    pub fn remap_by_position(
        &mut self,
        old: &[[f64; 2]],
        new: &[[f64; 2]],
    ) -> std::result::Result<Vec<BoundaryMove>, String> {
        let (ranges, moves) =
            remap_ranges_by_position(&self.ranges(), old, new, "Overtaking_sector")?;
        for (s, r) in self.sectors.iter_mut().zip(ranges) {
            s.set_range(r);
        }
        Ok(moves)
    }
}

/// Where a remap by position put one sector boundary.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BoundaryMove {
    /// The sector entry whose end the boundary is, e.g. `Sector1` (the next one starts there).
    pub sector: String,
    /// Its index on the old line.
    pub old_index: i64,
    /// Its index on the new line.
    pub new_index: i64,
    /// Distance between the old boundary point and the new one, metres.
    pub moved_m: f64,
}

/// The ranges a remap by position gives, and where each interior boundary went.
pub type RemappedRanges = (Vec<(i64, i64)>, Vec<BoundaryMove>);

/// Sector ranges over a line of points `old` carried to the line `new` by position: each
/// interior boundary (the end of a sector) goes to the nearest point of `new` to the point it
/// was on `old`, searched within an eighth of a lap of where its lap fraction puts it (so a
/// part of the track that passes close by is not taken), and after the previous boundary with
/// room for the sectors still to come, so no sector becomes empty (a sector that held at
/// least one step keeps at least one). The first start stays 0, the last end becomes the new
/// point count, each start keeps its gap (0 or 1) to the previous end. Err when `new` has
/// too few points for the sectors.
pub fn remap_ranges_by_position(
    ranges: &[(i64, i64)],
    old: &[[f64; 2]],
    new: &[[f64; 2]],
    prefix: &str,
) -> std::result::Result<RemappedRanges, String> {
    let (n_old, n_new) = (old.len() as i64, new.len() as i64);
    if ranges.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    if n_old == 0 || n_new == 0 {
        return Err("no racing line points to remap the sectors to".into());
    }
    let count = ranges.len();
    let gap = |k: usize| {
        if k == 0 {
            0
        } else {
            (ranges[k].0 - ranges[k - 1].1).clamp(0, 1)
        }
    };
    let min_len = |k: usize| i64::from(ranges[k].1 - ranges[k].0 >= 1);
    let need: Vec<i64> = (0..count).map(|k| gap(k) + min_len(k)).collect();
    if need.iter().sum::<i64>() > n_new {
        return Err(format!(
            "the new racing line has {n_new} points, too few for {count} sectors"
        ));
    }
    let at = |line: &[[f64; 2]], i: i64| line[i.clamp(0, line.len() as i64 - 1) as usize];
    let dist = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let window = (n_new / 8).max(5);
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut prev_end = 0i64;
    for k in 0..count {
        let start = if k == 0 { 0 } else { prev_end + gap(k) };
        let end = if k + 1 == count {
            n_new
        } else {
            let lo = start + min_len(k);
            let hi = n_new - need[k + 1..].iter().sum::<i64>();
            let old_end = ranges[k].1;
            let p = at(old, old_end);
            let guess = (old_end as f64 / n_old as f64 * n_new as f64).round() as i64;
            let (a, b) = ((guess - window).max(lo), (guess + window).min(hi));
            let best = if a <= b {
                (a..=b)
                    .min_by(|&i, &j| dist(at(new, i), p).total_cmp(&dist(at(new, j), p)))
                    .unwrap_or(a)
            } else {
                guess.clamp(lo, hi.max(lo))
            };
            moves.push(BoundaryMove {
                sector: format!("{prefix}{k}"),
                old_index: old_end,
                new_index: best,
                moved_m: dist(at(new, best), p),
            });
            best
        };
        out.push((start, end));
        prev_end = end;
    }
    Ok((out, moves))
}

/// A sector of either file: the waypoint range `start..=end` it covers.
trait Sector {
    fn range(&self) -> (i64, i64);
    fn set_range(&mut self, range: (i64, i64));
}

impl Sector for SpeedSector {
    fn range(&self) -> (i64, i64) {
        (self.start, self.end)
    }
    fn set_range(&mut self, (start, end): (i64, i64)) {
        (self.start, self.end) = (start, end);
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

/// The (start, end) index pairs of `sectors`.
fn ranges(sectors: &[impl Sector]) -> Vec<(i64, i64)> {
    sectors.iter().map(Sector::range).collect()
}

/// Remaps the ranges of `sectors` by `map` to a line of `n_new` points (see [`remap_ranges`]).
fn remap_sectors(sectors: &mut [impl Sector], map: impl Fn(i64) -> i64, n_new: usize) {
    let mut new = ranges(sectors);
    remap_ranges(&mut new, map, n_new);
    for (s, r) in sectors.iter_mut().zip(new) {
        s.set_range(r);
    }
}

fn check_count(declared: i64, found: usize, path: &Path) -> Result<()> {
    if declared != found as i64 {
        return Err(FormatError::inconsistent(
            path,
            format!("\"n_sectors\" is {declared} but the file has {found} sector entries; make them agree"),
        ));
    }
    if found == 0 {
        return Err(FormatError::inconsistent(path, "the file has no sectors"));
    }
    Ok(())
}

/// Bounds and contiguity of DESIGN §2.4, as a `FormatError` on `path`.
fn check_ranges(ranges: &[(i64, i64)], prefix: &str, n: usize, path: &Path) -> Result<()> {
    check_bounds(ranges, prefix, n)
        .map_err(|what| FormatError::bad_value(path, format!("{prefix} start/end"), None, what))?;
    check_contiguous(ranges, prefix, Some(n)).map_err(|what| FormatError::inconsistent(path, what))
}

/// Every start and end lies within `0..=n` (`n` = the racing line's point count).
pub fn check_bounds(
    ranges: &[(i64, i64)],
    prefix: &str,
    n: usize,
) -> std::result::Result<(), String> {
    let n = n as i64;
    match ranges
        .iter()
        .enumerate()
        .find(|(_, &(a, b))| a < 0 || a > n || b < 0 || b > n)
    {
        None => Ok(()),
        Some((i, (a, b))) => Err(format!(
            "{prefix}{i}: start {a}, end {b} is outside 0..={n} (the racing line has {n} points); remap the sectors to the current line"
        )),
    }
}

/// Sectors start at 0, run in order without gaps or overlaps (next start = end or
/// end + 1), and, when `n` is given, the last ends at `n`, the racing line's point count.
pub fn check_contiguous(
    ranges: &[(i64, i64)],
    prefix: &str,
    n: Option<usize>,
) -> std::result::Result<(), String> {
    for (i, &(a, b)) in ranges.iter().enumerate() {
        if a > b {
            return Err(format!("{prefix}{i}: start {a} is after end {b}"));
        }
        if i == 0 && a != 0 {
            return Err(format!(
                "{prefix}0: start is {a}, must be 0 so that the sectors cover the whole line"
            ));
        }
        if i > 0 {
            let prev = ranges[i - 1].1;
            if a < prev {
                return Err(format!(
                    "{prefix}{i}: start {a} overlaps {prefix}{}, which ends at {prev}; sectors must be in order and not overlap",
                    i - 1
                ));
            }
            if a > prev + 1 {
                return Err(format!(
                    "{prefix}{i}: start {a} leaves a gap after {prefix}{}, which ends at {prev}; start it at {prev} or {}",
                    i - 1,
                    prev + 1
                ));
            }
        }
    }
    match (ranges.last(), n) {
        (Some(&(_, last)), Some(n)) if last != n as i64 => Err(format!(
            "{prefix}{}: the last sector ends at {last} but the racing line has {n} points; the sectors must cover 0..={n}",
            ranges.len() - 1
        )),
        _ => Ok(()),
    }
}

fn fraction_map(i: i64, n_old: usize, n_new: usize) -> i64 {
    if n_old == 0 {
        return 0;
    }
    ((i as f64) * (n_new as f64) / (n_old as f64)).round() as i64
}

/// The index in `new_s` whose arc-length fraction is nearest to that of `old_s[i]`.
fn arc_map(i: i64, old_s: &[f64], new_s: &[f64]) -> i64 {
    let (Some(&old_len), Some(&new_len)) = (old_s.last(), new_s.last()) else {
        return 0;
    };
    if i as usize >= old_s.len() {
        return new_s.len() as i64;
    }
    if i <= 0 || old_len.is_nan() || old_len <= 0.0 {
        return 0;
    }
    let target = old_s[i as usize] / old_len * new_len;
    let k = new_s.partition_point(|&s| s < target);
    let best = [k.saturating_sub(1), k.min(new_s.len() - 1)]
        .into_iter()
        .min_by(|&a, &b| {
            (new_s[a] - target)
                .abs()
                .total_cmp(&(new_s[b] - target).abs())
        })
        .unwrap_or(0);
    best as i64
}

/// Maps each end through `map`, keeps each sector's gap (0 or 1) to the previous
/// end, pins the first start to 0 and the last end to `n_new`, and keeps every sector non-empty-ordered.
fn remap_ranges(ranges: &mut [(i64, i64)], map: impl Fn(i64) -> i64, n_new: usize) {
    let n_new = n_new as i64;
    let old = ranges.to_vec();
    let count = ranges.len();
    for k in 0..count {
        let start = if k == 0 {
            0
        } else {
            let gap = (old[k].0 - old[k - 1].1).clamp(0, 1);
            (ranges[k - 1].1 + gap).min(n_new)
        };
        let end = if k + 1 == count {
            n_new
        } else {
            map(old[k].1).clamp(start, n_new)
        };
        ranges[k] = (start, end);
    }
}

/// The ROS 2 node that reads `speed_scaling.yaml`.
const SPEED_NODE: &str = "sector_tuner";
/// The ROS 2 node that reads `ot_sectors.yaml`.
const OT_NODE: &str = "ot_interpolator";
/// The ROS 2 parameter-file key under the node name.
const ROS_PARAMETERS: &str = "ros__parameters";

/// How many empty lines end `text` after its last line (a hand-edited file may have some).
fn blank_lines_after(text: &str) -> usize {
    let trimmed = text.trim_end_matches(['\n', '\r', ' ', '\t']);
    let tail = &text[trimmed.len()..];
    tail.matches('\n').count().saturating_sub(1)
}

/// The ROS 1 text `plain` as `flavor` writes it: unchanged, or under `node: ros__parameters:`.
fn wrap(plain: String, flavor: Flavor, node: &str) -> String {
    match flavor {
        Flavor::Ros1 => plain,
        Flavor::Ros2 => {
            let mut s = format!("{node}:\n  {ROS_PARAMETERS}:\n");
            for line in plain.lines() {
                s.push_str("    ");
                s.push_str(line);
                s.push('\n');
            }
            s
        }
    }
}

fn push_extra(s: &mut String, extra: &[(String, Value)], indent: &str) {
    for (k, v) in extra {
        let mut m = Mapping::new();
        m.insert(Value::String(k.clone()), v.clone());
        let text = serde_yaml_ng::to_string(&m).unwrap_or_default();
        for line in text.lines() {
            s.push_str(indent);
            s.push_str(line);
            s.push('\n');
        }
    }
}

/// Reads a sector file: a regular file of at most [`crate::MAX_YAML_BYTES`], as UTF-8.
fn read_sector_file(path: &Path) -> Result<String> {
    crate::input_file::read_text_file(path, crate::input_file::MAX_YAML_BYTES, "sector file")
}

/// A parsed sector YAML with helpers that name the file and key in errors.
struct Doc<'a> {
    map: Mapping,
    path: &'a Path,
    flavor: Flavor,
}

impl<'a> Doc<'a> {
    /// Parses the file; a ROS 2 parameter file (`<node>: ros__parameters: {...}`, the node
    /// normally `node`, any name accepted) is unwrapped and remembered as [`Flavor::Ros2`].
    fn parse(text: &str, path: &'a Path, node: &str) -> Result<Self> {
        let value = crate::nesting::parse_yaml_with(text, path, |e| {
            huge_integer(path, &e).unwrap_or_else(|| crate::error::yaml_syntax(path, &e))
        })?;
        let Value::Mapping(map) = value else {
            return Err(FormatError::syntax(
                path,
                None,
                None,
                "expected a YAML mapping with n_sectors and one entry per sector",
            ));
        };
        match ros2_parameters(&map) {
            Some(Some(inner)) => Ok(Doc {
                map: inner.clone(),
                path,
                flavor: Flavor::Ros2,
            }),
            Some(None) => Err(FormatError::bad_value(
                path,
                ROS_PARAMETERS,
                None,
                format!("a ROS 2 parameter file: \"{ROS_PARAMETERS}\" under the node name (normally \"{node}\") must be a mapping with n_sectors and one entry per sector"),
            )),
            None => Ok(Doc {
                map,
                path,
                flavor: Flavor::Ros1,
            }),
        }
    }

    fn get(&self, key: &str) -> Result<&Value> {
        self.map.get(Value::from(key)).ok_or_else(|| {
            FormatError::missing_field(self.path, key, format!("missing field \"{key}\""))
        })
    }

    fn number(&self, key: &str) -> Result<f64> {
        as_number(self.get(key)?, key, self.path)
    }

    fn int(&self, key: &str) -> Result<i64> {
        as_int(self.get(key)?, key, self.path)
    }

    /// The `<prefix>N` entries in N order, each read by `read`; at least one must exist,
    /// `fields` (its known keys) name what one holds in the message otherwise.
    fn entries<T>(
        &self,
        prefix: &str,
        fields: &[&str],
        read: impl Fn(&Fields) -> Result<T>,
    ) -> Result<Vec<T>> {
        let sections = self.sections(prefix)?;
        if sections.is_empty() {
            return Err(FormatError::missing_field(
                self.path,
                format!("{prefix}0"),
                format!(
                    "no sector entries; expected {prefix}0 (with {})",
                    fields.join(", ")
                ),
            ));
        }
        sections
            .iter()
            .map(|(name, map)| {
                read(&Fields {
                    doc: self,
                    name,
                    map,
                })
            })
            .collect()
    }

    /// The `<prefix>N` sections in N order; N must run 0, 1, 2, … without gaps.
    fn sections(&self, prefix: &str) -> Result<Vec<(String, &Mapping)>> {
        let mut found: Vec<(u64, String, &Mapping)> = Vec::new();
        for (k, v) in &self.map {
            let Some(name) = k.as_str() else { continue };
            let Some(num) = name.strip_prefix(prefix) else {
                continue;
            };
            let Ok(idx) = num.parse::<u64>() else {
                if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(FormatError::bad_value(
                        self.path,
                        name,
                        None,
                        format!("\"{name}\": the sector number is far too large; number the entries {prefix}0, {prefix}1, … in order"),
                    ));
                }
                continue;
            };
            let m = v.as_mapping().ok_or_else(|| {
                FormatError::bad_value(
                    self.path,
                    name,
                    None,
                    format!("\"{name}\" must be a mapping with start and end"),
                )
            })?;
            found.push((idx, name.to_string(), m));
        }
        found.sort_by_key(|(i, _, _)| *i);
        for (want, (idx, name, _)) in found.iter().enumerate() {
            if *idx != want as u64 {
                return Err(FormatError::missing_field(
                    self.path,
                    format!("{prefix}{want}"),
                    format!("sector entries must be numbered {prefix}0, {prefix}1, … without gaps; found \"{name}\" where \"{prefix}{want}\" was expected"),
                ));
            }
        }
        Ok(found.into_iter().map(|(_, n, m)| (n, m)).collect())
    }

    fn extra(&self, known: &[&str], prefix: &str) -> Vec<(String, Value)> {
        self.map
            .iter()
            .filter_map(|(k, v)| {
                let name = match k {
                    Value::String(s) => s.clone(),
                    other => serde_yaml_ng::to_string(other)
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                };
                let is_section = name
                    .strip_prefix(prefix)
                    .is_some_and(|n| n.parse::<u64>().is_ok());
                (!known.contains(&name.as_str()) && !is_section).then(|| (name, v.clone()))
            })
            .collect()
    }
}

/// For a ROS 2 parameter file (one top-level key whose value holds only `ros__parameters`):
/// `Some(Some(parameters))`, or `Some(None)` where those are not a mapping; `None` otherwise.
fn ros2_parameters(map: &Mapping) -> Option<Option<&Mapping>> {
    if map.len() != 1 {
        return None;
    }
    let (_, node) = map.iter().next()?;
    let node = node.as_mapping()?;
    if node.len() != 1 {
        return None;
    }
    let params = node.get(Value::from(ROS_PARAMETERS))?;
    Some(params.as_mapping())
}

struct Fields<'a> {
    doc: &'a Doc<'a>,
    name: &'a str,
    map: &'a Mapping,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Result<&Value> {
        self.map.get(Value::from(key)).ok_or_else(|| {
            FormatError::missing_field(
                self.doc.path,
                format!("{}.{key}", self.name),
                format!("{}: missing field \"{key}\"", self.name),
            )
        })
    }

    fn int(&self, key: &str) -> Result<i64> {
        as_int(
            self.get(key)?,
            &format!("{}.{key}", self.name),
            self.doc.path,
        )
    }

    fn number(&self, key: &str) -> Result<f64> {
        as_number(
            self.get(key)?,
            &format!("{}.{key}", self.name),
            self.doc.path,
        )
    }

    fn boolean(&self, key: &str) -> Result<bool> {
        let v = self.get(key)?;
        v.as_bool().ok_or_else(|| {
            FormatError::bad_value(
                self.doc.path,
                format!("{}.{key}", self.name),
                None,
                format!(
                    "{}.{key} must be true or false (found {})",
                    self.name,
                    yaml_short(v)
                ),
            )
        })
    }

    fn extra(&self, known: &[&str]) -> Vec<(String, Value)> {
        self.map
            .iter()
            .filter_map(|(k, v)| {
                let name = k.as_str()?.to_string();
                (!known.contains(&name.as_str())).then(|| (name, v.clone()))
            })
            .collect()
    }
}

fn as_number(v: &Value, key: &str, path: &Path) -> Result<f64> {
    v.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!(
                "\"{key}\" must be a finite number (found {})",
                yaml_short(v)
            ),
        )
    })
}

fn as_int(v: &Value, key: &str, path: &Path) -> Result<i64> {
    v.as_i64().ok_or_else(|| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!("\"{key}\" must be an integer (found {})", yaml_short(v)),
        )
    })
}

/// A YAML integer too large for any integer type (`end: 99999999999999999999`) as the
/// out-of-range value it is, naming the field and the line, instead of a syntax error.
fn huge_integer(path: &Path, e: &serde_yaml_ng::Error) -> Option<FormatError> {
    let msg = e.to_string();
    let (field, rest) = msg.split_once(": invalid type: integer `")?;
    let (digits, _) = rest.split_once('`')?;
    let line = e.location().map(|l| l.line());
    let at = line.map_or(String::new(), |l| format!(" (line {l})"));
    Some(FormatError::bad_value(
        path,
        field,
        line,
        format!(
            "\"{field}\" is {}{at}, far outside any waypoint index; sector indices run from 0 to the racing line's point count",
            crate::table::short(digits)
        ),
    ))
}

fn yaml_short(v: &Value) -> String {
    // A list or mapping in flow style on one line ([1], not the block list "- 1").
    let s = match v {
        Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => serde_json::to_string(v)
            .unwrap_or_else(|_| serde_yaml_ng::to_string(v).unwrap_or_default()),
        Value::String(t) if t.chars().any(char::is_control) => format!("{t:?}"),
        _ => serde_yaml_ng::to_string(v).unwrap_or_default(),
    };
    crate::table::short(s.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEED: &str = "global_limit: 0.5\nn_sectors: 2\nSector0:\n  start: 0\n  end: 408\n  scaling: 0.5\n  only_FTG: false\n  no_FTG: false\nSector1:\n  start: 409\n  end: 766\n  scaling: 1.0\n  only_FTG: false\n  no_FTG: true\n";
    const OT: &str = "n_sectors: 2\nyeet_factor: 1.25\nspline_len: 30\not_sector_begin: 0.5\nOvertaking_sector0:\n  start: 0\n  end: 408\n  ot_flag: false\nOvertaking_sector1:\n  start: 409\n  end: 766\n  ot_flag: true\n";

    #[test]
    fn text_round_trips_exactly() {
        let p = Path::new("s.yaml");
        let s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        assert_eq!(s.to_yaml_string(), SPEED);
        s.validate(766, p).unwrap();
        let o = OtSectors::from_yaml_str(OT, p).unwrap();
        assert_eq!(o.to_yaml_string(), OT);
        o.validate(766, p).unwrap();
    }

    #[test]
    fn unknown_keys_survive() {
        let p = Path::new("s.yaml");
        let text = SPEED.replace("  no_FTG: true\n", "  no_FTG: true\n  note: pit lane\n")
            + "comment: hand tuned\n";
        let s = SpeedScaling::from_yaml_str(&text, p).unwrap();
        let again = SpeedScaling::from_yaml_str(&s.to_yaml_string(), p).unwrap();
        assert_eq!(again, s);
        assert_eq!(s.sectors[1].extra.len(), 1);
        assert_eq!(s.extra.len(), 1);
    }

    #[test]
    fn validation_names_the_problem() {
        let p = Path::new("s.yaml");
        let s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        let e = s.validate(700, p).unwrap_err().to_string();
        assert!(e.contains("Sector1") && e.contains("0..=700"), "{e}");
        let mut bad = s.clone();
        bad.sectors[1].start = 300;
        let e = bad.validate(766, p).unwrap_err().to_string();
        assert!(e.contains("overlaps"), "{e}");
        let mut bad = s.clone();
        bad.sectors[0].scaling = 0.0;
        let e = bad.validate(766, p).unwrap_err().to_string();
        assert!(e.contains("scaling"), "{e}");
        let mut bad = s.clone();
        bad.declared_n_sectors = 3;
        assert!(bad
            .validate(766, p)
            .unwrap_err()
            .to_string()
            .contains("n_sectors"));
        let mut bad = s;
        bad.sectors[1].start = 420;
        assert!(bad
            .validate(766, p)
            .unwrap_err()
            .to_string()
            .contains("gap"));
    }

    #[test]
    fn numbering_gaps_are_errors() {
        let text = OT.replace("Overtaking_sector1", "Overtaking_sector2");
        let e = OtSectors::from_yaml_str(&text, Path::new("o.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("Overtaking_sector1"), "{e}");
    }

    #[test]
    fn remap_keeps_fractions_and_contiguity() {
        let p = Path::new("s.yaml");
        let mut s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        s.remap(766, 1532);
        assert_eq!(
            s.sectors
                .iter()
                .map(|x| (x.start, x.end))
                .collect::<Vec<_>>(),
            vec![(0, 816), (817, 1532)]
        );
        s.validate(1532, p).unwrap();
        let mut o = OtSectors::from_yaml_str(OT, p).unwrap();
        let old: Vec<f64> = (0..766).map(|i| i as f64 * 0.1).collect();
        let new: Vec<f64> = (0..383).map(|i| i as f64 * 0.2).collect();
        o.remap_by_arc_length(&old, &new);
        assert_eq!(o.sectors[0].end, 204);
        assert_eq!(o.sectors[1].start, 205);
        assert_eq!(o.sectors[1].end, 383);
        o.validate(383, p).unwrap();
    }

    /// `text` indented by `indent` spaces under `node: ros__parameters:`, written by hand.
    fn ros2(node: &str, text: &str) -> String {
        let mut s = format!("{node}:\n  ros__parameters:\n");
        for line in text.lines() {
            s.push_str(&format!("    {line}\n"));
        }
        s
    }

    #[test]
    fn ros2_parameter_files_are_read_as_ros2_and_round_trip_exactly() {
        let p = Path::new("s.yaml");
        let speed_text = ros2("sector_tuner", SPEED);
        let s = SpeedScaling::from_yaml_str(&speed_text, p).unwrap();
        assert_eq!(s.flavor, Flavor::Ros2);
        assert_eq!(s, {
            let mut plain = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
            plain.flavor = Flavor::Ros2;
            plain
        });
        assert_eq!(s.to_yaml_string(), speed_text);
        let ot_text = ros2("ot_interpolator", OT);
        let o = OtSectors::from_yaml_str(&ot_text, p).unwrap();
        assert_eq!(o.flavor, Flavor::Ros2);
        assert_eq!(o.sectors.len(), 2);
        assert_eq!(o.to_yaml_string(), ot_text);
        // the plain file stays ROS 1, and converting flavours is a field change
        let mut plain = OtSectors::from_yaml_str(OT, p).unwrap();
        assert_eq!(plain.flavor, Flavor::Ros1);
        plain.flavor = Flavor::Ros2;
        assert_eq!(plain.to_yaml_string(), ot_text);
        // a hand-edited file's blank lines at the end survive a rewrite
        let padded = format!("{speed_text}\n\n");
        let s = SpeedScaling::from_yaml_str(&padded, p).unwrap();
        assert_eq!((s.blank_lines_after, s.to_yaml_string()), (2, padded));
    }

    #[test]
    fn ros2_wrapper_without_a_parameter_mapping_is_an_error_naming_it() {
        let p = Path::new("s.yaml");
        let err = SpeedScaling::from_yaml_str("sector_tuner:\n  ros__parameters: 3\n", p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ros__parameters") && err.contains("s.yaml"),
            "{err}"
        );
    }

    /// A circle of radius 10 m from angle 0 with a bump of `bump` m outwards between the
    /// angles 0.3 and 0.9 rad (a reroute that lengthens the first part), `n` points at equal
    /// arc length, as racing lines are sampled.
    fn circle(n: usize, bump: f64) -> Vec<[f64; 2]> {
        let dense: Vec<[f64; 2]> = (0..=20_000)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / 20_000.0;
                let r = if (0.3..0.9).contains(&t) {
                    10.0 + bump * ((t - 0.3) / 0.6 * std::f64::consts::PI).sin()
                } else {
                    10.0
                };
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        let mut s = vec![0.0];
        for w in dense.windows(2) {
            s.push(s.last().unwrap() + (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]));
        }
        let total = *s.last().unwrap();
        (0..n)
            .map(|i| {
                let target = total * i as f64 / n as f64;
                dense[s.partition_point(|&x| x < target).min(dense.len() - 1)]
            })
            .collect()
    }

    /// After a reroute that lengthens the line before them, hand-placed boundaries moved by
    /// metres when remapped by lap fraction; by position each stays where it was.
    #[test]
    fn sector_boundaries_follow_positions_after_a_reroute() {
        let old = circle(628, 0.0);
        let new = circle(700, 3.0);
        let ranges = [(0, 157), (157, 314), (315, 471), (471, 628)];
        let (got, moves) = remap_ranges_by_position(&ranges, &old, &new, "Sector").unwrap();
        let spacing = std::f64::consts::TAU * 10.0 / 628.0;
        for m in &moves {
            assert!(m.moved_m <= spacing, "{m:?}");
        }
        assert_eq!(got[0].0, 0);
        assert_eq!(got.last().unwrap().1, 700);
        assert_eq!(got[2].0, got[1].1 + 1, "the gap of 1 is kept");
        // By lap fraction the same boundaries land metres away.
        let frac = |i: i64| (i as f64 * 700.0 / 628.0).round() as i64;
        let off = (0..3)
            .map(|k| {
                let (p, q) = (old[ranges[k].1 as usize], new[frac(ranges[k].1) as usize]);
                (p[0] - q[0]).hypot(p[1] - q[1])
            })
            .fold(0.0, f64::max);
        assert!(
            off > 5.0 * spacing,
            "the test must tell the two apart ({off} m)"
        );
    }

    /// Two boundaries one step apart on a line that loses points never make an empty sector.
    #[test]
    fn a_remap_by_position_never_creates_empty_sectors() {
        let old = circle(600, 0.0);
        let new = circle(60, 0.0);
        let ranges = [(0, 100), (100, 101), (101, 102), (102, 600)];
        let (got, _) = remap_ranges_by_position(&ranges, &old, &new, "Sector").unwrap();
        for (a, b) in &got {
            assert!(b > a, "{got:?}");
        }
        check_contiguous(&got, "Sector", Some(60)).unwrap();
        let err = remap_ranges_by_position(&ranges, &old, &new[..3], "Sector").unwrap_err();
        assert!(err.contains("too few"), "{err}");
    }

    /// An unchanged line leaves every index where it was.
    #[test]
    fn a_remap_onto_the_same_line_changes_nothing() {
        let line = circle(500, 1.0);
        let ranges = [(0, 120), (121, 300), (300, 500)];
        let (got, moves) = remap_ranges_by_position(&ranges, &line, &line, "Sector").unwrap();
        assert_eq!(got, ranges);
        assert!(moves.iter().all(|m| m.moved_m == 0.0));
    }

    /// A sector index too large for any integer was reported as a syntax error ("fix the
    /// syntax"); a sector number too large made the entries vanish ("no sector entries").
    #[test]
    fn sector_index_overflow_names_the_field() {
        let p = Path::new("speed_scaling.yaml");
        let text = SPEED.replace("end: 408", "end: 99999999999999999999");
        let err = SpeedScaling::from_yaml_str(&text, p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Sector0.end") && !err.contains("syntax"),
            "{err}"
        );
        let text = SPEED.replace("Sector1:", "Sector99999999999999999999:");
        let err = SpeedScaling::from_yaml_str(&text, p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Sector99999999999999999999") && err.contains("too large"),
            "{err}"
        );
    }
}
