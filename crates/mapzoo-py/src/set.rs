//! `RawSet`: a track set held in Rust (the files it writes, the lines it shows, its map and
//! walls); the Python `mapzoo.TrackSet` wraps it with DataFrames and numpy arrays.

use std::path::{Path, PathBuf};

use mapzoo_format::set::layout::{
    line_csv, GLOBAL_WAYPOINTS, IQP_LINE, MINTIME_LINE, RACING_LINE, SP_LINE,
};
use mapzoo_format::set::{CentMap, MapFile, MapYaml};
use mapzoo_format::{
    read_centerline_any, read_waypoint_csv, waypoints_from_csv_str, waypoints_to_csv_string,
    FormatError, FreeRule, GlobalWaypoints, LineKind, OccupancyMap, OtSectors, SetFolder,
    SpeedScaling, TrackFiles, Waypoint, WritePolicy, WAYPOINT_CSV_COLUMNS,
};
use mapzoo_pipeline::{BuildRecord, PipelineError, TrackSet};
use mapzoo_raceline::RacelineResult;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::error::{detached, Failure};

/// The map image of a set.
#[derive(Debug, Clone)]
pub struct MapImage {
    width: usize,
    height: usize,
    gray: Vec<u8>,
    resolution: f64,
    origin: [f64; 3],
}

impl MapImage {
    fn of(map: &OccupancyMap) -> Self {
        MapImage {
            width: map.width,
            height: map.height,
            gray: map.gray.clone(),
            resolution: map.resolution,
            origin: map.origin,
        }
    }
}

/// Lap time and top speed of one line.
#[derive(Debug, Clone, Copy)]
struct Figures {
    lap_s: Option<f64>,
    vmax: Option<f64>,
}

/// A track set: built, computed from a centerline, or read from a folder.
#[pyclass(frozen, module = "mapzoo._mapzoo")]
pub struct RawSet {
    name: String,
    /// What `write` writes.
    files: TrackFiles,
    /// The lines as the set's files hold them: `centerline`, `iqp`, `sp` (CSV when the set has
    /// the CSV, else the JSON's), and `json:<line>` for the JSON's waypoints.
    lines: Vec<(String, Vec<Waypoint>)>,
    figures: Vec<(&'static str, Figures)>,
    walls: Option<[Vec<[f64; 2]>; 2]>,
    map: Option<MapImage>,
    record: Option<BuildRecord>,
    warnings: Vec<String>,
    dir: Option<PathBuf>,
}

/// `line` as its CSV holds it: written with 8 decimals and read back.
fn as_written(line: &[Waypoint], name: &str) -> Result<Vec<Waypoint>, Failure> {
    Ok(waypoints_from_csv_str(
        &waypoints_to_csv_string(line),
        Path::new(name),
    )?)
}

fn json_lines(g: &GlobalWaypoints) -> Vec<(String, Vec<Waypoint>)> {
    vec![
        ("json:centerline".into(), g.centerline.wpnts.clone()),
        ("json:iqp".into(), g.iqp.wpnts.clone()),
        ("json:sp".into(), g.sp.wpnts.clone()),
    ]
}

fn line_figures(lines: &RacelineResult) -> Vec<(&'static str, Figures)> {
    lines
        .lines
        .iter()
        .map(|l| {
            (
                l.kind.name(),
                Figures {
                    lap_s: Some(l.lap_time_s),
                    vmax: Some(l.v_max),
                },
            )
        })
        .collect()
}

/// The min-time line as its CSV holds it, if the result has one.
fn mintime_line(lines: &RacelineResult) -> Result<Option<(String, Vec<Waypoint>)>, Failure> {
    let kind = LineKind::Mintime;
    lines
        .line(kind)
        .map(|l| {
            Ok((
                kind.name().to_string(),
                as_written(&l.waypoints, kind.name())?,
            ))
        })
        .transpose()
}

/// Lap time (TUM `calc_t_profile`) and top speed of a closed trajectory as a CSV holds it.
fn csv_figures(line: &[Waypoint]) -> Figures {
    if line.len() < 2 {
        return Figures {
            lap_s: None,
            vmax: None,
        };
    }
    let el: Vec<f64> = line.windows(2).map(|w| w[1].s_m - w[0].s_m).collect();
    let vx: Vec<f64> = line.iter().map(|w| w.vx_mps).collect();
    let ax: Vec<f64> = line.iter().map(|w| w.ax_mps2).collect();
    Figures {
        lap_s: Some(mapzoo_raceline::lap_time(&vx, &ax, &el)),
        vmax: vx.iter().copied().reduce(f64::max),
    }
}

impl RawSet {
    /// A set the pipeline built from a map.
    pub fn built(set: &TrackSet) -> Result<Self, Failure> {
        let files = set.files();
        let global = set.global_waypoints();
        let mut lines = vec![
            (
                "centerline".to_string(),
                as_written(&set.extraction.centerline, "centerline")?,
            ),
            (
                "iqp".to_string(),
                as_written(&set.lines[LineKind::Iqp].waypoints, "iqp")?,
            ),
            ("sp".to_string(), global.sp.wpnts.clone()),
        ];
        lines.extend(mintime_line(&set.lines)?);
        lines.extend(json_lines(&global));
        Ok(RawSet {
            name: set.name.clone(),
            files,
            lines,
            figures: line_figures(&set.lines),
            walls: Some([
                set.extraction.right_wall.clone(),
                set.extraction.left_wall.clone(),
            ]),
            map: Some(MapImage::of(&set.map)),
            record: Some(set.record()),
            warnings: set.lines.warnings.clone(),
            dir: None,
        })
    }

    /// The racing lines of a centerline (`mapzoo raceline`): the files it writes.
    pub fn from_raceline(
        track: &str,
        centerline: &[Waypoint],
        result: &RacelineResult,
        seconds: f64,
    ) -> Result<Self, Failure> {
        let files = mapzoo_pipeline::line_files(track, centerline, result);
        let global = result.global_waypoints(centerline);
        let mut lines = vec![
            (
                "centerline".to_string(),
                as_written(centerline, "centerline")?,
            ),
            (
                "iqp".to_string(),
                as_written(&result[LineKind::Iqp].waypoints, "iqp")?,
            ),
            (
                "sp".to_string(),
                as_written(&result[LineKind::Sp].waypoints, "sp")?,
            ),
        ];
        lines.extend(mintime_line(result)?);
        lines.extend(json_lines(&global));
        Ok(RawSet {
            name: track.to_string(),
            files,
            lines,
            figures: line_figures(result),
            walls: Some([result.walls.right.clone(), result.walls.left.clone()]),
            map: None,
            record: Some(result.record(track, centerline.len(), seconds)),
            warnings: result.warnings.clone(),
            dir: None,
        })
    }

    /// A set folder as published: MapZoo (CSVs, map, sector files) or Race Stack
    /// (global_waypoints.json, map, sector files), ROS 1 or ROS 2 sector files.
    pub fn read(dir: &Path) -> Result<Self, Failure> {
        if !dir.is_dir() {
            return Err(Failure::new(
                "InputError",
                format!(
                    "{}: not a folder; give a track folder (MapZoo or Race Stack layout)",
                    dir.display()
                ),
                Some(dir.to_path_buf()),
            ));
        }
        let folder = SetFolder::open(dir)?;
        let track = folder.track().to_string();
        let mut files = TrackFiles::new(&track);
        let mut lines: Vec<(String, Vec<Waypoint>)> = Vec::new();
        let mut figures = Vec::new();
        let mut walls = None;
        if let Some(f) = folder.centerline_csv() {
            let c = read_centerline_any(&folder.path(f))?;
            files.centerline = Some(c.clone());
            lines.push(("centerline".into(), c));
        }
        // A set that drives another line than the IQP (`--racing-line mintime`) has the IQP
        // line as <T>_iqp.csv; its racing-line CSV is then the line "racing_line".
        let iqp_csv = folder.path(&line_csv(&track, IQP_LINE));
        let drives_other = iqp_csv.is_file();
        if let Some(f) = folder.racing_line_csv() {
            let l = read_waypoint_csv(&folder.path(f))?;
            files.lines.push((RACING_LINE.into(), l.clone()));
            if drives_other {
                lines.push((RACING_LINE.into(), l));
            } else {
                figures.push((LineKind::Iqp.name(), csv_figures(&l)));
                lines.push(("iqp".into(), l));
            }
        }
        for (kind, name) in [(LineKind::Iqp, IQP_LINE), (LineKind::Mintime, MINTIME_LINE)] {
            let path = folder.path(&line_csv(&track, name));
            if (kind != LineKind::Iqp || drives_other) && path.is_file() {
                let l = read_waypoint_csv(&path)?;
                figures.push((kind.name(), csv_figures(&l)));
                files.lines.push((name.into(), l.clone()));
                lines.push((kind.name().into(), l));
            }
        }
        if let Some(f) = folder.find(&format!("_{SP_LINE}.csv")).map(str::to_string) {
            let l = read_waypoint_csv(&folder.path(&f))?;
            figures.push((LineKind::Sp.name(), csv_figures(&l)));
            files.lines.push((SP_LINE.into(), l.clone()));
            lines.push(("sp".into(), l));
        }
        if folder.has(GLOBAL_WAYPOINTS) {
            let g = GlobalWaypoints::read(&folder.path(GLOBAL_WAYPOINTS))?;
            for (name, w) in [
                ("centerline", &g.centerline.wpnts),
                ("iqp", &g.iqp.wpnts),
                ("sp", &g.sp.wpnts),
            ] {
                if !lines.iter().any(|(n, _)| n == name) {
                    lines.push((name.into(), w.clone()));
                }
            }
            lines.extend(json_lines(&g));
            let info = &g.map_info;
            // The JSON's figures replace the CSVs', the IQP slot's only when it holds the IQP
            // line.
            let mut put = |kind: LineKind, f: Figures| match figures
                .iter_mut()
                .find(|(k, _)| *k == kind.name())
            {
                Some(entry) => entry.1 = f,
                None => figures.push((kind.name(), f)),
            };
            if !drives_other {
                put(
                    LineKind::Iqp,
                    Figures {
                        lap_s: info.iqp_lap_time_s,
                        vmax: info.iqp_max_speed_mps,
                    },
                );
            }
            put(
                LineKind::Sp,
                Figures {
                    lap_s: info.sp_lap_time_s.or(g.est_lap_time),
                    vmax: info.sp_max_speed_mps,
                },
            );
            let (right, left) = (g.right_bound(), g.left_bound());
            if !right.is_empty() || !left.is_empty() {
                walls = Some([right, left]);
            }
            files.global = Some(g);
        }
        figures.sort_by_key(|(k, _)| LineKind::EVERY.iter().position(|e| e.name() == *k));
        if lines.is_empty() {
            return Err(Failure::new(
                "InputError",
                format!(
                    "{}: no centerline CSV and no {GLOBAL_WAYPOINTS}: not a track set",
                    dir.display()
                ),
                Some(dir.to_path_buf()),
            ));
        }
        files.speed_scaling = folder.read_speed_scaling()?;
        files.ot_sectors = folder.read_ot_sectors()?;
        let mut map = None;
        if let MapYaml::Found(yaml) = folder.map_yaml() {
            let path = folder.path(&yaml);
            let (meta, occupancy) = OccupancyMap::load(&path, FreeRule::MapServer)?;
            let png = meta.image_path(&path);
            let image = mapzoo_format::read_image_file(&png)?;
            map = Some(MapImage::of(&occupancy));
            files.map = Some(MapFile { meta, image });
        }
        let cent_yaml = folder.path(&format!("{track}-cent.yaml"));
        if cent_yaml.is_file() {
            let (meta, cent) = OccupancyMap::load(&cent_yaml, FreeRule::MapServer)?;
            files.cent_map = Some(CentMap {
                meta,
                width: cent.width,
                height: cent.height,
                gray: cent.gray,
            });
        }
        Ok(RawSet {
            name: track,
            files,
            lines,
            figures,
            walls,
            map,
            record: None,
            warnings: Vec::new(),
            dir: Some(dir.to_path_buf()),
        })
    }
}

fn f64_bytes<'py>(py: Python<'py>, values: impl Iterator<Item = f64>) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flat_map(f64::to_le_bytes).collect();
    PyBytes::new(py, &bytes)
}

/// Keys of a sector file this crate does not know, as their YAML text.
fn sector_extra(d: &Bound<'_, PyDict>, extra: &[(String, serde_yaml_ng::Value)]) -> PyResult<()> {
    for (k, v) in extra {
        let text = serde_yaml_ng::to_string(v).unwrap_or_default();
        d.set_item(k, text.trim_end())?;
    }
    Ok(())
}

#[pymethods]
impl RawSet {
    /// Track name (the folder's name and the prefix of its files).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The folder the set was read from, if it was read.
    #[getter]
    fn folder(&self) -> Option<String> {
        self.dir.as_ref().map(|d| d.display().to_string())
    }

    /// The CSV column names, in file order.
    #[staticmethod]
    fn columns() -> Vec<&'static str> {
        WAYPOINT_CSV_COLUMNS.to_vec()
    }

    /// Names of the lines held (`centerline`, `iqp`, `sp`, `json:<line>`).
    fn line_names(&self) -> Vec<String> {
        self.lines.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Line `name` as `(n, ids as little-endian int64 bytes, n × 10 little-endian float64 bytes)`.
    fn line<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> Option<(usize, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let (_, w) = self.lines.iter().find(|(n, _)| n == name)?;
        let ids: Vec<u8> = w.iter().flat_map(|p| p.id.to_le_bytes()).collect();
        let values = f64_bytes(py, w.iter().flat_map(|p| p.values()));
        Some((w.len(), PyBytes::new(py, &ids), values))
    }

    /// `{line: (lap time s or None, top speed m/s or None)}`.
    fn figures(&self) -> Vec<(&'static str, Option<f64>, Option<f64>)> {
        self.figures
            .iter()
            .map(|(k, f)| (*k, f.lap_s, f.vmax))
            .collect()
    }

    /// `(right, left)` walls as little-endian float64 bytes of (x, y) pairs, metres, or None.
    fn walls<'py>(&self, py: Python<'py>) -> Option<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let [r, l] = self.walls.as_ref()?;
        Some((
            f64_bytes(py, r.iter().flatten().copied()),
            f64_bytes(py, l.iter().flatten().copied()),
        ))
    }

    /// `(width, height, gray bytes row 0 on top, resolution m/px, (x, y, yaw) origin)` or None.
    #[allow(clippy::type_complexity)]
    fn map<'py>(
        &self,
        py: Python<'py>,
    ) -> Option<(usize, usize, Bound<'py, PyBytes>, f64, (f64, f64, f64))> {
        let m = self.map.as_ref()?;
        Some((
            m.width,
            m.height,
            PyBytes::new(py, &m.gray),
            m.resolution,
            (m.origin[0], m.origin[1], m.origin[2]),
        ))
    }

    /// The build or raceline record as JSON (the CLI's `--json` record), or None for a read set.
    fn record_json(&self) -> PyResult<Option<String>> {
        self.record
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    /// Warnings of the racing-line stages.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// speed_scaling.yaml as a dict, or None.
    fn speed_scaling<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = &self.files.speed_scaling else {
            return Ok(None);
        };
        speed_dict(py, s).map(Some)
    }

    /// ot_sectors.yaml as a dict, or None.
    fn ot_sectors<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = &self.files.ot_sectors else {
            return Ok(None);
        };
        ot_dict(py, s).map(Some)
    }

    /// Names of the files `write` writes, in set order.
    fn file_names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let encoded = detached(py, || Ok(self.files.encode(Path::new(&self.name))?))?;
        Ok(encoded.into_iter().map(|(n, _)| n).collect())
    }

    /// Writes the set as `out/<name>/` (atomically; `force` replaces an existing folder);
    /// returns the folder.
    #[pyo3(signature = (out, force = false))]
    fn write(&self, py: Python<'_>, out: PathBuf, force: bool) -> PyResult<String> {
        detached(py, || {
            let written = self
                .files
                .write(&out.join(&self.name), WritePolicy::from(force))
                .map_err(|e| match e {
                    FormatError::Exists { path } => PipelineError::Exists(path),
                    other => PipelineError::Format(other),
                })?;
            Ok(written.dir.display().to_string())
        })
    }
}

fn speed_dict<'py>(py: Python<'py>, s: &SpeedScaling) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("global_limit", s.global_limit)?;
    let sectors = PyList::empty(py);
    for sec in &s.sectors {
        let e = PyDict::new(py);
        e.set_item("start", sec.start)?;
        e.set_item("end", sec.end)?;
        e.set_item("scaling", sec.scaling)?;
        e.set_item("only_ftg", sec.only_ftg)?;
        e.set_item("no_ftg", sec.no_ftg)?;
        sector_extra(&e, &sec.extra)?;
        sectors.append(e)?;
    }
    d.set_item("sectors", sectors)?;
    sector_extra(&d, &s.extra)?;
    Ok(d)
}

fn ot_dict<'py>(py: Python<'py>, s: &OtSectors) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("yeet_factor", s.yeet_factor)?;
    d.set_item("spline_len", s.spline_len)?;
    d.set_item("ot_sector_begin", s.ot_sector_begin)?;
    let sectors = PyList::empty(py);
    for sec in &s.sectors {
        let e = PyDict::new(py);
        e.set_item("start", sec.start)?;
        e.set_item("end", sec.end)?;
        e.set_item("ot_flag", sec.ot_flag)?;
        sector_extra(&e, &sec.extra)?;
        sectors.append(e)?;
    }
    d.set_item("sectors", sectors)?;
    sector_extra(&d, &s.extra)?;
    Ok(d)
}
