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

/// `--count N --seed S`: track S+i is the single-track generate's `--seed S+i`, whatever N
/// and the shard; shards are disjoint and together make the whole count; a summary follows.
#[test]
fn count_makes_seed_plus_i_whatever_the_count_and_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let many = |dir: &str, extra: &[&str]| {
        let out = tmp.path().join(dir);
        let mut args = vec![
            "generate",
            "--seed",
            "20",
            "--out",
            out.to_str().unwrap(),
            "--resolution",
            "0.1",
            "--lap-length",
            "40",
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o));
        (out, text(&o))
    };
    let (all, said) = many("all", &["--count", "5", "--jobs", "2"]);
    for label in [
        "lap length, m",
        "narrowest width, m",
        "max |curvature|, 1/m",
        "median",
    ] {
        assert!(said.contains(label), "{said}");
    }
    let (fewer, _) = many("fewer", &["--count", "3"]);
    let (s1, _) = many("sharded", &["--count", "5", "--shard", "1/2"]);
    let (s2, _) = many("sharded", &["--count", "5", "--shard", "2/2"]);
    assert_eq!(s1, s2);
    let names = |d: &Path| crate::support::names(d);
    assert_eq!(names(&all), names(&s1));
    assert_eq!(names(&all).len(), 10);
    for n in names(&fewer) {
        assert_eq!(
            std::fs::read(all.join(&n)).unwrap(),
            std::fs::read(fewer.join(&n)).unwrap(),
            "{n}"
        );
    }
    // track 22 is what a single `--seed 22` makes
    let one = tmp.path().join("one");
    let o = run(&[
        "generate",
        "--seed",
        "22",
        "--out",
        one.to_str().unwrap(),
        "--resolution",
        "0.1",
        "--lap-length",
        "40",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for ext in ["png", "yaml"] {
        let f = format!("synth22.{ext}");
        assert_eq!(
            std::fs::read(all.join(&f)).unwrap(),
            std::fs::read(one.join(&f)).unwrap()
        );
    }
    // a second run refuses to overwrite, track by track, and says so
    let again = run(&[
        "generate",
        "--seed",
        "20",
        "--count",
        "2",
        "--out",
        all.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(text(&again).contains("--force"), "{}", text(&again));
}
