//! Sector index ranges, the part both files share: the checks of DESIGN §2.4 (bounds,
//! contiguity, the declared count) and the remaps that carry ranges to a racing line
//! of another length (by lap fraction, by arc length, by position).

use std::path::Path;

use crate::error::{FormatError, Result};

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
pub(super) trait Sector {
    fn range(&self) -> (i64, i64);
    fn set_range(&mut self, range: (i64, i64));
}

/// The (start, end) index pairs of `sectors`.
pub(super) fn ranges(sectors: &[impl Sector]) -> Vec<(i64, i64)> {
    sectors.iter().map(Sector::range).collect()
}

/// Remaps the ranges of `sectors` by `map` to a line of `n_new` points (see [`remap_ranges`]).
pub(super) fn remap_sectors(sectors: &mut [impl Sector], map: impl Fn(i64) -> i64, n_new: usize) {
    let mut new = ranges(sectors);
    remap_ranges(&mut new, map, n_new);
    set_ranges(sectors, new);
}

/// Moves the boundaries of `sectors` from the line `old` to `new` by position (see
/// [`remap_ranges_by_position`]; `prefix` names the sectors in messages) and returns every
/// interior boundary's move. Err leaves `sectors` unchanged.
pub(super) fn remap_sectors_by_position(
    sectors: &mut [impl Sector],
    old: &[[f64; 2]],
    new: &[[f64; 2]],
    prefix: &str,
) -> std::result::Result<Vec<BoundaryMove>, String> {
    let (new_ranges, moves) = remap_ranges_by_position(&ranges(sectors), old, new, prefix)?;
    set_ranges(sectors, new_ranges);
    Ok(moves)
}

/// Gives each of `sectors` its range from `new`, in order.
fn set_ranges(sectors: &mut [impl Sector], new: Vec<(i64, i64)>) {
    for (s, r) in sectors.iter_mut().zip(new) {
        s.set_range(r);
    }
}

pub(super) fn check_count(declared: i64, found: usize, path: &Path) -> Result<()> {
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
pub(super) fn check_ranges(
    ranges: &[(i64, i64)],
    prefix: &str,
    n: usize,
    path: &Path,
) -> Result<()> {
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

pub(super) fn fraction_map(i: i64, n_old: usize, n_new: usize) -> i64 {
    if n_old == 0 {
        return 0;
    }
    ((i as f64) * (n_new as f64) / (n_old as f64)).round() as i64
}

/// The index in `new_s` whose arc-length fraction is nearest to that of `old_s[i]`.
pub(super) fn arc_map(i: i64, old_s: &[f64], new_s: &[f64]) -> i64 {
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
pub(super) fn remap_ranges(ranges: &mut [(i64, i64)], map: impl Fn(i64) -> i64, n_new: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
