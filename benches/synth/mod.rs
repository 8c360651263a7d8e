//! Criterion benchmarks of the synthetic map generator (issue 3 item 3), a
//! module per benched part of `src/`: [`generate`] (rasterising
//! maps) and [`output`] (writing PNG + YAML).

pub(crate) mod generate;
pub(crate) mod output;
