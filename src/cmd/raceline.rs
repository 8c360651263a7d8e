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
use mapzoo_format::{GlobalWaypoints, Waypoint};
use mapzoo_pipeline::atomic::StagedDir;
use mapzoo_raceline::{ClosedSpline, LineKind, RacelineParams, RacelineResult, Walls};

use super::common::ConfigArgs;

/// Arguments of `mapzoo raceline`.
#[derive(clap::Args)]
pub struct Args {
    /// MapZoo centerline CSV, TUM centerline CSV, or global_waypoints.json.
    pub input: PathBuf,
    /// Output folder: created with all files at once if new; if it exists, its other files are
    /// kept and files of the same names are replaced together (all written first, then swapped in).
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
    let (format, mut centerline) = mapzoo_format::tum::read_centerline_detect(path)?;
    if format == mapzoo_format::CenterlineFormat::Tum && centerline.len() >= 3 {
        // TUM files carry no heading or curvature: take them from the closed spline.
        let xy: Vec<[f64; 2]> = centerline.iter().map(|w| [w.x_m, w.y_m]).collect();
        let hk = knot_heading_curvature(&xy).with_context(|| format!("{}", path.display()))?;
        for (w, (psi, kappa)) in centerline.iter_mut().zip(hk) {
            w.psi_rad = psi;
            w.kappa_radpm = kappa;
        }
    }
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

/// The output files: (file name, contents), each line checked for NaN/inf first and named by
/// its path under `out` in the error.
fn output_files(
    out: &Path,
    track: &str,
    centerline: &[Waypoint],
    result: &RacelineResult,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    for (name, line) in [
        (format!("{track}_centerline.csv"), centerline),
        (
            format!("{track}_racing_line.csv"),
            result.waypoints(LineKind::RACING),
        ),
        (format!("{track}_sp.csv"), result.waypoints(LineKind::Sp)),
    ] {
        mapzoo_format::waypoint::check_finite(line, &out.join(&name))?;
        files.push((name, mapzoo_format::waypoint::to_csv_string(line)));
    }
    let gw = result.global_waypoints(centerline);
    let json_name = "global_waypoints.json".to_string();
    let json_text = gw.to_json_string(&out.join(&json_name))?;
    files.push((json_name, json_text));
    Ok(files)
}

/// `out` as an absolute path without `.`/`..` or a final symlink, so the staging folder lies
/// beside the real folder.
fn resolve_out(out: &Path) -> anyhow::Result<PathBuf> {
    if out.exists() {
        return out
            .canonicalize()
            .with_context(|| format!("{}: cannot resolve the output folder", out.display()));
    }
    let abs = std::path::absolute(out)
        .with_context(|| format!("{}: cannot resolve the output folder", out.display()))?;
    match (abs.parent(), abs.file_name()) {
        (Some(parent), Some(name)) => Ok(match parent.canonicalize() {
            Ok(p) => p.join(name),
            Err(_) => abs.clone(),
        }),
        _ => bail!(
            "{}: not usable as an output folder; name a folder",
            out.display()
        ),
    }
}

/// Writes `files` into the folder `out` as one set: all of them are written into a staging
/// folder first, so a failure while writing leaves `out` untouched. A new `out` is the staging
/// folder renamed into place (atomic); an existing one keeps its other files and gets the new
/// ones renamed in, the old ones moved aside and put back should any rename fail.
fn write_set(out: &Path, files: &[(String, String)]) -> anyhow::Result<()> {
    let target = resolve_out(out)?;
    if target.exists() && !target.is_dir() {
        bail!(
            "{}: exists and is not a folder; give a folder for --out",
            out.display()
        );
    }
    for (name, _) in files {
        let path = target.join(name);
        if path.is_dir() {
            bail!(
                "{}: is a folder, so the file cannot be written; remove or rename it",
                path.display()
            );
        }
    }
    let existing = target.is_dir();
    // an existing folder stages inside itself (same file system, so the renames are atomic)
    let staged = if existing {
        StagedDir::new(&target.join("raceline-staging"), true)?
    } else {
        StagedDir::new(&target, false)?
    };
    for (name, text) in files {
        let path = staged.path().join(name);
        std::fs::write(&path, text).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    if !existing {
        staged.commit()?;
        return Ok(());
    }
    let backup = staged.path().join("old");
    std::fs::create_dir(&backup).with_context(|| format!("{}: cannot create", backup.display()))?;
    // (final path, its backup if there was an old file) of every file moved in so far
    let mut moved: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut failure = None;
    for (name, _) in files {
        let (new, dest, old) = (
            staged.path().join(name),
            target.join(name),
            backup.join(name),
        );
        let had_old = dest.symlink_metadata().is_ok();
        if had_old {
            if let Err(e) = std::fs::rename(&dest, &old) {
                failure = Some((dest.clone(), e));
                break;
            }
        }
        if let Err(e) = std::fs::rename(&new, &dest) {
            if had_old {
                let _ = std::fs::rename(&old, &dest);
            }
            failure = Some((dest.clone(), e));
            break;
        }
        moved.push((dest, had_old.then_some(old)));
    }
    if let Some((path, e)) = failure {
        let mut restored = true;
        for (dest, old) in moved.iter().rev() {
            restored &= match old {
                Some(old) => std::fs::rename(old, dest),
                None => std::fs::remove_file(dest),
            }
            .is_ok();
        }
        if !restored {
            // keep the staging folder: it holds the old files that could not be put back
            let kept = staged.path().to_path_buf();
            std::mem::forget(staged);
            return Err(e)
                .with_context(|| {
                    format!(
                        "{}: cannot move the new file into place, and some old files could not be \
                     put back; they are in {}",
                        path.display(),
                        backup.display()
                    )
                })
                .with_context(|| format!("staging folder kept: {}", kept.display()));
        }
        return Err(e).with_context(|| {
            format!(
                "{}: cannot move the new file into place; the folder was left as it was",
                path.display()
            )
        });
    }
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

    let files = output_files(&args.out, &input.track, &input.centerline, &result)?;
    write_set(&args.out, &files)?;
    for w in &result.warnings {
        eprintln!("warning: {}: {w}", args.input.display());
    }
    let record = result.record(&input.track, input.centerline.len(), seconds);
    if args.json {
        println!("{}", serde_json::to_string(&record)?);
    } else {
        let lines: Vec<String> = record
            .lines
            .iter()
            .map(|l| {
                format!(
                    "{} {:.4} s, {:.4} m/s, {} points, {:.2} m",
                    l.kind.label(),
                    l.lap_s,
                    l.vmax,
                    l.points,
                    l.length_m
                )
            })
            .collect();
        println!(
            "{}: {} ({:.3} s) -> {}",
            input.track,
            lines.join("; "),
            seconds,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mapzoo_raceline::RacingLine;

    fn line(n: usize) -> Vec<Waypoint> {
        (0..n)
            .map(|i| Waypoint {
                id: i as i64,
                x_m: i as f64,
                ..Waypoint::default()
            })
            .collect()
    }

    /// A NaN anywhere in a line stops the output before any file is written, naming the file,
    /// the waypoint and the column.
    #[test]
    fn non_finite_values_never_reach_a_file() {
        let racing_line = |kind| RacingLine {
            kind,
            waypoints: line(5),
            lap_time_s: 1.0,
            v_max: 1.0,
            length_m: 4.0,
        };
        let result = RacelineResult {
            lines: LineKind::ALL.map(racing_line).to_vec(),
            timings: Vec::new(),
            warnings: Vec::new(),
            walls: Walls {
                right: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 2.0]],
                left: vec![[0.0, -1.0], [1.0, -1.0], [1.0, -2.0]],
            },
        };
        let out = Path::new("outdir");
        assert_eq!(output_files(out, "t", &line(5), &result).unwrap().len(), 4);
        for (which, file) in [
            (0, "t_centerline.csv"),
            (1, "t_racing_line.csv"),
            (2, "t_sp.csv"),
        ] {
            let (mut cl, mut r) = (line(5), result.clone());
            let bad = match which {
                0 => &mut cl[3],
                1 => &mut r.lines[0].waypoints[3],
                _ => &mut r.lines[1].waypoints[3],
            };
            bad.vx_mps = f64::NAN;
            let err = format!("{:#}", output_files(out, "t", &cl, &r).unwrap_err());
            assert!(
                err.contains(file) && err.contains("waypoint 3") && err.contains("vx_mps"),
                "{err}"
            );
        }
    }
}
