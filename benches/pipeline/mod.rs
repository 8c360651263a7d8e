//! The pipeline's own steps on a generated 150 m track: stages 2–11 on a map
//! already in memory (`build_map`), and writing a built set (`write_set`).
//! The whole process from the map file (f, MapZoo Austin, a 32-track batch)
//! is benched in `end_to_end`.

use std::path::PathBuf;

use criterion::{criterion_group, Criterion};
use mapzoo_format::WritePolicy;
use mapzoo_pipeline::{build_map, write_set, BuildRequest, Config, LoadedMap};
use mapzoo_synth::{self as synth, SynthOptions};

fn bench_pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline");
    group.sample_size(10);
    let tmp = tempfile::tempdir().expect("temp dir");
    let map = synth::generate(&SynthOptions {
        seed: 3,
        centerline: synth::CenterlineSpec::Random {
            lap_length: Some(150.0),
        },
        ..SynthOptions::default()
    })
    .expect("generated");
    let [_, yaml]: [PathBuf; 2] = map.write(tmp.path(), "gen150").expect("written");
    let req = BuildRequest {
        yaml,
        name: None,
        start: None,
        reverse: false,
    };
    let config = Config::default();
    let loaded = LoadedMap::read(&req.yaml, config.map.free_rule).expect("map reads");
    group.bench_function("build_map_generated_150m", |b| {
        b.iter(|| build_map(&req, loaded.clone(), &config).expect("builds"))
    });
    let set = build_map(&req, loaded.clone(), &config).expect("builds");
    let out = tmp.path().join("out");
    group.bench_function("write_set_generated_150m", |b| {
        b.iter(|| write_set(&set, &out, WritePolicy::Replace).expect("written"))
    });
    group.finish();
}

criterion_group!(benches, bench_pipeline);
