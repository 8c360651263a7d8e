//! A car's own Race Stack / TUM config folder ([`VehicleFiles`]) laid over the configured
//! racing-line parameters: every value the folder gives replaces the configured one.

use std::path::Path;

use mapzoo_format::VehicleFiles;
use mapzoo_raceline::RacelineParams;

use crate::config::{Config, VehicleOrigin};
use crate::error::PipelineError;

/// Reads the vehicle folder `dir` ([`VehicleFiles::read`]: the folder, its known
/// sub-folders, its parent) and lays it over `config`, noting in `config.vehicle` which file
/// gave which value, then validates the result. The returned files carry the sources and the
/// notes of files not found, for the caller to show.
pub fn apply_vehicle_dir(config: &mut Config, dir: &Path) -> Result<VehicleFiles, PipelineError> {
    let v = VehicleFiles::read(dir)?;
    apply_vehicle(&mut config.raceline, &v);
    config.vehicle = Some(VehicleOrigin {
        folder: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
        sources: v
            .sources
            .iter()
            .map(|(k, p)| (k.clone(), p.display().to_string()))
            .collect(),
    });
    config.validate(dir)?;
    Ok(v)
}

/// Lays the values `v` gives over `p`.
pub fn apply_vehicle(p: &mut RacelineParams, v: &VehicleFiles) {
    fn set<T: Clone>(slot: &mut T, value: &Option<T>) {
        if let Some(x) = value {
            *slot = x.clone();
        }
    }
    set(&mut p.safety_width, &v.safety_width);
    set(&mut p.safety_width_sp, &v.safety_width_sp);
    set(&mut p.v_max, &v.v_max);
    set(&mut p.length, &v.length);
    set(&mut p.width, &v.width);
    set(&mut p.mass, &v.mass);
    set(&mut p.dragcoeff, &v.dragcoeff);
    set(&mut p.curvlim, &v.curvlim);
    set(&mut p.g, &v.g);
    set(&mut p.dyn_model_exp, &v.dyn_model_exp);
    set(&mut p.stepsize_prep, &v.stepsize_prep);
    set(&mut p.stepsize_reg, &v.stepsize_reg);
    set(
        &mut p.stepsize_interp_after_opt,
        &v.stepsize_interp_after_opt,
    );
    set(&mut p.k_reg, &v.k_reg);
    set(&mut p.s_reg, &v.s_reg);
    set(&mut p.iqp_iters_min, &v.iqp_iters_min);
    set(&mut p.iqp_curverror_allowed, &v.iqp_curverror_allowed);
    set(&mut p.ggv, &v.ggv);
    set(&mut p.ax_max_machines, &v.ax_max_machines);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_values_a_folder_gives_change() {
        let mut p = RacelineParams::mapzoo();
        let before = p.clone();
        let v = VehicleFiles {
            safety_width: Some(0.9),
            mass: Some(5.0),
            ggv: Some(vec![[0.0, 9.0, 8.0], [20.0, 9.0, 8.0]]),
            ..VehicleFiles::default()
        };
        apply_vehicle(&mut p, &v);
        assert_eq!(p.safety_width, 0.9);
        assert_eq!(p.mass, 5.0);
        assert_eq!(p.ggv, vec![[0.0, 9.0, 8.0], [20.0, 9.0, 8.0]]);
        let mut rest = p.clone();
        rest.safety_width = before.safety_width;
        rest.mass = before.mass;
        rest.ggv = before.ggv.clone();
        assert_eq!(rest, before);
    }
}
