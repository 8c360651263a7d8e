//! A car's own configuration files, read as the Race Stack and TUM keep them
//! (DESIGN §3 "Default parameters"): `racecar_f110.ini` or `racecar.ini` (TUM's
//! configparser file whose values are JSON), the ggv diagram `ggv.csv`, the machine limit
//! `ax_max_machines.csv` (beside the INI or in `veh_dyn_info/`, as the INI names them),
//! and the Race Stack's `global_planner_params.yaml` for the safety widths (ROS 1 plain or
//! ROS 2 `<node>: ros__parameters:`). Every value is optional: what a folder does not
//! hold keeps the configured value.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{FormatError, Result};
use crate::waypoint::read_text;

/// The INI names looked for, in order.
pub const INI_NAMES: [&str; 2] = ["racecar_f110.ini", "racecar.ini"];
/// The Race Stack's planner parameters (safety widths).
pub const PLANNER_PARAMS: &str = "global_planner_params.yaml";

/// The values a vehicle folder gives; `None` where it gives none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VehicleFiles {
    /// The folder.
    pub dir: PathBuf,
    /// The files read, by name relative to `dir` (`../x` in its parent), in reading order.
    pub files: Vec<String>,
    /// Which file gave which value: (field name, e.g. `safety_width`, file), in reading order.
    pub sources: Vec<(String, PathBuf)>,
    /// The files looked for and not found, each a sentence (the values keep the configured ones).
    pub notes: Vec<String>,
    /// `safety_width` of global_planner_params.yaml, metres.
    pub safety_width: Option<f64>,
    /// `safety_width_sp` of global_planner_params.yaml, metres.
    pub safety_width_sp: Option<f64>,
    /// `veh_params.v_max`, m/s.
    pub v_max: Option<f64>,
    /// `veh_params.length`, metres.
    pub length: Option<f64>,
    /// `veh_params.width`, metres.
    pub width: Option<f64>,
    /// `veh_params.mass`, kg.
    pub mass: Option<f64>,
    /// `veh_params.dragcoeff`.
    pub dragcoeff: Option<f64>,
    /// `veh_params.curvlim`, rad/m.
    pub curvlim: Option<f64>,
    /// `veh_params.g`, m/s².
    pub g: Option<f64>,
    /// `vel_calc_opts.dyn_model_exp`.
    pub dyn_model_exp: Option<f64>,
    /// `stepsize_opts.stepsize_prep`, metres.
    pub stepsize_prep: Option<f64>,
    /// `stepsize_opts.stepsize_reg`, metres.
    pub stepsize_reg: Option<f64>,
    /// `stepsize_opts.stepsize_interp_after_opt`, metres.
    pub stepsize_interp_after_opt: Option<f64>,
    /// `reg_smooth_opts.k_reg`.
    pub k_reg: Option<u32>,
    /// `reg_smooth_opts.s_reg`.
    pub s_reg: Option<f64>,
    /// `optim_opts_mincurv.iqp_iters_min`.
    pub iqp_iters_min: Option<usize>,
    /// `optim_opts_mincurv.iqp_curverror_allowed`, rad/m.
    pub iqp_curverror_allowed: Option<f64>,
    /// ggv rows (v, ax_max, ay_max).
    pub ggv: Option<Vec<[f64; 3]>>,
    /// ax_max_machines rows (v, ax_max).
    pub ax_max_machines: Option<Vec<[f64; 2]>>,
}

/// The sub-folders of a Race Stack `stack_master/config/` that hold the car's files: ROS 1
/// keeps the INI and `veh_dyn_info/` in `gb_optimizer/` (and the planner parameters one
/// folder up), ROS 2 keeps all of them in `global_planner/`.
pub const KNOWN_CHILDREN: [&str; 2] = ["gb_optimizer", "global_planner"];

/// How a value is shown in notes and errors.
trait Shown {
    fn shown(&self) -> String;
}

impl Shown for f64 {
    fn shown(&self) -> String {
        format!("{self}")
    }
}

impl Shown for u32 {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl Shown for usize {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl<const N: usize> Shown for Vec<[f64; N]> {
    fn shown(&self) -> String {
        format!("{} rows", self.len())
    }
}

/// Calls `$m!(<the tokens given> <every scalar value field of VehicleFiles>)`: the one
/// list of the car's single values (the tables `ggv` and `ax_max_machines` are not in it),
/// merged from the files and shown in notes alike.
macro_rules! with_scalar_fields {
    ($m:ident!($($given:tt)*)) => {
        $m!(
            $($given)*
            safety_width,
            safety_width_sp,
            v_max,
            length,
            width,
            mass,
            dragcoeff,
            curvlim,
            g,
            dyn_model_exp,
            stepsize_prep,
            stepsize_reg,
            stepsize_interp_after_opt,
            k_reg,
            s_reg,
            iqp_iters_min,
            iqp_curverror_allowed,
        )
    };
}

/// Moves each value `part` gives into `acc`, recording `file` as its source; a value both
/// give differently is an error naming both files.
macro_rules! merge_values {
    ($acc:expr, $part:expr, $file:expr, $($field:ident),+ $(,)?) => {$(
        if let Some(b) = $part.$field.take() {
            match &$acc.$field {
                Some(a) if *a != b => {
                    return Err(conflict(&$acc, stringify!($field), &a.shown(), $file, &b.shown()));
                }
                Some(_) => {}
                None => {
                    $acc.$field = Some(b);
                    $acc.sources.push((stringify!($field).to_string(), $file.to_path_buf()));
                }
            }
        }
    )+};
}

/// The error for `key` given as `a` by the file `acc` took it from and as `b` by `file`.
fn conflict(acc: &VehicleFiles, key: &str, a: &str, file: &Path, b: &str) -> FormatError {
    let first = acc
        .source_of(key)
        .map_or_else(|| "another file".to_string(), |p| p.display().to_string());
    FormatError::inconsistent(
        file,
        format!(
            "gives {key} = {b}, but {first} gives {key} = {a}; the car's files contradict each other: make them agree or give the folder that holds only one of them"
        ),
    )
}

/// The files named `names` in `folders` (each folder, then its `veh_dyn_info/` when
/// `dyn_info`), each once, in that order.
fn existing(folders: &[PathBuf], names: &[String], dyn_info: bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for f in folders {
        for name in names {
            let mut here = vec![f.join(name)];
            if dyn_info {
                here.push(f.join("veh_dyn_info").join(name));
            }
            for p in here {
                if !p.is_file() {
                    continue;
                }
                // the real folder (the file's own name kept): the notes and the set's record
                // name it wherever the run was
                let p = match (p.parent().map(Path::canonicalize), p.file_name()) {
                    (Some(Ok(d)), Some(n)) => d.join(n),
                    _ => p,
                };
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// `folders` as a list for a note: `a, b or c`.
fn listed(folders: &[PathBuf]) -> String {
    let names: Vec<String> = folders.iter().map(|p| p.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

impl VehicleFiles {
    /// Reads the car's files for the folder `dir`, as the Race Stack keeps them: in `dir`
    /// itself (a flat folder, or ROS 2's `config/global_planner/`), in its known sub-folders
    /// ([`KNOWN_CHILDREN`]: `dir` is `stack_master/config/`), and, for a file found in
    /// neither, in its parent (ROS 1's `config/gb_optimizer/`, whose
    /// `global_planner_params.yaml` is one folder up). Every value records the file it came
    /// from ([`VehicleFiles::sources`]); a file not found is a note ([`VehicleFiles::notes`]);
    /// two files giving different values for one parameter are an error naming both. At
    /// least one of the files must be found.
    pub fn read(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(FormatError::bad_path(
                dir,
                "not a folder; give the folder holding racecar_f110.ini (or racecar.ini), ggv.csv, ax_max_machines.csv and global_planner_params.yaml (a Race Stack stack_master/config/, its gb_optimizer/ or global_planner/, or a folder of all four)",
            ));
        }
        let mut v = VehicleFiles {
            dir: dir.to_path_buf(),
            ..VehicleFiles::default()
        };
        let mut near = vec![dir.to_path_buf()];
        near.extend(
            KNOWN_CHILDREN
                .iter()
                .map(|c| dir.join(c))
                .filter(|p| p.is_dir()),
        );
        let parent: Vec<PathBuf> = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .into_iter()
            .collect();
        // Near first; the parent only for a file not found near.
        let find = |names: &[String], folders: &[PathBuf], dyn_info: bool| {
            let found = existing(folders, names, dyn_info);
            if found.is_empty() {
                existing(&parent, names, dyn_info)
            } else {
                found
            }
        };
        let searched = |folders: &[PathBuf]| {
            let mut all = folders.to_vec();
            all.extend(parent.iter().cloned());
            listed(&all)
        };

        let ini_names: Vec<String> = INI_NAMES.iter().map(|n| n.to_string()).collect();
        let inis = find(&ini_names, &near, false);
        let mut ggv_names: Vec<String> = Vec::new();
        let mut ax_names: Vec<String> = Vec::new();
        let mut ini_dirs: Vec<PathBuf> = Vec::new();
        for path in &inis {
            let text = crate::input_file::read_text_file(
                path,
                crate::input_file::MAX_YAML_BYTES,
                "ini file",
            )?;
            let ini = parse_ini(&text, path)?;
            let mut part = VehicleFiles::default();
            part.read_ini(&ini, path)?;
            v.merge(part, path)?;
            v.files.push(v.relative(path));
            let name = ini_string(&ini, "ggv_file").unwrap_or_else(|| "ggv.csv".into());
            if !ggv_names.contains(&name) {
                ggv_names.push(name);
            }
            let name = ini_string(&ini, "ax_max_machines_file")
                .unwrap_or_else(|| "ax_max_machines.csv".into());
            if !ax_names.contains(&name) {
                ax_names.push(name);
            }
            if let Some(d) = path.parent() {
                ini_dirs.push(d.to_path_buf());
            }
        }
        if inis.is_empty() {
            v.notes.push(format!(
                "no {} in {}: the vehicle parameters keep the configured values",
                INI_NAMES.join(" or "),
                searched(&near)
            ));
            ggv_names.push("ggv.csv".into());
            ax_names.push("ax_max_machines.csv".into());
        }
        // The tables beside the INI that names them (or in its veh_dyn_info/); without an
        // INI, wherever the INI would be.
        let table_dirs = if ini_dirs.is_empty() {
            &near
        } else {
            &ini_dirs
        };
        // Each table: the files it may be in, what it sets (for the note when none is
        // found) and how its file is read.
        type ReadTable = fn(&Path) -> Result<VehicleFiles>;
        let tables: [(&[String], &str, ReadTable); 2] = [
            (&ggv_names, "the ggv diagram", |path| {
                Ok(VehicleFiles {
                    ggv: Some(read_table::<3>(
                        path,
                        ["v_mps", "ax_max_mps2", "ay_max_mps2"],
                    )?),
                    ..VehicleFiles::default()
                })
            }),
            (&ax_names, "the machine limit", |path| {
                Ok(VehicleFiles {
                    ax_max_machines: Some(read_table::<2>(
                        path,
                        ["v_mps", "ax_max_machines_mps2"],
                    )?),
                    ..VehicleFiles::default()
                })
            }),
        ];
        for (names, what, read) in tables {
            let found = find(names, table_dirs, true);
            for path in &found {
                let mut part = read(path)?;
                v.merge_tables(&mut part, path)?;
            }
            if found.is_empty() {
                v.notes.push(format!(
                    "no {} in {} (or their veh_dyn_info/): {what} keeps the configured one",
                    names.join(" or "),
                    searched(table_dirs)
                ));
            }
        }
        let planners = find(&[PLANNER_PARAMS.to_string()], &near, false);
        for path in &planners {
            let (w, w_sp) = read_planner_params(path)?;
            let part = VehicleFiles {
                safety_width: w,
                safety_width_sp: w_sp,
                ..VehicleFiles::default()
            };
            v.merge(part, path)?;
            v.files.push(v.relative(path));
        }
        if planners.is_empty() {
            v.notes.push(format!(
                "no {PLANNER_PARAMS} in {}: the safety widths keep the configured values",
                searched(&near)
            ));
        }
        if v.files.is_empty() {
            return Err(FormatError::bad_path(
                dir,
                format!(
                    "holds none of {}, ggv.csv, ax_max_machines.csv, {PLANNER_PARAMS} (nor do its gb_optimizer/, global_planner/ or its parent); give the car's config folder",
                    INI_NAMES.join(", ")
                ),
            ));
        }
        Ok(v)
    }

    /// The file `key` (a field name, e.g. `safety_width`) came from.
    pub fn source_of(&self, key: &str) -> Option<&Path> {
        self.sources
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, p)| p.as_path())
    }

    /// One line per file read: the file and the values it gave (`key = value`, a table as
    /// its row count), in reading order.
    pub fn describe(&self) -> Vec<String> {
        let mut files: Vec<&Path> = Vec::new();
        for (_, p) in &self.sources {
            if !files.contains(&p.as_path()) {
                files.push(p);
            }
        }
        files
            .into_iter()
            .map(|file| {
                let values: Vec<String> = self
                    .sources
                    .iter()
                    .filter(|(_, p)| p == file)
                    .map(|(k, _)| format!("{k} = {}", self.shown(k)))
                    .collect();
                format!("{}: {}", file.display(), values.join(", "))
            })
            .collect()
    }

    /// The value of field `key`, as notes show it.
    fn shown(&self, key: &str) -> String {
        macro_rules! pick {
            ($($field:ident),+ $(,)?) => {
                match key {
                    $(stringify!($field) => self.$field.as_ref().map(Shown::shown),)+
                    _ => None,
                }
            };
        }
        with_scalar_fields!(pick!(ggv, ax_max_machines,)).unwrap_or_default()
    }

    /// `path` relative to the folder read (`../x` for its parent), else as it is.
    fn relative(&self, path: &Path) -> String {
        let base = self.dir.canonicalize().unwrap_or_else(|_| self.dir.clone());
        if let Ok(rel) = path.strip_prefix(&base) {
            return rel.to_string_lossy().replace('\\', "/");
        }
        match (Ok::<_, ()>(base), path.file_name()) {
            (Ok(d), Some(name)) if d.parent() == path.parent() => {
                format!("../{}", name.to_string_lossy())
            }
            _ => path.display().to_string(),
        }
    }

    /// Merges a table file's values and names it among the files read.
    fn merge_tables(&mut self, part: &mut VehicleFiles, path: &Path) -> Result<()> {
        merge_values!(self, part, path, ggv, ax_max_machines);
        self.files.push(self.relative(path));
        Ok(())
    }

    /// Merges the scalar values `part` read from `path` (see [`merge_values`]).
    fn merge(&mut self, mut part: VehicleFiles, path: &Path) -> Result<()> {
        with_scalar_fields!(merge_values!(self, part, path,));
        Ok(())
    }

    fn read_ini(&mut self, ini: &[(String, String, Value)], path: &Path) -> Result<()> {
        let num = |dict: &str, key: &str| -> Result<Option<f64>> {
            let Some(d) = ini.iter().find(|(_, k, _)| k == dict).map(|(_, _, v)| v) else {
                return Ok(None);
            };
            match d.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(x) => x
                    .as_f64()
                    .filter(|f| f.is_finite())
                    .map(Some)
                    .ok_or_else(|| {
                        FormatError::bad_value(
                            path,
                            format!("{dict}.{key}"),
                            None,
                            format!("\"{dict}\" key \"{key}\" must be a number (found {x})"),
                        )
                    }),
            }
        };
        self.v_max = num("veh_params", "v_max")?;
        self.length = num("veh_params", "length")?;
        self.width = num("veh_params", "width")?;
        self.mass = num("veh_params", "mass")?;
        self.dragcoeff = num("veh_params", "dragcoeff")?;
        self.curvlim = num("veh_params", "curvlim")?;
        self.g = num("veh_params", "g")?;
        self.dyn_model_exp = num("vel_calc_opts", "dyn_model_exp")?;
        self.stepsize_prep = num("stepsize_opts", "stepsize_prep")?;
        self.stepsize_reg = num("stepsize_opts", "stepsize_reg")?;
        self.stepsize_interp_after_opt = num("stepsize_opts", "stepsize_interp_after_opt")?;
        self.s_reg = num("reg_smooth_opts", "s_reg")?;
        self.iqp_curverror_allowed = num("optim_opts_mincurv", "iqp_curverror_allowed")?;
        let count = |dict: &str, key: &str| -> Result<Option<u64>> {
            match num(dict, key)? {
                None => Ok(None),
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e9 => Ok(Some(f as u64)),
                Some(f) => Err(FormatError::bad_value(
                    path,
                    format!("{dict}.{key}"),
                    None,
                    format!("\"{dict}\" key \"{key}\" must be a whole number ≥ 0 (found {f})"),
                )),
            }
        };
        self.k_reg = count("reg_smooth_opts", "k_reg")?.map(|k| k as u32);
        self.iqp_iters_min = count("optim_opts_mincurv", "iqp_iters_min")?.map(|k| k as usize);
        Ok(())
    }
}

/// A string option of the INI (`ggv_file="ggv.csv"`).
fn ini_string(ini: &[(String, String, Value)], key: &str) -> Option<String> {
    ini.iter()
        .find(|(_, k, _)| k == key)
        .and_then(|(_, _, v)| v.as_str().map(str::to_string))
}

/// Python configparser's layout as TUM writes it: `[SECTION]` lines, `key=value` at the
/// start of a line, continuation lines indented, full-line `#` / `;` comments; each value
/// is JSON (TUM reads them with `json.loads`). Returns (section, key, value).
fn parse_ini(text: &str, path: &Path) -> Result<Vec<(String, String, Value)>> {
    let mut out: Vec<(String, String, String, usize)> = Vec::new();
    let mut section = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let indented = raw.starts_with([' ', '\t']);
        if indented {
            match out.last_mut() {
                Some(last) => {
                    last.2.push('\n');
                    last.2.push_str(line);
                }
                None => {
                    return Err(FormatError::syntax(
                        path,
                        Some(i + 1),
                        None,
                        "an indented line before any option",
                    ))
                }
            }
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        let Some((k, v)) = line.split_once(['=', ':']) else {
            return Err(FormatError::syntax(
                path,
                Some(i + 1),
                None,
                format!(
                    "line {}: expected `key = value` or `[SECTION]`, found {line:?}",
                    i + 1
                ),
            ));
        };
        out.push((
            section.clone(),
            k.trim().to_string(),
            v.trim().to_string(),
            i + 1,
        ));
    }
    out.into_iter()
        .map(|(s, k, v, line)| {
            crate::nesting::check_nesting(&v, crate::nesting::Syntax::Json, path)?;
            let value: Value = serde_json::from_str(&v).map_err(|e| {
                FormatError::syntax(
                    path,
                    Some(line),
                    None,
                    format!(
                        "option \"{k}\" (line {line}) is not a JSON value as TUM reads it: {e}"
                    ),
                )
            })?;
            Ok((s, k, value))
        })
        .collect()
}

/// Rows of `N` finite numbers separated by `,`; `#` lines are comments (TUM's `np.loadtxt`).
fn read_table<const N: usize>(path: &Path, columns: [&str; N]) -> Result<Vec<[f64; N]>> {
    crate::tum::parse_rows(&read_text(path)?, ',', &columns, false, path)
}

/// `safety_width` and `safety_width_sp` of global_planner_params.yaml, at the top level
/// (ROS 1) or under `<node>: ros__parameters:` (ROS 2).
fn read_planner_params(path: &Path) -> Result<(Option<f64>, Option<f64>)> {
    let text =
        crate::input_file::read_text_file(path, crate::input_file::MAX_YAML_BYTES, "YAML file")?;
    let doc = crate::nesting::parse_yaml(&text, path)?;
    let mut params = &doc;
    if let Some(m) = doc.as_mapping() {
        if m.len() == 1 {
            if let Some(inner) = m.values().next().and_then(|v| v.get("ros__parameters")) {
                params = inner;
            }
        }
    }
    let get = |key: &str| -> Result<Option<f64>> {
        match params.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|f| f.is_finite())
                .map(Some)
                .ok_or_else(|| {
                    FormatError::bad_value(
                        path,
                        key,
                        None,
                        format!("field \"{key}\" must be a number in metres"),
                    )
                }),
        }
    };
    Ok((get("safety_width")?, get("safety_width_sp")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini_values_span_lines_and_skip_comments() {
        let text = "[GENERAL]\n# c\nggv_file=\"g.csv\"\nveh_params = {\"v_max\": 15.0,\n   # inner comment\n   \"g\": 9.81}\n[OPT]\nopts={\"eps\": 1e-3, \"n\": null, \"b\": false}\n";
        let ini = parse_ini(text, Path::new("r.ini")).unwrap();
        assert_eq!(ini.len(), 3);
        assert_eq!(ini_string(&ini, "ggv_file").as_deref(), Some("g.csv"));
        assert_eq!(ini[1].2["g"], 9.81);
        assert_eq!(ini[2].0, "OPT");
        assert_eq!(ini[2].2["eps"], 1e-3);
        let err = parse_ini("[A]\nx={\"a\": }\n", Path::new("r.ini"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("r.ini") && err.contains("\"x\"") && err.contains("line 2"),
            "{err}"
        );
    }
}
