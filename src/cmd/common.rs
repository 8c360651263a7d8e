//! Options shared by the commands that run the pipeline, and batch output.

use std::io::IsTerminal;
use std::path::PathBuf;

use mapzoo_extract::{ExtractError, StartPose};
use mapzoo_format::{FreeRule, Hint, LineKind};
use mapzoo_pipeline::{apply_vehicle_dir, Config, Overrides, PipelineError, Profile};
use mapzoo_raceline::OptimizeError;
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
    /// Start-independent lines (`[raceline] seamless = true`): the line and its lap time do not
    /// depend on which waypoint the centerline starts at; off by default (the Race Stack's
    /// figures).
    #[arg(long)]
    pub seamless: bool,
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
        if let Some(dir) = &self.vehicle {
            apply_vehicle_dir(&mut config, dir)?;
            // explicit widths on the command line win over the car's files
            if let Some(w) = self.safety_width {
                config.raceline.safety_width = w;
            }
            if let Some(w) = self.safety_width_sp {
                config.raceline.safety_width_sp = w;
            }
        }
        if self.seamless {
            config.raceline.seamless = true;
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
    text
}

/// An error's message in command-line words: remedies name flags.
pub fn cli_message(err: &(dyn std::error::Error + 'static)) -> String {
    flag_words(err.to_string(), err)
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
