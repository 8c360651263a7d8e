//! `mapzoo render DIR -o FILE.png [--size PX]`: a picture of one track set;
//! `mapzoo render --gallery DIR... -o FILE.png`: a grid of many (issue 7);
//! `mapzoo render DIR --plot speed -o FILE.png`: v(s) and a_x(s) of every line (issue 23).
//! Each picture shows the track with a margin, not the whole map (issue 11
//! item 9); `--whole-map` shows all of it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::common::cli_message;
use mapzoo_render::{
    check_png_path, load_track, render_gallery, render_speed_plot, render_track, save_png,
    GalleryOptions, PlotOptions, RenderOptions, TrackPicture, CROP_MARGIN_M,
};

/// Arguments of `mapzoo render`.
#[derive(clap::Args)]
pub struct Args {
    /// Track folder (MapZoo or Race Stack layout); with --gallery, one or more.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Draw all the given tracks in a grid, each with its name and SP lap time.
    #[arg(long)]
    pub gallery: bool,
    /// The PNG file to write (its name must end in .png).
    #[arg(short, long, value_name = "FILE.png")]
    pub output: PathBuf,
    /// Draw the whole map, not just the track and a margin around it.
    #[arg(long)]
    pub whole_map: bool,
    /// Margin around the track, metres (default 1.0; ignored with --whole-map).
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub margin: Option<f64>,
    /// Draw a plot instead of the map: `speed`, v(s) and a_x(s) of every line.
    #[arg(long, value_name = "KIND", value_parser = ["speed"], conflicts_with = "gallery")]
    pub plot: Option<String>,
    /// Long side of the map in pixels (default 1000); with --gallery, the side of each cell (default 320).
    #[arg(long, value_name = "PX")]
    pub size: Option<u32>,
}

/// Draws and writes the picture; exit 1 when a gallery had to leave a track out.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Pictures classify map pixels by the default configuration's rule (map-server).
    let rule = mapzoo_pipeline::Config::default().map.free_rule;
    check_png_path(&args.output)?;
    let margin = args.margin.unwrap_or(CROP_MARGIN_M);
    if !(margin.is_finite() && (0.0..=1000.0).contains(&margin)) {
        anyhow::bail!(
            "--margin {} is outside 0 to 1000 metres",
            mapzoo_raceline::format_number(margin)
        );
    }
    let framed = |t: TrackPicture| {
        if args.whole_map {
            t
        } else {
            t.cropped_to_track(margin)
        }
    };
    if !args.gallery {
        let [dir] = args.dirs.as_slice() else {
            anyhow::bail!(
                "render draws one track folder (got {}); use --gallery for several",
                args.dirs.len()
            );
        };
        let track = load_track(dir, rule).with_context(|| format!("reading {}", dir.display()))?;
        if args.plot.is_some() {
            let width = args.size.unwrap_or(PlotOptions::default().width);
            let options = PlotOptions {
                width,
                height: width * 7 / 12,
            };
            let image = render_speed_plot(&track, &options)?;
            save_png(&image, &args.output)?;
            println!(
                "{}: {} x {} px",
                args.output.display(),
                image.width(),
                image.height()
            );
            return Ok(ExitCode::SUCCESS);
        }
        let track = framed(track);
        let options = RenderOptions {
            size: args.size.unwrap_or(RenderOptions::default().size),
        };
        let picture = render_track(&track, &options)?;
        save_png(&picture.image, &args.output)?;
        println!(
            "{}: {} x {} px",
            args.output.display(),
            picture.image.width(),
            picture.image.height()
        );
        return Ok(ExitCode::SUCCESS);
    }

    let mut tracks = Vec::new();
    let mut failed = 0;
    for dir in &args.dirs {
        match load_track(dir, rule) {
            Ok(t) => tracks.push(framed(t)),
            Err(e) => {
                failed += 1;
                eprintln!("error: {}; left out of the gallery", cli_message(&e));
            }
        }
    }
    if tracks.is_empty() {
        anyhow::bail!("no track folder could be read; nothing to draw");
    }
    let options = GalleryOptions {
        cell: args.size.unwrap_or(GalleryOptions::default().cell),
        ..GalleryOptions::default()
    };
    let image = render_gallery(&tracks, &options)?;
    save_png(&image, &args.output)?;
    println!(
        "{}: {} tracks, {} x {} px",
        args.output.display(),
        tracks.len(),
        image.width(),
        image.height()
    );
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
