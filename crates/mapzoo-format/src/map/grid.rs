//! [`OccupancyMap`]: a map's pixels in memory, each classified, with the
//! pixel ↔ world transform of its YAML and the notes on how its image was read.

use std::path::Path;

use super::classify::{occupancy, occupancy_level, FreeRule, Occupancy};
use super::meta::{check_extent, MapMeta};
use super::transform::{pixel_to_world, world_to_pixel};
use crate::error::{FormatError, Result};

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
    /// pixels, or a world extent over [`MAX_WORLD_EXTENT_M`](crate::MAX_WORLD_EXTENT_M). [`Self::notes`] receives
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
