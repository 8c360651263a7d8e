//! Criterion benchmarks of the whole extraction (DESIGN §3 stages 2–6): the Race
//! Stack's f map (skipped without reference data) and a generated 4000×4000 px map.

use criterion::{criterion_group, Criterion};
use mapzoo_extract::{extract, ExtractParams};
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

criterion_group!(benches, racestack_f, generated_4000);
