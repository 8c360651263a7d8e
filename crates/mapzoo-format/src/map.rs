//! Occupancy maps: the map-server YAML and its image (DESIGN §2.1); the image
//! decoders are in [`crate::raster`].

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{FormatError, Result};

/// Which pixels count as free space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FreeRule {
    /// The YAML thresholds decide; unknown counts as occupied (ROS map_server).
    #[default]
    MapServer,
    /// Every non-black pixel is free (the Race Stack's rule; its PNGs are anti-aliased).
    Nonzero,
}

impl std::str::FromStr for FreeRule {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "map-server" => Ok(FreeRule::MapServer),
            "nonzero" => Ok(FreeRule::Nonzero),
            other => Err(format!(
                "unknown free-space rule {other:?}; use \"map-server\" or \"nonzero\""
            )),
        }
    }
}

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
    /// Optional map-server mode (`trinary` default, `scale`, `raw`); see [`is_free_level`].
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

    /// Notes for the user about how map_server reads this YAML (empty for an ordinary
    /// map); `path` names the YAML. Thresholds with occupied_thresh < free_thresh,
    /// a resolution outside the plausible range, a non-zero origin yaw.
    pub fn notes(&self, path: &Path) -> Vec<String> {
        self.notes_prefixed(&path.display().to_string())
    }

    /// [`Self::notes`], each starting with `p` and a colon.
    fn notes_prefixed(&self, p: &str) -> Vec<String> {
        let mut notes = Vec::new();
        let (f, o) = (self.free_thresh, self.occupied_thresh);
        if o <= f && self.mode.as_deref() != Some("raw") {
            let free: Vec<u8> = (0..=255u8)
                .filter(|&v| occupancy(v, self, FreeRule::MapServer).is_free())
                .collect();
            let levels = match (free.first(), free.last()) {
                (Some(a), Some(b)) if a == b => format!("only gray {a} is free"),
                (Some(a), Some(b)) => format!("gray {a}..={b} is free"),
                _ => "no gray level is free".to_string(),
            };
            notes.push(format!(
                "{p}: occupied_thresh {} is not above free_thresh {}: read as ROS map_server reads it (occupied is tested first, so a pixel is free only when its occupancy p <= {} and nothing is unknown): {levels}",
                crate::format_number(o),
                crate::format_number(f),
                crate::format_number(o)
            ));
        }
        let (lo, hi) = PLAUSIBLE_RESOLUTION;
        if !(lo..=hi).contains(&self.resolution) {
            notes.push(format!(
                "{p}: resolution {} m/pixel is outside the usual {lo}–{hi} m/pixel of a 1:10 track map; check its unit",
                crate::format_number(self.resolution)
            ));
        }
        let yaw = self.origin[2];
        if yaw != 0.0 {
            notes.push(format!(
                "{p}: origin yaw {} rad ({:.1}°) is applied as map_server applies it (the image is rotated about the origin); the Race Stack's own planner ignores the yaw, so its lines would be rotated against these",
                crate::format_number(yaw),
                yaw.to_degrees()
            ));
        }
        notes
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

/// A classified occupancy grid in memory. Row 0 is the top of the image.
#[derive(Debug, Clone, PartialEq)]
pub struct OccupancyMap {
    /// Image width, pixels (columns).
    pub width: usize,
    /// Image height, pixels (rows).
    pub height: usize,
    /// Metres per pixel.
    pub resolution: f64,
    /// World pose `[x, y, yaw]` of the bottom-left pixel.
    pub origin: [f64; 3],
    /// Gray value 0..255 of each pixel, row-major (RGB averaged, 16-bit scaled).
    pub gray: Vec<u8>,
    /// Whether each pixel is free under the chosen rule, row-major;
    /// `free[i] == (occupancy[i] == Occupancy::Free)`.
    pub free: Vec<bool>,
    /// The tristate class of each pixel under the chosen rule, row-major like `free`
    /// (ROS map_server's free / occupied / unknown; the non-zero rule has no unknown).
    pub occupancy: Vec<Occupancy>,
    /// Notes for the user about how the map was read (a threshold quirk, a yaw the
    /// Race Stack ignores, …); empty for an ordinary map.
    pub notes: Vec<String>,
}

/// The class ROS map_server gives a pixel: its OccupancyGrid value 0 (free),
/// 100 or a positive probability (occupied), −1 (unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Occupancy {
    /// Free space (map_server value 0).
    Free,
    /// An obstacle (map_server value 100, or a partial occupancy 1..99 in `scale` / `raw` mode).
    Occupied,
    /// Unknown space (map_server value −1): between the thresholds in `trinary` mode.
    Unknown,
}

impl Occupancy {
    /// `Free` for a free pixel, else `Occupied` (for maps classified by a boolean mask).
    pub fn from_free(free: bool) -> Self {
        if free {
            Occupancy::Free
        } else {
            Occupancy::Occupied
        }
    }

    /// Whether this is [`Occupancy::Free`].
    pub fn is_free(self) -> bool {
        self == Occupancy::Free
    }
}

impl OccupancyMap {
    /// Classifies gray pixels with the YAML's thresholds or the non-zero rule.
    pub fn from_gray(
        width: usize,
        height: usize,
        gray: Vec<u8>,
        meta: &MapMeta,
        rule: FreeRule,
    ) -> Self {
        let occupancy = gray
            .iter()
            .map(|&v| occupancy(v, meta, rule))
            .collect::<Vec<_>>();
        let free = occupancy.iter().map(|o| o.is_free()).collect();
        OccupancyMap {
            width,
            height,
            resolution: meta.resolution,
            origin: meta.origin,
            gray,
            free,
            occupancy,
            notes: Vec::new(),
        }
    }

    /// A map from a free mask computed elsewhere: every non-free pixel is occupied, no notes.
    pub fn from_free_mask(
        width: usize,
        height: usize,
        resolution: f64,
        origin: [f64; 3],
        gray: Vec<u8>,
        free: Vec<bool>,
    ) -> Self {
        let occupancy = free.iter().map(|&f| Occupancy::from_free(f)).collect();
        OccupancyMap {
            width,
            height,
            resolution,
            origin,
            gray,
            free,
            occupancy,
            notes: Vec::new(),
        }
    }

    /// Makes the notes of the YAML, which [`Self::from_image_bytes`] attributes to
    /// "`image` (its YAML)", name the YAML file `yaml` itself.
    pub fn name_yaml_in_notes(&mut self, image: &Path, yaml: &Path) {
        let via = format!("{} (its YAML): ", image.display());
        for n in &mut self.notes {
            if let Some(rest) = n.strip_prefix(&via) {
                *n = format!("{}: {rest}", yaml.display());
            }
        }
    }

    /// Sets `free` from `occupancy` (after a caller reclassified pixels).
    pub fn sync_free(&mut self) {
        self.free = self.occupancy.iter().map(|o| o.is_free()).collect();
    }

    /// Loads the YAML at `yaml_path` and its image, and classifies the pixels.
    ///
    /// Only regular files are read (a folder, FIFO, device or link loop is a
    /// [`FormatError::BadPath`] naming it), each under a size limit.
    pub fn load(yaml_path: &Path, rule: FreeRule) -> Result<(MapMeta, Self)> {
        let meta = MapMeta::read(yaml_path)?;
        let image = meta.image_path(yaml_path);
        let bytes = crate::input_file::read_image_file(&image)?;
        let mut map = Self::from_image_bytes(&bytes, &image, &meta, rule)?;
        map.name_yaml_in_notes(&image, yaml_path);
        Ok((meta, map))
    }

    /// Decodes image bytes (PNG, PGM or BMP, told by their content) and classifies the
    /// pixels; `path` names the image in errors. Same as [`Self::from_image_bytes`].
    pub fn from_png_bytes(
        bytes: &[u8],
        path: &Path,
        meta: &MapMeta,
        rule: FreeRule,
    ) -> Result<Self> {
        Self::from_image_bytes(bytes, path, meta, rule)
    }

    /// Decodes image bytes (PNG, PGM / PNM or BMP, told by their content, never by the
    /// name) and classifies the pixels as ROS map_server does; `path` names the image
    /// in errors and notes.
    ///
    /// Refused before any pixel is allocated: more than [`crate::MAX_IMAGE_PIXELS`]
    /// pixels, or a world extent over [`MAX_WORLD_EXTENT_M`]. [`Self::notes`] receives
    /// the notes of [`MapMeta::notes`] and of the image (a PGM named `.png`, transparent
    /// pixels whose alpha is ignored).
    pub fn from_image_bytes(
        bytes: &[u8],
        path: &Path,
        meta: &MapMeta,
        rule: FreeRule,
    ) -> Result<Self> {
        let decoded = crate::raster::decode_map_image(bytes, path)?;
        if decoded.only_alpha_varies {
            return Err(FormatError::bad_image(
                path,
                format!(
                    "every pixel has the same colour (gray {}) and only the alpha channel varies: the map is drawn in alpha, which is ignored (map_server reads the colour levels); flatten it onto a background and re-export it as 8-bit gray",
                    decoded.gray[0]
                ),
            ));
        }
        check_extent(meta, decoded.width, decoded.height, path)?;
        // The YAML's path is not known here: its notes name the image's YAML.
        let mut notes = meta.notes_prefixed(&format!("{} (its YAML)", path.display()));
        notes.extend(decoded.notes(path));
        let mut map = Self::from_gray(decoded.width, decoded.height, decoded.gray, meta, rule);
        if let Some(sums) = decoded.channel_sums {
            // Colour maps: classify the exact channel mean, as map_server does,
            // not the rounded gray value kept for display.
            for (o, s) in map.occupancy.iter_mut().zip(sums) {
                *o = occupancy_level(s as f64 / 3.0, meta, rule);
            }
            map.sync_free();
        }
        map.notes = notes;
        Ok(map)
    }

    /// Whether pixel (col, row) is free; outside the image is not free.
    pub fn is_free(&self, col: i64, row: i64) -> bool {
        if col < 0 || row < 0 || col as usize >= self.width || row as usize >= self.height {
            return false;
        }
        self.free[row as usize * self.width + col as usize]
    }

    /// World coordinates of pixel (col, row): DESIGN §2.1, no half-pixel shift.
    pub fn pixel_to_world(&self, col: f64, row: f64) -> (f64, f64) {
        pixel_to_world(self.origin, self.resolution, self.height, col, row)
    }

    /// Pixel coordinates (col, row), fractional, of a world point; inverse of [`Self::pixel_to_world`].
    pub fn world_to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        world_to_pixel(self.origin, self.resolution, self.height, x, y)
    }

    /// Whether the pixel nearest to world point (x, y) is free.
    pub fn is_free_world(&self, x: f64, y: f64) -> bool {
        let (c, r) = self.world_to_pixel(x, y);
        if !(c.is_finite() && r.is_finite()) {
            return false;
        }
        self.is_free(c.round() as i64, r.round() as i64)
    }
}

/// World (x, y) of pixel (col, row) of an image with `height` rows, map origin `origin`.
///
/// x = origin_x + c·res, y = origin_y + (H − 1 − r)·res, rotated by the origin yaw
/// about the origin when it is non-zero.
pub fn pixel_to_world(
    origin: [f64; 3],
    resolution: f64,
    height: usize,
    col: f64,
    row: f64,
) -> (f64, f64) {
    let lx = col * resolution;
    let ly = (height as f64 - 1.0 - row) * resolution;
    let (s, c) = origin[2].sin_cos();
    (origin[0] + c * lx - s * ly, origin[1] + s * lx + c * ly)
}

/// Fractional pixel (col, row) of world (x, y); inverse of [`pixel_to_world`].
pub fn world_to_pixel(
    origin: [f64; 3],
    resolution: f64,
    height: usize,
    x: f64,
    y: f64,
) -> (f64, f64) {
    let (dx, dy) = (x - origin[0], y - origin[1]);
    let (s, c) = origin[2].sin_cos();
    let lx = c * dx + s * dy;
    let ly = -s * dx + c * dy;
    (lx / resolution, height as f64 - 1.0 - ly / resolution)
}

/// Classifies one gray value (DESIGN §2.1).
pub fn is_free(v: u8, meta: &MapMeta, rule: FreeRule) -> bool {
    is_free_level(v as f64, meta, rule)
}

/// Classifies a gray level 0..=255 that may be fractional (the mean of RGB channels).
///
/// The map-server rule follows ROS map_server's `mode`: `trinary` (default) and
/// `scale` free a pixel when its occupancy p < `free_thresh` (the two modes only
/// differ in the values of non-free cells, which all count as occupied here);
/// `raw` stores the gray value itself (after `negate`, truncated to an integer)
/// as the occupancy value, so only a value of 0 is free.
pub fn is_free_level(v: f64, meta: &MapMeta, rule: FreeRule) -> bool {
    occupancy_level(v, meta, rule).is_free()
}

/// The tristate class of one gray value (see [`occupancy_level`]).
pub fn occupancy(v: u8, meta: &MapMeta, rule: FreeRule) -> Occupancy {
    occupancy_level(v as f64, meta, rule)
}

/// The tristate class of a gray level 0..=255 that may be fractional, as ROS map_server
/// (`image_loader.cpp`) classifies it.
///
/// `FreeRule::Nonzero`: non-zero is free, zero occupied, nothing unknown.
/// `FreeRule::MapServer`: after `negate`, the occupancy p = (255 − v) / 255 is tested
/// for occupied first (p > `occupied_thresh`), then free (p < `free_thresh`), else
/// unknown (`trinary`) or a partial occupancy (`scale`, classed occupied). In `raw`
/// mode the negated level, truncated, is the cell value itself: 0 free, 1..=100
/// occupied, anything else (255 is −1) unknown.
pub fn occupancy_level(v: f64, meta: &MapMeta, rule: FreeRule) -> Occupancy {
    match rule {
        FreeRule::Nonzero => Occupancy::from_free(v > 0.0),
        FreeRule::MapServer => {
            // ROS 1 map_server negates the mean first, in every mode.
            let level = if meta.negate == 1 { 255.0 - v } else { v };
            if meta.mode.as_deref() == Some("raw") {
                // 0 <= value < 1 truncates to 0.
                let t = level.trunc();
                return if t == 0.0 {
                    Occupancy::Free
                } else if (1.0..=100.0).contains(&t) {
                    Occupancy::Occupied
                } else {
                    Occupancy::Unknown
                };
            }
            // p = (255 − level) / 255, written per branch as before so no rounding moves a pixel.
            let p = if meta.negate == 1 {
                v / 255.0
            } else {
                (255.0 - v) / 255.0
            };
            if p > meta.occupied_thresh {
                Occupancy::Occupied
            } else if p < meta.free_thresh {
                Occupancy::Free
            } else if meta.mode.as_deref() == Some("scale") {
                Occupancy::Occupied
            } else {
                Occupancy::Unknown
            }
        }
    }
}

/// Reads a map image (PNG, PGM or BMP, told by its bytes) as 8-bit gray: RGB(A)
/// averaged (alpha ignored), 16-bit scaled to 0..255. Only a regular file of at most
/// [`crate::MAX_IMAGE_BYTES`] is read.
pub fn read_gray_png(path: &Path) -> Result<(usize, usize, Vec<u8>)> {
    let bytes = crate::input_file::read_image_file(path)?;
    decode_gray_png(&bytes, path)
}

/// Decodes image bytes as in [`read_gray_png`]; `path` is used in messages only.
pub fn decode_gray_png(bytes: &[u8], path: &Path) -> Result<(usize, usize, Vec<u8>)> {
    crate::raster::decode_map_image(bytes, path).map(|d| (d.width, d.height, d.gray))
}

/// Writes 8-bit gray pixels (row-major, row 0 on top) as a PNG.
pub fn write_gray_png(path: &Path, width: usize, height: usize, gray: &[u8]) -> Result<()> {
    // Encoded in memory first so a failure never leaves half a PNG on disk.
    let bytes = encode_gray_png(path, width, height, gray)?;
    crate::atomic::write_file(path, &bytes)
}

/// The PNG file bytes of 8-bit gray pixels (row-major, row 0 on top); `path` names the file in errors.
pub fn encode_gray_png(path: &Path, width: usize, height: usize, gray: &[u8]) -> Result<Vec<u8>> {
    let buf = image::GrayImage::from_raw(width as u32, height as u32, gray.to_vec()).ok_or_else(
        || FormatError::bad_image(path, "pixel buffer does not match width × height"),
    )?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    buf.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| FormatError::bad_image(path, format!("could not encode PNG: {e}")))?;
    Ok(bytes.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_world_round_trip_and_convention() {
        let origin = [-11.6, -26.5, 0.0];
        let (x, y) = pixel_to_world(origin, 0.05, 600, 0.0, 599.0);
        assert!((x - -11.6).abs() < 1e-12 && (y - -26.5).abs() < 1e-12);
        let (x, y) = pixel_to_world(origin, 0.05, 600, 10.0, 0.0);
        assert!((x - (-11.6 + 0.5)).abs() < 1e-12 && (y - (-26.5 + 599.0 * 0.05)).abs() < 1e-9);
        for yaw in [0.0, 0.3, -2.0] {
            let o = [1.0, 2.0, yaw];
            let (x, y) = pixel_to_world(o, 0.1, 50, 12.5, 7.25);
            let (c, r) = world_to_pixel(o, 0.1, 50, x, y);
            assert!((c - 12.5).abs() < 1e-9 && (r - 7.25).abs() < 1e-9);
        }
    }

    fn png_bytes<P: image::PixelWithColorType>(w: u32, h: u32, raw: Vec<P::Subpixel>) -> Vec<u8>
    where
        [P::Subpixel]: image::EncodableLayout,
    {
        let img = image::ImageBuffer::<P, Vec<P::Subpixel>>::from_raw(w, h, raw).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn meta(negate: u8) -> MapMeta {
        MapMeta {
            image: "m.png".into(),
            resolution: 0.05,
            origin: [0.0, 0.0, 0.0],
            negate,
            occupied_thresh: 0.65,
            free_thresh: 0.196,
            mode: None,
        }
    }

    #[test]
    fn gray8_is_read_as_is() {
        let bytes = png_bytes::<image::Luma<u8>>(4, 1, vec![0, 100, 254, 255]);
        let (w, h, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!((w, h, g), (4, 1, vec![0, 100, 254, 255]));
    }

    #[test]
    fn rgb_is_averaged_not_luma() {
        // Pure red: the mean is 85; Rec.709 luma would give 54, Rec.601 76.
        let bytes = png_bytes::<image::Rgb<u8>>(3, 1, vec![255, 0, 0, 0, 255, 0, 10, 20, 40]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![85, 85, 23]);
    }

    #[test]
    fn rgba_ignores_alpha() {
        let bytes = png_bytes::<image::Rgba<u8>>(2, 1, vec![30, 60, 90, 0, 254, 254, 254, 17]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![60, 254]);
    }

    #[test]
    fn gray16_is_scaled_to_8_bit() {
        let bytes = png_bytes::<image::Luma<u16>>(4, 1, vec![0, 257 * 100, 65535, 257 * 254 + 100]);
        let (_, _, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        assert_eq!(g, vec![0, 100, 255, 254]);
    }

    #[test]
    fn rows_run_top_down() {
        // 1 × 2 image: row 0 (top) black, row 1 white.
        let bytes = png_bytes::<image::Luma<u8>>(1, 2, vec![0, 255]);
        let (_, h, g) = decode_gray_png(&bytes, Path::new("m.png")).unwrap();
        let map = OccupancyMap::from_gray(1, h, g, &meta(0), FreeRule::MapServer);
        assert!(!map.is_free(0, 0) && map.is_free(0, 1));
        // Row 1 is the bottom row: world y = origin y.
        assert_eq!(map.pixel_to_world(0.0, 1.0), (0.0, 0.0));
        assert!(map.is_free_world(0.0, 0.0) && !map.is_free_world(0.0, 0.05));
    }

    #[test]
    fn map_server_rule_uses_the_thresholds() {
        let m = meta(0);
        // p = (255 - v) / 255 must be < free_thresh 0.196: v = 206 gives 0.1922, v = 205 gives 0.1961.
        assert!(is_free(255, &m, FreeRule::MapServer));
        assert!(is_free(206, &m, FreeRule::MapServer));
        assert!(
            !is_free(205, &m, FreeRule::MapServer),
            "unknown counts as occupied"
        );
        assert!(!is_free(100, &m, FreeRule::MapServer));
        assert!(!is_free(0, &m, FreeRule::MapServer));
    }

    #[test]
    fn scale_mode_frees_like_trinary_and_raw_frees_only_zero() {
        let with_mode = |mode: &str, negate: u8| MapMeta {
            mode: Some(mode.into()),
            ..meta(negate)
        };
        for v in 0..=255u8 {
            let trinary = is_free(v, &meta(0), FreeRule::MapServer);
            assert_eq!(
                is_free(v, &with_mode("trinary", 0), FreeRule::MapServer),
                trinary
            );
            assert_eq!(
                is_free(v, &with_mode("scale", 0), FreeRule::MapServer),
                trinary
            );
            assert_eq!(
                is_free(v, &with_mode("scale", 1), FreeRule::MapServer),
                is_free(v, &meta(1), FreeRule::MapServer)
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 0), FreeRule::MapServer),
                v == 0,
                "raw {v}"
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 1), FreeRule::MapServer),
                v == 255,
                "raw negated {v}"
            );
            assert_eq!(
                is_free(v, &with_mode("raw", 0), FreeRule::Nonzero),
                v > 0,
                "nonzero ignores the mode"
            );
        }
        // A colour mean below 1 truncates to the raw value 0.
        assert!(is_free_level(
            2.0 / 3.0,
            &with_mode("raw", 0),
            FreeRule::MapServer
        ));
        assert!(!is_free_level(
            1.0,
            &with_mode("raw", 0),
            FreeRule::MapServer
        ));
        let yaml = "image: m.png\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\nmode: ";
        for mode in ["trinary", "scale", "raw"] {
            let m =
                MapMeta::from_yaml_str(&format!("{yaml}{mode}\n"), Path::new("m.yaml")).unwrap();
            assert_eq!(m.mode.as_deref(), Some(mode));
            assert!(m.to_yaml_string().contains(&format!("mode: {mode}")));
        }
        let e =
            MapMeta::from_yaml_str(&format!("{yaml}Trinary\n"), Path::new("m.yaml")).unwrap_err();
        assert!(
            e.to_string().contains("m.yaml") && e.to_string().contains("\"mode\""),
            "{e}"
        );
    }

    #[test]
    fn origin_yaw_rotates_about_the_origin() {
        // Yaw +90°: the image's +col axis points along world +y, its up axis along world -x.
        let o = [1.0, 2.0, std::f64::consts::FRAC_PI_2];
        let (x, y) = pixel_to_world(o, 0.5, 10, 0.0, 9.0);
        assert!(
            (x - 1.0).abs() < 1e-12 && (y - 2.0).abs() < 1e-12,
            "bottom-left is the origin"
        );
        let (x, y) = pixel_to_world(o, 0.5, 10, 2.0, 9.0);
        assert!(
            (x - 1.0).abs() < 1e-12 && (y - 3.0).abs() < 1e-12,
            "two columns right: +1 m in y"
        );
        let (x, y) = pixel_to_world(o, 0.5, 10, 0.0, 7.0);
        assert!(
            (x - 0.0).abs() < 1e-12 && (y - 2.0).abs() < 1e-12,
            "two rows up: -1 m in x"
        );
        // The occupancy map answers world queries in the rotated frame.
        let mut gray = vec![0u8; 4 * 3];
        gray[2 * 4 + 3] = 255; // bottom row, last column
        let m = MapMeta {
            origin: o,
            resolution: 0.5,
            ..meta(0)
        };
        let map = OccupancyMap::from_gray(4, 3, gray, &m, FreeRule::MapServer);
        assert!(map.is_free_world(1.0, 3.5) && !map.is_free_world(2.5, 2.0));
        // The yaw survives a YAML round trip.
        let text = MapMeta {
            origin: [1.0, 2.0, 0.25],
            ..meta(0)
        }
        .to_yaml_string();
        let back = MapMeta::from_yaml_str(&text, Path::new("m.yaml")).unwrap();
        assert_eq!(back.origin, [1.0, 2.0, 0.25]);
    }

    #[test]
    fn occupancy_is_tristate_and_agrees_with_free() {
        let m = meta(0);
        // p = (255 - v) / 255: occupied above 0.65 (v <= 89), free below 0.196 (v >= 206).
        assert_eq!(occupancy(89, &m, FreeRule::MapServer), Occupancy::Occupied);
        assert_eq!(occupancy(90, &m, FreeRule::MapServer), Occupancy::Unknown);
        assert_eq!(occupancy(205, &m, FreeRule::MapServer), Occupancy::Unknown);
        assert_eq!(occupancy(206, &m, FreeRule::MapServer), Occupancy::Free);
        assert_eq!(occupancy(0, &m, FreeRule::Nonzero), Occupancy::Occupied);
        assert_eq!(occupancy(128, &m, FreeRule::Nonzero), Occupancy::Free);
        let gray: Vec<u8> = (0..=255).collect();
        for rule in [FreeRule::MapServer, FreeRule::Nonzero] {
            let map = OccupancyMap::from_gray(16, 16, gray.clone(), &m, rule);
            for (f, o) in map.free.iter().zip(&map.occupancy) {
                assert_eq!(*f, *o == Occupancy::Free);
            }
            assert_eq!(
                map.occupancy.contains(&Occupancy::Unknown),
                rule == FreeRule::MapServer
            );
        }
    }

    #[test]
    fn negate_flips_the_occupancy() {
        let m = meta(1);
        assert!(is_free(0, &m, FreeRule::MapServer));
        assert!(is_free(49, &m, FreeRule::MapServer));
        assert!(!is_free(50, &m, FreeRule::MapServer));
        assert!(!is_free(255, &m, FreeRule::MapServer));
    }

    #[test]
    fn nonzero_rule_frees_every_non_black_pixel() {
        let m = meta(0);
        assert!(!is_free(0, &m, FreeRule::Nonzero));
        assert!(is_free(1, &m, FreeRule::Nonzero));
        assert!(is_free(100, &m, FreeRule::Nonzero));
        assert_eq!("nonzero".parse::<FreeRule>(), Ok(FreeRule::Nonzero));
        assert_eq!("map-server".parse::<FreeRule>(), Ok(FreeRule::MapServer));
        assert!("luma".parse::<FreeRule>().is_err());
    }

    #[test]
    fn colour_maps_classify_the_exact_mean() {
        // Channel sum 616: mean 205.33, p = 0.1948 < 0.196, free; the rounded gray 205 (p = 0.1961) is not.
        // Sum 1: mean 1/3, non-black under the nonzero rule though it rounds to 0.
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("m.png");
        std::fs::write(
            &png,
            png_bytes::<image::Rgb<u8>>(2, 1, vec![206, 205, 205, 1, 0, 0]),
        )
        .unwrap();
        let yaml = dir.path().join("m.yaml");
        meta(0).write(&yaml).unwrap();
        let (_, map) = OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap();
        assert_eq!(map.gray, vec![205, 0]);
        assert_eq!(map.free, vec![true, false]);
        let (_, map) = OccupancyMap::load(&yaml, FreeRule::Nonzero).unwrap();
        assert_eq!(map.free, vec![true, true]);
    }
}
