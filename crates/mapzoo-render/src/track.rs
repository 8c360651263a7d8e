//! What a picture shows, as plain in-memory data: the occupancy map and the
//! lines of one track set (DESIGN §2), independent of where they came from.

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
    /// IQP trajectory, coloured by `vx_mps`; sector indices refer to it.
    pub iqp: Vec<Waypoint>,
    /// Shortest-path trajectory, coloured by `vx_mps`.
    pub sp: Vec<Waypoint>,
    /// Speed-scaling sectors (speed_scaling.yaml), indices into `iqp`.
    pub speed_sectors: Vec<SectorSpan>,
    /// Overtaking sectors (ot_sectors.yaml), indices into `iqp`.
    pub overtaking_sectors: Vec<SectorSpan>,
    /// Lap times and top speeds printed under the title.
    pub lap_times: LapTimes,
}

/// One sector: a run of IQP waypoint indices and a short note to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectorSpan {
    /// First IQP waypoint index of the sector.
    pub start: usize,
    /// Last IQP waypoint index of the sector.
    pub end: usize,
    /// Short note, e.g. `x0.50` for a speed scaling or `ot` for an overtaking sector.
    pub note: String,
}

/// Lap times and maximum speeds as published in `map_info_str`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LapTimes {
    /// IQP estimated lap time, seconds.
    pub iqp_s: Option<f64>,
    /// IQP maximum speed, m/s.
    pub iqp_max_mps: Option<f64>,
    /// SP estimated lap time, seconds.
    pub sp_s: Option<f64>,
    /// SP maximum speed, m/s.
    pub sp_max_mps: Option<f64>,
}

impl TrackPicture {
    /// A picture of `map` alone, named `name`; add lines by setting the fields.
    pub fn new(name: impl Into<String>, map: OccupancyMap) -> Self {
        TrackPicture {
            name: name.into(),
            map,
            walls: Walls::default(),
            centerline: Vec::new(),
            iqp: Vec::new(),
            sp: Vec::new(),
            speed_sectors: Vec::new(),
            overtaking_sectors: Vec::new(),
            lap_times: LapTimes::default(),
        }
    }

    /// The line the start arrow and sector ticks sit on: IQP, else SP, else the centerline.
    pub fn main_line(&self) -> &[Waypoint] {
        if !self.iqp.is_empty() {
            &self.iqp
        } else if !self.sp.is_empty() {
            &self.sp
        } else {
            &self.centerline
        }
    }
}

/// The track bounds of a centerline without walls, rebuilt from its `d_right`/`d_left` as
/// the racing-line stage rebuilds them ([`mapzoo_raceline::walls::from_centerline`], along
/// the normals of the closed spline through the points), so a picture shows the walls the
/// shortest path was measured to; none when no closed spline fits (fewer than three
/// distinct points, coincident points).
pub fn walls_from_widths(line: &[Waypoint]) -> Walls {
    let pts: Vec<Waypoint> = distinct_loop(line).into_iter().copied().collect();
    mapzoo_raceline::walls::from_centerline(&mapzoo_raceline::reftrack_from_waypoints(&pts))
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
