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
    /// The files read, by name relative to `dir`.
    pub files: Vec<String>,
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

impl VehicleFiles {
    /// Reads the folder `dir`; it must hold at least one of the files.
    pub fn read(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(FormatError::bad_path(
                dir,
                "not a folder; give the folder holding racecar_f110.ini (or racecar.ini), ggv.csv, ax_max_machines.csv and global_planner_params.yaml",
            ));
        }
        let mut v = VehicleFiles {
            dir: dir.to_path_buf(),
            ..VehicleFiles::default()
        };
        let mut ggv_name = "ggv.csv".to_string();
        let mut ax_name = "ax_max_machines.csv".to_string();
        if let Some(name) = INI_NAMES.iter().find(|n| dir.join(n).is_file()) {
            let path = dir.join(name);
            let text =
                crate::raster::read_text_file(&path, crate::raster::MAX_YAML_BYTES, "ini file")?;
            let ini = parse_ini(&text, &path)?;
            v.files.push(name.to_string());
            v.read_ini(&ini, &path)?;
            if let Some(s) = ini_string(&ini, "ggv_file") {
                ggv_name = s;
            }
            if let Some(s) = ini_string(&ini, "ax_max_machines_file") {
                ax_name = s;
            }
        }
        if let Some((rel, path)) = find(dir, &ggv_name) {
            let rows = read_table::<3>(&path, ["v_mps", "ax_max_mps2", "ay_max_mps2"])?;
            v.ggv = Some(rows);
            v.files.push(rel);
        }
        if let Some((rel, path)) = find(dir, &ax_name) {
            let rows = read_table::<2>(&path, ["v_mps", "ax_max_machines_mps2"])?;
            v.ax_max_machines = Some(rows);
            v.files.push(rel);
        }
        let planner = dir.join(PLANNER_PARAMS);
        if planner.is_file() {
            let (w, w_sp) = read_planner_params(&planner)?;
            v.safety_width = w;
            v.safety_width_sp = w_sp;
            v.files.push(PLANNER_PARAMS.to_string());
        }
        if v.files.is_empty() {
            return Err(FormatError::bad_path(
                dir,
                format!(
                    "holds none of {}, ggv.csv, ax_max_machines.csv, {PLANNER_PARAMS}; give the car's config folder",
                    INI_NAMES.join(", ")
                ),
            ));
        }
        Ok(v)
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

/// `name` in `dir`, else in `dir/veh_dyn_info/` (the Race Stack's layout): (relative name, path).
fn find(dir: &Path, name: &str) -> Option<(String, PathBuf)> {
    [name.to_string(), format!("veh_dyn_info/{name}")]
        .into_iter()
        .map(|rel| (rel.clone(), dir.join(&rel)))
        .find(|(_, p)| p.is_file())
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
    let text = crate::raster::read_text_file(path, crate::raster::MAX_YAML_BYTES, "YAML file")?;
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
