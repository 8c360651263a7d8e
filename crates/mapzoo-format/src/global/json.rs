//! Reading and writing the JSON text: a fast typed pass over a file with exactly the
//! known keys, else a key-by-key pass that keeps unknown keys and names the entry that
//! is wrong; writing in the Race Stack's key order, byte for byte as Python's
//! `json.dumps`.

use std::path::Path;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use super::json_parts::GlobalJsonParts;
use super::json_text::{JsonText, TextError};
use super::ros_msgs::{Header, MarkerArray, WpntArray};
use super::{GlobalWaypoints, LineKind, MapInfo, KEYS};
use crate::error::{FormatError, Result};

impl GlobalWaypoints {
    /// Reads and parses a `global_waypoints.json`.
    pub fn read(path: &Path) -> Result<Self> {
        let text = crate::input_file::read_text_file(
            path,
            crate::input_file::MAX_JSON_BYTES,
            "global_waypoints.json",
        )?;
        Self::from_json_str(&text, path)
    }

    /// Parses JSON text; `path` is used in messages only.
    pub fn from_json_str(text: &str, path: &Path) -> Result<Self> {
        // Fastest path: the layout mapzoo and the Race Stack write, read in one pass.
        if let Some(g) = super::json_layout::parse_layout(text) {
            return Ok(g);
        }
        Self::from_json_str_serde(text, path)
    }

    /// [`Self::from_json_str`] through serde only: any layout, unknown keys kept, errors
    /// naming the entry.
    pub(super) fn from_json_str_serde(text: &str, path: &Path) -> Result<Self> {
        crate::nesting::check_nesting(text, crate::nesting::Syntax::Json, path)?;
        // Fast path: one typed pass over a file with exactly the known keys.
        // Anything else (unknown keys, errors) takes the slow path below,
        // which keeps extra keys and says which entry is wrong.
        if let Ok(d) = serde_json::from_str::<Direct>(text) {
            return Ok(d.into_global());
        }
        let top: TopLevel =
            serde_json::from_str(text).map_err(|e| json_syntax_error(text, &e, path))?;
        let mut map_info_str = None;
        let mut est_lap_time = None;
        let mut centerline_markers = None;
        let mut centerline = None;
        let mut lines: Vec<(Option<MarkerArray>, Option<WpntArray>)> =
            LineKind::ALL.iter().map(|_| (None, None)).collect();
        let mut trackbounds_markers = None;
        let mut extra = Vec::new();
        for (key, raw) in top.0 {
            let raw = raw.get();
            if let Some(i) = LineKind::ALL.iter().position(|l| l.markers_key() == key) {
                lines[i].0 = Some(parse_markers(raw, &key, path)?);
                continue;
            }
            if let Some(i) = LineKind::ALL.iter().position(|l| l.wpnts_key() == key) {
                lines[i].1 = Some(parse_wpnts(raw, &key, path)?);
                continue;
            }
            match key.as_str() {
                "map_info_str" => {
                    map_info_str = Some(parse_part::<StringMsg>(raw, &key, path)?.data)
                }
                "est_lap_time" => {
                    let v = parse_part::<FloatMsg>(raw, &key, path)?.data;
                    est_lap_time = Some(v);
                }
                "centerline_markers" => centerline_markers = Some(parse_markers(raw, &key, path)?),
                "centerline_waypoints" => centerline = Some(parse_wpnts(raw, &key, path)?),
                "trackbounds_markers" => {
                    trackbounds_markers = Some(parse_markers(raw, &key, path)?)
                }
                _ => {
                    let v: serde_json::Value = parse_part(raw, &key, path)?;
                    extra.push((key, v));
                }
            }
        }
        let need = |key: &str| {
            FormatError::missing_field(
                path,
                key,
                format!(
                    "missing key \"{key}\"; a Race Stack global_waypoints.json has {}",
                    KEYS.join(", ")
                ),
            )
        };
        let map_info_str = map_info_str.ok_or_else(|| need("map_info_str"))?;
        let centerline_markers = centerline_markers.ok_or_else(|| need("centerline_markers"))?;
        let centerline = centerline.ok_or_else(|| need("centerline_waypoints"))?;
        let mut g = GlobalWaypoints::read_head(
            map_info_str,
            est_lap_time,
            centerline_markers,
            centerline,
            extra,
        );
        // a missing key is reported in the Race Stack's key order
        for (kind, (markers, wpnts)) in LineKind::ALL.into_iter().zip(lines) {
            let markers = markers.ok_or_else(|| need(kind.markers_key()))?;
            let wpnts = wpnts.ok_or_else(|| need(kind.wpnts_key()))?;
            if let Some((m, w)) = g.line_mut(kind) {
                *m = markers;
                *w = wpnts;
            }
        }
        g.trackbounds_markers = trackbounds_markers.ok_or_else(|| need("trackbounds_markers"))?;
        Ok(g)
    }

    /// The JSON text, exactly as the Race Stack's `json.dumps` writes it.
    /// Fails (naming the entry) if any number is not finite.
    pub fn to_json_string(&self, path: &Path) -> Result<String> {
        let none = GlobalJsonParts::default();
        let text = self.to_json_text_with(path, &none, |_| {})?;
        Ok(text.into_string())
    }

    /// [`Self::to_json_string`] in pieces, taking the sections `ahead` holds for this file's
    /// current arrays from it (the same bytes, less work at the end of a build, and borrowed
    /// rather than copied). With sections held, the check of the numbers and the other
    /// sections run on a second thread while the text before them is written and its pieces
    /// handed to `lead` (a checksum of the file runs beside their encoding).
    pub fn to_json_text_with<'a>(
        &self,
        path: &Path,
        ahead: &'a GlobalJsonParts,
        mut lead: impl FnMut(&str),
    ) -> Result<JsonText<'a>> {
        let check = || self.check_finite(path);
        super::json_text::global_json_with(self, ahead, &mut lead, check).map_err(|e| match e {
            TextError::Check(e) => e,
            TextError::Encode(e) => {
                FormatError::invalid(path, format!("could not encode JSON: {e}"))
            }
        })
    }

    /// Writes the file (see [`Self::to_json_string`]).
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = self.to_json_string(path)?;
        crate::atomic::write_file(path, text.as_bytes())
    }
}

/// Serialises the struct in the Race Stack's key order: the straightforward serde form of
/// what `json_text` writes directly, kept as the reference its tests compare with.
#[cfg(test)]
pub(super) struct SerView<'a>(pub(super) &'a GlobalWaypoints);

#[cfg(test)]
impl Serialize for SerView<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let g = self.0;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(
            "map_info_str",
            &StringMsg {
                data: g.map_info_str.clone(),
            },
        )?;
        if let Some(t) = g.est_lap_time {
            map.serialize_entry("est_lap_time", &FloatMsg { data: t })?;
        }
        map.serialize_entry("centerline_markers", &g.centerline_markers)?;
        map.serialize_entry("centerline_waypoints", &g.centerline)?;
        for kind in LineKind::ALL {
            if let Some((markers, wpnts)) = g.line(kind) {
                map.serialize_entry(kind.markers_key(), markers)?;
                map.serialize_entry(kind.wpnts_key(), wpnts)?;
            }
        }
        map.serialize_entry("trackbounds_markers", &g.trackbounds_markers)?;
        for (k, v) in &g.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The file with exactly the known keys, for the fast path of `from_json_str`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Direct {
    map_info_str: StringMsg,
    #[serde(default)]
    est_lap_time: Option<FloatMsg>,
    centerline_markers: MarkerArray,
    centerline_waypoints: WpntArray,
    global_traj_markers_iqp: MarkerArray,
    global_traj_wpnts_iqp: WpntArray,
    global_traj_markers_sp: MarkerArray,
    global_traj_wpnts_sp: WpntArray,
    trackbounds_markers: MarkerArray,
}

impl Direct {
    /// The file read in one typed pass as the set's global waypoints (no extra keys).
    fn into_global(self) -> GlobalWaypoints {
        GlobalWaypoints {
            map_info: MapInfo::parse(&self.map_info_str.data),
            map_info_str: self.map_info_str.data,
            est_lap_time: self.est_lap_time.map(|m| m.data),
            centerline_markers: self.centerline_markers,
            centerline: self.centerline_waypoints,
            iqp_markers: self.global_traj_markers_iqp,
            iqp: self.global_traj_wpnts_iqp,
            sp_markers: self.global_traj_markers_sp,
            sp: self.global_traj_wpnts_sp,
            trackbounds_markers: self.trackbounds_markers,
            extra: Vec::new(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct StringMsg {
    data: String,
}

#[derive(Serialize, Deserialize)]
struct FloatMsg {
    data: f64,
}

/// The top-level object as (key, unparsed value) pairs, in file order.
struct TopLevel(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopLevel;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object with the keys of global_waypoints.json")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<TopLevel, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Box<RawValue>>()? {
                    out.push((k, v));
                }
                Ok(TopLevel(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Deserialize)]
struct RawMarkerArray {
    markers: Vec<Box<RawValue>>,
}

#[derive(Deserialize)]
struct RawWpntArray {
    header: Header,
    wpnts: Vec<Box<RawValue>>,
}

fn parse_part<T: for<'de> Deserialize<'de>>(raw: &str, key: &str, path: &Path) -> Result<T> {
    serde_json::from_str(raw).map_err(|e| {
        FormatError::bad_value(
            path,
            key,
            None,
            format!("key \"{key}\": {}", strip_position(&e)),
        )
    })
}

fn parse_markers(raw: &str, key: &str, path: &Path) -> Result<MarkerArray> {
    let arr: RawMarkerArray = parse_part(raw, key, path)?;
    let mut markers = Vec::with_capacity(arr.markers.len());
    for (i, m) in arr.markers.iter().enumerate() {
        markers.push(serde_json::from_str(m.get()).map_err(|e| {
            FormatError::bad_value(
                path,
                key,
                None,
                format!("key \"{key}\", marker {i}: {}", strip_position(&e)),
            )
        })?);
    }
    Ok(MarkerArray { markers })
}

fn parse_wpnts(raw: &str, key: &str, path: &Path) -> Result<WpntArray> {
    let arr: RawWpntArray = parse_part(raw, key, path)?;
    let mut wpnts = Vec::with_capacity(arr.wpnts.len());
    for (i, w) in arr.wpnts.iter().enumerate() {
        wpnts.push(serde_json::from_str(w.get()).map_err(|e| {
            FormatError::bad_value(
                path,
                key,
                None,
                format!("key \"{key}\", waypoint {i}: {}", strip_position(&e)),
            )
        })?);
    }
    Ok(WpntArray {
        header: arr.header,
        wpnts,
    })
}

/// serde_json's message without its "at line 1 column N" (positions inside a fragment mislead).
fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// A syntax error message that says where in the file, which entry, and what is there.
fn json_syntax_error(text: &str, e: &serde_json::Error, path: &Path) -> FormatError {
    let offset = line_col_to_offset(text, e.line(), e.column());
    let before = &text[..offset.min(text.len())];
    let key = KEYS
        .iter()
        .filter_map(|k| before.rfind(&format!("\"{k}\"")).map(|p| (p, *k)))
        .max_by_key(|(p, _)| *p)
        .map(|(_, k)| k);
    // A cut inside a number or a key reads as a syntax error at the very end.
    let at_end = offset + 2 >= text.trim_end().len() && !text.trim_end().ends_with('}');
    let truncated = matches!(e.classify(), serde_json::error::Category::Eof)
        || (at_end && matches!(e.classify(), serde_json::error::Category::Syntax));
    let mut what = if truncated {
        format!(
            "the JSON ends early (truncated?) at line {} column {}",
            e.line(),
            e.column()
        )
    } else {
        format!("not valid JSON: {e}")
    };
    let near = {
        let lo = before.len().saturating_sub(12);
        let lo = (0..=lo)
            .rev()
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(0);
        let hi = (offset + 12).min(text.len());
        let hi = (hi..=text.len())
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(text.len());
        &text[lo..hi]
    };
    if near.contains("NaN") || near.contains("Infinity") {
        what = format!(
            "a non-finite number (NaN or Infinity) at line {} column {}; every value must be a real number",
            e.line(),
            e.column()
        );
    }
    if let Some(k) = key {
        what.push_str(&format!(", inside \"{k}\""));
        if let Some(p) = before.rfind("\"id\": ") {
            let id: String = before[p + 6..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if !id.is_empty() {
                what.push_str(&format!(" near the entry with id {id}"));
            }
        }
    }
    FormatError::syntax(path, Some(e.line()), Some(e.column()), what)
}

fn line_col_to_offset(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let mut o = offset + col.saturating_sub(1);
            while o > 0 && !text.is_char_boundary(o.min(text.len())) {
                o -= 1;
            }
            return o.min(text.len());
        }
        offset += l.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use std::path::Path;

    #[test]
    fn syntax_errors_name_the_entry() {
        let g = GlobalWaypoints::build(GlobalParts {
            lines: vec![LineParts {
                kind: LineKind::Iqp,
                wpnts: vec![Waypoint::default(); 3],
                lap_time_s: 0.0,
                max_speed_mps: 0.0,
            }],
            ..Default::default()
        });
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        let broken = text.replacen("\"kappa_radpm\": 0.0", "\"kappa_radpm\": NaN", 2);
        let e = GlobalWaypoints::from_json_str(&broken, Path::new("g.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("non-finite") && e.contains("global_traj_wpnts_iqp"),
            "{e}"
        );
        // Cuts anywhere, inside numbers, keys or between tokens, read as truncation.
        for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
            for k in 0..6 {
                let e = GlobalWaypoints::from_json_str(&text[..cut + k], Path::new("g.json"))
                    .unwrap_err()
                    .to_string();
                assert!(e.contains("truncated"), "cut at {}: {e}", cut + k);
                if cut + k + 1 >= text.len() {
                    break;
                }
            }
        }
    }

    #[test]
    fn unknown_top_level_keys_survive() {
        let g = GlobalWaypoints::build(GlobalParts::default());
        let text = g.to_json_string(Path::new("g.json")).unwrap();
        let with = text.replacen("{", r#"{"planner_version": {"data": "v2", "n": 1}, "#, 1);
        let back = GlobalWaypoints::from_json_str(&with, Path::new("g.json")).unwrap();
        assert_eq!(back.extra.len(), 1);
        assert_eq!(back.extra[0].0, "planner_version");
        let out = back.to_json_string(Path::new("g.json")).unwrap();
        assert!(
            out.ends_with(r#""planner_version": {"data": "v2", "n": 1}}"#),
            "{out}"
        );
    }
}
