//! The gallery of `mapzoo render --gallery`: many tracks in a grid, like the
//! dataset's overview page. Each cell shows the map with its bounds,
//! centerline and IQP line (one speed scale for all cells) and, under it,
//! the track name and SP lap time.

use mapzoo_format::LineKind;

use crate::canvas::{Canvas, Stroke};
use crate::colormap::SpeedScale;
use crate::draw::{self, Style};
use crate::error::RenderError;
use crate::font;
use crate::picture::{check_map, check_pixels, check_size, colour_bar, speed_scale};
use crate::track::TrackPicture;
use crate::view::{self, MapView};

/// Options of a gallery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GalleryOptions {
    /// Side of each square cell's map box, pixels (default 320).
    pub cell: u32,
    /// Number of columns; `None` picks the smallest square-ish grid.
    pub columns: Option<usize>,
}

impl Default for GalleryOptions {
    fn default() -> Self {
        GalleryOptions {
            cell: 320,
            columns: None,
        }
    }
}

/// Renders `tracks` in a grid, left to right then top to bottom, in the order given.
pub fn render_gallery(
    tracks: &[TrackPicture],
    options: &GalleryOptions,
) -> Result<image::RgbImage, RenderError> {
    check_size(options.cell)?;
    if tracks.is_empty() {
        return Err(RenderError::NoTracks);
    }
    for t in tracks {
        check_map(t)?;
    }
    let n = tracks.len();
    let (cols, rows) = grid(n, options.columns);
    let u = (options.cell as usize / 300).max(1);
    let uf = u as f64;
    let mut style = Style::new(u, uf);
    style.line_r = 0.3 + 0.8 * uf;
    style.wall_r = 0.35 + 0.3 * uf;
    style.arrow_len = 14.0 * uf;
    let cell = options.cell as f64;
    let gap = 10.0 * uf;
    let margin = 12.0 * uf;
    let line_h = (font::LINE_HEIGHT * u) as f64;
    let caption_h = 2.0 * line_h + 4.0 * uf;
    let title_h = (font::LINE_HEIGHT * (u + 1)) as f64 + margin / 2.0;
    let speed = speed_scale(tracks);
    let bar_h = 8.0 * uf;
    let footer_h = if speed.is_some() {
        bar_h + 3.0 * uf + 2.0 + font::text_height(u) as f64 + margin
    } else {
        0.0
    };
    // Each row is as tall as its tallest map, so captions sit right under the maps.
    let fitted_h = |t: &TrackPicture| {
        let (w, h) = (t.map.width as f64, t.map.height as f64);
        (cell * (h / w).min(1.0)).ceil()
    };
    let row_h: Vec<f64> = tracks
        .chunks(cols)
        .map(|row| row.iter().map(fitted_h).fold(1.0, f64::max))
        .collect();
    let width = (2.0 * margin + cols as f64 * cell + (cols - 1) as f64 * gap).ceil();
    let grid_top = margin + title_h;
    let grid_h = row_h.iter().map(|h| h + caption_h).sum::<f64>() + (rows - 1) as f64 * gap;
    let height = (grid_top + grid_h + footer_h + margin).ceil();

    let (cw, ch) = check_pixels(width, height)?;
    let mut canvas = Canvas::new(cw, ch, draw::PAPER);
    let mut stroke = Stroke::for_canvas(&canvas);
    let title = format!("{n} track{}", if n == 1 { "" } else { "s" });
    canvas.draw_text(margin, margin, &title, u + 1, draw::INK);

    for (k, track) in tracks.iter().enumerate() {
        let (r, c) = (k / cols, k % cols);
        let x = margin + c as f64 * (cell + gap);
        let y = grid_top + row_h[..r].iter().map(|h| h + caption_h + gap).sum::<f64>();
        let mut pen = Pen {
            canvas: &mut canvas,
            stroke: &mut stroke,
            style: &style,
        };
        draw_cell(&mut pen, track, [x, y, cell, row_h[r]], speed.as_ref());
        let ty = y + row_h[r] + 2.0 * uf;
        let name = fit_text(&track.name, cell, u);
        canvas.draw_text(x, ty, &name, u, draw::INK);
        canvas.draw_text(x, ty + line_h, &lap_caption(track), u, [90, 90, 90]);
    }

    if let Some(scale) = &speed {
        let y = height - margin - footer_h + margin / 2.0;
        let label = "speed (m/s)";
        let x = margin + canvas.draw_text(margin, y, label, u, draw::INK) + 6.0 * uf;
        let w = (width - x - margin).min(400.0 * uf).max(50.0);
        colour_bar(&mut canvas, x, y, w, bar_h, scale, u);
    }
    Ok(canvas.into_image())
}

/// (columns, rows) of a grid of `n` ≥ 1 cells: `columns` if given (at most `n`), else the
/// smallest square-ish grid.
fn grid(n: usize, columns: Option<usize>) -> (usize, usize) {
    let cols = columns
        .unwrap_or_else(|| (n as f64).sqrt().ceil() as usize)
        .clamp(1, n);
    (cols, n.div_ceil(cols))
}

/// The canvas, the stroke buffer and the line style a cell is drawn with.
struct Pen<'a> {
    canvas: &'a mut Canvas,
    stroke: &'a mut Stroke,
    style: &'a Style,
}

/// One cell's map in the box `[left, top, width, height]` (snapped to whole pixels) with its
/// walls, centerline, racing line by speed and start arrow.
fn draw_cell(pen: &mut Pen, track: &TrackPicture, cell: [f64; 4], speed: Option<&SpeedScale>) {
    let [x, y, w, h] = cell;
    let view = MapView::fit(&track.map, x, y, w, h);
    let snapped = MapView {
        left: view.left.round(),
        top: view.top.round(),
        ..view
    };
    let (canvas, stroke, style) = (&mut *pen.canvas, &mut *pen.stroke, pen.style);
    view::draw_map(canvas, &track.map, &snapped);
    draw::walls(canvas, stroke, &track.walls, &snapped, style);
    draw::centerline(canvas, stroke, &track.centerline, &snapped, style);
    if let Some(scale) = speed {
        let line = track.waypoints(track.racing);
        draw::speed_line(canvas, stroke, line, &snapped, scale, style);
    }
    if let Some((p0, dir)) = draw::start_direction(track.main_line(), &snapped) {
        draw::arrow(canvas, stroke, p0, dir, style.arrow_len);
    }
}

/// The caption's second line: the lap time the dataset quotes for a track, or `n/a`.
fn lap_caption(track: &TrackPicture) -> String {
    let shown = LineKind::EST_LAP;
    match track.line(shown).and_then(|l| l.lap_s) {
        Some(t) => format!("{} lap {t:.2} s", shown.label()),
        None => format!("{} lap n/a", shown.label()),
    }
}

/// `text` shortened with `..` to fit `width` pixels at `scale`.
fn fit_text(text: &str, width: f64, scale: usize) -> String {
    if font::text_width(text, scale) as f64 <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().collect();
    while !out.is_empty() && font::text_width(&format!("{out}.."), scale) as f64 > width {
        out.pop();
    }
    format!("{out}..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_shortened_to_the_cell() {
        assert_eq!(fit_text("Austin", 100.0, 1), "Austin");
        let short = fit_text("a_very_long_track_name_indeed", 60.0, 1);
        assert!(short.ends_with("..") && font::text_width(&short, 1) <= 60);
    }
}
