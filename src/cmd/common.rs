//! Options shared by the commands that run the pipeline, and batch output.

use std::io::IsTerminal;
use std::path::PathBuf;

use mapzoo_extract::{ExtractError, StartPose};
use mapzoo_format::{FreeRule, Hint, LineKind};
use mapzoo_pipeline::{apply_vehicle_dir, Config, Overrides, PipelineError, Profile};
use mapzoo_raceline::{OptimizeError, QpSolver};
use mapzoo_render::RenderError;

/// The racing-line options of every command that computes racing lines: a profile, the
/// safety widths and a vehicle folder.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RacelineArgs {
    /// Parameter profile: mapzoo (safety widths 1.2/1.2 m, default) or racestack (0.7/0.7 m).
    #[arg(long)]
    pub profile: Option<Profile>,
    /// Safety width of the IQP line (vehicle width + margin), metres.
    #[arg(long, value_name = "W")]
    pub safety_width: Option<f64>,
    /// Safety width of the SP line and its reference IQP, metres.
    #[arg(long, value_name = "W")]
    pub safety_width_sp: Option<f64>,
    /// The car's Race Stack / TUM config folder as it is (racecar_f110.ini or racecar.ini,
    /// ggv.csv, ax_max_machines.csv, global_planner_params.yaml): its values replace the
    /// profile's and the TOML file's; --safety-width / --safety-width-sp still win.
    #[arg(long, value_name = "DIR")]
    pub vehicle: Option<PathBuf>,
    /// Stop the run after this many seconds of wall time, as Ctrl-C does (no half-written set is
    /// left; sets finished before are kept), exit 2; 0 = no limit. Default: the configuration's
    /// max_seconds (0).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub max_seconds: Option<f64>,
    /// Solver of the racing-line QPs: banded (the structure-exploiting interior point, the
    /// default) or clarabel (the general conic solver, the reference); overrides
    /// `[raceline] qp_solver`.
    #[arg(long, value_name = "banded|clarabel")]
    pub qp: Option<QpSolver>,
    /// Start-independent lines (`[raceline] seamless = true`): the line and its lap time do not
    /// depend on which waypoint the centerline starts at; off by default (the Race Stack's
    /// figures).
    #[arg(long)]
    pub seamless: bool,
}

/// Parses `--max-seconds`: a finite number of seconds in [0, a week].
fn parse_seconds(text: &str) -> Result<f64, String> {
    let max = mapzoo_pipeline::MAX_SECONDS;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| (0.0..=max).contains(v))
        .ok_or_else(|| {
            format!("expected seconds from 0 (no limit) to {max} (a week), found {text:?}")
        })
}

impl RacelineArgs {
    /// The validated configuration from these options, the TOML file `config` and the
    /// free-space rule.
    fn resolve(
        &self,
        config: Option<&std::path::Path>,
        free_rule: Option<FreeRule>,
    ) -> anyhow::Result<Config> {
        let overrides = Overrides {
            profile: self.profile,
            free_rule,
            safety_width: self.safety_width,
            safety_width_sp: self.safety_width_sp,
        };
        let mut config = Config::resolve(config, &overrides)?;
        if let Some(solver) = self.qp {
            config.raceline.qp_solver = solver;
        }
        if let Some(dir) = &self.vehicle {
            let car = apply_vehicle_dir(&mut config, dir)?;
            // which file gave which value, and the files not found
            for line in car.describe() {
                eprintln!("note: --vehicle: {line}");
            }
            for note in &car.notes {
                eprintln!("note: --vehicle: {note}");
            }
            // explicit widths on the command line win over the car's files
            for (flag, given, key) in [
                ("--safety-width", self.safety_width, "safety_width"),
                ("--safety-width-sp", self.safety_width_sp, "safety_width_sp"),
            ] {
                let Some(w) = given else { continue };
                if key == "safety_width" {
                    config.raceline.safety_width = w;
                } else {
                    config.raceline.safety_width_sp = w;
                }
                if let Some(v) = &mut config.vehicle {
                    if v.sources.contains_key(key) {
                        eprintln!("note: --vehicle: {flag} {w} wins over the folder's {key}");
                    }
                    v.set_by(key, mapzoo_pipeline::EXPLICIT);
                }
            }
        }
        if self.seamless {
            config.raceline.seamless = true;
        }
        if let Some(s) = self.max_seconds {
            config.max_seconds = s;
        }
        if config.max_seconds > 0.0 {
            let source = if self.max_seconds.is_some() {
                "--max-seconds"
            } else {
                "max_seconds of the configuration"
            };
            super::super::interrupt::stop_after(config.max_seconds, source);
        }
        Ok(config)
    }
}

/// Configuration options: a TOML file, the free-space rule and the racing-line options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub raceline: RacelineArgs,
    /// A TOML file in the layout of pipeline.toml; its keys override the profile's defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Which pixels are free: map-server (YAML thresholds, default) or nonzero (Race Stack).
    #[arg(long, value_name = "RULE")]
    pub free_rule: Option<FreeRule>,
}

impl ConfigArgs {
    /// The validated configuration.
    pub fn resolve(&self) -> anyhow::Result<Config> {
        self.raceline
            .resolve(self.config.as_deref(), self.free_rule)
    }
}

/// The configuration options of `centerline`, which reads a map and computes no racing line:
/// a TOML file and the free-space rule. The racing-line options are refused, not ignored
/// (hidden from the help).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MapConfigArgs {
    /// A TOML file in the layout of pipeline.toml; its [map] and [extract] tables are used.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Which pixels are free: map-server (YAML thresholds, default) or nonzero (Race Stack).
    #[arg(long, value_name = "RULE")]
    pub free_rule: Option<FreeRule>,
    /// Refused: profiles only set safety widths.
    #[arg(long, hide = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Refused: no racing line is computed.
    #[arg(long, hide = true, value_name = "W", allow_hyphen_values = true)]
    pub safety_width: Option<String>,
    /// Refused: no racing line is computed.
    #[arg(long, hide = true, value_name = "W", allow_hyphen_values = true)]
    pub safety_width_sp: Option<String>,
    /// Refused: no racing line is computed.
    #[arg(long, hide = true, value_name = "DIR")]
    pub vehicle: Option<PathBuf>,
    /// Refused: no racing line is computed.
    #[arg(long, hide = true, value_name = "SOLVER")]
    pub qp: Option<String>,
    /// Refused: no racing line is computed.
    #[arg(long, hide = true)]
    pub seamless: bool,
}

impl MapConfigArgs {
    /// The validated configuration; an option `command` does not use is an error.
    pub fn resolve(&self, command: &str) -> anyhow::Result<Config> {
        for (flag, given) in [
            ("--profile", self.profile.is_some()),
            ("--safety-width", self.safety_width.is_some()),
            ("--safety-width-sp", self.safety_width_sp.is_some()),
            ("--vehicle", self.vehicle.is_some()),
            ("--qp", self.qp.is_some()),
            ("--seamless", self.seamless),
        ] {
            if given {
                anyhow::bail!(
                    "{flag} has no effect on `{command}`, which computes no racing line; leave it out"
                );
            }
        }
        RacelineArgs::default().resolve(self.config.as_deref(), self.free_rule)
    }
}

/// The configuration options of `raceline`, which reads a centerline and no map: a profile, a
/// TOML file and the safety widths. `--free-rule` is refused, not ignored (hidden from the help).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LineConfigArgs {
    #[command(flatten)]
    pub raceline: RacelineArgs,
    /// A TOML file in the layout of pipeline.toml (its [raceline] table is used; the whole file
    /// is checked as `build --config` checks it); its keys override the profile's defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Refused: no map is read.
    #[arg(long, hide = true, value_name = "RULE")]
    pub free_rule: Option<String>,
}

/// The racing lines a run computes and the one the car drives: `--lines iqp,sp,mintime`,
/// `--racing-line mintime`. Unset, the configuration's `[lines]` table decides (default: IQP
/// and SP, the IQP line driven).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LineArgs {
    /// Racing lines to compute: iqp,sp (default) or iqp,sp,mintime (adds the minimum-lap-time
    /// line, `<T>_mintime.csv`, and its figures mintime_lap_s, mintime_vmax, mintime_points).
    #[arg(long, value_name = "iqp,sp[,mintime]", value_parser = parse_lines)]
    pub lines: Option<LineList>,
    /// The line the car drives: iqp (default), mintime (computed if --lines leaves it out) or sp.
    /// It goes into `<T>_racing_line.csv` and the IQP slot of global_waypoints.json (the one
    /// the Race Stack's controller reads), the sector files index it, and the IQP line is
    /// written as `<T>_iqp.csv`.
    #[arg(long, value_name = "iqp|mintime|sp", value_parser = parse_line_kind)]
    pub racing_line: Option<LineKind>,
}

impl LineArgs {
    /// Puts the given lines into `config`.
    pub fn apply(&self, config: &mut Config) -> anyhow::Result<()> {
        config.lines = config
            .lines
            .with_choice(
                self.lines.as_ref().map(|l| l.0.as_slice()),
                self.racing_line,
                ("--lines", "--racing-line"),
            )
            .map_err(anyhow::Error::msg)?;
        Ok(())
    }
}

/// The value of `--lines`: the named lines in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct LineList(pub Vec<LineKind>);

/// Parses `--lines`: comma-separated names among iqp, sp, mintime; iqp and sp must be there.
pub fn parse_lines(text: &str) -> Result<LineList, String> {
    let mut kinds = Vec::new();
    for name in text.split(',').map(str::trim) {
        let kind = parse_line_kind(name)?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    for kind in LineKind::ALL {
        if !kinds.contains(&kind) {
            return Err(format!(
                "{} is always computed (the Race Stack's files need it); give iqp,sp or iqp,sp,mintime",
                kind.name()
            ));
        }
    }
    Ok(LineList(kinds))
}

/// Parses one line name: iqp, sp or mintime.
fn parse_line_kind(name: &str) -> Result<LineKind, String> {
    LineKind::from_name(name.trim()).ok_or_else(|| {
        format!("unknown line \"{name}\"; the lines are iqp, sp and mintime (e.g. iqp,sp,mintime)")
    })
}

impl LineConfigArgs {
    /// The validated configuration; `--free-rule` is an error.
    pub fn resolve(&self, command: &str) -> anyhow::Result<Config> {
        if self.free_rule.is_some() {
            anyhow::bail!(
                "--free-rule has no effect on `{command}`, which reads no map; leave it out"
            );
        }
        self.raceline.resolve(self.config.as_deref(), None)
    }
}

/// Parses `x,y,yaw` (metres, metres, radians).
pub fn parse_start(text: &str) -> Result<StartPose, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(format!(
            "expected x,y,yaw (metres, metres, radians), found {text:?}"
        ));
    }
    let mut v = [0.0; 3];
    for (i, p) in parts.iter().enumerate() {
        v[i] = p
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| format!("{p:?} in --start {text:?} is not a finite number"))?;
    }
    Ok(StartPose {
        x: v[0],
        y: v[1],
        yaw: v[2],
    })
}

/// Prints a note when `--jobs` asks for more threads than the cores (the batch uses the cores).
pub fn note_jobs(jobs: usize) {
    if let Some(note) = mapzoo_pipeline::Jobs::for_this_machine(jobs).note() {
        eprintln!("note: {note}");
    }
}

/// The `--json` line of a folder whose command failed: its [`mapzoo_pipeline::FailureRecord`]
/// (`"status": "failed"`, the error kind, message and location), named after the folder.
pub fn failure_json(dir: &std::path::Path, err: &PipelineError) -> anyhow::Result<String> {
    let track = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let record = mapzoo_pipeline::FailureRecord::new(&track, err, cli_message(err));
    Ok(serde_json::to_string(&record)?)
}

/// A `--json` record of a track that was built: its keys, with `"status": "ok"` after `seconds` (a failed
/// track's record says `"status": "failed"`, see [`mapzoo_pipeline::FailureRecord`]).
pub fn ok_record(record: serde_json::Value) -> String {
    match record {
        serde_json::Value::Object(map) => {
            let mut out = serde_json::Map::new();
            let has_seconds = map.contains_key("seconds");
            for (k, v) in map {
                let after = k == "seconds";
                out.insert(k, v);
                if after {
                    out.insert("status".into(), "ok".into());
                }
            }
            if !has_seconds {
                out.insert("status".into(), "ok".into());
            }
            serde_json::Value::Object(out).to_string()
        }
        other => other.to_string(),
    }
}

/// Progress over a batch: a bar on a terminal, plain lines otherwise.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// Progress over `n` items; silent when `quiet`.
    pub fn new(n: usize, quiet: bool) -> Self {
        let bar = (!quiet && n > 1 && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(n as u64);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress { bar }
    }

    /// Reports one finished item.
    pub fn done(&self, line: &str) {
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.inc(1);
            }
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Sign of life from one track's racing-line stages: when the run's estimated work is long
/// ([`mapzoo_raceline::progress::Work::is_long`]) a note with the expected time, then the IQP
/// iterations and the stages as a bar on a terminal, or a plain line every few seconds
/// otherwise. A short run prints nothing.
pub struct LineProgress {
    track: String,
    /// A bar may be drawn (stderr is a terminal and no batch bar is drawn).
    bar_allowed: bool,
    state: std::sync::Mutex<LineState>,
}

#[derive(Default)]
struct LineState {
    /// The run was estimated long: report it.
    active: bool,
    bar: Option<indicatif::ProgressBar>,
    started: Option<std::time::Instant>,
    last_line: Option<std::time::Instant>,
}

/// Seconds between two plain progress lines.
const LINE_EVERY_S: u64 = 5;

impl LineProgress {
    /// Progress of track `track`; `batch` when several tracks run (plain lines then).
    pub fn new(track: &str, batch: bool) -> std::sync::Arc<Self> {
        std::sync::Arc::new(LineProgress {
            track: track.to_string(),
            bar_allowed: !batch && std::io::stderr().is_terminal(),
            state: std::sync::Mutex::new(LineState::default()),
        })
    }

    /// Runs `run` (which computes racing lines on this thread) with this progress shown.
    pub fn run<R>(self: &std::sync::Arc<Self>, run: impl FnOnce() -> R) -> R {
        let me = self.clone();
        let out =
            mapzoo_raceline::progress::observe(std::sync::Arc::new(move |e| me.event(e)), run);
        let state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(bar) = &state.bar {
            bar.finish_and_clear();
        }
        out
    }

    fn event(&self, event: &mapzoo_raceline::progress::Event) {
        use mapzoo_raceline::progress::Event;
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = std::time::Instant::now();
        match *event {
            Event::Estimate(work) => {
                // once per track (the search for a remedy runs the stages again)
                if !work.is_long() || state.started.is_some() {
                    return;
                }
                state.active = true;
                state.started = Some(now);
                eprintln!(
                    "note: {}: a long run: {} knots × at least {} QP solves, expect roughly {} (--max-seconds limits it)",
                    self.track,
                    work.knots,
                    work.solves,
                    duration_words(work.seconds)
                );
                if self.bar_allowed {
                    let bar = indicatif::ProgressBar::new(0);
                    if let Ok(style) = indicatif::ProgressStyle::with_template(
                        "{prefix} {bar:30} {pos}/{len} {elapsed} {msg}",
                    ) {
                        bar.set_style(style);
                    }
                    bar.set_prefix(self.track.clone());
                    state.bar = Some(bar);
                }
            }
            _ if !state.active => {}
            Event::Stage(stage) => {
                let text = format!("{} line", stage.name());
                match &state.bar {
                    Some(bar) => bar.set_message(text),
                    None => self.line(&mut state, now, &text, true),
                }
            }
            Event::IqpIteration {
                iteration,
                max,
                error,
                allowed,
            } => {
                let text = format!(
                    "iqp iteration {iteration} of at most {max}, curvature error {error:.2e} (stops at {allowed:.0e})"
                );
                self.iteration(&mut state, now, iteration, max, text);
            }
            Event::SeamlessIqpIteration {
                iteration,
                max,
                shift_m,
                tolerance_m,
            } => {
                let text = format!(
                    "seamless iqp iteration {iteration} of at most {max}, largest shift {shift_m:.2e} m (stops below {tolerance_m:.0e} m)"
                );
                self.iteration(&mut state, now, iteration, max, text);
            }
        }
    }

    /// An IQP iteration on the bar, or as a plain line.
    fn iteration(
        &self,
        state: &mut LineState,
        now: std::time::Instant,
        iteration: usize,
        max: usize,
        text: String,
    ) {
        match &state.bar {
            Some(bar) => {
                bar.set_length(max as u64);
                bar.set_position(iteration as u64);
                bar.set_message(text);
            }
            None => self.line(state, now, &text, false),
        }
    }

    /// A plain progress line, at most one every [`LINE_EVERY_S`] seconds unless `always`.
    fn line(&self, state: &mut LineState, now: std::time::Instant, text: &str, always: bool) {
        let due = state
            .last_line
            .is_none_or(|t| now.duration_since(t).as_secs() >= LINE_EVERY_S);
        if always || due {
            let elapsed = state.started.map_or(0, |t| now.duration_since(t).as_secs());
            eprintln!("{}: {text} ({elapsed} s)", self.track);
            state.last_line = Some(now);
        }
    }
}

/// `seconds` in words: "40 s", "12 min", "3.5 h".
fn duration_words(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The remedy a library error suggests, whatever library error type it is.
fn hint_of(err: &(dyn std::error::Error + 'static)) -> Option<Hint> {
    if let Some(e) = err.downcast_ref::<PipelineError>() {
        e.hint()
    } else if let Some(e) = err.downcast_ref::<ExtractError>() {
        e.hint()
    } else if let Some(e) = err.downcast_ref::<RenderError>() {
        e.hint()
    } else if let Some(e) = err.downcast_ref::<OptimizeError>() {
        e.hint()
    } else {
        None
    }
}

/// `text` with the library wording of each remedy that `err` or its causes carry
/// replaced by its command-line wording ([`Hint::flag`]).
pub fn flag_words(text: String, err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = text;
    let mut cause = Some(err);
    while let Some(e) = cause {
        if let Some(h) = hint_of(e) {
            text = text.replace(&h.to_string(), &h.flag());
        }
        cause = e.source();
    }
    if let Some(words) = io_limit_words(err) {
        text.push_str(words);
    }
    text
}

/// What to do about a write that hit a limit of the machine rather than of the input: the
/// file size limit (`ulimit -f`, SIGXFSZ is ignored so the write fails with EFBIG) or a full
/// disk. The set being written was not put in place and its staging folder removed.
fn io_limit_words(err: &(dyn std::error::Error + 'static)) -> Option<&'static str> {
    let mut cause = Some(err);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::FileTooLarge => {
                    return Some("; a file reached this shell's file size limit (ulimit -f): raise the limit or write elsewhere (nothing half-written was left)")
                }
                std::io::ErrorKind::StorageFull => {
                    return Some("; the disk is full: free space or write elsewhere (nothing half-written was left)")
                }
                _ => {}
            }
        }
        cause = e.source();
    }
    None
}

/// An error's message in command-line words: remedies name flags.
pub fn cli_message(err: &(dyn std::error::Error + 'static)) -> String {
    flag_words(err.to_string(), err)
}

/// One row of a plain-text table: the first cell left-aligned in its width, the others
/// right-aligned in theirs, one space apart; then `tail`, two spaces on, if given.
pub fn table_row(widths: &[usize], cells: &[String], tail: Option<&str>) -> String {
    let mut row = String::new();
    for (k, (cell, &w)) in cells.iter().zip(widths).enumerate() {
        if k == 0 {
            row.push_str(&format!("{cell:<w$}"));
        } else {
            row.push_str(&format!(" {cell:>w$}"));
        }
    }
    if let Some(tail) = tail {
        row.push_str("  ");
        row.push_str(tail);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remedies_deep_in_a_chain_are_worded_as_flags() {
        let err = anyhow::Error::from(RenderError::TooLarge {
            width: 2,
            height: 2,
            limit: 1,
        })
        .context("drawing t");
        let text = format!("{err:#}");
        assert!(!text.contains("--"), "{text}");
        let worded = flag_words(text, err.as_ref());
        assert!(worded.ends_with("; use a smaller --size"), "{worded}");

        let exists = PipelineError::Exists(PathBuf::from("out/t"));
        assert_eq!(
            cli_message(&exists),
            "out/t: the output folder exists; pass --force to update it (files mapzoo did not write are kept)"
        );
    }
}
