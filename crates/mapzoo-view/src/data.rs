//! A track as the page's JSON: compact columns of rounded numbers and the map as
//! a base64 PNG data URI. Every number is written with exactly the decimals the
//! page shows, so the readout prints the digits of the file (`toFixed` of a
//! number written with that many decimals gives the same text back).

use base64::Engine;
use mapzoo_format::{OccupancyMap, Waypoint};
use mapzoo_render::{PictureLine, SectorSpan, TrackPicture};

use crate::error::ViewError;

/// Decimals of positions, arc lengths and widths (metres: millimetres).
pub const D_LEN: usize = 3;
/// Decimals of speeds (m/s) and accelerations (m/s²).
pub const D_SPEED: usize = 2;
/// Decimals of curvature (1/m).
pub const D_KAPPA: usize = 4;
/// Decimals of a heading (rad).
pub const D_PSI: usize = 3;

/// Gray drawn for an occupied map pixel (as the static picture: lines stay readable on it).
const GRAY_OCCUPIED: f64 = 96.0;
/// Gray drawn for a free map pixel.
const GRAY_FREE: f64 = 250.0;

/// `x` with `decimals` digits after the point, trailing zeros dropped; `null` if not finite.
pub fn num(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "null".into();
    }
    let mut s = format!("{x:.decimals$}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// A JSON array of `values` at `decimals`.
pub fn column(values: impl IntoIterator<Item = f64>, decimals: usize) -> String {
    let mut out = String::from("[");
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&num(v, decimals));
    }
    out.push(']');
    out
}

/// A JSON string.
pub fn string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// A flat `[x0,y0,x1,y1,…]` array of points, millimetres.
pub fn points(pts: &[[f64; 2]]) -> String {
    column(pts.iter().flat_map(|p| [p[0], p[1]]), D_LEN)
}

/// The columns of a line's waypoints (the loop's repeated last point kept: the readout
/// of its last row is the file's last row). `with_speed`: the v and a_x columns too.
pub fn waypoint_columns(wps: &[Waypoint], with_speed: bool) -> String {
    let mut out = String::new();
    let ids_are_rows = wps.iter().enumerate().all(|(i, w)| w.id == i as i64);
    if !ids_are_rows {
        let ids: Vec<String> = wps.iter().map(|w| w.id.to_string()).collect();
        out.push_str(&format!("\"id\":[{}],", ids.join(",")));
    }
    let col = |f: fn(&Waypoint) -> f64, d: usize| column(wps.iter().map(f), d);
    out.push_str(&format!(
        "\"s\":{},\"x\":{},\"y\":{},\"k\":{},\"psi\":{},\"dr\":{},\"dl\":{}",
        col(|w| w.s_m, D_LEN),
        col(|w| w.x_m, D_LEN),
        col(|w| w.y_m, D_LEN),
        col(|w| w.kappa_radpm, D_KAPPA),
        col(|w| w.psi_rad, D_PSI),
        col(|w| w.d_right, D_LEN),
        col(|w| w.d_left, D_LEN),
    ));
    if with_speed {
        out.push_str(&format!(
            ",\"v\":{},\"a\":{}",
            col(|w| w.vx_mps, D_SPEED),
            col(|w| w.ax_mps2, D_SPEED)
        ));
    }
    out
}

/// Display colour of a line kind in the page (the speed-coloured line uses viridis).
pub fn line_colour(name: &str) -> &'static str {
    match name {
        "iqp" => "#e0115f",
        "sp" => "#0fa3b1",
        "mintime" => "#7b3fbf",
        "before" => "#e07b00",
        "after" => "#1565c0",
        _ => "#444444",
    }
}

/// One line of the page: `name` (its key), `label`, the waypoints and its figures.
pub fn line_json(name: &str, label: &str, line: &PictureLine) -> String {
    format!(
        "{{\"name\":{},\"label\":{},\"color\":{},\"lap\":{},\"vmax\":{},{}}}",
        string(name),
        string(label),
        string(line_colour(name)),
        line.lap_s.map_or("null".into(), |t| num(t, 4)),
        line.max_mps.map_or("null".into(), |v| num(v, D_SPEED)),
        waypoint_columns(&line.waypoints, true)
    )
}

/// Sector spans as `[{"a":start,"b":end,"note":…},…]`.
fn spans(spans: &[SectorSpan]) -> String {
    let items: Vec<String> = spans
        .iter()
        .map(|s| {
            format!(
                "{{\"a\":{},\"b\":{},\"note\":{}}}",
                s.start,
                s.end,
                string(&s.note)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The map as a PNG data URI and where it lies: `x0, y0` the world position of the image's
/// top-left corner, `res` metres per image pixel, `yaw` the origin's rotation.
pub fn map_json(name: &str, map: &OccupancyMap, max_px: usize) -> Result<String, ViewError> {
    let (w, h) = (map.width, map.height);
    if w == 0 || h == 0 || map.gray.len() != w * h {
        return Err(ViewError::EmptyMap {
            name: name.to_string(),
            width: w,
            height: h,
        });
    }
    // an integer reduction, the mean of each k × k block (thin walls stay visible as gray)
    let k = w.max(h).div_ceil(max_px.max(16)).max(1);
    let (rw, rh) = (w.div_ceil(k), h.div_ceil(k));
    let mut pixels = Vec::with_capacity(rw * rh);
    for r in 0..rh {
        for c in 0..rw {
            let (mut sum, mut n) = (0.0, 0.0);
            for rr in r * k..((r + 1) * k).min(h) {
                for cc in c * k..((c + 1) * k).min(w) {
                    sum += map.gray[rr * w + cc] as f64;
                    n += 1.0;
                }
            }
            let g = sum / n;
            pixels.push((GRAY_OCCUPIED + (GRAY_FREE - GRAY_OCCUPIED) * g / 255.0).round() as u8);
        }
    }
    let image = image::GrayImage::from_raw(rw as u32, rh as u32, pixels).ok_or_else(|| {
        ViewError::Encode {
            name: name.to_string(),
            reason: "pixel buffer size".into(),
        }
    })?;
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| ViewError::Encode {
            name: name.to_string(),
            reason: e.to_string(),
        })?;
    // world of the top-left corner of pixel (0, 0): half a pixel up and left of its centre
    let (x0, y0) = mapzoo_format::pixel_to_world(map.origin, map.resolution, h, -0.5, -0.5);
    let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
    Ok(format!(
        "{{\"png\":\"data:image/png;base64,{b64}\",\"w\":{rw},\"h\":{rh},\"x0\":{},\"y0\":{},\"res\":{},\"yaw\":{}}}",
        num(x0, 4),
        num(y0, 4),
        num(map.resolution * k as f64, 6),
        num(map.origin[2], 6)
    ))
}

/// The walls: right, left and each obstacle's outline.
pub fn walls_json(track: &TrackPicture) -> String {
    let obstacles: Vec<String> = track
        .walls
        .obstacles
        .iter()
        .map(|o| points(&o.outline))
        .collect();
    format!(
        "{{\"r\":{},\"l\":{},\"obs\":[{}]}}",
        points(&track.walls.right),
        points(&track.walls.left),
        obstacles.join(",")
    )
}

/// One track: name, map, walls, centerline, lines (in the picture's order), the driven line
/// and the sectors, which index it.
pub fn track_json(track: &TrackPicture, max_px: usize) -> Result<String, ViewError> {
    let lines: Vec<String> = track
        .lines
        .iter()
        .filter(|l| !l.waypoints.is_empty())
        .map(|l| line_json(l.kind.name(), l.kind.label(), l))
        .collect();
    Ok(format!(
        "{{\"name\":{},\"map\":{},\"walls\":{},\"center\":{{{}}},\"lines\":[{}],\"racing\":{},\"speed\":{},\"ot\":{}}}",
        string(&track.name),
        map_json(&track.name, &track.map, max_px)?,
        walls_json(track),
        waypoint_columns(&track.centerline, false),
        lines.join(","),
        string(track.racing.name()),
        spans(&track.speed_sectors),
        spans(&track.overtaking_sectors),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_the_shown_decimals_and_drop_trailing_zeros() {
        assert_eq!(num(1.23449, 3), "1.234");
        assert_eq!(num(2.0, 3), "2");
        assert_eq!(num(-0.0001, 3), "0");
        assert_eq!(num(-1.5, 2), "-1.5");
        assert_eq!(num(f64::NAN, 2), "null");
        assert_eq!(column([1.0, 0.25], 1), "[1,0.2]");
    }

    #[test]
    fn ids_are_written_only_when_they_are_not_the_rows() {
        let wps: Vec<Waypoint> = (0..3)
            .map(|i| Waypoint {
                id: i,
                ..Waypoint::default()
            })
            .collect();
        assert!(!waypoint_columns(&wps, false).contains("\"id\""));
        let mut shifted = wps.clone();
        shifted[0].id = 7;
        assert!(waypoint_columns(&shifted, false).starts_with("\"id\":[7,1,2]"));
    }
}
