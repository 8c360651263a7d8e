//! Criterion benchmarks of the synthetic map generator (issue 3 item 3), one
//! binary with a module per benched part of `src/`: [`generate`] (rasterising
//! maps) and [`output`] (writing PNG + YAML).

use criterion::criterion_main;

mod generate;
mod output;

criterion_main!(generate::benches, output::benches);
