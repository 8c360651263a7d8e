//! `regen`: rebuilding a set from its own (edited) map keeps its files,
//! its sectors and reports broken hand-tuned ones.

use mapzoo_format::{GlobalWaypoints, OtSectors, SpeedScaling};
use mapzoo_pipeline::{regen, Config};
use mapzoo_raceline::LineKind;

use crate::support::*;

#[test]
fn regen_of_an_unchanged_map_rewrites_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (_, dir) = built_generated_set(tmp.path(), 12, &config);
    let before = files(&dir);
    let report = regen(&dir, &config, false).unwrap();
    assert!(
        !report.sectors_remapped && !report.sectors_reset,
        "{report:?}"
    );
    let after = files(&dir);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &before {
        assert!(
            bytes == &after[name],
            "{name} changed although the map did not"
        );
    }
}

#[test]
fn regen_after_painting_an_obstacle_avoids_it_and_keeps_the_sectors() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (set, dir) = built_generated_set(tmp.path(), 13, &config);
    let n_old = set.lines[LineKind::Iqp].waypoints.len() as i64;

    // Hand-tuned sector files: three speed sectors and two overtaking sectors.
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    let template = speed.sectors[0].clone();
    speed.global_limit = 0.8;
    let cuts = [0, n_old / 3, 2 * n_old / 3, n_old];
    speed.sectors = (0..3)
        .map(|k| mapzoo_format::SpeedSector {
            start: cuts[k],
            end: cuts[k + 1],
            scaling: [0.6, 0.9, 0.75][k],
            only_ftg: k == 1,
            ..template.clone()
        })
        .collect();
    speed.write(&speed_path).unwrap();
    let ot_path = dir.join("ot_sectors.yaml");
    let mut ot = OtSectors::read(&ot_path).unwrap();
    let ot_template = ot.sectors[0].clone();
    ot.sectors = vec![
        mapzoo_format::OtSector {
            start: 0,
            end: n_old / 2,
            ot_flag: false,
            ..ot_template.clone()
        },
        mapzoo_format::OtSector {
            start: n_old / 2,
            end: n_old,
            ot_flag: true,
            ..ot_template
        },
    ];
    ot.write(&ot_path).unwrap();

    // Paint a wall bump into the track where the IQP line runs, as one would in GIMP.
    let png_path = dir.join("t.png");
    let (w, h, mut gray) = mapzoo_format::read_gray_png(&png_path).unwrap();
    let meta = mapzoo_format::MapMeta::read(&dir.join("t.yaml")).unwrap();
    let at = set.lines[LineKind::Iqp].waypoints[set.lines[LineKind::Iqp].waypoints.len() / 4];
    let (pc, pr) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, at.x_m, at.y_m);
    // The disc reaches from the nearer wall over the line: centre on the wall side.
    let (nx, ny) = (-(at.psi_rad.sin()), at.psi_rad.cos()); // left normal
    let toward_left = at.d_left < at.d_right;
    let side = if toward_left { 1.0 } else { -1.0 };
    let wall_gap = if toward_left { at.d_left } else { at.d_right };
    let radius = wall_gap + 0.3;
    let (cx, cy) = (at.x_m + side * nx * wall_gap, at.y_m + side * ny * wall_gap);
    let r_px = radius / meta.resolution;
    let (cc, cr) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, cx, cy);
    for row in 0..h {
        for col in 0..w {
            let d = ((col as f64 - cc).powi(2) + (row as f64 - cr).powi(2)).sqrt();
            if d <= r_px {
                gray[row * w + col] = 0;
            }
        }
    }
    assert_eq!(
        gray[pr.round() as usize * w + pc.round() as usize],
        0,
        "the old line runs through the paint"
    );
    mapzoo_format::write_gray_png(&png_path, w, h, &gray).unwrap();

    let report = regen(&dir, &config, false).unwrap();
    let g = GlobalWaypoints::read(&dir.join("global_waypoints.json")).unwrap();
    let clear = config.raceline.safety_width / 2.0 - 0.05;
    for (name, line) in [("IQP", &g.iqp.wpnts), ("SP", &g.sp.wpnts)] {
        let nearest = line
            .iter()
            .map(|p| ((p.x_m - cx).powi(2) + (p.y_m - cy).powi(2)).sqrt() - radius)
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest >= clear,
            "{name} passes {nearest:.3} m from the painted wall (want >= {clear:.3})"
        );
    }

    let n_new = g.iqp.wpnts.len() as i64;
    let speed_after = SpeedScaling::read(&speed_path).unwrap();
    let ot_after = OtSectors::read(&ot_path).unwrap();
    assert_eq!(speed_after.global_limit, 0.8);
    let values: Vec<(f64, bool)> = speed_after
        .sectors
        .iter()
        .map(|s| (s.scaling, s.only_ftg))
        .collect();
    assert_eq!(values, vec![(0.6, false), (0.9, true), (0.75, false)]);
    assert_eq!(
        ot_after
            .sectors
            .iter()
            .map(|s| s.ot_flag)
            .collect::<Vec<_>>(),
        vec![false, true]
    );
    assert_eq!(speed_after.sectors.last().unwrap().end, n_new);
    assert_eq!(ot_after.sectors.last().unwrap().end, n_new);
    assert_ne!(
        n_new, n_old,
        "the edit should change the racing line's point count"
    );
    assert!(report.sectors_remapped, "{report:?}");
    let frac = speed_after.sectors[1].start as f64 / n_new as f64;
    assert!(
        (frac - 1.0 / 3.0).abs() < 0.05,
        "sector 1 starts at fraction {frac}"
    );
    speed_after.validate(n_new as usize, &speed_path).unwrap();
    ot_after.validate(n_new as usize, &ot_path).unwrap();
}

#[test]
fn regen_reports_broken_hand_tuned_sectors_instead_of_repairing_them() {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::default();
    let (set, dir) = built_generated_set(tmp.path(), 14, &config);
    let n = set.lines[LineKind::Iqp].waypoints.len() as i64;
    let speed_path = dir.join("speed_scaling.yaml");
    let mut speed = SpeedScaling::read(&speed_path).unwrap();
    let mut second = speed.sectors[0].clone();
    speed.sectors[0].end = n / 2;
    second.start = n / 3; // overlaps the first sector
    second.end = n;
    speed.sectors.push(second);
    speed.write(&speed_path).unwrap();
    let before = files(&dir);
    let err = regen(&dir, &config, false).unwrap_err().to_string();
    assert!(err.contains("speed_scaling.yaml"), "{err}");
    assert_eq!(
        files(&dir),
        before,
        "a failed regen leaves the set as it was"
    );
}
