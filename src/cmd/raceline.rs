//! `mapzoo raceline INPUT --out DIR`: stages 7–11 (DESIGN §3) on an existing
//! centerline: the IQP and SP racing lines, their velocity profiles and lap
//! times, written as waypoint CSVs and a Race Stack global_waypoints.json.
//!
//! INPUT is a MapZoo centerline CSV, a TUM centerline CSV
//! (`x_m, y_m, w_tr_right_m, w_tr_left_m`) or a global_waypoints.json (its
//! centerline_waypoints). Walls come from the JSON's trackbounds_markers, or are
//! rebuilt as centerline ± d_right/d_left along the normals.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use mapzoo_format::global::GlobalParts;
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_raceline::{ClosedSpline, RacelineParams, Walls};

use super::common::ConfigArgs;

/// Arguments of `mapzoo raceline`.
#[derive(clap::Args)]
pub struct Args {
    /// MapZoo centerline CSV, TUM centerline CSV, or global_waypoints.json.
    pub input: PathBuf,
    /// Output folder (created if needed); existing files of the same names are replaced.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print one JSON record with the figures instead of a text summary.
    #[arg(long)]
    pub json: bool,
    /// Profile, TOML file (its [raceline] table is used; the whole file is checked as
    /// `build --config` checks it) and the safety widths.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// The centerline and walls read from INPUT, and the track's name.
struct Input {
    track: String,
    centerline: Vec<Waypoint>,
    walls: Option<Walls>,
}

/// Track name from the input path: `<T>_centerline.csv` → T, `<T>/global_waypoints.json` → T.
fn track_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "track".into());
    if stem == "global_waypoints" {
        if let Some(dir) = path
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
        {
            if let Some(name) = dir.file_name() {
                return name.to_string_lossy().into_owned();
            }
        }
        return "track".into();
    }
    stem.strip_suffix("_centerline")
        .unwrap_or(&stem)
        .to_string()
}

/// Heading (0 = +x, (−π, π]) and curvature at the knots of the closed spline through the points.
fn knot_heading_curvature(xy: &[[f64; 2]]) -> anyhow::Result<Vec<(f64, f64)>> {
    let scaling = mapzoo_raceline::spline::distance_scaling(xy);
    let sp = ClosedSpline::through(xy, Some(&scaling))?;
    Ok((0..xy.len())
        .map(|i| {
            let (psi, kappa) = sp.heading_curvature(i, 0.0);
            (mapzoo_raceline::race_stack_heading(psi), kappa)
        })
        .collect())
}

fn read_input(path: &Path) -> anyhow::Result<Input> {
    if !path.is_file() {
        bail!(
            "{}: no such file; give a MapZoo centerline CSV, a TUM centerline CSV or a global_waypoints.json",
            path.display()
        );
    }
    let track = track_name(path);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if ext == "json" {
        let gw = GlobalWaypoints::read(path)?;
        let centerline = gw.centerline.wpnts.clone();
        let (right, left) = (gw.right_bound(), gw.left_bound());
        let walls = (!right.is_empty() && !left.is_empty()).then_some(Walls { right, left });
        return Ok(Input {
            track,
            centerline,
            walls,
        });
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let centerline = if first.contains(';') {
        mapzoo_format::waypoint::from_csv_str(&text, path)?
    } else {
        let pts = mapzoo_format::tum::centerline_from_str(&text, path)?;
        let xy: Vec<[f64; 2]> = pts.iter().map(|p| [p.x_m, p.y_m]).collect();
        let hk = if xy.len() >= 3 {
            knot_heading_curvature(&xy).with_context(|| format!("{}", path.display()))?
        } else {
            vec![(0.0, 0.0); xy.len()]
        };
        let mut s = 0.0;
        pts.iter()
            .enumerate()
            .map(|(i, p)| {
                if i > 0 {
                    s += (p.x_m - pts[i - 1].x_m).hypot(p.y_m - pts[i - 1].y_m);
                }
                Waypoint {
                    id: i as i64,
                    s_m: s,
                    x_m: p.x_m,
                    y_m: p.y_m,
                    d_right: p.w_tr_right_m,
                    d_left: p.w_tr_left_m,
                    psi_rad: hk[i].0,
                    kappa_radpm: hk[i].1,
                    ..Waypoint::default()
                }
            })
            .collect()
    };
    Ok(Input {
        track,
        centerline,
        walls: None,
    })
}

/// The racing-line parameters: the profile, the TOML file and the safety widths, resolved and
/// validated as `build` does.
fn params(args: &Args) -> anyhow::Result<RacelineParams> {
    if args.config.free_rule.is_some() {
        bail!("--free-rule has no effect on `raceline`, which reads no map; leave it out");
    }
    Ok(args.config.resolve()?.raceline)
}

/// Write `text` to `path` through a temporary file in the same folder, so a reader never sees half a file.
fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("{}: cannot write", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(())
}

/// Runs stages 7–11 and writes the files; exit 0, or 2 (via `Err`) on bad input or an infeasible track.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let params = params(&args)?;
    let input = read_input(&args.input)?;
    let start = Instant::now();
    let result = mapzoo_raceline::compute(&input.centerline, input.walls.as_ref(), &params)
        .with_context(|| format!("{}", args.input.display()))?;
    let seconds = start.elapsed().as_secs_f64();

    let gw = GlobalWaypoints::build(GlobalParts {
        centerline: input.centerline.clone(),
        iqp: result.iqp.clone(),
        sp: result.sp.clone(),
        right_bound: result.walls.right.clone(),
        left_bound: result.walls.left.clone(),
        iqp_lap_time_s: result.iqp_lap_s,
        iqp_max_speed_mps: result.iqp_vmax,
        sp_lap_time_s: result.sp_lap_s,
        sp_max_speed_mps: result.sp_vmax,
    });
    let json_path = args.out.join("global_waypoints.json");
    let json_text = gw.to_json_string(&json_path)?;
    let files = [
        (
            args.out.join(format!("{}_centerline.csv", input.track)),
            mapzoo_format::waypoint::to_csv_string(&input.centerline),
        ),
        (
            args.out.join(format!("{}_racing_line.csv", input.track)),
            mapzoo_format::waypoint::to_csv_string(&result.iqp),
        ),
        (
            args.out.join(format!("{}_sp.csv", input.track)),
            mapzoo_format::waypoint::to_csv_string(&result.sp),
        ),
        (json_path, json_text),
    ];
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create the output folder", args.out.display()))?;
    for (path, text) in &files {
        write_atomic(path, text)?;
    }
    for w in &result.warnings {
        eprintln!("warning: {}: {w}", args.input.display());
    }
    if args.json {
        let record = serde_json::json!({
            "track": input.track,
            "centerline_points": input.centerline.len(),
            "iqp_points": result.iqp.len(),
            "sp_points": result.sp.len(),
            "iqp_lap_s": result.iqp_lap_s,
            "iqp_vmax": result.iqp_vmax,
            "sp_lap_s": result.sp_lap_s,
            "sp_vmax": result.sp_vmax,
            "iqp_length_m": result.iqp_length_m,
            "sp_length_m": result.sp_length_m,
            "seconds": seconds,
        });
        println!("{record}");
    } else {
        println!(
            "{}: IQP {:.4} s, {:.4} m/s, {} points, {:.2} m; SP {:.4} s, {:.4} m/s, {} points, {:.2} m ({:.3} s) -> {}",
            input.track,
            result.iqp_lap_s,
            result.iqp_vmax,
            result.iqp.len(),
            result.iqp_length_m,
            result.sp_lap_s,
            result.sp_vmax,
            result.sp.len(),
            result.sp_length_m,
            seconds,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
