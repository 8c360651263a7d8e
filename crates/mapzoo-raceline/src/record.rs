//! The summary record of a run that computes racing lines: the figures the
//! `--json` records of `mapzoo build` and `mapzoo raceline` print, one group of
//! keys per [`LineKind`] (`iqp_points`, `iqp_lap_s`, `iqp_vmax`,
//! `iqp_length_m`, …), in the order those records have always had.

use serde::ser::{Serialize, SerializeMap, Serializer};

use mapzoo_format::LineKind;

/// The figures of one racing line in a record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineFigures {
    /// Which line.
    pub kind: LineKind,
    /// Waypoints, including the closing point.
    pub points: usize,
    /// Lap time, seconds.
    pub lap_s: f64,
    /// Maximum speed, m/s.
    pub vmax: f64,
    /// Lap length, metres.
    pub length_m: f64,
}

/// How the minimum-lap-time line was found ([`crate::mintime()`]): written in a record as
/// `mintime_qps`, `mintime_kept` and `mintime_fine_lap_s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MintimeFigures {
    /// QPs solved.
    pub qps: usize,
    /// Steps kept.
    pub kept: usize,
    /// The lap the iteration lowers (the line's own spline re-timed every 0.02 m), seconds;
    /// `None` when no iteration ran.
    pub fine_lap_s: Option<f64>,
}

/// The summary of one track's run. Serialises as one flat JSON object: `track`,
/// `centerline_points`, `<kind>_points` per line, `<kind>_lap_s` and `<kind>_vmax` per line,
/// `<kind>_length_m` per line, with a min-time line `mintime_qps`, `mintime_kept` and
/// `mintime_fine_lap_s`, then `seconds`, then `<stage>_s` per stage.
#[derive(Debug, Clone, PartialEq)]
pub struct RacelineRecord {
    /// Track name.
    pub track: String,
    /// Centerline waypoints.
    pub centerline_points: usize,
    /// The racing lines' figures, in [`LineKind::ALL`] order.
    pub lines: Vec<LineFigures>,
    /// The line the car drives (written `"racing_line"` after the lines' keys when it is not
    /// the IQP line).
    pub racing: LineKind,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Seconds per stage, in pipeline order (empty where the run does not time its stages).
    pub stages: Vec<(String, f64)>,
    /// How the min-time line was found, when the run computed one.
    pub mintime: Option<MintimeFigures>,
}

impl RacelineRecord {
    /// The figures of one line, if the run computed it.
    pub fn line(&self, kind: LineKind) -> Option<&LineFigures> {
        self.lines.iter().find(|l| l.kind == kind)
    }
}

impl std::ops::Index<LineKind> for RacelineRecord {
    type Output = LineFigures;

    /// The figures of the line of `kind`. Panics if it is absent; a record of a
    /// [`crate::compute`] result holds every [`LineKind`].
    fn index(&self, kind: LineKind) -> &LineFigures {
        match self.line(kind) {
            Some(line) => line,
            None => panic!("no {kind} line in this record"),
        }
    }
}

impl Serialize for RacelineRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("track", &self.track)?;
        map.serialize_entry("centerline_points", &self.centerline_points)?;
        for l in &self.lines {
            map.serialize_entry(&format!("{}_points", l.kind.name()), &l.points)?;
        }
        for l in &self.lines {
            map.serialize_entry(&format!("{}_lap_s", l.kind.name()), &l.lap_s)?;
            map.serialize_entry(&format!("{}_vmax", l.kind.name()), &l.vmax)?;
        }
        for l in &self.lines {
            map.serialize_entry(&format!("{}_length_m", l.kind.name()), &l.length_m)?;
        }
        if let Some(m) = &self.mintime {
            map.serialize_entry("mintime_qps", &m.qps)?;
            map.serialize_entry("mintime_kept", &m.kept)?;
            if let Some(fine) = m.fine_lap_s {
                map.serialize_entry("mintime_fine_lap_s", &fine)?;
            }
        }
        if self.racing != LineKind::RACING {
            map.serialize_entry("racing_line", self.racing.name())?;
        }
        map.serialize_entry("seconds", &self.seconds)?;
        for (stage, t) in &self.stages {
            map.serialize_entry(&format!("{stage}_s"), t)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(kind: LineKind, points: usize) -> LineFigures {
        LineFigures {
            kind,
            points,
            lap_s: 10.5,
            vmax: 7.25,
            length_m: 80.0,
        }
    }

    /// A record whose driven line is not the IQP says which it is, after the lines' keys.
    #[test]
    fn record_names_a_driven_line_other_than_the_iqp() {
        let rec = RacelineRecord {
            track: "f".into(),
            centerline_points: 10,
            lines: vec![
                figures(LineKind::Iqp, 9),
                figures(LineKind::Sp, 8),
                figures(LineKind::Mintime, 9),
            ],
            racing: LineKind::Mintime,
            seconds: 1.0,
            stages: Vec::new(),
            mintime: None,
        };
        let text = serde_json::to_string(&rec).unwrap();
        assert!(
            text.ends_with(
                "\"mintime_length_m\":80.0,\"racing_line\":\"mintime\",\"seconds\":1.0}"
            ),
            "{text}"
        );
    }

    /// The keys and their order are those of the records before line kinds existed.
    #[test]
    fn record_keys_keep_their_historic_order() {
        let mut rec = RacelineRecord {
            track: "f".into(),
            centerline_points: 864,
            lines: vec![figures(LineKind::Iqp, 766), figures(LineKind::Sp, 717)],
            racing: LineKind::Iqp,
            seconds: 1.5,
            stages: Vec::new(),
            mintime: None,
        };
        let text = serde_json::to_string(&rec).unwrap();
        assert_eq!(
            text,
            "{\"track\":\"f\",\"centerline_points\":864,\"iqp_points\":766,\"sp_points\":717,\
             \"iqp_lap_s\":10.5,\"iqp_vmax\":7.25,\"sp_lap_s\":10.5,\"sp_vmax\":7.25,\
             \"iqp_length_m\":80.0,\"sp_length_m\":80.0,\"seconds\":1.5}"
        );
        rec.stages = vec![("load".into(), 0.25), ("iqp".into(), 0.5)];
        let text = serde_json::to_string(&rec).unwrap();
        assert!(
            text.ends_with("\"seconds\":1.5,\"load_s\":0.25,\"iqp_s\":0.5}"),
            "{text}"
        );
        assert_eq!(rec[LineKind::Sp].points, 717);
        assert!(rec.line(LineKind::Iqp).is_some());
    }
}
