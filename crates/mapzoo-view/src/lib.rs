//! An interactive view of track sets (issue 23): one self-contained HTML file
//! (no network, no CDN) with the occupancy map, walls, centerline and every
//! racing line of each set, pan / zoom, a hover readout of each waypoint, the
//! speed-scaling and overtaking sectors, and linked plots of v(s), a_x(s) and
//! κ(s) below the map; several sets get a track picker.
//!
//! The data is one JSON blob in the page (numbers rounded to what the readout
//! shows: metres to the millimetre, speeds and accelerations to the cm/s,
//! curvature to 1e-4 1/m) and the map one grayscale PNG per track, cut to the
//! track and reduced to at most [`ViewOptions::max_map_px`] on its long side.
//! The script and style are ours, written for this page
//! (`src/page/view.js`, `src/page/view.css`), about 700 lines.
//!
//! Tracks are the render crate's [`TrackPicture`]s (read from a folder by
//! [`mapzoo_render::load_track`]): the same reading of a set as the static picture.
//!
//! ```
//! use mapzoo_format::{OccupancyMap, Waypoint};
//! use mapzoo_render::{walls_from_widths, TrackPicture};
//! use mapzoo_view::{page, ViewOptions};
//!
//! let (w, h, res) = (80, 80, 0.1);
//! let gray = vec![254u8; w * h];
//! let map = OccupancyMap::from_free_mask(w, h, res, [-4.0, -4.0, 0.0], gray, vec![true; w * h]);
//! let mut track = TrackPicture::new("ring", map);
//! track.centerline = (0..60)
//!     .map(|i| {
//!         let t = std::f64::consts::TAU * i as f64 / 60.0;
//!         Waypoint { id: i, x_m: 3.0 * t.cos(), y_m: 3.0 * t.sin(), d_right: 0.5, d_left: 0.5,
//!                    s_m: 3.0 * t, ..Waypoint::default() }
//!     })
//!     .collect();
//! track.walls = walls_from_widths(&track.centerline);
//! let html = page(&[track], &ViewOptions::default())?;
//! assert!(html.starts_with("<!doctype html>"));
//! assert!(html.contains("\"name\":\"ring\"") && !html.contains("http://") && !html.contains("https://"));
//! # Ok::<(), mapzoo_view::ViewError>(())
//! ```

#![warn(missing_docs)]

mod compare;
mod data;
mod error;
mod html;

pub use compare::{compare_page, Comparison, SectorDelta, EQUAL_SECTORS};
pub use error::ViewError;
pub use html::{check_html_path, page, save_html, ViewOptions};
