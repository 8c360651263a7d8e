//! `mapzoo regen DIR...`: rebuild sets after a map edit, keeping start,
//! direction and the hand-tuned sector files.

use std::path::PathBuf;
use std::process::ExitCode;

use mapzoo_format::set::Written;
use mapzoo_format::Flavor;
use mapzoo_pipeline::{regen_inferred, run_batch, RegenReport, SettingsSource};

use super::common::{cli_message, failure_json, ok_record, ConfigArgs, Progress};
use super::setfiles::{config_choice, move_lines, written_lines};

/// Arguments of `mapzoo regen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// MapZoo set folders (DIR/<DIR>.yaml and its PNG are the source).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Reset speed_scaling.yaml and ot_sectors.yaml to the defaults instead of keeping them
    /// (kept by default, each boundary moved to the same place on the new line).
    #[arg(long)]
    pub force_sectors: bool,
    /// Parallel tracks (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Print one JSON record per track on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write the Race Stack files in this flavour (ros1, ros2); default: the set's own.
    #[arg(long, value_name = "ros1|ros2")]
    pub flavor: Option<Flavor>,
    /// Also write FILE.html: the set's old and new lines, the shift and the sector times
    /// (`mapzoo view --before/--after`); one DIR only.
    #[arg(long, value_name = "FILE.html")]
    pub view: Option<PathBuf>,

    /// For a set without a mapzoo.toml (a published Race Stack set): rebuild with the
    /// settings `check` finds to reproduce its published lap times (free rule, safety widths,
    /// start, direction); refused when none does. A set with a mapzoo.toml uses its record.
    #[arg(long)]
    pub infer: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Regenerates every folder with the settings it recorded (mapzoo.toml) unless flags
/// override them; exit 1 if any failed.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (choice, note) = config_choice(&args.config, &args.dirs)?;
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    super::common::note_jobs(args.jobs);
    let view = super::view::ChangeView::before(args.view.as_deref(), &args.dirs)?;
    let progress = Progress::new(args.dirs.len(), args.json);
    let results = run_batch(
        &args.dirs,
        args.jobs,
        |dir| {
            if args.infer {
                // the lap-time tolerance of `check`'s default (an exact match is preferred)
                regen_inferred(dir, choice.clone(), args.force_sectors, args.flavor, 0.01)
            } else {
                mapzoo_pipeline::regen_as(dir, choice.clone(), args.force_sectors, args.flavor)
            }
        },
        |_, r| match r {
            Ok(rep) => progress.done(&describe(rep)),
            Err(e) => progress.done(&format!("FAIL  {}", cli_message(e))),
        },
    );
    progress.finish();
    let failed = results.iter().filter(|r| r.is_err()).count();
    if args.json {
        // one line per folder, in input order: its report, or its failure record
        for (dir, r) in args.dirs.iter().zip(&results) {
            match r {
                Ok(rep) => println!("{}", ok_record(serde_json::to_value(rep)?)),
                Err(e) => println!("{}", failure_json(dir, e)?),
            }
        }
    }
    if failed > 0 {
        eprintln!("{} regenerated, {failed} failed", results.len() - failed);
        return Ok(ExitCode::from(1));
    }
    if let Some(view) = view {
        view.write()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn before(v: Option<f64>) -> String {
    v.map_or("?".into(), |v| format!("{v:.4}"))
}

fn describe(r: &RegenReport) -> String {
    let mut lines = vec![summary(r)];
    let settings = match r.settings {
        SettingsSource::Recorded => "the settings recorded in mapzoo.toml",
        SettingsSource::Defaults => "the default settings (the set has no mapzoo.toml)",
        SettingsSource::Given => "the settings given on the command line",
        SettingsSource::Inferred => "the settings inferred from the published lap times",
    };
    lines.push(format!("      built with {settings}"));
    if let Some(t) = &r.inferred {
        let how = if t.exact {
            "reproduce them exactly"
        } else {
            "reproduce them within the tolerance"
        };
        lines.push(format!(
            "      inferred: {} ({how})",
            t.settings.hint().flag()
        ));
    }
    lines.extend(move_lines(&r.sector_moves));
    lines.extend(written_lines(&Written {
        dir: Default::default(),
        kept: r.kept_files.clone(),
        replaced: r.replaced_files.clone(),
        backed_up: r.backed_up_files.clone(),
        cleaned: r.cleaned.clone(),
    }));
    lines.join("\n")
}

fn summary(r: &RegenReport) -> String {
    let sectors = if r.sectors_reset {
        "sectors reset to defaults".to_string()
    } else if r.sectors_remapped {
        "sectors kept, indices remapped".to_string()
    } else {
        "sectors kept unchanged".to_string()
    };
    format!(
        "ok    {} ({}): IQP {} -> {:.4} s, SP {} -> {:.4} s, racing line {} -> {} points, {sectors}",
        r.track,
        r.flavor,
        before(r.iqp_lap_s.0),
        r.iqp_lap_s.1,
        before(r.sp_lap_s.0),
        r.sp_lap_s.1,
        r.iqp_points.0.map_or("?".into(), |n| n.to_string()),
        r.iqp_points.1,
    )
}
