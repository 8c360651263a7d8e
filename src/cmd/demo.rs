//! `mapzoo demo`: generate a built-in example track, build its set, print
//! where the files are and the lap times.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use mapzoo_pipeline::{build, update_set, BuildRequest, Config};
use mapzoo_raceline::LineKind;
use mapzoo_synth::{generate, SynthOptions};

/// Arguments of `mapzoo demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder; the map goes to DIR/map/, the set to DIR/demo/.
    #[arg(long, short, default_value = "out/demo")]
    pub out: PathBuf,
    /// Seed of the generated track.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
}

/// Generates, builds and reports.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = SynthOptions {
        seed: args.seed,
        ..SynthOptions::default()
    };
    let map = generate(&opts).context("generating the demo track")?;
    let map_dir = args.out.join("map");
    std::fs::create_dir_all(&map_dir)
        .with_context(|| format!("{}: cannot create the folder", map_dir.display()))?;
    let [png, yaml] = map.write(&map_dir, "demo")?;
    println!(
        "map:      {} ({}×{} px, {} m/px)",
        png.display(),
        map.width,
        map.height,
        map.meta.resolution
    );
    let config = Config::default();
    let req = BuildRequest {
        yaml,
        name: Some("demo".into()),
        start: None,
        reverse: false,
    };
    let t = std::time::Instant::now();
    let mut set = build(&req, &config)?;
    // An existing demo set is updated in place: files mapzoo did not write are kept.
    let updated = update_set(&mut set, &args.out, false)?;
    for line in super::setfiles::written_lines(&updated.written) {
        eprintln!("{line}");
    }
    let dir = updated.written.dir;
    let r = set.record();
    println!("set:      {}", dir.display());
    println!(
        "centerline {} points; IQP {} points, {:.2} m; SP {} points, {:.2} m",
        r.centerline_points,
        r[LineKind::Iqp].points,
        r[LineKind::Iqp].length_m,
        r[LineKind::Sp].points,
        r[LineKind::Sp].length_m
    );
    println!(
        "IQP lap {:.4} s (max {:.4} m/s); SP lap {:.4} s (max {:.4} m/s); built in {:.3} s",
        r[LineKind::Iqp].lap_s,
        r[LineKind::Iqp].vmax,
        r[LineKind::Sp].lap_s,
        r[LineKind::Sp].vmax,
        t.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
