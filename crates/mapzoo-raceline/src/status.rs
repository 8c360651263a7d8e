//! What a QP solve gives: its solution ([`QpSolution`]: primal, slacks, duals) and the
//! solver's typed verdict ([`QpStatus`]), so each solver ([`crate::qp`]'s Clarabel path,
//! [`crate::banded`]) can return them and [`crate::OptimizeError`] can carry the verdict
//! without depending on a solver.

use clarabel::solver::SolverStatus;

/// Why Clarabel stopped: its `SolverStatus`, typed here so callers and errors can match on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QpStatus {
    /// The solver has not run.
    Unsolved,
    /// Solved to the requested tolerances.
    Solved,
    /// The constraints cannot all hold.
    PrimalInfeasible,
    /// The objective is unbounded below.
    DualInfeasible,
    /// Solved to reduced accuracy.
    AlmostSolved,
    /// Primal infeasible, to reduced accuracy.
    AlmostPrimalInfeasible,
    /// Dual infeasible, to reduced accuracy.
    AlmostDualInfeasible,
    /// The iteration limit was reached.
    MaxIterations,
    /// The time limit was reached.
    MaxTime,
    /// A numerical error stopped the solver.
    NumericalError,
    /// The iterates stopped improving.
    InsufficientProgress,
    /// A user callback stopped the solver.
    CallbackTerminated,
}

impl From<SolverStatus> for QpStatus {
    fn from(s: SolverStatus) -> Self {
        match s {
            SolverStatus::Unsolved => QpStatus::Unsolved,
            SolverStatus::Solved => QpStatus::Solved,
            SolverStatus::PrimalInfeasible => QpStatus::PrimalInfeasible,
            SolverStatus::DualInfeasible => QpStatus::DualInfeasible,
            SolverStatus::AlmostSolved => QpStatus::AlmostSolved,
            SolverStatus::AlmostPrimalInfeasible => QpStatus::AlmostPrimalInfeasible,
            SolverStatus::AlmostDualInfeasible => QpStatus::AlmostDualInfeasible,
            SolverStatus::MaxIterations => QpStatus::MaxIterations,
            SolverStatus::MaxTime => QpStatus::MaxTime,
            SolverStatus::NumericalError => QpStatus::NumericalError,
            SolverStatus::InsufficientProgress => QpStatus::InsufficientProgress,
            SolverStatus::CallbackTerminated => QpStatus::CallbackTerminated,
        }
    }
}

impl std::fmt::Display for QpStatus {
    /// Clarabel's name of the status (e.g. `PrimalInfeasible`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Slack-to-dual ratio within which an inequality row's classification is ambiguous
/// ([`QpSolution::ambiguous`]).
const AMBIGUOUS_RATIO: f64 = 10.0;

/// Primal solution, slacks and duals of one QP.
#[derive(Debug, Clone)]
pub(crate) struct QpSolution {
    pub x: Vec<f64>,
    pub s: Vec<f64>,
    pub z: Vec<f64>,
}

impl QpSolution {
    /// Whether inequality row `r` is taken as active: its slack is below its dual.
    pub(crate) fn active(&self, r: usize) -> bool {
        self.s[r] < self.z[r]
    }

    /// Whether some inequality row (from `n_eq` on) is neither clearly active nor clearly
    /// inactive: its slack and dual within a factor [`AMBIGUOUS_RATIO`] of each other (a
    /// weakly active row of a degenerate QP). Two interior points may then take different
    /// active sets, and their polishes differ.
    pub(crate) fn ambiguous(&self, n_eq: usize) -> bool {
        self.s
            .iter()
            .zip(&self.z)
            .skip(n_eq)
            .any(|(&s, &z)| s.max(z) < AMBIGUOUS_RATIO * s.min(z))
    }
}
