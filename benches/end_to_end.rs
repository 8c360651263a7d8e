//! End-to-end benches of the whole pipeline as the `mapzoo build` command runs
//! it (map file → complete set): the Race Stack's f in memory and to files,
//! a MapZoo-size track (MapZoo Austin when the reference data is there, a
//! generated 150 m track always), and a batch of 32 generated tracks on two
//! jobs. The per-crate benches are the sibling modules.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, Criterion};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{FreeRule, WritePolicy};
use mapzoo_pipeline::run_batch;
use mapzoo_pipeline::{build, write_set, BuildRequest, Config, Overrides, Profile};
use mapzoo_synth::{self as synth, SynthOptions};

/// Tracks in the batch bench.
const BATCH_TRACKS: u64 = 32;
/// Parallel jobs of the batch bench (`mapzoo build --jobs 2`).
const BATCH_JOBS: usize = 2;

/// A request for `yaml` with the defaults of `mapzoo build MAP.yaml`.
fn request(yaml: PathBuf) -> BuildRequest {
    BuildRequest {
        yaml,
        name: None,
        start: None,
        reverse: false,
    }
}

/// Writes the generated map of `seed` (lap length `lap_length` metres, or drawn
/// from 40–150 m) as `dir/<name>.png` + `.yaml`; returns the YAML path.
fn generated_map(dir: &Path, name: &str, seed: u64, lap_length: Option<f64>) -> PathBuf {
    let map = synth::generate(&SynthOptions {
        seed,
        centerline: synth::CenterlineSpec::Random { lap_length },
        ..SynthOptions::default()
    })
    .expect("generated");
    let [_, yaml] = map.write(dir, name).expect("written");
    yaml
}

/// One track: f (profile racestack, free rule nonzero) in memory and to files,
/// MapZoo Austin (default profile), a generated 150 m track.
fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    if let Some(data) = reference_data_or_skip("bench end_to_end build/f") {
        let racestack = Config::resolve(
            None,
            &Overrides {
                profile: Some(Profile::Racestack),
                free_rule: Some(FreeRule::Nonzero),
                ..Overrides::default()
            },
        )
        .expect("the racestack profile is valid");
        let f = request(data.join("racestack/f/f.yaml"));
        group.bench_function("f", |b| {
            b.iter(|| build(black_box(&f), &racestack).expect("f builds"))
        });
        let out = tempfile::tempdir().expect("temp dir");
        group.bench_function("f_to_files", |b| {
            b.iter(|| {
                let set = build(black_box(&f), &racestack).expect("f builds");
                write_set(&set, out.path(), WritePolicy::Replace).expect("written")
            })
        });
        let austin = request(data.join("mapzoo/Austin/Austin.yaml"));
        let mapzoo = Config::default();
        group.bench_function("mapzoo_austin", |b| {
            b.iter(|| build(black_box(&austin), &mapzoo).expect("Austin builds"))
        });
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let generated = request(generated_map(tmp.path(), "gen150", 3, Some(150.0)));
    let config = Config::default();
    group.bench_function("generated_150m", |b| {
        b.iter(|| build(black_box(&generated), &config).expect("builds"))
    });
    group.finish();
}

/// `mapzoo build --jobs 2` over 32 generated tracks of different seeds (lap
/// lengths drawn from 40–150 m): build and write each set, as the command does.
fn bench_batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    group.sample_size(10);
    let maps = tempfile::tempdir().expect("temp dir");
    let requests: Vec<BuildRequest> = (0..BATCH_TRACKS)
        .map(|seed| {
            request(generated_map(
                maps.path(),
                &format!("gen{seed:02}"),
                seed,
                None,
            ))
        })
        .collect();
    let config = Config::default();
    let out = tempfile::tempdir().expect("temp dir");
    group.bench_function("generated_32_tracks_2_jobs", |b| {
        b.iter(|| {
            let results = run_batch(
                black_box(&requests),
                BATCH_JOBS,
                |req| {
                    let set = build(req, &config)?;
                    write_set(&set, out.path(), WritePolicy::Replace)
                },
                |_, _| {},
            );
            for r in &results {
                r.as_ref().expect("every generated track builds");
            }
            results
        })
    });
    group.finish();
}

criterion_group!(benches, bench_build, bench_batch);
