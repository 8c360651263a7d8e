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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A seamless profile (`Vehicle::seamless`) is the reference profile of the loop turned to
    /// begin at its slowest corner, so turning the inputs turns it, bit for bit.
    #[test]
    fn seamless_profile_starts_at_the_slowest_corner(
        kappa in prop::collection::vec(-1.2f64..1.2, 10..300),
        el in prop::collection::vec(0.05f64..0.15, 300),
        straight in prop::collection::vec(any::<bool>(), 300),
        slowest in 0usize..300,
        turn in 0usize..300,
    ) {
        let n = kappa.len();
        let mut kappa: Vec<f64> = (0..n).map(|i| if straight[i] { kappa[i] * 1e-3 } else { kappa[i] }).collect();
        let slowest = slowest % n;
        kappa[slowest] = 1.5;
        let el = &el[..n];
        let turned = |a: &[f64], k: usize| -> Vec<f64> { a[k..].iter().chain(&a[..k]).cloned().collect() };
        let params = RacelineParams::racestack();
        let seamless = Vehicle { seamless: true, ..Vehicle::from_params(&params) };
        let exact = Vehicle::from_params(&params);

        let profile = velocity_profile(&kappa, el, &seamless);
        let from_slowest = velocity_profile(&turned(&kappa, slowest), &turned(el, slowest), &exact);
        prop_assert_eq!(turned(&profile, slowest), from_slowest);

        let k = turn % n;
        let moved = velocity_profile(&turned(&kappa, k), &turned(el, k), &seamless);
        prop_assert_eq!(moved, turned(&profile, k));
    }
}
