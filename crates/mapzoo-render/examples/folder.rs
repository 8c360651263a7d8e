//! Renders one track folder without the `mapzoo` binary:
//! `cargo run -p mapzoo-render --example folder -- DIR OUT.png [SIZE]`.

use mapzoo_render::{load_track, render_track, save_png, RenderOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: folder DIR OUT.png [SIZE]".into());
    };
    let size = match args.next() {
        Some(s) => s.parse()?,
        None => RenderOptions::default().size,
    };
    let track = load_track(
        std::path::Path::new(&dir),
        mapzoo_format::FreeRule::MapServer,
    )?;
    let picture = render_track(&track, &RenderOptions { size })?;
    save_png(&picture.image, std::path::Path::new(&out))?;
    Ok(())
}
