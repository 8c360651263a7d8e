//! The TUM centerline and raceline files of the f1tenth set read.

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{read_tum_centerline, read_tum_raceline};

use crate::support::{files, name};

#[test]
fn tum_files_read() {
    let Some(data) = reference_data_or_skip("tum_files_read") else {
        return;
    };
    let cl = files(&data.join("f1tenth"), &|p| {
        name(p).ends_with("_centerline.csv")
    });
    let rl = files(&data.join("f1tenth"), &|p| {
        name(p).ends_with("_raceline.csv")
    });
    assert_eq!(cl.len(), 18);
    assert!(rl.len() >= 16);
    for p in cl {
        let c = read_tum_centerline(&p).unwrap();
        assert!(
            c.len() > 100
                && c.iter()
                    .all(|q| q.w_tr_right_m > 0.0 && q.w_tr_left_m > 0.0)
        );
    }
    for p in rl {
        let r = read_tum_raceline(&p).unwrap();
        assert!(r.len() > 100);
        assert!(r.windows(2).all(|w| w[1].s_m > w[0].s_m), "{}", p.display());
    }
}

/// The three track layouts TUM's `import_track` accepts give the same track: 3 columns carry
/// the total width (half each side), 5 columns a z before the widths.
#[test]
fn tum_track_variants_of_3_4_and_5_columns() {
    use mapzoo_format::centerline_any_from_str;
    let p = std::path::Path::new("track.csv");
    let pts = [(0.0, 0.0, 1.0), (3.0, 4.0, 1.5), (3.0, 10.0, 2.0)];
    let four: String = pts
        .iter()
        .map(|(x, y, w)| format!("{x},{y},{},{}\n", w / 2.0, w / 2.0))
        .collect();
    let three: String = pts
        .iter()
        .map(|(x, y, w)| format!("{x},{y},{w}\n"))
        .collect();
    let five: String = pts
        .iter()
        .map(|(x, y, w)| format!("{x},{y},7.5,{},{}\n", w / 2.0, w / 2.0))
        .collect();
    let a =
        centerline_any_from_str(&format!("# x_m,y_m,w_tr_right_m,w_tr_left_m\n{four}"), p).unwrap();
    let b = centerline_any_from_str(&format!("# x_m,y_m,w_tr_m\n{three}"), p).unwrap();
    let c = centerline_any_from_str(&five, p).unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a.1[1].d_right, 0.75);
    // a row of another width is an error naming its line
    let e = centerline_any_from_str("1,2,3\n1,2,3,4\n", p)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("4 columns"), "{e}");
}

/// Trajectory files are told from track files by their column header or their first row,
/// whatever their heading convention and `;` spacing.
#[test]
fn trajectories_are_told_apart_and_their_heading_convention_found() {
    use mapzoo_format::export::Heading;
    use mapzoo_format::{is_trajectory_text, tum_raceline_from_str};
    let p = std::path::Path::new("traj.csv");
    // a circle of radius 10 driven counter-clockwise, psi in both conventions
    let rows = |h: Heading, sep: &str| -> String {
        (0..=40)
            .map(|i| {
                let t = std::f64::consts::TAU * (i % 40) as f64 / 40.0;
                let psi = h.from_x_axis(t + std::f64::consts::FRAC_PI_2);
                let cells = [10.0 * t, 10.0 * t.cos(), 10.0 * t.sin(), psi, 0.1, 5.0, 0.0]
                    .map(|v| format!("{v:.7}"));
                cells.join(sep) + "\n"
            })
            .collect()
    };
    for (h, sep) in [(Heading::XAxis, ";"), (Heading::North, "; ")] {
        let text = format!(
            "# id\n# hash\n# s_m; x_m; y_m; psi_rad; kappa_radpm; vx_mps; ax_mps2\n{}",
            rows(h, sep)
        );
        assert!(is_trajectory_text(&text));
        assert!(
            is_trajectory_text(&rows(h, sep)),
            "a bare first row of 7 cells"
        );
        let pts = tum_raceline_from_str(&text, p).unwrap();
        assert_eq!(Heading::detect(&pts), h);
    }
    assert!(!is_trajectory_text(
        "# x_m, y_m, w_tr_right_m, w_tr_left_m\n0, 0, 1, 1\n"
    ));
    assert!(!is_trajectory_text(
        "id; s_m; d_m; x_m; y_m; d_right; d_left; psi_rad; kappa_radpm; vx_mps; ax_mps2\n"
    ));
}

/// The published f1tenth_racetracks racelines are trajectories whose heading is 0 = +x.
#[test]
fn published_racelines_are_trajectories_with_x_axis_heading() {
    use mapzoo_format::export::Heading;
    let Some(data) = reference_data_or_skip("published_racelines_heading") else {
        return;
    };
    let rl = files(&data.join("f1tenth"), &|p| {
        name(p).ends_with("_raceline.csv")
    });
    assert!(!rl.is_empty());
    for p in rl {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(mapzoo_format::is_trajectory_text(&text), "{}", p.display());
        let pts = read_tum_raceline(&p).unwrap();
        assert_eq!(Heading::detect(&pts), Heading::XAxis, "{}", p.display());
    }
}
