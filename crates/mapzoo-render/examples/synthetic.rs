//! Writes the pictures of the generated test track: `cargo run -p mapzoo-render
//! --example synthetic -- OUT_DIR` gives OUT_DIR/ellipse.png and OUT_DIR/gallery.png.

#[path = "../tests/support/mod.rs"]
mod support;

use mapzoo_render::{render_gallery, render_track, save_png, GalleryOptions, RenderOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let track = support::track(400, false);
    let one = render_track(&track, &RenderOptions { size: 800 })?;
    save_png(&one.image, &out.join("ellipse.png"))?;
    let mut other = support::track(400, true);
    other.name = "clockwise".into();
    let gallery = render_gallery(&[track, other], &GalleryOptions::default())?;
    save_png(&gallery, &out.join("gallery.png"))?;
    Ok(())
}
