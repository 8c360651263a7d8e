//! The kernels the property tests check, and their naive twins (STYLE: a
//! naive twin for every fast kernel): the sparse curvature QP of stage 8
//! (checked against TUM's dense formulation in the tests), the O(N) cyclic
//! tridiagonal spline solve (against a dense solve), the fold check, and the
//! velocity profile with its plain forward–backward loop; and the problem the
//! min-time step solves (its start knots, the step it times laps at), for the
//! slow optimiser that checks it. Built for tests and
//! with the `reference` feature; not part of the stable API.

pub use crate::iqp::{check_folds, CurvatureQp, Linearisation};
pub use crate::mintime::{start_knots, MintimeStep, FINE_STEP_M};
pub use crate::spline::{c2_rhs, c2_system, solve_cyclic_tridiagonal};
pub use crate::velocity::velocity_profile_reference;
