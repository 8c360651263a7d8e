//! No input makes a pipeline entry point panic (issue 12 item 10): the config TOML
//! reader, `build` from a map whose YAML or image is random, `read_centerline_track`
//! and the racing-line stages from a random centerline, `regen` and `check` on a
//! folder of random files. Each gives `Ok` or an `Err`; bounded case counts keep
//! them inside `cargo test`.

use std::path::Path;

use mapzoo_format::{encode_gray_png, waypoints_to_csv_string, Waypoint};
use mapzoo_pipeline::{
    build, check, read_centerline_track, regen, run_caught, BuildRequest, CheckOptions, Config,
    PipelineError,
};
use proptest::prelude::*;

/// `f()` must not panic (the error kind "internal" marks a caught panic).
fn no_panic<T>(what: &str, f: impl FnOnce() -> Result<T, PipelineError>) -> Result<(), String> {
    match run_caught(f) {
        Err(e) if e.kind() == "internal" => Err(format!("{what} panicked: {e}")),
        _ => Ok(()),
    }
}

/// Keys of pipeline.toml with values a hostile user writes.
fn toml_line() -> impl Strategy<Value = String> {
    let keys = prop::sample::select(vec![
        "profile",
        "max_seconds",
        "[map]\nfree_rule",
        "[extract]\nopening_size",
        "[extract]\nopening_iterations",
        "[extract]\nspacing_m",
        "[extract]\nshrink_opening",
        "[raceline]\nsafety_width",
        "[raceline]\nv_max",
        "[raceline]\nggv",
        "[raceline]\nax_max_machines",
        "[raceline]\nstepsize_reg",
        "[raceline]\niqp_iters_min",
        "[raceline]\niqp_iters_max",
        "[raceline]\nsp_alpha_smoothing_half_window",
        "[sectors]\nspline_len",
        "[sectors]\nscaling",
    ]);
    let values = prop::sample::select(vec![
        "0",
        "-1",
        "1e300",
        "-1e-300",
        "nan",
        "inf",
        "-inf",
        "1e-6",
        "18446744073709551615",
        "9223372036854775807",
        "-9223372036854775808",
        "\"racestack\"",
        "\"x\"",
        "true",
        "[]",
        "[[0.0, 1.0, 1.0]]",
        "[[1e300, -1.0, 0.0], [0.0, 1.0, 1.0]]",
        "{}",
        "0.5",
        "3",
    ]);
    (keys, values).prop_map(|(k, v)| format!("{k} = {v}\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The config reader and its validation on random text and hostile values.
    #[test]
    fn config_toml_never_panics(
        text in "[ -~\n]{0,200}",
        lines in prop::collection::vec(toml_line(), 0..6),
    ) {
        let path = Path::new("c.toml");
        for t in [text, lines.concat()] {
            let r = no_panic("config", || {
                let c = Config::from_toml_str(&t, None, path)?;
                c.validate(path)?;
                Ok(c)
            });
            prop_assert!(r.is_ok(), "{:?}\n{t}", r);
        }
    }
}

/// A small map: a ring of free pixels in a `side` × `side` image, gray `free` inside.
fn ring_png(side: usize, free: u8) -> Vec<u8> {
    let c = side as f64 / 2.0;
    let gray: Vec<u8> = (0..side * side)
        .map(|i| {
            let (x, y) = ((i % side) as f64 - c, (i / side) as f64 - c);
            let r = x.hypot(y);
            if r > c * 0.45 && r < c * 0.85 {
                free
            } else {
                0
            }
        })
        .collect();
    encode_gray_png(Path::new("m.png"), side, side, &gray).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// `build` on a map whose YAML fields are hostile and whose image is a small ring or
    /// random bytes.
    #[test]
    fn build_never_panics(
        resolution in prop::sample::select(vec!["0.05", "0.1", "1e-300", "-1", "0", "nan", "1e15", "abc"]),
        origin in prop::sample::select(vec!["[0, 0, 0]", "[1e300, -1e300, 0]", "[nan, 0, 0]", "[0, 0]", "[0, 0, 1e9]"]),
        thresholds in prop::sample::select(vec![("0.65", "0.196"), ("0.1", "0.9"), ("2", "-1"), ("nan", "0.5")]),
        image in prop_oneof![
            (20usize..120, any::<u8>()).prop_map(|(s, g)| ring_png(s, g)),
            prop::collection::vec(any::<u8>(), 0..400),
        ],
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let yaml = tmp.path().join("m.yaml");
        std::fs::write(tmp.path().join("m.png"), &image).unwrap();
        std::fs::write(
            &yaml,
            format!(
                "image: m.png\nresolution: {resolution}\norigin: {origin}\nnegate: 0\noccupied_thresh: {}\nfree_thresh: {}\n",
                thresholds.0, thresholds.1
            ),
        )
        .unwrap();
        let req = BuildRequest { yaml, name: None, start: None, reverse: false };
        let config = Config::for_profile(mapzoo_pipeline::Profile::Racestack);
        let r = no_panic("build", || build(&req, &config));
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    /// `read_centerline_track` and the racing-line stages on random centerlines: few or
    /// many points, duplicates, spikes, crossings, zero and negative widths.
    #[test]
    fn centerlines_never_panic(
        pts in prop::collection::vec((-30.0f64..30.0, -30.0f64..30.0, -0.5f64..3.0, -0.5f64..3.0), 0..40),
        dup in any::<prop::sample::Index>(),
    ) {
        let mut line: Vec<Waypoint> = pts
            .iter()
            .enumerate()
            .map(|(i, &(x, y, r, l))| Waypoint { id: i as i64, x_m: x, y_m: y, d_right: r, d_left: l, ..Waypoint::default() })
            .collect();
        if !line.is_empty() {
            let i = dup.index(line.len());
            line.insert(i, line[i]);
        }
        let tmp = tempfile::tempdir().unwrap();
        let csv = tmp.path().join("r_centerline.csv");
        std::fs::write(&csv, waypoints_to_csv_string(&line)).unwrap();
        let r = no_panic("raceline", || {
            let t = read_centerline_track(&csv)?;
            mapzoo_raceline::compute(&t.centerline, t.walls.as_ref(), &mapzoo_raceline::RacelineParams::racestack())
                .map_err(|source| PipelineError::Optimize { path: csv.clone(), source })
        });
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    /// `regen` and `check` on a folder of random files with the names of a set.
    #[test]
    fn regen_and_check_never_panic(files in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 6)) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        std::fs::create_dir(&dir).unwrap();
        let names = ["t.yaml", "t.png", "t_centerline.csv", "global_waypoints.json", "speed_scaling.yaml", "ot_sectors.yaml"];
        for (name, bytes) in names.iter().zip(&files) {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        let config = Config::default();
        let r = no_panic("regen", || regen(&dir, &config, false));
        prop_assert!(r.is_ok(), "{:?}", r);
        let opts = CheckOptions { from_centerline: false, lap_tol: 0.01, published: Vec::new(), infer: false };
        let r = no_panic("check", || check(&dir, &config, &opts));
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}
