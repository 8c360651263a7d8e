//! The real SLAM maps of `../shared/data/slam` (issue 11 acceptance), from the files as their
//! repositories hold them: each loop map gives the loop that goes round its infield (its
//! length against a reference read once off the picture of the map, ±10 %: a loop round an
//! obstacle or a shortcut through a wall is far off), the two whose track runs into the image
//! border say so in a note (and every map cropped into its track on all four sides gives
//! the same loop), and the lobby is refused as no track loop; porto (unknown = 205)
//! read with the ROS 2 map saver's free_thresh 0.25 gives the loop of its own YAML. Skipped
//! without the reference data.

use mapzoo_extract::{extract, ExtractError, ExtractNote, ExtractParams};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{FreeRule, MapMeta, OccupancyMap};

use crate::support::{crop, free_bbox};

/// (map, loop length read off its picture in metres, whether its track touches the border).
const LOOPS: [(&str, f64, bool); 8] = [
    ("berlin", 69.0, false),
    ("skirk", 34.0, false),
    ("columbia", 36.0, false),
    ("mtl", 60.0, false),
    ("porto", 31.0, false),
    ("torino", 59.0, false),
    ("stata_basement", 155.0, true),
    ("vegas", 470.0, true),
];

fn load(data: &std::path::Path, name: &str) -> OccupancyMap {
    let yaml = data.join("slam").join(name).join(format!("{name}.yaml"));
    let (_, map) =
        OccupancyMap::load(&yaml, FreeRule::MapServer).unwrap_or_else(|e| panic!("{name}: {e}"));
    map
}

#[test]
fn slam_loop_maps_build_with_their_loop() {
    let Some(data) = reference_data_or_skip("slam_loop_maps_build_with_their_loop") else {
        return;
    };
    for (name, reference, border) in LOOPS {
        let map = load(&data, name);
        let ex = extract(&map, &ExtractParams::default(), None, false)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let lap = ex.centerline.len() as f64 * 0.1;
        eprintln!(
            "{name}: {lap:.1} m (picture: {reference} m), notes {:?}",
            ex.notes
        );
        assert!(
            (lap - reference).abs() < 0.1 * reference,
            "{name}: a {lap:.1} m loop, the picture shows about {reference} m"
        );
        let noted = ex
            .notes
            .iter()
            .any(|n| matches!(n, ExtractNote::BorderIsWall { .. }));
        assert_eq!(noted, border, "{name}: notes {:?}", ex.notes);
        // Cropped into its track on all four sides, the map has the same loop: the image
        // border is a wall.
        let [c0, r0, c1, r1] = free_bbox(&map);
        let tight = crop(&map, c0 + 3, r0 + 3, c1 - 2, r1 - 2);
        let cut = extract(&tight, &ExtractParams::default(), None, false)
            .unwrap_or_else(|e| panic!("{name}, cropped into its track: {e}"));
        let cut_lap = cut.centerline.len() as f64 * 0.1;
        assert!(
            (cut_lap - lap).abs() < 0.02 * lap,
            "{name}: {cut_lap:.1} m cropped, {lap:.1} m whole"
        );
    }
}

#[test]
fn the_lobby_is_refused_as_no_track_loop() {
    let Some(data) = reference_data_or_skip("the_lobby_is_refused_as_no_track_loop") else {
        return;
    };
    let map = load(&data, "levinelobby");
    match extract(&map, &ExtractParams::default(), None, false) {
        Err(e @ ExtractError::NoTrackLoop { size_m, .. }) => {
            // The pillar: about a metre across (the opening rounds it up a little).
            assert!(size_m.iter().all(|&s| (0.5..2.0).contains(&s)), "{e}");
        }
        other => panic!(
            "levinelobby: expected no track loop, got {:?}",
            other.map(|e| e.centerline.len())
        ),
    }
}

#[test]
fn porto_with_ros2_thresholds_keeps_its_unknown_unknown() {
    let Some(data) = reference_data_or_skip("porto_with_ros2_thresholds_keeps_its_unknown_unknown")
    else {
        return;
    };
    let yaml = data.join("slam/porto/porto.yaml");
    let meta = MapMeta::read(&yaml).expect("porto yaml");
    let bytes = std::fs::read(meta.image_path(&yaml)).expect("porto image");
    let read = |free_thresh: f64| {
        let mut m = meta.clone();
        m.free_thresh = free_thresh;
        OccupancyMap::from_image_bytes(&bytes, &meta.image_path(&yaml), &m, FreeRule::MapServer)
            .expect("porto image")
    };
    let (own, ros2) = (read(meta.free_thresh), read(0.25));
    assert!(
        ros2.free.iter().filter(|&&f| f).count() > 2 * own.free.iter().filter(|&&f| f).count(),
        "with free_thresh 0.25 the unknown grey counts as free"
    );
    let want = extract(&own, &ExtractParams::default(), None, false).expect("porto");
    let got = extract(&ros2, &ExtractParams::default(), None, false).expect("porto, ROS 2");
    assert_eq!(got.centerline, want.centerline);
    assert!(
        got.notes
            .iter()
            .any(|n| matches!(n, ExtractNote::GreyIsUnknown { grey: 205, .. })),
        "{:?}",
        got.notes
    );
}
