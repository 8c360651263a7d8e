//! Pictures of track sets (issue 7): one track with every file of the set
//! drawn over its occupancy map (DESIGN §2), or a gallery of many tracks.
//!
//! Pure Rust end to end: an embedded bitmap font, an analytic anti-aliased
//! rasteriser and the viridis speed scale ([`viridis`]); nothing is read from
//! the system at run time and the same input always gives the same pixels.
//! [`render_track`] and [`render_gallery`] draw in-memory [`TrackPicture`]s;
//! [`load_track`] reads one from a MapZoo or Race Stack folder; [`save_png`]
//! writes a picture atomically. The modules are private; the API is here at
//! the root.
//!
//! ```
//! use mapzoo_format::{OccupancyMap, Waypoint};
//! use mapzoo_render::{encode_png, render_track, walls_from_widths, RenderOptions, TrackPicture};
//!
//! // A ring of free space 2 m wide around a 4 m circle, 0.05 m per pixel, centred on the origin.
//! let (width, height, res) = (240, 240, 0.05);
//! let free: Vec<bool> = (0..width * height)
//!     .map(|i| {
//!         let (x, y) = (((i % width) as f64 - 120.0) * res, (120.0 - (i / width) as f64) * res);
//!         (3.0..5.0).contains(&x.hypot(y))
//!     })
//!     .collect();
//! let gray = free.iter().map(|&f| if f { 254 } else { 0 }).collect();
//! let origin = [-120.0 * res, -120.0 * res, 0.0];
//! let map = OccupancyMap::from_free_mask(width, height, res, origin, gray, free);
//!
//! // Its centerline, 1 m from each wall, and the walls rebuilt from those widths.
//! let centerline: Vec<Waypoint> = (0..100)
//!     .map(|i| {
//!         let t = std::f64::consts::TAU * i as f64 / 100.0;
//!         let (x_m, y_m) = (4.0 * t.cos(), 4.0 * t.sin());
//!         Waypoint { id: i, x_m, y_m, d_right: 1.0, d_left: 1.0, ..Waypoint::default() }
//!     })
//!     .collect();
//! let mut track = TrackPicture::new("ring", map);
//! track.walls = walls_from_widths(&centerline);
//! track.centerline = centerline;
//!
//! let picture = render_track(&track, &RenderOptions { size: 400 })?;
//! // the map is drawn 400 px on its long side, with room for the title and legend
//! assert!(picture.image.width() >= 400 && picture.image.height() >= 400);
//! let png = encode_png(&picture.image)?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod canvas;
mod colormap;
mod crop;
mod draw;
mod error;
mod font;
mod gallery;
mod load;
mod picture;
mod plot;
mod png;
mod track;
mod view;

pub use colormap::{viridis, Rgb, SpeedScale};
pub use crop::CROP_MARGIN_M;
pub use draw::{ARROW, CENTERLINE, HALO, INK, OVERTAKING_TICK, PAPER, SPEED_TICK, WALL};
pub use error::RenderError;
pub use gallery::{render_gallery, GalleryOptions};
pub use load::load_track;
pub use picture::{
    check_size, render_track, RenderOptions, Rendered, MAX_PIXELS, MAX_SIZE, MIN_SIZE,
};
pub use plot::{render_speed_plot, PlotOptions};
pub use png::{check_png_path, encode_png, save_png};
pub use track::{walls_from_widths, PictureLine, SectorSpan, TrackPicture};
pub use view::MapView;
