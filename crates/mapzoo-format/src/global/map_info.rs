//! `map_info_str`, the text summary at the top of the file: its figures parsed
//! ([`MapInfo`]), written for fresh lines, and reprinted per [`Flavor`].

use super::{LineKind, LineParts};
use crate::flavor::Flavor;
use crate::pyfmt;

/// Label of the `map_info_str` part naming the line in the IQP slot ([`MapInfo::iqp_slot`]).
const IQP_SLOT_LABEL: &str = "IQP slot";
/// The flag named in that part, followed by the line's name.
const RACING_LINE_FLAG: &str = "--racing-line ";

/// The figures in `map_info_str`; `None` where the text lacks one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MapInfo {
    /// IQP lap time, seconds (4 decimals in the text).
    pub iqp_lap_time_s: Option<f64>,
    /// IQP maximum speed, m/s.
    pub iqp_max_speed_mps: Option<f64>,
    /// SP (shortest path) lap time, seconds.
    pub sp_lap_time_s: Option<f64>,
    /// SP maximum speed, m/s.
    pub sp_max_speed_mps: Option<f64>,
    /// The line the IQP slot holds when it is not the IQP line (mapzoo `--racing-line`,
    /// written by [`GlobalWaypoints::note_iqp_slot`](super::GlobalWaypoints::note_iqp_slot)); its figures are the "IQP" ones.
    pub iqp_slot: Option<LineKind>,
}

impl MapInfo {
    /// The (lap time, maximum speed) slots of the line of `kind`.
    fn figures_mut(&mut self, kind: LineKind) -> Option<(&mut Option<f64>, &mut Option<f64>)> {
        match kind {
            LineKind::Iqp => Some((&mut self.iqp_lap_time_s, &mut self.iqp_max_speed_mps)),
            LineKind::Sp => Some((&mut self.sp_lap_time_s, &mut self.sp_max_speed_mps)),
            LineKind::Mintime => None,
        }
    }

    /// The lap time of the line of `kind`, seconds.
    pub fn lap_time_s(&self, kind: LineKind) -> Option<f64> {
        match kind {
            LineKind::Iqp => self.iqp_lap_time_s,
            LineKind::Sp => self.sp_lap_time_s,
            LineKind::Mintime => None,
        }
    }

    /// The maximum speed of the line of `kind`, m/s.
    pub fn max_speed_mps(&self, kind: LineKind) -> Option<f64> {
        match kind {
            LineKind::Iqp => self.iqp_max_speed_mps,
            LineKind::Sp => self.sp_max_speed_mps,
            LineKind::Mintime => None,
        }
    }

    /// Parses `map_info_str`, accepting "SP" and the older "Shortest Path" wording.
    pub fn parse(text: &str) -> Self {
        let mut info = MapInfo::default();
        for part in text.split(';') {
            let Some((label, value)) = part.split_once(':') else {
                continue;
            };
            let label = label.trim();
            let value = value.trim();
            if label == IQP_SLOT_LABEL {
                info.iqp_slot = value
                    .split_once(RACING_LINE_FLAG)
                    .and_then(|(_, rest)| rest.split(|c: char| !c.is_alphanumeric()).next())
                    .and_then(LineKind::from_name);
                continue;
            }
            let number = value
                .strip_suffix("m/s")
                .or_else(|| value.strip_suffix('s'))
                .unwrap_or(value)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite());
            let line = match label.split_once(' ') {
                Some((head, rest)) => LineKind::ALL
                    .into_iter()
                    .find(|k| k.label() == head)
                    .map(|k| (k, rest)),
                None => None,
            };
            let Some((kind, what)) = line.or_else(|| {
                label
                    .strip_prefix("Shortest Path ")
                    .map(|rest| (LineKind::Sp, rest))
            }) else {
                continue;
            };
            let Some((lap, vmax)) = info.figures_mut(kind) else {
                continue;
            };
            let slot = match what.trim() {
                "estimated lap time" => lap,
                "maximum speed" => vmax,
                _ => continue,
            };
            *slot = number;
        }
        info
    }

    /// The part of `map_info_str` that says the IQP slot holds the line of `kind`:
    /// `IQP slot: Min-time line (mapzoo --racing-line mintime); `.
    pub fn iqp_slot_text(kind: LineKind) -> String {
        format!(
            "{IQP_SLOT_LABEL}: {} line (mapzoo {RACING_LINE_FLAG}{}); ",
            kind.label(),
            kind.name()
        )
    }

    /// The text the current Race Stack writes: per line its lap time and maximum speed,
    /// 4 decimals, each part ending in `"; "`.
    pub fn to_text(lines: &[LineParts]) -> String {
        let mut text = String::new();
        for l in lines {
            let label = l.kind.label();
            text.push_str(&format!(
                "{label} estimated lap time: {:.4}s; {label} maximum speed: {:.4}m/s; ",
                l.lap_time_s, l.max_speed_mps
            ));
        }
        text
    }
}

/// `map_info_str` with each figure printed as the writer of `flavor` prints it: ROS 1
/// (the MapZoo dataset) `{:.4}`, ROS 2 (the Race Stack's `f"{round(x, 4)}"`) the same
/// digits without trailing zeros (`9.669`, `10.0`). Parts that are not `label: <number><unit>`
/// are kept as they are.
pub fn map_info_in(text: &str, flavor: Flavor) -> String {
    let mut out = String::with_capacity(text.len());
    for part in text.split_inclusive(';') {
        let Some((label, rest)) = part.split_once(": ") else {
            out.push_str(part);
            continue;
        };
        let body = rest.strip_suffix(';').unwrap_or(rest);
        let unit = if body.ends_with("m/s") { "m/s" } else { "s" };
        let number = body.strip_suffix(unit).and_then(|n| n.parse::<f64>().ok());
        let Some(v) = number.filter(|v| v.is_finite()) else {
            out.push_str(part);
            continue;
        };
        out.push_str(label);
        out.push_str(": ");
        out.push_str(&figure_in(v, flavor));
        out.push_str(unit);
        if rest.ends_with(';') {
            out.push(';');
        }
    }
    out
}

/// One figure of `map_info_str` in `flavor` (see [`map_info_in`]).
pub fn figure_in(v: f64, flavor: Flavor) -> String {
    let fixed = format!("{v:.4}");
    match flavor {
        Flavor::Ros1 => fixed,
        // Python's repr(round(v, 4)): the 4-decimal digits read back, shortest form.
        Flavor::Ros2 => pyfmt::float_repr(fixed.parse::<f64>().unwrap_or(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_info_parses_both_wordings() {
        let new = MapInfo::parse("IQP estimated lap time: 18.5875s; IQP maximum speed: 12.5381m/s; SP estimated lap time: 20.5395s; SP maximum speed: 12.5212m/s; ");
        assert_eq!(new.iqp_lap_time_s, Some(18.5875));
        assert_eq!(new.iqp_max_speed_mps, Some(12.5381));
        assert_eq!(new.sp_lap_time_s, Some(20.5395));
        assert_eq!(new.sp_max_speed_mps, Some(12.5212));
        let old = MapInfo::parse("IQP estimated lap time: 3.8264s; IQP maximum speed: 5.9557m/s; Shortest Path estimated lap time: 4.1177s; Shortest Path maximum speed: 5.7266m/s; ");
        assert_eq!(old.sp_lap_time_s, Some(4.1177));
        assert_eq!(old.sp_max_speed_mps, Some(5.7266));
        assert_eq!(MapInfo::parse("garbage"), MapInfo::default());
        let line = |kind, lap_time_s, max_speed_mps| LineParts {
            kind,
            wpnts: Vec::new(),
            lap_time_s,
            max_speed_mps,
        };
        assert_eq!(
            MapInfo::to_text(&[
                line(LineKind::Iqp, 18.58749, 12.53812),
                line(LineKind::Sp, 20.539466068312272, 12.52119)
            ]),
            "IQP estimated lap time: 18.5875s; IQP maximum speed: 12.5381m/s; SP estimated lap time: 20.5395s; SP maximum speed: 12.5212m/s; "
        );
    }

    /// ROS 2 prints the figures as Python's `f"{round(x, 4)}"`; converting back gives 4 decimals.
    #[test]
    fn map_info_figures_follow_the_flavour() {
        assert_eq!(figure_in(9.668970483429684, Flavor::Ros2), "9.669");
        assert_eq!(figure_in(9.668970483429684, Flavor::Ros1), "9.6690");
        assert_eq!(figure_in(10.00001, Flavor::Ros2), "10.0");
        assert_eq!(figure_in(5.82099, Flavor::Ros2), "5.821");
        let ros1 = "IQP estimated lap time: 9.5544s; IQP maximum speed: 11.1678m/s; SP estimated lap time: 9.6690s; SP maximum speed: 11.1853m/s; ";
        let ros2 = map_info_in(ros1, Flavor::Ros2);
        assert_eq!(ros2, ros1.replace("9.6690s", "9.669s"));
        assert_eq!(map_info_in(&ros2, Flavor::Ros1), ros1);
        assert_eq!(MapInfo::parse(&ros2), MapInfo::parse(ros1));
        // text that is not a figure stays
        assert_eq!(
            map_info_in("garbage; a: b;", Flavor::Ros2),
            "garbage; a: b;"
        );
        for k in 0..2000 {
            let v = 0.37 * k as f64 + 1e-5 * (k % 7) as f64;
            let back: f64 = figure_in(v, Flavor::Ros2).parse().unwrap();
            assert_eq!(format!("{back:.4}"), figure_in(v, Flavor::Ros1), "{v}");
        }
    }
}
