//! Helpers shared by the modules: file search, JSON tree comparison, a Python check.

use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) that `pred` accepts, sorted.
pub fn files(dir: &Path, pred: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if pred(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The file name of `p`.
pub fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// Compares two JSON trees: same keys in the same order, same types (int vs float), equal values.
pub fn same_tree(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value as V;
    match (a, b) {
        (V::Object(x), V::Object(y)) => {
            let kx: Vec<&String> = x.keys().collect();
            let ky: Vec<&String> = y.keys().collect();
            if kx != ky {
                return Err(format!("{at}: keys {kx:?} vs {ky:?}"));
            }
            for (k, v) in x {
                same_tree(v, &y[k], &format!("{at}.{k}"))?;
            }
            Ok(())
        }
        (V::Array(x), V::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{at}: {} vs {} items", x.len(), y.len()));
            }
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                same_tree(p, q, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        (V::Number(x), V::Number(y)) => {
            if x.is_f64() != y.is_f64() || x.as_f64() != y.as_f64() {
                return Err(format!("{at}: {x} vs {y}"));
            }
            Ok(())
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} vs {b}")),
    }
}

/// Python's `json.load` reads the file (skipped without python3).
pub fn python_loads(path: &Path) {
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg("import json,sys; d=json.load(open(sys.argv[1])); assert 'global_traj_wpnts_iqp' in d")
        .arg(path)
        .status();
    match status {
        Ok(s) => assert!(
            s.success(),
            "python3 json.load failed on {}",
            path.display()
        ),
        Err(_) => eprintln!("skipping the python3 check: python3 not found"),
    }
}
