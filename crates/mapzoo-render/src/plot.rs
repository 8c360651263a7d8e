//! The speed plot of a set for reports (issue 23, `mapzoo render --plot speed`): v(s) and
//! a_x(s) of every racing line, one panel each, with a title, axes, ticks and a legend.
//!
//! Curves, grid and frames are drawn by tiny-skia (anti-aliased paths), the labels by our
//! embedded bitmap font ([`Canvas::draw_text`]): no system font is read, so the same set
//! gives the same pixels on every machine.

use tiny_skia::{Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use crate::canvas::Canvas;
use crate::colormap::Rgb;
use crate::error::RenderError;
use crate::font;
use crate::track::TrackPicture;

/// Options of a speed plot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotOptions {
    /// Width of the picture, pixels.
    pub width: u32,
    /// Height of the picture, pixels.
    pub height: u32,
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            width: 1200,
            height: 700,
        }
    }
}

/// Colour of a line kind's curves (as `mapzoo view` draws them).
fn colour(name: &str) -> Rgb {
    match name {
        "iqp" => [0xe0, 0x11, 0x5f],
        "sp" => [0x0f, 0xa3, 0xb1],
        _ => [0x7b, 0x3f, 0xbf],
    }
}

const INK: Rgb = [30, 30, 30];

/// One column of a waypoint, plotted against s.
type Column = fn(&mapzoo_format::Waypoint) -> f64;
const TEXT_SCALE: usize = 2;

/// Tick values covering `lo..=hi` with a 1-2-5 step, about `n` of them, and the step.
fn ticks(lo: f64, hi: f64, n: usize) -> (Vec<f64>, f64) {
    let span = (hi - lo).max(1e-9);
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|f| f * mag)
        .find(|st| span / st <= n as f64)
        .unwrap_or(10.0 * mag);
    let mut out = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 {
        out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    (out, step)
}

/// Text of a tick value with the decimals its step needs.
fn tick_label(v: f64, step: f64) -> String {
    let d = (-step.log10().floor()).max(0.0) as usize;
    format!("{v:.d$}")
}

fn paint(c: Rgb, alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c[0], c[1], c[2], alpha);
    p.anti_alias = true;
    p
}

/// The v(s) and a_x(s) plot of every racing line of `track` with waypoints.
pub fn render_speed_plot(
    track: &TrackPicture,
    options: &PlotOptions,
) -> Result<image::RgbImage, RenderError> {
    let (w, h) = (options.width, options.height);
    crate::picture::check_size(w.max(h))?;
    if w < 300 || h < 200 {
        return Err(RenderError::Size {
            size: w.min(h),
            min: 200,
            max: crate::picture::MAX_SIZE,
        });
    }
    let lines: Vec<_> = track
        .lines
        .iter()
        .filter(|l| l.waypoints.len() > 1)
        .collect();
    let mut pix = Pixmap::new(w, h).ok_or(RenderError::TooLarge {
        width: w as usize,
        height: h as usize,
        limit: crate::picture::MAX_PIXELS,
    })?;
    pix.fill(tiny_skia::Color::WHITE);
    let text_h = font::text_height(TEXT_SCALE) as f32;
    let (left, right, top, bottom, gap) = (
        90.0f32,
        20.0f32,
        3.0 * text_h + 40.0,
        text_h + 30.0,
        34.0f32,
    );
    let panel_h = (h as f32 - top - bottom - gap) / 2.0;
    let plot_w = w as f32 - left - right;
    let s_max = lines
        .iter()
        .filter_map(|l| l.waypoints.last().map(|w| w.s_m))
        .fold(0.0f64, f64::max)
        .max(1e-6);
    let x_of = |s: f64| left + (s / s_max) as f32 * plot_w;
    // x, y, text, colour, alignment (0 left, 1 centred, 2 right)
    let mut labels: Vec<(f32, f32, String, Rgb, u8)> = Vec::new();
    let hair = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    let panels: [(&str, Column); 2] = [("v [m/s]", |w| w.vx_mps), ("a_x [m/s2]", |w| w.ax_mps2)];
    for (p, (name, value)) in panels.iter().enumerate() {
        let y0 = top + p as f32 * (panel_h + gap);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for l in &lines {
            for w in &l.waypoints {
                let v = value(w);
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        if !lo.is_finite() {
            (lo, hi) = (-1.0, 1.0); // no line: an empty panel
        } else if hi <= lo {
            (lo, hi) = (lo - 1.0, hi + 1.0); // a constant
        }
        let pad = (hi - lo) * 0.06;
        let (lo, hi) = (lo - pad, hi + pad);
        let y_of = |v: f64| y0 + panel_h - ((v - lo) / (hi - lo)) as f32 * panel_h;
        let (yt, step) = ticks(lo, hi, ((panel_h / 45.0) as usize).max(2));
        for v in yt {
            let y = y_of(v);
            let mut pb = PathBuilder::new();
            pb.move_to(left, y);
            pb.line_to(left + plot_w, y);
            if let Some(path) = pb.finish() {
                let c = if v == 0.0 {
                    [150, 150, 150]
                } else {
                    [228, 228, 228]
                };
                pix.stroke_path(&path, &paint(c, 255), &hair, Transform::identity(), None);
            }
            labels.push((left - 8.0, y - text_h / 2.0, tick_label(v, step), INK, 2));
        }
        let clip = Rect::from_xywh(left, y0, plot_w, panel_h);
        for l in &lines {
            let mut pb = PathBuilder::new();
            for (i, w) in l.waypoints.iter().enumerate() {
                let (x, y) = (x_of(w.s_m), y_of(value(w)).clamp(y0, y0 + panel_h));
                if i == 0 {
                    pb.move_to(x, y);
                } else {
                    pb.line_to(x, y);
                }
            }
            if let (Some(path), Some(_)) = (pb.finish(), clip) {
                let stroke = Stroke {
                    width: 2.0,
                    ..Stroke::default()
                };
                pix.stroke_path(
                    &path,
                    &paint(colour(l.kind.name()), 255),
                    &stroke,
                    Transform::identity(),
                    None,
                );
            }
        }
        if let Some(rect) = clip {
            let path = PathBuilder::from_rect(rect);
            pix.stroke_path(
                &path,
                &paint([120, 120, 120], 255),
                &hair,
                Transform::identity(),
                None,
            );
        }
        labels.push((8.0, y0 - text_h - 4.0, (*name).to_string(), INK, 0));
    }
    let bottom_y = top + 2.0 * panel_h + gap;
    let (st, step) = ticks(0.0, s_max, ((plot_w / 90.0) as usize).max(2));
    for s in st {
        labels.push((x_of(s), bottom_y + 8.0, tick_label(s, step), INK, 1));
    }
    labels.push((
        left + plot_w,
        bottom_y + text_h + 12.0,
        "s [m]".into(),
        INK,
        2,
    ));

    // the tiny-skia picture into our canvas (opaque: the background is white), then the text
    let mut canvas = Canvas::new(w as usize, h as usize, [255, 255, 255]);
    for (i, px) in pix.pixels().iter().enumerate() {
        let c = px.demultiply();
        canvas.set(
            i % w as usize,
            i / w as usize,
            [c.red(), c.green(), c.blue()],
        );
    }
    let mut title = format!("{}  speed and acceleration along the lap", track.name);
    if lines.is_empty() {
        title.push_str(" (no racing line)");
    }
    canvas.draw_text(8.0, 8.0, &title, TEXT_SCALE, INK);
    let mut x = 8.0;
    for l in &lines {
        let c = colour(l.kind.name());
        let y = 8.0 + text_h as f64 + 10.0;
        canvas.fill_rect(x, y + 6.0, x + 24.0, y + 10.0, c);
        let lap = l.lap_s.map_or(String::new(), |t| format!(" {t:.3} s"));
        x +=
            30.0 + canvas.draw_text(
                x + 30.0,
                y,
                &format!("{}{lap}", l.kind.label()),
                TEXT_SCALE,
                INK,
            ) + 24.0;
    }
    for (x, y, text, c, align) in labels {
        let tw = font::text_width(&text, TEXT_SCALE) as f32;
        let x = x - tw * f32::from(align) / 2.0;
        canvas.draw_text(x as f64, y as f64, &text, TEXT_SCALE, c);
    }
    Ok(canvas.into_image())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_range_in_round_steps() {
        let (t, step) = ticks(0.0, 77.0, 8);
        assert_eq!(step, 10.0);
        assert_eq!(t.first(), Some(&0.0));
        assert_eq!(t.last(), Some(&70.0));
        let (t, step) = ticks(-12.3, 6.1, 4);
        assert_eq!(step, 5.0);
        assert_eq!(t, vec![-10.0, -5.0, 0.0, 5.0]);
        assert_eq!(tick_label(2.5, 0.5), "2.5");
    }
}
