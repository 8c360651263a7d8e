//! The walls: nearest-wall distances against a brute-force scan.

use mapzoo_raceline::Walls;
use proptest::prelude::*;

use crate::support::loop_points;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The bucket-grid nearest-wall distance equals a brute-force scan of the resampled walls,
    /// for query points inside, on and far outside the walls' extent.
    #[test]
    fn wall_distance_matches_brute_force(
        radius in 1.0f64..15.0,
        a2 in 0.0f64..0.3,
        jitter in prop::collection::vec(-1.0f64..1.0, 5),
        queries in prop::collection::vec((-40.0f64..40.0, -40.0f64..40.0), 1..40),
    ) {
        let right = loop_points(300, radius + 1.0, a2, 0.02, 0.3, &jitter);
        let left = loop_points(200, radius, a2, 0.02, 0.3, &jitter);
        let walls = Walls {
            right,
            left,
            obstacles: Vec::new(),
        }
        .resampled(0.1);
        let brute = |pts: &[[f64; 2]], q: [f64; 2]| {
            pts.iter().map(|p| (p[0] - q[0]).hypot(p[1] - q[1])).fold(f64::INFINITY, f64::min)
        };
        let mut qs: Vec<[f64; 2]> = queries.iter().map(|&(x, y)| [x, y]).collect();
        qs.push(walls.right_points()[3]);
        for q in qs {
            let (dr, dl) = walls.distances(q);
            prop_assert!((dr - brute(walls.right_points(), q)).abs() < 1e-12);
            prop_assert!((dl - brute(walls.left_points(), q)).abs() < 1e-12);
        }
    }
}
