//! The YAML layout of both sector files: the ROS 1 plain mapping and the ROS 2
//! parameter file (`<node>: ros__parameters:`), read with errors that name the file,
//! the key and the line, written with the user's unknown keys and trailing blank lines
//! kept.

use std::path::Path;

use serde_yaml_ng::{Mapping, Value};

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;

/// The ROS 2 node that reads `speed_scaling.yaml`.
pub(super) const SPEED_NODE: &str = "sector_tuner";
/// The ROS 2 node that reads `ot_sectors.yaml`.
pub(super) const OT_NODE: &str = "ot_interpolator";
/// The ROS 2 parameter-file key under the node name.
pub(super) const ROS_PARAMETERS: &str = "ros__parameters";

/// How many empty lines end `text` after its last line (a hand-edited file may have some).
pub(super) fn blank_lines_after(text: &str) -> usize {
    let trimmed = text.trim_end_matches(['\n', '\r', ' ', '\t']);
    let tail = &text[trimmed.len()..];
    tail.matches('\n').count().saturating_sub(1)
}

/// The ROS 1 text `plain` as `flavor` writes it: unchanged, or under `node: ros__parameters:`.
pub(super) fn wrap(plain: String, flavor: Flavor, node: &str) -> String {
    match flavor {
        Flavor::Ros1 => plain,
        Flavor::Ros2 => {
            let mut s = format!("{node}:\n  {ROS_PARAMETERS}:\n");
            for line in plain.lines() {
                s.push_str("    ");
                s.push_str(line);
                s.push('\n');
            }
            s
        }
    }
}

pub(super) fn push_extra(s: &mut String, extra: &[(String, Value)], indent: &str) {
    for (k, v) in extra {
        let mut m = Mapping::new();
        m.insert(Value::String(k.clone()), v.clone());
        let text = serde_yaml_ng::to_string(&m).unwrap_or_default();
        for line in text.lines() {
            s.push_str(indent);
            s.push_str(line);
            s.push('\n');
        }
    }
}

/// Reads a sector file: a regular file of at most [`crate::MAX_YAML_BYTES`], as UTF-8.
pub(super) fn read_sector_file(path: &Path) -> Result<String> {
    crate::input_file::read_text_file(path, crate::input_file::MAX_YAML_BYTES, "sector file")
}

/// A parsed sector YAML with helpers that name the file and key in errors.
pub(super) struct Doc<'a> {
    map: Mapping,
    path: &'a Path,
    pub(super) flavor: Flavor,
}

impl<'a> Doc<'a> {
    /// Parses the file; a ROS 2 parameter file (`<node>: ros__parameters: {...}`, the node
    /// normally `node`, any name accepted) is unwrapped and remembered as [`Flavor::Ros2`].
    pub(super) fn parse(text: &str, path: &'a Path, node: &str) -> Result<Self> {
        let value = crate::nesting::parse_yaml_with(text, path, |e| {
            huge_integer(path, &e).unwrap_or_else(|| crate::error::yaml_syntax(path, &e))
        })?;
        let Value::Mapping(map) = value else {
            return Err(FormatError::syntax(
                path,
                None,
                None,
                "expected a YAML mapping with n_sectors and one entry per sector",
            ));
        };
        match ros2_parameters(&map) {
            Some(Some(inner)) => Ok(Doc {
                map: inner.clone(),
                path,
                flavor: Flavor::Ros2,
            }),
            Some(None) => Err(FormatError::bad_value(
                path,
                ROS_PARAMETERS,
                None,
                format!("a ROS 2 parameter file: \"{ROS_PARAMETERS}\" under the node name (normally \"{node}\") must be a mapping with n_sectors and one entry per sector"),
            )),
            None => Ok(Doc {
                map,
                path,
                flavor: Flavor::Ros1,
            }),
        }
    }

    pub(super) fn get(&self, key: &str) -> Result<&Value> {
        self.map.get(Value::from(key)).ok_or_else(|| {
            FormatError::missing_field(self.path, key, format!("missing field \"{key}\""))
        })
    }

    pub(super) fn number(&self, key: &str) -> Result<f64> {
        as_number(self.get(key)?, key, self.path)
    }

    pub(super) fn int(&self, key: &str) -> Result<i64> {
        as_int(self.get(key)?, key, self.path)
    }

    /// The `<prefix>N` entries in N order, each read by `read`; at least one must exist,
    /// `fields` (its known keys) name what one holds in the message otherwise.
    pub(super) fn entries<T>(
        &self,
        prefix: &str,
        fields: &[&str],
        read: impl Fn(&Fields) -> Result<T>,
    ) -> Result<Vec<T>> {
        let sections = self.sections(prefix)?;
        if sections.is_empty() {
            return Err(FormatError::missing_field(
                self.path,
                format!("{prefix}0"),
                format!(
                    "no sector entries; expected {prefix}0 (with {})",
                    fields.join(", ")
                ),
            ));
        }
        sections
            .iter()
            .map(|(name, map)| {
                read(&Fields {
                    doc: self,
                    name,
                    map,
                })
            })
            .collect()
    }

    /// The `<prefix>N` sections in N order; N must run 0, 1, 2, … without gaps.
    pub(super) fn sections(&self, prefix: &str) -> Result<Vec<(String, &Mapping)>> {
        let mut found: Vec<(u64, String, &Mapping)> = Vec::new();
        for (k, v) in &self.map {
            let Some(name) = k.as_str() else { continue };
            let Some(num) = name.strip_prefix(prefix) else {
                continue;
            };
            let Ok(idx) = num.parse::<u64>() else {
                if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(FormatError::bad_value(
                        self.path,
                        name,
                        None,
                        format!("\"{name}\": the sector number is far too large; number the entries {prefix}0, {prefix}1, … in order"),
                    ));
                }
                continue;
            };
            let m = v.as_mapping().ok_or_else(|| {
                FormatError::bad_value(
                    self.path,
                    name,
                    None,
                    format!("\"{name}\" must be a mapping with start and end"),
                )
            })?;
            found.push((idx, name.to_string(), m));
        }
        found.sort_by_key(|(i, _, _)| *i);
        for (want, (idx, name, _)) in found.iter().enumerate() {
            if *idx != want as u64 {
                return Err(FormatError::missing_field(
                    self.path,
                    format!("{prefix}{want}"),
                    format!("sector entries must be numbered {prefix}0, {prefix}1, … without gaps; found \"{name}\" where \"{prefix}{want}\" was expected"),
                ));
            }
        }
        Ok(found.into_iter().map(|(_, n, m)| (n, m)).collect())
    }

    pub(super) fn extra(&self, known: &[&str], prefix: &str) -> Vec<(String, Value)> {
        self.map
            .iter()
            .filter_map(|(k, v)| {
                let name = match k {
                    Value::String(s) => s.clone(),
                    other => serde_yaml_ng::to_string(other)
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                };
                let is_section = name
                    .strip_prefix(prefix)
                    .is_some_and(|n| n.parse::<u64>().is_ok());
                (!known.contains(&name.as_str()) && !is_section).then(|| (name, v.clone()))
            })
            .collect()
    }
}

/// For a ROS 2 parameter file (one top-level key whose value holds only `ros__parameters`):
/// `Some(Some(parameters))`, or `Some(None)` where those are not a mapping; `None` otherwise.
pub(super) fn ros2_parameters(map: &Mapping) -> Option<Option<&Mapping>> {
    if map.len() != 1 {
        return None;
    }
    let (_, node) = map.iter().next()?;
    let node = node.as_mapping()?;
    if node.len() != 1 {
        return None;
    }
    let params = node.get(Value::from(ROS_PARAMETERS))?;
    Some(params.as_mapping())
}

pub(super) struct Fields<'a> {
    doc: &'a Doc<'a>,
    name: &'a str,
    map: &'a Mapping,
}

impl Fields<'_> {
    pub(super) fn get(&self, key: &str) -> Result<&Value> {
        self.map.get(Value::from(key)).ok_or_else(|| {
            FormatError::missing_field(
                self.doc.path,
                format!("{}.{key}", self.name),
                format!("{}: missing field \"{key}\"", self.name),
            )
        })
    }

    pub(super) fn int(&self, key: &str) -> Result<i64> {
        as_int(
            self.get(key)?,
            &format!("{}.{key}", self.name),
            self.doc.path,
        )
    }

    pub(super) fn number(&self, key: &str) -> Result<f64> {
        as_number(
            self.get(key)?,
            &format!("{}.{key}", self.name),
            self.doc.path,
        )
    }

    pub(super) fn boolean(&self, key: &str) -> Result<bool> {
        let v = self.get(key)?;
        v.as_bool().ok_or_else(|| {
            FormatError::bad_value(
                self.doc.path,
                format!("{}.{key}", self.name),
                None,
                format!(
                    "{}.{key} must be true or false (found {})",
                    self.name,
                    yaml_short(v)
                ),
            )
        })
    }

    pub(super) fn extra(&self, known: &[&str]) -> Vec<(String, Value)> {
        self.map
            .iter()
            .filter_map(|(k, v)| {
                let name = k.as_str()?.to_string();
                (!known.contains(&name.as_str())).then(|| (name, v.clone()))
            })
            .collect()
    }
}

pub(super) fn as_number(v: &Value, key: &str, path: &Path) -> Result<f64> {
    v.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!(
                "\"{key}\" must be a finite number (found {})",
                yaml_short(v)
            ),
        )
    })
}

pub(super) fn as_int(v: &Value, key: &str, path: &Path) -> Result<i64> {
    v.as_i64().ok_or_else(|| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!("\"{key}\" must be an integer (found {})", yaml_short(v)),
        )
    })
}

/// A YAML integer too large for any integer type (`end: 99999999999999999999`) as the
/// out-of-range value it is, naming the field and the line, instead of a syntax error.
pub(super) fn huge_integer(path: &Path, e: &serde_yaml_ng::Error) -> Option<FormatError> {
    let msg = e.to_string();
    let (field, rest) = msg.split_once(": invalid type: integer `")?;
    let (digits, _) = rest.split_once('`')?;
    let line = e.location().map(|l| l.line());
    let at = line.map_or(String::new(), |l| format!(" (line {l})"));
    Some(FormatError::bad_value(
        path,
        field,
        line,
        format!(
            "\"{field}\" is {}{at}, far outside any waypoint index; sector indices run from 0 to the racing line's point count",
            crate::table::short(digits)
        ),
    ))
}

pub(super) fn yaml_short(v: &Value) -> String {
    // A list or mapping in flow style on one line ([1], not the block list "- 1").
    let s = match v {
        Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => serde_json::to_string(v)
            .unwrap_or_else(|_| serde_yaml_ng::to_string(v).unwrap_or_default()),
        Value::String(t) if t.chars().any(char::is_control) => format!("{t:?}"),
        _ => serde_yaml_ng::to_string(v).unwrap_or_default(),
    };
    crate::table::short(s.trim())
}

/// Starts sector `i` of the text: its `{prefix}{i}:` key, then its start and end.
pub(super) fn push_sector_head(s: &mut String, prefix: &str, i: usize, (start, end): (i64, i64)) {
    s.push_str(&format!("{prefix}{i}:\n"));
    s.push_str(&format!("  start: {start}\n"));
    s.push_str(&format!("  end: {end}\n"));
}

/// The finished file: the ROS 1 text `plain` as `flavor` writes it (see [`wrap`]), then
/// the blank lines the file ended with.
pub(super) fn finish_text(
    plain: String,
    flavor: Flavor,
    node: &str,
    blank_lines_after: usize,
) -> String {
    let mut s = wrap(plain, flavor, node);
    s.push_str(&"\n".repeat(blank_lines_after));
    s
}
