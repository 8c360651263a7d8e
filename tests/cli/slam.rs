//! The real SLAM maps (issue 11 acceptance): every loop map of `slam/` builds from its
//! original files with `--profile racestack`, and neither racing line comes near an
//! occupied pixel of the map as map_server reads it (an independent reading: the YAML's
//! thresholds, no cleaning, no extraction).

use std::path::{Path, PathBuf};

use mapzoo_format::{FreeRule, GlobalWaypoints, LineKind, Occupancy, OccupancyMap};

use crate::support::{mapzoo, reference_data_or_skip, s, text};

/// The distance (m) from world point (x, y) to the centre of the nearest occupied pixel,
/// searched in a window of `reach` metres (beyond it: `reach`).
fn clearance(map: &OccupancyMap, x: f64, y: f64, reach: f64) -> f64 {
    let (c, r) = map.world_to_pixel(x, y);
    let k = (reach / map.resolution).ceil() as i64;
    let mut best = reach;
    for dr in -k..=k {
        for dc in -k..=k {
            let (pc, pr) = (c.round() as i64 + dc, r.round() as i64 + dr);
            if pc < 0 || pr < 0 || pc >= map.width as i64 || pr >= map.height as i64 {
                continue; // outside the image: the border is a wall, but not an occupied pixel
            }
            if map.occupancy[pr as usize * map.width + pc as usize] == Occupancy::Occupied {
                let (wx, wy) = map.pixel_to_world(pc as f64, pr as f64);
                best = best.min((wx - x).hypot(wy - y));
            }
        }
    }
    best
}

/// The least distance (m) of a line point from an occupied pixel: the racestack profile's
/// safety widths are 0.7 m, half of it from every wall, less the half pixel (0.025 m) between
/// a wall pixel's centre and its edge and 0.02 m of resampling; the SP line less the few
/// centimetres more the Race Stack's SP smoothing may cut into its corridor (DESIGN §3: kept
/// for parity).
fn least(kind: LineKind) -> f64 {
    match kind {
        LineKind::Sp => 0.35 - 0.025 - 0.1,
        _ => 0.35 - 0.025 - 0.02,
    }
}

/// Build `yaml` as `name` into `out` with the racestack profile and `extra` arguments, and
/// assert that neither line comes nearer an occupied pixel than [`least`].
fn assert_lines_keep_clear(yaml: &Path, name: &str, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "build",
        s(yaml),
        "--out",
        s(out),
        "--name",
        name,
        "--profile",
        "racestack",
    ];
    args.extend_from_slice(extra);
    let o = mapzoo().args(&args).output().unwrap();
    assert!(o.status.success(), "{name} {extra:?}: {}", text(&o));
    let (_, map) = OccupancyMap::load(yaml, FreeRule::MapServer).unwrap();
    let gw = GlobalWaypoints::read(&out.join(name).join("global_waypoints.json")).unwrap();
    for kind in [LineKind::Iqp, LineKind::Sp] {
        let (_, line) = gw.line(kind).expect("IQP and SP are in the JSON");
        let worst = line
            .wpnts
            .iter()
            .map(|w| (clearance(&map, w.x_m, w.y_m, 1.0), w.x_m, w.y_m))
            .fold(
                (f64::INFINITY, 0.0, 0.0),
                |a, b| if b.0 < a.0 { b } else { a },
            );
        assert!(
            worst.0 >= least(kind),
            "{name} {extra:?} {kind:?}: a line point at ({:.3}, {:.3}) is {:.3} m from an occupied pixel",
            worst.1,
            worst.2,
            worst.0
        );
    }
}

/// The map-server YAML in a SLAM map's folder.
fn slam_yaml(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "yaml"))
        .unwrap()
}

#[test]
fn slam_loop_maps_build_and_their_lines_keep_clear_of_every_occupied_pixel() {
    let Some(data) = reference_data_or_skip("slam_maps_build_and_keep_clear") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "berlin",
        "skirk",
        "columbia",
        "mtl",
        "porto",
        "torino",
        "stata_basement",
        "vegas",
    ] {
        let yaml = slam_yaml(&data.join("slam").join(name));
        assert_lines_keep_clear(&yaml, name, tmp.path(), &[]);
    }
}

/// Seamless lines (issue 24) take their widths from the walls themselves and narrow them where
/// an obstacle was clipped: on SLAM maps and on generated tracks with obstacles inside, they
/// keep the same clearance from every occupied pixel.
#[test]
fn seamless_lines_keep_clear_of_every_occupied_pixel() {
    let Some(data) = reference_data_or_skip("seamless_lines_keep_clear") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for name in ["columbia", "porto", "stata_basement"] {
        let yaml = slam_yaml(&data.join("slam").join(name));
        assert_lines_keep_clear(&yaml, name, tmp.path(), &["--seamless"]);
    }
    let maps = tmp.path().join("generated");
    let o = mapzoo()
        .args([
            "generate",
            "--seed",
            "2",
            "--count",
            "3",
            "--obstacles",
            "3",
            "--out",
            s(&maps),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    for seed in 2..5 {
        let name = format!("synth{seed}");
        let yaml = maps.join(format!("{name}.yaml"));
        assert_lines_keep_clear(&yaml, &name, tmp.path(), &["--seamless"]);
    }
}
