//! The JSON text of a `global_waypoints.json`, written straight into strings.
//!
//! The file is mostly markers and waypoints (3.6 MB for the Race Stack map `f`): going
//! through serde's serializer spends most of its time on the machinery (key escaping, the
//! formatter's indirections, a UTF-8 re-check of the whole text). This writer emits the
//! same bytes as `pyfmt::to_py_json_string` of the serde view (Python's `json.dumps`
//! layout): `", "` and `": "` separators, floats as Python's `repr`, non-finite floats of
//! markers as `null` as serde_json writes them, integral quaternion `w` as an integer. Keys
//! are literals; strings that need escaping and the unknown top-level keys' values go
//! through the serde path, so they are escaped exactly as before. The serde view stays
//! beside it as the reference the tests compare with. The file is written section by section
//! ([`JsonSection`]), so that sections encoded ahead ([`GlobalJsonParts`]) slot in, and kept
//! in pieces ([`JsonText`]): a build writes the sections it holds to disk from where they
//! are, never copying the 3.6 MB into one buffer.

use std::borrow::Cow;

use super::json_parts::{GlobalJsonParts, JsonSection};
use super::ros_msgs::WpntArray;
use super::ros_msgs::{
    as_integral, ColorRgba, Header, Marker, MarkerArray, Point3, Quaternion, RosTime,
};
use super::GlobalWaypoints;
use crate::flavor::Flavor;
use crate::pyfmt;
use crate::waypoint::Waypoint;

/// Bytes of JSON per marker and per waypoint, roughly: the buffer is sized once.
const MARKER_BYTES: usize = 700;
const WAYPOINT_BYTES: usize = 300;

/// The whole file's text (the caller has checked the waypoints are finite), encoded in one go.
#[cfg(test)]
pub(super) fn global_json(g: &GlobalWaypoints) -> Result<String, serde_json::Error> {
    let no_check = || Ok::<(), serde_json::Error>(());
    let none = GlobalJsonParts::default();
    let text = global_json_with(g, &none, &mut |_| {}, no_check);
    text.map(JsonText::into_string).map_err(|e| match e {
        TextError::Check(e) | TextError::Encode(e) => e,
    })
}

/// A file's text as pieces in order: the sections encoded ahead are borrowed where they are
/// held, the sections encoded beside are taken as they come, so the whole text is never
/// copied into one buffer (3.6 MB for the Race Stack map `f`).
#[derive(Debug, Clone, Default)]
pub struct JsonText<'a> {
    pieces: Vec<Cow<'a, str>>,
    led: usize,
}

impl<'a> JsonText<'a> {
    /// The pieces, in file order.
    pub fn pieces(&self) -> &[Cow<'a, str>] {
        &self.pieces
    }

    /// How many of the first pieces were handed to the caller's `lead` while the file was
    /// being written ([`GlobalWaypoints::to_json_text_with`]).
    pub fn led(&self) -> usize {
        self.led
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.pieces.iter().map(|p| p.len()).sum()
    }

    /// Whether the text is empty (never, for a written file).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole text in one string.
    pub fn into_string(self) -> String {
        let mut whole = String::with_capacity(self.len());
        for piece in &self.pieces {
            whole.push_str(piece);
        }
        whole
    }

    /// Ends the piece being written in `cur`, if any, and adds `piece` after it.
    fn push(&mut self, cur: &mut String, piece: Cow<'a, str>) {
        if !cur.is_empty() {
            self.pieces.push(Cow::Owned(std::mem::take(cur)));
        }
        if !piece.is_empty() {
            self.pieces.push(piece);
        }
    }
}

/// Why a file's text was not written: the caller's check refused the file, or a string or
/// an unknown key's value could not be encoded.
#[derive(Debug)]
pub(super) enum TextError<E> {
    Check(E),
    Encode(serde_json::Error),
}

impl<E> From<serde_json::Error> for TextError<E> {
    fn from(e: serde_json::Error) -> Self {
        TextError::Encode(e)
    }
}

/// Bytes of `section`'s text in `g`, roughly (a buffer is sized once).
fn estimate(g: &GlobalWaypoints, section: JsonSection) -> usize {
    let (markers, wpnts) = match section {
        JsonSection::Centerline => (g.centerline_markers.markers.len(), g.centerline.wpnts.len()),
        JsonSection::Line(kind) => g
            .line(kind)
            .map_or((0, 0), |(m, w)| (m.markers.len(), w.wpnts.len())),
        JsonSection::Trackbounds => (g.trackbounds_markers.markers.len(), 0),
    };
    markers * MARKER_BYTES + wpnts * WAYPOINT_BYTES
}

/// [`global_json`] after `check` passes, with each section that `ahead` holds for `g`'s
/// current arrays taken from it instead of encoded again (borrowed, not copied). When
/// `ahead` holds some sections, `check` and the sections it does not hold run on a second
/// thread while this one writes the text before them and hands its pieces to `lead` (a
/// caller's checksum of the file runs beside their encoding).
pub(super) fn global_json_with<'a, E: Send>(
    g: &GlobalWaypoints,
    ahead: &'a GlobalJsonParts,
    lead: &mut dyn FnMut(&str),
    check: impl FnOnce() -> Result<(), E> + Send,
) -> Result<JsonText<'a>, TextError<E>> {
    let held: Vec<(JsonSection, bool)> = JsonSection::in_order()
        .map(|s| (s, ahead.holds(s)))
        .collect();
    let missing: Vec<JsonSection> = held
        .iter()
        .filter(|(_, held)| !held)
        .map(|&(s, _)| s)
        .collect();
    std::thread::scope(|scope| {
        let (mut beside, check) = if !missing.is_empty() && missing.len() < held.len() {
            let encode = move || -> Result<Vec<String>, TextError<E>> {
                check().map_err(TextError::Check)?;
                Ok(encode_sections(g, &missing)?)
            };
            (Some(scope.spawn(encode)), None)
        } else {
            (None, Some(check))
        };
        if let Some(check) = check {
            check().map_err(TextError::Check)?;
        }
        // each section, whether `ahead` holds it and, if so, its text when held for `g`'s
        // arrays (compared while the sections not held are encoded beside)
        let sections: Vec<(JsonSection, bool, Option<&'a str>)> = held
            .iter()
            .map(|&(s, held)| (s, held, if held { ahead.text(g, s) } else { None }))
            .collect();
        // what this thread encodes goes into `cur`, sized for the sections it encodes
        let here: usize = sections
            .iter()
            .filter(|&&(_, held, text)| {
                if held {
                    text.is_none()
                } else {
                    beside.is_none()
                }
            })
            .map(|&(s, _, _)| estimate(g, s))
            .sum();
        let mut cur = String::with_capacity(here + 4096);
        let mut text = JsonText::default();
        cur.push_str("{\"map_info_str\": {\"data\": ");
        push_str_value(&mut cur, &g.map_info_str)?;
        cur.push('}');
        if let Some(t) = g.est_lap_time {
            cur.push_str(", \"est_lap_time\": {\"data\": ");
            push_f64(&mut cur, t);
            cur.push('}');
        }
        // the texts of the sections encoded beside, once joined
        let mut encoded: Option<std::vec::IntoIter<String>> = None;
        for &(section, held, held_text) in &sections {
            if held {
                // a section held for other arrays than `g`'s is encoded here
                match held_text {
                    Some(held) => text.push(&mut cur, Cow::Borrowed(held)),
                    None => push_section(&mut cur, g, section)?,
                }
            } else if let Some(texts) = &mut encoded {
                text.push(&mut cur, Cow::Owned(texts.next().unwrap_or_default()));
            } else if let Some(handle) = beside.take() {
                // the text before the first section encoded beside goes to `lead` while it is
                text.push(&mut cur, Cow::Borrowed(""));
                for piece in &text.pieces {
                    lead(piece);
                }
                text.led = text.pieces.len();
                let texts = handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
                let texts = encoded.insert(texts.into_iter());
                text.push(&mut cur, Cow::Owned(texts.next().unwrap_or_default()));
            } else {
                push_section(&mut cur, g, section)?;
            }
        }
        for (k, v) in &g.extra {
            push_key(&mut cur, k)?;
            cur.push_str(&pyfmt::to_py_json_string(v)?);
        }
        cur.push('}');
        text.push(&mut cur, Cow::Borrowed(""));
        Ok(text)
    })
}

/// The texts of `sections` of `g`, each on its own.
fn encode_sections(
    g: &GlobalWaypoints,
    sections: &[JsonSection],
) -> Result<Vec<String>, serde_json::Error> {
    sections.iter().map(|&s| section_text(g, s)).collect()
}

/// The text of `section` of `g` on its own ([`push_section`]), in a buffer of its size.
pub(super) fn section_text(
    g: &GlobalWaypoints,
    section: JsonSection,
) -> Result<String, serde_json::Error> {
    let mut text = String::with_capacity(estimate(g, section));
    push_section(&mut text, g, section)?;
    text.shrink_to_fit();
    Ok(text)
}

/// The text of one section of `g` after the entries before it: `, "key": value` for each of
/// its keys (nothing for a line the file does not carry).
pub(super) fn push_section(
    out: &mut String,
    g: &GlobalWaypoints,
    section: JsonSection,
) -> Result<(), serde_json::Error> {
    match section {
        JsonSection::Centerline => {
            out.push_str(", \"centerline_markers\": ");
            push_marker_array(out, &g.centerline_markers)?;
            out.push_str(", \"centerline_waypoints\": ");
            push_wpnt_array(out, &g.centerline)?;
        }
        JsonSection::Line(kind) => {
            if let Some((markers, wpnts)) = g.line(kind) {
                push_key(out, kind.markers_key())?;
                push_marker_array(out, markers)?;
                push_key(out, kind.wpnts_key())?;
                push_wpnt_array(out, wpnts)?;
            }
        }
        JsonSection::Trackbounds => {
            out.push_str(", \"trackbounds_markers\": ");
            push_marker_array(out, &g.trackbounds_markers)?;
        }
    }
    Ok(())
}

/// `, "key": ` after a previous entry.
fn push_key(out: &mut String, key: &str) -> Result<(), serde_json::Error> {
    out.push_str(", ");
    push_str_value(out, key)?;
    out.push_str(": ");
    Ok(())
}

/// A JSON string: printable ASCII without `"` and `\` as is, anything else as serde_json
/// escapes it with the Python formatter.
fn push_str_value(out: &mut String, s: &str) -> Result<(), serde_json::Error> {
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push('"');
        out.push_str(s);
        out.push('"');
        Ok(())
    } else {
        out.push_str(&pyfmt::to_py_json_string(s)?);
        Ok(())
    }
}

/// A float as serde_json writes it through the Python formatter: `null` if not finite.
fn push_f64(out: &mut String, v: f64) {
    // zero is a third of a marker's numbers
    if v == 0.0 && v.is_sign_positive() {
        out.push_str("0.0");
    } else if v.is_finite() {
        pyfmt::push_float_repr(out, v);
    } else {
        out.push_str("null");
    }
}

/// An integer as serde_json (itoa) writes it.
fn push_i64(out: &mut String, v: i64) {
    if (0..10).contains(&v) {
        out.push(char::from(b'0' + v as u8));
    } else {
        use std::fmt::Write as _;
        let _ = write!(out, "{v}");
    }
}

fn push_time(out: &mut String, t: &RosTime) {
    out.push_str(match t.flavor {
        Flavor::Ros1 => "{\"secs\": ",
        Flavor::Ros2 => "{\"sec\": ",
    });
    push_i64(out, t.secs);
    out.push_str(match t.flavor {
        Flavor::Ros1 => ", \"nsecs\": ",
        Flavor::Ros2 => ", \"nanosec\": ",
    });
    push_i64(out, t.nsecs);
    out.push('}');
}

fn push_header(out: &mut String, h: &Header) -> Result<(), serde_json::Error> {
    out.push('{');
    if let Some(seq) = h.seq {
        out.push_str("\"seq\": ");
        push_i64(out, i64::from(seq));
        out.push_str(", ");
    }
    out.push_str("\"stamp\": ");
    push_time(out, &h.stamp);
    out.push_str(", \"frame_id\": ");
    push_str_value(out, &h.frame_id)?;
    out.push('}');
    Ok(())
}

/// `"k": v` for each field, comma-separated (the caller writes the braces).
fn push_fields(out: &mut String, fields: &[(&str, f64)]) {
    for (i, (key, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('"');
        out.push_str(key);
        out.push_str("\": ");
        push_f64(out, *v);
    }
}

fn push_point(out: &mut String, p: &Point3) {
    out.push('{');
    push_fields(out, &[("x", p.x), ("y", p.y), ("z", p.z)]);
    out.push('}');
}

fn push_quaternion(out: &mut String, q: &Quaternion) {
    out.push('{');
    push_fields(out, &[("x", q.x), ("y", q.y), ("z", q.z)]);
    out.push_str(", \"w\": ");
    // as ros_msgs writes w
    match as_integral(q.w) {
        Some(i) => push_i64(out, i),
        None => push_f64(out, q.w),
    }
    out.push('}');
}

fn push_color(out: &mut String, c: &ColorRgba) {
    out.push('{');
    push_fields(out, &[("r", c.r), ("g", c.g), ("b", c.b), ("a", c.a)]);
    out.push('}');
}

fn push_bool(out: &mut String, b: bool) {
    out.push_str(if b { "true" } else { "false" });
}

fn push_marker(out: &mut String, m: &Marker) -> Result<(), serde_json::Error> {
    out.push_str("{\"header\": ");
    push_header(out, &m.header)?;
    out.push_str(", \"ns\": ");
    push_str_value(out, &m.ns)?;
    out.push_str(", \"id\": ");
    push_i64(out, m.id);
    out.push_str(", \"type\": ");
    push_i64(out, i64::from(m.kind));
    out.push_str(", \"action\": ");
    push_i64(out, i64::from(m.action));
    out.push_str(", \"pose\": {\"position\": ");
    push_point(out, &m.pose.position);
    out.push_str(", \"orientation\": ");
    push_quaternion(out, &m.pose.orientation);
    out.push_str("}, \"scale\": ");
    push_point(out, &m.scale);
    out.push_str(", \"color\": ");
    push_color(out, &m.color);
    out.push_str(", \"lifetime\": ");
    push_time(out, &m.lifetime);
    out.push_str(", \"frame_locked\": ");
    push_bool(out, m.frame_locked);
    out.push_str(", \"points\": [");
    for (i, p) in m.points.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_point(out, p);
    }
    out.push_str("], \"colors\": [");
    for (i, c) in m.colors.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_color(out, c);
    }
    out.push_str("], \"text\": ");
    push_str_value(out, &m.text)?;
    out.push_str(", \"mesh_resource\": ");
    push_str_value(out, &m.mesh_resource)?;
    out.push_str(", \"mesh_use_embedded_materials\": ");
    push_bool(out, m.mesh_use_embedded_materials);
    out.push('}');
    Ok(())
}

fn push_marker_array(out: &mut String, a: &MarkerArray) -> Result<(), serde_json::Error> {
    out.push_str("{\"markers\": [");
    for (i, m) in a.markers.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_marker(out, m)?;
    }
    out.push_str("]}");
    Ok(())
}

fn push_waypoint(out: &mut String, w: &Waypoint) {
    out.push_str("{\"id\": ");
    push_i64(out, w.id);
    let fields = [
        (", \"s_m\": ", w.s_m),
        (", \"d_m\": ", w.d_m),
        (", \"x_m\": ", w.x_m),
        (", \"y_m\": ", w.y_m),
        (", \"d_right\": ", w.d_right),
        (", \"d_left\": ", w.d_left),
        (", \"psi_rad\": ", w.psi_rad),
        (", \"kappa_radpm\": ", w.kappa_radpm),
        (", \"vx_mps\": ", w.vx_mps),
        (", \"ax_mps2\": ", w.ax_mps2),
    ];
    for (key, v) in fields {
        out.push_str(key);
        push_f64(out, v);
    }
    out.push('}');
}

fn push_wpnt_array(out: &mut String, a: &WpntArray) -> Result<(), serde_json::Error> {
    out.push_str("{\"header\": ");
    push_header(out, &a.header)?;
    out.push_str(", \"wpnts\": [");
    for (i, w) in a.wpnts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_waypoint(out, w);
    }
    out.push_str("]}");
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::json::SerView;
    use super::super::{GlobalParts, LineKind, LineParts};
    use super::*;
    use proptest::prelude::*;

    /// Floats of every layout `repr` has, and the non-finite ones markers may hold.
    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            -1e3..1e3f64,
            prop::sample::select(vec![
                0.0,
                -0.0,
                1.0,
                1e-5,
                1e16,
                2.5,
                f64::NAN,
                f64::INFINITY
            ]),
        ]
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            "[a-z_ ]{0,8}",
            prop::sample::select(vec!["map", "é\"\\\n\t\u{1}\u{7f}", "ü𝄞"]).prop_map(String::from),
        ]
    }

    fn waypoint() -> impl Strategy<Value = Waypoint> {
        (any::<i64>(), prop::array::uniform10(-1e4..1e4f64))
            .prop_map(|(id, v)| Waypoint::from_values(id, v))
    }

    /// Files of every shape the writer meets: ROS 1 and 2, strings to escape, non-finite
    /// marker values, an unknown key.
    pub(in super::super) fn global() -> impl Strategy<Value = GlobalWaypoints> {
        let wp = || prop::collection::vec(waypoint(), 0..5);
        (
            (wp(), wp(), wp(), float(), float()),
            prop::collection::vec(prop::array::uniform2(-50.0..50.0f64), 0..4),
            prop::collection::vec(float(), 8),
            (text(), text(), any::<bool>(), any::<bool>(), any::<i64>()),
            (any::<bool>(), any::<bool>(), float(), text()),
        )
            .prop_map(
                |((c, iqp, sp, lap, vmax), bound, f, s, (ros2, no_lap, w, key))| {
                    let line = |kind, wpnts| LineParts {
                        kind,
                        wpnts,
                        lap_time_s: lap,
                        max_speed_mps: vmax,
                    };
                    let mut g = GlobalWaypoints::build(GlobalParts {
                        centerline: c,
                        lines: vec![line(LineKind::Iqp, iqp), line(LineKind::Sp, sp)],
                        right_bound: bound.clone(),
                        left_bound: bound,
                    });
                    if ros2 {
                        g.set_flavor(Flavor::Ros2);
                    }
                    if no_lap {
                        g.est_lap_time = None;
                    } else {
                        g.est_lap_time = Some(f[7].abs().min(1e9));
                    }
                    for m in g.centerline_markers.markers.iter_mut().take(1) {
                        m.header.frame_id = s.0.clone();
                        m.ns = s.1.clone();
                        m.text = s.0.clone();
                        m.mesh_resource = s.1.clone();
                        m.frame_locked = s.2;
                        m.mesh_use_embedded_materials = s.3;
                        m.lifetime.secs = s.4;
                        m.pose.position = Point3 {
                            x: f[0],
                            y: f[1],
                            z: f[2],
                        };
                        m.pose.orientation.w = w;
                        m.color = ColorRgba {
                            r: f[3],
                            g: f[4],
                            b: f[5],
                            a: f[6],
                        };
                        m.points = vec![
                            Point3 {
                                x: f[1],
                                y: f[2],
                                z: f[3]
                            };
                            2
                        ];
                        m.colors = vec![m.color; 2];
                    }
                    g.map_info_str = s.1.clone();
                    g.map_info = super::super::MapInfo::parse(&g.map_info_str);
                    g.iqp.header.frame_id = s.0.clone();
                    if !key.is_empty() {
                        g.extra.push((
                            key,
                            serde_json::json!({"data": s.1, "v": [f[0].abs().min(1e9), 1, null]}),
                        ));
                    }
                    g
                },
            )
    }

    proptest! {
        #[test]
        fn writes_what_the_serde_view_writes(g in global()) {
            let direct = global_json(&g).unwrap();
            let serde = pyfmt::to_py_json_string(&SerView(&g)).unwrap();
            prop_assert_eq!(direct, serde);
        }
    }
}
