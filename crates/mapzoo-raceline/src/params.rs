//! Parameters of the racing-line stages, with the two profiles of DESIGN §3
//! "Default parameters" (the Race Stack's F1TENTH car, racecar_f110.ini,
//! ggv.csv, ax_max_machines.csv, global_planner_params.yaml).

use serde::{Deserialize, Serialize};

use crate::error::OptimizeError;
use crate::qp::QpSolver;

/// Every tunable of stages 7–11; deserialised from the `[raceline]` table of pipeline.toml
/// (by `mapzoo_pipeline::Config`, which reads the whole file).
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RacelineParams {
    /// Safety width of the IQP (vehicle width + margin), metres; mapzoo 1.2, racestack 0.7.
    pub safety_width: f64,
    /// Safety width of the SP and of its reference IQP, metres; mapzoo 1.2, racestack 0.7.
    pub safety_width_sp: f64,
    /// Top speed, m/s; default 15.0.
    pub v_max: f64,
    /// Vehicle length, metres; default 0.535 (informational, as in racecar_f110.ini).
    pub length: f64,
    /// Vehicle width, metres; default 0.30 (used for the narrow-track warning only).
    pub width: f64,
    /// Vehicle mass, kg; default 3.518.
    pub mass: f64,
    /// Drag coefficient (drag force = dragcoeff·v², N), kg/m; default 0.0136.
    pub dragcoeff: f64,
    /// Curvature limit of the IQP, 1/m; default 1.0.
    pub curvlim: f64,
    /// Gravity, m/s²; default 9.81 (informational).
    pub g: f64,
    /// ggv diagram rows `[v m/s, a_x max m/s², a_y max m/s²]`, speeds ascending; default 12/12 m/s² for 0..72 m/s.
    pub ggv: Vec<[f64; 3]>,
    /// Machine acceleration limit rows `[v m/s, a_x m/s²]`, speeds ascending; default 9.10936 → 1.47484 m/s² over 0..14.75 m/s.
    pub ax_max_machines: Vec<[f64; 2]>,
    /// Exponent of the friction-ellipse model (1 = diamond, 2 = ellipse), in [1, 2]; default 1.0.
    pub dyn_model_exp: f64,
    /// Step of the linear interpolation before smoothing, metres, in [0.001, 10]; default 0.05.
    pub stepsize_prep: f64,
    /// Step of the reference line after smoothing and inside the IQP loop, metres, in [0.001, 10]; default 0.2.
    pub stepsize_reg: f64,
    /// Step of the final racing-line sampling, metres, in [0.001, 10]; default 0.1.
    pub stepsize_interp_after_opt: f64,
    /// Degree of the smoothing spline (only 3 is supported); default 3.
    pub k_reg: u32,
    /// Smoothing factor of the periodic smoothing spline (FITPACK `s`, m²); default 1.0.
    pub s_reg: f64,
    /// Minimum IQP iterations (the first ones take a fraction iteration/iters_min of the step); default 5.
    pub iqp_iters_min: usize,
    /// Allowed gap between linearised and actual curvature at the solution, rad/m; default 0.1.
    pub iqp_curverror_allowed: f64,
    /// Safety stop of the IQP loop (TUM has none), iterations; default 100.
    pub iqp_iters_max: usize,
    /// Half window of the circular moving average of the SP's α (3 → 7 points); default 3.
    pub sp_alpha_smoothing_half_window: usize,
    /// Spacing at which walls are resampled before nearest-distance queries, metres, in [0.001, 10]; default 0.1.
    pub wall_resample_step: f64,
    /// Solver of the racing-line QPs: "banded" (the structure-exploiting interior point) or
    /// "clarabel" (the general conic solver, the reference); default "banded".
    pub qp_solver: QpSolver,
    /// Start-independent lines (ARCHITECTURE.md "Seamless lines"): the stages run from a start
    /// chosen by the track's shape, not its first waypoint, and the SP's reference has no
    /// repeated end point; the lines are then turned to begin nearest the centerline's first
    /// point. Default false (the Race Stack's seam, parity).
    pub seamless: bool,
}

/// Machine acceleration table of the Race Stack (`ax_max_machines.csv`, v m/s → ax m/s²),
/// value for value: nearly linear from 9.109 m/s² at 0 m/s to 1.475 m/s² at 14.75 m/s in
/// 0.25 m/s steps, then constant to 15 m/s. The file's own values, not the line through its
/// ends: 29 of its rows differ from that line in the last bit.
const RACESTACK_AX_MAX_MACHINES: [[f64; 2]; 61] = [
    [0.0, 9.10935576152022],
    [0.25, 8.97995725362624],
    [0.5, 8.850558745732261],
    [0.75, 8.721160237838284],
    [1.0, 8.591761729944306],
    [1.25, 8.462363222050326],
    [1.5, 8.332964714156347],
    [1.75, 8.203566206262368],
    [2.0, 8.07416769836839],
    [2.25, 7.944769190474411],
    [2.5, 7.815370682580432],
    [2.75, 7.685972174686453],
    [3.0, 7.556573666792474],
    [3.25, 7.427175158898495],
    [3.5, 7.297776651004517],
    [3.75, 7.168378143110537],
    [4.0, 7.03897963521656],
    [4.25, 6.90958112732258],
    [4.5, 6.780182619428602],
    [4.75, 6.650784111534623],
    [5.0, 6.521385603640645],
    [5.25, 6.391987095746665],
    [5.5, 6.262588587852687],
    [5.75, 6.133190079958707],
    [6.0, 6.003791572064729],
    [6.25, 5.87439306417075],
    [6.5, 5.744994556276771],
    [6.75, 5.615596048382792],
    [7.0, 5.4861975404888135],
    [7.25, 5.356799032594835],
    [7.5, 5.2274005247008555],
    [7.75, 5.098002016806878],
    [8.0, 4.968603508912898],
    [8.25, 4.83920500101892],
    [8.5, 4.709806493124941],
    [8.75, 4.580407985230962],
    [9.0, 4.451009477336983],
    [9.25, 4.321610969443004],
    [9.5, 4.192212461549026],
    [9.75, 4.062813953655047],
    [10.0, 3.933415445761068],
    [10.25, 3.804016937867089],
    [10.5, 3.67461842997311],
    [10.75, 3.545219922079131],
    [11.0, 3.415821414185153],
    [11.25, 3.286422906291174],
    [11.5, 3.157024398397195],
    [11.75, 3.027625890503216],
    [12.0, 2.898227382609237],
    [12.25, 2.768828874715258],
    [12.5, 2.6394303668212804],
    [12.75, 2.5100318589273014],
    [13.0, 2.3806333510333224],
    [13.25, 2.2512348431393434],
    [13.5, 2.1218363352453644],
    [13.75, 1.9924378273513854],
    [14.0, 1.8630393194574073],
    [14.25, 1.7336408115634283],
    [14.5, 1.6042423036694495],
    [14.75, 1.4748437957754705],
    [15.0, 1.4748437957754705],
];

fn default_ax_max_machines() -> Vec<[f64; 2]> {
    RACESTACK_AX_MAX_MACHINES.to_vec()
}

/// ggv of the Race Stack (ggv.csv): 12 m/s² longitudinal and lateral at every speed.
fn default_ggv() -> Vec<[f64; 3]> {
    let speeds = [
        0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 28.0, 32.0, 36.0, 40.0, 44.0, 48.0, 52.0, 56.0,
        60.0, 66.0, 72.0,
    ];
    speeds.iter().map(|&v| [v, 12.0, 12.0]).collect()
}

/// Smallest step of any resampling (`stepsize_*`, `wall_resample_step`), metres.
pub const MIN_STEP_M: f64 = 0.001;

/// Largest step of any resampling, metres.
pub const MAX_STEP_M: f64 = 10.0;

impl Default for RacelineParams {
    fn default() -> Self {
        Self::mapzoo()
    }
}

impl RacelineParams {
    /// The MapZoo dataset's profile: safety widths 1.2 / 1.2 m.
    pub fn mapzoo() -> Self {
        RacelineParams {
            safety_width: 1.2,
            safety_width_sp: 1.2,
            ..Self::racestack()
        }
    }

    /// The Race Stack's profile (global_planner_params.yaml): safety widths 0.7 / 0.7 m.
    pub fn racestack() -> Self {
        RacelineParams {
            safety_width: 0.7,
            safety_width_sp: 0.7,
            v_max: 15.0,
            length: 0.535,
            width: 0.30,
            mass: 3.518,
            dragcoeff: 0.0136,
            curvlim: 1.0,
            g: 9.81,
            ggv: default_ggv(),
            ax_max_machines: default_ax_max_machines(),
            dyn_model_exp: 1.0,
            stepsize_prep: 0.05,
            stepsize_reg: 0.2,
            stepsize_interp_after_opt: 0.1,
            k_reg: 3,
            s_reg: 1.0,
            iqp_iters_min: 5,
            iqp_curverror_allowed: 0.1,
            iqp_iters_max: 100,
            sp_alpha_smoothing_half_window: 3,
            wall_resample_step: 0.1,
            qp_solver: QpSolver::default(),
            seamless: false,
        }
    }

    /// A profile by name: "mapzoo" or "racestack".
    pub fn profile(name: &str) -> Option<Self> {
        match name {
            "mapzoo" => Some(Self::mapzoo()),
            "racestack" => Some(Self::racestack()),
            _ => None,
        }
    }

    /// Check every parameter once, before any work.
    pub fn validate(&self) -> Result<(), OptimizeError> {
        positive("safety_width", self.safety_width)?;
        positive("safety_width_sp", self.safety_width_sp)?;
        positive("v_max", self.v_max)?;
        positive("length", self.length)?;
        positive("width", self.width)?;
        positive("mass", self.mass)?;
        positive("curvlim", self.curvlim)?;
        positive("g", self.g)?;
        step("stepsize_prep", self.stepsize_prep)?;
        step("stepsize_reg", self.stepsize_reg)?;
        step("stepsize_interp_after_opt", self.stepsize_interp_after_opt)?;
        step("wall_resample_step", self.wall_resample_step)?;
        self.validate_model()?;
        check_table(
            "ggv",
            &self.ggv.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
            self.v_max,
        )?;
        check_table(
            "ax_max_machines",
            &self
                .ax_max_machines
                .iter()
                .map(|r| r.to_vec())
                .collect::<Vec<_>>(),
            self.v_max,
        )?;
        Ok(())
    }

    /// Drag, smoothing, spline degree, friction model and the IQP's iteration settings.
    fn validate_model(&self) -> Result<(), OptimizeError> {
        if !(self.dragcoeff.is_finite() && self.dragcoeff >= 0.0) {
            return Err(OptimizeError::InvalidParameter {
                name: "dragcoeff",
                problem: "must be finite and >= 0",
                value: self.dragcoeff,
            });
        }
        if !(self.s_reg.is_finite() && self.s_reg >= 0.0) {
            return Err(OptimizeError::InvalidParameter {
                name: "s_reg",
                problem: "must be finite and >= 0",
                value: self.s_reg,
            });
        }
        if self.k_reg != 3 {
            return Err(OptimizeError::InvalidParameter {
                name: "k_reg",
                problem: "must be 3 (cubic smoothing spline)",
                value: self.k_reg as f64,
            });
        }
        if !(1.0..=2.0).contains(&self.dyn_model_exp) {
            return Err(OptimizeError::InvalidParameter {
                name: "dyn_model_exp",
                problem: "must be in [1, 2]",
                value: self.dyn_model_exp,
            });
        }
        positive("iqp_curverror_allowed", self.iqp_curverror_allowed)?;
        if self.iqp_iters_min == 0 {
            return Err(OptimizeError::InvalidParameter {
                name: "iqp_iters_min",
                problem: "must be >= 1",
                value: self.iqp_iters_min as f64,
            });
        }
        if self.iqp_iters_max < self.iqp_iters_min {
            return Err(OptimizeError::InvalidParameter {
                name: "iqp_iters_max",
                problem: "must be >= iqp_iters_min",
                value: self.iqp_iters_max as f64,
            });
        }
        Ok(())
    }
}

/// A finite number > 0.
fn positive(name: &'static str, value: f64) -> Result<(), OptimizeError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(OptimizeError::InvalidParameter {
            name,
            problem: "must be a finite number > 0",
            value,
        })
    }
}

/// A resampling step in [`MIN_STEP_M`, `MAX_STEP_M`]: below 1 mm every resampled line
/// multiplies into millions of points; above 10 m a scale-model track collapses to a handful.
fn step(name: &'static str, value: f64) -> Result<(), OptimizeError> {
    if (MIN_STEP_M..=MAX_STEP_M).contains(&value) {
        Ok(())
    } else {
        Err(OptimizeError::InvalidParameter {
            name,
            problem: "must be between 0.001 and 10 metres",
            value,
        })
    }
}

/// A speed table: speeds ascending from >= 0, covering v_max, accelerations > 0 and finite.
fn check_table(name: &'static str, rows: &[Vec<f64>], v_max: f64) -> Result<(), OptimizeError> {
    let Some(last) = rows.last() else {
        return Err(OptimizeError::InvalidParameter {
            name,
            problem: "must have at least one row",
            value: 0.0,
        });
    };
    for (i, row) in rows.iter().enumerate() {
        if row.iter().any(|v| !v.is_finite()) || row[0] < 0.0 {
            return Err(OptimizeError::InvalidParameter {
                name,
                problem: "rows must be finite with speed >= 0",
                value: i as f64,
            });
        }
        if row[1..].iter().any(|&a| a <= 0.0) {
            return Err(OptimizeError::InvalidParameter {
                name,
                problem: "accelerations must be > 0 (row index in value)",
                value: i as f64,
            });
        }
        if i > 0 && row[0] <= rows[i - 1][0] {
            return Err(OptimizeError::InvalidParameter {
                name,
                problem: "speeds must be strictly ascending (row index in value)",
                value: i as f64,
            });
        }
    }
    if last[0] < v_max {
        return Err(OptimizeError::InvalidParameter {
            name,
            problem: "must cover the speed range up to v_max (last speed in value)",
            value: last[0],
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iqp_iters_max_zero_is_named_as_itself() {
        let p = RacelineParams {
            iqp_iters_max: 0,
            ..RacelineParams::default()
        };
        let msg = p.validate().unwrap_err().to_string();
        assert!(msg.contains("iqp_iters_max"), "{msg}");
        let p = RacelineParams {
            iqp_iters_min: 0,
            ..RacelineParams::default()
        };
        let msg = p.validate().unwrap_err().to_string();
        assert!(msg.contains("iqp_iters_min"), "{msg}");
    }
}
