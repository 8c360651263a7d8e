//! Notes of the extraction: what it assumed about the map that the user should know,
//! for a map that built (typed, worded by their [`std::fmt::Display`]).

use std::fmt;

use mapzoo_format::OccupancyMap;

use crate::error::{LoopCandidate, MapPoint};
use crate::noise::{Speck, MIN_REAL_M};
use crate::params::DOMINANT_RATIO;
use crate::space::FreeSpace;

/// One thing the extraction assumed or changed, for the user to check.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtractNote {
    /// The track's free space reaches the image border; the border was taken as a wall.
    BorderIsWall {
        /// The first pixel (raster order) of the track's free space on the image border.
        at: MapPoint,
        /// How many of the track's pixels lie on the image border.
        pixels: usize,
    },
    /// A uniform grey joined to the image border counted as free under the YAML's thresholds
    /// though the track is lighter: it was taken as unknown space.
    GreyIsUnknown {
        /// The grey level, 0..255.
        grey: u8,
        /// How many pixels of it were taken as unknown.
        pixels: usize,
    },
    /// Unknown or light-grey specks inside the track's free space (lone pixels, dots,
    /// one-pixel traces of a driven line; none occupied, none of a real obstacle's size)
    /// were taken as free: noise or a drawn annotation, not an obstacle.
    NoiseIgnored {
        /// How many pixels were taken as free.
        pixels: usize,
        /// In how many specks (8-connected groups).
        specks: usize,
        /// The first pixel (raster order) of the largest speck.
        largest: MapPoint,
        /// How many pixels the largest speck has.
        largest_pixels: usize,
        /// World box of every speck noted, `[x_min, y_min, x_max, y_max]`, metres (pixel centres).
        within_m: [f64; 4],
    },
    /// Several loops were plausible and one, at least `DOMINANT_RATIO` (1.5) times as long as
    /// every other, was taken as the track.
    LoopChosen {
        /// The loop taken.
        chosen: LoopCandidate,
        /// The others, longest first.
        others: Vec<LoopCandidate>,
    },
}

impl fmt::Display for ExtractNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractNote::BorderIsWall { at, pixels } => write!(
                f,
                "the track's free space reaches the image border ({pixels} pixels, the first at {at}); outside the image counts as a wall there"
            ),
            ExtractNote::GreyIsUnknown { grey, pixels } => write!(
                f,
                "{pixels} pixels of uniform grey {grey}, joined to the image border, count as free under the YAML's free_thresh (occupancy {:.3}) though the track is lighter; they were taken as unknown space, as the map means (the ROS 2 map saver writes unknown as 205 with free_thresh 0.25: slam_toolbox #587, navigation2 #5278); set free_thresh to at most {:.3} in the YAML to read it so without this note",
                (255.0 - *grey as f64) / 255.0,
                (255.0 - *grey as f64) / 255.0
            ),
            ExtractNote::NoiseIgnored {
                pixels,
                specks,
                largest,
                largest_pixels,
                within_m: [x0, y0, x1, y1],
            } => write!(
                f,
                "{} inside the track's free space, in {} (lone pixels, dots, one-pixel traces; the largest, {}, at {largest}; all within x {x0:.2}..{x1:.2} m, y {y0:.2}..{y1:.2} m), taken as free: each is at most one pixel thick or under {MIN_REAL_M} m across, holds no occupied pixel and encloses nothing, so it is noise or a drawn annotation, not an obstacle; paint a real obstacle occupied (black) to keep it",
                count(*pixels, "unknown or light-grey pixel"),
                count(*specks, "speck"),
                count(*largest_pixels, "pixel"),
            ),
            ExtractNote::LoopChosen { chosen, others } => {
                let others: Vec<String> = others.iter().map(|c| c.to_string()).collect();
                write!(
                    f,
                    "the map holds {} plausible loops; {chosen} is taken as the track, at least {DOMINANT_RATIO} times as long as each other one ({}); give a start pose near another loop to take that one instead",
                    others.len() + 1,
                    others.join("; ")
                )
            }
        }
    }
}

/// `n` and `what`, plural unless `n` is 1.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The notes about the track region `space` of `map`.
pub(crate) fn notes_of(map: &OccupancyMap, space: &FreeSpace) -> Vec<ExtractNote> {
    let mut notes = space.notes.clone();
    if space.touches_border {
        let on_border: Vec<usize> = space
            .mask
            .ones()
            .filter(|&i| space.on_image_border(i))
            .collect();
        if let Some(&first) = on_border.first() {
            notes.push(ExtractNote::BorderIsWall {
                at: space.map_point(map, first),
                pixels: on_border.len(),
            });
        }
    }
    notes
}

/// The note for the specks of `map` (already taken as free) that lie in the track's free
/// space `track_free` (row-major over the image); `None` when none does.
pub(crate) fn specks_in_track(
    map: &OccupancyMap,
    specks: &[Speck],
    track_free: &[bool],
) -> Option<ExtractNote> {
    let inside: Vec<&Speck> = specks
        .iter()
        .filter(|s| s.pixels.iter().any(|&i| track_free.get(i) == Some(&true)))
        .collect();
    let largest = inside.iter().max_by(|a, b| {
        a.pixels
            .len()
            .cmp(&b.pixels.len())
            .then(b.pixels[0].cmp(&a.pixels[0]))
    })?;
    let w = map.width;
    let corner = |c: usize, r: usize| map.pixel_to_world(c as f64, r as f64);
    let mut within_m = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for s in &inside {
        let [c0, r0, c1, r1] = s.bbox;
        for (x, y) in [corner(c0, r0), corner(c1, r1)] {
            within_m[0] = within_m[0].min(x);
            within_m[1] = within_m[1].min(y);
            within_m[2] = within_m[2].max(x);
            within_m[3] = within_m[3].max(y);
        }
    }
    let first = largest.pixels[0];
    Some(ExtractNote::NoiseIgnored {
        pixels: inside.iter().map(|s| s.pixels.len()).sum(),
        specks: inside.len(),
        largest: MapPoint::of(map, first % w, first / w),
        largest_pixels: largest.pixels.len(),
        within_m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(col: usize, row: usize) -> MapPoint {
        MapPoint {
            col,
            row,
            x: col as f64 * 0.1,
            y: row as f64 * 0.1,
        }
    }

    #[test]
    fn the_noise_note_counts_in_words_and_says_where() {
        let note = |pixels, specks, largest_pixels| ExtractNote::NoiseIgnored {
            pixels,
            specks,
            largest: at(7, 9),
            largest_pixels,
            within_m: [0.5, 0.9, 3.25, 4.0],
        };
        let one = note(1, 1, 1).to_string();
        assert!(
            one.starts_with(
                "1 unknown or light-grey pixel inside the track's free space, in 1 speck ("
            ),
            "{one}"
        );
        assert!(
            one.contains("the largest, 1 pixel, at pixel (col 7, row 9)"),
            "{one}"
        );
        let many = note(12, 3, 6).to_string();
        assert!(
            many.starts_with("12 unknown or light-grey pixels inside"),
            "{many}"
        );
        assert!(many.contains("in 3 specks") && many.contains("the largest, 6 pixels"));
        assert!(many.contains("x 0.50..3.25 m, y 0.90..4.00 m"), "{many}");
    }

    #[test]
    fn the_loop_note_names_every_loop() {
        let loop_at = |length_m, col| LoopCandidate {
            length_m,
            at: at(col, 1),
        };
        let text = ExtractNote::LoopChosen {
            chosen: loop_at(60.0, 10),
            others: vec![loop_at(30.0, 20), loop_at(12.5, 30)],
        }
        .to_string();
        assert!(
            text.starts_with("the map holds 3 plausible loops; a 60.0 m loop around pixel (col 10"),
            "{text}"
        );
        assert!(
            text.contains("a 30.0 m loop around pixel (col 20")
                && text.contains("a 12.5 m loop around pixel (col 30")
        );
        assert!(!text.contains("--"), "library words name no flag: {text}");
    }
}
