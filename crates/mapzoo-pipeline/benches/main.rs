//! The whole pipeline end to end (map file → set in memory → files): the Race
//! Stack's f (when the reference data is there) and a generated track.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::FreeRule;
use mapzoo_pipeline::{build, write_set, BuildRequest, Config, Overrides, Profile};
use mapzoo_synth::{self as synth, SynthOptions};

fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    if let Some(data) = reference_data_or_skip("bench build/f") {
        let config = Config::resolve(
            None,
            &Overrides {
                profile: Some(Profile::Racestack),
                free_rule: Some(FreeRule::Nonzero),
                ..Overrides::default()
            },
        )
        .expect("defaults are valid");
        let req = BuildRequest {
            yaml: data.join("racestack/f/f.yaml"),
            name: None,
            start: None,
            reverse: false,
        };
        group.bench_function("f", |b| b.iter(|| build(&req, &config).expect("f builds")));
        let out = tempfile::tempdir().expect("temp dir");
        group.bench_function("f_with_files", |b| {
            b.iter(|| {
                let set = build(&req, &config).expect("f builds");
                write_set(&set, out.path(), true).expect("written")
            })
        });
        let austin = BuildRequest {
            yaml: data.join("mapzoo/Austin/Austin.yaml"),
            name: None,
            start: None,
            reverse: false,
        };
        let mapzoo = Config::default();
        group.bench_function("mapzoo_austin", |b| {
            b.iter(|| build(&austin, &mapzoo).expect("Austin builds"))
        });
    }
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
    group.bench_function("generated_150m", |b| {
        b.iter(|| build(&req, &config).expect("builds"))
    });
    group.finish();
}

criterion_group!(benches, bench_build);
criterion_main!(benches);
