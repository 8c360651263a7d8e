//! What the command tests share: running the binary, reading what it said,
//! writing a generated map, copying a folder, listing what a writer left behind.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::Waypoint;
use mapzoo_synth::{self as synth, SynthOptions};

/// The `mapzoo` binary under test, with no arguments yet.
pub fn mapzoo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mapzoo"))
}

/// Runs `mapzoo ARGS...` to completion.
pub fn run(args: &[&str]) -> Output {
    mapzoo().args(args).output().expect("run mapzoo")
}

/// What the command printed on stdout.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the command printed on stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Everything the command printed: stdout, then stderr.
pub fn text(out: &Output) -> String {
    format!("{}{}", stdout(out), stderr(out))
}

/// `p` as an argument (temp paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Writes a generated ~40 m map `dir/<name>.png` + `dir/<name>.yaml` drawn from
/// `seed`; returns the YAML path.
pub fn write_map(dir: &Path, name: &str, seed: u64) -> PathBuf {
    let map = synth::generate(&SynthOptions {
        seed,
        centerline: synth::CenterlineSpec::Random {
            lap_length: Some(40.0),
        },
        ..SynthOptions::default()
    })
    .unwrap();
    let [_, yaml] = map.write(dir, name).unwrap();
    yaml
}

/// Writes `line` as a MapZoo centerline CSV at `path`.
pub fn write_centerline(path: &Path, line: &[Waypoint]) {
    std::fs::write(path, mapzoo_format::waypoints_to_csv_string(line)).unwrap();
}

/// Copies the files of `from` into a new folder `to`; returns `to`.
pub fn copy_folder(from: &Path, to: &Path) -> PathBuf {
    std::fs::create_dir(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    to.to_path_buf()
}

/// Entries of `dir` whose names start with a dot (staging folders left behind).
pub fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// The names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The keys of the `--json` record that `build` and `raceline` share, in their order
/// (`build` adds one `<stage>_s` key per stage before `status`).
pub const RECORD_KEYS: [&str; 12] = [
    "track",
    "centerline_points",
    "iqp_points",
    "sp_points",
    "iqp_lap_s",
    "iqp_vmax",
    "sp_lap_s",
    "sp_vmax",
    "iqp_length_m",
    "sp_length_m",
    "seconds",
    "status",
];
