//! What changed between two builds of a track (issue 23, change views): the driven lines of
//! both overlaid, the lateral shift of the new line from the old along s, the time of each
//! sector on each line, and the map pixels that differ.

use base64::Engine;
use mapzoo_format::Waypoint;
use mapzoo_geom::{Norm, SegmentIndex};
use mapzoo_render::{PictureLine, TrackPicture};

use crate::data::{column, line_json, map_json, num, string, walls_json, waypoint_columns, D_LEN};
use crate::error::ViewError;
use crate::html::{assemble, ViewOptions};

/// Sectors a lap is cut into when the new set has fewer than two speed-scaling sectors.
pub const EQUAL_SECTORS: usize = 10;

/// One sector's time on the old and the new line.
#[derive(Debug, Clone, PartialEq)]
pub struct SectorDelta {
    /// `S<i>` for a speed-scaling sector, `<i>/10` for a tenth of the lap.
    pub name: String,
    /// Where the sector starts and ends on the new line, metres.
    pub s_new: (f64, f64),
    /// Time on the old line, seconds.
    pub t_old: f64,
    /// Time on the new line, seconds.
    pub t_new: f64,
}

/// The differences between an old and a new build of one track.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Arc length of each waypoint of the new driven line, metres.
    pub s: Vec<f64>,
    /// Its signed distance from the old driven line, metres (positive: left of the old line
    /// in its driving direction).
    pub shift: Vec<f64>,
    /// Sector times on both lines.
    pub sectors: Vec<SectorDelta>,
    /// Whether each map pixel differs, row-major over the new map; `None` when the two maps
    /// differ in size, resolution or origin (then every pixel moved).
    pub changed: Option<Vec<bool>>,
}

impl Comparison {
    /// Compares the driven lines and maps of `old` and `new`.
    pub fn new(old: &TrackPicture, new: &TrackPicture) -> Self {
        let (a, b) = (old.main_line(), new.main_line());
        let s: Vec<f64> = b.iter().map(|w| w.s_m).collect();
        let shift = lateral_shift(a, b);
        let sectors = sector_times(a, b, new);
        let changed = changed_pixels(old, new);
        Comparison {
            s,
            shift,
            sectors,
            changed,
        }
    }

    /// Number of map pixels that differ (0 when the maps cannot be compared).
    pub fn changed_count(&self) -> usize {
        self.changed
            .as_ref()
            .map_or(0, |c| c.iter().filter(|&&x| x).count())
    }

    /// The largest absolute shift, metres.
    pub fn max_shift(&self) -> f64 {
        self.shift.iter().fold(0.0, |m, d| m.max(d.abs()))
    }
}

/// Signed distance of each point of `new` from the closed line `old` (positive to its left).
fn lateral_shift(old: &[Waypoint], new: &[Waypoint]) -> Vec<f64> {
    let pts: Vec<[f64; 2]> = old.iter().map(|w| [w.x_m, w.y_m]).collect();
    if pts.len() < 2 {
        return vec![0.0; new.len()];
    }
    let index = SegmentIndex::new(&pts, true, 0.5, Norm::Hypot);
    new.iter()
        .map(|w| {
            let q = [w.x_m, w.y_m];
            let Some(n) = index.nearest(q) else {
                return 0.0;
            };
            let (p0, p1) = index.segment(n.segment);
            let (dx, dy) = (p1[0] - p0[0], p1[1] - p0[1]);
            let cross = dx * (q[1] - p0[1]) - dy * (q[0] - p0[0]);
            if cross < 0.0 {
                -n.distance
            } else {
                n.distance
            }
        })
        .collect()
}

/// Time from row `i` to row `i + 1` of a line (TUM's `calc_t_profile` step, as the lap time).
fn step_time(line: &[Waypoint], i: usize) -> f64 {
    let (w, next) = (&line[i], &line[(i + 1) % line.len()]);
    let ds = if i + 1 < line.len() {
        next.s_m - w.s_m
    } else {
        0.0
    };
    if ds <= 0.0 || w.vx_mps <= 0.0 {
        return 0.0;
    }
    let (v, a) = (w.vx_mps, w.ax_mps2);
    if a != 0.0 && v * v + 2.0 * a * ds >= 0.0 {
        (-v + (v * v + 2.0 * a * ds).sqrt()) / a
    } else {
        ds / v
    }
}

/// A sector boundary this close to a row counts as at the row, metres: a boundary starts at a
/// row of the new line, and carried to the old line by position it lands on a row's s give or
/// take rounding, which must not move the row to the neighbouring sector (rows are centimetres
/// apart).
const AT_ROW_M: f64 = 1e-3;

/// Time along `line` over the rows whose arc length lies in `[s0, s1)` (each end within
/// [`AT_ROW_M`] of a row taken as at it), seconds.
fn time_between(line: &[Waypoint], s0: f64, s1: f64) -> f64 {
    (0..line.len().saturating_sub(1))
        .filter(|&i| line[i].s_m >= s0 - AT_ROW_M && line[i].s_m < s1 - AT_ROW_M)
        .map(|i| step_time(line, i))
        .sum()
}

/// Arc length on `line` of the point nearest to `p`.
fn s_on(line: &[Waypoint], p: [f64; 2]) -> f64 {
    let pts: Vec<[f64; 2]> = line.iter().map(|w| [w.x_m, w.y_m]).collect();
    let index = SegmentIndex::new(&pts, false, 0.5, Norm::Hypot);
    match index.nearest(p) {
        Some(n) => {
            let k = n.segment;
            let (a, b) = (line[k].s_m, line[(k + 1).min(line.len() - 1)].s_m);
            a + n.t * (b - a)
        }
        None => 0.0,
    }
}

/// Sector times: the new set's speed-scaling sectors (at least two), else tenths of the lap;
/// each boundary carried to the old line by position.
fn sector_times(old: &[Waypoint], new: &[Waypoint], set: &TrackPicture) -> Vec<SectorDelta> {
    if old.len() < 2 || new.len() < 2 {
        return Vec::new();
    }
    let lap = new[new.len() - 1].s_m;
    let mut bounds: Vec<(String, f64, f64)> = if set.speed_sectors.len() >= 2 {
        set.speed_sectors
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let at = |j: usize| new[j.min(new.len() - 1)].s_m;
                (format!("S{i}"), at(k.start), at(k.end + 1))
            })
            .collect()
    } else {
        (0..EQUAL_SECTORS)
            .map(|i| {
                (
                    format!("{}/{EQUAL_SECTORS}", i + 1),
                    lap * i as f64 / EQUAL_SECTORS as f64,
                    lap * (i + 1) as f64 / EQUAL_SECTORS as f64,
                )
            })
            .collect()
    };
    if let Some(last) = bounds.last_mut() {
        last.2 = lap + 1.0; // the last sector runs to the end of the lap
    }
    // each boundary starts at a row of the new line (the first at or after it), so both lines
    // split at the same place whatever rounding put a boundary a hair before or after a row
    let row_at = |s: f64| &new[new.partition_point(|w| w.s_m < s).min(new.len() - 1)];
    let old_lap = old[old.len() - 1].s_m;
    bounds
        .into_iter()
        .enumerate()
        .map(|(i, (name, s0, s1))| {
            let (s0, o0) = if i == 0 {
                (s0, 0.0)
            } else {
                let w = row_at(s0);
                (w.s_m, s_on(old, [w.x_m, w.y_m]))
            };
            let (s1, o1) = if s1 > lap {
                (s1, old_lap + 1.0)
            } else {
                let w = row_at(s1);
                (w.s_m, s_on(old, [w.x_m, w.y_m]))
            };
            SectorDelta {
                name,
                s_new: (s0, s1.min(lap)),
                t_old: time_between(old, o0, o1),
                t_new: time_between(new, s0, s1),
            }
        })
        .collect()
}

/// Pixels whose gray differs between the two maps, when they cover the same grid.
fn changed_pixels(old: &TrackPicture, new: &TrackPicture) -> Option<Vec<bool>> {
    let (a, b) = (&old.map, &new.map);
    let same = a.width == b.width
        && a.height == b.height
        && a.resolution == b.resolution
        && a.origin == b.origin
        && a.gray.len() == b.gray.len();
    same.then(|| a.gray.iter().zip(&b.gray).map(|(x, y)| x != y).collect())
}

/// The changed pixels as a red, otherwise transparent PNG data URI over the (cut) new map,
/// reduced as the map is (a block is red if any of its pixels changed).
fn changed_png(
    new: &TrackPicture,
    changed: &[bool],
    options: &ViewOptions,
) -> Result<String, ViewError> {
    // cut as the map is: the same picture with the mask as its gray
    let mut mask = new.clone();
    mask.map.gray = changed.iter().map(|&c| if c { 255 } else { 0 }).collect();
    let mask = match options.crop_margin_m {
        Some(m) => mask.cropped_to_track(m),
        None => mask,
    };
    let (w, h) = (mask.map.width, mask.map.height);
    let k = w.max(h).div_ceil(options.max_map_px.max(16)).max(1);
    let (rw, rh) = (w.div_ceil(k), h.div_ceil(k));
    let mut rgba = vec![0u8; rw * rh * 4];
    for r in 0..h {
        for c in 0..w {
            if mask.map.gray[r * w + c] != 0 {
                let i = ((r / k) * rw + c / k) * 4;
                rgba[i..i + 4].copy_from_slice(&[255, 20, 20, 230]);
            }
        }
    }
    let image = image::RgbaImage::from_raw(rw as u32, rh as u32, rgba).ok_or_else(|| {
        ViewError::Encode {
            name: new.name.clone(),
            reason: "pixel buffer size".into(),
        }
    })?;
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| ViewError::Encode {
            name: new.name.clone(),
            reason: e.to_string(),
        })?;
    Ok(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    ))
}

/// Largest number of rings the page draws round changed places.
const MAX_SPOTS: usize = 200;

/// Where pixels changed, as rings `[x, y, radius]` (metres): the changed pixels grouped on a
/// 1 m grid, each group's centre and the radius that covers it; at most [`MAX_SPOTS`] groups
/// (the largest), in grid order.
fn changed_spots(map: &mapzoo_format::OccupancyMap, changed: &[bool]) -> Vec<[f64; 3]> {
    let cell = (1.0 / map.resolution).round().max(1.0) as usize;
    let mut groups: std::collections::BTreeMap<(usize, usize), Vec<[f64; 2]>> = Default::default();
    for (i, _) in changed.iter().enumerate().filter(|(_, &c)| c) {
        let (r, c) = (i / map.width, i % map.width);
        let (x, y) = map.pixel_to_world(c as f64, r as f64);
        groups.entry((r / cell, c / cell)).or_default().push([x, y]);
    }
    let mut spots: Vec<(usize, [f64; 3])> = groups
        .into_values()
        .map(|pts| {
            let n = pts.len() as f64;
            let cx = pts.iter().map(|p| p[0]).sum::<f64>() / n;
            let cy = pts.iter().map(|p| p[1]).sum::<f64>() / n;
            let r = pts
                .iter()
                .fold(0.0f64, |m, p| m.max((p[0] - cx).hypot(p[1] - cy)));
            (pts.len(), [cx, cy, r + map.resolution])
        })
        .collect();
    if spots.len() > MAX_SPOTS {
        let mut by_size: Vec<usize> = (0..spots.len()).collect();
        by_size.sort_by_key(|&i| std::cmp::Reverse(spots[i].0));
        let keep: std::collections::BTreeSet<usize> =
            by_size[..MAX_SPOTS].iter().copied().collect();
        spots = spots
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep.contains(i))
            .map(|(_, s)| s)
            .collect();
    }
    spots.into_iter().map(|(_, s)| s).collect()
}

/// The driven line of `t` as a page line named `name`.
fn driven(t: &TrackPicture, name: &str, when: &str) -> String {
    let kind = t.racing;
    let line = t.line(kind).cloned().unwrap_or(PictureLine {
        kind,
        waypoints: t.main_line().to_vec(),
        lap_s: None,
        max_mps: None,
    });
    line_json(name, &format!("{when} ({})", kind.label()), &line)
}

/// The page comparing `old` with `new`: both driven lines, the new centerline, walls and
/// sectors, the shift plot, the sector table and the changed pixels over the new map.
pub fn compare_page(
    old: &TrackPicture,
    new: &TrackPicture,
    options: &ViewOptions,
) -> Result<(String, Comparison), ViewError> {
    let cmp = Comparison::new(old, new);
    let shown = match options.crop_margin_m {
        Some(m) => new.cropped_to_track(m),
        None => new.clone(),
    };
    let changed = match &cmp.changed {
        Some(c) if c.iter().any(|&x| x) => string(&changed_png(new, c, options)?),
        _ => "null".into(),
    };
    let sectors: Vec<String> = cmp
        .sectors
        .iter()
        .map(|q| {
            format!(
                "{{\"name\":{},\"s0\":{},\"s1\":{},\"t0\":{},\"t1\":{}}}",
                string(&q.name),
                num(q.s_new.0, D_LEN),
                num(q.s_new.1, D_LEN),
                num(q.t_old, 4),
                num(q.t_new, 4)
            )
        })
        .collect();
    let spots = cmp
        .changed
        .as_ref()
        .map_or(Vec::new(), |c| changed_spots(&new.map, c));
    let compare = format!(
        "{{\"shift\":{{\"name\":\"shift\",\"label\":\"shift\",\"s\":{},\"d\":{}}},\"sectors\":[{}],\"changed\":{},\"spots\":{},\"changed_px\":{}}}",
        column(cmp.s.iter().copied(), D_LEN),
        column(cmp.shift.iter().copied(), D_LEN),
        sectors.join(","),
        changed,
        column(spots.iter().flat_map(|p| *p), D_LEN),
        cmp.changed_count()
    );
    let track = format!(
        "{{\"name\":{},\"map\":{},\"walls\":{},\"center\":{{{}}},\"lines\":[{},{}],\"racing\":\"after\",\"speed\":[],\"ot\":[],\"cmp\":{compare}}}",
        string(&format!("{}: before → after", new.name)),
        map_json(&new.name, &shown.map, options.max_map_px)?,
        walls_json(&shown),
        waypoint_columns(&shown.centerline, false),
        driven(old, "before", "Before"),
        driven(new, "after", "After"),
    );
    let title = format!("{} changes", new.name);
    Ok((assemble(&title, &format!("[{track}]"), "true"), cmp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(r: f64, n: usize, v: f64) -> Vec<Waypoint> {
        (0..=n)
            .map(|i| {
                let t = std::f64::consts::TAU * (i % n) as f64 / n as f64;
                Waypoint {
                    id: i as i64,
                    s_m: r * std::f64::consts::TAU * i as f64 / n as f64,
                    x_m: r * t.cos(),
                    y_m: r * t.sin(),
                    vx_mps: v,
                    ..Waypoint::default()
                }
            })
            .collect()
    }

    #[test]
    fn a_wider_circle_is_shifted_right_by_the_radius_difference() {
        // counter-clockwise: right is outward, so a larger ring is a negative (rightward) shift
        let d = lateral_shift(&ring(5.0, 400, 1.0), &ring(5.5, 400, 1.0));
        for x in d {
            assert!((x + 0.5).abs() < 1e-3, "{x}");
        }
    }

    #[test]
    fn sector_times_add_up_to_the_lap_at_constant_speed() {
        let old = ring(5.0, 200, 2.0);
        let new = ring(5.0, 200, 4.0);
        let set = TrackPicture::new(
            "ring",
            mapzoo_format::OccupancyMap::from_free_mask(1, 1, 0.1, [0.0; 3], vec![0], vec![false]),
        );
        let q = sector_times(&old, &new, &set);
        assert_eq!(q.len(), EQUAL_SECTORS);
        let lap = 5.0 * std::f64::consts::TAU;
        let (t0, t1): (f64, f64) = q
            .iter()
            .fold((0.0, 0.0), |(a, b), s| (a + s.t_old, b + s.t_new));
        assert!((t0 - lap / 2.0).abs() < 1e-9, "{t0}");
        assert!((t1 - lap / 4.0).abs() < 1e-9, "{t1}");
        for s in &q {
            assert!((s.t_old - 2.0 * s.t_new).abs() < 1e-3, "{s:?}");
        }
    }

    #[test]
    fn a_boundary_a_rounding_off_a_row_keeps_the_row_in_its_sector() {
        // speeds that differ row by row, so a row moved to the next sector changes both times
        let mut line = ring(5.0, 200, 1.0);
        for (i, w) in line.iter_mut().enumerate() {
            w.vx_mps = 1.0 + (i % 7) as f64 * 0.3;
        }
        let (a, b) = (line[40].s_m, line[90].s_m);
        let t = time_between(&line, a, b);
        for (da, db) in [(1e-9, 1e-9), (-1e-9, -1e-9), (1e-9, -1e-9), (-1e-9, 1e-9)] {
            let u = time_between(&line, a + da, b + db);
            assert!((u - t).abs() < 1e-12, "{u} != {t} ({da}, {db})");
        }
        // the rows 40..=89
        let rows: f64 = (40..90).map(|i| step_time(&line, i)).sum();
        assert!((t - rows).abs() < 1e-12, "{t} != {rows}");
    }

    #[test]
    fn the_same_line_has_the_same_sector_times_when_boundaries_fall_on_rows() {
        // 200 rows: every tenth of the lap is a row; speeds differ row by row; the old line is
        // the new one give or take rounding (as a line read back from a file)
        let mut new = ring(5.0, 200, 1.0);
        for (i, w) in new.iter_mut().enumerate() {
            w.vx_mps = 1.0 + (i % 7) as f64 * 0.3;
        }
        let set = TrackPicture::new(
            "ring",
            mapzoo_format::OccupancyMap::from_free_mask(1, 1, 0.1, [0.0; 3], vec![0], vec![false]),
        );
        for noise in [1e-10, -1e-10] {
            let mut old = new.clone();
            for (i, w) in old.iter_mut().enumerate() {
                let e = if i % 2 == 0 { noise } else { -noise };
                w.s_m += e;
                w.x_m += e;
            }
            for q in sector_times(&old, &new, &set) {
                assert!((q.t_old - q.t_new).abs() < 1e-6, "{noise}: {q:?}");
            }
        }
    }
}
