//! Property tests of the bounds on sizes that follow from input (issue 12 item 1):
//! a value inside its plausible range is accepted, one outside is refused with a
//! message naming the field, its value and the range; `--jobs` never exceeds the cores.

use std::path::Path;

use mapzoo_pipeline::{run_batch, Config, Jobs, PipelineError};
use proptest::prelude::*;

/// The configuration with one key of `table` set to `value` (TOML text).
fn with(table: &str, key: &str, value: &str) -> Result<Config, PipelineError> {
    let path = Path::new("bounds.toml");
    let c = Config::from_toml_str(&format!("[{table}]\n{key} = {value}\n"), None, path)?;
    c.validate(path)?;
    Ok(c)
}

/// Any finite f64, spread over every magnitude.
fn any_magnitude() -> impl Strategy<Value = f64> {
    (-1.0f64..1.0, -320i32..308).prop_map(|(m, e)| m * 10f64.powi(e))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// spacing_m: accepted exactly inside [0.01, 1] m; refused outside, naming it and the range.
    #[test]
    fn spacing_m_is_bounded(v in any_magnitude()) {
        let text = format!("{v:e}");
        match with("extract", "spacing_m", &text) {
            Ok(c) => prop_assert!((0.01..=1.0).contains(&c.extract.spacing_m), "{v} accepted"),
            Err(e) => {
                prop_assert!(!(0.01..=1.0).contains(&v), "{v} refused: {e}");
                let msg = e.to_string();
                prop_assert!(msg.contains("bounds.toml") && msg.contains("spacing_m") && msg.contains("0.01 to 1"), "{msg}");
                prop_assert!(msg.len() < 300, "{msg}");
            }
        }
    }

    /// Every count that sizes a loop or an allocation: accepted inside its range only.
    #[test]
    fn counts_are_bounded(which in 0usize..4, v in 0u64..u64::MAX) {
        let v = v >> (v % 64); // every magnitude
        let (table, key, lo, hi) = [
            ("raceline", "iqp_iters_max", 5u64, 1000u64),
            ("raceline", "sp_alpha_smoothing_half_window", 0, 10_000),
            ("extract", "opening_size", 1, 509),
            ("sectors", "spline_len", 1, 1_000_000),
        ][which];
        let v = v.min(i64::MAX as u64);
        let r = with(table, key, &v.to_string());
        if (lo..=hi).contains(&v) {
            // opening_size must also be odd and give a radius <= 254 with 2 iterations
            if key != "opening_size" {
                prop_assert!(r.is_ok(), "{key} = {v}: {:?}", r.err());
            }
        } else {
            let msg = r.expect_err("out of range").to_string();
            prop_assert!(msg.contains(key), "{msg}");
            prop_assert!(msg.len() < 300, "{msg}");
        }
    }

    /// Range messages print numbers in a few characters, whatever their magnitude.
    #[test]
    fn range_messages_stay_short(which in 0usize..6, v in any_magnitude()) {
        let (table, key) = [
            ("raceline", "stepsize_prep"),
            ("raceline", "safety_width"),
            ("raceline", "dyn_model_exp"),
            ("sectors", "yeet_factor"),
            ("sectors", "ot_sector_begin"),
            ("extract", "spacing_m"),
        ][which];
        if let Err(e) = with(table, key, &format!("{v:e}")) {
            let msg = e.to_string();
            prop_assert!(msg.len() < 300 && !msg.contains("00000000"), "{msg}");
        }
    }

    /// The threads of a batch: at least 1, at most the cores, as asked when possible.
    #[test]
    fn jobs_are_clamped_to_the_cores(requested in 0usize..1_000_000, cores in 0usize..512) {
        let j = Jobs::new(requested, cores);
        prop_assert!(j.threads >= 1 && j.threads <= cores.max(1));
        if requested > 0 && requested <= cores {
            prop_assert_eq!(j.threads, requested);
        }
        prop_assert_eq!(j.clamped_from.is_some(), requested > cores.max(1));
        prop_assert_eq!(j.note().is_some(), j.clamped_from.is_some());
    }
}

/// A panic in one job is that job's error; the batch finishes the others, with any thread count.
#[test]
fn a_panicking_track_does_not_stop_the_batch() {
    let items: Vec<usize> = (0..12).collect();
    for jobs in [0, 1, 3, 100_000] {
        let results = run_batch(
            &items,
            jobs,
            |&i| {
                if i % 5 == 2 {
                    panic!("track {i} broke");
                }
                Ok(i)
            },
            |_, _| {},
        );
        for (i, r) in results.iter().enumerate() {
            match r {
                Ok(v) => assert_eq!(*v, i),
                Err(e) => {
                    assert_eq!(i % 5, 2);
                    assert_eq!(e.kind(), "internal");
                    assert!(e.to_string().contains(&format!("track {i} broke")), "{e}");
                }
            }
        }
    }
}
