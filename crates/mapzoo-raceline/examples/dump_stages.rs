//! Developer tool: run stages 7–11 on one track and write every intermediate
//! array as whitespace-separated text, for side-by-side comparison with the
//! Python reference. Usage: dump_stages INPUT(.json|.csv) OUTDIR SW SWSP

use std::fmt::Write as _;
use std::path::Path;

use mapzoo_format::set::CenterlineInput;
use mapzoo_format::Waypoint;
use mapzoo_raceline::{ClosedSpline, RacelineParams, RefTrack, Walls};

fn save(dir: &Path, name: &str, rows: &[Vec<f64>]) {
    let mut s = String::new();
    for r in rows {
        let line: Vec<String> = r.iter().map(|v| format!("{v:.18e}")).collect();
        let _ = writeln!(s, "{}", line.join(" "));
    }
    std::fs::write(dir.join(name), s).expect("write dump");
}

fn rt_rows(rt: &RefTrack) -> Vec<Vec<f64>> {
    (0..rt.len())
        .map(|i| vec![rt.xy[i][0], rt.xy[i][1], rt.w_right[i], rt.w_left[i]])
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (input, out) = (&args[1], Path::new(&args[2]));
    let sw: f64 = args[3].parse().expect("SW");
    let swsp: f64 = args[4].parse().expect("SWSP");
    std::fs::create_dir_all(out).expect("outdir");
    // The input is read as `mapzoo raceline` reads it (MapZoo CSV, TUM CSV or JSON).
    let input = CenterlineInput::read(Path::new(input)).expect("read input");
    let walls = input.has_bounds().then(|| Walls {
        right: input.right_bound.clone(),
        left: input.left_bound.clone(),
        obstacles: Vec::new(),
    });
    let cent: Vec<Waypoint> = input.centerline;
    let mut params = RacelineParams::racestack();
    params.safety_width = sw;
    params.safety_width_sp = swsp;
    let vehicle = params.vehicle();
    let track = mapzoo_raceline::reftrack_from_waypoints(&cent);
    let walls = walls.unwrap_or_else(|| mapzoo_raceline::walls_from_centerline(&track).unwrap());
    let rw = walls.resampled(0.1);

    let reference = mapzoo_raceline::prep(&track, &params).expect("prep");
    save(out, "iqp_ref.txt", &rt_rows(&reference));
    let nv = ClosedSpline::through_scaled(&reference.xy)
        .unwrap()
        .normals();
    save(
        out,
        "iqp_normvec0.txt",
        &nv.iter().map(|n| n.to_vec()).collect::<Vec<_>>(),
    );
    for (tag, w) in [("iqp", sw), ("iqp2", swsp)] {
        let sol = mapzoo_raceline::iqp(&reference, w, &params).expect("iqp");
        eprintln!(
            "{tag}: {} iterations, err {}",
            sol.iterations, sol.curvature_error
        );
        save(
            out,
            &format!("{tag}_final_reftrack.txt"),
            &rt_rows(&sol.reftrack),
        );
        save(
            out,
            &format!("{tag}_final_alpha.txt"),
            &sol.alpha.iter().map(|a| vec![*a]).collect::<Vec<_>>(),
        );
        let tr = mapzoo_raceline::sample(&sol.reftrack.xy, &sol.normals, &sol.alpha, 0.1)
            .unwrap()
            .with_velocity(&vehicle);
        save(
            out,
            &format!("{tag}_kappa.txt"),
            &tr.kappa.iter().map(|a| vec![*a]).collect::<Vec<_>>(),
        );
        save(
            out,
            &format!("{tag}_vx.txt"),
            &tr.vx.iter().map(|a| vec![*a]).collect::<Vec<_>>(),
        );
        println!(
            "{tag}: lap {:.6} vmax {:.6} n {} len {:.6}",
            tr.lap_time,
            tr.v_max(),
            tr.xy.len() + 1,
            tr.length
        );
        if tag == "iqp2" {
            let pts2 = tr.closed_points();
            let (wr, wl): (Vec<f64>, Vec<f64>) = pts2.iter().map(|&p| rw.distances(p)).unzip();
            let cent2 = RefTrack {
                xy: pts2,
                w_right: wr,
                w_left: wl,
            };
            save(out, "cent2.txt", &rt_rows(&cent2));
            let rsp = mapzoo_raceline::prep(&cent2, &params).expect("sp prep");
            save(out, "sp_ref.txt", &rt_rows(&rsp));
            let (nsp, asp) = mapzoo_raceline::sp(&rsp, swsp, &params).expect("sp");
            save(
                out,
                "sp_alpha_smoothed.txt",
                &asp.iter().map(|a| vec![*a]).collect::<Vec<_>>(),
            );
            let ts = mapzoo_raceline::sample(&rsp.xy, &nsp, &asp, 0.1)
                .unwrap()
                .with_velocity(&vehicle);
            save(
                out,
                "sp_vx.txt",
                &ts.vx.iter().map(|a| vec![*a]).collect::<Vec<_>>(),
            );
            println!(
                "sp: lap {:.6} vmax {:.6} n {} len {:.6}",
                ts.lap_time,
                ts.v_max(),
                ts.xy.len() + 1,
                ts.length
            );
        }
    }
}
