//! The track layers drawn over the map: walls, the dashed centerline,
//! speed-coloured IQP (solid) and SP (dotted) lines, the start arrow and the
//! sector ticks. Shared by the one-track picture and the gallery.

use mapzoo_format::Waypoint;
use mapzoo_geom::Walls;

use crate::canvas::{Canvas, Px, Stroke};
use crate::colormap::{Rgb, SpeedScale};
use crate::font;
use crate::track::{distinct_loop, SectorSpan};
use crate::view::MapView;

/// Track bounds.
pub const WALL: Rgb = [230, 110, 0];
/// Centerline dashes.
pub const CENTERLINE: Rgb = [20, 80, 230];
/// Dark rim around speed-coloured lines, so bright speeds show on white.
pub const HALO: Rgb = [20, 20, 20];
/// Start arrow fill; no other layer uses this colour.
pub const ARROW: Rgb = [225, 0, 0];
/// Start arrow rim.
pub const ARROW_RIM: Rgb = [255, 255, 255];
/// Speed-scaling sector ticks.
pub const SPEED_TICK: Rgb = [200, 0, 170];
/// Overtaking sector ticks.
pub const OVERTAKING_TICK: Rgb = [0, 0, 0];
/// Text.
pub const INK: Rgb = [20, 20, 20];
/// Picture background.
pub const PAPER: Rgb = [255, 255, 255];

/// A gap between consecutive points longer than this many median steps
/// splits a line: bounds files hold several loops one after the other.
const BREAK_STEPS: f64 = 20.0;

/// Dashes and dots are laid only along segments shorter than this many
/// pixels, which bounds the work on nonsense coordinates.
const MAX_SEGMENT_PX: f64 = 1e5;

/// Sizes of the layers, image pixels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    /// Text scale (integer font pixel size).
    pub text: usize,
    /// Wall half-width.
    pub wall_r: f64,
    /// Centerline half-width.
    pub centre_r: f64,
    /// Centerline dash and gap lengths.
    pub dash: (f64, f64),
    /// IQP half-width, also the SP dot radius.
    pub line_r: f64,
    /// Halo width beyond `line_r`.
    pub halo: f64,
    /// Start arrow length.
    pub arrow_len: f64,
    /// Sector tick half-length.
    pub tick_len: f64,
}

impl Style {
    /// Sizes for text scale `text` and line scale `f` (1 per 500 px of map;
    /// lines scale smoothly, text only in whole font pixels). The floors
    /// keep small pictures legible: a line needs a full-colour core wider
    /// than its halo, an arrow a head one can see.
    pub fn new(text: usize, f: f64) -> Self {
        Style {
            text,
            wall_r: (0.5 + 0.35 * f).max(0.7),
            centre_r: (0.35 + 0.3 * f).max(0.55),
            dash: ((5.0 * f).max(4.0), (3.5 * f).max(3.0)),
            line_r: (0.25 + 1.25 * f).max(1.1),
            halo: (0.5 * f).clamp(0.6, 1.0),
            arrow_len: (20.0 * f).max(16.0),
            tick_len: (9.0 * f).max(7.0),
        }
    }
}

/// Runs of point indices to join with segments: consecutive finite points
/// closer than [`BREAK_STEPS`] median steps; a closed run ends with its first index.
pub(crate) fn runs(points: &[[f64; 2]], closed: bool) -> Vec<Vec<usize>> {
    let finite = |p: &[f64; 2]| p[0].is_finite() && p[1].is_finite();
    let dist = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let mut steps: Vec<f64> = points
        .windows(2)
        .filter(|w| finite(&w[0]) && finite(&w[1]))
        .map(|w| dist(w[0], w[1]))
        .filter(|d| *d > 0.0)
        .collect();
    steps.sort_by(f64::total_cmp);
    let limit = steps
        .get(steps.len() / 2)
        .map_or(f64::INFINITY, |m| m * BREAK_STEPS);
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        if !finite(p) {
            if run.len() > 1 {
                out.push(std::mem::take(&mut run));
            }
            run.clear();
            continue;
        }
        if let Some(&last) = run.last() {
            if dist(points[last], *p) > limit {
                if run.len() > 1 {
                    out.push(std::mem::take(&mut run));
                }
                run.clear();
            }
        }
        run.push(i);
    }
    if run.len() > 1 {
        out.push(run);
    }
    if closed && !out.is_empty() {
        let first = out[0][0];
        let last_run = out.len() - 1;
        let last = out[last_run][out[last_run].len() - 1];
        if last != first && dist(points[last], points[first]) <= limit {
            if out.len() == 1 {
                out[0].push(first);
            } else {
                let head = out.remove(0);
                if let Some(tail) = out.last_mut() {
                    tail.extend(head);
                }
            }
        }
    }
    out
}

fn xy(line: &[Waypoint]) -> Vec<[f64; 2]> {
    line.iter().map(|w| [w.x_m, w.y_m]).collect()
}

/// The segments of each closed run of `points` ([`runs`]) in image points: `(i, j, a, b)` for
/// each step from point `i` to point `j`, drawn from `a` to `b`.
fn image_segments(points: &[[f64; 2]], view: &MapView) -> Vec<Vec<(usize, usize, Px, Px)>> {
    let px = |i: usize| view.world_to_image(points[i][0], points[i][1]);
    runs(points, true)
        .iter()
        .map(|run| {
            run.windows(2)
                .map(|k| (k[0], k[1], px(k[0]), px(k[1])))
                .collect()
        })
        .collect()
}

/// Draws the track bounds as solid lines.
pub(crate) fn walls(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    walls: &Walls,
    view: &MapView,
    style: &Style,
) {
    for wall in [&walls.right, &walls.left] {
        for run in image_segments(wall, view) {
            for (_, _, a, b) in run {
                stroke.segment(a, b, style.wall_r, &|_| WALL);
            }
        }
    }
    canvas.composite(stroke);
}

/// Draws a polyline of image points dashed, the pattern running on across vertices.
pub(crate) fn dashed(stroke: &mut Stroke, pts: &[Px], radius: f64, dash: (f64, f64), colour: Rgb) {
    let period = dash.0 + dash.1;
    if !(dash.0 > 0.01 && dash.1 >= 0.0 && period.is_finite()) {
        return;
    }
    let mut phase = 0.0;
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        if !(len.is_finite() && len < MAX_SEGMENT_PX) {
            continue;
        }
        let mut s = 0.0;
        while s < len - 1e-9 {
            let in_dash = phase < dash.0;
            let step = if in_dash {
                dash.0 - phase
            } else {
                period - phase
            }
            .min(len - s);
            if in_dash {
                let p = lerp(a, b, s / len);
                let q = lerp(a, b, (s + step) / len);
                stroke.segment(p, q, radius, &|_| colour);
            }
            s += step;
            phase = (phase + step) % period;
        }
    }
}

fn lerp(a: Px, b: Px, t: f64) -> Px {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// Draws the centerline thin and dashed.
pub(crate) fn centerline(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    line: &[Waypoint],
    view: &MapView,
    style: &Style,
) {
    let pts = xy(line);
    for run in runs(&pts, true) {
        let px: Vec<Px> = run
            .iter()
            .map(|&i| view.world_to_image(pts[i][0], pts[i][1]))
            .collect();
        dashed(stroke, &px, style.centre_r, style.dash, CENTERLINE);
    }
    canvas.composite(stroke);
}

/// Draws a trajectory as a solid line coloured by speed, on a dark halo;
/// each pixel takes the colour of the speed interpolated at its projection.
pub(crate) fn speed_line(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    line: &[Waypoint],
    view: &MapView,
    scale: &SpeedScale,
    style: &Style,
) {
    let all = image_segments(&xy(line), view);
    for (radius, halo) in [(style.line_r + style.halo, true), (style.line_r, false)] {
        for run in &all {
            for &(i, j, a, b) in run {
                if halo {
                    stroke.segment(a, b, radius, &|_| HALO);
                } else {
                    let (va, vb) = (line[i].vx_mps, line[j].vx_mps);
                    stroke.segment(a, b, radius, &|t| scale.colour(va + (vb - va) * t));
                }
            }
        }
        canvas.composite(stroke);
    }
}

/// Draws a trajectory as speed-coloured dots on dark halos, one every
/// `4 × line_r` pixels of drawn length.
pub(crate) fn speed_dots(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    line: &[Waypoint],
    view: &MapView,
    scale: &SpeedScale,
    style: &Style,
) {
    let spacing = 4.0 * style.line_r;
    let mut dots: Vec<(Px, f64)> = Vec::new();
    for run in image_segments(&xy(line), view) {
        let mut next = 0.0;
        let mut s = 0.0;
        for (i, j, a, b) in run {
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            if !(len.is_finite() && len < MAX_SEGMENT_PX) {
                continue;
            }
            while next <= s + len && len > 0.0 {
                let t = (next - s) / len;
                let v = line[i].vx_mps + (line[j].vx_mps - line[i].vx_mps) * t;
                dots.push((lerp(a, b, t), v));
                next += spacing;
            }
            s += len;
        }
    }
    for &(p, _) in &dots {
        stroke.disc(p, style.line_r + style.halo, HALO);
    }
    canvas.composite(stroke);
    for &(p, v) in &dots {
        stroke.disc(p, style.line_r, scale.colour(v));
    }
    canvas.composite(stroke);
}

/// Unit direction in the image of the first segment of `line` with length,
/// and the image point of waypoint 0.
pub(crate) fn start_direction(line: &[Waypoint], view: &MapView) -> Option<(Px, Px)> {
    let first = line.first()?;
    let p0 = view.world_to_image(first.x_m, first.y_m);
    line.iter().skip(1).find_map(|w| {
        let p = view.world_to_image(w.x_m, w.y_m);
        let (dx, dy) = (p[0] - p0[0], p[1] - p0[1]);
        let len = dx.hypot(dy);
        (len.is_finite() && len > 1e-9 && p0[0].is_finite() && p0[1].is_finite())
            .then(|| (p0, [dx / len, dy / len]))
    })
}

/// An arrow from `tail` along unit `dir`, `len` pixels long, red on a white rim.
pub(crate) fn arrow(canvas: &mut Canvas, stroke: &mut Stroke, tail: Px, dir: Px, len: f64) {
    let n = [-dir[1], dir[0]];
    let head = 0.45 * len;
    let half = 0.28 * len;
    let shaft_r = (0.07 * len).max(0.8);
    let tip = [tail[0] + dir[0] * len, tail[1] + dir[1] * len];
    let base = [
        tail[0] + dir[0] * (len - head),
        tail[1] + dir[1] * (len - head),
    ];
    let tri = [
        tip,
        [base[0] + n[0] * half, base[1] + n[1] * half],
        [base[0] - n[0] * half, base[1] - n[1] * half],
    ];
    let rim = 1.3;
    stroke.segment(tail, base, shaft_r + rim, &|_| ARROW_RIM);
    for i in 0..3 {
        stroke.segment(tri[i], tri[(i + 1) % 3], rim, &|_| ARROW_RIM);
    }
    stroke.convex(&tri, ARROW_RIM);
    canvas.composite(stroke);
    stroke.segment(tail, base, shaft_r, &|_| ARROW);
    stroke.convex(&tri, ARROW);
    canvas.composite(stroke);
}

/// Which side of the line a family of sector ticks reaches out to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TickSide {
    /// To the left of the driving direction (speed sectors).
    Left,
    /// To the right of the driving direction (overtaking sectors).
    Right,
}

/// Draws a tick across `line` at the start of each sector after the first
/// waypoint, labelled `{prefix}{k}` at its outer end.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sector_ticks(
    canvas: &mut Canvas,
    stroke: &mut Stroke,
    line: &[Waypoint],
    sectors: &[SectorSpan],
    view: &MapView,
    style: &Style,
    side: TickSide,
    prefix: &str,
    colour: Rgb,
) {
    let pts = distinct_loop(line);
    let n = pts.len();
    if n < 3 {
        return;
    }
    let mut labels = Vec::new();
    for (k, sector) in sectors.iter().enumerate() {
        if sector.start == 0 || sector.start >= n {
            continue;
        }
        let i = sector.start;
        let (a, b) = (pts[(i + n - 1) % n], pts[(i + 1) % n]);
        let pa = view.world_to_image(a.x_m, a.y_m);
        let pb = view.world_to_image(b.x_m, b.y_m);
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let len = dx.hypot(dy);
        if !(len.is_finite() && len > 0.0) {
            continue;
        }
        // In image coordinates (y down) the left of the direction (dx, dy) is (dy, −dx).
        let left = [dy / len, -dx / len];
        let out = match side {
            TickSide::Left => left,
            TickSide::Right => [-left[0], -left[1]],
        };
        let p = view.world_to_image(pts[i].x_m, pts[i].y_m);
        let l = style.tick_len;
        let from = [p[0] - out[0] * 0.4 * l, p[1] - out[1] * 0.4 * l];
        let to = [p[0] + out[0] * l, p[1] + out[1] * l];
        stroke.segment(from, to, 0.5 + 0.6 * style.text as f64, &|_| colour);
        let gap = l + 1.2 * font::text_height(style.text) as f64;
        labels.push((
            [p[0] + out[0] * gap, p[1] + out[1] * gap],
            format!("{prefix}{k}"),
        ));
    }
    canvas.composite(stroke);
    for (at, text) in labels {
        label(canvas, at, &text, style.text, colour);
    }
}

/// Text centred on `at` on a white box, readable over the map.
pub(crate) fn label(canvas: &mut Canvas, at: Px, text: &str, scale: usize, colour: Rgb) {
    let w = font::text_width(text, scale) as f64;
    let h = font::GLYPH_HEIGHT as f64 * scale as f64;
    let (x, y) = ((at[0] - w / 2.0).round(), (at[1] - h / 2.0).round());
    let pad = scale as f64;
    canvas.fill_rect(x - pad, y - pad, x + w + pad, y + h, PAPER);
    canvas.draw_text(x, y, text, scale, colour);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_at_long_gaps_and_close_loops() {
        let pts = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [100.0, 100.0],
            [101.0, 100.0],
        ];
        assert_eq!(runs(&pts, false), vec![vec![0, 1, 2, 3], vec![4, 5]]);
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert_eq!(runs(&square, true), vec![vec![0, 1, 2, 3, 0]]);
        assert_eq!(runs(&square, false), vec![vec![0, 1, 2, 3]]);
        let holed = [
            [0.0, 0.0],
            [1.0, 0.0],
            [f64::NAN, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        assert_eq!(runs(&holed, true), vec![vec![3, 4, 0, 1]]);
        assert!(runs(&[], true).is_empty());
    }

    #[test]
    fn dashes_alternate_along_the_line() {
        let mut c = Canvas::new(20, 3, PAPER);
        let mut s = Stroke::for_canvas(&c);
        dashed(
            &mut s,
            &[[0.0, 1.5], [10.0, 1.5], [20.0, 1.5]],
            0.5,
            (4.0, 2.0),
            INK,
        );
        c.composite(&mut s);
        let row: String = (0..20)
            .map(|x| if c.get(x, 1) == Some(INK) { '#' } else { '.' })
            .collect();
        assert_eq!(row, "####..####..####..##");
    }
}
