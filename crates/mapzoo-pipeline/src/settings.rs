//! The settings a set was built with, recorded in its `mapzoo.toml`
//! ([`mapzoo_format::set::SetRecord`]) and read back by `regen` and `check`: the profile,
//! the free-space rule, the start pose and direction as given, and every configuration key
//! that differs from the profile's defaults (a safety width, a config file's keys).

use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_format::set::{SetRecord, SETTINGS_FILE};
use mapzoo_format::{Flavor, FreeRule};

use crate::config::{Config, Overrides, Profile, VehicleOrigin};
use crate::error::PipelineError;
use crate::request::BuildRequest;

/// How a set was built: what shapes its files besides the map.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildSettings {
    /// The configuration (profile, free-space rule and every parameter).
    pub config: Config,
    /// The start pose as given (`None`: the extraction chose it).
    pub start: Option<StartPose>,
    /// Driven the other way round.
    pub reverse: bool,
    /// The flavour of the set's files.
    pub flavor: Flavor,
}

impl BuildSettings {
    /// The settings of a build of `req` with `config`, ROS 1 files.
    pub fn of(req: &BuildRequest, config: &Config) -> Self {
        BuildSettings {
            config: config.clone(),
            start: req.start,
            reverse: req.reverse,
            flavor: Flavor::Ros1,
        }
    }

    /// The record's settings table: `profile`, `free_rule`, `start` (if given), `reverse` and
    /// `[config]`, the keys that differ from the profile's defaults (layout of pipeline.toml).
    pub fn to_table(&self) -> toml::Table {
        let mut t = toml::Table::new();
        let profile =
            toml::Value::try_from(self.config.profile).unwrap_or_else(|_| "mapzoo".into());
        t.insert("profile".into(), profile);
        let rule = toml::Value::try_from(self.config.map.free_rule)
            .unwrap_or_else(|_| "map-server".into());
        t.insert("free_rule".into(), rule);
        if let Some(s) = self.start {
            t.insert(
                "start".into(),
                toml::Value::Array(vec![s.x.into(), s.y.into(), s.yaw.into()]),
            );
        }
        t.insert("reverse".into(), self.reverse.into());
        let ours = toml::Table::try_from(&self.config).unwrap_or_default();
        let base =
            toml::Table::try_from(Config::for_profile(self.config.profile)).unwrap_or_default();
        let mut diff = table_diff(&ours, &base);
        diff.remove("profile");
        // a run limit changes no output
        diff.remove("max_seconds");
        if let Some(toml::Value::Table(map)) = diff.get_mut("map") {
            map.remove("free_rule");
            if map.is_empty() {
                diff.remove("map");
            }
        }
        if !diff.is_empty() {
            t.insert("config".into(), toml::Value::Table(diff));
        }
        if let Some(v) = &self.config.vehicle {
            t.insert("vehicle".into(), vehicle_table(v, &ours));
        }
        t
    }

    /// The record of a set of track `track` built with these settings (files filled on writing).
    pub fn record(&self, track: &str) -> SetRecord {
        let mut r = SetRecord::new(track, self.to_table());
        r.flavor = self.flavor;
        r
    }

    /// The settings a record holds; `path` names the file in errors. A record without
    /// settings (written by hand) means the defaults.
    pub fn from_record(record: &SetRecord, path: &Path) -> Result<Self, PipelineError> {
        let t = &record.settings;
        let bad = |field: &str, want: &str, v: &toml::Value| {
            PipelineError::config(
                path,
                format!("field \"{field}\" must be {want} (found {v})"),
            )
        };
        let profile = match t.get("profile") {
            None => Profile::default(),
            Some(toml::Value::String(s)) => s.parse().map_err(|e: String| {
                PipelineError::config(path, format!("field \"profile\": {e}"))
            })?,
            Some(v) => return Err(bad("profile", "\"mapzoo\" or \"racestack\"", v)),
        };
        let free_rule = match t.get("free_rule") {
            None => FreeRule::default(),
            Some(toml::Value::String(s)) => s.parse().map_err(|e: String| {
                PipelineError::config(path, format!("field \"free_rule\": {e}"))
            })?,
            Some(v) => return Err(bad("free_rule", "\"map-server\" or \"nonzero\"", v)),
        };
        let start = match t.get("start") {
            None => None,
            Some(toml::Value::Array(a)) => {
                let v: Vec<f64> = a
                    .iter()
                    .filter_map(|x| match x {
                        toml::Value::Float(f) => Some(*f),
                        toml::Value::Integer(i) => Some(*i as f64),
                        _ => None,
                    })
                    .filter(|f| f.is_finite())
                    .collect();
                match v[..] {
                    [x, y, yaw] if a.len() == 3 => Some(StartPose { x, y, yaw }),
                    _ => {
                        return Err(bad(
                            "start",
                            "[x, y, yaw], 3 finite numbers",
                            &toml::Value::Array(a.clone()),
                        ))
                    }
                }
            }
            Some(v) => return Err(bad("start", "[x, y, yaw], 3 finite numbers", v)),
        };
        let reverse = match t.get("reverse") {
            None => false,
            Some(toml::Value::Boolean(b)) => *b,
            Some(v) => return Err(bad("reverse", "true or false", v)),
        };
        let overlay = match t.get("config") {
            None => toml::Table::new(),
            Some(toml::Value::Table(c)) => c.clone(),
            Some(v) => return Err(bad("config", "a table", v)),
        };
        let text =
            toml::to_string(&overlay).map_err(|e| PipelineError::config(path, e.to_string()))?;
        let mut config = Config::from_toml_str(&text, Some(profile), path)?;
        config.map.free_rule = free_rule;
        config.vehicle = match t.get("vehicle") {
            None => None,
            Some(toml::Value::Table(v)) => Some(vehicle_origin(v, path)?),
            Some(v) => return Err(bad("vehicle", "a table", v)),
        };
        config.validate(path)?;
        Ok(BuildSettings {
            config,
            start,
            reverse,
            flavor: record.flavor,
        })
    }
}

/// The `[vehicle]` table of a record: the folder, the resolved value of every key the car's
/// files gave (`values`, from the configuration `config`) and where each came from (`sources`).
fn vehicle_table(v: &VehicleOrigin, config: &toml::Table) -> toml::Value {
    let raceline = match config.get("raceline") {
        Some(toml::Value::Table(r)) => r.clone(),
        _ => toml::Table::new(),
    };
    let mut values = toml::Table::new();
    let mut sources = toml::Table::new();
    for (key, from) in &v.sources {
        if let Some(value) = raceline.get(key) {
            values.insert(key.clone(), value.clone());
        }
        sources.insert(key.clone(), from.clone().into());
    }
    let mut t = toml::Table::new();
    t.insert(
        "folder".into(),
        v.folder.to_string_lossy().into_owned().into(),
    );
    t.insert("sources".into(), toml::Value::Table(sources));
    t.insert("values".into(), toml::Value::Table(values));
    toml::Value::Table(t)
}

/// The [`VehicleOrigin`] a record's `[vehicle]` table names (its `values` repeat the
/// configuration and are not read back).
fn vehicle_origin(t: &toml::Table, path: &Path) -> Result<VehicleOrigin, PipelineError> {
    let bad = |field: &str, v: &toml::Value| {
        PipelineError::config(
            path,
            format!("field \"vehicle.{field}\" must be a string (found {v})"),
        )
    };
    let folder = match t.get("folder") {
        None => PathBuf::new(),
        Some(toml::Value::String(s)) => PathBuf::from(s),
        Some(v) => return Err(bad("folder", v)),
    };
    let mut sources = std::collections::BTreeMap::new();
    match t.get("sources") {
        None => {}
        Some(toml::Value::Table(s)) => {
            for (k, v) in s {
                let toml::Value::String(from) = v else {
                    return Err(bad(&format!("sources.{k}"), v));
                };
                sources.insert(k.clone(), from.clone());
            }
        }
        Some(v) => {
            return Err(PipelineError::config(
                path,
                format!("field \"vehicle.sources\" must be a table (found {v})"),
            ))
        }
    }
    Ok(VehicleOrigin { folder, sources })
}

/// The leaves of `ours` that differ from (or are absent in) `base`, nested as in `ours`.
fn table_diff(ours: &toml::Table, base: &toml::Table) -> toml::Table {
    let mut out = toml::Table::new();
    for (k, v) in ours {
        match (v, base.get(k)) {
            (toml::Value::Table(a), Some(toml::Value::Table(b))) => {
                let d = table_diff(a, b);
                if !d.is_empty() {
                    out.insert(k.clone(), toml::Value::Table(d));
                }
            }
            (v, Some(b)) if v == b => {}
            (v, _) => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// The source recorded for a car's value that a caller set explicitly instead.
pub const EXPLICIT: &str = "set explicitly (over the vehicle folder's file)";

/// Where a rebuild of an existing set (`regen`, `check`) takes its configuration from.
#[derive(Debug, Clone)]
pub enum ConfigChoice {
    /// The settings the set recorded in its `mapzoo.toml` (the defaults when it has none),
    /// with these single values on top (`profile` is ignored here: a new profile is a new
    /// configuration, [`ConfigChoice::Given`]).
    Recorded(Overrides),
    /// This configuration, whatever the set recorded.
    Given(Box<Config>),
}

impl Default for ConfigChoice {
    fn default() -> Self {
        ConfigChoice::Recorded(Overrides::default())
    }
}

impl From<&Config> for ConfigChoice {
    fn from(c: &Config) -> Self {
        ConfigChoice::Given(Box::new(c.clone()))
    }
}

impl From<Config> for ConfigChoice {
    fn from(c: Config) -> Self {
        ConfigChoice::Given(Box::new(c))
    }
}

/// Where the configuration of a rebuild came from, for the report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingsSource {
    /// The set's `mapzoo.toml` (with any single-value overrides).
    Recorded,
    /// The set has no `mapzoo.toml`: the defaults (with any overrides).
    Defaults,
    /// The caller's configuration; a recorded one was not used.
    Given,
    /// The set has no `mapzoo.toml`: the settings `check` found to reproduce its published
    /// lap times (`regen_inferred`).
    Inferred,
}

/// The recorded settings of the set in `dir`, if it has a `mapzoo.toml`; an unreadable one
/// is an error naming it (a rebuild must not silently fall back to other settings).
pub fn read_settings(dir: &Path) -> Result<Option<BuildSettings>, PipelineError> {
    let path: PathBuf = dir.join(SETTINGS_FILE);
    // Absent: none. Anything else but a regular file (a folder, a FIFO, a link to a device)
    // is reported by the reader, never read.
    if path.symlink_metadata().is_err() {
        return Ok(None);
    }
    let fix = |e: String| {
        PipelineError::config(
            &path,
            format!("{e}; fix or remove the file (without it a rebuild uses the default settings)"),
        )
    };
    let record = SetRecord::read(&path).map_err(|e| fix(e.reason()))?;
    BuildSettings::from_record(&record, &path)
        .map(Some)
        .map_err(|e| match e {
            PipelineError::Config { what, .. } => fix(what),
            other => other,
        })
}

impl ConfigChoice {
    /// The configuration for the set whose recorded settings are `recorded`, and its source.
    pub fn resolve(
        &self,
        recorded: Option<&BuildSettings>,
    ) -> Result<(Config, SettingsSource), PipelineError> {
        match self {
            ConfigChoice::Given(c) => Ok((Config::clone(c), SettingsSource::Given)),
            ConfigChoice::Recorded(o) => {
                let (mut config, source) = match recorded {
                    Some(s) => (s.config.clone(), SettingsSource::Recorded),
                    None => (Config::default(), SettingsSource::Defaults),
                };
                if let Some(rule) = o.free_rule {
                    config.map.free_rule = rule;
                }
                if let Some(w) = o.safety_width {
                    config.raceline.safety_width = w;
                    if let Some(v) = &mut config.vehicle {
                        v.set_by("safety_width", EXPLICIT);
                    }
                }
                if let Some(w) = o.safety_width_sp {
                    config.raceline.safety_width_sp = w;
                    if let Some(v) = &mut config.vehicle {
                        v.set_by("safety_width_sp", EXPLICIT);
                    }
                }
                config.validate(Path::new("<command line>"))?;
                Ok((config, source))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(start: Option<StartPose>) -> BuildRequest {
        BuildRequest {
            yaml: PathBuf::from("m.yaml"),
            name: None,
            start,
            reverse: true,
        }
    }

    /// Whatever shapes the result comes back from the record exactly.
    #[test]
    fn settings_round_trip_through_the_record() {
        let mut config = Config::for_profile(Profile::Racestack);
        config.map.free_rule = FreeRule::Nonzero;
        config.raceline.safety_width = 0.55;
        config.sectors.scaling = 0.5;
        let start = StartPose {
            x: -5.024962,
            y: -22.778604,
            yaw: 2.983722,
        };
        let s = BuildSettings::of(&req(Some(start)), &config);
        let record = s.record("f");
        let text = record.to_toml_string();
        let back = SetRecord::from_toml_str(&text, Path::new("mapzoo.toml")).unwrap();
        let again = BuildSettings::from_record(&back, Path::new("mapzoo.toml")).unwrap();
        assert_eq!(again, s, "{text}");
        assert!(
            text.contains("profile = \"racestack\"") && text.contains("free_rule = \"nonzero\""),
            "{text}"
        );
        assert!(
            text.contains("safety_width = 0.55") && !text.contains("safety_width_sp"),
            "{text}"
        );
    }

    /// A vehicle folder's values are recorded with the file each came from, and read back.
    #[test]
    fn the_vehicle_origin_round_trips_with_its_resolved_values() {
        let mut config = Config::for_profile(Profile::Racestack);
        config.raceline.safety_width = 0.65;
        config.vehicle = Some(VehicleOrigin {
            folder: PathBuf::from("/car/config"),
            sources: [
                ("v_max", "/car/config/gb_optimizer/racecar_f110.ini"),
                ("safety_width", EXPLICIT),
                ("safety_width_sp", "/car/config/global_planner_params.yaml"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        });
        let s = BuildSettings::of(&req(None), &config);
        let text = s.record("f").to_toml_string();
        let back = SetRecord::from_toml_str(&text, Path::new("mapzoo.toml")).unwrap();
        let again = BuildSettings::from_record(&back, Path::new("mapzoo.toml")).unwrap();
        assert_eq!(again, s, "{text}");
        let t: toml::Table = text.parse().unwrap();
        let values = t["vehicle"]["values"].as_table().unwrap();
        // the values as used: the profile's v_max, the explicit width
        assert_eq!(values["v_max"].as_float(), Some(config.raceline.v_max));
        assert_eq!(values["safety_width"].as_float(), Some(0.65));
        assert_eq!(values["safety_width_sp"].as_float(), Some(0.7));
        assert_eq!(
            t["vehicle"]["sources"]["safety_width_sp"].as_str(),
            Some("/car/config/global_planner_params.yaml")
        );
        let bad =
            SetRecord::from_toml_str("[vehicle]\nfolder = 3\n", Path::new("mapzoo.toml")).unwrap();
        let e = BuildSettings::from_record(&bad, Path::new("mapzoo.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("vehicle.folder"), "{e}");
    }

    #[test]
    fn defaults_record_no_config_keys() {
        let s = BuildSettings::of(&req(None), &Config::default());
        let t = s.to_table();
        assert!(
            !t.contains_key("config") && !t.contains_key("start"),
            "{t:?}"
        );
    }

    #[test]
    fn overrides_apply_over_the_record_and_a_given_config_wins() {
        let mut config = Config::for_profile(Profile::Racestack);
        config.map.free_rule = FreeRule::Nonzero;
        let s = BuildSettings::of(&req(None), &config);
        let (c, src) = ConfigChoice::default().resolve(Some(&s)).unwrap();
        assert_eq!((c, src), (config.clone(), SettingsSource::Recorded));
        let o = Overrides {
            safety_width: Some(0.9),
            ..Overrides::default()
        };
        let (c, _) = ConfigChoice::Recorded(o).resolve(Some(&s)).unwrap();
        assert_eq!(c.raceline.safety_width, 0.9);
        assert_eq!(c.map.free_rule, FreeRule::Nonzero);
        let (c, src) = ConfigChoice::from(Config::default())
            .resolve(Some(&s))
            .unwrap();
        assert_eq!((c, src), (Config::default(), SettingsSource::Given));
        let (c, src) = ConfigChoice::default().resolve(None).unwrap();
        assert_eq!((c, src), (Config::default(), SettingsSource::Defaults));
    }

    #[test]
    fn bad_recorded_values_name_the_file_and_field() {
        let p = Path::new("set/mapzoo.toml");
        for (text, field) in [
            ("profile = \"fast\"\n", "profile"),
            ("free_rule = 3\n", "free_rule"),
            ("start = [1.0, 2.0]\n", "start"),
            ("reverse = \"no\"\n", "reverse"),
            ("[config.raceline]\nsafety_widht = 1.0\n", "safety_widht"),
            ("[config.raceline]\nsafety_width = -1.0\n", "safety_width"),
        ] {
            let r = SetRecord::from_toml_str(text, p).unwrap();
            let err = BuildSettings::from_record(&r, p).unwrap_err().to_string();
            assert!(
                err.contains("mapzoo.toml") && err.contains(field),
                "{text}: {err}"
            );
        }
    }
}
