//! What a picture shows, as plain in-memory data: the occupancy map and the
//! lines of one track set (DESIGN §2), independent of where they came from.

use mapzoo_format::{OccupancyMap, Waypoint};

/// Everything drawn for one track, in world metres.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackPicture {
    /// Track name, printed as the title.
    pub name: String,
    /// The occupancy map, drawn in gray at true scale.
    pub map: OccupancyMap,
    /// Track bounds as polylines of world points `[x, y]`, metres (usually right, then left).
    pub walls: Vec<Vec<[f64; 2]>>,
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
            walls: Vec::new(),
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

/// Right and left track bounds of a closed line from its `d_right`/`d_left`
/// widths, offset along the normals of the point geometry (not `psi_rad`,
/// whose convention differs between centerlines and trajectories, §2.2).
pub fn walls_from_widths(line: &[Waypoint]) -> Vec<Vec<[f64; 2]>> {
    let pts: Vec<&Waypoint> = distinct_loop(line);
    let n = pts.len();
    if n < 3 {
        return Vec::new();
    }
    let mut right = Vec::with_capacity(n);
    let mut left = Vec::with_capacity(n);
    for i in 0..n {
        let (p, q) = (pts[(i + n - 1) % n], pts[(i + 1) % n]);
        let (tx, ty) = (q.x_m - p.x_m, q.y_m - p.y_m);
        let len = (tx * tx + ty * ty).sqrt();
        if !(len.is_finite() && len > 0.0) {
            continue;
        }
        // Right of the driving direction is the tangent turned clockwise.
        let (rx, ry) = (ty / len, -tx / len);
        let w = pts[i];
        right.push([w.x_m + rx * w.d_right, w.y_m + ry * w.d_right]);
        left.push([w.x_m - rx * w.d_left, w.y_m - ry * w.d_left]);
    }
    vec![right, left]
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
        assert_eq!(walls.len(), 2);
        assert_eq!(walls[0].len(), 4, "the repeated last point is dropped");
        let r = walls[0][0];
        let l = walls[1][0];
        assert!((r[0] - 1.5).abs() < 1e-12 && r[1].abs() < 1e-12, "{r:?}");
        assert!((l[0] - 0.75).abs() < 1e-12 && l[1].abs() < 1e-12, "{l:?}");
    }

    #[test]
    fn degenerate_lines_give_no_walls() {
        assert!(walls_from_widths(&[]).is_empty());
        assert!(walls_from_widths(&[wp(0.0, 0.0, 1.0, 1.0); 2]).is_empty());
    }
}
