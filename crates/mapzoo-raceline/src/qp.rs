//! The quadratic programs of every racing line (DESIGN §3.8–3.9): one sparse
//! problem builder, one Clarabel solve with its settings and a typed status,
//! and the active-set polish that turns the interior point's answer into the
//! exact minimiser TUM's quadprog (an exact active-set method) returns.
//!
//! Two solvers share the builder ([`QpSolver`]): the banded interior point of
//! [`crate::banded`] (the default), O(N) per iteration on the knot structure every
//! racing-line QP has, and Clarabel, the general conic solver the tests compare against and
//! the fallback of a banded solve that does not converge. Both end in the same active-set
//! polish.
//!
//! A problem is `min ½xᵀPx + qᵀx  s.t.  Ax + s = b`, the first `n_eq` rows of A
//! equalities (s = 0), the others inequalities (s ≥ 0). P is given by its upper
//! triangle. The IQP ([`crate::iqp`]) and the SP ([`crate::sp`]) assemble their
//! problems with [`QpProblem`]; a further line kind does the same.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettings, DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::banded;
use crate::error::OptimizeError;
use crate::spline::{solve_cyclic_tridiagonal, thomas};
use crate::stage::Stage;
use crate::status::QpSolution;

/// The solver of the racing-line QPs (`[raceline] qp_solver`, `--qp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QpSolver {
    /// The banded interior point (O(N) per iteration on the knots' structure); the default.
    #[default]
    Banded,
    /// Clarabel, the general sparse conic interior point (the reference).
    Clarabel,
}

impl QpSolver {
    /// The name in pipeline.toml and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            QpSolver::Banded => "banded",
            QpSolver::Clarabel => "clarabel",
        }
    }
}

impl std::str::FromStr for QpSolver {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "banded" => Ok(QpSolver::Banded),
            "clarabel" => Ok(QpSolver::Clarabel),
            other => Err(format!(
                "unknown QP solver \"{other}\" (expected \"banded\" or \"clarabel\")"
            )),
        }
    }
}

/// Clarabel settings of one solve: tolerance tiers tried in turn, iteration cap, refinement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QpSettings {
    /// (absolute and relative gap, feasibility, KKT ratio) per attempt: tight first, so the
    /// active set is found as quadprog finds it, then Clarabel's defaults for a stalled problem.
    pub tolerances: [(f64, f64, f64); 2],
    /// Interior-point iterations per attempt.
    pub max_iter: u32,
    /// Iterative refinement of the KKT solves (it only pays for the equality-constrained polish).
    pub refine: bool,
}

impl QpSettings {
    /// The interior-point solve of a racing-line QP.
    pub const INTERIOR: QpSettings = QpSettings {
        tolerances: [(1e-10, 1e-10, 1e-8), (1e-8, 1e-8, 1e-6)],
        max_iter: 200,
        refine: false,
    };
    /// The equality-constrained re-solve of the active-set polish.
    pub const POLISH: QpSettings = QpSettings {
        refine: true,
        ..QpSettings::INTERIOR
    };
}

/// Matrix entries (row, column, value), in the order they were added.
#[derive(Debug, Clone, Default)]
pub(crate) struct Triplets {
    pub i: Vec<usize>,
    pub j: Vec<usize>,
    pub v: Vec<f64>,
}

impl Triplets {
    fn with_capacity(nnz: usize) -> Self {
        Triplets {
            i: Vec::with_capacity(nnz),
            j: Vec::with_capacity(nnz),
            v: Vec::with_capacity(nnz),
        }
    }

    /// Adds entry (i, j) = v.
    fn push(&mut self, i: usize, j: usize, v: f64) {
        self.i.push(i);
        self.j.push(j);
        self.v.push(v);
    }

    /// The `rows` × `cols` matrix (repeated entries summed): Clarabel's
    /// `CscMatrix::new_from_triplets` bit for bit (the entries ordered by column, then row, each
    /// kept in the order added, and repeated ones summed in that order), by two counting sorts
    /// instead of its comparison sort of the triplets (a min-time step's Clarabel solve spent
    /// about a tenth of its instructions there).
    fn csc(&self, rows: usize, cols: usize) -> CscMatrix<f64> {
        // stable counting sort of `order` by `key`
        fn by_key(order: &[usize], key: &[usize], n: usize) -> Vec<usize> {
            let mut next = vec![0usize; n + 1];
            for &k in key {
                next[k + 1] += 1;
            }
            for k in 0..n {
                next[k + 1] += next[k];
            }
            let mut out = vec![0usize; order.len()];
            for &t in order {
                out[next[key[t]]] = t;
                next[key[t]] += 1;
            }
            out
        }
        let all: Vec<usize> = (0..self.v.len()).collect();
        let order = by_key(&by_key(&all, &self.i, rows), &self.j, cols);
        let mut colptr = vec![0usize; cols + 1];
        let mut rowval: Vec<usize> = Vec::with_capacity(order.len());
        let mut nzval: Vec<f64> = Vec::with_capacity(order.len());
        let mut last: Option<(usize, usize)> = None;
        for &t in &order {
            let (r, c) = (self.i[t], self.j[t]);
            match (last, nzval.last_mut()) {
                (Some(prev), Some(sum)) if prev == (r, c) => *sum += self.v[t],
                _ => {
                    rowval.push(r);
                    nzval.push(self.v[t]);
                    colptr[c + 1] += 1;
                }
            }
            last = Some((r, c));
        }
        for c in 0..cols {
            colptr[c + 1] += colptr[c];
        }
        CscMatrix::new(rows, cols, colptr, rowval, nzval)
    }
}

/// The interior point of the last QP of a sequence (slacks and duals per row), where the
/// banded solver starts the next one of the same shape: the IQP's curvature QPs move little
/// from one iteration to the next (f's IQP stage: 370 M → 315 M instructions).
#[derive(Debug, Clone, Default)]
pub(crate) struct WarmStart(Option<banded::Iterate>);

impl WarmStart {
    /// Interior-point iterations of the solve that left this start.
    #[cfg(test)]
    pub(crate) fn iterations(&self) -> Option<usize> {
        self.0.as_ref().map(banded::Iterate::iterations)
    }
}

/// A sparse QP `min ½xᵀPx + qᵀx  s.t.  Ax + s = b`, rows `0..n_eq` equalities, the rest
/// inequalities `Ax ≤ b`.
#[derive(Debug, Clone)]
pub struct QpProblem {
    nvar: usize,
    n_eq: usize,
    p: Triplets,
    q: Vec<f64>,
    a: Triplets,
    b: Vec<f64>,
    /// Knots: variable v and equality row r belong to knot v mod `knots` (0: no structure).
    knots: usize,
    solver: QpSolver,
}

impl QpProblem {
    /// An empty problem of `nvar` variables, `n_eq` equality and `n_ineq` inequality rows
    /// (q and b zero); `p_nnz`, `a_nnz` are capacity hints.
    pub fn new(nvar: usize, n_eq: usize, n_ineq: usize, p_nnz: usize, a_nnz: usize) -> Self {
        QpProblem {
            nvar,
            n_eq,
            p: Triplets::with_capacity(p_nnz),
            q: vec![0.0; nvar],
            a: Triplets::with_capacity(a_nnz),
            b: vec![0.0; n_eq + n_ineq],
            knots: 0,
            solver: QpSolver::default(),
        }
    }

    /// Declares the knot structure the banded solver uses: variable v and equality row r
    /// belong to knot v mod `knots` (and r mod `knots`), couplings only between neighbouring
    /// knots of the closed loop.
    pub fn set_knots(&mut self, knots: usize) {
        self.knots = knots;
    }

    /// Chooses the solver (default [`QpSolver::Banded`]).
    pub fn set_solver(&mut self, solver: QpSolver) {
        self.solver = solver;
    }

    /// The problem as the banded solver reads it.
    fn banded(&self) -> banded::Problem<'_> {
        fn t(m: &Triplets) -> banded::Triplets<'_> {
            banded::Triplets {
                i: &m.i,
                j: &m.j,
                v: &m.v,
            }
        }
        banded::Problem {
            nvar: self.nvar,
            n_eq: self.n_eq,
            p: t(&self.p),
            q: &self.q,
            a: t(&self.a),
            b: &self.b,
            knots: self.knots,
            grouped: None,
        }
    }

    /// Adds `v` to P(i, j), upper triangle (i ≤ j).
    pub fn hessian(&mut self, i: usize, j: usize, v: f64) {
        self.p.push(i, j, v);
    }

    /// Sets the linear term of variable `i`.
    pub fn linear(&mut self, i: usize, v: f64) {
        self.q[i] = v;
    }

    /// Adds `v` to A(row, col).
    pub fn constraint(&mut self, row: usize, col: usize, v: f64) {
        self.a.push(row, col, v);
    }

    /// Sets the right-hand side of `row`.
    pub fn bound(&mut self, row: usize, v: f64) {
        self.b[row] = v;
    }

    /// The right-hand side b.
    pub fn rhs(&self) -> &[f64] {
        &self.b
    }

    /// The linear term q.
    pub fn linear_term(&self) -> &[f64] {
        &self.q
    }

    /// The cones: the equalities, then the inequalities (an empty cone is left out).
    fn cones(&self) -> Vec<SupportedConeT<f64>> {
        let n_ineq = self.b.len() - self.n_eq;
        let mut cones = Vec::with_capacity(2);
        if self.n_eq > 0 {
            cones.push(SupportedConeT::ZeroConeT(self.n_eq));
        }
        if n_ineq > 0 {
            cones.push(SupportedConeT::NonnegativeConeT(n_ineq));
        }
        cones
    }

    /// The error of the banded interior point after `iterations` iterations from its cold
    /// start (no polish; `None` where it stopped earlier or the structure does not fit): a
    /// bench's fixed amount of work per problem size.
    #[cfg(any(test, feature = "reference"))]
    pub(crate) fn interior_point_iterations(&self, iterations: usize) -> Option<f64> {
        banded::iterations(&self.banded(), iterations)
    }

    /// As [`QpProblem::interior_point_iterations`] with Clarabel (its set-up and `iterations`
    /// iterations, set as its first attempt at a racing-line QP is): the larger of its primal
    /// and dual residual when it stopped at the iteration limit, `None` where it stopped
    /// otherwise.
    #[cfg(any(test, feature = "reference"))]
    pub(crate) fn clarabel_iterations(&self, iterations: u32) -> Option<f64> {
        let settings = QpSettings {
            max_iter: iterations,
            ..QpSettings::INTERIOR
        };
        let settings = clarabel_settings(&settings, settings.tolerances[0]).ok()?;
        let p = self.p.csc(self.nvar, self.nvar);
        let a = self.a.csc(self.b.len(), self.nvar);
        let cones = self.cones();
        let mut solver = DefaultSolver::new(&p, &self.q, &a, &self.b, &cones, settings).ok()?;
        solver.solve();
        let sol = &solver.solution;
        (sol.status == SolverStatus::MaxIterations).then(|| sol.r_prim.max(sol.r_dual))
    }

    /// The interior-point solution (x, slacks, duals), for a caller whose line depends on the
    /// answer's active set (the SP polishes on it). A banded solve that does not converge (e.g.
    /// an infeasible problem) is handed to Clarabel, which names the status; so is a banded
    /// answer whose active set is ambiguous (a degenerate QP, where two interior points within
    /// the tolerance may take different sets and differ by ~1e-6), so that the line is the
    /// reference solver's.
    pub(crate) fn solve_unambiguous(
        &self,
        stage: Stage,
        iteration: usize,
    ) -> Result<QpSolution, OptimizeError> {
        if self.solver == QpSolver::Banded {
            if let Ok(sol) = banded::solve(&self.banded()) {
                if !sol.ambiguous(self.n_eq) {
                    return Ok(sol);
                }
            }
        }
        self.solve_interior(&self.p.csc(self.nvar, self.nvar), stage, iteration)
    }

    /// The exact minimiser of one QP of a sequence whose steps take the answer as it is (the
    /// min-time steps): the interior point's solution polished on its active set (the rows
    /// whose slack is below their dual taken as equalities), tried on the banded iterates as
    /// the IQP's QPs are ([`banded::solve_exact`]), at the end with the set corrected where the
    /// minimiser test fails (the violated rows join it, the rows pulling the wrong way leave),
    /// else the interior point's x. A nearly active row with a vanishing multiplier (a
    /// degenerate QP) gives the same minimiser whichever way the interior point classed it, so
    /// the polished answer does not depend on the solver, where two interior points differ by
    /// ~1e-6. A banded solve that does not converge, or whose polish does not settle on an
    /// ambiguous active set, is handed to Clarabel (polished and corrected the same way).
    pub(crate) fn solve_step(
        &self,
        stage: Stage,
        iteration: usize,
    ) -> Result<Vec<f64>, OptimizeError> {
        if self.solver == QpSolver::Banded {
            if let Ok(x) = banded::solve_exact(&self.banded()) {
                return Ok(x);
            }
        }
        let p = self.p.csc(self.nvar, self.nvar);
        let sol = self.solve_interior(&p, stage, iteration)?;
        Ok(self.polish(&p, &sol, banded::CORRECTIONS).unwrap_or(sol.x))
    }

    /// The exact minimiser: the interior-point solution polished on its active set
    /// (the active-set polish), or the interior-point x where the polish does not hold.
    pub fn solve_polished(
        &self,
        stage: Stage,
        iteration: usize,
    ) -> Result<Vec<f64>, OptimizeError> {
        self.solve_polished_warm(stage, iteration, &mut WarmStart::default())
    }

    /// As [`QpProblem::solve_polished`], the banded solver's interior point starting from
    /// `warm` (the previous QP of a sequence of the same shape), which then holds this
    /// solve's for the next (nothing after a Clarabel answer). The answer is the same exact
    /// minimiser: a warm start is kept only where its early polish holds
    /// ([`banded::solve_polished`]), else the QP is solved from the cold start; on the golden
    /// manifest's maps the lines move by at most 1.4e-7 m (4 sets of 37, in the last digits).
    ///
    /// The attempts in order: the warm start (its early polish only), the cold start (an
    /// early polish, else the converged iterate's, its set corrected where a weakly active row
    /// was classed wrongly), Clarabel (polished and corrected the same way) where no banded
    /// polish settles or the interior point does not converge. On a long track
    /// ([`speculate`]) the cold start runs on a second thread beside the warm one and is
    /// abandoned when that holds: the answer is the same, each attempt's result being its own
    /// whichever thread runs it.
    pub(crate) fn solve_polished_warm(
        &self,
        stage: Stage,
        iteration: usize,
        warm: &mut WarmStart,
    ) -> Result<Vec<f64>, OptimizeError> {
        let carried = warm.0.take();
        if self.solver != QpSolver::Banded {
            return self.reference_answer(stage, iteration);
        }
        let pb = self.banded();
        let solved = match carried {
            Some(carried) if speculate(self.knots) => first_success(
                || banded::solve_polished(&pb, Some(&carried), None),
                |stop| banded::solve_polished(&pb, None, Some(stop)),
            ),
            Some(carried) => banded::solve_polished(&pb, Some(&carried), None)
                .or_else(|_| banded::solve_polished(&pb, None, None)),
            None => banded::solve_polished(&pb, None, None),
        };
        match solved {
            Ok((x, next)) => {
                warm.0 = Some(next);
                Ok(x)
            }
            Err(_) => self.reference_answer(stage, iteration),
        }
    }

    /// Clarabel's answer: its interior point polished on its active set, the set corrected
    /// where the polished point breaks the minimiser test (a weakly active row classed
    /// wrongly), as a min-time step's is; the interior-point x where no set settles.
    fn reference_answer(&self, stage: Stage, iteration: usize) -> Result<Vec<f64>, OptimizeError> {
        let p = self.p.csc(self.nvar, self.nvar);
        let sol = self.solve_interior(&p, stage, iteration)?;
        Ok(self.polish(&p, &sol, banded::CORRECTIONS).unwrap_or(sol.x))
    }

    /// Clarabel's interior-point solve with Hessian `p`.
    fn solve_interior(
        &self,
        p: &CscMatrix<f64>,
        stage: Stage,
        iteration: usize,
    ) -> Result<QpSolution, OptimizeError> {
        let a = self.a.csc(self.b.len(), self.nvar);
        solve_qp(
            p,
            &self.q,
            &a,
            &self.b,
            &self.cones(),
            QpSettings::INTERIOR,
            stage,
            iteration,
        )
    }

    /// The exact minimiser on the interior point's active set (TUM's quadprog is an exact
    /// active-set method; an interior point stops ~1e-7 short of the bounds, which the IQP
    /// iterations amplify). The inequality rows whose slack is below their dual become
    /// equalities; the equality-constrained QP is solved again, and kept only if the other
    /// inequalities hold and every fixed row's multiplier is ≥ 0 ([`banded::wrong_rows`], the
    /// banded polish's test). Where it fails, the set is corrected up to `corrections` times
    /// (the violated rows join it, the rows pulling the wrong way leave), as the banded polish
    /// of a min-time step is. `None` keeps the first answer.
    fn polish(&self, p: &CscMatrix<f64>, sol: &QpSolution, corrections: usize) -> Option<Vec<f64>> {
        let mut active: Vec<bool> = (0..self.b.len())
            .map(|r| r < self.n_eq || sol.active(r))
            .collect();
        for _ in 0..=corrections {
            let (x, lambda) = self.polish_on(p, &active)?;
            if !x.iter().all(|v| v.is_finite()) {
                return None;
            }
            let wrong = banded::wrong_rows(&self.banded(), &x, &active, &lambda);
            if wrong.is_empty() {
                return Some(x);
            }
            wrong.into_iter().for_each(|r| active[r] = !active[r]);
        }
        None
    }

    /// The solution of the equality-constrained QP with the rows `active` as equalities and
    /// the others dropped (Clarabel), and its multipliers (an entry per row, 0 off the set).
    fn polish_on(&self, p: &CscMatrix<f64>, active: &[bool]) -> Option<(Vec<f64>, Vec<f64>)> {
        let (a, b, nvar) = (&self.a, &self.b, self.nvar);
        let m = b.len();
        let mut new_row = vec![usize::MAX; m];
        let mut k = 0;
        for r in 0..m {
            if active[r] {
                new_row[r] = k;
                k += 1;
            }
        }
        let mut eq = Triplets::default();
        for t in 0..a.i.len() {
            let r = new_row[a.i[t]];
            if r != usize::MAX {
                eq.push(r, a.j[t], a.v[t]);
            }
        }
        let rb: Vec<f64> = (0..m).filter(|&r| active[r]).map(|r| b[r]).collect();
        let a_eq = eq.csc(k, nvar);
        let fixed = solve_qp(
            p,
            &self.q,
            &a_eq,
            &rb,
            &[SupportedConeT::ZeroConeT(k)],
            QpSettings::POLISH,
            Stage::Polish,
            0,
        )
        .ok()?;
        let lambda = (0..m)
            .map(|r| if active[r] { fixed.z[new_row[r]] } else { 0.0 })
            .collect();
        Some((fixed.x, lambda))
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: speculation on or off whatever the size (`None`: [`speculate`] decides).
    pub(crate) static SPECULATION: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Knots from which an IQP QP's cold start runs beside its warm start on a second thread
/// ([`QpProblem::solve_polished_warm`]). Below, a QP takes a few milliseconds, the two
/// solves side by side slow each other (~10 % here), and in `build` the second core encodes
/// the files already final (f, 766 knots: speculation would only cost); on the long F1TENTH
/// tracks (2,000–2,400 knots) two in five warm starts fail, each after ~25 ms of iterations.
const SPECULATE_FROM_KNOTS: usize = 1000;

/// Whether a QP of `knots` knots runs its cold start beside its warm start: a long track, a
/// second core, and not inside a thread pool that already runs one track per core (a
/// batch).
fn speculate(knots: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = SPECULATION.with(|s| s.get()) {
        return forced;
    }
    knots >= SPECULATE_FROM_KNOTS && crate::par::second_core_free()
}

/// `first()`, or where it fails `later`'s result: `later` runs on a second thread beside
/// `first` from the start, and is asked to stop (the flag it is given is set) as soon as
/// `first` succeeds, its result then unread. The result is the one the two give one after
/// the other, `later` only where `first` fails.
fn first_success<T: Send, E, F: Send>(
    first: impl FnOnce() -> Result<T, E>,
    later: impl FnOnce(&AtomicBool) -> Result<T, F> + Send,
) -> Result<T, F> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let later = scope.spawn(|| later(&stop));
        let first = first();
        if first.is_ok() {
            stop.store(true, Ordering::Relaxed);
        }
        let later = later
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        first.or(later)
    })
}

/// Clarabel's settings for one attempt of `settings` at the tolerances (absolute and
/// relative gap, feasibility, KKT ratio).
fn clarabel_settings(
    settings: &QpSettings,
    (gap, feas, ktratio): (f64, f64, f64),
) -> Result<DefaultSettings<f64>, String> {
    DefaultSettingsBuilder::default()
        .verbose(false)
        .iterative_refinement_enable(settings.refine)
        .tol_gap_abs(gap)
        .tol_gap_rel(gap)
        .tol_feas(feas)
        .tol_ktratio(ktratio)
        .max_iter(settings.max_iter)
        .build()
        .map_err(|e| e.to_string())
}

/// Run Clarabel on `min ½xᵀPx + qᵀx  s.t.  Ax + s = b, s ∈ cones`.
#[allow(clippy::too_many_arguments)]
fn solve_qp(
    p: &CscMatrix<f64>,
    q: &[f64],
    a: &CscMatrix<f64>,
    b: &[f64],
    cones: &[SupportedConeT<f64>],
    settings: QpSettings,
    stage: Stage,
    iteration: usize,
) -> Result<QpSolution, OptimizeError> {
    // Tight tolerances first, so the active set is found as quadprog finds it; a degenerate
    // problem (e.g. a circle, where every shift sits on its bound) can stall there, so retry at
    // Clarabel's default tolerances before giving up (the polish then makes the active set exact).
    let mut last = SolverStatus::Unsolved;
    for (gap, feas, ktratio) in settings.tolerances {
        let clarabel_settings =
            clarabel_settings(&settings, (gap, feas, ktratio)).map_err(|e| {
                OptimizeError::Numerical {
                    stage,
                    message: format!("solver settings: {e}"),
                }
            })?;
        let mut solver = DefaultSolver::new(p, q, a, b, cones, clarabel_settings).map_err(|e| {
            OptimizeError::Numerical {
                stage,
                message: format!("solver setup: {e}"),
            }
        })?;
        solver.solve();
        let sol = &solver.solution;
        // A stall this close to optimal is the best iterate there is (the polish makes it exact).
        let stalled_near_optimum =
            sol.status == SolverStatus::InsufficientProgress && sol.r_prim.max(sol.r_dual) <= 1e-9;
        match solver.solution.status {
            _ if stalled_near_optimum => {
                return Ok(QpSolution {
                    x: solver.solution.x.clone(),
                    s: solver.solution.s.clone(),
                    z: solver.solution.z.clone(),
                })
            }
            SolverStatus::Solved | SolverStatus::AlmostSolved => {
                return Ok(QpSolution {
                    x: solver.solution.x.clone(),
                    s: solver.solution.s.clone(),
                    z: solver.solution.z.clone(),
                })
            }
            SolverStatus::InsufficientProgress
            | SolverStatus::MaxIterations
            | SolverStatus::NumericalError => last = solver.solution.status,
            status => {
                last = status;
                break;
            }
        }
    }
    Err(OptimizeError::Solver {
        stage,
        status: last.into(),
        iteration,
    })
}

/// The active-set polish for a QP whose P is cyclic tridiagonal (`diag`, `off[i]` = P(i, i+1))
/// and whose only constraints are the box bounds −lower ≤ x ≤ upper, rows `0..n` the upper and
/// `n..2n` the lower bounds (the SP). Fix the bounds whose slack is below their dual, solve the
/// cyclic tridiagonal KKT rows of the free variables exactly, and keep the result only if it is
/// primal and dual feasible. `None` keeps the interior-point answer.
pub(crate) fn polish_box_tridiagonal(
    diag: &[f64],
    off: &[f64],
    q: &[f64],
    upper: &[f64],
    lower: &[f64],
    sol: &QpSolution,
) -> Option<Vec<f64>> {
    let n = diag.len();
    // −1 at the lower bound, +1 at the upper bound, 0 free
    let active: Vec<i8> = (0..n)
        .map(|i| {
            if sol.active(i) {
                1
            } else if sol.active(n + i) {
                -1
            } else {
                0
            }
        })
        .collect();
    let mut x: Vec<f64> = (0..n)
        .map(|i| match active[i] {
            1 => upper[i],
            -1 => -lower[i],
            _ => sol.x[i],
        })
        .collect();
    let free: Vec<usize> = (0..n).filter(|&i| active[i] == 0).collect();
    let h = CyclicTridiagonal { diag, off };
    if free.len() == n {
        let sub: Vec<f64> = (0..n).map(|i| h.prev(i)).collect();
        let sup: Vec<f64> = (0..n).map(|i| h.next(i)).collect();
        let rhs: Vec<f64> = q.iter().map(|v| -v).collect();
        x = solve_cyclic_tridiagonal(&sub, diag, &sup, &rhs).ok()?;
    } else if !free.is_empty() {
        h.solve_free_runs(q, &active, &mut x)?;
    }
    h.kkt_holds(q, upper, lower, &active, &x).then_some(x)
}

/// A symmetric cyclic tridiagonal matrix: `diag`, and `off[i]` = H(i, i+1) (the last
/// H(n−1, 0)).
struct CyclicTridiagonal<'a> {
    diag: &'a [f64],
    off: &'a [f64],
}

impl CyclicTridiagonal<'_> {
    /// H(i, i−1).
    fn prev(&self, i: usize) -> f64 {
        let n = self.diag.len();
        self.off[(i + n - 1) % n]
    }

    /// H(i, i+1).
    fn next(&self, i: usize) -> f64 {
        self.off[i]
    }

    /// H x = −q on the free rows (`active[i] == 0`) with the fixed x held: each run of
    /// consecutive free indices (cyclically) is an open tridiagonal system whose fixed
    /// neighbours at both ends move to the right-hand side. `None` on a zero pivot.
    fn solve_free_runs(&self, q: &[f64], active: &[i8], x: &mut [f64]) -> Option<()> {
        let n = self.diag.len();
        let start = (0..n).find(|&i| active[i] != 0)?;
        let mut k = 0;
        while k < n {
            let i0 = (start + k) % n;
            if active[i0] != 0 {
                k += 1;
                continue;
            }
            let mut run = Vec::new();
            while k < n && active[(start + k) % n] == 0 {
                run.push((start + k) % n);
                k += 1;
            }
            let m = run.len();
            let mut sub = vec![0.0; m];
            let mut dg = vec![0.0; m];
            let mut sup = vec![0.0; m];
            let mut rhs = vec![0.0; m];
            for (r, &i) in run.iter().enumerate() {
                dg[r] = self.diag[i];
                sub[r] = self.prev(i);
                sup[r] = self.next(i);
                rhs[r] = -q[i];
            }
            let before = (run[0] + n - 1) % n;
            let after = (run[m - 1] + 1) % n;
            rhs[0] -= self.prev(run[0]) * x[before];
            rhs[m - 1] -= self.next(run[m - 1]) * x[after];
            let y = thomas(&sub, &dg, &sup, &rhs).ok()?;
            for (r, &i) in run.iter().enumerate() {
                x[i] = y[r];
            }
        }
        Some(())
    }

    /// Primal feasibility of the free variables, dual feasibility of the fixed ones (the
    /// gradient H x + q pushes each fixed variable against its bound), every x finite.
    fn kkt_holds(&self, q: &[f64], upper: &[f64], lower: &[f64], active: &[i8], x: &[f64]) -> bool {
        let n = self.diag.len();
        let tol = 1e-9;
        (0..n).all(|i| {
            let g = self.diag[i] * x[i]
                + self.prev(i) * x[(i + n - 1) % n]
                + self.next(i) * x[(i + 1) % n]
                + q[i];
            let ok = match active[i] {
                0 => x[i] <= upper[i] + tol && -x[i] <= lower[i] + tol,
                1 => g <= tol,
                _ => g >= -tol,
            };
            ok && x[i].is_finite()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::QpStatus;
    use crate::testing::Lcg;

    /// min ½‖x − (2, −3)‖² s.t. x₀ + x₁ = 1, −1 ≤ x ≤ 1: on the line the nearest point is
    /// (3, −2); the bound x₀ ≤ 1 binds (multiplier 4), so x = (1, 0).
    fn box_qp() -> QpProblem {
        let mut qp = QpProblem::new(2, 1, 4, 2, 6);
        qp.hessian(0, 0, 1.0);
        qp.hessian(1, 1, 1.0);
        qp.linear(0, -2.0);
        qp.linear(1, 3.0);
        qp.constraint(0, 0, 1.0);
        qp.constraint(0, 1, 1.0);
        qp.bound(0, 1.0);
        for (k, (col, sign)) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0)]
            .into_iter()
            .enumerate()
        {
            qp.constraint(1 + k, col, sign);
            qp.bound(1 + k, 1.0);
        }
        qp
    }

    /// The first attempt's success wins and stops the later one; its failure gives the later
    /// one's result, success or failure.
    #[test]
    fn first_success_keeps_the_order_of_the_attempts() {
        let later_waits = |stop: &AtomicBool| -> Result<u32, &str> {
            // a later attempt that would run long: it ends when told to stop
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            Ok(2)
        };
        assert_eq!(first_success(|| Ok::<u32, ()>(1), later_waits), Ok(1));
        assert_eq!(
            first_success(|| Err::<u32, ()>(()), |_| Ok::<u32, &str>(2)),
            Ok(2)
        );
        assert_eq!(
            first_success(
                || Err::<u32, ()>(()),
                |_| Err::<u32, &str>("reference failed")
            ),
            Err("reference failed")
        );
        // a later attempt that finished first is not taken over the first's success
        let (tx, rx) = std::sync::mpsc::channel();
        let got = first_success(
            || {
                rx.recv().expect("the later attempt ends first");
                Ok::<u32, ()>(1)
            },
            |_| {
                tx.send(()).expect("the first attempt waits");
                Ok::<u32, &str>(2)
            },
        );
        assert_eq!(got, Ok(1));
    }

    /// [`box_qp`]: the polish reaches (1, 0) to rounding, where the interior point alone stops
    /// ~1e-7 short.
    #[test]
    fn small_box_qp_is_solved_exactly() {
        let mut qp = box_qp();
        for solver in [QpSolver::Clarabel, QpSolver::Banded] {
            qp.set_solver(solver);
            let x = qp.solve_polished(Stage::Iqp, 1).unwrap();
            assert!(
                (x[0] - 1.0).abs() < 1e-12 && x[1].abs() < 1e-12,
                "{solver:?}: {x:?}"
            );
        }
    }

    /// The benches' fixed-work runs are each solver's own iterations: stopped at the limit
    /// with a residual that falls as the limit grows, and `None` once the solver converges
    /// within it.
    #[test]
    fn fixed_iteration_runs_stop_at_their_limit() {
        let qp = box_qp();
        let clarabel: Vec<Option<f64>> = (1..=30).map(|k| qp.clarabel_iterations(k)).collect();
        let banded: Vec<Option<f64>> = (0..=30).map(|k| qp.interior_point_iterations(k)).collect();
        for (name, runs) in [("Clarabel", &clarabel), ("banded", &banded)] {
            let limited: Vec<f64> = runs.iter().map_while(|r| *r).collect();
            assert!(!limited.is_empty(), "{name}: stopped at the first limit");
            assert!(
                limited.len() < runs.len(),
                "{name}: never converged within 30"
            );
            assert!(
                limited.last() < limited.first(),
                "{name}: residuals {limited:?}"
            );
        }
    }

    /// The min-time steps' polish corrects a wrong active set, with either solver: for
    /// min ½‖x − (2, ½)‖² s.t. x ≤ (1, 1) the minimiser is (1, ½) with the first row active;
    /// from a solution that classes both rows the wrong way the plain polish fails, the
    /// corrected one reaches the minimiser.
    #[test]
    fn corrected_polish_mends_a_wrong_active_set() {
        let mut qp = QpProblem::new(2, 0, 2, 2, 2);
        qp.hessian(0, 0, 1.0);
        qp.hessian(1, 1, 1.0);
        qp.linear(0, -2.0);
        qp.linear(1, -0.5);
        for r in 0..2 {
            qp.constraint(r, r, 1.0);
            qp.bound(r, 1.0);
        }
        // row 0 classed inactive (slack above its dual), row 1 active
        let wrong = QpSolution {
            x: vec![1.0, 0.5],
            s: vec![1.0, 0.0],
            z: vec![0.0, 1.0],
        };
        let exact = |x: &[f64]| (x[0] - 1.0).abs() < 1e-12 && (x[1] - 0.5).abs() < 1e-12;
        let p = qp.p.csc(2, 2);
        assert!(qp.polish(&p, &wrong, 0).is_none());
        assert!(exact(&qp.polish(&p, &wrong, banded::CORRECTIONS).unwrap()));
        let corrected = banded::polish_exact(&qp.banded(), &wrong, banded::CORRECTIONS);
        assert!(corrected.is_some_and(|x| exact(&x)));
    }

    /// `Triplets::csc` is Clarabel's `new_from_triplets`, bit for bit: random entries with
    /// repeats (summed in the order added), empty rows and columns, zeros kept.
    #[test]
    fn csc_is_clarabels_from_triplets() {
        let mut rng = Lcg::new(11);
        let mut next = |n: usize| rng.below(n);
        for case in 0..300 {
            let (rows, cols) = (1 + case % 9, 1 + case % 7);
            let mut t = Triplets::default();
            for _ in 0..next(50) {
                let v = next(4001) as f64 / 7.0 - 285.0;
                t.push(next(rows), next(cols), if next(10) == 0 { 0.0 } else { v });
            }
            let ours = t.csc(rows, cols);
            let theirs =
                CscMatrix::new_from_triplets(rows, cols, t.i.clone(), t.j.clone(), t.v.clone());
            assert_eq!((ours.m, ours.n), (theirs.m, theirs.n), "case {case}");
            assert_eq!(ours.colptr, theirs.colptr, "case {case}");
            assert_eq!(ours.rowval, theirs.rowval, "case {case}");
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&ours.nzval), bits(&theirs.nzval), "case {case}");
        }
    }

    /// Contradicting bounds give a typed status and name the stage, with either solver (the
    /// banded one cannot converge and hands the problem to Clarabel, which names it).
    #[test]
    fn infeasible_problem_reports_a_typed_status() {
        let mut qp = QpProblem::new(1, 0, 2, 1, 2);
        qp.hessian(0, 0, 1.0);
        qp.constraint(0, 0, 1.0);
        qp.bound(0, -1.0);
        qp.constraint(1, 0, -1.0);
        qp.bound(1, -1.0);
        for solver in [QpSolver::Clarabel, QpSolver::Banded] {
            qp.set_solver(solver);
            match qp.solve_unambiguous(Stage::Sp, 0) {
                Err(OptimizeError::Solver { stage, status, .. }) => {
                    assert_eq!(stage, Stage::Sp);
                    assert_eq!(status, QpStatus::PrimalInfeasible);
                    assert_eq!(status.to_string(), "PrimalInfeasible");
                }
                other => panic!("{solver:?}: expected a solver error, got {other:?}"),
            }
        }
    }
}
