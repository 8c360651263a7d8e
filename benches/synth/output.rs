//! Writing a map (`output`): the 4000×4000 px benchmark map as PNG + YAML.

use criterion::{criterion_group, Criterion};
use mapzoo_synth::generate;

use super::generate::big;

fn write_png(c: &mut Criterion) {
    let mut group = c.benchmark_group("synth");
    group.sample_size(10);
    let map = generate(&big()).expect("generate");
    let dir = tempfile::tempdir().expect("temp dir");
    group.bench_function("write_png_4000x4000", |b| {
        b.iter(|| map.write(dir.path(), "big").expect("write"))
    });
    group.finish();
}

criterion_group!(benches, write_png);
