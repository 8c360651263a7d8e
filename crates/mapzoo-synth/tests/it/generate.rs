//! The whole generator: any mix of features gives a map, never a panic.

use mapzoo_synth::{generate, CenterlineSpec, GapSpec, SynthOptions, FREE};
use proptest::prelude::*;

use crate::support::px;

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Any mix of features at any seed: an answer, never a panic, and the
    /// centerline stays free wherever no obstacle covers it.
    #[test]
    fn every_feature_mix_generates_without_panicking(
        seed in any::<u64>(),
        res in 0.08f64..0.3,
        lap in proptest::option::of(40.0f64..80.0),
        counts in proptest::collection::vec(0usize..4, 8),
        aa in proptest::option::of(0.5f64..3.0),
        wall in proptest::option::of(0.0f64..0.5),
        noise in 0.0f64..0.05,
        gap in any::<bool>(),
    ) {
        let o = SynthOptions {
            seed,
            centerline: CenterlineSpec::Random { lap_length: lap },
            resolution: res,
            anti_alias: aa,
            wall_thickness: wall,
            random_obstacles: counts[0],
            random_spurs: counts[1],
            random_pockets: counts[2],
            unknown_blobs: counts[3],
            lidar_rays: counts[4] * 3,
            specks: counts[5] * 5,
            noise,
            wall_gap: gap.then_some(GapSpec { s: None, width: 0.3 + 0.1 * counts[6] as f64 }),
            ..SynthOptions::default()
        };
        let map = generate(&o).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(map.gray.len(), map.width * map.height);
        for p in &map.truth.centerline {
            let covered = map.truth.obstacles.iter().any(|ob| {
                let r = ob.shape.half_along().hypot(ob.shape.half_across()) + 2.0 * res;
                (p.x - ob.center[0]).hypot(p.y - ob.center[1]) < r
            });
            if !covered {
                let (c, r) = px(&map, p.x, p.y);
                prop_assert_eq!(map.pixel(c, r), Some(FREE), "centerline at s = {}", p.s);
            }
        }
    }
}
