//! The one-track picture of `mapzoo render DIR`: a title with lap times,
//! the occupancy map at true scale with every line of the set drawn on it,
//! and a footer with the speed colour bar, a scale bar and a legend.

use mapzoo_format::LineKind;

use crate::canvas::{Canvas, Stroke};
use crate::colormap::{viridis, SpeedScale};
use crate::draw::{self, Style, TickSide};
use crate::error::RenderError;
use crate::font;
use crate::track::{PictureLine, SectorSpan, TrackPicture};
use crate::view::{self, MapView};

/// Smallest accepted picture size, pixels.
pub const MIN_SIZE: u32 = 64;
/// Largest accepted picture size, pixels.
pub const MAX_SIZE: u32 = 8192;

/// Largest picture, width × height pixels (about 1 GB of working memory).
pub const MAX_PIXELS: usize = 100_000_000;

/// Checks a picture's dimensions against [`MAX_PIXELS`].
pub(crate) fn check_pixels(width: f64, height: f64) -> Result<(usize, usize), RenderError> {
    let (w, h) = (width.max(1.0) as usize, height.max(1.0) as usize);
    if w.saturating_mul(h) > MAX_PIXELS {
        return Err(RenderError::TooLarge {
            width: w,
            height: h,
            limit: MAX_PIXELS,
        });
    }
    Ok((w, h))
}

/// Options of a one-track picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Long side of the drawn map, pixels (default 1000); text and lines scale with it.
    pub size: u32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions { size: 1000 }
    }
}

/// A finished picture and where its map sits in it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The picture.
    pub image: image::RgbImage,
    /// Placement of the map, for turning world metres into picture pixels.
    pub view: MapView,
    /// The speed range of the colour bar; `None` when no trajectory was drawn.
    pub speed: Option<SpeedScale>,
}

/// Checks a picture size against [`MIN_SIZE`]..=[`MAX_SIZE`].
pub fn check_size(size: u32) -> Result<(), RenderError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(RenderError::Size {
            size,
            min: MIN_SIZE,
            max: MAX_SIZE,
        })
    }
}

/// Checks that the track's map has pixels to draw.
pub(crate) fn check_map(track: &TrackPicture) -> Result<(), RenderError> {
    let m = &track.map;
    if m.width == 0 || m.height == 0 || m.gray.len() != m.width * m.height {
        return Err(RenderError::EmptyMap {
            name: track.name.clone(),
            width: m.width,
            height: m.height,
        });
    }
    Ok(())
}

/// The speed range over every racing line; `None` when there are none.
pub(crate) fn speed_scale<'a>(
    tracks: impl IntoIterator<Item = &'a TrackPicture>,
) -> Option<SpeedScale> {
    let mut speeds = Vec::new();
    for t in tracks {
        speeds.extend(t.lines.iter().flat_map(|l| &l.waypoints).map(|w| w.vx_mps));
    }
    (!speeds.is_empty()).then(|| SpeedScale::covering(speeds))
}

/// Renders one track: map, walls, centerline, IQP and SP by speed, start
/// arrow, sector ticks, title, lap times, colour bar, scale bar and legend.
pub fn render_track(
    track: &TrackPicture,
    options: &RenderOptions,
) -> Result<Rendered, RenderError> {
    check_size(options.size)?;
    check_map(track)?;
    let speed = speed_scale([track]);
    let info = info_lines(track);
    let title = shorten(&track.name, MAX_LINE_CHARS / 2);
    let legend = legend_items(track);
    let page = Page::new(track, options, speed.is_some(), &info, &title, &legend);
    let style = Style::new(page.u, (options.size as f64 / 500.0).max(0.5));

    let (cw, ch) = check_pixels(page.width, page.height)?;
    let mut canvas = Canvas::new(cw, ch, draw::PAPER);
    let mut stroke = Stroke::for_canvas(&canvas);
    let view = MapView::fit(
        &track.map,
        page.map_left,
        page.map_top,
        page.map_w,
        page.map_h,
    );

    view::draw_map(&mut canvas, &track.map, &view);
    frame(
        &mut canvas,
        page.map_left,
        page.map_top,
        page.map_w,
        page.map_h,
    );
    draw_lines(
        &mut canvas,
        &mut stroke,
        track,
        &view,
        speed.as_ref(),
        &style,
    );

    page.draw_header(&mut canvas, &title, &info);
    page.draw_footer(&mut canvas, &view, speed.as_ref());
    draw_legend(
        &mut canvas,
        &mut stroke,
        &legend,
        page.margin,
        page.legend_y,
        &style,
    );

    Ok(Rendered {
        image: canvas.into_image(),
        view,
        speed,
    })
}

/// Label of the colour bar.
const BAR_LABEL: &str = "speed (m/s)";

/// Where everything of a one-track picture goes, pixels: title and info lines on top, the
/// map, then the footer (colour bar, scale bar) and the legend.
struct Page {
    /// Text and line scale (1 per 500 px of map).
    u: usize,
    margin: f64,
    title_s: usize,
    info_s: usize,
    width: f64,
    height: f64,
    map_left: f64,
    map_top: f64,
    map_w: f64,
    map_h: f64,
    title_y: f64,
    info_y: f64,
    footer_y: f64,
    legend_y: f64,
    bar_w: f64,
    text_h: f64,
}

impl Page {
    /// The layout of `track` at `options.size`, wide enough for its longest text.
    fn new(
        track: &TrackPicture,
        options: &RenderOptions,
        has_speed: bool,
        info: &[String],
        title: &str,
        legend: &[LegendItem],
    ) -> Self {
        let u = (options.size as usize / 500).max(1);
        let uf = u as f64;
        let margin = 12.0 * uf;
        let (title_s, info_s) = (2 * u, u);
        let line_h = |s: usize| (font::LINE_HEIGHT * s) as f64;
        let text_w = |t: &str, s: usize| font::text_width(t, s) as f64;

        let long = track.map.width.max(track.map.height) as f64;
        let map_scale = options.size as f64 / long;
        let (map_w, map_h) = (
            (track.map.width as f64 * map_scale).round().max(1.0),
            (track.map.height as f64 * map_scale).round().max(1.0),
        );

        let bar_w = (0.4 * map_w).max(100.0 * uf).round();
        let scale_bar_room = 0.3 * map_w + 40.0 * uf;
        let footer_w = if has_speed {
            text_w(BAR_LABEL, u) + 6.0 * uf + bar_w + 24.0 * uf + scale_bar_room
        } else {
            scale_bar_room
        };
        let legend_w = legend
            .iter()
            .map(|item| LEGEND_SAMPLE * uf + 4.0 * uf + text_w(item.label(), u) + 14.0 * uf)
            .sum::<f64>();
        let content_w = info
            .iter()
            .map(|l| text_w(l, info_s))
            .chain([map_w, text_w(title, title_s), footer_w, legend_w])
            .fold(0.0, f64::max);
        let width = (content_w + 2.0 * margin).ceil();

        let title_y = margin;
        let info_y = title_y + line_h(title_s);
        let map_top = (info_y + line_h(info_s) * info.len() as f64 + margin / 2.0).round();
        let footer_y = map_top + map_h + margin;
        let text_h = font::text_height(u) as f64;
        let row_a_h = (8.0 * uf + 3.0 * uf + 2.0 + text_h).max(text_h + 8.0 * uf);
        let legend_y = footer_y + row_a_h + margin / 2.0;
        let height = (legend_y + line_h(u).max(10.0 * uf) + margin).ceil();
        let map_left = ((width - map_w) / 2.0).round();
        Page {
            u,
            margin,
            title_s,
            info_s,
            width,
            height,
            map_left,
            map_top,
            map_w,
            map_h,
            title_y,
            info_y,
            footer_y,
            legend_y,
            bar_w,
            text_h,
        }
    }

    /// Height of a text line at scale `s`, pixels.
    fn line_h(&self, s: usize) -> f64 {
        (font::LINE_HEIGHT * s) as f64
    }

    /// The title and the info lines above the map.
    fn draw_header(&self, canvas: &mut Canvas, title: &str, info: &[String]) {
        canvas.draw_text(self.margin, self.title_y, title, self.title_s, draw::INK);
        for (k, line) in info.iter().enumerate() {
            canvas.draw_text(
                self.margin,
                self.info_y + k as f64 * self.line_h(self.info_s),
                line,
                self.info_s,
                draw::INK,
            );
        }
    }

    /// The colour bar (when lines are drawn by speed) and the scale bar under the map.
    fn draw_footer(&self, canvas: &mut Canvas, view: &MapView, speed: Option<&SpeedScale>) {
        let (u, uf) = (self.u, self.u as f64);
        let mut x = self.margin;
        if let Some(scale) = speed {
            let label_y = self.footer_y + (8.0 * uf - self.text_h) / 2.0;
            x += canvas.draw_text(x, label_y.round(), BAR_LABEL, u, draw::INK) + 6.0 * uf;
            colour_bar(canvas, x, self.footer_y, self.bar_w, 8.0 * uf, scale, u);
        }
        let width = 0.25 * self.map_w;
        scale_bar(
            canvas,
            self.width - self.margin,
            self.footer_y,
            view,
            width,
            u,
        );
    }
}

/// Everything drawn on the map: walls, centerline, the racing lines by speed, the sector
/// ticks on the main line and the start arrow, in that order.
fn draw_lines(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    track: &TrackPicture,
    view: &MapView,
    speed: Option<&SpeedScale>,
    style: &Style,
) {
    draw::walls(canvas, stroke, &track.walls, view, style);
    draw::centerline(canvas, stroke, &track.centerline, view, style);
    if let Some(scale) = speed {
        for line in &track.lines {
            draw_racing_line(canvas, stroke, line, view, scale, style);
        }
    }
    let main = track.main_line();
    draw::sector_ticks(
        canvas,
        stroke,
        main,
        &track.speed_sectors,
        view,
        style,
        TickSide::Left,
        "S",
        draw::SPEED_TICK,
    );
    draw::sector_ticks(
        canvas,
        stroke,
        main,
        &track.overtaking_sectors,
        view,
        style,
        TickSide::Right,
        "O",
        draw::OVERTAKING_TICK,
    );
    if let Some((p0, dir)) = draw::start_direction(main, view) {
        draw::arrow(canvas, stroke, p0, dir, style.arrow_len);
    }
}

/// Draws one racing line coloured by speed, in its kind's style: the IQP (and the minimum-time
/// line) as a line, the SP as dots.
fn draw_racing_line(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    line: &PictureLine,
    view: &MapView,
    scale: &SpeedScale,
    style: &Style,
) {
    match line.kind {
        LineKind::Iqp | LineKind::Mintime => {
            draw::speed_line(canvas, stroke, &line.waypoints, view, scale, style)
        }
        LineKind::Sp => draw::speed_dots(canvas, stroke, &line.waypoints, view, scale, style),
    }
}

/// The lines under the title: lap times, sectors, map and point counts.
fn info_lines(track: &TrackPicture) -> Vec<String> {
    let lap = |name: &str, time: Option<f64>, vmax: Option<f64>| match (time, vmax) {
        (Some(t), Some(v)) => Some(format!("{name} lap {t:.2} s, max {v:.2} m/s")),
        (Some(t), None) => Some(format!("{name} lap {t:.2} s")),
        _ => None,
    };
    let laps: Vec<String> = track
        .lines
        .iter()
        .filter_map(|l| lap(l.kind.label(), l.lap_s, l.max_mps))
        .collect();
    let mut lines = vec![if laps.is_empty() {
        "lap times: n/a".to_string()
    } else {
        laps.join("    ")
    }];
    let spans = |prefix: &str, sectors: &[SectorSpan]| {
        sectors
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let note = if s.note.is_empty() {
                    String::new()
                } else {
                    format!(" {}", s.note)
                };
                format!("{prefix}{k} {}-{}{note}", s.start, s.end)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut sectors = Vec::new();
    if !track.speed_sectors.is_empty() {
        sectors.push(format!(
            "speed sectors: {}",
            spans("S", &track.speed_sectors)
        ));
    }
    if !track.overtaking_sectors.is_empty() {
        sectors.push(format!(
            "overtaking sectors: {}",
            spans("O", &track.overtaking_sectors)
        ));
    }
    if !sectors.is_empty() {
        lines.push(sectors.join("    "));
    }
    let mut counts = Vec::new();
    let racing = track.lines.iter().map(|l| (l.kind.label(), &l.waypoints));
    for (name, line) in std::iter::once(("centerline", &track.centerline)).chain(racing) {
        if !line.is_empty() {
            counts.push(format!("{name} {}", line.len()));
        }
    }
    let mut last = match track.whole_map_px {
        None => format!(
            "map {} x {} px at {:.3} m/px",
            track.map.width, track.map.height, track.map.resolution
        ),
        Some((w, h)) => format!(
            "map {w} x {h} px at {:.3} m/px, {} x {} px shown",
            track.map.resolution, track.map.width, track.map.height
        ),
    };
    if !counts.is_empty() {
        last.push_str(&format!("; waypoints: {}", counts.join(", ")));
    }
    lines.push(last);
    lines
        .into_iter()
        .map(|l| shorten(&l, MAX_LINE_CHARS))
        .collect()
}

/// Longest text line printed, characters; longer ones (a file with hundreds
/// of sectors, a very long name) are cut so the picture stays a sane size.
const MAX_LINE_CHARS: usize = 160;

/// `text` cut to `max` characters, ending in `..` when cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(2)).collect();
    format!("{kept}..")
}

/// A 1-pixel gray frame just outside the map.
fn frame(canvas: &mut Canvas, x: f64, y: f64, w: f64, h: f64) {
    let c = [150, 150, 150];
    canvas.fill_rect(x - 1.0, y - 1.0, x + w + 1.0, y, c);
    canvas.fill_rect(x - 1.0, y + h, x + w + 1.0, y + h + 1.0, c);
    canvas.fill_rect(x - 1.0, y, x, y + h, c);
    canvas.fill_rect(x + w, y, x + w + 1.0, y + h, c);
}

/// The largest 1-2-5 number not above `x` (x > 0).
fn nice_floor(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v <= x * (1.0 + 1e-9))
        .unwrap_or(p)
}

/// `v` with as many decimals as a tick `step` needs.
fn tick_text(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    format!("{v:.decimals$}")
}

/// The speed colour bar at (x, y), `w` × `h` pixels, with ticks and m/s labels below.
pub(crate) fn colour_bar(
    canvas: &mut Canvas,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    scale: &SpeedScale,
    u: usize,
) {
    let uf = u as f64;
    for i in 0..w.max(0.0) as usize {
        let c = viridis((i as f64 + 0.5) / w);
        canvas.fill_rect(x + i as f64, y, x + i as f64 + 1.0, y + h, c);
    }
    let range = scale.max - scale.min;
    let step = {
        let s = nice_floor(range / 4.0);
        if range / s > 7.0 {
            s * 2.0
        } else {
            s
        }
    };
    let first = (scale.min / step).ceil() as i64;
    let last = (scale.max / step + 1e-9).floor() as i64;
    for k in first..=last.min(first + 50) {
        let v = k as f64 * step;
        let tx = (x + scale.fraction(v) * w).round();
        canvas.fill_rect(
            tx - uf / 2.0,
            y + h,
            tx + uf / 2.0 + 0.5,
            y + h + 3.0 * uf,
            draw::INK,
        );
        let text = tick_text(v, step);
        let tw = font::text_width(&text, u) as f64;
        canvas.draw_text(
            (tx - tw / 2.0).round(),
            y + h + 3.0 * uf + 2.0,
            &text,
            u,
            draw::INK,
        );
    }
}

/// A 1-2-5 metre scale bar, at most `max_w` pixels long, right-aligned at `right`.
pub(crate) fn scale_bar(
    canvas: &mut Canvas,
    right: f64,
    y: f64,
    view: &MapView,
    max_w: f64,
    u: usize,
) {
    let uf = u as f64;
    let ppm = view.px_per_metre();
    if !(ppm.is_finite() && ppm > 0.0 && max_w > 0.0) {
        return;
    }
    let metres = nice_floor(max_w / ppm);
    let w = (metres * ppm).round();
    let text = if metres >= 1.0 {
        format!("{metres:.0} m")
    } else {
        format!("{} m", tick_text(metres, metres))
    };
    let tw = font::text_width(&text, u) as f64;
    let x0 = right - w;
    canvas.draw_text((x0 + (w - tw) / 2.0).round(), y, &text, u, draw::INK);
    let by = y + font::text_height(u) as f64 + 2.0 * uf;
    canvas.fill_rect(x0, by, right, by + 2.0 * uf, draw::INK);
    canvas.fill_rect(x0, by - 2.0 * uf, x0 + uf, by + 4.0 * uf, draw::INK);
    canvas.fill_rect(right - uf, by - 2.0 * uf, right, by + 4.0 * uf, draw::INK);
}

/// Width of a legend sample, in units of the text scale.
const LEGEND_SAMPLE: f64 = 26.0;

/// One legend entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LegendItem {
    Line(LineKind),
    Centerline,
    Walls,
    SpeedSector,
    OvertakingSector,
    Start,
}

impl LegendItem {
    fn label(&self) -> &'static str {
        match self {
            LegendItem::Line(kind) => kind.label(),
            LegendItem::Centerline => "centerline",
            LegendItem::Walls => "track bounds",
            LegendItem::SpeedSector => "speed sector",
            LegendItem::OvertakingSector => "overtaking sector",
            LegendItem::Start => "start, driving direction",
        }
    }
}

/// The legend entries for what `track` actually has.
fn legend_items(track: &TrackPicture) -> Vec<LegendItem> {
    let mut items: Vec<LegendItem> = track
        .lines
        .iter()
        .filter(|l| !l.waypoints.is_empty())
        .map(|l| LegendItem::Line(l.kind))
        .collect();
    let present = [
        (!track.centerline.is_empty(), LegendItem::Centerline),
        (!track.walls.is_empty(), LegendItem::Walls),
        (track.speed_sectors.len() > 1, LegendItem::SpeedSector),
        (
            track.overtaking_sectors.len() > 1,
            LegendItem::OvertakingSector,
        ),
        (track.main_line().len() > 1, LegendItem::Start),
    ];
    for (has, item) in present {
        if has {
            items.push(item);
        }
    }
    items
}

/// Draws the legend row at (x, y): a sample of each layer and its name.
fn draw_legend(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    items: &[LegendItem],
    x: f64,
    y: f64,
    style: &Style,
) {
    let u = style.text;
    let uf = u as f64;
    let mid = y + font::text_height(u) as f64 / 2.0;
    let mut x = x;
    for item in items {
        let (a, b) = ([x + 2.0 * uf, mid], [x + (LEGEND_SAMPLE - 2.0) * uf, mid]);
        match item {
            LegendItem::Line(LineKind::Iqp | LineKind::Mintime) => {
                stroke.segment(a, b, style.line_r + style.halo, &|_| draw::HALO);
                canvas.composite(stroke);
                stroke.segment(a, b, style.line_r, &|t| viridis(t));
            }
            LegendItem::Line(LineKind::Sp) => {
                let n = 4;
                for k in 0..n {
                    let t = k as f64 / (n - 1) as f64;
                    let p = [a[0] + (b[0] - a[0]) * t, mid];
                    stroke.disc(p, style.line_r + style.halo, draw::HALO);
                }
                canvas.composite(stroke);
                for k in 0..n {
                    let t = k as f64 / (n - 1) as f64;
                    let p = [a[0] + (b[0] - a[0]) * t, mid];
                    stroke.disc(p, style.line_r, viridis(t));
                }
            }
            LegendItem::Centerline => {
                draw::dashed(
                    stroke,
                    &[a, b],
                    style.centre_r,
                    style.dash,
                    draw::CENTERLINE,
                );
            }
            LegendItem::Walls => stroke.segment(a, b, style.wall_r, &|_| draw::WALL),
            LegendItem::SpeedSector | LegendItem::OvertakingSector => {
                let c = if *item == LegendItem::SpeedSector {
                    draw::SPEED_TICK
                } else {
                    draw::OVERTAKING_TICK
                };
                let cx = (a[0] + b[0]) / 2.0;
                let h = 0.5 * font::text_height(u) as f64 + uf;
                stroke.segment([a[0], mid], [b[0], mid], 0.4 * uf, &|_| [170, 170, 170]);
                canvas.composite(stroke);
                stroke.segment([cx, mid - h], [cx, mid + h], 0.5 + 0.6 * uf, &|_| c);
            }
            LegendItem::Start => {
                canvas.composite(stroke);
                let len = (b[0] - a[0]).min(style.arrow_len);
                draw::arrow(canvas, stroke, [a[0], mid], [1.0, 0.0], len);
            }
        }
        canvas.composite(stroke);
        x += LEGEND_SAMPLE * uf + 4.0 * uf;
        x += canvas.draw_text(x, y, item.label(), u, draw::INK) + 14.0 * uf;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_numbers_step_one_two_five() {
        assert_eq!(nice_floor(7.3), 5.0);
        assert_eq!(nice_floor(19.0), 10.0);
        assert_eq!(nice_floor(2.0), 2.0);
        assert!((nice_floor(0.34) - 0.2).abs() < 1e-12);
        assert_eq!(tick_text(2.5, 0.5), "2.5");
        assert_eq!(tick_text(4.0, 2.0), "4");
    }

    #[test]
    fn pictures_over_the_pixel_budget_are_refused() {
        assert_eq!(check_pixels(100.0, 50.0).unwrap(), (100, 50));
        let err = check_pixels(20_000.0, 20_000.0).unwrap_err();
        assert!(matches!(err, RenderError::TooLarge { .. }), "{err}");
        assert_eq!(err.hint(), Some(mapzoo_format::Hint::SmallerPicture));
        assert!(!err.to_string().contains("--"), "{err}");
    }

    #[test]
    fn long_lines_are_cut() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcdef", 4), "ab..");
        assert_eq!(shorten(&"é".repeat(500), 10).chars().count(), 10);
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        assert!(check_size(MIN_SIZE).is_ok() && check_size(MAX_SIZE).is_ok());
        let err = check_size(10).unwrap_err().to_string();
        assert!(err.contains("10 px") && err.contains("64..=8192"), "{err}");
    }
}
