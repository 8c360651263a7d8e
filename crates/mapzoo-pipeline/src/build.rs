//! `build`: one occupancy map → one complete MapZoo set (DESIGN §3, stages
//! 1–12), and the writer that lays the set out on disk atomically (§2, §3.12).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use mapzoo_extract::Extraction;
use mapzoo_format::global::JsonSection;
use mapzoo_format::set::layout::{IQP_LINE, MINTIME_LINE, RACING_LINE};
use mapzoo_format::set::{CentMap, EncodedAhead, MapFile, TrackFiles, WritePolicy};
use mapzoo_format::{
    Flavor, FormatError, FreeRule, GlobalParts, GlobalWaypoints, LineParts, MapMeta, OccupancyMap,
    OtSectors, SpeedScaling, Waypoint,
};
use mapzoo_raceline::{LineKind, RacelineRecord, RacelineResult, RacingLine, Stage, Walls};

use crate::config::{Config, SectorDefaults};
use crate::error::PipelineError;
use crate::request::BuildRequest;
use crate::settings::BuildSettings;

/// Checks that `name` can name a track folder and its files: not empty, no
/// path separator, not `.` or `..`, no leading dot (hidden, and our staging prefix).
pub(crate) fn check_track_name(name: &str) -> Result<(), PipelineError> {
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.contains(['/', '\\'])
        || name.chars().any(char::is_control);
    if bad {
        return Err(PipelineError::TrackName {
            name: name.to_string(),
        });
    }
    if name.len() > MAX_TRACK_NAME_BYTES {
        return Err(PipelineError::TrackNameTooLong {
            bytes: name.len(),
            limit: MAX_TRACK_NAME_BYTES,
        });
    }
    Ok(())
}

/// Longest track name, bytes: its longest file name in a set's staging folder,
/// `.<name>_racing_line.csv.tmp-<pid>-<n>`, adds about 45 bytes, and file systems allow 255.
pub const MAX_TRACK_NAME_BYTES: usize = 200;

/// A complete track set in memory, ready to be written.
#[derive(Debug, Clone)]
pub struct TrackSet {
    /// Track name.
    pub name: String,
    /// Map metadata (its `image` is rewritten to `<name>.png` on output).
    pub meta: MapMeta,
    /// The map image as read, written back byte for byte.
    pub png: Vec<u8>,
    /// The classified map.
    pub map: OccupancyMap,
    /// Centerline, walls and the cleaned track mask.
    pub extraction: Extraction,
    /// The racing lines with speeds and lap times.
    pub lines: RacelineResult,
    /// speed_scaling.yaml.
    pub speed_scaling: SpeedScaling,
    /// ot_sectors.yaml.
    pub ot_sectors: OtSectors,
    /// Seconds per stage, in pipeline order.
    pub timings: Vec<(String, f64)>,
    /// How it was built (written as the set's `mapzoo.toml`).
    pub settings: BuildSettings,
    /// Files encoded while the set was built ([`build_for_writing`]), used by its writers
    /// where the set still holds what they were encoded from; empty otherwise.
    pub ahead: EncodedAhead,
}

/// The summary of one built track (the `--json` record of `build`): the racing-line record
/// of the set, with the build's stage timings.
pub type BuildRecord = RacelineRecord;

impl TrackSet {
    /// The summary record.
    pub fn record(&self) -> BuildRecord {
        let mut record = self.lines.record(
            &self.name,
            self.extraction.centerline.len(),
            self.timings.iter().map(|(_, t)| t).sum(),
        );
        record.stages = self.timings.clone();
        record
    }

    /// The global_waypoints.json of this set.
    pub fn global_waypoints(&self) -> GlobalWaypoints {
        self.lines.global_waypoints(&self.extraction.centerline)
    }
}

/// Fresh sector files over a racing line of `n` points (one sector each, DESIGN §2.4).
pub(crate) fn default_sectors(n: usize, d: &SectorDefaults) -> (SpeedScaling, OtSectors) {
    let mut speed = SpeedScaling::single(n, d.global_limit, d.scaling);
    for s in &mut speed.sectors {
        s.only_ftg = d.only_ftg;
        s.no_ftg = d.no_ftg;
    }
    let mut ot = OtSectors::single(n);
    ot.yeet_factor = d.yeet_factor;
    ot.spline_len = d.spline_len;
    ot.ot_sector_begin = d.ot_sector_begin;
    for s in &mut ot.sectors {
        s.ot_flag = d.ot_flag;
    }
    (speed, ot)
}

/// A map as read from disk: its YAML, its PNG bytes and the classified grid.
#[derive(Debug, Clone)]
pub struct LoadedMap {
    /// The map-server YAML.
    pub meta: MapMeta,
    /// The PNG bytes as read (written back unchanged); a PGM or BMP re-encoded as PNG.
    pub png: Vec<u8>,
    /// The classified pixels.
    pub map: OccupancyMap,
}

impl LoadedMap {
    /// Reads `yaml` and its image, classifying pixels with `rule` (stage 1); a map wider than
    /// 100 km (pixels × resolution) is refused before any stage allocates from it.
    pub fn read(yaml: &Path, rule: FreeRule) -> Result<Self, PipelineError> {
        if yaml.is_dir() {
            return Err(PipelineError::input(
                yaml,
                "is a folder; give the map-server YAML of a map (its `image` names the PNG)",
            ));
        }
        if !yaml.exists() {
            // an I/O error (a missing file), worded with what to give
            return Err(PipelineError::io(
                yaml,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file; give the map-server YAML of a map (its `image` names the PNG)",
                ),
            ));
        }
        let meta = MapMeta::read(yaml)?;
        let image = meta.image_path(yaml);
        let png = mapzoo_format::read_image_file(&image).map_err(|e| match e {
            FormatError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                PipelineError::input(
                    yaml,
                    format!(
                        "field \"image\" names {:?}, which does not exist ({}); fix the name or put the PNG beside the YAML",
                        meta.image,
                        mapzoo_format::shown_path(&image)
                    ),
                )
            }
            other => other.into(),
        })?;
        let mut map = OccupancyMap::from_png_bytes(&png, &image, &meta, rule)?;
        crate::input_check::check_map_extent(yaml, &map)?;
        map.name_yaml_in_notes(&image, yaml);
        // A PGM or BMP map goes into the set as a real PNG of the same pixels.
        let png = mapzoo_format::image_as_png(&png, &image)?.into_owned();
        Ok(LoadedMap { meta, png, map })
    }
}

/// Runs stages 2–11 on a loaded map; `req` gives the name, start and direction.
pub fn build_map(
    req: &BuildRequest,
    loaded: LoadedMap,
    config: &Config,
) -> Result<TrackSet, PipelineError> {
    build_map_with(req, loaded, config, Remedy::Search)
}

/// Whether a failed racing-line stage searches for the settings that would build
/// (`OptimizeError::hint`); a caller trying many settings does not need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Remedy {
    Search,
    Skip,
}

/// [`build_map`], searching for a remedy on failure or not.
pub(crate) fn build_map_with(
    req: &BuildRequest,
    loaded: LoadedMap,
    config: &Config,
    remedy: Remedy,
) -> Result<TrackSet, PipelineError> {
    build_map_encoding(req, loaded, config, remedy, None)
}

/// [`build_map_with`]; with `ahead`, the files are encoded in that flavour as the stages make
/// them final, on a second thread beside the racing-line stages ([`TrackSet::ahead`]).
fn build_map_encoding(
    req: &BuildRequest,
    loaded: LoadedMap,
    config: &Config,
    remedy: Remedy,
    ahead: Option<Flavor>,
) -> Result<TrackSet, PipelineError> {
    let LoadedMap { meta, png, map } = loaded;
    let image = meta.image_path(&req.yaml);
    crate::input_check::check_map_extent(&req.yaml, &map)?;
    if let Some(start) = &req.start {
        crate::input_check::check_start(&req.yaml, &map, start)?;
    }
    let t = Instant::now();
    // The loop passes each obstacle on a side at least a safety width wide.
    let extract = mapzoo_extract::ExtractParams {
        min_passage_m: config
            .raceline
            .safety_width
            .max(config.raceline.safety_width_sp),
        ..config.extract.clone()
    };
    let extraction =
        mapzoo_extract::extract(&map, &extract, req.start, req.reverse).map_err(|source| {
            PipelineError::Extract {
                path: image.clone(),
                source,
            }
        })?;
    let t_extract = t.elapsed().as_secs_f64();
    let walls = Walls {
        right: extraction.right_wall.clone(),
        left: extraction.left_wall.clone(),
        obstacles: extraction.obstacles.clone(),
    };
    let t = Instant::now();
    let compute = || compute_lines_with(&extraction.centerline, Some(&walls), config, remedy);
    let (lines, ahead) = match ahead {
        None => (compute(), EncodedAhead::default()),
        Some(flavor) => std::thread::scope(|scope| {
            let (meta, map, extraction) = (&meta, &map, &extraction);
            let early = scope.spawn(move || encode_ahead(meta, map, extraction, flavor));
            // the IQP line's files are encoded as soon as it is done, beside the SP
            let done = Arc::new(Mutex::new(EncodedAhead::default()));
            let sink = Arc::clone(&done);
            let watcher = Arc::new(move |line: &RacingLine| {
                let encoded = encode_line_ahead(line, flavor);
                if let Ok(mut held) = sink.lock() {
                    held.extend(encoded);
                }
            });
            let lines = mapzoo_raceline::progress::watch_lines(watcher, compute);
            let mut ahead = early
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            if let Ok(mut done) = done.lock() {
                ahead.extend(std::mem::take(&mut *done));
            }
            (lines, ahead)
        }),
    };
    let lines = lines.map_err(|source| PipelineError::Optimize {
        path: req.yaml.clone(),
        source,
    })?;
    let t_raceline = t.elapsed().as_secs_f64();
    let (speed_scaling, ot_sectors) =
        default_sectors(lines.racing_line().waypoints.len(), &config.sectors);
    let mut timings: Vec<(String, f64)> = Vec::new();
    if extraction.timings.is_empty() {
        timings.push(("extract".into(), t_extract));
    } else {
        timings.extend(extraction.timings.iter().map(|(k, v)| (k.to_string(), *v)));
    }
    if lines.timings.is_empty() {
        timings.push(("raceline".into(), t_raceline));
    } else {
        // "total" repeats the sum of the others.
        timings.extend(
            lines
                .timings
                .iter()
                .filter(|(k, _)| *k != Stage::Total)
                .map(|(k, v)| (k.to_string(), *v)),
        );
    }
    Ok(TrackSet {
        name: req.track_name(),
        meta,
        png,
        map,
        extraction,
        lines,
        speed_scaling,
        ot_sectors,
        timings,
        settings: BuildSettings::of(req, config),
        ahead,
    })
}

/// What a set's files hold before its racing lines exist, encoded in `flavor`: the track-only
/// map's PNG, the centerline CSV, and global_waypoints.json's centerline and track-bound
/// sections (two thirds of its bytes).
fn encode_ahead(
    meta: &MapMeta,
    map: &OccupancyMap,
    extraction: &Extraction,
    flavor: Flavor,
) -> EncodedAhead {
    let mut ahead = EncodedAhead::default();
    let mut global = GlobalWaypoints::build(GlobalParts {
        centerline: extraction.centerline.clone(),
        lines: Vec::new(),
        right_bound: extraction.right_wall.clone(),
        left_bound: extraction.left_wall.clone(),
    });
    global.set_flavor(flavor);
    ahead.add_global(global, &[JsonSection::Centerline, JsonSection::Trackbounds]);
    ahead.add_csv(&extraction.centerline);
    ahead.add_cent_map(&cent_map(meta, map, extraction));
    ahead
}

/// A finished racing line's files, encoded in `flavor`: its CSV and its section of
/// global_waypoints.json.
fn encode_line_ahead(line: &RacingLine, flavor: Flavor) -> EncodedAhead {
    let mut ahead = EncodedAhead::default();
    if line.kind.in_global_waypoints() {
        let mut global = GlobalWaypoints::build(GlobalParts {
            lines: vec![LineParts {
                kind: line.kind,
                wpnts: line.waypoints.clone(),
                lap_time_s: line.lap_time_s,
                max_speed_mps: line.v_max,
            }],
            ..GlobalParts::default()
        });
        global.set_flavor(flavor);
        ahead.add_global(global, &[JsonSection::Line(line.kind)]);
    }
    ahead.add_csv(&line.waypoints);
    ahead
}

/// The racing lines of `config.lines` from a centerline (stages 7–11), the configured one
/// driven ([`RacelineResult::drive`]).
pub fn compute_lines(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    config: &Config,
) -> Result<RacelineResult, mapzoo_raceline::OptimizeError> {
    compute_lines_with(centerline, walls, config, Remedy::Search)
}

/// [`compute_lines`], searching for a remedy on failure or not.
pub(crate) fn compute_lines_with(
    centerline: &[Waypoint],
    walls: Option<&Walls>,
    config: &Config,
    remedy: Remedy,
) -> Result<RacelineResult, mapzoo_raceline::OptimizeError> {
    let (params, kinds) = (&config.raceline, &config.lines.compute);
    let mut lines = match remedy {
        Remedy::Search => mapzoo_raceline::compute_lines(centerline, walls, params, kinds)?,
        Remedy::Skip => mapzoo_raceline::compute_lines_once(centerline, walls, params, kinds)?,
    };
    lines.drive(config.lines.racing_line)?;
    Ok(lines)
}

/// Loads the map of `req` with the configured free-space rule and builds it.
pub fn build(req: &BuildRequest, config: &Config) -> Result<TrackSet, PipelineError> {
    build_with(req, config, Remedy::Search)
}

/// [`build`] for a set about to be written in `flavor` (its settings say so): its files are
/// encoded as the stages make them final, on a second thread beside the racing-line stages
/// ([`TrackSet::ahead`]), so that little is left to encode when it is written. The files
/// written are the same bytes as those of [`build`] with the same flavour.
pub fn build_for_writing(
    req: &BuildRequest,
    config: &Config,
    flavor: Flavor,
) -> Result<TrackSet, PipelineError> {
    let mut set = build_encoding(req, config, Remedy::Search, Some(flavor))?;
    set.settings.flavor = flavor;
    Ok(set)
}

/// [`build`], searching for a remedy on failure or not.
pub(crate) fn build_with(
    req: &BuildRequest,
    config: &Config,
    remedy: Remedy,
) -> Result<TrackSet, PipelineError> {
    build_encoding(req, config, remedy, None)
}

/// [`build_with`], encoding the files ahead in a flavour or not ([`build_map_encoding`]).
fn build_encoding(
    req: &BuildRequest,
    config: &Config,
    remedy: Remedy,
    ahead: Option<Flavor>,
) -> Result<TrackSet, PipelineError> {
    check_track_name(&req.track_name())?;
    let t = Instant::now();
    let loaded = LoadedMap::read(&req.yaml, config.map.free_rule)?;
    let t_load = t.elapsed().as_secs_f64();
    let mut set = build_map_encoding(req, loaded, config, remedy, ahead)?;
    set.timings.insert(0, ("load".into(), t_load));
    Ok(set)
}

impl TrackSet {
    /// The files of the set in memory, as its folder holds them (DESIGN §2), the Race Stack
    /// files in the flavour of its settings (`settings.flavor`, ROS 1 unless set).
    pub fn files(&self) -> TrackFiles {
        let mut files = set_files(self);
        files.set_flavor(self.settings.flavor);
        files
    }
}

/// The track-only map of a set: the cleaned track free (254), all else occupied.
fn cent_map(meta: &MapMeta, map: &OccupancyMap, extraction: &Extraction) -> CentMap {
    let gray = extraction
        .track_free
        .iter()
        .map(|&f| if f { 254 } else { 0 })
        .collect();
    CentMap {
        meta: meta.clone(),
        width: map.width,
        height: map.height,
        gray,
    }
}

fn set_files(set: &TrackSet) -> TrackFiles {
    TrackFiles {
        track: set.name.clone(),
        map: Some(MapFile {
            meta: set.meta.clone(),
            image: set.png.clone(),
        }),
        cent_map: Some(cent_map(&set.meta, &set.map, &set.extraction)),
        centerline: Some(set.extraction.centerline.clone()),
        lines: set_lines(&set.lines),
        global: Some(set.global_waypoints()),
        speed_scaling: Some(set.speed_scaling.clone()),
        ot_sectors: Some(set.ot_sectors.clone()),
        record: Some(set.settings.record(&set.name)),
    }
}

/// The line CSVs of a set besides the SP's (which only the JSON carries): the driven line as
/// `<T>_racing_line.csv`, the min-time line as `<T>_mintime.csv` if computed, and the IQP line
/// as `<T>_iqp.csv` when another line is driven.
pub(crate) fn set_lines(lines: &RacelineResult) -> Vec<(String, Vec<Waypoint>)> {
    let mut out = vec![(
        RACING_LINE.to_string(),
        lines.racing_line().waypoints.clone(),
    )];
    if let Some(l) = lines.line(LineKind::Mintime) {
        out.push((MINTIME_LINE.to_string(), l.waypoints.clone()));
    }
    if lines.racing != LineKind::Iqp {
        out.push((
            IQP_LINE.to_string(),
            lines.waypoints(LineKind::Iqp).to_vec(),
        ));
    }
    out
}

/// Writes `set` as `out/<name>/`, atomically, as `policy` says (`true`/`false`: a `force` flag),
/// in the flavour of its settings.
pub fn write_set(
    set: &TrackSet,
    out: &Path,
    policy: impl Into<WritePolicy>,
) -> Result<PathBuf, PipelineError> {
    write_set_as(set, out, policy, set.settings.flavor)
}

/// [`write_set`] with the Race Stack files (JSON, sector files) in `flavor`.
pub fn write_set_as(
    set: &TrackSet,
    out: &Path,
    policy: impl Into<WritePolicy>,
    flavor: Flavor,
) -> Result<PathBuf, PipelineError> {
    check_track_name(&set.name)?;
    let mut files = set.files();
    files.set_flavor(flavor);
    let written = files
        .write_with(&out.join(&set.name), policy.into(), &set.ahead)
        .map_err(write_error)?;
    Ok(written.dir)
}

/// A set writer's error as the pipeline reports it: an existing folder says how to replace it.
pub(crate) fn write_error(e: FormatError) -> PipelineError {
    match e {
        FormatError::Exists { path } => PipelineError::Exists(path),
        other => PipelineError::Format(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that cannot name a folder is its own error kind, worded as before it had one.
    #[test]
    fn bad_track_names_are_a_matchable_kind() {
        for name in ["", ".hidden", "a/b", "a\\b", "tab\t"] {
            let err = check_track_name(name).unwrap_err();
            assert!(matches!(&err, PipelineError::TrackName { name: n } if n == name));
            assert_eq!(
                err.to_string(),
                format!("<command line>: track name {name:?} cannot name a folder; a track name is not empty, does not start with '.', and has no '/', '\\' or control characters (e.g. Austin_2 or f-1)")
            );
        }
        assert!(check_track_name("Austin_2").is_ok());
    }

    /// A YAML naming an absent image is an input error naming the YAML.
    #[test]
    fn missing_image_is_an_input_error() {
        let tmp = tempfile::tempdir().unwrap();
        let yaml = tmp.path().join("m.yaml");
        std::fs::write(
            &yaml,
            "image: gone.png\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
        )
        .unwrap();
        let err = LoadedMap::read(&yaml, FreeRule::MapServer).unwrap_err();
        match &err {
            PipelineError::Input { path, what, .. } => {
                assert_eq!(path, &yaml);
                assert!(what.contains("gone.png"), "{what}");
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }
}
