//! Clutter away from the track: unknown regions, lidar rays, specks and noise never touch it.

use mapzoo_format::FreeRule;
use mapzoo_synth::{generate, OCCUPIED, UNKNOWN};

use crate::support::{edge, opts, Lcg};

#[test]
fn unknown_regions_stay_off_the_track() {
    let mut o = opts(7);
    o.wall_thickness = Some(0.4);
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    assert!(map.gray.iter().filter(|&&v| v == UNKNOWN).count() > map.gray.len() / 4);
    let mut rng = Lcg(7);
    for _ in 0..4000 {
        let (c, r) = (rng.below(map.width), rng.below(map.height));
        let (x, y) = map.pixel_to_world(c as f64, r as f64);
        let e = edge(pts, x, y);
        let v = map.pixel(c as i64, r as i64).unwrap();
        if e > 0.4 + res {
            assert_eq!(v, UNKNOWN, "beyond the wall at ({c}, {r})");
        } else if e > res && e < 0.4 - res {
            assert_eq!(v, OCCUPIED, "in the wall at ({c}, {r})");
        }
    }
    // Blobs without a wall thickness land in the occupied area only, away from the edge.
    let mut o = opts(7);
    o.unknown_blobs = 40;
    let map = generate(&o).expect("generate");
    let unknown: Vec<usize> = (0..map.gray.len())
        .filter(|&i| map.gray[i] == UNKNOWN)
        .collect();
    assert!(!unknown.is_empty());
    for &i in unknown.iter().step_by(97) {
        let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
        let e = edge(pts, x, y);
        assert!(e > 2.0 * res, "blob pixel only {e} m beyond the edge");
    }
    let occ = map.occupancy(FreeRule::MapServer);
    assert!(
        unknown.iter().all(|&i| !occ.free[i]),
        "unknown counts as occupied"
    );
}

#[test]
fn lidar_rays_specks_and_noise_lie_outside_the_track() {
    let mut o = opts(10);
    o.lidar_rays = 12;
    o.specks = 30;
    o.noise = 0.01;
    let clean = generate(&opts(10)).expect("generate");
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    let mut extra = 0;
    for i in 0..map.gray.len() {
        if map.gray[i] != clean.gray[i] {
            extra += 1;
            let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
            assert!(
                edge(pts, x, y) > -0.5 * res,
                "changed pixel inside the track"
            );
        }
    }
    assert!(extra > 100, "{extra}");
    // Free pixels now exist beyond the walls.
    let outside_free = (0..map.gray.len())
        .filter(|&i| map.gray[i] >= 206 && clean.gray[i] == OCCUPIED)
        .count();
    assert!(outside_free > 50, "{outside_free}");
}
