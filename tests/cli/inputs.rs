//! Hostile input as a user gives it (issue 12 items 1, 8, 9; issue 11 item 9):
//! one test per defect, named after what broke. Each says what happened before.

use mapzoo_format::{waypoints_to_csv_string, FreeRule, Waypoint};
use mapzoo_render::{load_track, render_track, RenderOptions, CROP_MARGIN_M};
use mapzoo_synth::tracks::wobbly_oval;

use crate::support::{mapzoo, s, stderr, stdout, text, write_map};

/// Runs `mapzoo ARGS` and returns its output; the run must not have panicked.
fn run(args: &[&str]) -> std::process::Output {
    let o = mapzoo().args(args).output().expect("run mapzoo");
    assert!(
        !stderr(&o).contains("panicked"),
        "{args:?} panicked: {}",
        stderr(&o)
    );
    o
}

/// Before: `regen --json` and `check --json` printed nothing for a folder that failed, so a
/// batch could not be collected as data.
#[test]
fn regen_and_check_json_have_a_record_for_a_failed_folder_too() {
    let tmp = tempfile::tempdir().unwrap();
    let good = write_map(tmp.path(), "good", 1);
    let out = tmp.path().join("out");
    let o = run(&["build", s(&good), "--out", s(&out)]);
    assert!(o.status.success(), "{}", text(&o));
    let set = out.join("good");
    let missing = out.join("missing");
    for cmd in ["regen", "check"] {
        let o = run(&[cmd, s(&set), s(&missing), "--json"]);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {}", text(&o));
        let records: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 2, "{cmd}: {}", stdout(&o));
        assert_ne!(records[0]["status"], "failed", "{cmd}: {}", records[0]);
        let failed = &records[1];
        assert_eq!(failed["track"], "missing", "{cmd}: {failed}");
        assert_eq!(failed["status"], "failed", "{cmd}: {failed}");
        assert!(
            failed["message"].as_str().unwrap().contains("missing"),
            "{cmd}: {failed}"
        );
        assert!(
            !failed["error"].as_str().unwrap().is_empty(),
            "{cmd}: {failed}"
        );
    }
}

/// Before: `raceline /dev/null` said "no such file" (the device exists), and a
/// `generate --lap-length 1e15` message printed sixteen digits.
#[test]
fn raceline_of_a_device_names_what_it_is_and_huge_laps_stay_short() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["raceline", "/dev/null", "--out", s(&tmp.path().join("o"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("/dev/null") && stderr(&o).contains("character device"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "generate",
        "--seed",
        "1",
        "--lap-length",
        "1e15",
        "--out",
        s(&tmp.path().join("g")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("found 1e15 m"), "{}", stderr(&o));
}

/// Before: `spacing_m = 1e-6` in a config hung the build (billions of centerline points).
#[test]
fn a_micrometre_centerline_spacing_is_refused_naming_the_range() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 3);
    let cfg = tmp.path().join("c.toml");
    std::fs::write(&cfg, "[extract]\nspacing_m = 1e-6\n").unwrap();
    let t = std::time::Instant::now();
    for cmd in ["build", "centerline"] {
        let out = tmp.path().join(format!("{cmd}.out"));
        let o = run(&[cmd, s(&yaml), "--out", s(&out), "--config", s(&cfg)]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let msg = stderr(&o);
        assert!(
            msg.contains("c.toml")
                && msg.contains("spacing_m")
                && msg.contains("1e-6")
                && msg.contains("0.01 to 1"),
            "{msg}"
        );
        assert!(!out.exists());
    }
    assert!(t.elapsed().as_secs() < 30, "refused before any work");
}

/// Before: `--jobs 100000` created 100,000 threads.
#[test]
fn jobs_beyond_the_cores_are_lowered_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 4);
    let out = tmp.path().join("out");
    let o = run(&["build", s(&yaml), "--out", s(&out), "--jobs", "100000"]);
    assert!(o.status.success(), "{}", text(&o));
    let msg = stderr(&o);
    assert!(
        msg.contains("note:") && msg.contains("100000 parallel jobs asked for"),
        "{msg}"
    );
    assert!(out.join("t").is_dir());
    // regen and check run their batches the same way
    let o = run(&["regen", s(&out.join("t")), "--jobs", "100000"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains("100000 parallel jobs asked for"),
        "{}",
        stderr(&o)
    );
}

/// Before: `build --json` printed records of the built tracks only; a failed one vanished
/// from the data.
#[test]
fn json_has_a_record_for_a_failed_track_too() {
    let tmp = tempfile::tempdir().unwrap();
    let good = write_map(tmp.path(), "good", 1);
    let bad = write_map(tmp.path(), "bad", 2);
    std::fs::write(tmp.path().join("bad.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
    let missing = tmp.path().join("missing.yaml");
    let out = tmp.path().join("out");
    let o = run(&[
        "build",
        s(&good),
        s(&bad),
        s(&missing),
        "--out",
        s(&out),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let records: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3, "{}", stdout(&o));
    assert_eq!(records[0]["track"], "good");
    assert_eq!(records[0]["status"], "ok");
    assert!(records[0]["iqp_lap_s"].as_f64().unwrap() > 0.0);
    for (rec, name) in records[1..].iter().zip(["bad", "missing"]) {
        assert_eq!(rec["track"], name);
        assert_eq!(rec["status"], "failed");
        let kind = rec["error"].as_str().unwrap();
        assert!(
            !kind.is_empty()
                && kind
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.'),
            "{kind}"
        );
        let message = rec["message"].as_str().unwrap();
        assert!(message.contains(name), "{message}");
        assert!(rec["file"].as_str().unwrap().contains(name), "{rec}");
    }
}

/// Before: `raceline --json` printed nothing on stdout for a track that failed.
#[test]
fn raceline_json_has_a_record_for_a_failed_track() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("narrow_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(0.5))).unwrap();
    let out = tmp.path().join("out");
    let o = run(&[
        "raceline",
        s(&input),
        "--out",
        s(&out),
        "--json",
        "--safety-width",
        "1.2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let rec: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(rec["track"], "narrow");
    assert_eq!(rec["status"], "failed");
    assert_eq!(rec["error"], "optimize.infeasible");
    assert!(rec["x"].is_number() && rec["y"].is_number(), "{rec}");
}

/// Writes `line` as `dir/NAME_centerline.csv` and runs `raceline` on it.
fn raceline_on(dir: &std::path::Path, name: &str, line: &[Waypoint]) -> std::process::Output {
    let input = dir.join(format!("{name}_centerline.csv"));
    std::fs::write(&input, waypoints_to_csv_string(line)).unwrap();
    let out = dir.join(format!("{name}_out"));
    let o = run(&["raceline", s(&input), "--out", s(&out)]);
    assert!(!out.exists(), "{name}: nothing may be written");
    o
}

/// Before: a figure-eight centerline was optimised as if it were a track.
#[test]
fn a_figure_eight_centerline_is_refused_naming_the_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let n = 600;
    let line: Vec<Waypoint> = (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            Waypoint {
                id: i as i64,
                x_m: 20.0 * t.sin(),
                y_m: 8.0 * (2.0 * t).sin(),
                d_right: 1.5,
                d_left: 1.5,
                ..Waypoint::default()
            }
        })
        .collect();
    let o = raceline_on(tmp.path(), "eight", &line);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let msg = stderr(&o);
    assert!(
        msg.contains("eight_centerline.csv")
            && msg.contains("crosses")
            && msg.contains("data rows"),
        "{msg}"
    );
}

/// Before: a zero or negative width went into the optimiser.
#[test]
fn a_negative_or_zero_width_is_refused_naming_the_row() {
    let tmp = tempfile::tempdir().unwrap();
    for (value, col) in [(-0.4, "d_left"), (0.0, "d_right")] {
        let mut line = wobbly_oval(1.3);
        if col == "d_left" {
            line[37].d_left = value;
        } else {
            line[37].d_right = value;
        }
        let o = raceline_on(tmp.path(), "w", &line);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let msg = stderr(&o);
        assert!(
            msg.contains(col) && msg.contains("point 37") && msg.contains("data row 38"),
            "{msg}"
        );
    }
}

/// Before: a gap of several metres in the centerline was bridged by a straight line.
#[test]
fn a_gap_of_metres_is_refused_naming_the_row() {
    let tmp = tempfile::tempdir().unwrap();
    let mut line = wobbly_oval(1.3);
    // Cut 40 points (≈ several metres) out of the middle.
    line.drain(100..140);
    let o = raceline_on(tmp.path(), "gap", &line);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let msg = stderr(&o);
    assert!(msg.contains("gap of") && msg.contains("point 99"), "{msg}");
}

/// Before: a repeated point failed with "singular spline system".
#[test]
fn a_duplicate_point_is_refused_naming_the_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let mut line = wobbly_oval(1.3);
    line.insert(51, line[50]);
    let o = raceline_on(tmp.path(), "dup", &line);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let msg = stderr(&o);
    assert!(
        msg.contains("points 50 and 51") && !msg.contains("singular"),
        "{msg}"
    );
    // The same in a TUM file, whose heading is fitted before the racing-line stages.
    let tum = tmp.path().join("tum.csv");
    let rows: String = line
        .iter()
        .map(|w| format!("{},{},{},{}\n", w.x_m, w.y_m, w.d_right, w.d_left))
        .collect();
    std::fs::write(&tum, format!("# x_m,y_m,w_tr_right_m,w_tr_left_m\n{rows}")).unwrap();
    let o = run(&["raceline", s(&tum), "--out", s(&tmp.path().join("o"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("points 50 and 51"), "{}", stderr(&o));
}

/// Before: a line too short to optimise failed deep in a stage.
#[test]
fn a_line_too_short_to_optimise_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let line: Vec<Waypoint> = (0..8)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / 8.0;
            Waypoint {
                x_m: 0.2 * t.cos(),
                y_m: 0.2 * t.sin(),
                d_right: 0.1,
                d_left: 0.1,
                ..Waypoint::default()
            }
        })
        .collect();
    let o = raceline_on(tmp.path(), "tiny", &line);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("too short") || stderr(&o).contains("shorter than"),
        "{}",
        stderr(&o)
    );
    let o = raceline_on(tmp.path(), "three", &wobbly_oval(1.3)[..3]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stderr(&o).contains("3 points"), "{}", stderr(&o));
}

/// Before: `centerline` with a YAML naming a missing image gave a bare OS error.
#[test]
fn centerline_with_a_missing_image_names_the_yaml_field() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 9);
    std::fs::remove_file(tmp.path().join("t.png")).unwrap();
    let o = run(&[
        "centerline",
        s(&yaml),
        "--out",
        s(&tmp.path().join("c.csv")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let msg = stderr(&o);
    assert!(
        msg.contains("t.yaml") && msg.contains("field \"image\"") && msg.contains("t.png"),
        "{msg}"
    );
}

/// Before: `iqp_iters_max = 0` was reported as a problem of `iqp_iters_min`.
#[test]
fn iqp_iters_max_zero_is_reported_as_iqp_iters_max() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("o_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let cfg = tmp.path().join("c.toml");
    for text_ in [
        "[raceline]\niqp_iters_max = 0\n",
        "[raceline]\niqp_iters_max = 3\n",
    ] {
        std::fs::write(&cfg, text_).unwrap();
        let o = run(&[
            "raceline",
            s(&input),
            "--out",
            s(&tmp.path().join("o")),
            "--config",
            s(&cfg),
        ]);
        assert_eq!(o.status.code(), Some(2));
        let msg = stderr(&o);
        assert!(
            msg.contains("iqp_iters_max") && !msg.contains("`iqp_iters_min`"),
            "{text_}: {msg}"
        );
    }
}

/// Before: a range message printed `1e300` as a 301-digit number.
#[test]
fn huge_numbers_in_range_messages_stay_short() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("o_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let cfg = tmp.path().join("c.toml");
    for (key, table) in [
        ("stepsize_prep", "raceline"),
        ("dyn_model_exp", "raceline"),
        ("spacing_m", "extract"),
        ("yeet_factor", "sectors"),
        ("scaling", "sectors"),
    ] {
        for v in ["1e300", "-1e300", "1e-300"] {
            std::fs::write(&cfg, format!("[{table}]\n{key} = {v}\n")).unwrap();
            let o = run(&[
                "raceline",
                s(&input),
                "--out",
                s(&tmp.path().join("o")),
                "--config",
                s(&cfg),
            ]);
            let msg = stderr(&o);
            if o.status.success() {
                continue; // a tiny positive value some fields accept
            }
            assert!(msg.len() < 400 && msg.contains(key), "{key} = {v}: {msg}");
            assert!(!msg.contains("0000000000"), "{key} = {v}: {msg}");
        }
    }
}

/// Before: `centerline --help` listed racing-line options it ignores, and `raceline --help`
/// listed `--free-rule`, which it rejects.
#[test]
fn help_lists_only_the_options_a_command_uses() {
    let help = stdout(&run(&["centerline", "--help"]));
    for flag in ["--safety-width", "--profile"] {
        assert!(
            !help.contains(flag),
            "centerline --help lists {flag}:\n{help}"
        );
    }
    assert!(
        help.contains("--free-rule") && help.contains("--config"),
        "{help}"
    );
    let help = stdout(&run(&["raceline", "--help"]));
    assert!(!help.contains("--free-rule"), "{help}");
    assert!(
        help.contains("--safety-width") && help.contains("--profile"),
        "{help}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 5);
    let out = tmp.path().join("c.csv");
    for flag in ["--safety-width", "--safety-width-sp", "--profile"] {
        let value = if flag == "--profile" {
            "racestack"
        } else {
            "0.7"
        };
        let o = run(&["centerline", s(&yaml), "--out", s(&out), flag, value]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains(flag) && stderr(&o).contains("no effect"),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists());
    }
}

/// Before: `render -o x.jpg` wrote PNG bytes into a file named .jpg.
#[test]
fn render_to_a_name_that_is_not_png_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 6);
    let sets = tmp.path().join("sets");
    assert!(run(&["build", s(&yaml), "--out", s(&sets)])
        .status
        .success());
    for name in ["x.jpg", "x.JPEG", "x"] {
        let target = tmp.path().join(name);
        let o = run(&["render", s(&sets.join("t")), "-o", s(&target)]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(stderr(&o).contains(".png"), "{}", stderr(&o));
        assert!(!target.exists());
    }
    let o = run(&[
        "render",
        s(&sets.join("t")),
        "-o",
        s(&tmp.path().join("x.PNG")),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Before: `render` drew the whole map, so a small track on a big map came out tiny.
#[test]
fn render_crops_to_the_track_and_whole_map_keeps_all_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let map = mapzoo_synth::generate(&mapzoo_synth::SynthOptions {
        seed: 8,
        centerline: mapzoo_synth::CenterlineSpec::Random {
            lap_length: Some(40.0),
        },
        image_size: Some([1600, 1600]),
        ..mapzoo_synth::SynthOptions::default()
    })
    .unwrap();
    let [_, yaml] = map.write(tmp.path(), "big").unwrap();
    let sets = tmp.path().join("sets");
    let o = run(&["build", s(&yaml), "--out", s(&sets)]);
    assert!(o.status.success(), "{}", text(&o));
    let set = sets.join("big");
    let (crop, whole) = (tmp.path().join("crop.png"), tmp.path().join("whole.png"));
    assert!(run(&["render", s(&set), "-o", s(&crop), "--size", "400"])
        .status
        .success());
    assert!(run(&[
        "render",
        s(&set),
        "-o",
        s(&whole),
        "--size",
        "400",
        "--whole-map"
    ])
    .status
    .success());
    assert_ne!(
        std::fs::read(&crop).unwrap(),
        std::fs::read(&whole).unwrap()
    );

    let track = load_track(&set, FreeRule::MapServer).unwrap();
    let options = RenderOptions { size: 400 };
    let cropped = track.cropped_to_track(CROP_MARGIN_M);
    let (a, b) = (
        render_track(&track, &options).unwrap(),
        render_track(&cropped, &options).unwrap(),
    );
    // The cropped picture draws the track at least twice as large.
    assert!(
        b.view.px_per_metre() > 2.0 * a.view.px_per_metre(),
        "{} vs {}",
        b.view.px_per_metre(),
        a.view.px_per_metre()
    );
    // and the whole track stays in the picture.
    for w in &track.centerline {
        let [x, y] = b.view.world_to_image(w.x_m, w.y_m);
        assert!(
            x >= b.view.left && x <= b.view.left + b.view.width_px(),
            "{x}"
        );
        assert!(
            y >= b.view.top && y <= b.view.top + b.view.height_px(),
            "{y}"
        );
    }
}

/// Before: the generator's size limit message said "more than 20000 px a side and
/// 100000000 px in all" whichever limit was passed.
#[test]
fn the_generator_says_which_size_limit_is_passed() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&[
        "generate",
        "--seed",
        "1",
        "--out",
        s(tmp.path()),
        "--size",
        "30000x100",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a side may be at most 20000 px"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "generate",
        "--seed",
        "1",
        "--out",
        s(tmp.path()),
        "--size",
        "15000x15000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("225.0 million pixels"),
        "{}",
        stderr(&o)
    );
}

/// Before: the track-name rule said "use letters, digits, '-' or '_'" yet accepted spaces
/// and any other letter.
#[test]
fn the_track_name_rule_says_what_it_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 7);
    let o = run(&[
        "build",
        s(&yaml),
        "--out",
        s(&tmp.path().join("o")),
        "--name",
        ".hidden",
    ]);
    assert_ne!(o.status.code(), Some(0));
    let msg = stderr(&o);
    assert!(
        msg.contains("does not start with '.'") && !msg.contains("use letters"),
        "{msg}"
    );
}

/// Before: a centerline point or width of 1e300 was printed with 301 digits.
#[test]
fn huge_coordinates_and_widths_in_messages_stay_short() {
    let tmp = tempfile::tempdir().unwrap();
    for which in ["x", "width"] {
        let mut line = wobbly_oval(1.3);
        if which == "x" {
            line[12].x_m = 1e300;
        } else {
            line[12].d_left = 1e300;
        }
        let o = raceline_on(tmp.path(), which, &line);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let msg = stderr(&o);
        assert!(msg.contains("1e300") && msg.len() < 400, "{msg}");
    }
}

/// Before: a map YAML with `resolution: 1e15` panicked ("capacity overflow") in `build` and
/// `centerline`: the centerline resampling sized itself from a lap of 1e17 m.
#[test]
fn a_map_kilometres_across_is_refused_naming_its_resolution() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = write_map(tmp.path(), "t", 10);
    let yaml_text: String = std::fs::read_to_string(&yaml)
        .unwrap()
        .lines()
        .map(|l| {
            if l.starts_with("resolution") {
                "resolution: 1e15\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&yaml, yaml_text).unwrap();
    let o = run(&[
        "centerline",
        s(&yaml),
        "--out",
        s(&tmp.path().join("c.csv")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let msg = stderr(&o);
    assert!(
        msg.contains("t.yaml")
            && msg.contains("\"resolution\" is 1e15")
            && msg.contains("0.01–0.2"),
        "{msg}"
    );
    let o = run(&["build", s(&yaml), "--out", s(&tmp.path().join("o"))]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("\"resolution\" is 1e15"), "{}", text(&o));
    // and one a speck across: before, "centerline: 2 points"
    let tiny = std::fs::read_to_string(&yaml)
        .unwrap()
        .replace("1e15", "1e-300");
    std::fs::write(&yaml, tiny).unwrap();
    let o = run(&["build", s(&yaml), "--out", s(&tmp.path().join("o"))]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("\"resolution\" is 1e-300") && text(&o).contains("0.01–0.2 m/pixel"),
        "{}",
        text(&o)
    );
}

/// Before: a missing map YAML gave a bare "No such file or directory (os error 2)".
#[test]
fn a_missing_map_yaml_says_what_to_give() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in ["build", "centerline"] {
        let o = run(&[
            cmd,
            s(&tmp.path().join("absent.yaml")),
            "--out",
            s(&tmp.path().join("o.csv")),
        ]);
        assert_ne!(o.status.code(), Some(0));
        let msg = text(&o);
        assert!(
            msg.contains("absent.yaml: no such file; give the map-server YAML"),
            "{cmd}: {msg}"
        );
        let folder = tmp.path().join("maps");
        std::fs::create_dir_all(&folder).unwrap();
        let o = run(&[cmd, s(&folder), "--out", s(&tmp.path().join("o.csv"))]);
        assert!(
            text(&o).contains("is a folder; give the map-server YAML"),
            "{cmd}: {}",
            text(&o)
        );
    }
}

/// Before: `raceline DIR` said "no such file" of a folder that exists.
#[test]
fn raceline_on_a_folder_says_it_is_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["raceline", s(tmp.path()), "--out", s(&tmp.path().join("o"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is a folder; give a file"),
        "{}",
        stderr(&o)
    );
}
