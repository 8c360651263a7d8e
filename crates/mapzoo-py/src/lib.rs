//! The `mapzoo._mapzoo` extension module: the library crates' API for Python (PyO3, abi3,
//! CPython 3.9+). The Python package `mapzoo` (`python/mapzoo/`) wraps it with pandas
//! DataFrames, numpy arrays, report objects and plotting; this module keeps to plain values.
//!
//! Every call that reads, builds or writes runs with the GIL released, so several Python
//! threads build in parallel. Library errors become `mapzoo.Error` subclasses
//! ([`error::Failure`]); a panic is caught and raised as `mapzoo.Error`.
//!
//! `run_cli` is the `mapzoo` command of the wheel: the binary's own `main.rs` (its clap
//! parser and every command module), included with `#[path]`, so the command installed by
//! pip is exactly the command `cargo build` makes.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use mapzoo_extract::StartPose;
use mapzoo_format::{validate_dir, FreeRule, LineKind, Waypoint, WritePolicy};
use mapzoo_pipeline::{
    check as check_set, read_published_csv, run_batch, write_set, BuildRequest, CheckOptions,
    Config, Overrides, Profile,
};
use mapzoo_synth::{generate as synth_generate, CenterlineSpec, GapSpec, SynthOptions, WidthSpec};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

mod cli;
mod error;
mod set;

use error::{catch, detached, Failure};
use set::RawSet;

/// Pipeline options as the Python functions take them.
#[derive(Debug, Clone, Default)]
struct Options {
    profile: Option<String>,
    free_rule: Option<String>,
    config: Option<PathBuf>,
    /// A TOML `[raceline]` table text merged over the configuration (vehicle parameters).
    vehicle_toml: Option<String>,
    safety_width: Option<f64>,
    safety_width_sp: Option<f64>,
    /// The lines to compute (`lines=`), names as in `--lines`.
    lines: Option<Vec<String>>,
    /// The line to drive (`racing_line=`).
    racing_line: Option<String>,
}

fn input_error(what: String) -> Failure {
    Failure::new("InputError", what, None)
}

impl Options {
    /// The options of a call from the `options` dict the Python wrappers pass (keys as the
    /// field names; an absent key or None leaves the default).
    fn from_dict(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let Some(d) = options else {
            return Ok(Options::default());
        };
        fn get<'py, T: for<'a> FromPyObjectOwned<'py>>(
            d: &Bound<'py, PyDict>,
            key: &str,
        ) -> PyResult<Option<T>> {
            match d.get_item(key)? {
                Some(v) if !v.is_none() => Ok(Some(v.extract().map_err(Into::into)?)),
                _ => Ok(None),
            }
        }
        Ok(Options {
            profile: get(d, "profile")?,
            free_rule: get(d, "free_rule")?,
            config: get(d, "config")?,
            vehicle_toml: get(d, "vehicle_toml")?,
            safety_width: get(d, "safety_width")?,
            safety_width_sp: get(d, "safety_width_sp")?,
            lines: get(d, "lines")?,
            racing_line: get(d, "racing_line")?,
        })
    }

    /// The validated configuration, as `mapzoo build --profile … --config … --free-rule …
    /// --lines … --racing-line …` makes it.
    fn resolve(&self) -> Result<Config, Failure> {
        let mut config = self.resolve_parameters()?;
        let kind = |name: &str, what: &str| {
            LineKind::from_name(name).ok_or_else(|| {
                input_error(format!(
                    "{what}: unknown line {name:?}; the lines are \"iqp\", \"sp\" and \"mintime\""
                ))
            })
        };
        let kinds: Option<Vec<LineKind>> = self
            .lines
            .as_ref()
            .map(|names| names.iter().map(|n| kind(n, "lines")).collect())
            .transpose()?;
        let racing = self
            .racing_line
            .as_deref()
            .map(|n| kind(n, "racing_line"))
            .transpose()?;
        config.lines = config
            .lines
            .with_choice(kinds.as_deref(), racing, ("lines", "racing_line"))
            .map_err(input_error)?;
        Ok(config)
    }

    /// [`Self::resolve`] without the lines.
    fn resolve_parameters(&self) -> Result<Config, Failure> {
        let profile = self
            .profile
            .as_deref()
            .map(str::parse::<Profile>)
            .transpose()
            .map_err(|e| input_error(format!("profile: {e}")))?;
        let free_rule = self
            .free_rule
            .as_deref()
            .map(str::parse::<FreeRule>)
            .transpose()
            .map_err(|e| input_error(format!("free_rule: {e}")))?;
        let overrides = Overrides {
            profile,
            free_rule,
            safety_width: self.safety_width,
            safety_width_sp: self.safety_width_sp,
        };
        let Some(vehicle) = &self.vehicle_toml else {
            return Ok(Config::resolve(self.config.as_deref(), &overrides)?);
        };
        // The configuration file (if any) with the vehicle's [raceline] keys over it.
        let label = PathBuf::from("<vehicle>");
        let mut table: toml::Table = match &self.config {
            Some(path) => {
                let text = mapzoo_pipeline::read_config_text(path)?;
                mapzoo_format::check_nesting(&text, mapzoo_format::Syntax::Toml, path)
                    .map_err(mapzoo_pipeline::PipelineError::from)?;
                text.parse().map_err(|e: toml::de::Error| {
                    mapzoo_pipeline::PipelineError::config(path, e.to_string())
                })?
            }
            None => toml::Table::new(),
        };
        mapzoo_format::check_nesting(vehicle, mapzoo_format::Syntax::Toml, &label)
            .map_err(mapzoo_pipeline::PipelineError::from)?;
        let overlay: toml::Table = vehicle.parse().map_err(|e: toml::de::Error| {
            mapzoo_pipeline::PipelineError::config(&label, e.to_string())
        })?;
        let raceline = table
            .entry("raceline")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let (toml::Value::Table(dst), Some(toml::Value::Table(src))) =
            (raceline, overlay.get("raceline"))
        {
            for (k, v) in src {
                dst.insert(k.clone(), v.clone());
            }
        }
        let path = self.config.clone().unwrap_or(label);
        let mut config = Config::from_toml_str(&table.to_string(), profile, &path)?;
        if let Some(rule) = free_rule {
            config.map.free_rule = rule;
        }
        if let Some(w) = self.safety_width {
            config.raceline.safety_width = w;
        }
        if let Some(w) = self.safety_width_sp {
            config.raceline.safety_width_sp = w;
        }
        config.validate(&path)?;
        Ok(config)
    }
}

fn start_pose(start: Option<(f64, f64, f64)>) -> Result<Option<StartPose>, Failure> {
    match start {
        None => Ok(None),
        Some((x, y, yaw)) if x.is_finite() && y.is_finite() && yaw.is_finite() => {
            Ok(Some(StartPose { x, y, yaw }))
        }
        Some(s) => Err(input_error(format!(
            "start {s:?}: x, y (metres) and yaw (radians) must be finite numbers"
        ))),
    }
}

/// Builds one map: stages 1–11 and the sector defaults; with `out`, writes `out/<name>/`.
#[pyfunction]
#[pyo3(signature = (map_yaml, *, start=None, reverse=false, name=None, out=None, force=false,
    options=None))]
#[allow(clippy::too_many_arguments)]
fn build(
    py: Python<'_>,
    map_yaml: PathBuf,
    start: Option<(f64, f64, f64)>,
    reverse: bool,
    name: Option<String>,
    out: Option<PathBuf>,
    force: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(RawSet, Option<String>)> {
    let opts = Options::from_dict(options)?;
    detached(py, || {
        let config = opts.resolve()?;
        let req = BuildRequest {
            yaml: map_yaml,
            name,
            start: start_pose(start)?,
            reverse,
        };
        build_one(&req, &config, out.as_deref(), force)
    })
}

/// A built set and the folder it was written to, or why it failed.
type Built = Result<(RawSet, Option<String>), Failure>;

/// Right and left wall points, metres.
type WallPoints = (Vec<(f64, f64)>, Vec<(f64, f64)>);

fn build_one(req: &BuildRequest, config: &Config, out: Option<&Path>, force: bool) -> Built {
    let set = mapzoo_pipeline::build(req, config)?;
    let dir = match out {
        Some(out) => Some(
            write_set(&set, out, WritePolicy::from(force))?
                .display()
                .to_string(),
        ),
        None => None,
    };
    Ok((RawSet::built(&set)?, dir))
}

/// Builds many maps in parallel (`jobs` threads, 0 = one per core), as `mapzoo build A B …`
/// does; one result per map, in order: the set, or the exception it raised.
#[pyfunction]
#[pyo3(signature = (map_yamls, *, jobs=0, reverse=false, out=None, force=false, options=None))]
fn build_many(
    py: Python<'_>,
    map_yamls: Vec<PathBuf>,
    jobs: usize,
    reverse: bool,
    out: Option<PathBuf>,
    force: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let opts = Options::from_dict(options)?;
    let results = detached(py, || {
        let config = opts.resolve()?;
        let requests: Vec<BuildRequest> = map_yamls
            .iter()
            .map(|yaml| BuildRequest {
                yaml: yaml.clone(),
                name: None,
                start: None,
                reverse,
            })
            .collect();
        let mut seen = std::collections::BTreeMap::new();
        for req in &requests {
            if let Some(first) = seen.insert(req.track_name(), &req.yaml) {
                return Err(input_error(format!(
                    "{} and {} both build track {:?} into the same folder; build them into different `out` folders",
                    first.display(),
                    req.yaml.display(),
                    req.track_name()
                )));
            }
        }
        // Each job's own result (a panic caught per map), in input order.
        let results: Vec<Built> = run_batch(
            &requests,
            jobs,
            |req| Ok(catch(|| build_one(req, &config, out.as_deref(), force))),
            |_, _| {},
        )
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| Err(Failure::from(e))))
        .collect();
        Ok(results)
    })?;
    results
        .into_iter()
        .map(|r| match r {
            Ok(v) => Ok(v.into_pyobject(py)?.into_any().unbind()),
            Err(f) => Ok(f.to_pyerr(py).into_value(py).into_any()),
        })
        .collect()
}

/// Reads a set folder (MapZoo or Race Stack layout).
#[pyfunction]
fn read_set(py: Python<'_>, folder: PathBuf) -> PyResult<RawSet> {
    detached(py, || RawSet::read(&folder))
}

/// Stages 7–11 on a centerline given as n × 10 float64 values (the CSV's columns after `id`).
#[pyfunction]
#[pyo3(signature = (values, n, *, track="track".to_string(), walls=None, options=None))]
fn raceline(
    py: Python<'_>,
    values: &Bound<'_, PyBytes>,
    n: usize,
    track: String,
    walls: Option<WallPoints>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<RawSet> {
    let bytes = values.as_bytes().to_vec();
    let opts = Options {
        free_rule: None,
        ..Options::from_dict(options)?
    };
    detached(py, || {
        if bytes.len() != n * 10 * 8 {
            return Err(input_error(format!(
                "centerline: expected {n} rows of 10 float64 values, found {} bytes",
                bytes.len()
            )));
        }
        let centerline: Vec<Waypoint> = bytes
            .chunks_exact(80)
            .enumerate()
            .map(|(i, row)| {
                let mut v = [0.0; 10];
                for (j, c) in row.chunks_exact(8).enumerate() {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(c);
                    v[j] = f64::from_le_bytes(b);
                }
                Waypoint::from_values(i as i64, v)
            })
            .collect();
        let walls = walls.map(|(r, l)| mapzoo_geom::Walls {
            right: r.into_iter().map(|(x, y)| [x, y]).collect(),
            left: l.into_iter().map(|(x, y)| [x, y]).collect(),
            obstacles: Vec::new(),
        });
        let config = opts.resolve()?;
        let t = Instant::now();
        let result =
            mapzoo_pipeline::compute_lines(&centerline, walls.as_ref(), &config).map_err(|e| {
                let message = format!("{track}: {e}");
                Failure {
                    message,
                    ..Failure::from(e)
                }
            })?;
        RawSet::from_raceline(&track, &centerline, &result, t.elapsed().as_secs_f64())
    })
}

/// The dataset's checklist on a folder, as the JSON record of `mapzoo validate --json`.
#[pyfunction]
fn validate(py: Python<'_>, folder: PathBuf) -> PyResult<String> {
    detached(py, || {
        if !folder.is_dir() {
            return Err(Failure::new(
                "InputError",
                format!(
                    "{}: not a folder; give a track folder (MapZoo or Race Stack layout)",
                    folder.display()
                ),
                Some(folder.clone()),
            ));
        }
        let report = validate_dir(&folder);
        serde_json::to_string(&report).map_err(|e| input_error(e.to_string()))
    })
}

/// Rebuilds a published set and compares, as the JSON record of `mapzoo check --json`.
#[pyfunction]
#[pyo3(signature = (folder, *, from_centerline=false, lap_tol=0.01, published=None,
    options=None))]
fn check(
    py: Python<'_>,
    folder: PathBuf,
    from_centerline: bool,
    lap_tol: f64,
    published: Option<PathBuf>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let opts = Options {
        lines: None,
        racing_line: None,
        ..Options::from_dict(options)?
    };
    detached(py, || {
        if !(lap_tol.is_finite() && lap_tol >= 0.0) {
            return Err(input_error(format!(
                "lap_tol must be a fraction >= 0 (found {lap_tol})"
            )));
        }
        let config = opts.resolve()?;
        let published = match &published {
            Some(p) => read_published_csv(p)?,
            None => Vec::new(),
        };
        let options = CheckOptions {
            from_centerline,
            lap_tol,
            published,
            infer: true,
        };
        let report = check_set(&folder, &config, &options)?;
        serde_json::to_string(&report).map_err(|e| input_error(e.to_string()))
    })
}

/// A generated map (`mapzoo generate`).
#[pyclass(frozen, module = "mapzoo._mapzoo")]
struct RawSynth {
    map: mapzoo_synth::SynthMap,
}

#[pymethods]
impl RawSynth {
    /// `(width, height, gray bytes row 0 on top, resolution m/px, (x, y, yaw) origin)`.
    #[allow(clippy::type_complexity)]
    fn image<'py>(
        &self,
        py: Python<'py>,
    ) -> (usize, usize, Bound<'py, PyBytes>, f64, (f64, f64, f64)) {
        let m = &self.map;
        let o = m.meta.origin;
        (
            m.width,
            m.height,
            PyBytes::new(py, &m.gray),
            m.meta.resolution,
            (o[0], o[1], o[2]),
        )
    }

    /// The map-server YAML text (its `image` as written by `write`).
    fn yaml(&self) -> String {
        self.map.meta.to_yaml_string()
    }

    /// Lap length of the generated centerline, metres.
    #[getter]
    fn lap_length(&self) -> f64 {
        self.map.truth.lap_length
    }

    /// The true centerline: (x, y, width) per point, metres.
    fn truth_centerline(&self) -> Vec<(f64, f64, f64)> {
        self.map
            .truth
            .centerline
            .iter()
            .map(|p| (p.x, p.y, p.width()))
            .collect()
    }

    /// Writes `<name>.png` and `<name>.yaml` into `folder` (created if missing); their paths.
    fn write(&self, py: Python<'_>, folder: PathBuf, name: String) -> PyResult<(String, String)> {
        detached(py, || {
            if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                return Err(input_error(format!(
                    "name {name:?}: must be a plain file name without a path or a leading dot"
                )));
            }
            std::fs::create_dir_all(&folder)
                .map_err(|e| mapzoo_pipeline::PipelineError::io(&folder, e))?;
            let [png, yaml] = self.map.write(&folder, &name)?;
            Ok((png.display().to_string(), yaml.display().to_string()))
        })
    }
}

/// A random synthetic track map from a seed (`mapzoo generate`).
#[pyfunction]
#[pyo3(signature = (seed, *, lap_length=None, width=None, width_min=1.6, width_max=3.0,
    resolution=0.05, margin=2.0, size=None, obstacles=0, spurs=0, pockets=0, gap_width=None,
    anti_alias=None, noise=0.0))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    seed: u64,
    lap_length: Option<f64>,
    width: Option<f64>,
    width_min: f64,
    width_max: f64,
    resolution: f64,
    margin: f64,
    size: Option<(usize, usize)>,
    obstacles: usize,
    spurs: usize,
    pockets: usize,
    gap_width: Option<f64>,
    anti_alias: Option<f64>,
    noise: f64,
) -> PyResult<RawSynth> {
    let opts = SynthOptions {
        seed,
        centerline: CenterlineSpec::Random { lap_length },
        width: match width {
            Some(w) => WidthSpec::Constant(w),
            None => WidthSpec::Smooth {
                min: width_min,
                max: width_max,
            },
        },
        resolution,
        margin,
        image_size: size.map(|(w, h)| [w, h]),
        anti_alias,
        random_obstacles: obstacles,
        random_spurs: spurs,
        random_pockets: pockets,
        wall_gap: gap_width.map(|width| GapSpec { s: None, width }),
        noise,
        ..SynthOptions::default()
    };
    let map = detached(py, || Ok(synth_generate(&opts)?))?;
    Ok(RawSynth { map })
}

/// The generator's options for `seed` from a dict with the keys of `generate()` (an absent
/// key or None: the default).
fn synth_from_dict(seed: u64, d: Option<&Bound<'_, PyDict>>) -> PyResult<SynthOptions> {
    let Some(d) = d else {
        return Ok(SynthOptions {
            seed,
            ..SynthOptions::default()
        });
    };
    fn get<'py, T: for<'a> FromPyObjectOwned<'py>>(
        d: &Bound<'py, PyDict>,
        key: &str,
    ) -> PyResult<Option<T>> {
        match d.get_item(key)? {
            Some(v) if !v.is_none() => Ok(Some(v.extract().map_err(Into::into)?)),
            _ => Ok(None),
        }
    }
    const KEYS: [&str; 13] = [
        "lap_length",
        "width",
        "width_min",
        "width_max",
        "resolution",
        "margin",
        "size",
        "obstacles",
        "spurs",
        "pockets",
        "gap_width",
        "anti_alias",
        "noise",
    ];
    for k in d.keys() {
        let k: String = k.extract()?;
        if !KEYS.contains(&k.as_str()) {
            return Err(input_error(format!(
                "generator option {k:?} is unknown; the options are {}",
                KEYS.join(", ")
            ))
            .to_pyerr(d.py()));
        }
    }
    let base = SynthOptions::default();
    let size: Option<(usize, usize)> = get(d, "size")?;
    let gap: Option<f64> = get(d, "gap_width")?;
    Ok(SynthOptions {
        seed,
        centerline: CenterlineSpec::Random {
            lap_length: get(d, "lap_length")?,
        },
        width: match get::<f64>(d, "width")? {
            Some(w) => WidthSpec::Constant(w),
            None => WidthSpec::Smooth {
                min: get(d, "width_min")?.unwrap_or(1.6),
                max: get(d, "width_max")?.unwrap_or(3.0),
            },
        },
        resolution: get(d, "resolution")?.unwrap_or(base.resolution),
        margin: get(d, "margin")?.unwrap_or(base.margin),
        image_size: size.map(|(w, h)| [w, h]),
        anti_alias: get(d, "anti_alias")?,
        random_obstacles: get(d, "obstacles")?.unwrap_or(0),
        random_spurs: get(d, "spurs")?.unwrap_or(0),
        random_pockets: get(d, "pockets")?.unwrap_or(0),
        wall_gap: gap.map(|width| GapSpec { s: None, width }),
        noise: get(d, "noise")?.unwrap_or(0.0),
        ..base
    })
}

/// Builds shard `shard` = (K, N) of a dataset into `out` (`mapzoo dataset build --shard K/N`,
/// without its index): generated tracks (`count`, `seed`, `generator` options) or the maps
/// of the folder `maps`. Returns the shard's rows as JSON texts, sorted by name.
#[pyfunction]
#[pyo3(signature = (out, shard, *, count=None, seed=None, maps=None, generator=None, jobs=0,
    options=None))]
#[allow(clippy::too_many_arguments)]
fn dataset_shard(
    py: Python<'_>,
    out: PathBuf,
    shard: (usize, usize),
    count: Option<usize>,
    seed: Option<u64>,
    maps: Option<PathBuf>,
    generator: Option<&Bound<'_, PyDict>>,
    jobs: usize,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let opts = Options::from_dict(options)?;
    let shard = mapzoo_pipeline::Shard::from_str(&format!("{}/{}", shard.0, shard.1))
        .map_err(|e| input_error(format!("shard: {e}")).to_pyerr(py))?;
    let base = synth_from_dict(seed.unwrap_or(0), generator)?;
    detached(py, || {
        let config = opts.resolve()?;
        let tracks =
            match (&maps, count, seed) {
                (Some(folder), None, None) => mapzoo_pipeline::map_tracks(folder)?,
                (None, Some(count), Some(seed)) => {
                    mapzoo_pipeline::generated_tracks(&base, seed, count)?
                }
                _ => return Err(input_error(
                    "give count and seed (generated tracks) or maps (a folder of maps), not both"
                        .into(),
                )),
            };
        std::fs::create_dir_all(&out).map_err(|e| mapzoo_pipeline::PipelineError::io(&out, e))?;
        let rows = mapzoo_pipeline::build_shard(&out, &tracks, shard, &config, jobs, |_, _| {});
        rows.iter()
            .map(|(r, _)| serde_json::to_string(r).map_err(|e| input_error(e.to_string())))
            .collect()
    })
}

/// Writes `out/<stem>.csv` and `.jsonl` for the tracks `names` from their row files (what
/// `mapzoo dataset build` and `merge` write); returns the two paths.
#[pyfunction]
#[pyo3(signature = (out, names, stem="index".to_string()))]
fn dataset_index(
    py: Python<'_>,
    out: PathBuf,
    names: Vec<String>,
    stem: String,
) -> PyResult<(String, String)> {
    detached(py, || {
        mapzoo_pipeline::index_of(&out, &stem, &names)?;
        let path = |ext: &str| out.join(format!("{stem}.{ext}")).display().to_string();
        Ok((path("csv"), path("jsonl")))
    })
}

/// Runs the `mapzoo` command line on `argv` (program name first); its exit code.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> i32 {
    py.detach(|| cli::run(argv))
}

/// Panics without the GIL, for the test that no panic crosses into Python.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>, message: String) -> PyResult<()> {
    detached(py, || -> Result<(), Failure> { panic!("{message}") })
}

/// The extension module.
#[pymodule]
fn _mapzoo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RawSet>()?;
    m.add_class::<RawSynth>()?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(build_many, m)?)?;
    m.add_function(wrap_pyfunction!(read_set, m)?)?;
    m.add_function(wrap_pyfunction!(raceline, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(dataset_shard, m)?)?;
    m.add_function(wrap_pyfunction!(dataset_index, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
