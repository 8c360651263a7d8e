//! The real SLAM maps of `../shared/data/slam` (issue 11 acceptance), from the files as their
//! repositories hold them: each loop map gives the loop that goes round its infield (its
//! length against a reference read once off the picture of the map, ±10 %: a loop round an
//! obstacle or a shortcut through a wall is far off), the two whose track runs into the image
//! border say so in a note, and the lobby is refused as no track loop. Skipped without the
//! reference data.

use mapzoo_extract::{extract, ExtractError, ExtractNote, ExtractParams};
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{FreeRule, OccupancyMap};

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
