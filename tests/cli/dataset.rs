//! `mapzoo dataset build|merge` (issue 22): shards merged equal the unsharded run, a rerun
//! skips complete sets and rebuilds damaged ones, a run killed with SIGKILL at random
//! moments resumes to the bytes of an uninterrupted run, and failures are index rows.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::support::{mapzoo, run, s, text, write_map};

/// Small generated tracks (30 m at 0.1 m/px) so a dataset run stays fast.
const SMALL: [&str; 4] = ["--lap-length", "30", "--resolution", "0.1"];

fn build(out: &Path, count: usize, extra: &[&str]) -> std::process::Output {
    let count = count.to_string();
    let mut args = vec![
        "dataset",
        "build",
        "--out",
        s(out),
        "--count",
        &count,
        "--seed",
        "40",
    ];
    args.extend_from_slice(&SMALL);
    args.extend_from_slice(extra);
    run(&args)
}

/// Every file under `dir` (hidden ones too) by relative path, with the build times left
/// out: the `seconds` key of JSON rows and the last column of the CSV index.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            let content =
                if rel.ends_with(".json") && rel.starts_with("rows/") || rel.ends_with(".jsonl") {
                    String::from_utf8(bytes)
                        .unwrap()
                        .lines()
                        .map(|l| {
                            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                            let seconds = v.as_object_mut().unwrap().remove("seconds");
                            assert!(seconds.is_some_and(|s| s.is_f64()), "{rel}: {l}");
                            v.to_string() + "\n"
                        })
                        .collect()
                } else if rel.ends_with(".csv") && rel.starts_with("index") {
                    String::from_utf8(bytes)
                        .unwrap()
                        .lines()
                        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
                        .collect()
                } else {
                    format!("{:x?}", bytes)
                };
            out.insert(rel, content);
        }
    }
    out
}

/// `got` equals `want`: the same files, then each file (named, not printed whole).
fn assert_same(got: &BTreeMap<String, String>, want: &BTreeMap<String, String>) {
    let names = |t: &BTreeMap<String, String>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "the files differ");
    for (k, v) in want {
        assert!(got[k] == *v, "{k} differs");
    }
}

fn without_shard_indexes(mut t: BTreeMap<String, String>) -> BTreeMap<String, String> {
    t.retain(|k, _| !(k.starts_with("index-") && k.contains("-of-")));
    t
}

#[test]
fn shards_merged_equal_the_unsharded_run_and_a_rerun_skips_complete_sets() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let o = build(&whole, 6, &["--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 built"), "{}", text(&o));

    let sharded = tmp.path().join("sharded");
    for k in 1..=4 {
        let o = build(&sharded, 6, &["--shard", &format!("{k}/4"), "--jobs", "1"]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(sharded.join(format!("index-{k}-of-4.csv")).is_file());
        assert!(
            !sharded.join("index.csv").exists(),
            "a shard writes only its own index"
        );
    }
    let o = run(&["dataset", "merge", s(&sharded)]);
    assert!(o.status.success(), "{}", text(&o));
    let reference = tree(&whole);
    assert_eq!(
        reference.len(),
        6 * 10 + 6 * 2 + 6 + 2,
        "{:?}",
        reference.keys()
    );
    assert_same(&without_shard_indexes(tree(&sharded)), &reference);

    // a rerun builds nothing and changes no byte, the build times included
    let before: BTreeMap<String, Vec<u8>> = reference
        .keys()
        .map(|k| (k.clone(), std::fs::read(whole.join(k)).unwrap()))
        .collect();
    let o = build(&whole, 6, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("0 built, 6 already complete"),
        "{}",
        text(&o)
    );
    for (k, v) in &before {
        assert_eq!(&std::fs::read(whole.join(k)).unwrap(), v, "{k}");
    }

    // a damaged file and a missing set are rebuilt, the others not; the bytes come back
    let csv = whole.join("sets/synth41/synth41_centerline.csv");
    std::fs::write(&csv, b"edited").unwrap();
    std::fs::remove_dir_all(whole.join("sets/synth44")).unwrap();
    let o = build(&whole, 6, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("2 built, 4 already complete"),
        "{}",
        text(&o)
    );
    assert_same(&tree(&whole), &reference);

    // other settings are another build: every set is rebuilt
    let o = build(&whole, 6, &["--safety-width", "1.0"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 built"), "{}", text(&o));

    // merge without every shard says which is missing
    std::fs::remove_file(sharded.join("index-3-of-4.jsonl")).unwrap();
    let o = run(&["dataset", "merge", s(&sharded)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("shard 3/4"), "{}", text(&o));
}

#[cfg(unix)]
#[test]
fn killed_at_random_moments_then_resumed_gives_the_uninterrupted_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("reference");
    let t = std::time::Instant::now();
    let o = build(&reference, 4, &["--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    // a run with half the tracks to build takes about half as long
    let span = (t.elapsed().as_millis() as u64 / 2).max(50);
    let want = tree(&reference);

    let dir = tmp.path().join("killed");
    // A fixed pseudo-random sequence: which set and row to take away before each run (so
    // every run has work left) and when to kill it (over a run's whole length).
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut kills = 0;
    let mut tries = 0;
    while kills < 20 && tries < 100 {
        tries += 1;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let _ = std::fs::remove_dir_all(dir.join(format!("sets/synth{}", 40 + x % 4)));
        let _ = std::fs::remove_file(dir.join(format!("rows/synth{}.json", 40 + (x >> 8) % 4)));
        let delay = Duration::from_millis((x >> 16) % span);
        let mut args = vec![
            "dataset",
            "build",
            "--out",
            s(&dir),
            "--count",
            "4",
            "--seed",
            "40",
            "--jobs",
            "2",
        ];
        args.extend_from_slice(&SMALL);
        let mut child = mapzoo()
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(
        kills >= 20,
        "only {kills} of {tries} runs were killed before they finished"
    );
    let o = build(&dir, 4, &["--jobs", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_same(&tree(&dir), &want);
}

#[test]
fn a_bad_map_a_generator_failure_and_a_too_narrow_track_are_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let maps = tmp.path().join("maps");
    std::fs::create_dir(&maps).unwrap();
    write_map(&maps, "good", 3);
    std::fs::write(maps.join("bad.yaml"), "image: [not, a, name\n").unwrap();
    let out = tmp.path().join("folder");
    let o = run(&["dataset", "build", "--maps", s(&maps), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let index = std::fs::read_to_string(out.join("index.csv")).unwrap();
    let rows: Vec<&str> = index.lines().collect();
    assert_eq!(rows.len(), 3, "{index}");
    assert!(
        rows[1].starts_with("bad,") && rows[1].contains(",format.syntax,"),
        "{index}"
    );
    assert!(
        rows[2].starts_with("good,") && rows[2].contains(",ok,"),
        "{index}"
    );

    // a generator failure: the track does not fit into the image
    let gen = tmp.path().join("gen");
    let o = build(&gen, 2, &["--size", "20x20"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let index = std::fs::read_to_string(gen.join("index.jsonl")).unwrap();
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["status"], "failed");
        assert_eq!(v["error"], "generate.does_not_fit", "{line}");
        assert!(v["message"].as_str().unwrap().contains("20×20"), "{line}");
    }

    // too narrow for the safety width: a row naming the narrowest place, the others build
    let narrow = tmp.path().join("narrow");
    let o = build(&narrow, 2, &["--width", "0.9"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let index = std::fs::read_to_string(narrow.join("index.jsonl")).unwrap();
    assert_eq!(index.lines().count(), 2);
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["error"], "optimize.infeasible", "{line}");
        let message = v["message"].as_str().unwrap();
        assert!(
            message.starts_with("maps/synth4"),
            "paths relative to the folder: {message}"
        );
        assert!(message.contains("too narrow"), "{message}");
    }
}
