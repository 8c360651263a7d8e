//! One validated configuration for a whole run: the built-in defaults of
//! DESIGN §3 "Default parameters" (documented in the repository's
//! `pipeline.toml`), a profile, an optional TOML file, then command-line
//! overrides — validated once, before any work.

use std::path::Path;

use mapzoo_extract::ExtractParams;
use mapzoo_format::FreeRule;
use mapzoo_raceline::{format_number, LineKind, RacelineParams};
use serde::{Deserialize, Serialize};

use crate::error::PipelineError;

/// A named set of safety widths (DESIGN §3 "Default parameters").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The MapZoo dataset: safety widths 1.2 / 1.2 m.
    #[default]
    Mapzoo,
    /// The Race Stack's global_planner_params.yaml: safety widths 0.7 / 0.7 m.
    Racestack,
}

impl std::str::FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mapzoo" => Ok(Profile::Mapzoo),
            "racestack" => Ok(Profile::Racestack),
            other => Err(format!(
                "unknown profile {other:?}; use \"mapzoo\" or \"racestack\""
            )),
        }
    }
}

/// How the map image is read.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// Which pixels are free: "map-server" (YAML thresholds, default) or "nonzero" (Race Stack).
    pub free_rule: FreeRule,
}

/// Values of freshly created sector files (MapZoo's defaults, DESIGN §2.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SectorDefaults {
    /// `global_limit` of speed_scaling.yaml, fraction of the planned speed (default 0.7).
    pub global_limit: f64,
    /// `scaling` of the single speed sector, fraction (default 0.7).
    pub scaling: f64,
    /// `only_FTG` of the single speed sector (default false).
    pub only_ftg: bool,
    /// `no_FTG` of the single speed sector (default true).
    pub no_ftg: bool,
    /// `yeet_factor` of ot_sectors.yaml (default 1.25).
    pub yeet_factor: f64,
    /// `spline_len` of ot_sectors.yaml, waypoints (default 30).
    pub spline_len: i64,
    /// `ot_sector_begin` of ot_sectors.yaml, fraction of a sector (default 0.5).
    pub ot_sector_begin: f64,
    /// `ot_flag` of the single overtaking sector (default true).
    pub ot_flag: bool,
}

impl Default for SectorDefaults {
    fn default() -> Self {
        SectorDefaults {
            global_limit: 0.7,
            scaling: 0.7,
            only_ftg: false,
            no_ftg: true,
            yeet_factor: 1.25,
            spline_len: 30,
            ot_sector_begin: 0.5,
            ot_flag: true,
        }
    }
}

/// Which racing lines a run computes and which one the car drives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LineConfig {
    /// The lines to compute: "iqp" and "sp" always (the Race Stack's files need them),
    /// "mintime" (the minimum-lap-time line, `<T>_mintime.csv`) when named. Default
    /// `["iqp", "sp"]`.
    pub compute: Vec<LineKind>,
    /// The line the car drives (default "iqp"): it goes into `<T>_racing_line.csv` and the
    /// IQP slot of global_waypoints.json, and the sector files index it. Another line than
    /// "iqp" must be among `compute`; the IQP line is then written as `<T>_iqp.csv`.
    pub racing_line: LineKind,
}

impl Default for LineConfig {
    fn default() -> Self {
        LineConfig {
            compute: LineKind::ALL.to_vec(),
            racing_line: LineKind::RACING,
        }
    }
}

impl LineConfig {
    /// Lines `kinds` (iqp and sp added if missing, each once, in [`LineKind::EVERY`] order),
    /// driving `racing` (added to the lines if missing).
    pub fn new(kinds: &[LineKind], racing: LineKind) -> Self {
        let compute = LineKind::EVERY
            .into_iter()
            .filter(|k| LineKind::ALL.contains(k) || kinds.contains(k) || *k == racing)
            .collect();
        LineConfig {
            compute,
            racing_line: racing,
        }
    }

    /// These lines with the choices of a caller over them: `kinds` (the lines to compute,
    /// iqp and sp implied) and `racing` (the line to drive, computed even if `kinds` are not
    /// given and leave it out); `None` keeps this configuration's. Giving `kinds` without the
    /// driven line is an error, worded with `flags` (the names of the two options, e.g.
    /// `("--lines", "--racing-line")`).
    pub fn with_choice(
        &self,
        kinds: Option<&[LineKind]>,
        racing: Option<LineKind>,
        flags: (&str, &str),
    ) -> Result<LineConfig, String> {
        let (lines_flag, racing_flag) = flags;
        let driven = racing.unwrap_or(self.racing_line);
        match kinds {
            None if racing.is_none() => Ok(self.clone()),
            None => Ok(LineConfig::new(&self.compute, driven)),
            Some(kinds) if kinds.contains(&driven) || driven == LineKind::RACING => {
                Ok(LineConfig::new(kinds, driven))
            }
            Some(_) if racing.is_some() => Err(format!(
                "{racing_flag} {0} drives a line {lines_flag} leaves out; add {0} to {lines_flag} (or leave {lines_flag} out)",
                driven.name()
            )),
            Some(_) => Err(format!(
                "the configuration drives the {0} line ([lines] racing_line), which {lines_flag} leaves out; add {0} to {lines_flag} or give {racing_flag} iqp",
                driven.name()
            )),
        }
    }

    /// Checks that iqp and sp are computed and that the driven line is.
    fn validate(&self) -> Result<(), String> {
        for kind in LineKind::ALL {
            if !self.compute.contains(&kind) {
                return Err(format!(
                    "field \"compute\" must name {} (the Race Stack's files need it), e.g. [\"iqp\", \"sp\", \"mintime\"]",
                    kind.name()
                ));
            }
        }
        if !self.compute.contains(&self.racing_line) {
            return Err(format!(
                "field \"racing_line\" is \"{0}\", which is not among \"compute\"; add \"{0}\" there",
                self.racing_line.name()
            ));
        }
        Ok(())
    }
}

/// Every parameter of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Profile the safety widths come from unless set explicitly (default "mapzoo").
    pub profile: Profile,
    /// Wall-clock limit of a command's run, seconds (0, the default: none). The command line
    /// stops a run that reaches it (`--max-seconds` overrides it); the library does not read
    /// it. Not recorded in a set's `mapzoo.toml`: it changes no output.
    pub max_seconds: f64,
    /// Map reading.
    pub map: MapConfig,
    /// Extraction (DESIGN §3 stages 2–6).
    pub extract: ExtractParams,
    /// Racing lines and velocity profile (stages 7–11).
    pub raceline: RacelineParams,
    /// New sector files.
    pub sectors: SectorDefaults,
    /// The racing lines computed and the one driven.
    pub lines: LineConfig,
    /// Where the car's values came from, when a vehicle folder gave them (recorded in a
    /// set's `mapzoo.toml` as `[vehicle]`; not a key of pipeline.toml).
    #[serde(skip)]
    pub vehicle: Option<VehicleOrigin>,
}

/// The vehicle folder a configuration read and which file gave which value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VehicleOrigin {
    /// The folder as given.
    pub folder: std::path::PathBuf,
    /// Key of `[raceline]` → where its value came from: a file's path, or a note such as
    /// "set explicitly".
    pub sources: std::collections::BTreeMap<String, String>,
}

impl VehicleOrigin {
    /// Says that `key` was set by `by` instead of the folder's file (an explicit value wins).
    pub fn set_by(&mut self, key: &str, by: &str) {
        if let Some(s) = self.sources.get_mut(key) {
            *s = by.to_string();
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::for_profile(Profile::Mapzoo)
    }
}

/// Values given on the command line; `None` keeps the configured value.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--profile`.
    pub profile: Option<Profile>,
    /// `--free-rule`.
    pub free_rule: Option<FreeRule>,
    /// `--safety-width`, metres.
    pub safety_width: Option<f64>,
    /// `--safety-width-sp`, metres.
    pub safety_width_sp: Option<f64>,
}

impl Config {
    /// The built-in defaults with the safety widths of `profile`.
    pub fn for_profile(profile: Profile) -> Self {
        Config {
            profile,
            max_seconds: 0.0,
            map: MapConfig::default(),
            extract: ExtractParams::default(),
            raceline: match profile {
                Profile::Mapzoo => RacelineParams::mapzoo(),
                Profile::Racestack => RacelineParams::racestack(),
            },
            sectors: SectorDefaults::default(),
            lines: LineConfig::default(),
            vehicle: None,
        }
    }

    /// Defaults, overlaid with the TOML text of `file` (if any), then `overrides`; validated.
    ///
    /// The profile is taken from `overrides`, else from the file's `profile` key,
    /// else "mapzoo"; keys the file sets explicitly win over the profile.
    pub fn resolve(file: Option<&Path>, overrides: &Overrides) -> Result<Self, PipelineError> {
        let mut config = match file {
            None => Config::for_profile(overrides.profile.unwrap_or_default()),
            Some(path) => {
                let text = read_config_text(path)?;
                Config::from_toml_str(&text, overrides.profile, path)?
            }
        };
        if let Some(rule) = overrides.free_rule {
            config.map.free_rule = rule;
        }
        if let Some(w) = overrides.safety_width {
            config.raceline.safety_width = w;
        }
        if let Some(w) = overrides.safety_width_sp {
            config.raceline.safety_width_sp = w;
        }
        config.validate(file.unwrap_or_else(|| Path::new("<command line>")))?;
        Ok(config)
    }

    /// Parses TOML text over the defaults of the chosen profile; `path` names it in errors.
    pub fn from_toml_str(
        text: &str,
        profile: Option<Profile>,
        path: &Path,
    ) -> Result<Self, PipelineError> {
        mapzoo_format::check_nesting(text, mapzoo_format::Syntax::Toml, path)?;
        let overlay: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| PipelineError::config(path, e.to_string()))?;
        let profile = match (profile, overlay.get("profile")) {
            (Some(p), _) => p,
            (None, None) => Profile::default(),
            (None, Some(toml::Value::String(s))) => s.parse().map_err(|e: String| {
                PipelineError::config(path, format!("field \"profile\": {e}"))
            })?,
            (None, Some(other)) => {
                return Err(PipelineError::config(
                    path,
                    format!("field \"profile\" must be a string (found {other})"),
                ))
            }
        };
        let base = Config::for_profile(profile);
        let mut merged = toml::Table::try_from(&base)
            .map_err(|e| PipelineError::config(path, format!("cannot serialise defaults: {e}")))?;
        merge_tables(&mut merged, overlay);
        merged.insert(
            "profile".into(),
            toml::Value::try_from(profile)
                .map_err(|e| PipelineError::config(path, e.to_string()))?,
        );
        toml::Value::Table(merged)
            .try_into()
            .map_err(|e: toml::de::Error| PipelineError::config(path, e.to_string()))
    }

    /// Checks every range; `path` names the configuration in the message.
    pub fn validate(&self, path: &Path) -> Result<(), PipelineError> {
        if !(0.0..=MAX_SECONDS).contains(&self.max_seconds) {
            return Err(PipelineError::config(
                path,
                format!(
                    "field \"max_seconds\" is {}, outside the plausible range 0 to {} (seconds of wall time a run may take; 0 = no limit, the default)",
                    format_number(self.max_seconds),
                    format_number(MAX_SECONDS)
                ),
            ));
        }
        check_bounds(self, path)?;
        self.extract
            .validate()
            .map_err(|e| PipelineError::config(path, format!("[extract] {e}")))?;
        self.raceline
            .validate()
            .map_err(|e| PipelineError::config(path, format!("[raceline] {e}")))?;
        self.lines
            .validate()
            .map_err(|e| PipelineError::config(path, format!("[lines] {e}")))?;
        let s = &self.sectors;
        for (field, v) in [("global_limit", s.global_limit), ("scaling", s.scaling)] {
            if !(v > 0.0 && v <= 1.0) {
                return Err(PipelineError::config(
                    path,
                    format!(
                        "[sectors] field \"{field}\" must be in (0, 1] (found {})",
                        format_number(v)
                    ),
                ));
            }
        }
        if !(s.yeet_factor.is_finite() && s.yeet_factor > 0.0) {
            return Err(PipelineError::config(
                path,
                format!(
                    "[sectors] field \"yeet_factor\" must be > 0 (found {})",
                    format_number(s.yeet_factor)
                ),
            ));
        }
        if s.spline_len < 1 {
            return Err(PipelineError::config(
                path,
                format!(
                    "[sectors] field \"spline_len\" must be >= 1 (found {})",
                    s.spline_len
                ),
            ));
        }
        if !(0.0..=1.0).contains(&s.ot_sector_begin) {
            return Err(PipelineError::config(
                path,
                format!(
                    "[sectors] field \"ot_sector_begin\" must be in [0, 1] (found {})",
                    format_number(s.ot_sector_begin)
                ),
            ));
        }
        Ok(())
    }

    /// The configuration as TOML text (what `--json` records and tests compare).
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
}

/// The plausible range of a value that sizes an allocation or a loop: outside it, a run
/// would hang or exhaust memory long before it could say anything useful.
struct Bound {
    /// `[table] field` as in pipeline.toml.
    table: &'static str,
    /// The field.
    field: &'static str,
    /// Smallest plausible value.
    min: f64,
    /// Largest plausible value.
    max: f64,
    /// Unit and meaning, for the message.
    what: &'static str,
}

/// Centerline point spacing bounds, metres: below 1 cm a 100 m lap is 10,000+ points per
/// metre of map; above 1 m the centerline no longer follows a 1:10 track's corners.
pub const SPACING_M: (f64, f64) = (0.01, 1.0);

/// Safety width bounds, metres: a car is centimetres to metres wide, not 1e-300 or 1e300 m.
pub const SAFETY_WIDTH_M: (f64, f64) = (0.01, 100.0);

/// Largest `max_seconds`, a week: a run limit, not a way to spell "none" (that is 0).
pub const MAX_SECONDS: f64 = 604_800.0;

/// Largest side of the opening's structuring element, pixels (a radius of 254 px).
pub const MAX_OPENING_SIZE: usize = 509;

/// Most IQP iterations (the loop converges in 5–20 on real tracks).
pub const MAX_IQP_ITERS: usize = 1000;

/// Largest half window of the SP's α smoothing, points.
pub const MAX_SMOOTHING_HALF_WINDOW: usize = 10_000;

/// Largest `spline_len` of new overtaking sectors, waypoints.
pub const MAX_SPLINE_LEN: i64 = 1_000_000;

/// Checks every value that sizes an allocation or a loop against its plausible range,
/// before any other check (so the message names the range, not a later symptom).
fn check_bounds(c: &Config, path: &Path) -> Result<(), PipelineError> {
    let bounds = [
        (
            Bound {
                table: "extract",
                field: "spacing_m",
                min: SPACING_M.0,
                max: SPACING_M.1,
                what: "metres between centerline points; default 0.1",
            },
            c.extract.spacing_m,
        ),
        (
            Bound {
                table: "extract",
                field: "opening_size",
                min: 1.0,
                max: MAX_OPENING_SIZE as f64,
                what: "pixels, odd; default 9",
            },
            c.extract.opening_size as f64,
        ),
        (
            Bound {
                table: "raceline",
                field: "safety_width",
                min: SAFETY_WIDTH_M.0,
                max: SAFETY_WIDTH_M.1,
                what: "metres, vehicle width + margin; mapzoo 1.2, racestack 0.7",
            },
            c.raceline.safety_width,
        ),
        (
            Bound {
                table: "raceline",
                field: "safety_width_sp",
                min: SAFETY_WIDTH_M.0,
                max: SAFETY_WIDTH_M.1,
                what: "metres, vehicle width + margin; mapzoo 1.2, racestack 0.7",
            },
            c.raceline.safety_width_sp,
        ),
        (
            Bound {
                table: "raceline",
                field: "iqp_iters_max",
                min: 1.0,
                max: MAX_IQP_ITERS as f64,
                what: "iterations; default 100",
            },
            c.raceline.iqp_iters_max as f64,
        ),
        (
            Bound {
                table: "raceline",
                field: "sp_alpha_smoothing_half_window",
                min: 0.0,
                max: MAX_SMOOTHING_HALF_WINDOW as f64,
                what: "points; default 3",
            },
            c.raceline.sp_alpha_smoothing_half_window as f64,
        ),
        (
            Bound {
                table: "sectors",
                field: "spline_len",
                min: 1.0,
                max: MAX_SPLINE_LEN as f64,
                what: "waypoints; default 30",
            },
            c.sectors.spline_len as f64,
        ),
    ];
    for (b, v) in bounds {
        if !(v >= b.min && v <= b.max) {
            return Err(PipelineError::config(
                path,
                format!(
                    "[{}] field \"{}\" is {}, outside the plausible range {} to {} ({})",
                    b.table,
                    b.field,
                    format_number(v),
                    format_number(b.min),
                    format_number(b.max),
                    b.what
                ),
            ));
        }
    }
    Ok(())
}

/// Overlays `overlay` onto `base`: tables merge key by key, anything else replaces.
/// Reads a configuration file: a regular file of at most [`mapzoo_format::MAX_TOML_BYTES`]
/// (a FIFO or `/dev/zero` is refused, not read for ever), as UTF-8 text.
pub fn read_config_text(path: &Path) -> Result<String, PipelineError> {
    mapzoo_format::read_text_file(path, mapzoo_format::MAX_TOML_BYTES, "configuration file")
        .map_err(|e| match e {
            mapzoo_format::FormatError::Io { path, source } => PipelineError::Io { path, source },
            e => e.into(),
        })
}

fn merge_tables(base: &mut toml::Table, overlay: toml::Table) {
    for (key, value) in overlay {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge_tables(b, o),
            (_, v) => {
                base.insert(key, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    /// The repository's documented defaults file.
    fn documented_defaults_path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../pipeline.toml")
    }

    /// `[lines]`: the min-time line is asked for by name and driven only when computed; iqp and
    /// sp cannot be left out; errors name the table and the field.
    #[test]
    fn lines_table_is_checked_and_names_its_field() {
        let p = Path::new("l.toml");
        let c = Config::from_toml_str(
            "[lines]\ncompute = [\"iqp\", \"sp\", \"mintime\"]\nracing_line = \"mintime\"\n",
            None,
            p,
        )
        .unwrap();
        c.validate(p).unwrap();
        assert_eq!(c.lines.racing_line, LineKind::Mintime);
        for (text, words) in [
            (
                "[lines]\nracing_line = \"mintime\"\n",
                &["[lines]", "racing_line", "compute"][..],
            ),
            (
                "[lines]\ncompute = [\"iqp\"]\n",
                &["[lines]", "compute", "sp"][..],
            ),
        ] {
            let c = Config::from_toml_str(text, None, p).unwrap();
            let e = c.validate(p).unwrap_err().to_string();
            assert!(words.iter().all(|w| e.contains(w)), "{text}: {e}");
        }
        let e = Config::from_toml_str("[lines]\ncompute = [\"fastest\"]\n", None, p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("fastest") && e.contains("l.toml"), "{e}");
    }

    /// `[raceline] qp_solver`: "banded" (the default) or "clarabel"; another name is an error
    /// naming the file and both choices.
    #[test]
    fn qp_solver_is_banded_or_clarabel() {
        let p = Path::new("q.toml");
        assert_eq!(
            Config::default().raceline.qp_solver,
            mapzoo_raceline::QpSolver::Banded
        );
        let c = Config::from_toml_str("[raceline]\nqp_solver = \"clarabel\"\n", None, p).unwrap();
        assert_eq!(c.raceline.qp_solver, mapzoo_raceline::QpSolver::Clarabel);
        let e = Config::from_toml_str("[raceline]\nqp_solver = \"osqp\"\n", None, p)
            .unwrap_err()
            .to_string();
        assert!(
            ["q.toml", "osqp", "banded", "clarabel"]
                .iter()
                .all(|w| e.contains(w)),
            "{e}"
        );
    }

    /// A caller's choice over the configured lines: the driven line is computed even when only
    /// it is named; naming lines without it is refused in the caller's words.
    #[test]
    fn line_choice_adds_the_driven_line_or_refuses_a_contradiction() {
        let flags = ("--lines", "--racing-line");
        let base = LineConfig::default();
        assert_eq!(base.with_choice(None, None, flags).unwrap(), base);
        let driven = base
            .with_choice(None, Some(LineKind::Mintime), flags)
            .unwrap();
        assert_eq!(driven.compute, LineKind::EVERY.to_vec());
        assert_eq!(driven.racing_line, LineKind::Mintime);
        let all = [LineKind::Sp, LineKind::Mintime, LineKind::Iqp];
        let both = base.with_choice(Some(&all), None, flags).unwrap();
        assert_eq!(both.compute, LineKind::EVERY.to_vec());
        assert_eq!(both.racing_line, LineKind::Iqp);
        let e = base
            .with_choice(Some(&LineKind::ALL), Some(LineKind::Mintime), flags)
            .unwrap_err();
        assert!(
            e.contains("--racing-line mintime") && e.contains("--lines"),
            "{e}"
        );
        // a configuration that drives the min-time line, and lines without it
        let e = driven
            .with_choice(Some(&LineKind::ALL), None, flags)
            .unwrap_err();
        assert!(
            e.contains("racing_line") && e.contains("--racing-line iqp"),
            "{e}"
        );
    }

    #[test]
    fn pipeline_toml_documents_exactly_the_defaults() {
        let path = documented_defaults_path();
        let text = std::fs::read_to_string(&path).expect("pipeline.toml is part of the repository");
        for profile in [Profile::Mapzoo, Profile::Racestack] {
            let parsed = Config::from_toml_str(&text, Some(profile), &path).unwrap();
            assert_eq!(parsed, Config::for_profile(profile), "profile {profile:?}");
        }
        let parsed = Config::from_toml_str(&text, None, &path).unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn file_keys_win_over_profile_and_overrides_win_over_file() {
        let path = Path::new("test.toml");
        let c = Config::from_toml_str(
            "profile = \"racestack\"\n[raceline]\nsafety_width_sp = 0.9\n",
            None,
            path,
        )
        .unwrap();
        assert_eq!(c.profile, Profile::Racestack);
        assert_eq!(c.raceline.safety_width, 0.7);
        assert_eq!(c.raceline.safety_width_sp, 0.9);
    }

    #[test]
    fn unknown_keys_and_bad_ranges_are_named() {
        let path = Path::new("bad.toml");
        let err =
            Config::from_toml_str("[raceline]\nsafety_widht = 1.0\n", None, path).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("bad.toml") && msg.contains("safety_widht"),
            "{msg}"
        );
        let mut c = Config::default();
        c.sectors.scaling = 0.0;
        let msg = c.validate(path).unwrap_err().to_string();
        assert!(msg.contains("scaling") && msg.contains("(0, 1]"), "{msg}");
        c = Config::default();
        c.extract.opening_size = 4;
        let msg = c.validate(path).unwrap_err().to_string();
        assert!(msg.contains("opening_size"), "{msg}");
    }
}
