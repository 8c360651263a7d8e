//! Every command's entry point under hostile arguments (issue 12 item 10): random
//! command lines drawn from pools of bad files, huge, tiny and malformed values.
//! Whatever the line, the command ends within a time limit with exit code 0, 1 or 2
//! and never panics. A bounded case count keeps it inside `cargo test` (CI fixes the seed).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use mapzoo_format::waypoints_to_csv_string;
use mapzoo_synth::tracks::wobbly_oval;
use proptest::prelude::*;

use crate::support::{mapzoo, stderr, write_map};

/// Longest a hostile run may take before the test calls it a hang.
const LIMIT: Duration = Duration::from_secs(120);

/// Files the command lines are drawn from, made once.
struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    maps: Vec<String>,
    lines: Vec<String>,
    sets: Vec<String>,
    configs: Vec<String>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: std::sync::OnceLock<Fixture> = std::sync::OnceLock::new();
    FIXTURE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let good = write_map(&dir, "good", 1);
        let bad = write_map(&dir, "bad", 2);
        std::fs::write(dir.join("bad.png"), b"\x89PNG\r\n\x1a\ntruncated").unwrap();
        let missing_image = write_map(&dir, "noimage", 3);
        std::fs::remove_file(dir.join("noimage.png")).unwrap();
        let garbage = dir.join("garbage.yaml");
        std::fs::write(&garbage, "image: [unclosed\nresolution: 1e999\n").unwrap();
        for (name, res) in [
            ("tiny_res", "1e-300"),
            ("huge_res", "1e15"),
            ("neg_res", "-0.05"),
        ] {
            let text = std::fs::read_to_string(&good)
                .unwrap()
                .replace(
                    "image: good.png",
                    &format!("image: {}", dir.join("good.png").display()),
                )
                .lines()
                .map(|l| {
                    if l.starts_with("resolution") {
                        format!("resolution: {res}")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            std::fs::write(dir.join(format!("{name}.yaml")), text).unwrap();
        }
        let sets = dir.join("sets");
        let o = mapzoo()
            .arg("build")
            .arg(&good)
            .arg("--out")
            .arg(&sets)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let line = dir.join("oval_centerline.csv");
        std::fs::write(&line, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
        let mut short = wobbly_oval(1.3);
        short.truncate(4);
        let short_line = dir.join("short_centerline.csv");
        std::fs::write(&short_line, waypoints_to_csv_string(&short)).unwrap();
        // issue 25: a closed line (its last row repeats the first)
        let mut closed = wobbly_oval(1.3);
        closed.push(closed[0]);
        let closed_line = dir.join("closed_centerline.csv");
        std::fs::write(&closed_line, waypoints_to_csv_string(&closed)).unwrap();
        // issue 25: an origin yaw of 1e10 rad, an image name with a newline
        let good_text = std::fs::read_to_string(&good).unwrap().replace(
            "image: good.png",
            &format!("image: {}", dir.join("good.png").display()),
        );
        let yaw = dir.join("yaw.yaml");
        let turned = good_text.replace("\n- 0\n", "\n- 1e10\n");
        assert_ne!(turned, good_text, "the fixture's yaw line moved");
        std::fs::write(&yaw, turned).unwrap();
        let newline = dir.join("newline.yaml");
        std::fs::write(
            &newline,
            std::fs::read_to_string(&good)
                .unwrap()
                .replace("image: good.png", "image: \"good\\n.png\""),
        )
        .unwrap();
        let junk = dir.join("junk_centerline.csv");
        std::fs::write(&junk, "id;s_m\n1;2;3\n\u{0}\u{1}").unwrap();
        let json = dir.join("global_waypoints.json");
        std::fs::write(&json, "{\"centerline_waypoints\": {\"wpnts\": [1e999]}}").unwrap();
        let mut configs = Vec::new();
        for (i, text) in [
            "[extract]\nspacing_m = 1e-6\n",
            "[extract]\nspacing_m = 1e300\n",
            "[extract]\nopening_size = 100001\nopening_iterations = 0\n",
            "[raceline]\niqp_iters_max = 0\n",
            "[raceline]\niqp_iters_max = 18446744073709551615\n",
            "[raceline]\nstepsize_reg = 1e-300\n",
            "[raceline]\nv_max = 1e300\n",
            "[raceline]\nggv = []\n",
            "[sectors]\nspline_len = 9223372036854775807\n",
            "profile = 5\n",
            "\u{feff}[map]\nfree_rule = \"nonzero\"\n",
            "[raceline]\nsafety_width = 0.7\n",
            "max_seconds = -1\n",
            "max_seconds = 1e300\n",
            "max_seconds = 0.5\n",
            "max_seconds = \"x\"\n",
        ]
        .iter()
        .enumerate()
        {
            let p = dir.join(format!("c{i}.toml"));
            std::fs::write(&p, text).unwrap();
            configs.push(p.display().to_string());
        }
        let strings = |v: &[&Path]| v.iter().map(|p| p.display().to_string()).collect();
        Fixture {
            maps: strings(&[
                &good,
                &bad,
                &missing_image,
                &garbage,
                &dir.join("tiny_res.yaml"),
                &dir.join("huge_res.yaml"),
                &dir.join("neg_res.yaml"),
                &dir.join("absent.yaml"),
                &dir,
                &yaw,
                &newline,
            ]),
            lines: strings(&[
                &line,
                &short_line,
                &closed_line,
                &junk,
                &json,
                &dir.join("absent.csv"),
                &dir,
            ]),
            sets: strings(&[&sets.join("good"), &sets, &dir, &dir.join("absent")]),
            configs,
            dir,
            _tmp: tmp,
        }
    })
}

/// Numbers a hostile user types.
const NUMBERS: [&str; 16] = [
    "0",
    "-1",
    "1e9",
    "1e10",
    "1e300",
    "-1e-300",
    "NaN",
    "inf",
    "1e-6",
    "100000",
    "",
    "abc",
    "0.7",
    "5",
    "18446744073709551616",
    "3",
];

/// Runs `mapzoo ARGS` with a time limit; returns the output and how long it took.
fn run_limited(args: &[String]) -> (Output, Duration) {
    let t = Instant::now();
    let mut child = mapzoo()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if t.elapsed() > LIMIT {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (out, t.elapsed())
}

/// A command line from the pools: the command, then some of its options.
fn command_line(f: &Fixture, pick: &[usize], out: &Path) -> Vec<String> {
    let at = |i: usize, n: usize| pick[i % pick.len()] % n;
    let num = |i: usize| NUMBERS[at(i, NUMBERS.len())].to_string();
    let out = out.display().to_string();
    let mut a: Vec<String> = Vec::new();
    let push = |a: &mut Vec<String>, items: &[&str]| a.extend(items.iter().map(|x| x.to_string()));
    match at(0, 8) {
        0 => {
            push(
                &mut a,
                &["build", &f.maps[at(1, f.maps.len())], "--out", &out],
            );
            if at(2, 2) == 0 {
                push(&mut a, &["--config", &f.configs[at(3, f.configs.len())]]);
            }
            if at(4, 2) == 0 {
                push(&mut a, &["--jobs", &num(5)]);
            }
            if at(6, 3) == 0 {
                push(&mut a, &[&format!("--safety-width={}", num(7))]);
            }
            if at(8, 3) == 0 {
                push(
                    &mut a,
                    &[&format!("--start={},{},{}", num(9), num(10), num(11))],
                );
            }
            if at(12, 2) == 0 {
                a.push("--json".into());
            }
            if at(13, 4) == 0 {
                push(&mut a, &["--name", &"n".repeat(1 + at(14, 400))]);
            }
            if at(15, 4) == 0 {
                push(&mut a, &[&format!("--max-seconds={}", num(14))]);
            }
        }
        1 => {
            let csv = format!("{out}.csv");
            push(
                &mut a,
                &["centerline", &f.maps[at(1, f.maps.len())], "--out", &csv],
            );
            if at(2, 2) == 0 {
                push(&mut a, &["--config", &f.configs[at(3, f.configs.len())]]);
            }
        }
        2 => {
            push(
                &mut a,
                &["raceline", &f.lines[at(1, f.lines.len())], "--out", &out],
            );
            if at(2, 2) == 0 {
                push(&mut a, &["--config", &f.configs[at(3, f.configs.len())]]);
            }
            if at(4, 3) == 0 {
                push(&mut a, &[&format!("--safety-width-sp={}", num(5))]);
            }
            if at(6, 2) == 0 {
                a.push("--json".into());
            }
            if at(7, 4) == 0 {
                push(&mut a, &[&format!("--max-seconds={}", num(8))]);
            }
        }
        3 => {
            let png = format!("{out}{}", [".png", ".jpg", ""][at(2, 3)]);
            push(
                &mut a,
                &["render", &f.sets[at(1, f.sets.len())], "-o", &png],
            );
            if at(3, 2) == 0 {
                push(&mut a, &[&format!("--size={}", num(4))]);
            }
            if at(5, 2) == 0 {
                push(&mut a, &[&format!("--margin={}", num(6))]);
            }
            if at(7, 3) == 0 {
                a.push("--whole-map".into());
            }
        }
        4 => {
            push(&mut a, &["generate", "--seed", "7", "--out", &out]);
            for (i, flag) in [
                "--resolution",
                "--lap-length",
                "--width",
                "--margin",
                "--anti-alias",
            ]
            .iter()
            .enumerate()
            {
                if at(1 + 2 * i, 3) == 0 {
                    push(&mut a, &[&format!("{flag}={}", num(2 + 2 * i))]);
                }
            }
            if at(12, 4) == 0 {
                push(&mut a, &["--size", &format!("{}x{}", num(13), num(14))]);
            }
        }
        5 => push(&mut a, &["validate", &f.sets[at(1, f.sets.len())]]),
        6 => push(&mut a, &["check", &f.sets[at(1, f.sets.len())]]),
        _ => {
            // regen on a copy, so the fixture's set stays as built
            let src = Path::new(&f.sets[0]);
            let copy = Path::new(&out).join("good");
            std::fs::create_dir_all(&copy).unwrap();
            for e in std::fs::read_dir(src).unwrap() {
                let e = e.unwrap();
                if e.path().is_file() {
                    std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
                }
            }
            push(&mut a, &["regen", &copy.display().to_string()]);
            if at(1, 2) == 0 {
                push(&mut a, &["--config", &f.configs[at(2, f.configs.len())]]);
            }
        }
    }
    a
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any command line from the pools ends in time with 0, 1 or 2 and no panic.
    #[test]
    fn hostile_command_lines_never_panic_or_hang(pick in proptest::collection::vec(0usize..1000, 16)) {
        let f = fixture();
        let out = tempfile::tempdir_in(&f.dir).unwrap();
        let args = command_line(f, &pick, &out.path().join("o"));
        let (o, took) = run_limited(&args);
        let err = stderr(&o);
        prop_assert!(took < LIMIT, "{args:?} hung ({took:?})");
        prop_assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{args:?} panicked: {err}"
        );
        prop_assert!(matches!(o.status.code(), Some(0..=2)), "{args:?}: {:?} {err}", o.status);
        if !o.status.success() {
            let said = format!("{}{err}", String::from_utf8_lossy(&o.stdout));
            prop_assert!(!said.trim().is_empty(), "{args:?} failed silently");
        }
    }
}
