//! The free band rasterised into gray pixels: where it is free, its anti-aliased edge, a literal small track.

use mapzoo_synth::{generate, CenterlineSpec, SynthOptions, WidthSpec, FREE, OCCUPIED};

use crate::support::{edge, opts, px, Lcg};

#[test]
fn free_region_is_the_band_around_the_true_centerline() {
    for seed in [1, 2, 3] {
        let map = generate(&opts(seed)).expect("generate");
        let pts = &map.truth.centerline;
        let res = map.meta.resolution;
        for p in pts {
            let (c, r) = px(&map, p.x, p.y);
            assert_eq!(
                map.pixel(c, r),
                Some(FREE),
                "seed {seed}: centerline pixel at s = {}",
                p.s
            );
        }
        let mut rng = Lcg(seed);
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..6000 {
            let (c, r) = (rng.below(map.width), rng.below(map.height));
            let (x, y) = map.pixel_to_world(c as f64, r as f64);
            let e = edge(pts, x, y);
            let v = map.pixel(c as i64, r as i64).unwrap();
            if e > res {
                outside += 1;
                assert_eq!(
                    v, OCCUPIED,
                    "seed {seed}: pixel ({c}, {r}) is {e:.3} m outside the band"
                );
            } else if e < -res {
                inside += 1;
                assert_eq!(
                    v, FREE,
                    "seed {seed}: pixel ({c}, {r}) is {:.3} m inside the band",
                    -e
                );
            }
        }
        assert!(inside > 100 && outside > 100, "{inside} {outside}");
        // Only the three map-server values appear without anti-aliasing.
        assert!(map.gray.iter().all(|&v| v == FREE || v == OCCUPIED));
    }
}

#[test]
fn anti_aliased_edges_ramp_between_free_and_occupied() {
    let mut o = opts(8);
    o.anti_alias = Some(1.5);
    let map = generate(&o).expect("generate");
    let res = map.meta.resolution;
    let pts = &map.truth.centerline;
    let mid: Vec<usize> = (0..map.gray.len())
        .filter(|&i| map.gray[i] != FREE && map.gray[i] != OCCUPIED)
        .collect();
    assert!(mid.len() > 1000, "{} ramp pixels", mid.len());
    for &i in mid.iter().step_by(53) {
        let (x, y) = map.pixel_to_world((i % map.width) as f64, (i / map.width) as f64);
        let e = edge(pts, x, y);
        assert!(
            e.abs() <= 0.75 * res + 1e-6,
            "ramp pixel {:.3} px from the edge",
            e / res
        );
    }
    // Darker further out: the gray falls monotonically across the edge.
    let p = pts[100];
    let n = [-p.psi.sin(), p.psi.cos()];
    let mut last = 255u16;
    for k in 0..40 {
        let off = p.d_left - 2.0 * res + k as f64 * 0.1 * res;
        let (c, r) = px(&map, p.x + n[0] * off, p.y + n[1] * off);
        let v = map.pixel(c, r).unwrap() as u16;
        assert!(v <= last, "gray rises across the edge");
        last = v;
    }
    assert_eq!(last, 0);
}

/// A square loop at 1 m/px in a 12×12 image (pixel (c, r) at world (c, 11 − r)),
/// width 2.2 m: free within 1.1 m of the square's sides, corners rounded.
#[test]
fn literal_small_square_track() {
    let o = SynthOptions {
        centerline: CenterlineSpec::Points {
            points: vec![[2.0, 2.0], [9.0, 2.0], [9.0, 9.0], [2.0, 9.0]],
            widths: None,
        },
        width: WidthSpec::Constant(2.2),
        resolution: 1.0,
        image_size: Some([12, 12]),
        ..SynthOptions::default()
    };
    let map = generate(&o).expect("generate");
    let expected = [
        "............",
        "..########..",
        ".##########.",
        ".##########.",
        ".###....###.",
        ".###....###.",
        ".###....###.",
        ".###....###.",
        ".##########.",
        ".##########.",
        "..########..",
        "............",
    ];
    let got: Vec<String> = (0..map.height)
        .map(|r| {
            (0..map.width)
                .map(|c| match map.gray[r * map.width + c] {
                    FREE => '#',
                    OCCUPIED => '.',
                    _ => '?',
                })
                .collect()
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(map.meta.origin, [0.0, 0.0, 0.0]);
    assert!(map.truth.counter_clockwise);
    assert!((map.truth.lap_length - 28.0).abs() < 1e-12);
}
