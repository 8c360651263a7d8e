//! Remedies that errors and reports suggest, typed so that each front end words them
//! its own way: the library in API terms ([`std::fmt::Display`]), the command line as flags
//! ([`Hint::flag`]).

use std::fmt;

use crate::FreeRule;

/// One remedy an error or a report suggests to the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// Update the existing output folder in place (`mapzoo_pipeline::update_set`; the CLI's `--force`).
    Replace,
    /// Reset the sector files to the defaults (`force_sectors`; the CLI's `--force-sectors`).
    ResetSectors,
    /// Supply a published-results row for this track (`CheckOptions::published`).
    PublishedRow {
        /// The track name the row must carry.
        track: String,
    },
    /// Optimise the published centerline instead of rebuilding from the map
    /// (`CheckOptions::from_centerline`).
    FromCenterline,
    /// Check the start pose and the direction (`BuildRequest::reverse`).
    Reverse,
    /// Re-run with these safety widths (`RacelineParams::safety_width` / `safety_width_sp`).
    SafetyWidths {
        /// Safety width of the IQP line, metres.
        iqp: f64,
        /// Safety width of the SP line, metres.
        sp: f64,
    },
    /// Ask for a smaller picture (the render size, pixels).
    SmallerPicture,
    /// Try another free-space rule (for anti-aliased maps: [`FreeRule::Nonzero`]).
    FreeRule(FreeRule),
    /// Give the start pose to pick the loop nearest to it (`BuildRequest::start`).
    StartPose,
    /// Rebuild with these settings (what `check` found reproduces a published set).
    Settings {
        /// The free-space rule.
        free_rule: FreeRule,
        /// Safety width of the IQP line, metres.
        safety_width: f64,
        /// Safety width of the SP line, metres.
        safety_width_sp: f64,
        /// Driven against the published direction.
        reverse: bool,
        /// Started where the extraction puts waypoint 0, not at the published first waypoint.
        extracted_start: bool,
    },
}

/// A width as short as it reads: `0.6`, `0.65`.
fn width(w: f64) -> String {
    let s = format!("{w:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Hint {
    /// The remedy in command-line words (flags of the `mapzoo` binary).
    pub fn flag(&self) -> String {
        match self {
            Hint::Replace => {
                "pass --force to update it (files mapzoo did not write are kept)".into()
            }
            Hint::ResetSectors => "pass --force-sectors to reset them".into(),
            Hint::PublishedRow { track } => {
                format!("pass --published published.csv with a row for track {track:?}")
            }
            Hint::FromCenterline => {
                "use --from-centerline to optimise the published centerline".into()
            }
            Hint::Reverse => "check the start pose / --reverse".into(),
            Hint::SafetyWidths { iqp, sp } => {
                format!("re-run with --safety-width {iqp:.2} --safety-width-sp {sp:.2}")
            }
            Hint::SmallerPicture => "use a smaller --size".into(),
            Hint::FreeRule(rule) => format!(
                "try --free-rule {} for anti-aliased maps",
                free_rule_name(*rule)
            ),
            Hint::StartPose => "pass --start X,Y,YAW to take the loop nearest to that pose".into(),
            Hint::Settings {
                free_rule,
                safety_width,
                safety_width_sp,
                reverse,
                extracted_start,
            } => {
                let mut s = format!(
                    "--free-rule {} --safety-width {} --safety-width-sp {}",
                    free_rule_name(*free_rule),
                    width(*safety_width),
                    width(*safety_width_sp)
                );
                if *reverse {
                    s.push_str(" --reverse");
                }
                if *extracted_start {
                    s.push_str(" (start where the extraction puts it, not at the published first waypoint)");
                }
                s
            }
        }
    }
}

/// The configuration name of a free-space rule (`map-server`, `nonzero`).
fn free_rule_name(rule: FreeRule) -> &'static str {
    match rule {
        FreeRule::MapServer => "map-server",
        FreeRule::Nonzero => "nonzero",
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Replace => f.write_str("update it in place (mapzoo_pipeline::update_set)"),
            Hint::ResetSectors => f.write_str("reset them (force_sectors = true)"),
            Hint::PublishedRow { track } => write!(
                f,
                "supply a published row for track {track:?} (CheckOptions::published)"
            ),
            Hint::FromCenterline => f.write_str(
                "optimise the published centerline (CheckOptions::from_centerline = true)",
            ),
            Hint::Reverse => f.write_str("check the start pose / BuildRequest::reverse"),
            Hint::SafetyWidths { iqp, sp } => write!(
                f,
                "re-run with safety_width = {iqp:.2}, safety_width_sp = {sp:.2}"
            ),
            Hint::SmallerPicture => f.write_str("use a smaller picture size"),
            Hint::FreeRule(rule) => write!(
                f,
                "try free_rule = \"{}\" for anti-aliased maps",
                free_rule_name(*rule)
            ),
            Hint::StartPose => f.write_str(
                "give the start pose (BuildRequest::start) to take the loop nearest to it",
            ),
            Hint::Settings {
                free_rule,
                safety_width,
                safety_width_sp,
                reverse,
                extracted_start,
            } => {
                write!(
                    f,
                    "free_rule = \"{}\", safety_width = {}, safety_width_sp = {}",
                    free_rule_name(*free_rule),
                    width(*safety_width),
                    width(*safety_width_sp)
                )?;
                if *reverse {
                    f.write_str(", BuildRequest::reverse = true")?;
                }
                if *extracted_start {
                    f.write_str(" (start where the extraction puts it, not at the published first waypoint)")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_words_name_no_flag_and_flags_do() {
        let all = [
            Hint::Replace,
            Hint::ResetSectors,
            Hint::PublishedRow { track: "t".into() },
            Hint::FromCenterline,
            Hint::Reverse,
            Hint::SafetyWidths { iqp: 1.0, sp: 0.5 },
            Hint::SmallerPicture,
            Hint::FreeRule(FreeRule::Nonzero),
            Hint::StartPose,
            Hint::Settings {
                free_rule: FreeRule::Nonzero,
                safety_width: 0.6,
                safety_width_sp: 0.65,
                reverse: true,
                extracted_start: false,
            },
        ];
        for h in &all {
            assert!(!h.to_string().contains("--"), "{h}");
            assert!(h.flag().contains("--"), "{}", h.flag());
        }
        assert_eq!(
            all[9].flag(),
            "--free-rule nonzero --safety-width 0.6 --safety-width-sp 0.65 --reverse"
        );
        assert_eq!(
            Hint::FreeRule(FreeRule::Nonzero).flag(),
            "try --free-rule nonzero for anti-aliased maps"
        );
    }
}
