//! Generating maps (`generate`): a 4000×4000 px map with every costly feature,
//! and the default small map.

use criterion::{criterion_group, Criterion};
use mapzoo_synth::{generate, CenterlineSpec, GapSpec, SynthOptions};

/// The benchmark map: a 150 m lap at 0.03 m/px in an exact 4000×4000 image,
/// with every feature that costs time switched on.
pub(crate) fn big() -> SynthOptions {
    SynthOptions {
        seed: 42,
        centerline: CenterlineSpec::Random {
            lap_length: Some(150.0),
        },
        resolution: 0.03,
        image_size: Some([4000, 4000]),
        anti_alias: Some(1.0),
        wall_thickness: Some(0.3),
        random_obstacles: 3,
        random_spurs: 2,
        random_pockets: 2,
        wall_gap: Some(GapSpec {
            s: None,
            width: 0.6,
        }),
        lidar_rays: 20,
        specks: 50,
        noise: 0.001,
        ..SynthOptions::default()
    }
}

fn generate_maps(c: &mut Criterion) {
    let mut group = c.benchmark_group("synth");
    group.sample_size(10);
    let opts = big();
    group.bench_function("generate_4000x4000", |b| {
        b.iter(|| generate(&opts).expect("generate"))
    });
    let small = SynthOptions {
        seed: 42,
        ..SynthOptions::default()
    };
    group.bench_function("generate_default", |b| {
        b.iter(|| generate(&small).expect("generate"))
    });
    group.finish();
}

criterion_group!(benches, generate_maps);
