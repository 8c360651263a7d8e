//! Stage 11: the velocity profile against its plain forward–backward loop.

use mapzoo_raceline::reference::velocity_profile_reference;
use mapzoo_raceline::{velocity_profile, RacelineParams, Vehicle};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn velocity_profile_matches_plain_loop(
        kappa in prop::collection::vec(-1.2f64..1.2, 10..300),
        el in prop::collection::vec(0.05f64..0.15, 300),
        straight in prop::collection::vec(any::<bool>(), 300),
        dyn_exp in 1.0f64..2.0,
    ) {
        let n = kappa.len();
        // long straights (tiny curvature) let the car reach v_max
        let kappa: Vec<f64> = (0..n).map(|i| if straight[i] { kappa[i] * 1e-3 } else { kappa[i] }).collect();
        let params = RacelineParams { dyn_model_exp: dyn_exp, ..RacelineParams::racestack() };
        let veh = Vehicle::from_params(&params);
        let fast = velocity_profile(&kappa, &el[..n], &veh);
        let plain = velocity_profile_reference(&kappa, &el[..n], &veh);
        for (a, b) in fast.iter().zip(&plain) {
            prop_assert!((a - b).abs() < 1e-9, "{a} vs {b}");
        }
    }
}
