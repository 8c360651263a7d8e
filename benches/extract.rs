//! Criterion benchmarks of the whole extraction (DESIGN §3 stages 2–6): the Race
//! Stack's f map and the 3000×2248 px SLAM map vegas (skipped without reference data), a
//! generated 4000×4000 px map; and the cleaning (opening, region choice) and thinning
//! stages of f on their own.

use criterion::{criterion_group, Criterion};
use mapzoo_extract::{extract, free_space_near, skeletonize, ExtractParams};
use mapzoo_format::testdata::reference_data;
use mapzoo_format::{FreeRule, OccupancyMap};
use mapzoo_synth::{generate, CenterlineSpec, SynthOptions};

fn racestack_f(c: &mut Criterion) {
    let Some(data) = reference_data() else {
        eprintln!("skipping extract/f: reference data not found");
        return;
    };
    let (_, map) =
        OccupancyMap::load(&data.join("racestack/f/f.yaml"), FreeRule::Nonzero).expect("f map");
    let params = ExtractParams::default();
    c.bench_function("extract/f", |b| {
        b.iter(|| extract(&map, &params, None, false).expect("f extracts"))
    });
}

/// The cleaning and thinning stages of f alone.
fn racestack_f_stages(c: &mut Criterion) {
    let Some(data) = reference_data() else {
        eprintln!("skipping extract/f stages: reference data not found");
        return;
    };
    let (_, map) =
        OccupancyMap::load(&data.join("racestack/f/f.yaml"), FreeRule::Nonzero).expect("f map");
    let params = ExtractParams::default();
    let space = free_space_near(&map, &params, None).expect("f has a track region");
    c.bench_function("extract/f/clean", |b| {
        b.iter(|| free_space_near(&map, &params, None).expect("f has a track region"))
    });
    c.bench_function("extract/f/thin", |b| b.iter(|| skeletonize(&space.mask)));
}

/// vegas: a 470 m SLAM map whose track touches the image border.
fn slam_vegas(c: &mut Criterion) {
    let Some(data) = reference_data() else {
        eprintln!("skipping extract/vegas: reference data not found");
        return;
    };
    let (_, map) = OccupancyMap::load(&data.join("slam/vegas/vegas.yaml"), FreeRule::MapServer)
        .expect("vegas map");
    let params = ExtractParams::default();
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    group.bench_function("vegas", |b| {
        b.iter(|| extract(&map, &params, None, false).expect("vegas extracts"))
    });
    group.finish();
}

/// A 4000×4000 px map: a 220 m random lap at 0.02 m/px (1.6–3 m wide, 80–150 px).
fn big_map() -> OccupancyMap {
    let opts = SynthOptions {
        seed: 4000,
        centerline: CenterlineSpec::Random {
            lap_length: Some(220.0),
        },
        resolution: 0.02,
        image_size: Some([4000, 4000]),
        ..SynthOptions::default()
    };
    generate(&opts)
        .expect("4000² map")
        .occupancy(FreeRule::MapServer)
}

fn generated_4000(c: &mut Criterion) {
    let map = big_map();
    let params = ExtractParams::default();
    let mut group = c.benchmark_group("extract");
    group.sample_size(10);
    group.bench_function("synth_4000x4000", |b| {
        b.iter(|| extract(&map, &params, None, false).expect("4000² extracts"))
    });
    group.finish();
}

criterion_group!(
    benches,
    racestack_f,
    racestack_f_stages,
    slam_vegas,
    generated_4000
);
