//! The built-in profiles equal the Race Stack's original parameter files in
//! ../shared/data/racestack (racecar_f110.ini, ggv.csv, ax_max_machines.csv,
//! global_planner_params.yaml), DESIGN §3 "Default parameters".

use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_raceline::RacelineParams;

/// Rows of a comma-separated numeric table, `#` comments skipped.
fn table(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.split(',').map(|v| v.trim().parse().unwrap()).collect())
        .collect()
}

/// The number after `"key":` in the ini text.
fn ini_value(text: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\":");
    let at = text
        .find(&pat)
        .unwrap_or_else(|| panic!("{key} not in ini"))
        + pat.len();
    let rest = text[at..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .unwrap();
    rest[..end].parse().unwrap()
}

#[test]
fn profiles_equal_the_race_stack_files() {
    let Some(data) = reference_data_or_skip("profiles_equal_the_race_stack_files") else {
        return;
    };
    let dir = data.join("racestack");
    let p = RacelineParams::racestack();
    let ggv = table(&std::fs::read_to_string(dir.join("ggv.csv")).unwrap());
    assert_eq!(ggv.len(), p.ggv.len());
    for (a, b) in ggv.iter().zip(&p.ggv) {
        assert_eq!(a.as_slice(), b.as_slice());
    }
    let ax = table(&std::fs::read_to_string(dir.join("ax_max_machines.csv")).unwrap());
    assert_eq!(ax.len(), p.ax_max_machines.len());
    for (a, b) in ax.iter().zip(&p.ax_max_machines) {
        assert_eq!(a[0], b[0]);
        assert!((a[1] - b[1]).abs() < 1e-12, "{a:?} vs {b:?}");
    }
    let ini = std::fs::read_to_string(dir.join("racecar_f110.ini")).unwrap();
    for (key, value) in [
        ("v_max", p.v_max),
        ("length", p.length),
        ("width", p.width),
        ("mass", p.mass),
        ("dragcoeff", p.dragcoeff),
        ("curvlim", p.curvlim),
        ("g", p.g),
        ("dyn_model_exp", p.dyn_model_exp),
        ("stepsize_prep", p.stepsize_prep),
        ("stepsize_reg", p.stepsize_reg),
        ("stepsize_interp_after_opt", p.stepsize_interp_after_opt),
        ("k_reg", p.k_reg as f64),
        ("s_reg", p.s_reg),
        ("iqp_iters_min", p.iqp_iters_min as f64),
        ("iqp_curverror_allowed", p.iqp_curverror_allowed),
    ] {
        assert_eq!(ini_value(&ini, key), value, "{key}");
    }
    let yaml = std::fs::read_to_string(dir.join("global_planner_params.yaml")).unwrap();
    let yaml_value = |key: &str| -> f64 {
        let line = yaml
            .lines()
            .find(|l| l.starts_with(&format!("{key}:")))
            .unwrap();
        line[key.len() + 1..]
            .split('#')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!(yaml_value("safety_width"), p.safety_width);
    assert_eq!(yaml_value("safety_width_sp"), p.safety_width_sp);
    // the MapZoo profile differs only in the safety widths
    let m = RacelineParams::mapzoo();
    assert_eq!((m.safety_width, m.safety_width_sp), (1.2, 1.2));
    assert_eq!(
        RacelineParams {
            safety_width: 0.7,
            safety_width_sp: 0.7,
            ..m
        },
        p
    );
}
