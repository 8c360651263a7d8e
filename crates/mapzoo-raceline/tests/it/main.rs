//! Integration tests of mapzoo-raceline, one binary, modules mirroring `src/`:
//! [`compute`] (stages 7–11 end to end on synthetic tracks), [`error`] (typed
//! errors, never a panic), [`iqp`] (the sparse curvature QP against TUM's dense
//! one), [`mintime`] (the minimum-lap-time line: never slower than IQP or SP, inside the
//! corridor, deterministic, a finite-difference bump check, f and Austin), [`mintime_reference`]
//! (a slow, exact optimiser of the same problem: the min-time lap within 0.1 % of its best),
//! [`params`] (the profiles against the Race Stack's files), [`parity`]
//! (published lap times; reference data, skipped without it or failed under
//! `MAPZOO_REQUIRE_DATA=1`), [`suggest`] (what a failed run says would build), [`spline`],
//! [`velocity`] and [`walls`] (kernels against naive twins); [`dense`] is the small dense
//! matrix the naive twins solve with. Saved proptest cases of module `m` are in
//! `tests/proptest-regressions/m.txt` (proptest finds `tests/it/main.rs` and
//! looks in a `proptest-regressions` folder beside `it/`).

mod banded;
mod compute;
mod dense;
mod error;
mod iqp;
mod mintime;
mod mintime_reference;
mod params;
mod parity;
mod seamless;
mod spline;
mod suggest;
mod support;
mod velocity;
mod walls;
