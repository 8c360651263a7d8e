//! The generated map: gray pixels, map-server metadata and the truth, and its
//! files (written through the format crate's atomic writer).

use std::path::{Path, PathBuf};

use mapzoo_format::{
    pixel_to_world, world_to_pixel, write_gray_png, FormatError, FreeRule, MapMeta, OccupancyMap,
};

use crate::truth::GroundTruth;

/// A generated map: gray pixels, map-server metadata and the truth.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthMap {
    /// Image width, pixels.
    pub width: usize,
    /// Image height, pixels.
    pub height: usize,
    /// Gray values, row-major, row 0 on top: 254 free, 0 occupied, 205 unknown, ramps between.
    pub gray: Vec<u8>,
    /// The YAML metadata (image `synth.png` until written under another name).
    pub meta: MapMeta,
    /// What it was drawn from.
    pub truth: GroundTruth,
}

impl SynthMap {
    /// Gray value of pixel (col, row); `None` outside the image.
    pub fn pixel(&self, col: i64, row: i64) -> Option<u8> {
        if col < 0 || row < 0 || col as usize >= self.width || row as usize >= self.height {
            return None;
        }
        Some(self.gray[row as usize * self.width + col as usize])
    }

    /// Fractional pixel (col, row) of world point (x, y) (DESIGN §2.1 convention).
    pub fn world_to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        world_to_pixel(self.meta.origin, self.meta.resolution, self.height, x, y)
    }

    /// World (x, y) of pixel (col, row), metres.
    pub fn pixel_to_world(&self, col: f64, row: f64) -> (f64, f64) {
        pixel_to_world(
            self.meta.origin,
            self.meta.resolution,
            self.height,
            col,
            row,
        )
    }

    /// The map classified as the loader would classify it from the files.
    pub fn occupancy(&self, rule: FreeRule) -> OccupancyMap {
        OccupancyMap::from_gray(self.width, self.height, self.gray.clone(), &self.meta, rule)
    }

    /// Writes `dir/<name>.png` and `dir/<name>.yaml` (image field `<name>.png`); returns both paths.
    ///
    /// Each file goes through [`mapzoo_format::write_file_atomic`] (a temporary sibling
    /// renamed over the target), the YAML last, so a reader never sees half a
    /// file and a map whose PNG failed has no YAML. `dir` must exist.
    pub fn write(&self, dir: &Path, name: &str) -> Result<[PathBuf; 2], FormatError> {
        let png = dir.join(format!("{name}.png"));
        let yaml = dir.join(format!("{name}.yaml"));
        let meta = MapMeta {
            image: format!("{name}.png"),
            ..self.meta.clone()
        };
        write_gray_png(&png, self.width, self.height, &self.gray)?;
        meta.write(&yaml)?;
        Ok([png, yaml])
    }
}
