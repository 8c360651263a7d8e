//! The hand-tuned sector files `speed_scaling.yaml` and `ot_sectors.yaml`
//! (DESIGN §2.4): index ranges into the IQP racing line, read, written,
//! checked against the line's length, and remapped when that length changes.
//!
//! Keys this crate does not know are kept and written back, so a regeneration
//! never drops a user's additions. Both flavours are read and written: ROS 1's
//! plain mapping and ROS 2's, wrapped in `<node>: ros__parameters:` (the node is
//! `sector_tuner` for speed scaling, `ot_interpolator` for overtaking sectors).
//!
//! Laid out by concept: [`SpeedScaling`] in `speed`, [`OtSectors`] in `overtaking`,
//! the index ranges both hold (checks and remaps) in `ranges`, the ROS 1 / ROS 2 YAML
//! layout in `yaml`.

mod overtaking;
mod ranges;
mod speed;
mod yaml;

pub use overtaking::{OtSector, OtSectors};
pub use ranges::{check_bounds, check_contiguous, remap_ranges_by_position, BoundaryMove};
pub use speed::{SpeedScaling, SpeedSector};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::Flavor;
    use std::path::Path;

    const SPEED: &str = "global_limit: 0.5\nn_sectors: 2\nSector0:\n  start: 0\n  end: 408\n  scaling: 0.5\n  only_FTG: false\n  no_FTG: false\nSector1:\n  start: 409\n  end: 766\n  scaling: 1.0\n  only_FTG: false\n  no_FTG: true\n";
    const OT: &str = "n_sectors: 2\nyeet_factor: 1.25\nspline_len: 30\not_sector_begin: 0.5\nOvertaking_sector0:\n  start: 0\n  end: 408\n  ot_flag: false\nOvertaking_sector1:\n  start: 409\n  end: 766\n  ot_flag: true\n";

    #[test]
    fn text_round_trips_exactly() {
        let p = Path::new("s.yaml");
        let s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        assert_eq!(s.to_yaml_string(), SPEED);
        s.validate(766, p).unwrap();
        let o = OtSectors::from_yaml_str(OT, p).unwrap();
        assert_eq!(o.to_yaml_string(), OT);
        o.validate(766, p).unwrap();
    }

    #[test]
    fn unknown_keys_survive() {
        let p = Path::new("s.yaml");
        let text = SPEED.replace("  no_FTG: true\n", "  no_FTG: true\n  note: pit lane\n")
            + "comment: hand tuned\n";
        let s = SpeedScaling::from_yaml_str(&text, p).unwrap();
        let again = SpeedScaling::from_yaml_str(&s.to_yaml_string(), p).unwrap();
        assert_eq!(again, s);
        assert_eq!(s.sectors[1].extra.len(), 1);
        assert_eq!(s.extra.len(), 1);
    }

    #[test]
    fn validation_names_the_problem() {
        let p = Path::new("s.yaml");
        let s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        let e = s.validate(700, p).unwrap_err().to_string();
        assert!(e.contains("Sector1") && e.contains("0..=700"), "{e}");
        let mut bad = s.clone();
        bad.sectors[1].start = 300;
        let e = bad.validate(766, p).unwrap_err().to_string();
        assert!(e.contains("overlaps"), "{e}");
        let mut bad = s.clone();
        bad.sectors[0].scaling = 0.0;
        let e = bad.validate(766, p).unwrap_err().to_string();
        assert!(e.contains("scaling"), "{e}");
        let mut bad = s.clone();
        bad.declared_n_sectors = 3;
        assert!(bad
            .validate(766, p)
            .unwrap_err()
            .to_string()
            .contains("n_sectors"));
        let mut bad = s;
        bad.sectors[1].start = 420;
        assert!(bad
            .validate(766, p)
            .unwrap_err()
            .to_string()
            .contains("gap"));
    }

    #[test]
    fn numbering_gaps_are_errors() {
        let text = OT.replace("Overtaking_sector1", "Overtaking_sector2");
        let e = OtSectors::from_yaml_str(&text, Path::new("o.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("Overtaking_sector1"), "{e}");
    }

    #[test]
    fn remap_keeps_fractions_and_contiguity() {
        let p = Path::new("s.yaml");
        let mut s = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
        s.remap(766, 1532);
        assert_eq!(
            s.sectors
                .iter()
                .map(|x| (x.start, x.end))
                .collect::<Vec<_>>(),
            vec![(0, 816), (817, 1532)]
        );
        s.validate(1532, p).unwrap();
        let mut o = OtSectors::from_yaml_str(OT, p).unwrap();
        let old: Vec<f64> = (0..766).map(|i| i as f64 * 0.1).collect();
        let new: Vec<f64> = (0..383).map(|i| i as f64 * 0.2).collect();
        o.remap_by_arc_length(&old, &new);
        assert_eq!(o.sectors[0].end, 204);
        assert_eq!(o.sectors[1].start, 205);
        assert_eq!(o.sectors[1].end, 383);
        o.validate(383, p).unwrap();
    }

    /// `text` indented by `indent` spaces under `node: ros__parameters:`, written by hand.
    fn ros2(node: &str, text: &str) -> String {
        let mut s = format!("{node}:\n  ros__parameters:\n");
        for line in text.lines() {
            s.push_str(&format!("    {line}\n"));
        }
        s
    }

    #[test]
    fn ros2_parameter_files_are_read_as_ros2_and_round_trip_exactly() {
        let p = Path::new("s.yaml");
        let speed_text = ros2("sector_tuner", SPEED);
        let s = SpeedScaling::from_yaml_str(&speed_text, p).unwrap();
        assert_eq!(s.flavor, Flavor::Ros2);
        assert_eq!(s, {
            let mut plain = SpeedScaling::from_yaml_str(SPEED, p).unwrap();
            plain.flavor = Flavor::Ros2;
            plain
        });
        assert_eq!(s.to_yaml_string(), speed_text);
        let ot_text = ros2("ot_interpolator", OT);
        let o = OtSectors::from_yaml_str(&ot_text, p).unwrap();
        assert_eq!(o.flavor, Flavor::Ros2);
        assert_eq!(o.sectors.len(), 2);
        assert_eq!(o.to_yaml_string(), ot_text);
        // the plain file stays ROS 1, and converting flavours is a field change
        let mut plain = OtSectors::from_yaml_str(OT, p).unwrap();
        assert_eq!(plain.flavor, Flavor::Ros1);
        plain.flavor = Flavor::Ros2;
        assert_eq!(plain.to_yaml_string(), ot_text);
        // a hand-edited file's blank lines at the end survive a rewrite
        let padded = format!("{speed_text}\n\n");
        let s = SpeedScaling::from_yaml_str(&padded, p).unwrap();
        assert_eq!((s.blank_lines_after, s.to_yaml_string()), (2, padded));
    }

    #[test]
    fn ros2_wrapper_without_a_parameter_mapping_is_an_error_naming_it() {
        let p = Path::new("s.yaml");
        let err = SpeedScaling::from_yaml_str("sector_tuner:\n  ros__parameters: 3\n", p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ros__parameters") && err.contains("s.yaml"),
            "{err}"
        );
    }

    /// A sector index too large for any integer was reported as a syntax error ("fix the
    /// syntax"); a sector number too large made the entries vanish ("no sector entries").
    #[test]
    fn sector_index_overflow_names_the_field() {
        let p = Path::new("speed_scaling.yaml");
        let text = SPEED.replace("end: 408", "end: 99999999999999999999");
        let err = SpeedScaling::from_yaml_str(&text, p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Sector0.end") && !err.contains("syntax"),
            "{err}"
        );
        let text = SPEED.replace("Sector1:", "Sector99999999999999999999:");
        let err = SpeedScaling::from_yaml_str(&text, p)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Sector99999999999999999999") && err.contains("too large"),
            "{err}"
        );
    }
}
