//! The files: the same seed and options give the same bytes.

use mapzoo_format::MapMeta;
use mapzoo_synth::{generate, GapSpec};

use crate::support::opts;

#[test]
fn same_seed_and_options_give_byte_identical_files() {
    let mut o = opts(11);
    o.anti_alias = Some(1.0);
    o.random_obstacles = 2;
    o.random_spurs = 1;
    o.random_pockets = 1;
    o.wall_gap = Some(GapSpec {
        s: None,
        width: 0.6,
    });
    o.wall_thickness = Some(0.3);
    o.unknown_blobs = 3;
    o.lidar_rays = 5;
    o.specks = 5;
    o.noise = 0.001;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let files: Vec<_> = dirs
        .iter()
        .map(|d| {
            generate(&o)
                .expect("generate")
                .write(d.path(), "t")
                .expect("write")
        })
        .collect();
    for (first, second) in files[0].iter().zip(&files[1]) {
        let a = std::fs::read(first).unwrap();
        let b = std::fs::read(second).unwrap();
        assert!(a == b, "{} differs between runs", first.display());
    }
    let meta = MapMeta::read(&files[0][1]).expect("the YAML reads back");
    assert_eq!(meta.image, "t.png");
    assert_eq!(
        (meta.occupied_thresh, meta.free_thresh, meta.negate),
        (0.65, 0.196, 0)
    );
    let (w, h, gray) = mapzoo_format::read_gray_png(&files[0][0]).unwrap();
    let map = generate(&o).unwrap();
    assert_eq!((w, h), (map.width, map.height));
    assert!(gray == map.gray);
    let mut other = o.clone();
    other.seed = 12;
    assert!(generate(&other).unwrap().gray != map.gray);
}
