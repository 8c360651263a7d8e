//! Stages 7–11 as one call: prep, IQP, second IQP, SP, sampling, velocity profiles.

use criterion::Criterion;
use mapzoo_raceline::compute;

pub fn bench(c: &mut Criterion) {
    for (name, centerline, walls, params) in super::tracks() {
        c.bench_function(&format!("raceline_stage/{name}"), |b| {
            b.iter(|| compute(&centerline, walls.as_ref(), &params).expect("compute"))
        });
    }
}
