//! What a picture shows, as plain in-memory data: the occupancy map and the
//! lines of one track set (DESIGN §2), independent of where they came from.

use mapzoo_format::LineKind;
use mapzoo_format::{OccupancyMap, Waypoint};
use mapzoo_geom::Walls;

/// Everything drawn for one track, in world metres.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackPicture {
    /// Track name, printed as the title.
    pub name: String,
    /// The occupancy map, drawn in gray at true scale.
    pub map: OccupancyMap,
    /// Track bounds, right and left (either may be empty), metres.
    pub walls: Walls,
    /// Centerline waypoints (closed implicitly).
    pub centerline: Vec<Waypoint>,
    /// The racing lines, in [`LineKind::ALL`] order, each coloured by `vx_mps`.
    pub lines: Vec<PictureLine>,
    /// Speed-scaling sectors (speed_scaling.yaml), indices into the [`Self::racing`] line.
    pub speed_sectors: Vec<SectorSpan>,
    /// Overtaking sectors (ot_sectors.yaml), indices into the [`Self::racing`] line.
    pub overtaking_sectors: Vec<SectorSpan>,
    /// The line the car drives, which the sector files index ([`LineKind::RACING`] unless
    /// the set drives another, `--racing-line mintime`).
    pub racing: LineKind,
    /// Width and height of the whole map, pixels, when `map` is a part of it
    /// ([`TrackPicture::cropped_to_track`]); `None` when `map` is the whole map.
    pub whole_map_px: Option<(usize, usize)>,
}

/// One racing line of a picture, with the figures printed under the title.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureLine {
    /// Which line; it decides how the line is drawn and labelled.
    pub kind: LineKind,
    /// The trajectory, coloured by `vx_mps` (may be empty where only the figures are known).
    pub waypoints: Vec<Waypoint>,
    /// Estimated lap time as published in `map_info_str`, seconds.
    pub lap_s: Option<f64>,
    /// Maximum speed as published in `map_info_str`, m/s.
    pub max_mps: Option<f64>,
}

/// One sector: a run of racing-line waypoint indices and a short note to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectorSpan {
    /// First racing-line waypoint index of the sector.
    pub start: usize,
    /// Last racing-line waypoint index of the sector.
    pub end: usize,
    /// Short note, e.g. `x0.50` for a speed scaling or `ot` for an overtaking sector.
    pub note: String,
}

impl TrackPicture {
    /// A picture of `map` alone, named `name`; add lines by setting the fields.
    pub fn new(name: impl Into<String>, map: OccupancyMap) -> Self {
        TrackPicture {
            name: name.into(),
            map,
            walls: Walls::default(),
            centerline: Vec::new(),
            lines: Vec::new(),
            speed_sectors: Vec::new(),
            overtaking_sectors: Vec::new(),
            racing: LineKind::RACING,
            whole_map_px: None,
        }
    }

    /// The line of `kind`, if the picture has it.
    pub fn line(&self, kind: LineKind) -> Option<&PictureLine> {
        self.lines.iter().find(|l| l.kind == kind)
    }

    /// The waypoints of the line of `kind` (empty if the picture has none).
    pub fn waypoints(&self, kind: LineKind) -> &[Waypoint] {
        self.line(kind).map_or(&[], |l| &l.waypoints)
    }

    /// The line of `kind`, added empty (in [`LineKind::ALL`] order) if the picture lacks it.
    pub fn line_mut(&mut self, kind: LineKind) -> &mut PictureLine {
        let rank = |k: LineKind| LineKind::ALL.iter().position(|&a| a == k);
        let at = match self.lines.iter().position(|l| l.kind == kind) {
            Some(i) => i,
            None => {
                let i = self
                    .lines
                    .iter()
                    .position(|l| rank(l.kind) > rank(kind))
                    .unwrap_or(self.lines.len());
                self.lines.insert(
                    i,
                    PictureLine {
                        kind,
                        waypoints: Vec::new(),
                        lap_s: None,
                        max_mps: None,
                    },
                );
                i
            }
        };
        &mut self.lines[at]
    }

    /// The line the start arrow and sector ticks sit on: the driven line ([`Self::racing`]),
    /// else the first racing line with waypoints (IQP, else SP), else the centerline.
    pub fn main_line(&self) -> &[Waypoint] {
        let driven = self.waypoints(self.racing);
        if !driven.is_empty() {
            return driven;
        }
        self.lines
            .iter()
            .find(|l| !l.waypoints.is_empty())
            .map_or(&self.centerline, |l| &l.waypoints)
    }
}

/// The track bounds of a centerline without walls, rebuilt from its `d_right`/`d_left` as
/// the racing-line stage rebuilds them ([`mapzoo_raceline::walls_from_centerline`], along
/// the normals of the closed spline through the points), so a picture shows the walls the
/// shortest path was measured to; none when no closed spline fits (fewer than three
/// distinct points, coincident points).
pub fn walls_from_widths(line: &[Waypoint]) -> Walls {
    let pts: Vec<Waypoint> = distinct_loop(line).into_iter().copied().collect();
    mapzoo_raceline::walls_from_centerline(&mapzoo_raceline::reftrack_from_waypoints(&pts))
        .unwrap_or_default()
}

/// The waypoints of a closed line without the repeated first point at the end (§2.2).
pub(crate) fn distinct_loop(line: &[Waypoint]) -> Vec<&Waypoint> {
    let mut pts: Vec<&Waypoint> = line.iter().collect();
    if pts.len() > 1 {
        let (a, b) = (pts[0], pts[pts.len() - 1]);
        if (a.x_m - b.x_m).hypot(a.y_m - b.y_m) < 1e-9 {
            pts.pop();
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wp(x: f64, y: f64, d_right: f64, d_left: f64) -> Waypoint {
        Waypoint {
            x_m: x,
            y_m: y,
            d_right,
            d_left,
            ..Waypoint::default()
        }
    }

    #[test]
    fn counter_clockwise_square_has_right_wall_outside() {
        // Driving counter-clockwise around the origin: right is away from it.
        let line = [
            wp(1.0, 0.0, 0.5, 0.25),
            wp(0.0, 1.0, 0.5, 0.25),
            wp(-1.0, 0.0, 0.5, 0.25),
            wp(0.0, -1.0, 0.5, 0.25),
            wp(1.0, 0.0, 0.5, 0.25),
        ];
        let walls = walls_from_widths(&line);
        assert_eq!(walls.right.len(), 4, "the repeated last point is dropped");
        assert_eq!(walls.left.len(), 4);
        let r = walls.right[0];
        let l = walls.left[0];
        assert!((r[0] - 1.5).abs() < 1e-12 && r[1].abs() < 1e-12, "{r:?}");
        assert!((l[0] - 0.75).abs() < 1e-12 && l[1].abs() < 1e-12, "{l:?}");
    }

    #[test]
    fn degenerate_lines_give_no_walls() {
        assert!(walls_from_widths(&[]).is_empty());
        assert!(walls_from_widths(&[wp(0.0, 0.0, 1.0, 1.0); 2]).is_empty());
    }
}
