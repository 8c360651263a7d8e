//! Datasets of many tracks (issue 22): generated or read from a folder of maps, built into
//! `DIR/sets/<name>/`, one index row per track (`DIR/rows/<name>.json`), the index
//! (`index.csv`, `index.jsonl`) sorted by name; a deterministic shard of the tracks per
//! process ([`Shard`]) and a rerun that skips every set whose files still match its row.
//!
//! Layout of a dataset folder:
//!
//! ```text
//! DIR/maps/<name>.png, .yaml    generated maps (the source of each generated track)
//! DIR/sets/<name>/              the track's MapZoo set (written whole, atomically)
//! DIR/rows/<name>.json          the track's index row, written after its set
//! DIR/index.csv, index.jsonl    every row of the run, sorted by name
//! DIR/index-K-of-N.csv, .jsonl  the rows of shard K of N (`merge` joins them)
//! ```
//!
//! A row's bytes depend only on the track and the settings, never on the threads, the
//! shard or an interruption: only the `seconds` column (last) holds the build's wall time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mapzoo_format::set::layout::is_map_yaml_candidate;
use mapzoo_format::set::{content_hash, hash_matches, SetRecord, SETTINGS_FILE};
use mapzoo_format::{MapMeta, WritePolicy};
use mapzoo_raceline::LineKind;
use mapzoo_synth::{SynthError, SynthOptions};
use serde::{Deserialize, Serialize};

use crate::batch::{run_batch, run_caught};
use crate::build::{build, write_set, TrackSet};
use crate::config::Config;
use crate::error::PipelineError;
use crate::failure::variant_name;
use crate::request::BuildRequest;
use crate::settings::BuildSettings;

/// The folder of the sets inside a dataset folder.
pub const SETS_DIR: &str = "sets";
/// The folder of the per-track rows.
pub const ROWS_DIR: &str = "rows";
/// The folder of the generated maps.
pub const MAPS_DIR: &str = "maps";
/// The largest row file read, bytes (a row is about 1 kB).
const MAX_ROW_BYTES: u64 = 1 << 20;

/// Shard `index` of `count` (1-based): the tracks whose position `i` in the track list
/// has `i % count == index - 1`. The shards of one `count` are disjoint and cover the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The whole list as one shard.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether the track at position `i` of the list belongs to this shard.
    pub fn holds(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }

    /// The base name of this shard's index files: `index` for the whole list, else
    /// `index-K-of-N`.
    pub fn index_stem(&self) -> String {
        if self.count == 1 {
            "index".to_string()
        } else {
            format!("index-{}-of-{}", self.index, self.count)
        }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with 1 ≤ K ≤ N (e.g. `3/8`; a Slurm array gives
    /// `$((SLURM_ARRAY_TASK_ID + 1))/$SLURM_ARRAY_TASK_COUNT`).
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || {
            format!("expected K/N with 1 <= K <= N, e.g. 3/8 (found {text:?}); shard K of N shards")
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k, count: n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Where a track comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackSource {
    /// Generated from these options (their `seed` is the track's).
    Generated(Box<SynthOptions>),
    /// Read from this map-server YAML.
    Map(PathBuf),
}

/// One track of a dataset: its name (folder and file prefix) and its source.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetTrack {
    /// Track name.
    pub name: String,
    /// Its source.
    pub source: TrackSource,
}

/// The name of generated track `seed`: `synth<seed>` (as `mapzoo generate` names it).
pub fn generated_name(seed: u64) -> String {
    format!("synth{seed}")
}

/// Tracks `seed`, `seed + 1`, … `seed + count - 1`, each generated from `base` with its own
/// seed: track `seed + i` is the same whatever `count` is.
pub fn generated_tracks(
    base: &SynthOptions,
    seed: u64,
    count: usize,
) -> Result<Vec<DatasetTrack>, PipelineError> {
    (0..count as u64)
        .map(|i| {
            let s = seed.checked_add(i).ok_or_else(|| {
                PipelineError::config(
                    Path::new("<command line>"),
                    format!("seed {seed} + count {count} passes the largest seed (2^64 - 1); use a smaller seed"),
                )
            })?;
            Ok(DatasetTrack {
                name: generated_name(s),
                source: TrackSource::Generated(Box::new(SynthOptions {
                    seed: s,
                    ..base.clone()
                })),
            })
        })
        .collect()
}

/// The maps of a folder: every map-server YAML in `dir` and in its subfolders one level
/// down (a folder per track, as the reference data and f1tenth_racetracks lay them out),
/// sorted by path; each named as `mapzoo build` names it. Two maps of one name are an error.
pub fn map_tracks(dir: &Path) -> Result<Vec<DatasetTrack>, PipelineError> {
    let list = |d: &Path| -> Result<Vec<PathBuf>, PipelineError> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(|e| PipelineError::io(d, e))?
            .flatten()
            .map(|e| e.path())
            .collect();
        v.sort();
        Ok(v)
    };
    let mut yamls = Vec::new();
    for p in list(dir)? {
        if p.is_dir() {
            if p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            yamls.extend(list(&p)?.into_iter().filter(|f| is_map_yaml(f)));
        } else if is_map_yaml(&p) {
            yamls.push(p);
        }
    }
    yamls.sort();
    if yamls.is_empty() {
        return Err(PipelineError::input(
            dir,
            "holds no map-server YAML (in it or in its subfolders); give a folder of maps",
        ));
    }
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut tracks = Vec::new();
    for yaml in yamls {
        let req = BuildRequest {
            yaml: yaml.clone(),
            name: None,
            start: None,
            reverse: false,
        };
        let name = req.track_name();
        if let Some(first) = seen.insert(name.clone(), yaml.clone()) {
            return Err(PipelineError::input(
                &yaml,
                format!(
                    "names track {name:?} as {} does; rename one of the two maps",
                    first.display()
                ),
            ));
        }
        tracks.push(DatasetTrack {
            name,
            source: TrackSource::Map(yaml),
        });
    }
    Ok(tracks)
}

fn is_map_yaml(p: &Path) -> bool {
    p.is_file()
        && p.extension().is_some_and(|e| e == "yaml" || e == "yml")
        && p.file_name()
            .is_some_and(|n| is_map_yaml_candidate(&n.to_string_lossy()))
}

/// One track's line of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexRow {
    /// Track name (the set is `sets/<name>/`).
    pub name: String,
    /// The map it was built from: `maps/<name>.yaml` for a generated track, else the map
    /// YAML as given.
    pub source: String,
    /// The generator's seed of a generated track.
    pub seed: Option<u64>,
    /// "ok" or "failed".
    pub status: String,
    /// Centerline loop length, metres.
    pub length_m: Option<f64>,
    /// Narrowest track width along the centerline (d_left + d_right), metres.
    pub width_min_m: Option<f64>,
    /// Mean track width, metres.
    pub width_mean_m: Option<f64>,
    /// Widest track width, metres.
    pub width_max_m: Option<f64>,
    /// Centerline waypoints.
    pub centerline_points: Option<usize>,
    /// IQP lap time, seconds.
    pub iqp_lap_s: Option<f64>,
    /// IQP waypoints.
    pub iqp_points: Option<usize>,
    /// SP lap time, seconds.
    pub sp_lap_s: Option<f64>,
    /// SP waypoints.
    pub sp_points: Option<usize>,
    /// Minimum-time lap time, seconds (when computed).
    pub mintime_lap_s: Option<f64>,
    /// Minimum-time waypoints (when computed).
    pub mintime_points: Option<usize>,
    /// A failed track's error kind ("generate.option", "extract.leak", "optimize.too_tight", …).
    pub error: Option<String>,
    /// A failed track's message (paths relative to the dataset folder).
    pub message: Option<String>,
    /// The mapzoo version that built it.
    pub mapzoo_version: String,
    /// The checksum of the set's `mapzoo.toml`, which holds the checksum of every other file.
    pub checksum: Option<String>,
    /// Every file of the set with its checksum.
    pub files: BTreeMap<String, String>,
    /// A checksum of the build settings and the source (generator options, or the map's
    /// bytes): a rerun with other settings or an edited map rebuilds the track.
    pub build_key: String,
    /// Wall-clock seconds of the build (the only column that varies between runs).
    pub seconds: f64,
}

impl IndexRow {
    fn new(track: &DatasetTrack, out: &Path, build_key: String) -> Self {
        let (source, seed) = match &track.source {
            TrackSource::Generated(o) => (format!("{MAPS_DIR}/{}.yaml", track.name), Some(o.seed)),
            TrackSource::Map(yaml) => (relative(yaml, out), None),
        };
        IndexRow {
            name: track.name.clone(),
            source,
            seed,
            status: "failed".into(),
            length_m: None,
            width_min_m: None,
            width_mean_m: None,
            width_max_m: None,
            centerline_points: None,
            iqp_lap_s: None,
            iqp_points: None,
            sp_lap_s: None,
            sp_points: None,
            mintime_lap_s: None,
            mintime_points: None,
            error: None,
            message: None,
            mapzoo_version: env!("CARGO_PKG_VERSION").to_string(),
            checksum: None,
            files: BTreeMap::new(),
            build_key,
            seconds: 0.0,
        }
    }

    /// Whether the track built.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// The CSV header of the index.
pub const CSV_COLUMNS: [&str; 21] = [
    "name",
    "source",
    "seed",
    "status",
    "length_m",
    "width_min_m",
    "width_mean_m",
    "width_max_m",
    "centerline_points",
    "iqp_lap_s",
    "iqp_points",
    "sp_lap_s",
    "sp_points",
    "mintime_lap_s",
    "mintime_points",
    "error",
    "message",
    "mapzoo_version",
    "checksum",
    "build_key",
    "seconds",
];

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or(String::new(), ToString::to_string)
}

impl IndexRow {
    /// The row as one CSV line (no newline), in [`CSV_COLUMNS`] order.
    pub fn to_csv(&self) -> String {
        [
            csv_field(&self.name),
            csv_field(&self.source),
            opt(&self.seed),
            self.status.clone(),
            opt(&self.length_m),
            opt(&self.width_min_m),
            opt(&self.width_mean_m),
            opt(&self.width_max_m),
            opt(&self.centerline_points),
            opt(&self.iqp_lap_s),
            opt(&self.iqp_points),
            opt(&self.sp_lap_s),
            opt(&self.sp_points),
            opt(&self.mintime_lap_s),
            opt(&self.mintime_points),
            csv_field(self.error.as_deref().unwrap_or("")),
            csv_field(self.message.as_deref().unwrap_or("")),
            csv_field(&self.mapzoo_version),
            opt(&self.checksum),
            self.build_key.clone(),
            self.seconds.to_string(),
        ]
        .join(",")
    }
}

/// `path` relative to the dataset folder `out` when it lies inside it, else as given.
fn relative(path: &Path, out: &Path) -> String {
    path.strip_prefix(out)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The build key of a track: a checksum of the settings the set records and of its source.
pub fn build_key(track: &DatasetTrack, config: &Config) -> String {
    let req = BuildRequest {
        yaml: PathBuf::new(),
        name: Some(track.name.clone()),
        start: None,
        reverse: false,
    };
    let mut text = toml::to_string(&BuildSettings::of(&req, config).to_table()).unwrap_or_default();
    match &track.source {
        TrackSource::Generated(o) => text.push_str(&format!("\ngenerated {o:?}")),
        TrackSource::Map(yaml) => {
            let bytes = std::fs::read(yaml).unwrap_or_default();
            text.push_str(&format!("\nmap {}", content_hash(&bytes)));
            if let Ok(meta) = MapMeta::read(yaml) {
                let image = std::fs::read(meta.image_path(yaml)).unwrap_or_default();
                text.push_str(&format!(" image {}", content_hash(&image)));
            }
        }
    }
    content_hash(text.as_bytes())
}

/// What became of one track in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Built now.
    Built,
    /// Its set matched its row: left as it was.
    Skipped,
    /// It failed (its row says why).
    Failed,
}

/// The row file of `name`.
pub fn row_path(out: &Path, name: &str) -> PathBuf {
    out.join(ROWS_DIR).join(format!("{name}.json"))
}

/// Reads a row file.
pub fn read_row(path: &Path) -> Result<IndexRow, PipelineError> {
    let meta = std::fs::metadata(path).map_err(|e| PipelineError::io(path, e))?;
    if !meta.is_file() || meta.len() > MAX_ROW_BYTES {
        return Err(PipelineError::input(
            path,
            "is not a row file mapzoo wrote (a small JSON file); remove it and run again",
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| PipelineError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| {
        PipelineError::input(
            path,
            format!("is not a valid row ({e}); remove it and run again"),
        )
    })
}

/// The recorded row of `track` if its set is complete: built by this version with the same
/// build key, and every file of the set there with its recorded checksum.
pub fn complete_row(out: &Path, track: &DatasetTrack, key: &str) -> Option<IndexRow> {
    let row = read_row(&row_path(out, &track.name)).ok()?;
    if !row.ok()
        || row.build_key != key
        || row.name != track.name
        || row.mapzoo_version != env!("CARGO_PKG_VERSION")
        || row.files.is_empty()
    {
        return None;
    }
    let dir = out.join(SETS_DIR).join(&track.name);
    let intact = row.files.iter().all(|(name, hash)| {
        std::fs::read(dir.join(name)).is_ok_and(|bytes| hash_matches(hash, &bytes))
    });
    intact.then_some(row)
}

/// Builds `track` into the dataset folder `out` unless its set is complete; writes its row
/// file (a failure too) and returns the row as the file holds it.
pub fn build_track(out: &Path, track: &DatasetTrack, config: &Config) -> (IndexRow, Outcome) {
    let key = build_key(track, config);
    if let Some(row) = complete_row(out, track, &key) {
        return (row, Outcome::Skipped);
    }
    let t = Instant::now();
    let mut row = IndexRow::new(track, out, key);
    let built = run_caught(|| Ok(build_set(out, track, config, &mut row)));
    row.seconds = t.elapsed().as_secs_f64();
    let failure = match built {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e),
        Err(e) => Some(TrackError::Pipeline(e)),
    };
    if let Some(e) = failure {
        let (kind, message) = e.kind_and_message();
        row.status = "failed".into();
        row.error = Some(kind);
        // Paths inside the dataset folder are named relative to it: a row does not depend
        // on where the folder is.
        let prefix = format!("{}{}", out.display(), std::path::MAIN_SEPARATOR);
        row.message = Some(message.replace(&prefix, ""));
    } else {
        row.status = "ok".into();
    }
    let outcome = if row.ok() {
        Outcome::Built
    } else {
        Outcome::Failed
    };
    // The row as its file holds it (the numbers parsed back), so a later run that reads the
    // file writes the same index bytes.
    let path = row_path(out, &track.name);
    let stored = serde_json::to_string(&row)
        .ok()
        .and_then(|text| {
            std::fs::create_dir_all(out.join(ROWS_DIR)).ok()?;
            mapzoo_format::write_file_atomic(&path, format!("{text}\n").as_bytes()).ok()
        })
        .and_then(|()| read_row(&path).ok());
    (stored.unwrap_or(row), outcome)
}

/// Why a track failed.
enum TrackError {
    Generate(SynthError),
    Pipeline(PipelineError),
}

impl From<PipelineError> for TrackError {
    fn from(e: PipelineError) -> Self {
        TrackError::Pipeline(e)
    }
}

impl From<mapzoo_format::FormatError> for TrackError {
    fn from(e: mapzoo_format::FormatError) -> Self {
        TrackError::Pipeline(e.into())
    }
}

impl TrackError {
    fn kind_and_message(&self) -> (String, String) {
        match self {
            TrackError::Generate(e) => (
                format!("generate.{}", variant_name(&format!("{e:?}"))),
                format!("generate: {e}"),
            ),
            TrackError::Pipeline(e) => (e.kind(), e.to_string()),
        }
    }
}

/// Generates (if so) and builds the track, writes its set as `out/sets/<name>/` (an earlier,
/// incomplete folder of that name is removed first) and fills `row` from it. A stale staged
/// copy in this process's work folder (a killed run of the same pid) is removed too.
fn build_set(
    out: &Path,
    track: &DatasetTrack,
    config: &Config,
    row: &mut IndexRow,
) -> Result<(), TrackError> {
    let sets = out.join(SETS_DIR);
    let dir = sets.join(&track.name);
    if dir.symlink_metadata().is_ok() {
        // The dataset's own folder of a set that did not match its row: rebuilt whole.
        std::fs::remove_dir_all(&dir).map_err(|e| PipelineError::io(&dir, e))?;
    }
    let stale = work_dir(out).join(&track.name);
    if stale.symlink_metadata().is_ok() {
        std::fs::remove_dir_all(&stale).map_err(|e| PipelineError::io(&stale, e))?;
    }
    let yaml = match &track.source {
        TrackSource::Generated(options) => {
            let map = mapzoo_synth::generate(options).map_err(TrackError::Generate)?;
            let maps = out.join(MAPS_DIR);
            std::fs::create_dir_all(&maps).map_err(|e| PipelineError::io(&maps, e))?;
            let [_, yaml] = map.write(&maps, &track.name)?;
            yaml
        }
        TrackSource::Map(yaml) => yaml.clone(),
    };
    let req = BuildRequest {
        yaml,
        name: Some(track.name.clone()),
        start: None,
        reverse: false,
    };
    let set = build(&req, config)?;
    fill_figures(row, &set);
    // Staged whole in this process's work folder, then renamed into place (see `work_dir`).
    let staged = write_set(&set, &work_dir(out), WritePolicy::Create)?;
    std::fs::rename(&staged, &dir).map_err(|e| PipelineError::io(&dir, e))?;
    let toml_path = dir.join(SETTINGS_FILE);
    let toml_bytes = std::fs::read(&toml_path).map_err(|e| PipelineError::io(&toml_path, e))?;
    let record = SetRecord::read(&toml_path)?;
    let checksum = content_hash(&toml_bytes);
    row.files = record.files;
    row.files
        .insert(SETTINGS_FILE.to_string(), checksum.clone());
    row.checksum = Some(checksum);
    Ok(())
}

fn fill_figures(row: &mut IndexRow, set: &TrackSet) {
    let c = &set.extraction.centerline;
    let widths: Vec<f64> = c.iter().map(|w| w.d_left + w.d_right).collect();
    let n = c.len();
    let length: f64 = (0..n)
        .map(|i| {
            let (a, b) = (&c[i], &c[(i + 1) % n]);
            (b.x_m - a.x_m).hypot(b.y_m - a.y_m)
        })
        .sum();
    row.length_m = Some(length);
    if !widths.is_empty() {
        row.width_min_m = Some(widths.iter().copied().fold(f64::INFINITY, f64::min));
        row.width_max_m = Some(widths.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        row.width_mean_m = Some(widths.iter().sum::<f64>() / widths.len() as f64);
    }
    row.centerline_points = Some(n);
    let record = set.record();
    let fig = |k: LineKind| record.line(k).map(|l| (l.lap_s, l.points));
    (row.iqp_lap_s, row.iqp_points) = fig(LineKind::Iqp).unzip();
    (row.sp_lap_s, row.sp_points) = fig(LineKind::Sp).unzip();
    (row.mintime_lap_s, row.mintime_points) = fig(LineKind::Mintime).unzip();
}

/// This machine's name (`/proc/sys/kernel/hostname`; "host" where it cannot be read).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty() && !h.contains(['/', '\\']))
        .unwrap_or_else(|| "host".to_string())
}

/// The folder (inside `sets/`) where this process stages its sets: `.work-<host>-<pid>`. A
/// set is written there whole, then renamed to `sets/<name>`, so the set writer's sweep of
/// stale staging folders only ever looks into this process's own folder, never at the
/// staging folders of other shards writing into `sets/` from other machines.
fn work_dir(out: &Path) -> PathBuf {
    out.join(SETS_DIR)
        .join(format!(".work-{}-{}", host_name(), std::process::id()))
}

/// Whether process `pid` of this machine is gone (`None`: cannot tell without /proc).
fn pid_gone(pid: u32) -> Option<bool> {
    Path::new("/proc/self")
        .exists()
        .then(|| !Path::new(&format!("/proc/{pid}")).exists())
}

/// Removes what killed runs of this shard left in the dataset folder: work folders of this
/// machine's processes that no longer run (`sets/.work-<host>-<pid>`), and the temporary
/// files of atomic writes (`.<file>.tmp-<pid>-<n>`) of this shard's tracks (`names`) and
/// index (`stem`) whose process no longer runs. Files of other shards are never touched: on
/// a shared file system their writers may run on other machines. Returns what was removed.
pub fn sweep(out: &Path, names: &[&str], stem: &str) -> Vec<PathBuf> {
    let mine: std::collections::HashSet<&str> = names.iter().copied().collect();
    let mut removed = Vec::new();
    let host_prefix = format!(".work-{}-", host_name());
    if let Ok(entries) = std::fs::read_dir(out.join(SETS_DIR)) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name
                .strip_prefix(&host_prefix)
                .and_then(|p| p.parse::<u32>().ok());
            if pid.and_then(pid_gone) == Some(true)
                && e.file_type().is_ok_and(|t| t.is_dir())
                && std::fs::remove_dir_all(e.path()).is_ok()
            {
                removed.push(e.path());
            }
        }
    }
    // (folder, the owner of a temporary file named `.<file>.tmp-<pid>-<n>`)
    let owner_in = |dir: &str, file: &str| -> bool {
        match dir {
            "" => file == format!("{stem}.csv") || file == format!("{stem}.jsonl"),
            ROWS_DIR => file.strip_suffix(".json").is_some_and(|t| mine.contains(t)),
            _ => [".png", ".yaml"]
                .iter()
                .any(|ext| file.strip_suffix(ext).is_some_and(|t| mine.contains(t))),
        }
    };
    for dir in ["", ROWS_DIR, MAPS_DIR] {
        let folder = if dir.is_empty() {
            out.to_path_buf()
        } else {
            out.join(dir)
        };
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some((file, rest)) = name.strip_prefix('.').and_then(|n| n.rsplit_once(".tmp-"))
            else {
                continue;
            };
            let pid = rest
                .split_once('-')
                .and_then(|(pid, _)| pid.parse::<u32>().ok());
            if owner_in(dir, file)
                && pid.and_then(pid_gone) == Some(true)
                && e.file_type().is_ok_and(|t| t.is_file())
                && std::fs::remove_file(e.path()).is_ok()
            {
                removed.push(e.path());
            }
        }
    }
    removed.sort();
    removed
}

/// Builds the tracks of `shard` (positions in `tracks`) into `out` on `jobs` threads,
/// calling `done` as each finishes; returns their rows sorted by name. A track whose set is
/// complete is skipped; a failure is a row. What killed runs left is removed first.
pub fn build_shard<D>(
    out: &Path,
    tracks: &[DatasetTrack],
    shard: Shard,
    config: &Config,
    jobs: usize,
    done: D,
) -> Vec<(IndexRow, Outcome)>
where
    D: Fn(&IndexRow, Outcome) + Sync,
{
    let mine: Vec<&DatasetTrack> = tracks
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.holds(*i))
        .map(|(_, t)| t)
        .collect();
    let names: Vec<&str> = mine.iter().map(|t| t.name.as_str()).collect();
    sweep(out, &names, &shard.index_stem());
    let results = run_batch(
        &mine,
        jobs,
        |t| {
            let r = build_track(out, t, config);
            done(&r.0, r.1);
            Ok(r)
        },
        |_, _| {},
    );
    // Empty once every set is renamed into place; left (and swept later) if not.
    let _ = std::fs::remove_dir(work_dir(out));
    let mut rows: Vec<(IndexRow, Outcome)> = results.into_iter().flatten().collect();
    rows.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    rows
}

/// The index texts of `rows` (sorted by name here): CSV with a header, and JSON lines.
pub fn index_texts(rows: &[IndexRow]) -> (String, String) {
    let mut sorted: Vec<&IndexRow> = rows.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let mut csv = CSV_COLUMNS.join(",");
    csv.push('\n');
    let mut jsonl = String::new();
    for r in sorted {
        csv.push_str(&r.to_csv());
        csv.push('\n');
        jsonl.push_str(&serde_json::to_string(r).unwrap_or_default());
        jsonl.push('\n');
    }
    (csv, jsonl)
}

/// Writes `rows` as `out/<stem>.csv` and `out/<stem>.jsonl`, each atomically; returns the
/// two paths.
pub fn write_index(
    out: &Path,
    stem: &str,
    rows: &[IndexRow],
) -> Result<[PathBuf; 2], PipelineError> {
    let (csv, jsonl) = index_texts(rows);
    let paths = [
        out.join(format!("{stem}.csv")),
        out.join(format!("{stem}.jsonl")),
    ];
    mapzoo_format::write_file_atomic(&paths[1], jsonl.as_bytes())?;
    mapzoo_format::write_file_atomic(&paths[0], csv.as_bytes())?;
    Ok(paths)
}

/// Joins the shard indexes `index-K-of-N.jsonl` in `out` (every K of one N must be there)
/// into `index.csv` and `index.jsonl`, the rows read from their row files as an unsharded
/// run reads them, so the result is the unsharded run's index. Returns the rows.
pub fn merge(out: &Path) -> Result<Vec<IndexRow>, PipelineError> {
    let mut shards: BTreeMap<usize, Vec<(usize, PathBuf)>> = BTreeMap::new();
    let entries = std::fs::read_dir(out).map_err(|e| PipelineError::io(out, e))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(middle) = name
            .strip_prefix("index-")
            .and_then(|n| n.strip_suffix(".jsonl"))
        else {
            continue;
        };
        if let Some((k, n)) = middle.split_once("-of-") {
            if let (Ok(k), Ok(n)) = (k.parse::<usize>(), n.parse::<usize>()) {
                shards.entry(n).or_default().push((k, e.path()));
            }
        }
    }
    if shards.is_empty() {
        return Err(PipelineError::input(
            out,
            "holds no shard index (index-K-of-N.jsonl); run `dataset build --shard K/N` into it first",
        ));
    }
    if shards.len() > 1 {
        let counts: Vec<String> = shards.keys().map(|n| n.to_string()).collect();
        return Err(PipelineError::input(
            out,
            format!(
                "holds shard indexes of {} different shard counts ({}); remove the stale ones",
                counts.len(),
                counts.join(", ")
            ),
        ));
    }
    let Some((n, mut parts)) = shards.into_iter().next() else {
        return Ok(Vec::new());
    };
    parts.sort();
    let missing: Vec<String> = (1..=n)
        .filter(|k| !parts.iter().any(|(p, _)| p == k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(PipelineError::input(
            out,
            format!(
                "shard {} not built yet (no index-K-of-{n}.jsonl); run `dataset build --shard K/{n}` for it",
                missing.join(", ")
            ),
        ));
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut rows: Vec<String> = Vec::new();
    for (k, path) in parts {
        let text = std::fs::read_to_string(&path).map_err(|e| PipelineError::io(&path, e))?;
        for (line_no, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| {
                PipelineError::input(
                    &path,
                    format!("line {}: not JSON ({e}); rebuild the shard", line_no + 1),
                )
            })?;
            let Some(name) = v.get("name").and_then(|n| n.as_str()) else {
                return Err(PipelineError::input(
                    &path,
                    format!("line {}: no \"name\"; rebuild the shard", line_no + 1),
                ));
            };
            if let Some(other) = seen.insert(name.to_string(), k) {
                return Err(PipelineError::input(
                    &path,
                    format!("track {name:?} is in shard {other}/{n} too; were the shards built from one track list?"),
                ));
            }
            rows.push(name.to_string());
        }
    }
    index_of(out, "index", &rows)
}

/// Writes the index `out/<stem>.csv` and `.jsonl` of the tracks `names` from their row files
/// (as [`build_shard`] left them), sorted by name; returns the rows. Every path that writes
/// an index (one process, shards merged, tasks of a Python executor) goes through the row
/// files, so they all write the same bytes.
pub fn index_of(out: &Path, stem: &str, names: &[String]) -> Result<Vec<IndexRow>, PipelineError> {
    let mut rows = names
        .iter()
        .map(|name| read_row(&row_path(out, name)))
        .collect::<Result<Vec<_>, _>>()?;
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    write_index(out, stem, &rows)?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_disjoint_and_cover_the_list() {
        for n in 1..6 {
            for i in 0..40 {
                let holders = (1..=n)
                    .filter(|&k| Shard { index: k, count: n }.holds(i))
                    .count();
                assert_eq!(holders, 1, "track {i} of {n} shards");
            }
        }
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "-1/2"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("K/N") && err.contains(bad), "{err}");
        }
        assert_eq!(Shard::ALL.index_stem(), "index");
        assert_eq!("2/4".parse::<Shard>().unwrap().index_stem(), "index-2-of-4");
    }

    #[test]
    fn generated_track_i_does_not_depend_on_the_count() {
        let base = SynthOptions::default();
        let few = generated_tracks(&base, 7, 3).unwrap();
        let many = generated_tracks(&base, 7, 10).unwrap();
        assert_eq!(few[..], many[..3]);
        assert_eq!(many[4].name, "synth11");
        assert!(matches!(&many[4].source, TrackSource::Generated(o) if o.seed == 11));
        assert!(generated_tracks(&base, u64::MAX, 2).is_err());
    }

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
