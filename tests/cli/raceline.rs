//! `mapzoo raceline`: the published Race Stack f file reproduced through the
//! command line, generated MapZoo and TUM centerlines (run anywhere), the
//! `--json` record's keys, `--config`, and bad input (NaN, a track narrower
//! than the safety width, unknown config keys): exit 2, a message naming the
//! file and the cause, and nothing written.

use mapzoo_format::{read_waypoint_csv, waypoints_to_csv_string, GlobalWaypoints};
use std::path::Path;
use std::process::Output;

use mapzoo_synth::tracks::wobbly_oval;

use crate::support::{mapzoo, reference_data_or_skip, stderr, RECORD_KEYS};

fn run(args: &[&str]) -> Output {
    mapzoo().arg("raceline").args(args).output().unwrap()
}

fn record(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    let text = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON record");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, RECORD_KEYS);
    v
}

#[test]
fn race_stack_f_reproduced_through_the_cli() {
    let Some(data) = reference_data_or_skip("race_stack_f_reproduced_through_the_cli") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let input = data.join("racestack/f/global_waypoints.json");
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--profile",
        "racestack",
        "--json",
    ]);
    let v = record(&o);
    assert_eq!(v["track"], "f");
    assert_eq!(v["centerline_points"], 864);
    assert_eq!(v["iqp_points"], 766);
    assert_eq!(v["sp_points"], 717);
    let published = GlobalWaypoints::read(&input).unwrap();
    let ours = GlobalWaypoints::read(&out.join("global_waypoints.json")).unwrap();
    assert_eq!(ours.map_info_str, published.map_info_str);
    // the lines themselves, point by point
    for (a, b) in [(&ours.iqp, &published.iqp), (&ours.sp, &published.sp)] {
        assert_eq!(a.wpnts.len(), b.wpnts.len());
        for (p, q) in a.wpnts.iter().zip(&b.wpnts) {
            assert!(
                (p.x_m - q.x_m).abs() < 1e-5 && (p.y_m - q.y_m).abs() < 1e-5,
                "{p:?} vs {q:?}"
            );
            assert!((p.vx_mps - q.vx_mps).abs() < 1e-5, "{p:?} vs {q:?}");
        }
    }
    assert_eq!(ours.right_bound().len(), published.right_bound().len());
    let iqp = read_waypoint_csv(&out.join("f_racing_line.csv")).unwrap();
    assert_eq!(iqp.len(), 766);
    assert_eq!(read_waypoint_csv(&out.join("f_sp.csv")).unwrap().len(), 717);
    assert_eq!(
        read_waypoint_csv(&out.join("f_centerline.csv"))
            .unwrap()
            .len(),
        864
    );
}

#[test]
fn mapzoo_csv_centerline_gives_closed_lines_and_walls() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("oval_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let out = tmp.path().join("set");
    let v = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["track"], "oval");
    let gw = GlobalWaypoints::read(&out.join("global_waypoints.json")).unwrap();
    assert_eq!(gw.iqp.wpnts.len() as u64, v["iqp_points"].as_u64().unwrap());
    let (first, last) = (gw.iqp.wpnts[0], *gw.iqp.wpnts.last().unwrap());
    assert_eq!((first.x_m, first.y_m), (last.x_m, last.y_m));
    assert!((last.s_m - v["iqp_length_m"].as_f64().unwrap()).abs() < 1e-6);
    // walls rebuilt from the widths: one bound point per centerline point on each side
    assert_eq!(gw.right_bound().len(), gw.centerline.wpnts.len());
    assert_eq!(gw.left_bound().len(), gw.centerline.wpnts.len());
    // an oval is faster on its racing line than its shortest path is long
    assert!(v["sp_length_m"].as_f64().unwrap() < v["iqp_length_m"].as_f64().unwrap());
}

#[test]
fn tum_centerline_is_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ovaltum.csv");
    let mut text = String::from("# x_m,y_m,w_tr_right_m,w_tr_left_m\n");
    for w in wobbly_oval(1.3) {
        // the MapZoo CSV carries 8 decimals: write the same digits
        text.push_str(&format!(
            "{:.8},{:.8},{:.8},{:.8}\n",
            w.x_m, w.y_m, w.d_right, w.d_left
        ));
    }
    std::fs::write(&input, text).unwrap();
    let out = tmp.path().join("set");
    let tum = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    let csv_in = tmp.path().join("oval_centerline.csv");
    std::fs::write(&csv_in, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let csv = record(&run(&[
        csv_in.to_str().unwrap(),
        "--out",
        tmp.path().join("b").to_str().unwrap(),
        "--json",
    ]));
    // same geometry, same answer, whichever format carried it
    assert_eq!(tum["iqp_lap_s"], csv["iqp_lap_s"]);
    assert_eq!(tum["sp_lap_s"], csv["sp_lap_s"]);
    let cl = read_waypoint_csv(&out.join("ovaltum_centerline.csv")).unwrap();
    assert!(cl[10].psi_rad.is_finite() && cl[10].kappa_radpm.abs() > 0.0);
}

#[test]
fn config_file_overrides_the_profile() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("oval_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let cfg = tmp.path().join("pipeline.toml");
    std::fs::write(&cfg, "[raceline]\nv_max = 6.0\n").unwrap();
    let v = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("o").to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--json",
    ]));
    assert!(v["iqp_vmax"].as_f64().unwrap() <= 6.0 + 1e-9);
    // the project's own pipeline.toml is accepted as it is
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline.toml");
    if root.is_file() {
        let o = run(&[
            input.to_str().unwrap(),
            "--out",
            tmp.path().join("p").to_str().unwrap(),
            "--config",
            root.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    std::fs::write(&cfg, "[raceline]\nvmax = 6.0\n").unwrap();
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("q").to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("pipeline.toml") && stderr(&o).contains("vmax"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("q").exists());
}

/// `--config` reads the file as `build --config` does: a misspelt table or key is an error
/// naming the file and the key, and the file's `profile` key chooses the profile.
#[test]
fn config_file_is_checked_whole_and_its_profile_is_used() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("oval_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let cfg = tmp.path().join("typo.toml");
    for (text, key) in [
        ("[racline]\nv_max = 6.0\n", "racline"),
        (
            "[raceline]\nv_max = 6.0\n[extract]\nno_such_key = 1\n",
            "no_such_key",
        ),
        ("profile = \"fast\"\n", "profile"),
    ] {
        std::fs::write(&cfg, text).unwrap();
        let out = tmp.path().join("o");
        let o = run(&[
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--config",
            cfg.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        let err = stderr(&o);
        assert!(
            err.contains("typo.toml") && err.contains(key),
            "{text}: {err}"
        );
        assert!(!out.exists(), "{text}: nothing may be written");
    }
    // profile = "racestack" in the file gives the racestack widths, as --profile does
    std::fs::write(&cfg, "profile = \"racestack\"\n").unwrap();
    let from_file = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("a").to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
        "--json",
    ]));
    let from_flag = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("b").to_str().unwrap(),
        "--profile",
        "racestack",
        "--json",
    ]));
    let default = record(&run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("c").to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(from_file["iqp_lap_s"], from_flag["iqp_lap_s"]);
    assert_eq!(from_file["sp_lap_s"], from_flag["sp_lap_s"]);
    assert_ne!(from_file["iqp_lap_s"], default["iqp_lap_s"]);
    // --free-rule only concerns maps: refused rather than silently ignored
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        tmp.path().join("d").to_str().unwrap(),
        "--free-rule",
        "nonzero",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--free-rule"), "{}", stderr(&o));
}

#[test]
fn nan_in_centerline_is_an_error_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cl = wobbly_oval(1.3);
    cl[17].y_m = f64::NAN;
    let input = tmp.path().join("bad_centerline.csv");
    let text = waypoints_to_csv_string(&cl);
    std::fs::write(&input, text).unwrap();
    let out = tmp.path().join("out");
    let o = run(&[input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad_centerline.csv"), "{err}");
    assert!(!out.exists(), "nothing may be written");
}

#[test]
fn track_narrower_than_safety_width_says_where() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("narrow_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(0.5))).unwrap();
    let out = tmp.path().join("out");
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--safety-width",
        "1.2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("narrow_centerline.csv") && err.contains("too narrow") && err.contains("s = "),
        "{err}"
    );
    assert!(!out.exists());
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--safety-width=-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("safety_width"), "{}", stderr(&o));
    let o = run(&[
        tmp.path().join("missing.csv").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.csv"));
}

/// `--lines iqp,sp,mintime` adds `<T>_mintime.csv` (closed, ≈0.1 m, never slower than the IQP
/// in the record) and the record keys mintime_*; global_waypoints.json is the same as without
/// it; a line name that does not exist, or a list without iqp or sp, is a usage error.
#[test]
fn lines_mintime_adds_the_minimum_time_line() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("oval_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let plain = tmp.path().join("plain");
    let fast = tmp.path().join("fast");
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        plain.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!plain.join("oval_mintime.csv").exists());
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        fast.to_str().unwrap(),
        "--json",
        "--lines",
        "iqp,sp,mintime",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).unwrap();
    let lap = v["mintime_lap_s"].as_f64().unwrap();
    assert!(lap <= v["iqp_lap_s"].as_f64().unwrap(), "{v}");
    assert!(v["mintime_vmax"].as_f64().unwrap() > 0.0);
    // how it was found: QPs solved, steps kept, and the lap the iteration lowers (its own
    // spline re-timed every 0.02 m), which the 0.1 m waypoints' lap follows closely
    let (qps, kept) = (
        v["mintime_qps"].as_u64().unwrap(),
        v["mintime_kept"].as_u64().unwrap(),
    );
    assert!(qps >= 1 && kept <= qps, "{v}");
    let fine = v["mintime_fine_lap_s"].as_f64().unwrap();
    assert!((fine - lap).abs() < 0.01 * lap, "{v}");
    let line = read_waypoint_csv(&fast.join("oval_mintime.csv")).unwrap();
    assert_eq!(line.len() as u64, v["mintime_points"].as_u64().unwrap());
    let (first, last) = (line[0], *line.last().unwrap());
    assert_eq!((first.x_m, first.y_m), (last.x_m, last.y_m));
    assert!(line.windows(2).all(|w| (w[1].s_m - w[0].s_m) < 0.15));
    // the Race Stack's file is untouched by the extra line
    assert_eq!(
        std::fs::read(plain.join("global_waypoints.json")).unwrap(),
        std::fs::read(fast.join("global_waypoints.json")).unwrap()
    );
    for bad in ["iqp,sp,fastest", "iqp,mintime"] {
        let o = run(&[
            input.to_str().unwrap(),
            "--out",
            plain.to_str().unwrap(),
            "--lines",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = stderr(&o);
        assert!(err.contains("--lines"), "{bad}: {err}");
    }
}

/// `--racing-line sp` drives the shortest-path line: it is `<T>_racing_line.csv` and fills the
/// IQP slot of global_waypoints.json (the SP slot unchanged), and the IQP line is kept as
/// `<T>_iqp.csv`.
#[test]
fn racing_line_sp_drives_the_shortest_path_line() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("oval_centerline.csv");
    std::fs::write(&input, waypoints_to_csv_string(&wobbly_oval(1.3))).unwrap();
    let (plain, sp) = (tmp.path().join("plain"), tmp.path().join("sp"));
    for (out, extra) in [(&plain, None), (&sp, Some("sp"))] {
        let mut args = vec![input.to_str().unwrap(), "--out", out.to_str().unwrap()];
        if let Some(line) = extra {
            args.extend(["--racing-line", line]);
        }
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert_eq!(
        read(&sp.join("oval_racing_line.csv")),
        read(&sp.join("oval_sp.csv"))
    );
    assert_eq!(
        read(&sp.join("oval_iqp.csv")),
        read(&plain.join("oval_racing_line.csv"))
    );
    let gw = GlobalWaypoints::read(&sp.join("global_waypoints.json")).unwrap();
    let before = GlobalWaypoints::read(&plain.join("global_waypoints.json")).unwrap();
    assert_eq!(gw.iqp.wpnts, before.sp.wpnts);
    assert_eq!(gw.sp.wpnts, before.sp.wpnts);
}

/// `--qp banded` (the default) reproduces the Race Stack's f exactly as `--qp clarabel` does
/// (the same published map_info figures and point counts); an unknown solver is refused before
/// any work, naming the flag and both choices, with nothing written.
#[test]
fn qp_flag_chooses_the_solver_with_the_same_lines() {
    let Some(data) = reference_data_or_skip("qp_flag_chooses_the_solver_with_the_same_lines")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let input = data.join("racestack/f/global_waypoints.json");
    let mut records = Vec::new();
    for solver in ["clarabel", "banded"] {
        let out = tmp.path().join(solver);
        let o = run(&[
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--profile",
            "racestack",
            "--qp",
            solver,
            "--json",
        ]);
        let v = record(&o);
        let gw = GlobalWaypoints::read(&out.join("global_waypoints.json")).unwrap();
        records.push((v, gw.map_info_str));
    }
    let published = GlobalWaypoints::read(&input).unwrap();
    for (v, info) in &records {
        assert_eq!(info, &published.map_info_str);
        assert_eq!(v["iqp_points"], 766);
        assert_eq!(v["sp_points"], 717);
    }
    let out = tmp.path().join("bad");
    let o = run(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--qp",
        "fast",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("--qp") && e.contains("banded") && e.contains("clarabel"),
        "{e}"
    );
    assert!(!out.exists());
}

/// The banded solver gives the Clarabel lines on the F1TENTH maps whose QPs are degenerate
/// (IMS, São Paulo: a weakly active row that two interior points classify differently, where
/// the active-set polish of one holds and the other's fails): every IQP and SP waypoint within
/// 1e-6 m, and the same lap times. Both paths polish such a QP's answer on its active set
/// corrected where the minimiser test fails (until 2026-12-05 the banded path handed it to
/// Clarabel).
#[test]
fn banded_matches_clarabel_on_degenerate_f1tenth_maps() {
    let Some(data) = reference_data_or_skip("banded_matches_clarabel_on_degenerate_f1tenth_maps")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for track in ["IMS", "SaoPaulo"] {
        let map = data.join(format!("f1tenth/{track}/{track}_map.yaml"));
        let mut sets = Vec::new();
        for solver in ["clarabel", "banded"] {
            let out = tmp.path().join(solver);
            let o = mapzoo()
                .args([
                    "build",
                    map.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                ])
                .args(["--qp", solver, "--json"])
                .output()
                .unwrap();
            assert!(o.status.success(), "{track} {solver}: {}", stderr(&o));
            let gw = GlobalWaypoints::read(&out.join(track).join("global_waypoints.json")).unwrap();
            sets.push(gw);
        }
        let (c, b) = (&sets[0], &sets[1]);
        assert_eq!(c.map_info_str, b.map_info_str, "{track}");
        for (name, lc, lb) in [
            ("IQP", &c.iqp.wpnts, &b.iqp.wpnts),
            ("SP", &c.sp.wpnts, &b.sp.wpnts),
        ] {
            assert_eq!(lc.len(), lb.len(), "{track} {name}: point counts");
            for (p, q) in lc.iter().zip(lb.iter()) {
                let d = (p.x_m - q.x_m).hypot(p.y_m - q.y_m);
                assert!(d <= 1e-6, "{track} {name}: waypoint {} moved {d:e} m", p.id);
            }
        }
    }
}
