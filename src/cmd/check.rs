//! `mapzoo check DIR...`: rebuild published sets and compare with what they publish.

use std::path::PathBuf;
use std::process::ExitCode;

use mapzoo_format::Hint;
use mapzoo_pipeline::{
    check_rebuilt, fmt_pct, markdown, read_published_csv, run_batch, CheckOptions, CheckReport,
};

use super::common::{cli_message, failure_json, table_row, ConfigArgs, Progress};
use super::setfiles::config_choice;

/// Arguments of `mapzoo check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// MapZoo or Race Stack track folders.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Skip the image stages: optimise from the published centerline and its widths.
    #[arg(long)]
    pub from_centerline: bool,
    /// Largest relative lap-time difference that passes (0.01 = 1 %).
    #[arg(long, default_value_t = 0.01)]
    pub lap_tol: f64,
    /// Published figures (MapZoo's published.csv) for folders without global_waypoints.json.
    #[arg(long, value_name = "CSV")]
    pub published: Option<PathBuf>,
    /// Print one JSON record per folder on stdout.
    #[arg(long)]
    pub json: bool,
    /// Also write a Markdown report.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Do not search the settings that reproduce a set that differs (the free rule, safety
    /// widths, start and direction); by default `check` does.
    #[arg(long)]
    pub no_infer: bool,
    /// Parallel folders (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Also write FILE.html: the published and the rebuilt lines overlaid, the shift along s
    /// and the sector times (`mapzoo view --before/--after`); one DIR only. The folder is
    /// only read.
    #[arg(long, value_name = "FILE.html")]
    pub view: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Checks every folder; exit 0 when all are within the tolerance.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(args.lap_tol.is_finite() && args.lap_tol >= 0.0) {
        anyhow::bail!("--lap-tol must be a fraction >= 0 (found {})", args.lap_tol);
    }
    let (choice, note) = config_choice(&args.config, &args.dirs)?;
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    let published = match &args.published {
        Some(p) => read_published_csv(p)?,
        None => Vec::new(),
    };
    let opts = CheckOptions {
        from_centerline: args.from_centerline,
        lap_tol: args.lap_tol,
        published,
        infer: !args.no_infer,
    };
    super::common::note_jobs(args.jobs);
    let view = super::view::ChangeView::before(args.view.as_deref(), &args.dirs)?;
    let progress = Progress::new(args.dirs.len(), args.json);
    let results = run_batch(
        &args.dirs,
        args.jobs,
        // what the rebuild made is kept only for the page
        |dir| {
            check_rebuilt(dir, choice.clone(), &opts)
                .map(|(report, rebuilt)| (report, rebuilt.filter(|_| view.is_some())))
        },
        |dir, r| {
            if r.is_ok() {
                // the flavour of the published Race Stack files, where the folder has them
                let json = dir.join(mapzoo_format::set::layout::GLOBAL_WAYPOINTS);
                let flavor = mapzoo_format::file_flavor(&json).ok().flatten();
                let found = flavor.map_or(String::new(), |f| format!(" ({f})"));
                progress.done(&format!("checked {}{found}", dir.display()));
            }
        },
    );
    progress.finish();
    let mut reports: Vec<CheckReport> = Vec::new();
    let mut failures = Vec::new();
    let mut rebuilt = None;
    for (dir, r) in args.dirs.iter().zip(results) {
        match r {
            Ok((rep, built)) => {
                reports.push(rep);
                rebuilt = rebuilt.or(built);
            }
            Err(e) => {
                // Every error names the folder or the file in it.
                eprintln!("FAIL  {}", cli_message(&e));
                failures.push(failure_json(dir, &e)?);
            }
        }
    }
    let errors = failures.len();
    // The library words remedies in API terms; the command line names its flags.
    for r in &mut reports {
        for e in &mut r.explanations {
            e.reword(Hint::flag);
        }
    }
    if args.json {
        for r in &reports {
            println!("{}", serde_json::to_string(r)?);
        }
        // folders that could not be checked: a failure record each
        for f in &failures {
            println!("{f}");
        }
    } else if !reports.is_empty() {
        print_table(&reports);
    }
    if let Some(path) = &args.markdown {
        mapzoo_format::write_file_atomic(path, markdown(&reports, args.lap_tol).as_bytes())?;
    }
    let mut view_failed = false;
    if let Some(view) = view {
        match &rebuilt {
            Some(built) => view.write_rebuilt(built)?,
            // a check that could not rebuild (an error above, or a failed rebuild whose
            // settings search the report shows) has no rebuilt lines to show
            None => {
                eprintln!(
                    "no change view written: the set could not be rebuilt with these settings"
                );
                view_failed = true;
            }
        }
    }
    let all_pass = errors == 0 && !view_failed && reports.iter().all(|r| r.pass);
    Ok(if all_pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_table(reports: &[CheckReport]) {
    let f = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.4}"));
    const WIDTHS: [usize; 9] = [16, 9, 9, 9, 9, 9, 9, 8, 8];
    let header = [
        "track", "IQP pub", "IQP ours", "Δ", "SP pub", "SP ours", "Δ", "cent m", "IQP m",
    ];
    println!(
        "{}",
        table_row(&WIDTHS, &header.map(String::from), Some("result"))
    );
    let metres = |d: Option<f64>| d.map_or("–".into(), |d| format!("{d:.3}"));
    for r in reports {
        let cells = [
            r.track.clone(),
            f(r.published.iqp_lap_s),
            f(r.regenerated.iqp_lap_s),
            fmt_pct(r.iqp_lap_diff_pct),
            f(r.published.sp_lap_s),
            f(r.regenerated.sp_lap_s),
            fmt_pct(r.sp_lap_diff_pct),
            metres(r.centerline_distance.map(|d| d.mean_m)),
            metres(r.iqp_distance.map(|d| d.mean_m)),
        ];
        let result = if r.pass { "pass" } else { "FAIL" };
        println!("{}", table_row(&WIDTHS, &cells, Some(result)));
        for e in &r.explanations {
            println!("    {e}");
        }
    }
}
