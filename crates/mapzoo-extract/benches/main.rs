//! Criterion benchmarks of mapzoo-extract, one binary with a module per
//! benched part of `src/`: [`extract`] (the whole chain, stages 2–6).

use criterion::criterion_main;

mod extract;

criterion_main!(extract::benches);
