//! `mapzoo view SET... -o FILE.html`: one self-contained interactive page of the sets
//! (issue 23): map, walls, centerline and every line, pan / zoom, a hover readout, the
//! sectors, linked v(s) / a_x(s) / κ(s) plots, and a track picker for several sets.
//! `mapzoo view --before OLD --after NEW -o FILE.html`: what changed between two builds of a
//! track (both driven lines, the lateral shift along s, sector times, changed map pixels).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use mapzoo_format::Waypoint;
use mapzoo_pipeline::Rebuilt;
use mapzoo_render::{load_track, walls_from_widths, PictureLine, TrackPicture};
use mapzoo_view::{check_html_path, compare_page, page, save_html, ViewOptions};

/// Arguments of `mapzoo view`.
#[derive(clap::Args)]
pub struct Args {
    /// Track folders (MapZoo or Race Stack layout); several give a track picker.
    #[arg(required_unless_present = "before", value_name = "SET")]
    pub dirs: Vec<PathBuf>,
    /// Compare: the set before a change (with --after; no SET then).
    #[arg(
        long,
        value_name = "OLD_SET",
        requires = "after",
        conflicts_with = "dirs"
    )]
    pub before: Option<PathBuf>,
    /// Compare: the set after the change (with --before).
    #[arg(long, value_name = "NEW_SET", requires = "before")]
    pub after: Option<PathBuf>,
    /// The HTML file to write (its name must end in .html).
    #[arg(short, long, value_name = "FILE.html")]
    pub output: PathBuf,
    /// Embed the whole map, not just the track and a margin around it.
    #[arg(long)]
    pub whole_map: bool,
    /// Longest side of each embedded map image, pixels (default 1600; a larger map is reduced).
    #[arg(long, value_name = "PX")]
    pub map_px: Option<usize>,
}

/// Reads the sets and writes the page.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_html_path(&args.output)?;
    let options = options(args.whole_map, args.map_px)?;
    // pictures and views classify map pixels by the default configuration's rule
    let rule = mapzoo_pipeline::Config::default().map.free_rule;
    if let (Some(old), Some(new)) = (&args.before, &args.after) {
        let read = |dir: &PathBuf| {
            load_track(dir, rule).with_context(|| format!("reading {}", dir.display()))
        };
        let (html, cmp) = compare_page(&read(old)?, &read(new)?, &options)?;
        save_html(&html, &args.output)?;
        let (t0, t1) = cmp
            .sectors
            .iter()
            .fold((0.0, 0.0), |(a, b), q| (a + q.t_old, b + q.t_new));
        println!(
            "{}: largest shift {:.3} m, lap {t0:.4} -> {t1:.4} s, {} map pixels changed, {} KiB",
            args.output.display(),
            cmp.max_shift(),
            cmp.changed_count(),
            html.len().div_ceil(1024)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut tracks = Vec::with_capacity(args.dirs.len());
    for dir in &args.dirs {
        tracks.push(load_track(dir, rule).with_context(|| format!("reading {}", dir.display()))?);
    }
    let html = page(&tracks, &options)?;
    save_html(&html, &args.output)?;
    println!(
        "{}: {} track{}, {} KiB",
        args.output.display(),
        tracks.len(),
        if tracks.len() == 1 { "" } else { "s" },
        html.len().div_ceil(1024)
    );
    Ok(ExitCode::SUCCESS)
}

/// The view options of the flags.
pub fn options(whole_map: bool, map_px: Option<usize>) -> anyhow::Result<ViewOptions> {
    let mut options = ViewOptions::default();
    if whole_map {
        options.crop_margin_m = None;
    }
    if let Some(px) = map_px {
        if !(64..=8192).contains(&px) {
            anyhow::bail!("--map-px {px} is outside 64 to 8192 pixels");
        }
        options.max_map_px = px;
    }
    Ok(options)
}

/// A set as it was before a command changes it (`regen --view FILE.html`), to write the change
/// view once the command is done.
pub struct ChangeView {
    dir: PathBuf,
    output: PathBuf,
    before: TrackPicture,
}

impl ChangeView {
    /// Reads the set in `dirs` (exactly one) before the change; `None` without `--view`.
    pub fn before(output: Option<&Path>, dirs: &[PathBuf]) -> anyhow::Result<Option<Self>> {
        let Some(output) = output else {
            return Ok(None);
        };
        check_html_path(output)?;
        let [dir] = dirs else {
            anyhow::bail!(
                "--view compares one set before and after; got {} folders",
                dirs.len()
            );
        };
        let rule = mapzoo_pipeline::Config::default().map.free_rule;
        let before = load_track(dir, rule).with_context(|| format!("reading {}", dir.display()))?;
        Ok(Some(ChangeView {
            dir: dir.clone(),
            output: output.to_path_buf(),
            before,
        }))
    }

    /// Reads the set again and writes the page comparing it with how it was.
    pub fn write(self) -> anyhow::Result<()> {
        let rule = mapzoo_pipeline::Config::default().map.free_rule;
        let after = load_track(&self.dir, rule)
            .with_context(|| format!("reading {}", self.dir.display()))?;
        self.write_against(&after, "change view")
    }

    /// Writes the page comparing the set as it is (published) with what `check` rebuilt from
    /// it (`check --view FILE.html`); the folder is only read.
    pub fn write_rebuilt(self, rebuilt: &Rebuilt) -> anyhow::Result<()> {
        let after = rebuilt_picture(&self.before, rebuilt);
        self.write_against(&after, "published vs rebuilt")
    }

    fn write_against(&self, after: &TrackPicture, what: &str) -> anyhow::Result<()> {
        let (html, cmp) = compare_page(&self.before, after, &ViewOptions::default())?;
        save_html(&html, &self.output)?;
        // stderr: `regen --json` and `check --json` keep stdout for their records
        eprintln!(
            "{}: {what}, largest shift {:.3} m",
            self.output.display(),
            cmp.max_shift()
        );
        Ok(())
    }
}

/// The picture of a rebuilt set: the published picture's map (`check` rebuilds from the
/// folder's own map, so no pixel changes) with the rebuilt centerline, walls and lines, and
/// the published sectors carried to the rebuilt driven line by position.
fn rebuilt_picture(published: &TrackPicture, rebuilt: &Rebuilt) -> TrackPicture {
    let mut after = published.clone();
    after.centerline = rebuilt.centerline.clone();
    after.walls = if rebuilt.lines.walls.is_empty() {
        walls_from_widths(&after.centerline)
    } else {
        rebuilt.lines.walls.clone()
    };
    after.lines = rebuilt
        .lines
        .lines
        .iter()
        .map(|l| PictureLine {
            kind: l.kind,
            waypoints: l.waypoints.clone(),
            lap_s: Some(l.lap_time_s),
            max_mps: Some(l.v_max),
        })
        .collect();
    after.racing = rebuilt.lines.racing;
    let (old, new) = (published.main_line(), after.main_line().to_vec());
    for spans in [&mut after.speed_sectors, &mut after.overtaking_sectors] {
        for k in spans.iter_mut() {
            k.start = carried(old, &new, k.start);
            k.end = carried(old, &new, k.end);
        }
    }
    after
}

/// The index on `new` of the point nearest to point `i` of `old` (the first and the closing
/// point stay the first and the closing point).
fn carried(old: &[Waypoint], new: &[Waypoint], i: usize) -> usize {
    if old.is_empty() || new.is_empty() || i == 0 {
        return 0;
    }
    if i + 1 >= old.len() {
        return new.len() - 1;
    }
    let p = &old[i];
    (0..new.len())
        .min_by(|&a, &b| {
            let d = |w: &Waypoint| (w.x_m - p.x_m).hypot(w.y_m - p.y_m);
            d(&new[a]).total_cmp(&d(&new[b]))
        })
        .unwrap_or(0)
}
