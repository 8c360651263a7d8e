//! `mapzoo generate`: writes a readable map pair, byte-identical for the same
//! seed, refuses to overwrite without --force, and reports bad options.

use std::path::Path;
use std::process::Output;

use mapzoo_format::{read_gray_png, MapMeta};

use crate::support::{run, text};

fn generate(out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("utf-8 temp path");
    let mut args = vec![
        "generate",
        "--seed",
        "7",
        "--out",
        out,
        "--name",
        "t",
        "--resolution",
        "0.1",
        "--lap-length",
        "45",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn writes_png_and_yaml_that_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new/folder");
    let out = generate(&dir, &["--obstacles", "2", "--gap"]);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("t.png") && said.contains("t.yaml"), "{said}");
    assert!(said.contains("wall gap"), "{said}");
    let meta = MapMeta::read(&dir.join("t.yaml")).expect("YAML reads back");
    assert_eq!(meta.image, "t.png");
    assert_eq!(meta.resolution, 0.1);
    let (w, h, gray) = read_gray_png(&dir.join("t.png")).expect("PNG reads back");
    assert_eq!(gray.len(), w * h);
    assert!(gray.contains(&254) && gray.contains(&0));
    // Only the two files, no temporary folder left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let siblings = std::fs::read_dir(dir.parent().unwrap()).unwrap().count();
    assert_eq!(siblings, 1);
}

#[test]
fn refuses_to_overwrite_without_force_and_is_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let out = generate(tmp.path(), &[]);
    assert!(out.status.success(), "{}", text(&out));
    let first = std::fs::read(tmp.path().join("t.png")).unwrap();

    let again = generate(tmp.path(), &[]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("--force"), "{}", text(&again));

    let forced = generate(tmp.path(), &["--force"]);
    assert!(forced.status.success(), "{}", text(&forced));
    let second = std::fs::read(tmp.path().join("t.png")).unwrap();
    assert!(first == second, "same seed, different PNG");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 2);
}

#[test]
fn bad_options_fail_with_a_named_error_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = generate(tmp.path(), &["--noise", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("noise"), "{}", text(&out));
    let out = generate(tmp.path(), &["--size", "10x10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("10×10"), "{}", text(&out));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}
