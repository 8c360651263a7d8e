//! Stage 11, velocity profile, acceleration profile and lap time (DESIGN
//! §3.11; TUM `calc_vel_profile` closed case, `calc_ax_profile`,
//! `calc_t_profile`).
//!
//! Closed forward–backward solver: cornering limit per point (fixed point on the
//! ggv), capped at v_max; a forward pass of acceleration phases limited by the
//! tire (friction diamond/ellipse) and the machine, minus drag; a backward pass
//! of braking phases with drag helping. Both passes run over two concatenated
//! laps so the start and end speeds agree. The pass structure (phases start
//! where the speed rises, stop above v_max or at the next phase) is TUM's, kept
//! exactly because it decides which limits bind.

use crate::params::RacelineParams;
use mapzoo_geom::numpy::interp1_guessed;

/// The vehicle the velocity profile drives (racecar_f110.ini, ggv.csv, ax_max_machines.csv):
/// built once from [`RacelineParams`] and shared by every racing line.
#[derive(Debug, Clone, PartialEq)]
pub struct Vehicle {
    /// ggv rows `[v m/s, a_x max m/s², a_y max m/s²]`, speeds ascending.
    pub ggv: Vec<[f64; 3]>,
    /// Machine limit rows `[v m/s, a_x m/s²]`, speeds ascending.
    pub ax_max_machines: Vec<[f64; 2]>,
    /// Top speed, m/s.
    pub v_max: f64,
    /// Drag coefficient (drag force = dragcoeff·v², N), kg/m.
    pub dragcoeff: f64,
    /// Mass, kg.
    pub mass: f64,
    /// Exponent of the friction-ellipse model (1 = diamond, 2 = ellipse).
    pub dyn_model_exp: f64,
    /// Start the closed profile's passes at its slowest corner ([`RacelineParams::seamless`]),
    /// so the profile does not depend on which point of the loop is first.
    pub seamless: bool,
}

impl RacelineParams {
    /// The vehicle of this parameter set (ggv, machine limit, drag, mass, top speed).
    pub fn vehicle(&self) -> Vehicle {
        Vehicle::from_params(self)
    }
}

impl Vehicle {
    /// The vehicle of a parameter set.
    pub fn from_params(p: &RacelineParams) -> Self {
        Vehicle {
            ggv: p.ggv.clone(),
            ax_max_machines: p.ax_max_machines.clone(),
            v_max: p.v_max,
            dragcoeff: p.dragcoeff,
            mass: p.mass,
            dyn_model_exp: p.dyn_model_exp,
            seamless: p.seamless,
        }
    }
}

/// Column `col` of the ggv as a vector.
fn ggv_col(ggv: &[[f64; 3]], col: usize) -> Vec<f64> {
    ggv.iter().map(|r| r[col]).collect()
}

/// Tables pre-split into columns for `numpy.interp`.
struct Tables {
    v: Vec<f64>,
    ax: Vec<f64>,
    ay: Vec<f64>,
    mv: Vec<f64>,
    ma: Vec<f64>,
    /// Both speed columns strictly ascending (as the parameters' check demands): a lookup may
    /// then start its search from the previous one's index ([`Guesses`]).
    ascending: bool,
}

/// Where the last lookups in the ggv and the machine table ended: a pass looks up speeds
/// that change little from sample to sample, and starts each search there.
#[derive(Default)]
struct Guesses {
    ggv: isize,
    machines: isize,
}

impl Tables {
    fn new(veh: &Vehicle) -> Self {
        let v = ggv_col(&veh.ggv, 0);
        let mv: Vec<f64> = veh.ax_max_machines.iter().map(|r| r[0]).collect();
        let rising = |c: &[f64]| c.windows(2).all(|w| w[0] < w[1]);
        Tables {
            ascending: rising(&v) && rising(&mv),
            v,
            ax: ggv_col(&veh.ggv, 1),
            ay: ggv_col(&veh.ggv, 2),
            mv,
            ma: veh.ax_max_machines.iter().map(|r| r[1]).collect(),
        }
    }

    /// `numpy.interp(v, xp, fp)`, the search from `guess` where the tables ascend (the same
    /// value bit for bit: [`interp1_guessed`]), else from the start as `numpy.interp` does.
    fn lookup(&self, v: f64, xp: &[f64], fp: &[f64], guess: &mut isize) -> f64 {
        if !self.ascending {
            *guess = 0;
        }
        interp1_guessed(v, xp, fp, guess)
    }
}

/// `x.powf(e)`, without the call for the diamond's e = 1 (IEEE pow(x, 1) is x exactly, so the
/// result is bit for bit the same; the call was a tenth of a min-time run's time).
fn pow_exp(x: f64, e: f64) -> f64 {
    if e == 1.0 {
        x
    } else {
        x.powf(e)
    }
}

/// TUM `calc_ax_poss`: the longitudinal acceleration available at speed v on radius r, m/s²
/// (forward: accelerate, minus drag; backward: brake, drag helping).
fn ax_possible(
    veh: &Vehicle,
    tab: &Tables,
    v: f64,
    radius: f64,
    backward: bool,
    guess: &mut Guesses,
) -> f64 {
    let ax_max_tires = tab.lookup(v, &tab.v, &tab.ax, &mut guess.ggv);
    let ay_max_tires = tab.lookup(v, &tab.v, &tab.ay, &mut guess.ggv);
    let ay_used = v * v / radius;
    let radicand = 1.0 - pow_exp(ay_used / ay_max_tires, veh.dyn_model_exp);
    let ax_avail_tires = if radicand > 0.0 {
        ax_max_tires * pow_exp(radicand, 1.0 / veh.dyn_model_exp)
    } else {
        0.0
    };
    let ax_drag = -(v * v) * veh.dragcoeff / veh.mass;
    if backward {
        ax_avail_tires - ax_drag
    } else {
        let machines = tab.lookup(v, &tab.mv, &tab.ma, &mut guess.machines);
        ax_avail_tires.min(machines) + ax_drag
    }
}

/// One TUM acceleration (forward) or deceleration (backward, on reversed arrays) pass.
fn acc_pass(
    veh: &Vehicle,
    tab: &Tables,
    radii: &[f64],
    el: &[f64],
    vx: &mut [f64],
    backward: bool,
) {
    let n = vx.len();
    let acc_inds: Vec<usize> = (0..n - 1).filter(|&i| vx[i + 1] - vx[i] > 0.0).collect();
    let mut starts: std::collections::VecDeque<usize> = acc_inds
        .iter()
        .enumerate()
        .filter(|&(k, &i)| k == 0 || i - acc_inds[k - 1] > 1)
        .map(|(_, &i)| i)
        .collect();
    let mut guess = Guesses::default();
    while let Some(mut i) = starts.pop_front() {
        while i < n - 1 {
            let ax = ax_possible(veh, tab, vx[i], radii[i], backward, &mut guess);
            let mut v_next = (vx[i] * vx[i] + 2.0 * ax * el[i]).max(0.0).sqrt();
            if backward {
                let ax_next = ax_possible(veh, tab, v_next, radii[i + 1], backward, &mut guess);
                let v_tmp = (vx[i] * vx[i] + 2.0 * ax_next * el[i]).max(0.0).sqrt();
                if v_tmp < v_next {
                    v_next = v_tmp;
                }
            }
            if v_next < vx[i + 1] {
                vx[i + 1] = v_next;
            }
            i += 1;
            if v_next > veh.v_max || starts.front().is_some_and(|&s| i >= s) {
                break;
            }
        }
    }
}

/// Stage 11: speed at each point of a closed line (TUM `calc_vel_profile`, closed, ggv mode),
/// from the curvature (1/m) at each point and the distance to the next point (last → first), m/s.
pub fn velocity_profile(kappa: &[f64], el_lengths: &[f64], veh: &Vehicle) -> Vec<f64> {
    let n = kappa.len();
    let tab = Tables::new(veh);
    let radii: Vec<f64> = kappa
        .iter()
        .map(|&k| {
            if k != 0.0 {
                (1.0 / k).abs()
            } else {
                f64::INFINITY
            }
        })
        .collect();
    let ay_min = tab.ay.iter().cloned().fold(f64::INFINITY, f64::min);
    let mut vx: Vec<f64> = radii.iter().map(|r| (ay_min * r).sqrt()).collect();
    for _ in 0..100 {
        let prev = vx.clone();
        // the search from the previous sample's index, as numpy.interp carries it
        let mut guess = 0;
        vx = prev
            .iter()
            .zip(&radii)
            .map(|(&v, &r)| (tab.lookup(v, &tab.v, &tab.ay, &mut guess) * r).sqrt())
            .collect();
        // NaN (inf/inf on straight points) never counts as converged, as in NumPy
        let worst = vx
            .iter()
            .zip(&prev)
            .map(|(a, b)| (a / b - 1.0).abs())
            .fold(0.0_f64, |m, d| {
                if d.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(d)
                }
            });
        if worst < 0.005 {
            break;
        }
    }
    for v in vx.iter_mut() {
        if *v > veh.v_max {
            *v = veh.v_max;
        }
    }
    if veh.seamless {
        // the passes from the slowest corner: there the closed profile is at its limit
        let k = (0..n).min_by(|&a, &b| vx[a].total_cmp(&vx[b])).unwrap_or(0);
        let turn = |a: &[f64]| -> Vec<f64> { a[k..].iter().chain(&a[..k]).cloned().collect() };
        let mut v = passes(veh, &tab, &turn(&radii), &turn(el_lengths), &turn(&vx));
        v.rotate_right(k);
        return v;
    }
    passes(veh, &tab, &radii, el_lengths, &vx)
}

/// TUM's forward and backward passes over two concatenated laps from the cornering limits `vx`.
fn passes(veh: &Vehicle, tab: &Tables, radii: &[f64], el_lengths: &[f64], vx: &[f64]) -> Vec<f64> {
    let n = vx.len();
    let double = |a: &[f64]| -> Vec<f64> { a.iter().chain(a.iter()).cloned().collect() };
    let radii2 = double(radii);
    let el2 = double(el_lengths);
    let mut v2 = double(vx);
    acc_pass(veh, tab, &radii2, &el2, &mut v2, false);
    let second: Vec<f64> = v2[n..].to_vec();
    let mut v2 = double(&second);
    // backward pass on the reversed arrays
    let radii_rev: Vec<f64> = radii2.iter().rev().cloned().collect();
    let el_rev: Vec<f64> = el2.iter().rev().cloned().collect();
    v2.reverse();
    acc_pass(veh, tab, &radii_rev, &el_rev, &mut v2, true);
    v2.reverse();
    v2[n..].to_vec()
}

#[cfg(any(test, feature = "reference"))]
/// Plain-loop twin of [`crate::velocity_profile`] for tests: the cornering fixed point, then one forward
/// and one backward sweep over two laps, each step min(v, limit) — the textbook forward–backward
/// method. Like TUM, the backward step from point i to i−1 uses the distance Δsᵢ (i to i+1).
pub fn velocity_profile_reference(kappa: &[f64], el_lengths: &[f64], veh: &Vehicle) -> Vec<f64> {
    let n = kappa.len();
    let tab = Tables::new(veh);
    let radius = |i: usize| {
        let k = kappa[i % n];
        if k != 0.0 {
            (1.0 / k).abs()
        } else {
            f64::INFINITY
        }
    };
    let mut v: Vec<f64> = (0..2 * n)
        .map(|i| {
            let r = radius(i);
            let ay_min = tab.ay.iter().cloned().fold(f64::INFINITY, f64::min);
            let mut v = (ay_min * r).sqrt();
            for _ in 0..100 {
                v = (mapzoo_geom::numpy::interp1(v, &tab.v, &tab.ay) * r).sqrt();
            }
            v.min(veh.v_max)
        })
        .collect();
    for i in 0..2 * n - 1 {
        let ax = ax_possible(veh, &tab, v[i], radius(i), false, &mut Guesses::default());
        let next = (v[i] * v[i] + 2.0 * ax * el_lengths[i % n]).max(0.0).sqrt();
        v[i + 1] = v[i + 1].min(next);
    }
    let mut v: Vec<f64> = v[n..].iter().chain(v[n..].iter()).cloned().collect();
    for i in (1..2 * n).rev() {
        let el = el_lengths[i % n];
        let ax = ax_possible(veh, &tab, v[i], radius(i), true, &mut Guesses::default());
        let mut prev = (v[i] * v[i] + 2.0 * ax * el).max(0.0).sqrt();
        let ax_next = ax_possible(
            veh,
            &tab,
            prev,
            radius(i - 1),
            true,
            &mut Guesses::default(),
        );
        prev = prev.min((v[i] * v[i] + 2.0 * ax_next * el).max(0.0).sqrt());
        v[i - 1] = v[i - 1].min(prev);
    }
    v[n..].to_vec()
}

/// TUM `calc_ax_profile` on the closed profile: aᵢ = (vᵢ₊₁² − vᵢ²)/(2Δsᵢ), the last to the first point, m/s².
pub fn ax_profile(vx: &[f64], el_lengths: &[f64]) -> Vec<f64> {
    let n = vx.len();
    (0..n)
        .map(|i| {
            let next = vx[(i + 1) % n];
            (next * next - vx[i] * vx[i]) / (2.0 * el_lengths[i])
        })
        .collect()
}

/// Stage 11: lap time of the closed profile (TUM `calc_t_profile`): Σ (−v + √(v² + 2aΔs))/a, or Δs/v where a = 0, seconds.
pub fn lap_time(vx: &[f64], ax: &[f64], el_lengths: &[f64]) -> f64 {
    let mut t = 0.0;
    for i in 0..el_lengths.len() {
        t += if ax[i] != 0.0 {
            (-vx[i] + (vx[i] * vx[i] + 2.0 * ax[i] * el_lengths[i]).sqrt()) / ax[i]
        } else {
            el_lengths[i] / vx[i]
        };
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path is the call, bit for bit, for every exponent the configuration allows.
    #[test]
    fn pow_exp_is_powf_bit_for_bit() {
        let mut x = 0.0_f64;
        for k in 0..10_000 {
            x = (x * 1.618_033_988_749 + 0.137 * f64::from(k % 7)).fract();
            for e in [1.0, 1.25, 1.5, 2.0] {
                assert_eq!(pow_exp(x, e).to_bits(), x.powf(e).to_bits(), "{x} {e}");
                assert_eq!(pow_exp(x, 1.0 / e).to_bits(), x.powf(1.0 / e).to_bits());
            }
        }
    }
}
