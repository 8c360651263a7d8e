//! Developer tool: wall-clock seconds per stage of `compute` for one input, repeated.
//! Usage: stage_timings INPUT(.json|.csv) [racestack|mapzoo] [repeats]

use mapzoo_format::GlobalWaypoints;
use mapzoo_raceline::{compute, RacelineParams, Walls};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(&args[1]);
    let params = RacelineParams::profile(args.get(2).map(String::as_str).unwrap_or("mapzoo"))
        .expect("profile");
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let (cl, walls) = if args[1].ends_with(".json") {
        let gw = GlobalWaypoints::read(path).expect("json");
        let w = Walls {
            right: gw.right_bound(),
            left: gw.left_bound(),
            obstacles: Vec::new(),
        };
        (gw.centerline.wpnts.clone(), Some(w))
    } else {
        (mapzoo_format::read_waypoint_csv(path).expect("csv"), None)
    };
    for _ in 0..reps {
        let r = compute(&cl, walls.as_ref(), &params).expect("compute");
        let line: Vec<String> = r
            .timings
            .iter()
            .map(|(k, t)| format!("{k} {:.1} ms", t * 1e3))
            .collect();
        println!("{}", line.join(", "));
    }
}
