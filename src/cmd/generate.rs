//! `mapzoo generate --seed N --out DIR`: a random synthetic track map
//! (PNG + map-server YAML) from the synth crate's generator (issue 3 item 3).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use mapzoo_pipeline::{
    generated_tracks, run_batch, DatasetTrack, PipelineError, Shard, TrackSource,
};
use mapzoo_synth::{generate, CenterlineSpec, GapSpec, SynthOptions, WidthSpec};

use super::common::{cli_message, note_jobs, Progress};

/// Arguments of `mapzoo generate`.
#[derive(clap::Args)]
pub struct Args {
    /// Seed of every random choice; the same seed and options give byte-identical files.
    /// With --count N: the seeds SEED … SEED+N-1, one track each.
    #[arg(long)]
    pub seed: u64,
    /// Folder to write `<name>.png` and `<name>.yaml` into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Base name of the files [default: synth<seed>].
    #[arg(long, conflicts_with = "count")]
    pub name: Option<String>,
    /// Generate N tracks, `synth<SEED+i>` for i = 0 … N-1: track SEED+i is the same whatever
    /// N and --shard are; a summary of their lengths, widths and curvature follows.
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
    /// With --count: only shard K of N (the tracks i with i % N = K-1).
    #[arg(long, value_name = "K/N", requires = "count")]
    pub shard: Option<Shard>,
    /// With --count: parallel tracks (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    #[command(flatten)]
    pub synth: SynthArgs,
    /// Replace existing files of the same name.
    #[arg(long)]
    pub force: bool,
}

/// The generator's options (shared with `mapzoo dataset build`).
#[derive(clap::Args, Debug, Clone)]
pub struct SynthArgs {
    /// Metres per pixel.
    #[arg(long, default_value_t = 0.05)]
    pub resolution: f64,
    /// Lap length, metres [default: drawn from 40–150 m].
    #[arg(long)]
    pub lap_length: Option<f64>,
    /// Constant track width, metres (instead of a smooth random width).
    #[arg(long, conflicts_with_all = ["width_min", "width_max"])]
    pub width: Option<f64>,
    /// Narrowest track width, metres.
    #[arg(long, default_value_t = 1.6)]
    pub width_min: f64,
    /// Widest track width, metres.
    #[arg(long, default_value_t = 3.0)]
    pub width_max: f64,
    /// Occupied margin around the track, metres.
    #[arg(long, default_value_t = 2.0)]
    pub margin: f64,
    /// Exact image size WIDTHxHEIGHT in pixels, the track centred (e.g. 4000x4000).
    #[arg(long, value_parser = parse_size)]
    pub size: Option<[usize; 2]>,
    /// Obstacles inside the track, at random places.
    #[arg(long, default_value_t = 0)]
    pub obstacles: usize,
    /// Spurs (dead-end corridors into the outer wall).
    #[arg(long, default_value_t = 0)]
    pub spurs: usize,
    /// Pockets (bulges of the track into a wall).
    #[arg(long, default_value_t = 0)]
    pub pockets: usize,
    /// Open a gap in the outer wall, a corridor to the image border (the map then leaks).
    #[arg(long)]
    pub gap: bool,
    /// Width of the wall gap's corridor, metres.
    #[arg(long, default_value_t = 0.6)]
    pub gap_width: f64,
    /// Anti-alias the wall edges with a gray ramp this many pixels wide (1 if no value).
    #[arg(long, num_args = 0..=1, default_missing_value = "1.0")]
    pub anti_alias: Option<f64>,
    /// Walls this thick, metres; everything beyond is unknown (gray 205).
    #[arg(long)]
    pub wall_thickness: Option<f64>,
    /// Unknown (gray 205) blobs away from the track.
    #[arg(long, default_value_t = 0)]
    pub unknown_blobs: usize,
    /// Lidar rays: thin lines of free pixels from the outer wall outwards.
    #[arg(long, default_value_t = 0)]
    pub lidar_rays: usize,
    /// Free specks away from the track.
    #[arg(long, default_value_t = 0)]
    pub specks: usize,
    /// Probability that a pixel away from the track gets a random gray value.
    #[arg(long, default_value_t = 0.0)]
    pub noise: f64,
}

fn parse_size(text: &str) -> Result<[usize; 2], String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, e.g. 4000x4000 (found {text:?})"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected WIDTHxHEIGHT in whole pixels (found {text:?})"))
    };
    Ok([num(w)?, num(h)?])
}

impl SynthArgs {
    /// The generator's options for `seed`.
    pub fn options(&self, seed: u64) -> SynthOptions {
        let args = self;
        SynthOptions {
            seed,
            centerline: CenterlineSpec::Random {
                lap_length: args.lap_length,
            },
            width: match args.width {
                Some(w) => WidthSpec::Constant(w),
                None => WidthSpec::Smooth {
                    min: args.width_min,
                    max: args.width_max,
                },
            },
            resolution: args.resolution,
            margin: args.margin,
            image_size: args.size,
            anti_alias: args.anti_alias,
            wall_thickness: args.wall_thickness,
            unknown_blobs: args.unknown_blobs,
            random_obstacles: args.obstacles,
            random_spurs: args.spurs,
            random_pockets: args.pockets,
            wall_gap: args.gap.then_some(GapSpec {
                s: None,
                width: args.gap_width,
            }),
            lidar_rays: args.lidar_rays,
            specks: args.specks,
            noise: args.noise,
            ..SynthOptions::default()
        }
    }
}

/// Generates the map and writes `<name>.png` and `<name>.yaml` into `--out`; exit 0 on success.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(count) = args.count {
        return run_many(&args, count);
    }
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("synth{}", args.seed));
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        bail!("--name {name:?}: must be a plain file name without a path or a leading dot");
    }
    let map = generate(&args.synth.options(args.seed)).context("generate")?;

    let png = args.out.join(format!("{name}.png"));
    let yaml = args.out.join(format!("{name}.yaml"));
    if !args.force {
        for p in [&png, &yaml] {
            if p.exists() {
                bail!(
                    "{}: already exists; pass --force to overwrite it",
                    p.display()
                );
            }
        }
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create the folder", args.out.display()))?;
    // Each file is written atomically (temp file renamed over it), the YAML last.
    map.write(&args.out, &name)?;

    let t = &map.truth;
    let widths = t.centerline.iter().map(|p| p.width());
    let (w_min, w_max) = widths.fold((f64::INFINITY, 0.0_f64), |(a, b), w| (a.min(w), b.max(w)));
    println!(
        "wrote {} ({}×{} px, {} m/px, origin [{}, {}]) and {}",
        png.display(),
        map.width,
        map.height,
        map.meta.resolution,
        map.meta.origin[0],
        map.meta.origin[1],
        yaml.display()
    );
    println!(
        "track: lap {:.2} m, {} centerline points, width {:.2}–{:.2} m, start (0, 0) heading 0, counter-clockwise",
        t.lap_length,
        t.centerline.len(),
        w_min,
        w_max
    );
    if !(t.obstacles.is_empty() && t.spurs.is_empty() && t.pockets.is_empty()) {
        println!(
            "features: {} obstacles, {} spurs, {} pockets",
            t.obstacles.len(),
            t.spurs.len(),
            t.pockets.len()
        );
    }
    if let Some(g) = &t.gap {
        println!(
            "wall gap at s = {:.2} m: leaks to the border at pixel ({}, {}), world ({:.2}, {:.2})",
            g.s, g.border_pixel[0], g.border_pixel[1], g.border_world[0], g.border_world[1]
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A summary line: its label and the figure of each track.
type Column = (&'static str, fn(&Made) -> f64);

/// What one generated track of `--count` looks like.
struct Made {
    lap: f64,
    width_min: f64,
    width_max: f64,
    /// Largest |curvature| along the centerline, 1/m.
    kappa_max: f64,
}

/// `--count N`: tracks `synth<SEED+i>` of the shard, in parallel; a summary at the end; exit
/// 1 if any track failed (the others are written).
fn run_many(args: &Args, count: usize) -> anyhow::Result<ExitCode> {
    let shard = args.shard.unwrap_or(Shard::ALL);
    let tracks = generated_tracks(&args.synth.options(args.seed), args.seed, count)?;
    let mine: Vec<&DatasetTrack> = tracks
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.holds(*i))
        .map(|(_, t)| t)
        .collect();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create the folder", args.out.display()))?;
    note_jobs(args.jobs);
    let progress = Progress::new(mine.len(), false);
    let results = run_batch(
        &mine,
        args.jobs,
        |t| {
            let TrackSource::Generated(options) = &t.source else {
                return Err(PipelineError::Internal {
                    message: format!("{} is not a generated track", t.name),
                });
            };
            if !args.force {
                for ext in ["png", "yaml"] {
                    let p = args.out.join(format!("{}.{ext}", t.name));
                    if p.exists() {
                        return Err(PipelineError::input(
                            &p,
                            "already exists; pass --force to overwrite it",
                        ));
                    }
                }
            }
            let map = generate(options).map_err(|e| {
                PipelineError::input(
                    &args.out.join(format!("{}.yaml", t.name)),
                    format!("generating seed {}: {e}", options.seed),
                )
            })?;
            map.write(&args.out, &t.name)?;
            let c = &map.truth.centerline;
            let widths = c.iter().map(|p| p.width());
            let (width_min, width_max) =
                widths.fold((f64::INFINITY, 0.0_f64), |(a, b), w| (a.min(w), b.max(w)));
            let kappa_max = c.iter().map(|p| p.kappa.abs()).fold(0.0, f64::max);
            Ok(Made {
                lap: map.truth.lap_length,
                width_min,
                width_max,
                kappa_max,
            })
        },
        |t, r| match r {
            Ok(m) => progress.done(&format!(
                "ok    {}: lap {:.2} m, width {:.2}–{:.2} m",
                t.name, m.lap, m.width_min, m.width_max
            )),
            Err(e) => progress.done(&format!("FAIL  {}: {}", t.name, cli_message(e))),
        },
    );
    progress.finish();
    let made: Vec<&Made> = results.iter().flatten().collect();
    let failed = results.len() - made.len();
    println!(
        "{} tracks written to {}{}",
        made.len(),
        args.out.display(),
        if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        }
    );
    if !made.is_empty() {
        println!(
            "{:<22} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "", "min", "p10", "median", "p90", "max"
        );
        let rows: [Column; 4] = [
            ("lap length, m", |m| m.lap),
            ("narrowest width, m", |m| m.width_min),
            ("widest width, m", |m| m.width_max),
            ("max |curvature|, 1/m", |m| m.kappa_max),
        ];
        for (label, f) in rows {
            let q = quantiles(made.iter().map(|m| f(m)).collect());
            println!(
                "{label:<22} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
                q[0], q[1], q[2], q[3], q[4]
            );
        }
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Minimum, 10th percentile, median, 90th percentile and maximum (nearest rank) of `v`.
pub fn quantiles(mut v: Vec<f64>) -> [f64; 5] {
    v.sort_by(f64::total_cmp);
    let at = |p: f64| {
        if v.is_empty() {
            f64::NAN
        } else {
            v[((p * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)]
        }
    };
    [at(0.0), at(0.1), at(0.5), at(0.9), at(1.0)]
}
