//! `mapzoo centerline`: writes a MapZoo centerline CSV that reads back, honours
//! --start and --reverse, and reports bad input naming the file, writing nothing.

use mapzoo_format::{read_waypoint_csv, Waypoint};
use mapzoo_synth::{generate, GapSpec, SynthOptions};
use std::path::Path;

use crate::support::{names, run, text};

/// Writes a synthetic map `dir/t.png` + `dir/t.yaml`; returns (yaml path, lap length).
fn map_in(dir: &Path, opts: SynthOptions) -> (String, f64) {
    let map = generate(&opts).expect("generator");
    let [_, yaml] = map.write(dir, "t").expect("write map");
    (
        yaml.to_str().expect("utf-8").to_string(),
        map.truth.lap_length,
    )
}

fn small() -> SynthOptions {
    SynthOptions {
        seed: 5,
        resolution: 0.08,
        ..SynthOptions::default()
    }
}

#[test]
fn writes_a_centerline_that_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let (yaml, lap) = map_in(dir.path(), small());
    let out = dir.path().join("t_centerline.csv");
    let o = run(&["centerline", &yaml, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with(
        "id; s_m; d_m; x_m; y_m; d_right; d_left; psi_rad; kappa_radpm; vx_mps; ax_mps2\n"
    ));
    let w = read_waypoint_csv(&out).expect("reads back");
    let n = w.len() as f64;
    assert!(
        (n * 0.1 - lap).abs() / lap < 0.03,
        "{n} points for a {lap} m lap"
    );
    for (i, p) in w.iter().enumerate() {
        assert_eq!(p.id, i as i64);
        assert!((p.s_m - 0.1 * i as f64).abs() < 1e-6);
        assert_eq!((p.d_m, p.vx_mps, p.ax_mps2), (0.0, 0.0, 0.0));
        assert!(p.d_right > 0.0 && p.d_left > 0.0);
    }
}

#[test]
fn start_and_reverse() {
    let dir = tempfile::tempdir().unwrap();
    let (yaml, _) = map_in(dir.path(), small());
    let fwd = dir.path().join("fwd.csv");
    let rev = dir.path().join("rev.csv");
    // The synthetic lap starts at (0, 0) heading +x; start half a metre off to the side.
    let o = run(&[
        "centerline",
        &yaml,
        "-o",
        fwd.to_str().unwrap(),
        "--start",
        "0.2,-0.5,0",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&[
        "centerline",
        &yaml,
        "--out",
        rev.to_str().unwrap(),
        "--start",
        "0.2,-0.5,0",
        "--reverse",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let (f, r) = (
        read_waypoint_csv(&fwd).unwrap(),
        read_waypoint_csv(&rev).unwrap(),
    );
    assert_eq!(f.len(), r.len());
    // Waypoint 0 is the loop's point nearest the start, in both directions.
    assert!((f[0].x_m - r[0].x_m).abs() < 1e-6 && (f[0].y_m - r[0].y_m).abs() < 1e-6);
    assert!(f[0].x_m.hypot(f[0].y_m) < 0.3);
    assert!(f[0].psi_rad.cos() > 0.9, "forward heads +x");
    assert!(r[0].psi_rad.cos() < -0.9, "reverse heads -x");
    // Driving the other way swaps the walls.
    let mean = |w: &[Waypoint], right: bool| {
        w.iter()
            .map(|p| if right { p.d_right } else { p.d_left })
            .sum::<f64>()
            / w.len() as f64
    };
    assert!((mean(&f, true) - mean(&r, false)).abs() < 0.02);
    assert!((mean(&f, false) - mean(&r, true)).abs() < 0.02);
}

#[test]
fn errors_name_the_file_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.csv");
    let out_s = out.to_str().unwrap();

    let missing = dir.path().join("missing.yaml");
    let o = run(&["centerline", missing.to_str().unwrap(), "--out", out_s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("missing.yaml"), "{}", text(&o));

    // A corridor to the image border is a dead end (the border is a wall): it builds, with
    // a note; a wall across the track fails naming where it is.
    let corridor = SynthOptions {
        seed: 41,
        wall_gap: Some(GapSpec {
            s: None,
            width: 1.4,
        }),
        ..SynthOptions::default()
    };
    let (yaml, _) = map_in(dir.path(), corridor);
    let built = dir.path().join("built.csv");
    let o = run(&["centerline", &yaml, "--out", built.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("image border"), "{}", text(&o));
    let mut blocked = generate(&SynthOptions {
        seed: 41,
        ..SynthOptions::default()
    })
    .expect("generator");
    let t = &blocked.truth.centerline;
    let p = t[t.len() / 3];
    let (c, r) = blocked.world_to_pixel(p.x, p.y);
    let reach = (p.d_left.max(p.d_right) + 0.2) / blocked.meta.resolution;
    let w = blocked.width;
    for (i, g) in blocked.gray.iter_mut().enumerate() {
        let (pc, pr) = ((i % w) as f64, (i / w) as f64);
        if (pc - c).hypot(pr - r) <= reach {
            *g = 0;
        }
    }
    let [_, yaml] = blocked.write(dir.path(), "t").expect("write map");
    let yaml = yaml.to_str().unwrap().to_string();
    let o = run(&["centerline", &yaml, "--out", out_s]);
    assert_eq!(o.status.code(), Some(2));
    let msg = text(&o);
    assert!(
        msg.contains("t.png") && msg.contains("cuts it at") && msg.contains("pixel (col"),
        "{msg}"
    );

    let o = run(&["centerline", &yaml, "--out", out_s, "--free-rule", "bright"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("map-server"), "{}", text(&o));

    let o = run(&["centerline", &yaml, "--out", out_s, "--start", "1,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("x,y,yaw"), "{}", text(&o));

    assert!(!out.exists(), "nothing written on failure");
}

#[test]
fn config_file_sets_the_extraction_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let (yaml, lap) = map_in(dir.path(), small());
    let toml = dir.path().join("p.toml");
    std::fs::write(
        &toml,
        "[extract]\nspacing_m = 0.25\n[map]\nfree_rule = \"nonzero\"\n",
    )
    .unwrap();
    let out = dir.path().join("c.csv");
    let o = run(&[
        "centerline",
        &yaml,
        "--out",
        out.to_str().unwrap(),
        "--config",
        toml.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let w = read_waypoint_csv(&out).unwrap();
    let n = w.len() as f64;
    assert!(
        (n * 0.25 - lap).abs() / lap < 0.03,
        "{n} points at 0.25 m for a {lap} m lap"
    );
    assert!((w[1].s_m - w[0].s_m - 0.25).abs() < 1e-6);

    std::fs::write(&toml, "[extract]\nspacing_m = -1\n").unwrap();
    let o = run(&[
        "centerline",
        &yaml,
        "--out",
        out.to_str().unwrap(),
        "--config",
        toml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("spacing_m"), "{}", text(&o));
    // The failed run left the earlier file as it was.
    assert_eq!(read_waypoint_csv(&out).unwrap(), w);
}

#[test]
fn a_failed_write_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let (yaml, _) = map_in(dir.path(), small());
    // A non-empty folder in the way: the final rename fails.
    let blocked = dir.path().join("blocked.csv");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), "x").unwrap();
    let o = run(&["centerline", &yaml, "--out", blocked.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("blocked.csv"), "{}", text(&o));
    assert_eq!(names(dir.path()), ["blocked.csv", "t.png", "t.yaml"]);
}
