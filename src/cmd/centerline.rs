//! `mapzoo centerline MAP.yaml --out FILE.csv`: stages 1–6 only, the map's
//! centerline as a MapZoo waypoint CSV (DESIGN §2.2, §3 stages 1–6).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use mapzoo_extract::{extract, StartPose};
use mapzoo_format::write_waypoint_csv;
use mapzoo_pipeline::LoadedMap;

use super::common::{parse_start, MapConfigArgs};

/// Arguments of `mapzoo centerline`.
#[derive(clap::Args)]
pub struct Args {
    /// The map's map-server YAML (its `image` names the PNG).
    pub map: PathBuf,
    /// The centerline CSV to write (id; s_m; d_m; x_m; y_m; d_right; d_left; psi_rad; kappa_radpm; vx_mps; ax_mps2).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Start pose x,y,yaw (metres, metres, radians): waypoint 0 and the driving direction [default: the map origin, yaw 0].
    #[arg(long, value_parser = parse_start, allow_hyphen_values = true, value_name = "X,Y,YAW")]
    pub start: Option<StartPose>,
    /// Drive the other way round.
    #[arg(long)]
    pub reverse: bool,
    #[command(flatten)]
    pub config: MapConfigArgs,
}

/// Extracts the centerline and writes it; nothing is written when extraction fails.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = args.config.resolve("centerline")?;
    // The map is read as `build` reads it (the same messages for a missing or bad image).
    let LoadedMap { meta, map, .. } = LoadedMap::read(&args.map, config.map.free_rule)?;
    let image = meta.image_path(&args.map);
    for note in &map.notes {
        eprintln!("note: {note}");
    }
    if let Some(start) = &args.start {
        mapzoo_pipeline::check_start(&args.map, &map, start)?;
    }
    let ex = extract(&map, &config.extract, args.start, args.reverse)
        .with_context(|| format!("{}", image.display()))?;
    write_waypoint_csv(&args.out, &ex.centerline)?;
    let length = ex.centerline.len() as f64 * config.extract.spacing_m;
    eprintln!(
        "{}: {} waypoints, {length:.1} m",
        args.out.display(),
        ex.centerline.len()
    );
    for note in &ex.notes {
        eprintln!("note: {note}");
    }
    Ok(ExitCode::SUCCESS)
}
