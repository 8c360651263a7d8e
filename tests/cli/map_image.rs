//! Map images as map_server reads them, end to end (issues 11.1, 11.2, 11.8, 12.2):
//! a PGM builds the very set its PNG builds, notes reach the user, and an image path
//! that is no regular file fails naming it.

use std::path::Path;

use mapzoo_format::{read_gray_png, MapMeta};

use crate::support::{run, s, stderr, text, write_map};

/// The same pixels as a binary PGM (map_saver's format), written by hand.
fn write_pgm(path: &Path, png: &Path) {
    let (w, h, gray) = read_gray_png(png).unwrap();
    let mut bytes =
        format!("P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n{w} {h}\n255\n").into_bytes();
    bytes.extend_from_slice(&gray);
    std::fs::write(path, bytes).unwrap();
}

fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_pgm_map_builds_the_same_set_as_its_png() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    let yaml = write_map(&src, "t", 7);
    let meta = MapMeta::read(&yaml).unwrap();
    for (dir, image) in [("pgm", "t.pgm"), ("named", "t.png")] {
        // Same track name, so the sets can be compared file by file.
        let d = tmp.path().join(dir);
        std::fs::create_dir(&d).unwrap();
        write_pgm(&d.join(image), &src.join("t.png"));
        MapMeta {
            image: image.into(),
            ..meta.clone()
        }
        .write(&d.join("t.yaml"))
        .unwrap();
    }
    let out_png = tmp.path().join("out-png");
    let built = run(&["build", s(&yaml), "--out", s(&out_png)]);
    assert!(built.status.success(), "{}", text(&built));
    let want = files_of(&out_png.join("t"));
    for dir in ["pgm", "named"] {
        let out = tmp.path().join(format!("out-{dir}"));
        let built = run(&[
            "build",
            s(&tmp.path().join(dir).join("t.yaml")),
            "--out",
            s(&out),
        ]);
        assert!(built.status.success(), "{dir}: {}", text(&built));
        let got = files_of(&out.join("t"));
        assert_eq!(
            got.iter().map(|f| &f.0).collect::<Vec<_>>(),
            want.iter().map(|f| &f.0).collect::<Vec<_>>(),
            "{dir}"
        );
        for (g, w) in got.iter().zip(&want) {
            assert!(g.1 == w.1, "{dir}: {} differs from the PNG build's", g.0);
        }
        if dir == "named" {
            assert!(
                stderr(&built).contains("note: ") && stderr(&built).contains("holds PGM"),
                "{}",
                stderr(&built)
            );
        }
    }
}

#[test]
fn origin_yaw_prints_a_note_that_the_race_stack_ignores_it() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 3);
    let mut meta = MapMeta::read(&yaml).unwrap();
    meta.origin[2] = 0.25;
    meta.write(&yaml).unwrap();
    let out = run(&["build", s(&yaml), "--out", s(&tmp.path().join("out"))]);
    let err = stderr(&out);
    assert!(
        err.contains("note: ")
            && err.contains("t.yaml: origin yaw 0.25")
            && err.contains("Race Stack"),
        "{err}"
    );
}

#[test]
fn image_path_a_folder_fails_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 3);
    std::fs::remove_file(tmp.path().join("t.png")).unwrap();
    std::fs::create_dir(tmp.path().join("t.png")).unwrap();
    for cmd in ["build", "centerline"] {
        let target = tmp.path().join(format!("out-{cmd}"));
        let out = run(&[cmd, s(&yaml), "--out", s(&target)]);
        assert!(!out.status.success(), "{cmd}");
        let msg = text(&out);
        assert!(
            msg.contains("t.png: is a folder, not a regular file"),
            "{cmd}: {msg}"
        );
    }
}

#[test]
fn occupied_thresh_below_free_thresh_builds_with_a_note_and_validates() {
    // Several real maps ship occupied_thresh 0.065, free_thresh 0.25; map_server loads them.
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 5);
    let meta = MapMeta::read(&yaml).unwrap();
    MapMeta {
        occupied_thresh: 0.065,
        free_thresh: 0.25,
        ..meta
    }
    .write(&yaml)
    .unwrap();
    let out = tmp.path().join("out");
    let built = run(&["build", s(&yaml), "--out", s(&out)]);
    assert!(built.status.success(), "{}", text(&built));
    let err = stderr(&built);
    assert!(
        err.contains("note: ")
            && err.contains("occupied_thresh 0.065 is not above free_thresh 0.25"),
        "{err}"
    );
    let checked = run(&["validate", s(&out.join("t"))]);
    assert!(checked.status.success(), "{}", text(&checked));
}
