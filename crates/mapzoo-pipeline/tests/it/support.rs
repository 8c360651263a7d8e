//! Helpers shared by the modules: generated maps built and written, folder
//! contents, published start poses, JSON skeletons.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mapzoo_extract::StartPose;
use mapzoo_pipeline::{build, start_pose_of, write_set, BuildRequest, Config, TrackSet};
use mapzoo_synth::{self as synth, SynthOptions};
use serde_json::Value;

pub fn start_of(centerline: &[mapzoo_format::Waypoint]) -> StartPose {
    start_pose_of(centerline).expect("a published centerline has two points")
}

pub fn rel(ours: f64, published: f64) -> f64 {
    (ours - published) / published
}

/// The key skeleton of a JSON value: objects keep their keys in order, arrays their first element.
pub fn skeleton(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), skeleton(v))).collect())
        }
        Value::Array(a) => Value::Array(a.first().map(skeleton).into_iter().collect()),
        Value::Number(n) if n.is_f64() => Value::String("float".into()),
        Value::Number(_) => Value::String("int".into()),
        Value::String(_) => Value::String("string".into()),
        Value::Bool(_) => Value::String("bool".into()),
        Value::Null => Value::Null,
    }
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every file of a folder, by name.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

pub fn generated_map(dir: &Path, seed: u64) -> PathBuf {
    let map = synth::generate(&SynthOptions {
        seed,
        centerline: synth::CenterlineSpec::Random {
            lap_length: Some(45.0),
        },
        width: synth::WidthSpec::Constant(3.0),
        ..SynthOptions::default()
    })
    .unwrap();
    let [_, yaml] = map.write(dir, "gen").unwrap();
    yaml
}

/// A generated map built and written as `dir/t/`.
pub fn built_generated_set(dir: &Path, seed: u64, config: &Config) -> (TrackSet, PathBuf) {
    let req = BuildRequest {
        yaml: generated_map(dir, seed),
        name: Some("t".into()),
        start: None,
        reverse: false,
    };
    let set = build(&req, config).unwrap();
    let written = write_set(&set, dir, false).unwrap();
    (set, written)
}
