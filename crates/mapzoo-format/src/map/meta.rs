//! The map-server YAML ([`MapMeta`]): its fields read with errors that name the file
//! and the field, the bounds a plausible map keeps (resolution, origin, world extent),
//! the notes on unusual values, and the text written back as PyYAML writes it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{FormatError, Result};

/// The map-server YAML beside an occupancy PNG.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapMeta {
    /// Image path, relative to the YAML's folder.
    pub image: String,
    /// Metres per pixel, > 0.
    pub resolution: f64,
    /// World pose `[x, y, yaw]` of the image's bottom-left corner (metres, radians).
    pub origin: [f64; 3],
    /// 0: dark = occupied; 1: bright = occupied.
    pub negate: u8,
    /// Occupancy probability above which a pixel is occupied.
    pub occupied_thresh: f64,
    /// Occupancy probability below which a pixel is free.
    pub free_thresh: f64,
    /// Optional map-server mode (`trinary` default, `scale`, `raw`); see [`is_free_level`](crate::is_free_level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

impl MapMeta {
    /// Parses and validates map YAML text; `path` is used in messages only. A leading
    /// UTF-8 byte-order mark (as some Windows editors write) is skipped.
    pub fn from_yaml_str(text: &str, path: &Path) -> Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value = crate::nesting::parse_yaml(text, path)?;
        let map = value.as_mapping().ok_or_else(|| {
            FormatError::syntax(path, None, None, "expected a YAML mapping with keys image, resolution, origin, negate, occupied_thresh, free_thresh")
        })?;
        let f = MapFields { map, path };
        let image = f.image()?;
        let resolution = f.number("resolution")?;
        let origin = f.origin()?;
        let negate = f.negate()?;
        let occupied_thresh = f.number("occupied_thresh")?;
        let free_thresh = f.number("free_thresh")?;
        let mode = f.mode()?;
        let meta = MapMeta {
            image,
            resolution,
            origin,
            negate,
            occupied_thresh,
            free_thresh,
            mode,
        };
        meta.validate(path)?;
        Ok(meta)
    }

    /// Checks the value ranges of DESIGN §2.1.
    pub fn validate(&self, path: &Path) -> Result<()> {
        if !(self.resolution.is_finite() && self.resolution > 0.0) {
            return Err(FormatError::bad_value(
                path,
                "resolution",
                None,
                format!(
                    "field \"resolution\" must be > 0 (found {})",
                    self.resolution
                ),
            ));
        }
        if let Some(i) = self.origin.iter().position(|v| !v.is_finite()) {
            return Err(FormatError::bad_value(
                path,
                format!("origin[{i}]"),
                None,
                format!(
                    "field \"origin\"[{i}] must be finite (found {})",
                    self.origin[i]
                ),
            ));
        }
        if !(MIN_RESOLUTION..=MAX_RESOLUTION).contains(&self.resolution) {
            return Err(FormatError::bad_value(
                path,
                "resolution",
                None,
                format!(
                    "field \"resolution\" is {} m/pixel, outside the accepted {}–{} m/pixel; a 1:10 track map is {}–{} m/pixel (0.05 is usual): was it written in another unit (cm, mm)?",
                    crate::format_number(self.resolution),
                    MIN_RESOLUTION,
                    MAX_RESOLUTION,
                    PLAUSIBLE_RESOLUTION.0,
                    PLAUSIBLE_RESOLUTION.1
                ),
            ));
        }
        if let Some(i) = self.origin[..2].iter().position(|v| v.abs() > MAX_ORIGIN_M) {
            return Err(FormatError::bad_value(
                path,
                format!("origin[{i}]"),
                None,
                format!(
                    "field \"origin\"[{i}] is {} m, beyond the accepted ±{MAX_ORIGIN_M} m; the origin is the bottom-left corner of the image in metres",
                    crate::format_number(self.origin[i])
                ),
            ));
        }
        if self.origin[2].abs() > MAX_ORIGIN_YAW {
            return Err(FormatError::bad_value(
                path,
                "origin[2]",
                None,
                format!(
                    "field \"origin\"[2] (the yaw) is {} rad, outside the plausible ±{:.2} rad (ten turns); it is an angle in radians, 0 for a map as drawn",
                    crate::format_number(self.origin[2]),
                    MAX_ORIGIN_YAW
                ),
            ));
        }
        // ROS map_server accepts any pair of thresholds in 0..=1: occupied is tested
        // first, so occupied_thresh < free_thresh is legal (see `notes`).
        for (field, v) in [
            ("free_thresh", self.free_thresh),
            ("occupied_thresh", self.occupied_thresh),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(FormatError::bad_value(
                    path,
                    field,
                    None,
                    format!(
                        "field \"{field}\" must be an occupancy probability in 0..=1 (found {}); map_server's defaults are free_thresh 0.196, occupied_thresh 0.65",
                        crate::format_number(v)
                    ),
                ));
            }
        }
        if let Some(mode) = &self.mode {
            if !matches!(mode.as_str(), "trinary" | "scale" | "raw") {
                return Err(FormatError::bad_value(
                    path,
                    "mode",
                    None,
                    format!("field \"mode\" must be trinary, scale or raw (found {mode:?})"),
                ));
            }
        }
        Ok(())
    }

    /// Reads and validates a map YAML file (a regular file of at most
    /// [`crate::MAX_YAML_BYTES`]; a leading UTF-8 byte-order mark is skipped).
    pub fn read(path: &Path) -> Result<Self> {
        let bytes = crate::input_file::read_input_file(
            path,
            crate::input_file::MAX_YAML_BYTES,
            "map YAML",
        )?;
        let text = String::from_utf8(bytes).map_err(|e| {
            FormatError::syntax(
                path,
                None,
                None,
                format!(
                    "not UTF-8 text (invalid byte at offset {}); save the YAML as UTF-8",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        Self::from_yaml_str(&text, path)
    }

    /// The YAML text in the layout of the published files (keys sorted, block lists, Python float repr).
    pub fn to_yaml_string(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("free_thresh: {}\n", yaml_float(self.free_thresh)));
        s.push_str(&format!("image: {}\n", self.image));
        if let Some(mode) = &self.mode {
            s.push_str(&format!("mode: {mode}\n"));
        }
        s.push_str(&format!("negate: {}\n", self.negate));
        s.push_str(&format!(
            "occupied_thresh: {}\n",
            yaml_float(self.occupied_thresh)
        ));
        s.push_str("origin:\n");
        for v in &self.origin[..2] {
            s.push_str(&format!("- {}\n", yaml_float(*v)));
        }
        // The Race Stack and MapZoo write a zero yaw as the integer 0.
        let yaw = self.origin[2];
        if yaw == 0.0 {
            s.push_str("- 0\n");
        } else {
            s.push_str(&format!("- {}\n", yaml_float(yaw)));
        }
        s.push_str(&format!("resolution: {}\n", yaml_float(self.resolution)));
        s
    }

    /// Writes the YAML file.
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::atomic::write_file(path, self.to_yaml_string().as_bytes())
    }

    /// The image path resolved against the YAML's folder.
    pub fn image_path(&self, yaml_path: &Path) -> PathBuf {
        yaml_path
            .parent()
            .unwrap_or_else(|| Path::new(""))
            .join(&self.image)
    }
}

/// The smallest resolution accepted, m/pixel (1 mm).
pub const MIN_RESOLUTION: f64 = 0.001;
/// The largest resolution accepted, m/pixel: a 5 or 100 (a unit slip) is refused.
pub const MAX_RESOLUTION: f64 = 1.0;
/// The resolutions of real 1:10 track maps, m/pixel; outside them a note is given.
pub const PLAUSIBLE_RESOLUTION: (f64, f64) = (0.01, 0.2);
/// The largest |origin x|, |origin y| accepted, metres.
pub const MAX_ORIGIN_M: f64 = 1e6;
/// The largest |origin yaw| accepted, radians: ten turns (a larger one is a unit slip).
pub const MAX_ORIGIN_YAW: f64 = 10.0 * std::f64::consts::TAU;
/// The largest world width or height of a map, metres (width · resolution).
pub const MAX_WORLD_EXTENT_M: f64 = 2000.0;

/// Refuses a map whose world extent (pixels · resolution) exceeds [`MAX_WORLD_EXTENT_M`].
pub fn check_extent(meta: &MapMeta, width: usize, height: usize, image: &Path) -> Result<()> {
    let (w, h) = (
        width as f64 * meta.resolution,
        height as f64 * meta.resolution,
    );
    if w.max(h) > MAX_WORLD_EXTENT_M {
        return Err(FormatError::bad_value(
            image,
            "resolution",
            None,
            format!(
                "the image is {width} × {height} pixels at resolution {} m/pixel: {:.0} m × {:.0} m, more than the accepted {MAX_WORLD_EXTENT_M} m; check the YAML's resolution (a 1:10 track map is {}–{} m/pixel)",
                crate::format_number(meta.resolution),
                w,
                h,
                PLAUSIBLE_RESOLUTION.0,
                PLAUSIBLE_RESOLUTION.1
            ),
        ));
    }
    Ok(())
}

fn yaml_float(v: f64) -> String {
    // Python's repr, as PyYAML writes the floats of the published files.
    crate::pyfmt::float_repr(v)
}

/// The keys of a map-server YAML mapping, read with errors that name the file and the field.
struct MapFields<'a> {
    map: &'a serde_yaml_ng::Mapping,
    path: &'a Path,
}

impl MapFields<'_> {
    fn get(&self, key: &str) -> Option<&serde_yaml_ng::Value> {
        self.map.get(serde_yaml_ng::Value::from(key))
    }

    fn required(&self, key: &str) -> Result<&serde_yaml_ng::Value> {
        self.get(key).ok_or_else(|| {
            FormatError::missing_field(self.path, key, format!("missing field \"{key}\"; a map-server YAML needs image, resolution, origin, negate, occupied_thresh, free_thresh"))
        })
    }

    fn bad(&self, field: impl Into<String>, what: String) -> FormatError {
        FormatError::bad_value(self.path, field, None, what)
    }

    fn number(&self, key: &str) -> Result<f64> {
        let v = self.required(key)?;
        v.as_f64().ok_or_else(|| {
            self.bad(
                key,
                format!("field \"{key}\" must be a number (found {})", yaml_short(v)),
            )
        })
    }

    fn image(&self) -> Result<String> {
        match self.required("image")? {
            serde_yaml_ng::Value::String(s) if !s.is_empty() => Ok(s.clone()),
            v => Err(self.bad(
                "image",
                format!(
                    "field \"image\" must be a file name (found {})",
                    yaml_short(v)
                ),
            )),
        }
    }

    fn origin(&self) -> Result<[f64; 3]> {
        let origin_v = self.required("origin")?;
        let origin_seq = origin_v
            .as_sequence()
            .filter(|s| s.len() == 3)
            .ok_or_else(|| {
                self.bad(
                    "origin",
                    format!(
                        "field \"origin\" must be a list of 3 numbers [x, y, yaw] (found {})",
                        yaml_short(origin_v)
                    ),
                )
            })?;
        let mut origin = [0.0; 3];
        for (i, v) in origin_seq.iter().enumerate() {
            origin[i] = v.as_f64().ok_or_else(|| {
                self.bad(
                    format!("origin[{i}]"),
                    format!(
                        "field \"origin\"[{i}] must be a number (found {})",
                        yaml_short(v)
                    ),
                )
            })?;
        }
        Ok(origin)
    }

    fn negate(&self) -> Result<u8> {
        match self.get("negate") {
            None => Ok(0),
            Some(v) => match v.as_i64() {
                Some(0) => Ok(0),
                Some(1) => Ok(1),
                _ => Err(self.bad(
                    "negate",
                    format!("field \"negate\" must be 0 or 1 (found {})", yaml_short(v)),
                )),
            },
        }
    }

    fn mode(&self) -> Result<Option<String>> {
        match self.get("mode") {
            None | Some(serde_yaml_ng::Value::Null) => Ok(None),
            Some(serde_yaml_ng::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.bad(
                "mode",
                format!(
                    "field \"mode\" must be trinary, scale or raw (found {})",
                    yaml_short(v)
                ),
            )),
        }
    }
}

fn yaml_short(v: &serde_yaml_ng::Value) -> String {
    // One line, flow style ([0, 0] rather than a block list), for messages.
    let s = match v {
        serde_yaml_ng::Value::String(t) => format!("{t:?}"),
        other => serde_json::to_string(other)
            .unwrap_or_else(|_| serde_yaml_ng::to_string(other).unwrap_or_default()),
    };
    let s = s.trim();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s.to_string()
    }
}
