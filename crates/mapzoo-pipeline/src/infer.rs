//! How a published set was built: when a rebuild does not reproduce its lap times, search
//! the plausible settings (safety widths, free-space rule, start, direction) for those that
//! do (issue 20). The search is bounded: the safety widths first on a coarse grid (each
//! line's lap depends on its own width, so one grid finds both), refined around the best,
//! then one structural setting changed at a time at those widths; a change that brings the
//! laps closer is kept and the widths searched again on it. At most [`MAX_ROUNDS`] rounds of
//! a few dozen rebuilds, run in parallel.

use mapzoo_format::{FreeRule, Hint};
use rayon::prelude::*;
use serde::Serialize;

/// Where waypoint 0 of a rebuild lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartChoice {
    /// At the published first centerline waypoint, heading to the second.
    Published,
    /// Where the extraction puts it.
    Extracted,
}

/// The settings one rebuild of the search used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TrialSettings {
    /// Which pixels are free.
    pub free_rule: FreeRule,
    /// Where the start lies.
    pub start: StartChoice,
    /// Driven against the published direction.
    pub reverse: bool,
    /// Safety width of the IQP line, metres.
    pub safety_width: f64,
    /// Safety width of the SP line, metres.
    pub safety_width_sp: f64,
}

impl TrialSettings {
    fn key(&self) -> (FreeRule, StartChoice, bool, i64, i64) {
        let mm = |w: f64| (w * 1000.0).round() as i64;
        (
            self.free_rule,
            self.start,
            self.reverse,
            mm(self.safety_width),
            mm(self.safety_width_sp),
        )
    }

    fn widths(self, w: f64, w_sp: f64) -> Self {
        TrialSettings {
            safety_width: w,
            safety_width_sp: w_sp,
            ..self
        }
    }

    /// The remedy that names these settings (the start only if it is not the published one).
    pub fn hint(&self) -> Hint {
        Hint::Settings {
            free_rule: self.free_rule,
            safety_width: self.safety_width,
            safety_width_sp: self.safety_width_sp,
            reverse: self.reverse,
            extracted_start: self.start == StartChoice::Extracted,
        }
    }
}

/// One rebuild of the search and what it gave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trial {
    /// Its settings.
    pub settings: TrialSettings,
    /// IQP (driven line) lap time, seconds; `None` if it did not build.
    pub iqp_lap_s: Option<f64>,
    /// SP lap time, seconds.
    pub sp_lap_s: Option<f64>,
    /// Regenerated − published IQP lap, percent of published.
    pub iqp_lap_diff_pct: Option<f64>,
    /// Regenerated − published SP lap, percent of published.
    pub sp_lap_diff_pct: Option<f64>,
    /// Both published lap times reproduced to their printed precision ([`EXACT_S`]).
    pub exact: bool,
    /// Why it did not build.
    pub error: Option<String>,
}

impl Trial {
    /// The largest |difference| of its lap times from the published ones, percent; infinite
    /// when it did not build.
    pub fn score(&self) -> f64 {
        if self.error.is_some() {
            return f64::INFINITY;
        }
        [self.iqp_lap_diff_pct, self.sp_lap_diff_pct]
            .iter()
            .flatten()
            .map(|d| d.abs())
            .fold(0.0, f64::max)
    }
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inference {
    /// Rebuilds run.
    pub tried: usize,
    /// The settings that reproduce the published lap times exactly, in the order found.
    pub exact: Vec<Trial>,
    /// The closest settings (the first exact one, else the smallest largest difference).
    pub best: Option<Trial>,
    /// The best is within the check's lap-time tolerance.
    pub within_tolerance: bool,
}

/// Lap times equal to the published ones to this many seconds count as reproduced exactly
/// (the published map_info_str prints 4 decimals).
pub const EXACT_S: f64 = 1e-4;

/// Rounds of structural changes after the widths of the first rebuild's structure.
pub const MAX_ROUNDS: usize = 2;

/// The coarse grid of safety widths tried, metres (the common values of 1:10 cars).
pub const WIDTH_GRID: [f64; 9] = [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2];

/// The step of the refinement around the best coarse width, metres.
pub const WIDTH_STEP: f64 = 0.05;

/// The published lap times a search compares with.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// Published IQP (driven line) lap, seconds.
    pub iqp_lap_s: Option<f64>,
    /// Published SP lap, seconds.
    pub sp_lap_s: Option<f64>,
    /// The check's tolerance (fraction).
    pub lap_tol: f64,
}

/// The search over settings: `eval` rebuilds with one setting and gives (IQP lap, SP lap) or
/// why it failed; `structural` says whether the free rule, start and direction may change (a
/// rebuild from the published centerline has none). `hints` are more widths to try first
/// (e.g. implied by the published lines' clearance).
pub(crate) struct Search<'a, F> {
    eval: F,
    target: Target,
    trials: Vec<Trial>,
    structural: bool,
    hints: &'a [f64],
}

fn pct(ours: f64, published: Option<f64>) -> Option<f64> {
    published
        .filter(|p| *p != 0.0)
        .map(|p| (ours - p) / p * 100.0)
}

impl<'a, F> Search<'a, F>
where
    F: Fn(&TrialSettings) -> Result<(f64, f64), String> + Sync,
{
    pub(crate) fn new(eval: F, target: Target, structural: bool, hints: &'a [f64]) -> Self {
        Search {
            eval,
            target,
            trials: Vec::new(),
            structural,
            hints,
        }
    }

    /// Runs each setting not yet tried (in parallel) and returns the trials of all of them,
    /// in the order given.
    fn run(&mut self, settings: &[TrialSettings]) -> Vec<Trial> {
        let mut new: Vec<TrialSettings> = Vec::new();
        for s in settings {
            let known = self.trials.iter().any(|t| t.settings.key() == s.key())
                || new.iter().any(|n| n.key() == s.key());
            if !known {
                new.push(*s);
            }
        }
        let target = self.target;
        let eval = &self.eval;
        let done: Vec<Trial> = new
            .par_iter()
            .map(|s| match eval(s) {
                Ok((iqp, sp)) => {
                    let close =
                        |ours: f64, p: Option<f64>| p.is_none_or(|p| (ours - p).abs() <= EXACT_S);
                    Trial {
                        settings: *s,
                        iqp_lap_s: Some(iqp),
                        sp_lap_s: Some(sp),
                        iqp_lap_diff_pct: pct(iqp, target.iqp_lap_s),
                        sp_lap_diff_pct: pct(sp, target.sp_lap_s),
                        exact: close(iqp, target.iqp_lap_s)
                            && close(sp, target.sp_lap_s)
                            && (target.iqp_lap_s.is_some() || target.sp_lap_s.is_some()),
                        error: None,
                    }
                }
                Err(e) => Trial {
                    settings: *s,
                    iqp_lap_s: None,
                    sp_lap_s: None,
                    iqp_lap_diff_pct: None,
                    sp_lap_diff_pct: None,
                    exact: false,
                    error: Some(e),
                },
            })
            .collect();
        self.trials.extend(done);
        settings
            .iter()
            .filter_map(|s| {
                self.trials
                    .iter()
                    .find(|t| t.settings.key() == s.key())
                    .cloned()
            })
            .collect()
    }

    /// The trial of `trials` with the smallest `by` (the first of equals); built ones only.
    fn least(trials: &[Trial], by: impl Fn(&Trial) -> Option<f64>) -> Option<Trial> {
        let mut best: Option<(f64, &Trial)> = None;
        for t in trials {
            if let Some(v) = by(t).filter(|v| v.is_finite()) {
                if best.is_none_or(|(b, _)| v < b) {
                    best = Some((v, t));
                }
            }
        }
        best.map(|(_, t)| t.clone())
    }

    /// The best widths on the structure of `base`: each line's own best on the coarse grid
    /// (and the hints), refined by [`WIDTH_STEP`] around it, then the two combined.
    fn widths(&mut self, base: TrialSettings) -> Option<Trial> {
        let mut grid: Vec<f64> = WIDTH_GRID.to_vec();
        grid.extend(self.hints.iter().copied());
        grid.push(base.safety_width);
        grid.push(base.safety_width_sp);
        let on =
            |ws: &[f64]| -> Vec<TrialSettings> { ws.iter().map(|&w| base.widths(w, w)).collect() };
        let coarse = self.run(&on(&grid));
        let iqp = |t: &Trial| t.iqp_lap_diff_pct.map(f64::abs);
        let sp = |t: &Trial| t.sp_lap_diff_pct.map(f64::abs);
        let (bi, bs) = (Self::least(&coarse, iqp), Self::least(&coarse, sp));
        let around = |t: &Option<Trial>| -> Vec<f64> {
            t.as_ref().map_or(Vec::new(), |t| {
                let w = t.settings.safety_width;
                vec![w - WIDTH_STEP, w + WIDTH_STEP]
            })
        };
        let mut fine: Vec<f64> = around(&bi);
        fine.extend(around(&bs));
        fine.retain(|w| *w > 0.0);
        let mut all = coarse;
        if !all.iter().any(|t| t.exact) {
            all.extend(self.run(&on(&fine)));
        }
        let w = Self::least(&all, iqp).map_or(base.safety_width, |t| t.settings.safety_width);
        let w_sp =
            Self::least(&all, sp).map_or(base.safety_width_sp, |t| t.settings.safety_width_sp);
        all.extend(self.run(&[base.widths(w, w_sp)]));
        Self::least(&all, |t| Some(t.score()))
    }

    /// The search from `base` (the settings of the rebuild that did not reproduce the set):
    /// the widths on its structure, then each structural change (free rule, start,
    /// direction) with the widths searched again on it; the best change is kept and the
    /// others tried on top of it, for at most [`MAX_ROUNDS`] rounds.
    pub(crate) fn infer(mut self, base: TrialSettings) -> Inference {
        let better = |t: &Option<Trial>, than: &Option<Trial>| match (t, than) {
            (Some(a), Some(b)) => a.score() < b.score(),
            (Some(a), None) => a.score().is_finite(),
            _ => false,
        };
        let mut best = self.widths(base);
        let mut current = base;
        // which structural settings may still change: free rule, start, direction
        let mut open = [self.structural; 3];
        for _ in 0..MAX_ROUNDS {
            if best.as_ref().is_some_and(|b| b.exact) || !open.iter().any(|o| *o) {
                break;
            }
            // at the best widths so far (they are among the hints of each new grid)
            let at = best.as_ref().map_or(current, |b| TrialSettings {
                safety_width: b.settings.safety_width,
                safety_width_sp: b.settings.safety_width_sp,
                ..current
            });
            let flips = [
                TrialSettings {
                    free_rule: match at.free_rule {
                        FreeRule::MapServer => FreeRule::Nonzero,
                        FreeRule::Nonzero => FreeRule::MapServer,
                    },
                    ..at
                },
                TrialSettings {
                    start: match at.start {
                        StartChoice::Published => StartChoice::Extracted,
                        StartChoice::Extracted => StartChoice::Published,
                    },
                    ..at
                },
                TrialSettings {
                    reverse: !at.reverse,
                    ..at
                },
            ];
            let mut found: Option<(usize, Trial)> = None;
            for (k, flip) in flips.iter().enumerate().filter(|(k, _)| open[*k]) {
                let t = self.widths(*flip);
                if better(&t, &found.as_ref().map(|f| f.1.clone())) {
                    found = t.map(|t| (k, t));
                }
                if found.as_ref().is_some_and(|f| f.1.exact) {
                    break;
                }
            }
            let Some((k, t)) = found else { break };
            if !better(&Some(t.clone()), &best) {
                break;
            }
            open[k] = false;
            current = flips[k];
            best = Some(t);
        }
        let exact: Vec<Trial> = self.trials.iter().filter(|t| t.exact).cloned().collect();
        let best = exact.first().cloned().or(best);
        let tol = self.target.lap_tol * 100.0;
        Inference {
            tried: self.trials.len(),
            within_tolerance: best.as_ref().is_some_and(|b| b.score() <= tol),
            exact,
            best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up set whose laps depend on the widths and rule as a real rebuild's do, built
    /// at (nonzero, 0.55, 0.65): the search finds exactly that and says so.
    #[test]
    fn finds_the_widths_and_rule_a_set_was_built_with() {
        let truth = (FreeRule::Nonzero, 0.55, 0.65);
        let lap = |s: &TrialSettings| -> Result<(f64, f64), String> {
            if s.safety_width > 0.9 {
                return Err("too narrow".into());
            }
            // the other rule, start or direction: another track, another lap
            let rule = if s.free_rule == truth.0 { 1.0 } else { 1.1 };
            let start = if s.start == StartChoice::Published {
                0.0
            } else {
                0.01
            };
            let dir = if s.reverse { 0.3 } else { 0.0 };
            Ok((
                rule * (5.0 + s.safety_width) + start + dir,
                rule * (6.0 + 2.0 * s.safety_width_sp) + start + dir,
            ))
        };
        let target = Target {
            iqp_lap_s: Some(5.0 + truth.1),
            sp_lap_s: Some(6.0 + 2.0 * truth.2),
            lap_tol: 0.01,
        };
        let base = TrialSettings {
            free_rule: FreeRule::MapServer,
            start: StartChoice::Published,
            reverse: false,
            safety_width: 1.2,
            safety_width_sp: 1.2,
        };
        let inf = Search::new(lap, target, true, &[]).infer(base);
        let best = inf.best.clone().unwrap();
        assert!(best.exact && inf.within_tolerance, "{inf:?}");
        let s = best.settings;
        assert_eq!(s.free_rule, FreeRule::Nonzero);
        assert!((s.safety_width - 0.55).abs() < 1e-9, "{s:?}");
        assert!((s.safety_width_sp - 0.65).abs() < 1e-9, "{s:?}");
        // bounded: at most six structures, each a grid, its hints and a refinement
        assert!(inf.tried <= 6 * (WIDTH_GRID.len() + 7), "{}", inf.tried);
        // nothing reproduces a lap no setting gives: said honestly, the closest named
        let target = Target {
            iqp_lap_s: Some(1.0),
            ..target
        };
        let inf = Search::new(lap, target, true, &[]).infer(base);
        assert!(inf.exact.is_empty() && !inf.within_tolerance, "{inf:?}");
        assert!(inf.best.is_some());
    }
}
