//! Reading a `global_waypoints.json` laid out exactly as `json_text` (and the Race Stack's
//! `json.dumps`) writes it, in one pass over the bytes.
//!
//! `build --force` reads the folder's previous file (3.6 MB for the Race Stack map `f`) to
//! carry the sector files over; through serde that costs as much as computing the racing
//! line. This reader expects each key, separator and bracket in the written order and
//! accepts only plain strings (no escapes) and numbers in JSON's own grammar, parsed as
//! serde_json parses them (correctly rounded). Anything else, an unknown key, a different
//! layout or a value it does not take, makes it give up with `None`, and the caller reads
//! the text through serde as before: its result, or its error, is the one returned. The
//! tests check that whenever this reader returns a file, serde reads the same one.

use super::ros_msgs::{
    ColorRgba, Header, Marker, MarkerArray, Point3, Pose, Quaternion, RosTime, WpntArray,
};
use super::{GlobalWaypoints, LineKind};
use crate::flavor::Flavor;
use crate::waypoint::Waypoint;

/// The file, if `text` has exactly the written layout and known keys.
pub(super) fn parse_layout(text: &str) -> Option<GlobalWaypoints> {
    let mut c = Cursor {
        b: text.as_bytes(),
        i: 0,
    };
    c.lit("{\"map_info_str\": {\"data\": ")?;
    let map_info_str = c.string()?;
    c.lit("}, ")?;
    let est_lap_time = if c.eat("\"est_lap_time\": {\"data\": ") {
        let t = c.float()?;
        c.lit("}, ")?;
        Some(t)
    } else {
        None
    };
    c.lit("\"centerline_markers\": ")?;
    let centerline_markers = c.marker_array()?;
    c.lit(", \"centerline_waypoints\": ")?;
    let centerline = c.wpnt_array()?;
    let mut g = GlobalWaypoints::read_head(
        map_info_str,
        est_lap_time,
        centerline_markers,
        centerline,
        Vec::new(),
    );
    // the racing lines in the order the writer puts them
    for kind in LineKind::ALL {
        if g.line(kind).is_none() {
            continue;
        }
        c.key(kind.markers_key())?;
        let markers = c.marker_array()?;
        c.key(kind.wpnts_key())?;
        let wpnts = c.wpnt_array()?;
        if let Some((m, w)) = g.line_mut(kind) {
            *m = markers;
            *w = wpnts;
        }
    }
    c.lit(", \"trackbounds_markers\": ")?;
    g.trackbounds_markers = c.marker_array()?;
    c.lit("}")?;
    (c.i == c.b.len()).then_some(g)
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    /// Skips `s` if the text continues with it.
    fn eat(&mut self, s: &str) -> bool {
        let s = s.as_bytes();
        if self.b[self.i..].starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }

    fn lit(&mut self, s: &str) -> Option<()> {
        self.eat(s).then_some(())
    }

    /// `, "key": ` after a previous entry.
    fn key(&mut self, key: &str) -> Option<()> {
        self.lit(", \"")?;
        self.lit(key)?;
        self.lit("\": ")
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<String> {
        self.lit("\"")?;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => self.i += 1,
            }
        }
        let s = std::str::from_utf8(&self.b[start..self.i]).ok()?;
        self.i += 1;
        Some(s.to_string())
    }

    /// A JSON number token: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; the
    /// text and whether it is an integer.
    fn number(&mut self) -> Option<(&str, bool)> {
        let start = self.i;
        let digits = |c: &mut Self| {
            let from = c.i;
            while c.b.get(c.i).is_some_and(u8::is_ascii_digit) {
                c.i += 1;
            }
            c.i > from
        };
        self.eat("-");
        match *self.b.get(self.i)? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        let mut integer = true;
        if self.eat(".") {
            integer = false;
            if !digits(self) {
                return None;
            }
        }
        if self.eat("e") || self.eat("E") {
            integer = false;
            if !self.eat("+") {
                self.eat("-");
            }
            if !digits(self) {
                return None;
            }
        }
        let s = std::str::from_utf8(&self.b[start..self.i]).ok()?;
        Some((s, integer))
    }

    /// A float field: a finite number; integers only where exactly representable (serde_json
    /// converts them, its `-0` aside, which is left to it).
    fn float(&mut self) -> Option<f64> {
        let (s, integer) = self.number()?;
        if integer && (s.len() > 15 || s.starts_with("-0")) {
            return None;
        }
        let v: f64 = s.parse().ok()?;
        v.is_finite().then_some(v)
    }

    /// An integer field (an i64, as serde_json reads one).
    fn int(&mut self) -> Option<i64> {
        let (s, integer) = self.number()?;
        if !integer || s == "-0" {
            return None;
        }
        s.parse().ok()
    }

    fn bool(&mut self) -> Option<bool> {
        if self.eat("true") {
            Some(true)
        } else if self.eat("false") {
            Some(false)
        } else {
            None
        }
    }

    /// `[item, item, ...]`.
    fn list<T>(&mut self, item: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.lit("[")?;
        let mut out = Vec::new();
        if self.eat("]") {
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat("]") {
                return Some(out);
            }
            self.lit(", ")?;
        }
    }

    fn time(&mut self) -> Option<RosTime> {
        let (flavor, nsec_key) = if self.eat("{\"secs\": ") {
            (Flavor::Ros1, ", \"nsecs\": ")
        } else {
            self.lit("{\"sec\": ")?;
            (Flavor::Ros2, ", \"nanosec\": ")
        };
        let secs = self.int()?;
        self.lit(nsec_key)?;
        let nsecs = self.int()?;
        self.lit("}")?;
        Some(RosTime {
            secs,
            nsecs,
            flavor,
        })
    }

    fn header(&mut self) -> Option<Header> {
        self.lit("{")?;
        let seq = if self.eat("\"seq\": ") {
            let seq = u32::try_from(self.int()?).ok()?;
            self.lit(", ")?;
            Some(seq)
        } else {
            None
        };
        self.lit("\"stamp\": ")?;
        let stamp = self.time()?;
        self.lit(", \"frame_id\": ")?;
        let frame_id = self.string()?;
        self.lit("}")?;
        Some(Header {
            seq,
            stamp,
            frame_id,
        })
    }

    fn point(&mut self) -> Option<Point3> {
        self.lit("{\"x\": ")?;
        let x = self.float()?;
        self.lit(", \"y\": ")?;
        let y = self.float()?;
        self.lit(", \"z\": ")?;
        let z = self.float()?;
        self.lit("}")?;
        Some(Point3 { x, y, z })
    }

    fn color(&mut self) -> Option<ColorRgba> {
        self.lit("{\"r\": ")?;
        let r = self.float()?;
        self.lit(", \"g\": ")?;
        let g = self.float()?;
        self.lit(", \"b\": ")?;
        let b = self.float()?;
        self.lit(", \"a\": ")?;
        let a = self.float()?;
        self.lit("}")?;
        Some(ColorRgba { r, g, b, a })
    }

    fn marker(&mut self) -> Option<Marker> {
        self.lit("{\"header\": ")?;
        let header = self.header()?;
        self.lit(", \"ns\": ")?;
        let ns = self.string()?;
        self.lit(", \"id\": ")?;
        let id = self.int()?;
        self.lit(", \"type\": ")?;
        let kind = i32::try_from(self.int()?).ok()?;
        self.lit(", \"action\": ")?;
        let action = i32::try_from(self.int()?).ok()?;
        self.lit(", \"pose\": {\"position\": ")?;
        let position = self.point()?;
        self.lit(", \"orientation\": {\"x\": ")?;
        let qx = self.float()?;
        self.lit(", \"y\": ")?;
        let qy = self.float()?;
        self.lit(", \"z\": ")?;
        let qz = self.float()?;
        self.lit(", \"w\": ")?;
        let qw = self.float()?;
        self.lit("}}, \"scale\": ")?;
        let scale = self.point()?;
        self.lit(", \"color\": ")?;
        let color = self.color()?;
        self.lit(", \"lifetime\": ")?;
        let lifetime = self.time()?;
        self.lit(", \"frame_locked\": ")?;
        let frame_locked = self.bool()?;
        self.lit(", \"points\": ")?;
        let points = self.list(Self::point)?;
        self.lit(", \"colors\": ")?;
        let colors = self.list(Self::color)?;
        self.lit(", \"text\": ")?;
        let text = self.string()?;
        self.lit(", \"mesh_resource\": ")?;
        let mesh_resource = self.string()?;
        self.lit(", \"mesh_use_embedded_materials\": ")?;
        let mesh_use_embedded_materials = self.bool()?;
        self.lit("}")?;
        Some(Marker {
            header,
            ns,
            id,
            kind,
            action,
            pose: Pose {
                position,
                orientation: Quaternion {
                    x: qx,
                    y: qy,
                    z: qz,
                    w: qw,
                },
            },
            scale,
            color,
            lifetime,
            frame_locked,
            points,
            colors,
            text,
            mesh_resource,
            mesh_use_embedded_materials,
        })
    }

    fn marker_array(&mut self) -> Option<MarkerArray> {
        self.lit("{\"markers\": ")?;
        let markers = self.list(Self::marker)?;
        self.lit("}")?;
        Some(MarkerArray { markers })
    }

    fn waypoint(&mut self) -> Option<Waypoint> {
        const KEYS: [&str; 10] = [
            ", \"s_m\": ",
            ", \"d_m\": ",
            ", \"x_m\": ",
            ", \"y_m\": ",
            ", \"d_right\": ",
            ", \"d_left\": ",
            ", \"psi_rad\": ",
            ", \"kappa_radpm\": ",
            ", \"vx_mps\": ",
            ", \"ax_mps2\": ",
        ];
        self.lit("{\"id\": ")?;
        let id = self.int()?;
        let mut v = [0.0; 10];
        for (key, slot) in KEYS.iter().zip(&mut v) {
            self.lit(key)?;
            *slot = self.float()?;
        }
        self.lit("}")?;
        Some(Waypoint::from_values(id, v))
    }

    fn wpnt_array(&mut self) -> Option<WpntArray> {
        self.lit("{\"header\": ")?;
        let header = self.header()?;
        self.lit(", \"wpnts\": ")?;
        let wpnts = self.list(Self::waypoint)?;
        self.lit("}")?;
        Some(WpntArray { header, wpnts })
    }
}

#[cfg(test)]
mod tests {
    use super::super::json_text::{global_json, tests::global};
    use super::*;
    use proptest::prelude::*;
    use std::path::Path;

    /// serde's reading of the text (the path `from_json_str` takes when this reader gives up).
    fn via_serde(text: &str) -> Option<GlobalWaypoints> {
        GlobalWaypoints::from_json_str_serde(text, Path::new("g.json")).ok()
    }

    proptest! {
        #[test]
        fn reads_what_serde_reads(g in global()) {
            let text = global_json(&g).unwrap();
            let fast = parse_layout(&text);
            let plain = g.extra.is_empty()
                && !text.contains('\\')
                && !text.contains("null");
            prop_assert_eq!(fast.is_some(), plain, "{}", text);
            if let Some(fast) = fast {
                let serde = via_serde(&text);
                prop_assert_eq!(Some(&fast), serde.as_ref());
                prop_assert_eq!(&fast, &g);
            }
        }

        /// A changed byte or a cut anywhere: this reader gives up, or reads what serde reads.
        #[test]
        fn never_reads_what_serde_does_not(
            g in global(),
            at in any::<prop::sample::Index>(),
            with in prop::sample::select(b"0123456789-+.eE\"\\ ,:{}[]tfnx\n".to_vec()),
            cut in any::<bool>(),
        ) {
            let mut bytes = global_json(&g).unwrap().into_bytes();
            let i = at.index(bytes.len());
            if cut {
                bytes.truncate(i);
            } else {
                bytes[i] = with;
            }
            let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
            if let Some(fast) = parse_layout(&text) {
                prop_assert_eq!(Some(fast), via_serde(&text));
            }
        }
    }

    #[test]
    fn reads_the_numbers_serde_reads() {
        for s in [
            "0",
            "1",
            "-1",
            "0.5",
            "-0.0",
            "1e-05",
            "1.5E+16",
            "123456789012345",
            "2.5e-320",
        ] {
            let mut c = Cursor {
                b: s.as_bytes(),
                i: 0,
            };
            let v = c.float().unwrap();
            assert_eq!(c.i, s.len());
            let serde: f64 = serde_json::from_str(s).unwrap();
            assert_eq!(v.to_bits(), serde.to_bits(), "{s}");
        }
        for s in [
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "1e400",
            "NaN",
            "-0",
            "1234567890123456",
        ] {
            let mut c = Cursor {
                b: s.as_bytes(),
                i: 0,
            };
            assert!(c.float().is_none() || c.i != s.len(), "{s}");
        }
    }
}

#[cfg(test)]
mod reference_files {
    use super::*;
    use std::path::Path;

    /// The published ROS 1 Race Stack files are in the written layout: this reader takes
    /// each and reads what serde reads (the ROS 2 ones it leaves to serde, or reads the same).
    #[test]
    fn published_files_read_as_serde_reads_them() {
        let Some(data) =
            crate::testdata::reference_data_or_skip("published_files_read_as_serde_reads_them")
        else {
            return;
        };
        let tracks = [
            ("racestack/f", true),
            ("racestack/hangar", true),
            ("racestack/circle", true),
            ("racestack-ros2/glc_ot_ez", false),
            ("racestack-ros2/GLC_smile_small", false),
        ];
        for (track, ros1) in tracks {
            let path = data.join(track).join("global_waypoints.json");
            let text = std::fs::read_to_string(&path).unwrap();
            let fast = parse_layout(&text);
            assert!(
                fast.is_some() || !ros1,
                "{track}: not in the written layout"
            );
            let serde = GlobalWaypoints::from_json_str_serde(&text, Path::new("g.json")).unwrap();
            if let Some(fast) = fast {
                assert_eq!(fast, serde, "{track}");
            }
        }
    }
}
