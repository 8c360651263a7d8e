//! Sign of life from a long run: an observer the caller installs on its thread
//! ([`observe`]), told the estimated work before the racing-line stages and each IQP
//! iteration after it; and a watcher of lines ([`watch_lines`]), handed each racing line as
//! soon as it is done, before the run's later lines are. No I/O here: the caller decides
//! what to print, or what to start on.

use std::cell::RefCell;
use std::sync::Arc;

use crate::{RacelineParams, RacingLine, Stage};

/// What a run tells its observer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// Before stage 7: the work ahead.
    Estimate(Work),
    /// A stage starts (the IQP, the SP, the minimum-time line).
    Stage(Stage),
    /// An IQP iteration finished.
    IqpIteration {
        /// Iterations run, from 1.
        iteration: usize,
        /// The most iterations (`iqp_iters_max`).
        max: usize,
        /// Curvature error of this iteration, rad/m.
        error: f64,
        /// The error the loop stops at (`iqp_curverror_allowed`).
        allowed: f64,
    },
    /// An iteration of the seamless IQP finished (`[raceline] seamless`), which runs to its
    /// fixed point.
    SeamlessIqpIteration {
        /// Iterations run, from 1.
        iteration: usize,
        /// The most iterations (`iqp_iters_max`).
        max: usize,
        /// The largest shift of a knot this QP asked for, metres.
        shift_m: f64,
        /// The shift the loop stops below, metres.
        tolerance_m: f64,
    },
}

/// Seconds per knot and QP solve, an order of magnitude for the note that a run will take
/// long. The release build on a shared two-core machine: a 1.9 km circle (9,400 knots) took
/// 3 s of CPU, an 18.8 km one (94,000 knots) more than 87 s without finishing; the time grows
/// faster than the knots, so this is the rate of the long runs the note is for.
pub const SECONDS_PER_KNOT_SOLVE: f64 = 2.0e-4;

/// Above this many estimated seconds a run is long: a caller should say so and show progress.
pub const LONG_RUN_S: f64 = 20.0;

/// The work of the racing-line stages on a centerline: knots × QP solves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Work {
    /// Knots of the prepped reference line (lap length / `stepsize_reg`).
    pub knots: usize,
    /// QP solves at least: `iqp_iters_min` IQP iterations, the SP's and the second IQP's.
    pub solves: usize,
    /// Expected seconds, roughly ([`SECONDS_PER_KNOT_SOLVE`]).
    pub seconds: f64,
}

impl Work {
    /// The work on a closed line `length_m` long with `params`.
    pub fn of(length_m: f64, params: &RacelineParams) -> Work {
        let knots = if length_m.is_finite() && params.stepsize_reg > 0.0 {
            (length_m / params.stepsize_reg)
                .ceil()
                .min(usize::MAX as f64) as usize
        } else {
            0
        };
        // the IQP's least iterations, the SP; the second IQP when its width differs
        let second = usize::from(params.safety_width_sp != params.safety_width);
        let solves = params.iqp_iters_min.max(1) * (1 + second) + 1;
        Work {
            knots,
            solves,
            seconds: knots as f64 * solves as f64 * SECONDS_PER_KNOT_SOLVE,
        }
    }

    /// True when the run is expected to take longer than [`LONG_RUN_S`].
    pub fn is_long(&self) -> bool {
        self.seconds > LONG_RUN_S
    }
}

/// An observer of a run's [`Event`]s.
pub type Observer = Arc<dyn Fn(&Event) + Send + Sync>;

thread_local! {
    static OBSERVER: RefCell<Option<Observer>> = const { RefCell::new(None) };
}

/// Runs `run` with `observer` told the events of the racing-line stages it runs on this
/// thread (the second IQP, which runs beside the first, reports nothing); the previous
/// observer is back afterwards.
pub fn observe<R>(observer: Observer, run: impl FnOnce() -> R) -> R {
    let before = OBSERVER.with(|o| o.borrow_mut().replace(observer));
    struct Restore(Option<Observer>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            OBSERVER.with(|o| *o.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    run()
}

/// A watcher of a run's racing lines ([`watch_lines`]).
pub type LineWatcher = Arc<dyn Fn(&RacingLine) + Send + Sync>;

thread_local! {
    static LINE_WATCHER: RefCell<Option<LineWatcher>> = const { RefCell::new(None) };
}

/// Runs `run` with `watcher` handed each racing line that a run on this thread has finished
/// while its later lines are still being computed (the IQP line, beside the SP), on the
/// thread that finished it. The line is as computed: a seamless run turns it to the given
/// start afterwards, and [`crate::RacelineResult::drive`] may put another line in its slot.
/// The previous watcher is back afterwards.
pub fn watch_lines<R>(watcher: LineWatcher, run: impl FnOnce() -> R) -> R {
    let before = LINE_WATCHER.with(|w| w.borrow_mut().replace(watcher));
    struct Restore(Option<LineWatcher>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            LINE_WATCHER.with(|w| *w.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    run()
}

/// This thread's line watcher, if any (to hand to the thread that finishes a line).
pub(crate) fn line_watcher() -> Option<LineWatcher> {
    LINE_WATCHER.with(|w| w.borrow().clone())
}

/// Tells this thread's observer, if any, about `event`.
pub(crate) fn report(event: Event) {
    let observer = OBSERVER.with(|o| o.borrow().clone());
    if let Some(f) = observer {
        f(&event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn work_grows_with_the_lap_and_an_observer_is_scoped() {
        let p = RacelineParams::mapzoo();
        let short = Work::of(100.0, &p);
        let long = Work::of(20_000.0, &p);
        assert_eq!(short.knots, (100.0 / p.stepsize_reg).ceil() as usize);
        assert!(long.seconds > 100.0 * short.seconds);
        assert!(!short.is_long() && long.is_long());
        assert_eq!(Work::of(f64::NAN, &p).knots, 0);

        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        observe(
            Arc::new(move |e: &Event| sink.lock().unwrap().push(*e)),
            || report(Event::Stage(Stage::Sp)),
        );
        report(Event::Stage(Stage::Iqp)); // no observer any more
        assert_eq!(*seen.lock().unwrap(), vec![Event::Stage(Stage::Sp)]);
    }
}
