//! `mapzoo render`: pictures of a generated track folder, byte-identical to
//! the library's rendering, a gallery that leaves out unreadable folders,
//! and clear errors for bad arguments.

#[path = "../../crates/mapzoo-render/tests/support/mod.rs"]
mod render_support;

use mapzoo_format::{
    read_gray_png, read_waypoint_csv, write_gray_png, write_waypoint_csv, FreeRule, MapMeta,
    OtSectors, SpeedScaling,
};
use std::path::Path;

use mapzoo_format::LineKind;
use mapzoo_render::{encode_png, load_track, render_gallery, render_track};
use mapzoo_render::{GalleryOptions, RenderOptions, CROP_MARGIN_M};

use crate::support::{names, run, s, text};

/// Writes the generated ellipse track as a MapZoo folder `dir/<name>`.
fn write_set(dir: &Path, name: &str) -> std::path::PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let t = render_support::track(400, false);
    let png = format!("{name}.png");
    write_gray_png(&folder.join(&png), t.map.width, t.map.height, &t.map.gray).unwrap();
    MapMeta {
        image: png,
        resolution: t.map.resolution,
        origin: t.map.origin,
        negate: 0,
        occupied_thresh: 0.65,
        free_thresh: 0.196,
        mode: None,
    }
    .write(&folder.join(format!("{name}.yaml")))
    .unwrap();
    write_waypoint_csv(
        &folder.join(format!("{name}_centerline.csv")),
        &t.centerline,
    )
    .unwrap();
    write_waypoint_csv(
        &folder.join(format!("{name}_racing_line.csv")),
        t.waypoints(LineKind::Iqp),
    )
    .unwrap();
    let n = t.waypoints(LineKind::Iqp).len();
    SpeedScaling::single(n, 0.7, 0.7)
        .write(&folder.join("speed_scaling.yaml"))
        .unwrap();
    OtSectors::single(n)
        .write(&folder.join("ot_sectors.yaml"))
        .unwrap();
    folder
}

#[test]
fn one_track_picture_matches_the_library() {
    let tmp = tempfile::tempdir().unwrap();
    let set = write_set(tmp.path(), "oval");
    let png = tmp.path().join("oval.png");
    let out = run(&["render", s(&set), "-o", s(&png), "--size", "400"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("oval.png"), "{}", text(&out));
    let track = load_track(&set, FreeRule::MapServer).unwrap();
    assert_eq!(track.name, "oval");
    assert_eq!(track.waypoints(LineKind::Iqp).len(), 401);
    assert_eq!(track.centerline.len(), 400);
    assert_eq!(
        (track.walls.right.len(), track.walls.left.len()),
        (400, 400),
        "bounds from the centerline widths"
    );
    assert_eq!(track.speed_sectors.len(), 1);
    // `render` draws the track with a margin, not the whole map.
    let picture = render_track(
        &track.cropped_to_track(CROP_MARGIN_M),
        &RenderOptions { size: 400 },
    )
    .unwrap();
    assert_eq!(
        std::fs::read(&png).unwrap(),
        encode_png(&picture.image).unwrap()
    );
    let (w, _, _) = read_gray_png(&png).unwrap();
    assert!(w >= 400, "map long side 400 px plus margins, got {w}");
}

#[test]
fn gallery_leaves_out_unreadable_folders_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write_set(tmp.path(), "a");
    let b = write_set(tmp.path(), "b");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let png = tmp.path().join("g.png");
    let out = run(&[
        "render",
        "--gallery",
        s(&a),
        s(&b),
        s(&empty),
        "-o",
        s(&png),
        "--size",
        "160",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("empty") && said.contains("no map YAML"),
        "{said}"
    );
    let tracks = [
        load_track(&a, FreeRule::MapServer)
            .unwrap()
            .cropped_to_track(CROP_MARGIN_M),
        load_track(&b, FreeRule::MapServer)
            .unwrap()
            .cropped_to_track(CROP_MARGIN_M),
    ];
    let options = GalleryOptions {
        cell: 160,
        ..GalleryOptions::default()
    };
    let image = render_gallery(&tracks, &options).unwrap();
    assert_eq!(std::fs::read(&png).unwrap(), encode_png(&image).unwrap());
    let out = run(&["render", "--gallery", s(&a), "-o", s(&png)]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write_set(tmp.path(), "a");
    let png = tmp.path().join("x.png");
    let out = run(&["render", s(&a), s(&a), "-o", s(&png)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--gallery"), "{}", text(&out));
    let out = run(&["render", s(&a), "-o", s(&png), "--size", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("out of range"), "{}", text(&out));
    let out = run(&["render", s(&tmp.path().join("nowhere")), "-o", s(&png)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("nowhere"), "{}", text(&out));
    let out = run(&[
        "render",
        s(&a),
        "-o",
        s(&tmp.path().join("no/such/dir/x.png")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("could not write"), "{}", text(&out));
    std::fs::write(a.join("a_racing_line.csv"), "id; s_m\n0; 1\n").unwrap();
    let out = run(&["render", s(&a), "-o", s(&png)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("a_racing_line.csv"), "{}", text(&out));
    assert!(!png.exists(), "no picture written on error");
}

#[test]
fn tum_centerlines_load_with_or_without_their_header() {
    let tmp = tempfile::tempdir().unwrap();
    let set = write_set(tmp.path(), "oval");
    let csv = set.join("oval_centerline.csv");
    let mapzoo_line = read_waypoint_csv(&csv).unwrap();
    let rows: String = mapzoo_line
        .iter()
        .map(|w| {
            format!(
                "{:?}, {:?}, {:?}, {:?}\n",
                w.x_m, w.y_m, w.d_right, w.d_left
            )
        })
        .collect();
    let png = tmp.path().join("tum.png");
    let mut pictures = Vec::new();
    for body in [
        rows.clone(),
        format!("# x_m, y_m, w_tr_right_m, w_tr_left_m\n{rows}"),
    ] {
        std::fs::write(&csv, body).unwrap();
        let track = load_track(&set, FreeRule::MapServer).unwrap();
        assert_eq!(track.centerline.len(), mapzoo_line.len());
        for (a, b) in track.centerline.iter().zip(&mapzoo_line) {
            assert_eq!(
                (a.x_m, a.y_m, a.d_right, a.d_left),
                (b.x_m, b.y_m, b.d_right, b.d_left)
            );
        }
        assert!(
            !track.walls.right.is_empty() && !track.walls.left.is_empty(),
            "bounds from the TUM widths"
        );
        let out = run(&["render", s(&set), "-o", s(&png), "--size", "300"]);
        assert!(out.status.success(), "{}", text(&out));
        pictures.push(std::fs::read(&png).unwrap());
    }
    assert_eq!(pictures[0], pictures[1], "the header changes nothing");
}

#[test]
fn output_is_replaced_whole_or_not_at_all() {
    let tmp = tempfile::tempdir().unwrap();
    let set = write_set(tmp.path(), "oval");
    let pics = tmp.path().join("pics");
    std::fs::create_dir(&pics).unwrap();
    let png = pics.join("p.png");
    std::fs::write(&png, b"old").unwrap();
    let out = run(&["render", s(&set), "-o", s(&png), "--size", "200"]);
    assert!(out.status.success(), "{}", text(&out));
    let (w, _, _) = read_gray_png(&png).expect("a whole PNG replaced the old file");
    assert!(w >= 200);
    // A non-empty folder in the way: the rename fails and no temp file stays.
    let blocked = pics.join("blocked.png");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"x").unwrap();
    let out = run(&["render", s(&set), "-o", s(&blocked), "--size", "200"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("blocked.png"), "{}", text(&out));
    assert_eq!(names(&pics), ["blocked.png", "p.png"]);
}

#[test]
fn race_stack_f_renders_with_its_json_and_sectors() {
    let Some(data) = mapzoo_format::testdata::reference_data_or_skip("race_stack_f_renders") else {
        return;
    };
    let dir = data.join("racestack/f");
    let track = load_track(&dir, FreeRule::MapServer).unwrap();
    assert_eq!(track.centerline.len(), 864);
    assert_eq!(track.waypoints(LineKind::Iqp).len(), 766);
    assert_eq!(track.waypoints(LineKind::Sp).len(), 717);
    assert!(!track.walls.right.is_empty() && !track.walls.left.is_empty());
    assert_eq!(track.line(LineKind::Iqp).unwrap().lap_s, Some(11.1778));
    assert_eq!(track.line(LineKind::Sp).unwrap().lap_s, Some(11.7476));
    assert_eq!(track.overtaking_sectors.len(), 2);
    assert_eq!(track.overtaking_sectors[1].start, 409);
    let tmp = tempfile::tempdir().unwrap();
    let png = tmp.path().join("f.png");
    let out = run(&["render", s(&dir), "-o", s(&png), "--size", "600"]);
    assert!(out.status.success(), "{}", text(&out));
    // Where no other layer covers it, the IQP line shows each waypoint's
    // speed: SP dots, ticks and the arrow hide some, most must read back.
    let picture = render_track(
        &track.cropped_to_track(CROP_MARGIN_M),
        &RenderOptions { size: 600 },
    )
    .unwrap();
    let scale = picture.speed.unwrap();
    let shown = track
        .waypoints(LineKind::Iqp)
        .iter()
        .filter(|w| {
            let p = picture.view.world_to_image(w.x_m, w.y_m);
            let c = picture.image.get_pixel(p[0] as u32, p[1] as u32).0;
            (0..=2000).any(|k| {
                let v = scale.min + (scale.max - scale.min) * k as f64 / 2000.0;
                (v - w.vx_mps).abs() < 0.15 && scale.colour(v) == c
            })
        })
        .count();
    eprintln!(
        "f: {shown} of {} IQP waypoints show their speed colour",
        track.waypoints(LineKind::Iqp).len()
    );
    assert!(
        shown * 10 > track.waypoints(LineKind::Iqp).len() * 7,
        "only {shown} of {}",
        track.waypoints(LineKind::Iqp).len()
    );
    assert_eq!(
        std::fs::read(&png).unwrap(),
        encode_png(&picture.image).unwrap()
    );
}
