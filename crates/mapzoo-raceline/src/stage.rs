//! The named stages of the racing-line computation (DESIGN §3, stages 7–11), as they appear
//! in timings and error messages.

/// A stage of [`crate::compute`], or a step inside one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Stage 7: the smoothed reference line.
    Prep,
    /// A closed-spline fit (inside stages 7–10).
    Spline,
    /// Stage 8: the iterated minimum-curvature QP at `safety_width`.
    Iqp,
    /// Stage 8 again at `safety_width_sp`: the reference of the shortest path.
    IqpSp,
    /// Stage 9: the shortest-path QP.
    Sp,
    /// The minimum-lap-time line (issue 14), from the IQP line.
    Mintime,
    /// The active-set polish of a QP.
    Polish,
    /// The whole of stages 7–11.
    Total,
}

impl Stage {
    /// The name printed in timings, records (`<name>_s`) and errors.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Prep => "prep",
            Stage::Spline => "spline",
            Stage::Iqp => "iqp",
            Stage::IqpSp => "iqp_sp",
            Stage::Sp => "sp",
            Stage::Mintime => "mintime",
            Stage::Polish => "polish",
            Stage::Total => "total",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
