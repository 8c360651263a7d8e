//! Checks of the map: the map YAML's fields and numbers, its image (a readable PNG of
//! the size it claims) and the record's free rule, and that every driven line lies in
//! the map's free space with clearance.

use std::path::{Path, PathBuf};

use crate::error::FormatError;
use crate::map::{decode_gray_png, FreeRule, MapMeta, OccupancyMap};
use crate::set::{MapYaml, SetFolder};
use crate::waypoint::Waypoint;

use super::report::Sheet;

/// The map YAML: `<track>.yaml`, else the only YAML that is not a sector file or `-cent`.
pub(super) fn check_map(
    sheet: &mut Sheet,
    dir: &Path,
    listing: &SetFolder,
    rule: FreeRule,
) -> Option<OccupancyMap> {
    let exact = listing.names().yaml;
    let name = match listing.map_yaml() {
        MapYaml::Found(name) => name,
        MapYaml::Missing => {
            sheet.fail(
                &exact,
                "map YAML present",
                "no map YAML in the folder; a track needs <track>.yaml beside <track>.png",
            );
            return None;
        }
        MapYaml::Several(candidates) => {
            sheet.fail(
                &exact,
                "map YAML present",
                format!(
                    "several candidate map YAMLs ({}); name the map {exact}",
                    candidates.join(", ")
                ),
            );
            return None;
        }
    };
    check_map_file(sheet, dir, &name, rule)
}

/// PNG loads, `image` points to it, resolution, origin and thresholds, one line each.
pub(super) fn check_map_file(
    sheet: &mut Sheet,
    dir: &Path,
    name: &str,
    rule: FreeRule,
) -> Option<OccupancyMap> {
    let path = dir.join(name);
    let bytes =
        crate::input_file::read_input_file(&path, crate::input_file::MAX_YAML_BYTES, "map YAML");
    let text = match bytes.map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => {
            sheet.fail(name, "map YAML readable", "not UTF-8 text");
            return None;
        }
        Err(e) => {
            sheet.fail(name, "map YAML readable", e.reason());
            return None;
        }
    };
    // A leading UTF-8 byte-order mark is not part of the YAML.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let parsed = crate::nesting::parse_yaml_with(text, &path, |e| {
        FormatError::syntax(&path, None, None, format!("not valid YAML: {e}"))
    });
    let value = match parsed {
        Ok(v) => v,
        Err(e) => {
            sheet.fail(name, "map YAML parses", e.reason());
            return None;
        }
    };
    let image = check_map_image(sheet, dir, &path, name, &value);
    let pixels = check_png(sheet, name, image.as_ref());
    check_map_numbers(sheet, name, &value);

    // The classified map, for the free-space check, only if everything above holds.
    let meta = MapMeta::from_yaml_str(text, &path).ok()?;
    let (w, h, gray) = pixels?;
    Some(OccupancyMap::from_gray(w, h, gray, &meta, rule))
}

/// The map YAML's `image` names a file of the folder: its name and path.
pub(super) fn check_map_image(
    sheet: &mut Sheet,
    dir: &Path,
    path: &Path,
    name: &str,
    value: &serde_yaml_ng::Value,
) -> Option<(String, PathBuf)> {
    const IMG: &str = "YAML image points to the PNG";
    match value.get("image") {
        Some(serde_yaml_ng::Value::String(s)) if !s.is_empty() => {
            let p = path.parent().unwrap_or(dir).join(s);
            if p.is_file() {
                sheet.pass(name, IMG, s.clone());
                Some((s.clone(), p))
            } else {
                sheet.fail(
                    name,
                    IMG,
                    format!("field \"image\" is {s:?} but no such file is in the folder"),
                );
                None
            }
        }
        Some(v) => {
            sheet.fail(
                name,
                IMG,
                format!("field \"image\" must be a file name (found {v:?})"),
            );
            None
        }
        None => {
            sheet.fail(name, IMG, "missing field \"image\"");
            None
        }
    }
}

/// The PNG named by the YAML decodes: its width, height and gray pixels.
pub(super) fn check_png(
    sheet: &mut Sheet,
    name: &str,
    image: Option<&(String, PathBuf)>,
) -> Option<(usize, usize, Vec<u8>)> {
    const PNG: &str = "PNG loads";
    match image {
        Some((img_name, p)) => {
            match crate::input_file::read_image_file(p).and_then(|b| decode_gray_png(&b, p)) {
                Ok((w, h, gray)) => {
                    sheet.pass(img_name, PNG, format!("{w} × {h} pixels"));
                    Some((w, h, gray))
                }
                Err(e) => {
                    sheet.fail(img_name, PNG, e.reason());
                    None
                }
            }
        }
        None => {
            sheet.skip(name, PNG, "no image to load");
            None
        }
    }
}

/// Resolution, origin and thresholds of the map YAML, one line each.
pub(super) fn check_map_numbers(sheet: &mut Sheet, name: &str, value: &serde_yaml_ng::Value) {
    let get = |k: &str| value.get(k);

    const RES: &str = "resolution > 0";
    match get("resolution").map(|v| v.as_f64()) {
        Some(Some(r)) if r.is_finite() && r > 0.0 => sheet.pass(name, RES, format!("{r} m/pixel")),
        Some(Some(r)) => sheet.fail(
            name,
            RES,
            format!("field \"resolution\" must be > 0 (found {r})"),
        ),
        Some(None) => sheet.fail(name, RES, "field \"resolution\" must be a number"),
        None => sheet.fail(name, RES, "missing field \"resolution\""),
    }

    const ORG: &str = "origin has 3 numbers";
    match get("origin").and_then(|v| v.as_sequence()) {
        Some(s) if s.len() == 3 && s.iter().all(|v| v.as_f64().is_some_and(f64::is_finite)) => {
            let n: Vec<String> = s
                .iter()
                .map(|v| format!("{}", v.as_f64().unwrap_or(0.0)))
                .collect();
            sheet.pass(name, ORG, format!("[{}]", n.join(", ")))
        }
        Some(s) => sheet.fail(
            name,
            ORG,
            format!(
                "field \"origin\" must be [x, y, yaw], 3 finite numbers (found {} entries)",
                s.len()
            ),
        ),
        None => sheet.fail(name, ORG, "missing field \"origin\" (a list [x, y, yaw])"),
    }

    // ROS map_server takes the thresholds in either order (occupied is tested first).
    const THR: &str = "free_thresh and occupied_thresh in 0..=1";
    let f = get("free_thresh").and_then(|v| v.as_f64());
    let o = get("occupied_thresh").and_then(|v| v.as_f64());
    match (f, o) {
        (Some(f), Some(o)) if (0.0..=1.0).contains(&f) && (0.0..=1.0).contains(&o) => {
            sheet.pass(name, THR, format!("free_thresh {f}, occupied_thresh {o}"))
        }
        (Some(f), Some(o)) => sheet.fail(
            name,
            THR,
            format!("found free_thresh {f} and occupied_thresh {o}"),
        ),
        _ => sheet.fail(
            name,
            THR,
            "fields \"free_thresh\" and \"occupied_thresh\" must both be numbers",
        ),
    }
}

/// Every driven line lies in free space with clearance: each waypoint, and points every half
/// pixel along each step between waypoints, lies on a free pixel whose 8 neighbours are free
/// too (so a line that jumps through a thin wall between two waypoints is caught).
pub(super) fn check_lines_in_track(
    sheet: &mut Sheet,
    map: Option<&OccupancyMap>,
    lines: &[(String, &str, &[Waypoint])],
) {
    if lines.is_empty() {
        sheet.skip("lines", "racing line in free space", "no line read");
        return;
    }
    for (file, kind, wpnts) in lines {
        let check = format!("{kind} in free space, ≥ 1 pixel from walls");
        let Some(map) = map else {
            sheet.skip(file, &check, "the map did not load");
            continue;
        };
        match first_blocked(map, wpnts) {
            None => sheet.pass(
                file,
                &check,
                format!("all {} waypoints and the steps between them", wpnts.len()),
            ),
            Some((id, x, y)) => {
                let (c, r) = map.world_to_pixel(x, y);
                sheet.fail(
                    file,
                    &check,
                    format!(
                        "near waypoint id {id}, at ({x:.3}, {y:.3}) m, the line touches an occupied pixel (col {}, row {}) of the map or its neighbour; the line must stay inside the track",
                        c.round(),
                        r.round()
                    ),
                )
            }
        }
    }
}

/// The first place along `line` (the id of the step's first waypoint, and x, y) that is not
/// free with one pixel of clearance.
pub(super) fn first_blocked(map: &OccupancyMap, line: &[Waypoint]) -> Option<(i64, f64, f64)> {
    let clear = |x: f64, y: f64| {
        let (c, r) = map.world_to_pixel(x, y);
        if !(c.is_finite() && r.is_finite()) {
            return false;
        }
        let (c, r) = (c.round() as i64, r.round() as i64);
        (-1..=1).all(|dc| (-1..=1).all(|dr| map.is_free(c + dc, r + dr)))
    };
    let half_px = (map.resolution / 2.0).max(1e-6);
    for (i, w) in line.iter().enumerate() {
        if !clear(w.x_m, w.y_m) {
            return Some((w.id, w.x_m, w.y_m));
        }
        let Some(next) = line.get(i + 1) else { break };
        let len = (next.x_m - w.x_m).hypot(next.y_m - w.y_m);
        // Steps longer than a few metres are gaps of another check (spacing), not walls.
        let steps = ((len / half_px).ceil() as usize).min(10_000);
        for k in 1..steps {
            let t = k as f64 / steps as f64;
            let (x, y) = (
                w.x_m + t * (next.x_m - w.x_m),
                w.y_m + t * (next.y_m - w.y_m),
            );
            if !clear(x, y) {
                return Some((w.id, x, y));
            }
        }
    }
    None
}
