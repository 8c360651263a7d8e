//! Every criterion bench of the workspace in one binary (`cargo bench -p
//! mapzoo-benches`), one module per crate mirroring `crates/`, plus the
//! end-to-end benches of the whole pipeline. Kept in a package of its own so
//! that `cargo test` never compiles criterion.
//!
//! Filter as usual: `cargo bench -p mapzoo-benches -- build/f`.

use criterion::criterion_main;

mod end_to_end;
mod extract;
mod format;
mod pipeline;
mod raceline;
mod render;
mod synth;

criterion_main!(
    format::benches,
    extract::benches,
    raceline::benches,
    pipeline::benches,
    render::benches,
    synth::generate::benches,
    synth::output::benches,
    end_to_end::benches,
);
