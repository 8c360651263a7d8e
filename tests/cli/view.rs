//! `mapzoo view`: the page opened in headless Chromium (Debian's `chromium`). The page, opened
//! with `#selftest`, hovers waypoints, clicks the toggles and the plot through its own event
//! handlers and writes what it saw into `<pre id="selftest">`; `--dump-dom` hands that to the
//! test, which compares the readout with the set's CSV files. Screenshots go to
//! `target/view-shots/`. Without Chromium the tests skip with a notice, except in CI
//! (`CI=true`), where they fail (`.ci/run` installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mapzoo_format::{read_waypoint_csv, Waypoint};
use serde_json::Value;

use crate::support::{reference_data_or_skip, run, s, text};

/// The Chromium binary: `$MAPZOO_CHROMIUM`, else `chromium` / `chromium-browser` on the PATH.
/// `None` (with a notice) where there is none, outside CI; in CI a missing browser fails.
fn chromium(test: &str) -> Option<PathBuf> {
    let candidates = std::env::var_os("MAPZOO_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(std::env::var_os("PATH").into_iter().flat_map(|p| {
            std::env::split_paths(&p)
                .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
                .collect::<Vec<_>>()
        }));
    let found = candidates.into_iter().find(|p| p.is_file());
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "{test}: chromium not found (CI=true): .ci/run installs Debian's chromium; \
             or set MAPZOO_CHROMIUM"
        );
        eprintln!(
            "skipping {test}: chromium not found (apt-get install chromium, or set MAPZOO_CHROMIUM)"
        );
    }
    found
}

/// Where screenshots go: `target/view-shots/`.
fn shots_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("view-shots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs headless Chromium on `url` with `mode` (`--dump-dom` or `--screenshot=…`), killed
/// after two minutes; its stdout.
fn headless(browser: &Path, url: &str, mode: &str) -> String {
    // one browser at a time: the page times its hovers, and two cores shared by several
    // browsers would time the machine instead
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1400,1000",
            "--virtual-time-budget=60000",
            &format!("--user-data-dir={}", profile.path().display()),
            mode,
            url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("chromium did not finish {url} within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// Opens `html` with `#selftest&<query>`: the self-test's results, and a screenshot at
/// `target/view-shots/<shot>.png`.
fn selftest(browser: &Path, html: &Path, query: &str, shot: &str) -> Value {
    let url = format!("file://{}#selftest&{query}", html.display());
    let dom = headless(browser, &url, "--dump-dom");
    let start = dom
        .find("<pre id=\"selftest\" data-done=\"1\">")
        .unwrap_or_else(|| {
            panic!(
                "{url}: the self-test did not finish; the page:\n{}",
                &dom[..dom.len().min(2000)]
            )
        });
    let body = &dom[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    let json = body
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let result: Value = serde_json::from_str(&json).unwrap();
    let png = shots_dir().join(format!("{shot}.png"));
    headless(browser, &url, &format!("--screenshot={}", png.display()));
    assert!(png.is_file(), "no screenshot at {}", png.display());
    result
}

/// Text of `x` with `d` decimals as the page prints it (no negative zero).
fn fixed(x: f64, d: usize) -> String {
    let t = format!("{x:.d$}");
    if t.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        t.trim_start_matches('-').to_string()
    } else {
        t
    }
}

/// Checks one track of a self-test: no errors, each toggle hides its line, the readout of
/// each line in `csvs` (line name, the file of its waypoints) shows the file's row, the plot
/// and the map mark each other, and hovering stays under 50 ms.
fn check_track(result: &Value, track: &Value, csvs: &[(&str, PathBuf)]) {
    let name = track["name"].as_str().unwrap();
    assert_eq!(
        result["errors"],
        Value::Array(vec![]),
        "{name}: page errors"
    );
    let toggles = track["toggles"].as_object().unwrap();
    for (_, line) in csvs {
        assert!(line.is_file(), "{}", line.display());
    }
    for (line, t) in toggles {
        let samples = t["samples"].as_u64().unwrap();
        let changed = t["changed"].as_u64().unwrap();
        assert!(
            samples >= 10,
            "{name} {line}: only {samples} points on screen"
        );
        // a dashed centerline leaves some samples in its gaps
        assert!(
            changed * 2 >= samples,
            "{name} {line}: hiding it changed only {changed} of {samples} sampled pixels"
        );
        assert_eq!(
            t["picked_when_hidden"], false,
            "{name} {line}: hover still finds it when hidden"
        );
    }
    for (line, csv) in csvs {
        let rows: Vec<Waypoint> = read_waypoint_csv(csv).unwrap();
        let r = &track["readouts"][*line];
        let k = r["index"]
            .as_u64()
            .unwrap_or_else(|| panic!("{name} {line}: no readout")) as usize;
        let w = &rows[k];
        let shown = |f: &str| r[f].as_str().unwrap().to_string();
        assert_eq!(shown("id"), w.id.to_string(), "{name} {line} id");
        let mut expect = vec![
            ("s", fixed(w.s_m, 3)),
            ("x", fixed(w.x_m, 3)),
            ("y", fixed(w.y_m, 3)),
            ("k", fixed(w.kappa_radpm, 4)),
            ("dl", fixed(w.d_left, 3)),
            ("dr", fixed(w.d_right, 3)),
        ];
        if *line != "center" {
            expect.push(("v", fixed(w.vx_mps, 2)));
            expect.push(("a", fixed(w.ax_mps2, 2)));
        }
        for (f, want) in expect {
            assert_eq!(shown(f), want, "{name} {line} waypoint {k}: field {f}");
        }
        let link = &track["links"][*line];
        assert_eq!(link["wp"].as_u64().unwrap() as usize, k);
        let cursor = link["plot_cursor_px"].as_f64().expect("plot cursor drawn");
        let expected = link["expected_cursor_px"].as_f64().unwrap();
        assert!(
            (cursor - expected).abs() < 0.5,
            "{name} {line}: hover on the map put the plot cursor at {cursor} px, not {expected}"
        );
        if *line != "center" {
            assert_eq!(
                link["map_marked_index"].as_u64(),
                Some(k as u64),
                "{name} {line}: the plot at waypoint {k}'s s marks another waypoint"
            );
            let at = |v: &Value| [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()];
            let (m, p) = (at(&link["map_marker_px"]), at(&link["waypoint_px"]));
            assert!(
                (m[0] - p[0]).abs() < 0.5 && (m[1] - p[1]).abs() < 0.5,
                "{name} {line}: marker {m:?} vs {p:?}"
            );
            assert!(
                link["marker_alpha"].as_u64().unwrap() > 0,
                "{name} {line}: no marker drawn"
            );
        }
    }
    let hover = &track["hover_ms"];
    let p95 = hover["p95"].as_f64().unwrap();
    eprintln!(
        "{name}: {} waypoints, hover p50 {:.1} ms, p95 {p95:.1} ms, max {:.1} ms over {} \
         (fastest of three each; slowest single hover {:.1} ms)",
        track["waypoints"],
        hover["p50"].as_f64().unwrap(),
        hover["max"].as_f64().unwrap(),
        hover["n"],
        hover["raw_max"].as_f64().unwrap()
    );
    assert!(p95 < 50.0, "{name}: hover takes {p95} ms (95th percentile)");
}

/// `mapzoo view DIR -o DIR.html`; the page's path.
fn view(dir: &Path, out: &Path) -> PathBuf {
    let o = run(&["view", s(dir), "-o", s(out)]);
    assert!(o.status.success(), "{}", text(&o));
    out.to_path_buf()
}

#[test]
fn view_of_f_shows_the_csv_values_and_links_plot_and_map() {
    let Some(data) = reference_data_or_skip("view_of_f") else {
        return;
    };
    let Some(browser) = chromium("view_of_f") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let yaml = data.join("racestack/f/f.yaml");
    let o = run(&[
        "build",
        s(&yaml),
        "--out",
        s(tmp.path()),
        "--free-rule",
        "nonzero",
        "--profile",
        "racestack",
        "--start=-5.024962,-22.778604,2.983722",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let set = tmp.path().join("f");
    let html = view(&set, &tmp.path().join("f.html"));
    let r = selftest(&browser, &html, "wp=100", "f");
    let csvs = [
        ("iqp", set.join("f_racing_line.csv")),
        ("center", set.join("f_centerline.csv")),
    ];
    check_track(&r, &r["tracks"][0], &csvs);
}

#[test]
fn view_of_a_mapzoo_track_with_three_lines() {
    let Some(data) = reference_data_or_skip("view_of_austin") else {
        return;
    };
    let Some(browser) = chromium("view_of_austin") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("Austin");
    let src = data.join("mapzoo/Austin");
    let o = run(&[
        "raceline",
        s(&src.join("Austin_centerline.csv")),
        "--lines",
        "iqp,sp,mintime",
        "--out",
        s(&set),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["Austin.png", "Austin.yaml"] {
        std::fs::copy(src.join(f), set.join(f)).unwrap();
    }
    let html = view(&set, &tmp.path().join("Austin.html"));
    let r = selftest(&browser, &html, "wp=700", "austin");
    let track = &r["tracks"][0];
    for line in ["iqp", "sp", "mintime", "center"] {
        assert!(
            track["toggles"].get(line).is_some(),
            "Austin: no {line} in the page"
        );
    }
    let csvs = [
        ("iqp", set.join("Austin_racing_line.csv")),
        ("sp", set.join("Austin_sp.csv")),
        ("mintime", set.join("Austin_mintime.csv")),
        ("center", set.join("Austin_centerline.csv")),
    ];
    check_track(&r, track, &csvs);
}

#[test]
fn view_of_a_470_m_slam_map() {
    let Some(data) = reference_data_or_skip("view_of_vegas") else {
        return;
    };
    let Some(browser) = chromium("view_of_vegas") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&[
        "build",
        s(&data.join("slam/vegas/vegas.yaml")),
        "--out",
        s(tmp.path()),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let set = tmp.path().join("vegas");
    let html = view(&set, &tmp.path().join("vegas.html"));
    let r = selftest(&browser, &html, "wp=3000", "vegas");
    let track = &r["tracks"][0];
    let lap = track["toggles"].as_object().unwrap().len();
    assert!(lap >= 3, "vegas: {lap} lines");
    let csvs = [
        ("iqp", set.join("vegas_racing_line.csv")),
        ("center", set.join("vegas_centerline.csv")),
    ];
    check_track(&r, track, &csvs);
}

#[test]
fn view_refuses_an_output_that_is_not_html() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["view", s(tmp.path()), "-o", s(&tmp.path().join("x.png"))]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains(".html"), "{}", text(&o));
    assert!(!tmp.path().join("x.png").exists());
}

/// The JSON blob of a page written by `mapzoo view`.
fn page_data(html: &Path) -> Value {
    let text = std::fs::read_to_string(html).unwrap();
    let open = "<script type=\"application/json\" id=\"mz-data\">";
    let start = text.find(open).unwrap() + open.len();
    let end = start + text[start..].find("</script>").unwrap();
    serde_json::from_str(&text[start..end]).unwrap()
}

/// Builds f as the README shows into `out`; the set folder.
fn build_f(data: &Path, out: &Path) -> PathBuf {
    let o = run(&[
        "build",
        s(&data.join("racestack/f/f.yaml")),
        "--out",
        s(out),
        "--free-rule",
        "nonzero",
        "--profile",
        "racestack",
        "--start=-5.024962,-22.778604,2.983722",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    out.join("f")
}

#[test]
fn change_view_of_an_obstacle_in_f_shifts_the_line_only_near_it() {
    let Some(data) = reference_data_or_skip("change_view_of_f") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let old = build_f(&data, &tmp.path().join("old"));
    std::fs::create_dir(tmp.path().join("new")).unwrap();
    let new = crate::support::copy_folder(&old, &tmp.path().join("new/f"));
    // a 0.3 m box on the racing line, a quarter of the lap after the start (at s ≈ 19 m of 77)
    let line = read_waypoint_csv(&new.join("f_racing_line.csv")).unwrap();
    let at = &line[line.len() / 4];
    let meta = mapzoo_format::MapMeta::read(&new.join("f.yaml")).unwrap();
    let png = new.join("f.png");
    let (w, h, mut gray) = mapzoo_format::read_gray_png(&png).unwrap();
    let (c, r) = mapzoo_format::world_to_pixel(meta.origin, meta.resolution, h, at.x_m, at.y_m);
    let half = (0.15 / meta.resolution).round() as i64;
    let mut painted = 0;
    for dr in -half..=half {
        for dc in -half..=half {
            let (cc, rr) = (c.round() as i64 + dc, r.round() as i64 + dr);
            let i = rr as usize * w + cc as usize;
            if gray[i] != 0 {
                painted += 1;
            }
            gray[i] = 0;
        }
    }
    mapzoo_format::write_gray_png(&png, w, h, &gray).unwrap();
    std::fs::create_dir(tmp.path().join("new2")).unwrap();
    let new2 = crate::support::copy_folder(&new, &tmp.path().join("new2/f"));
    let o = run(&["regen", s(&new)]);
    assert!(o.status.success(), "{}", text(&o));
    // `regen --view` writes the same comparison of the lines (the map it has is the edited one)
    let regen_html = tmp.path().join("regen.html");
    let o = run(&["regen", s(&new2), "--view", s(&regen_html)]);
    assert!(o.status.success(), "{}", text(&o));

    let html = tmp.path().join("change.html");
    let o = run(&[
        "view",
        "--before",
        s(&old),
        "--after",
        s(&new),
        "-o",
        s(&html),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let d = page_data(&html);
    let cmp = &d["tracks"][0]["cmp"];
    assert_eq!(cmp["changed_px"].as_u64(), Some(painted), "changed pixels");
    let nums = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (ss, shift) = (nums(&cmp["shift"]["s"]), nums(&cmp["shift"]["d"]));
    let lap = *ss.last().unwrap();
    let regen_cmp = &page_data(&regen_html)["tracks"][0]["cmp"];
    assert_eq!(
        regen_cmp["shift"], cmp["shift"],
        "regen --view and view --before/--after differ"
    );
    assert_eq!(regen_cmp["sectors"], cmp["sectors"]);
    // where the new line passes the obstacle
    let after = read_waypoint_csv(&new.join("f_racing_line.csv")).unwrap();
    let near = after
        .iter()
        .min_by(|a, b| {
            let d = |w: &Waypoint| (w.x_m - at.x_m).hypot(w.y_m - at.y_m);
            d(a).total_cmp(&d(b))
        })
        .unwrap()
        .s_m;
    let along = |s: f64| {
        let d = (s - near).abs();
        d.min(lap - d)
    };
    let (mut max_near, mut max_far, mut far_at) = (0.0f64, 0.0f64, 0.0);
    for (s, d) in ss.iter().zip(&shift) {
        if along(*s) < 15.0 {
            max_near = max_near.max(d.abs());
        } else if d.abs() > max_far {
            max_far = d.abs();
            far_at = *s;
        }
    }
    let mut bins = [0.0f64; 8];
    for (s, d) in ss.iter().zip(&shift) {
        let b = ((along(*s) / 5.0) as usize).min(7);
        bins[b] = bins[b].max(d.abs());
    }
    eprintln!("max |shift| per 5 m of distance from the obstacle: {bins:.3?}");
    eprintln!("obstacle at s = {near:.2} m of {lap:.2}: shift near {max_near:.3} m, elsewhere {max_far:.3} m (at s = {far_at:.2})");
    assert!(
        max_near >= 0.1,
        "the line did not move round the obstacle: {max_near} m"
    );
    // the minimum-curvature line settles again within the next corner (15 m); farther away it
    // stays within the optimiser's centimetre
    assert!(
        max_far <= 0.03 && max_far * 10.0 < max_near,
        "the line moved {max_far} m at s = {far_at} m, more than 15 m from the obstacle at s = {near} m"
    );
    if let Some(browser) = chromium("change_view_of_f") {
        let r = selftest(&browser, &html, "wp=200", "f-change");
        assert_eq!(r["errors"], Value::Array(vec![]), "page errors");
        let t = &r["tracks"][0]["toggles"];
        for line in ["before", "after"] {
            assert!(
                t[line]["changed"].as_u64().unwrap() * 2 >= t[line]["samples"].as_u64().unwrap()
            );
        }
    }
}

#[test]
fn render_plot_speed_draws_every_line_of_a_built_set() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = crate::support::write_map(tmp.path(), "plotted", 7);
    let o = run(&["build", s(&yaml), "--out", s(&tmp.path().join("sets"))]);
    assert!(o.status.success(), "{}", text(&o));
    let png = tmp.path().join("speed.png");
    let set = tmp.path().join("sets/plotted");
    let o = run(&["render", s(&set), "--plot", "speed", "-o", s(&png)]);
    assert!(o.status.success(), "{}", text(&o));
    let image = image::open(&png).unwrap().to_rgb8();
    assert_eq!(image.dimensions(), (1200, 700));
    // each line's curve is drawn in its colour (IQP, SP)
    for colour in [[0xe0, 0x11, 0x5f], [0x0f, 0xa3, 0xb1]] {
        let n = image.pixels().filter(|p| p.0 == colour).count();
        assert!(n > 500, "only {n} pixels of {colour:?}");
    }
    let o = run(&["render", s(&set), "--plot", "torque", "-o", s(&png)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// Every file of `dir` with its bytes (to see that a command left the folder alone).
fn folder_bytes(dir: &Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// `mapzoo check DIR --free-rule nonzero --profile racestack --view HTML` (Race Stack f's
/// settings); the page's data, after checking the command left `dir` as it was.
fn check_view(dir: &Path, html: &Path) -> Value {
    let before = folder_bytes(dir);
    let o = run(&[
        "check",
        s(dir),
        "--free-rule",
        "nonzero",
        "--profile",
        "racestack",
        "--view",
        s(html),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("published vs rebuilt"), "{}", text(&o));
    assert_eq!(folder_bytes(dir), before, "check --view changed the folder");
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.starts_with("<!doctype html>"));
    assert!(!page.contains("http://") && !page.contains("https://"));
    page_data(html)
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn check_view_of_racestack_f_shows_both_lines_and_no_shift() {
    let Some(data) = reference_data_or_skip("check_view_of_f") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let f = data.join("racestack/f");
    let html = tmp.path().join("f-check.html");
    let d = check_view(&f, &html);
    let track = &d["tracks"][0];
    let names: Vec<&str> = track["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["before", "after"]);
    let cmp = &track["cmp"];
    let (ss, shift) = (numbers(&cmp["shift"]["s"]), numbers(&cmp["shift"]["d"]));
    // f's published IQP line has 766 rows, and check rebuilds it exactly
    assert_eq!(ss.len(), 766);
    let largest = shift.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    assert!(largest <= 1e-3, "largest shift {largest} m");
    assert_eq!(cmp["changed_px"].as_u64(), Some(0));
    // equal lines: equal sector times, adding up to the published lap
    let sectors = cmp["sectors"].as_array().unwrap();
    assert!(sectors.len() >= 2);
    let mut lap = 0.0;
    for q in sectors {
        assert_eq!(q["t0"], q["t1"], "{q}");
        lap += q["t1"].as_f64().unwrap();
    }
    assert!((lap - 11.1778).abs() < 2e-3, "sectors add up to {lap} s");
    if let Some(browser) = chromium("check_view_of_f") {
        let r = selftest(&browser, &html, "wp=200", "f-check");
        assert_eq!(r["errors"], Value::Array(vec![]), "page errors");
    }
}

#[test]
fn check_view_shows_the_shift_where_the_published_line_was_moved() {
    let Some(data) = reference_data_or_skip("check_view_moved_line") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let f = crate::support::copy_folder(&data.join("racestack/f"), &tmp.path().join("f"));
    // move rows 300..360 of the published IQP line 5 cm to their left (a normal from the
    // neighbouring rows); the lap times in map_info_str stay, so the check still passes
    let path = f.join("global_waypoints.json");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rows = json["global_traj_wpnts_iqp"]["wpnts"]
        .as_array_mut()
        .unwrap();
    let xy: Vec<[f64; 2]> = rows
        .iter()
        .map(|w| [w["x_m"].as_f64().unwrap(), w["y_m"].as_f64().unwrap()])
        .collect();
    let (first, last, moved) = (300, 360, 0.05);
    for i in first..last {
        let (a, b) = (xy[i - 1], xy[i + 1]);
        let (tx, ty) = (b[0] - a[0], b[1] - a[1]);
        let n = tx.hypot(ty);
        rows[i]["x_m"] = (xy[i][0] - moved * ty / n).into();
        rows[i]["y_m"] = (xy[i][1] + moved * tx / n).into();
    }
    let (s_first, s_last) = (
        rows[first]["s_m"].as_f64().unwrap(),
        rows[last - 1]["s_m"].as_f64().unwrap(),
    );
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();

    let d = check_view(&f, &tmp.path().join("moved.html"));
    let cmp = &d["tracks"][0]["cmp"];
    let (ss, shift) = (numbers(&cmp["shift"]["s"]), numbers(&cmp["shift"]["d"]));
    let (mut inside, mut outside) = (Vec::new(), 0.0f64);
    for (s, d) in ss.iter().zip(&shift) {
        if *s > s_first + 0.5 && *s < s_last - 0.5 {
            inside.push(*d);
        } else if *s < s_first - 0.5 || *s > s_last + 0.5 {
            outside = outside.max(d.abs());
        }
    }
    assert!(inside.len() >= 40, "{} rows inside", inside.len());
    // the rebuilt line runs 5 cm to the right of the moved published one (within the chord
    // of the bends)
    for d in &inside {
        assert!(
            (d + moved).abs() <= 0.005,
            "shift {d} m inside the moved stretch"
        );
    }
    assert!(
        outside <= 1e-3,
        "shift {outside} m outside the moved stretch"
    );
}

#[test]
fn check_view_takes_one_folder_and_an_html_name() {
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("x.html");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let o = run(&["check", s(&a), s(&b), "--view", s(&html)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("one set"), "{}", text(&o));
    let png = tmp.path().join("x.png");
    let o = run(&["check", s(&a), "--view", s(&png)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains(".html"), "{}", text(&o));
    assert!(!html.exists() && !png.exists());
}
