//! A set written for other consumers (README "Consumers"): the f1tenth_racetracks layout
//! that f1tenth_gym's track loader reads, and TUM global_racetrajectory_optimization's
//! input track and output trajectories. Each export turns a read set into its own list of
//! (file name, bytes), written through the one staged writer as `DIR/<T>/`.
//!
//! Conventions, as the consumers' files hold them:
//!
//! | file | delimiter | header | heading | closing point |
//! |---|---|---|---|---|
//! | racetracks `<T>_centerline.csv` | `, ` | `# x_m, y_m, w_tr_right_m, w_tr_left_m` | – | not repeated |
//! | racetracks `<T>_raceline.csv` (IQP) | `;` | `# <uuid>`, `# <ggv sha1>`, `# s_m; x_m; …` | 0 = +x, in [0, 2π) | repeated, s = lap length |
//! | TUM `<T>.csv` (input track) | `,` | `# x_m,y_m,w_tr_right_m,w_tr_left_m` | – | not repeated |
//! | TUM `traj_race_cl_<line>.csv` | `; ` | `# <uuid>`, `# <ggv sha1>`, `# s_m; x_m; …` | 0 = +y (north), in (−π, π] | repeated, s = lap length |

use std::f64::consts::{PI, TAU};
use std::path::Path;

use crate::error::{FormatError, Result};
use crate::map::{encode_gray_png, FreeRule, MapMeta};
use crate::pyfmt::float_repr;

use crate::set::{MapYaml, SetFolder, StagedSet, WritePolicy, Written};
use crate::tum::RACELINE_COLUMNS;
use crate::waypoint::Waypoint;
use crate::LineKind;

/// What TUM writes as the ggv hash when no ggv file is given: SHA-1 of no bytes.
pub const NO_GGV_SHA1: &str = "da39a3ee5e6b4b0d3255bfef95601890afd80709";

/// A consumer's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// f1tenth_racetracks / f1tenth_gym: `<T>_map.yaml`, `<T>_map.png`, `<T>_centerline.csv`,
    /// `<T>_raceline.csv`.
    Racetracks,
    /// TUM global_racetrajectory_optimization: `<T>.csv` (input track) and
    /// `traj_race_cl_iqp.csv`, `traj_race_cl_sp.csv` (its output trajectory, per line).
    Tum,
}

impl ExportFormat {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Racetracks => "racetracks",
            ExportFormat::Tum => "tum",
        }
    }
}

impl std::str::FromStr for ExportFormat {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "racetracks" | "f1tenth" | "gym" => Ok(ExportFormat::Racetracks),
            "tum" => Ok(ExportFormat::Tum),
            other => Err(format!(
                "unknown export format {other:?}: use racetracks (f1tenth_racetracks, f1tenth_gym) or tum"
            )),
        }
    }
}

/// The files of one exported set, in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// Track name: the folder the files go into.
    pub track: String,
    /// (file name, bytes), in writing order.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Export {
    /// Writes the files as `out/<track>/`, all together, as `policy` says.
    pub fn write(&self, out: &Path, policy: WritePolicy) -> Result<Written> {
        let mut staged = StagedSet::new(&out.join(&self.track), policy)?;
        for (name, bytes) in &self.files {
            staged.add(name, bytes)?;
        }
        staged.commit()
    }
}

/// The set in `dir` (a MapZoo set or a Race Stack folder of either flavour) in `format`.
pub fn export_set(dir: &Path, format: ExportFormat) -> Result<Export> {
    let folder = SetFolder::open(dir)?;
    let lines = folder.read_lines()?;
    // f1tenth_gym finds a track folder by its name without spaces.
    let track: String = folder.track().chars().filter(|c| *c != ' ').collect();
    let centerline = lines.centerline_waypoints();
    if centerline.len() < 3 {
        return Err(FormatError::inconsistent(
            dir,
            "the set has no centerline of 3 or more points (global_waypoints.json or <T>_centerline.csv); build it first",
        ));
    }
    let iqp = lines.racing_line().filter(|l| l.len() >= 2);
    let need_line = |kind: LineKind| {
        FormatError::inconsistent(
            dir,
            format!(
                "the set has no {} line (global_waypoints.json or its CSV); build it first",
                kind.label()
            ),
        )
    };
    let files = match format {
        ExportFormat::Racetracks => {
            let iqp = iqp.ok_or_else(|| need_line(LineKind::Iqp))?;
            let mut files = Vec::new();
            if let Some((meta, png)) = racetracks_map(&folder, &track)? {
                files.push((format!("{track}_map.png"), png));
                files.push((format!("{track}_map.yaml"), racetracks_yaml(&meta, &track)));
            }
            files.push((
                format!("{track}_centerline.csv"),
                track_csv(centerline, ", ").into_bytes(),
            ));
            files.push((
                format!("{track}_raceline.csv"),
                trajectory_csv(iqp, Heading::XAxis, ";", &track).into_bytes(),
            ));
            files
        }
        ExportFormat::Tum => {
            let mut files = vec![(
                format!("{track}.csv"),
                track_csv(centerline, ",").into_bytes(),
            )];
            for kind in LineKind::ALL {
                let line = match kind {
                    LineKind::Iqp => iqp,
                    LineKind::Sp => lines.sp_line().filter(|l| l.len() >= 2),
                    LineKind::Mintime => None,
                }
                .ok_or_else(|| need_line(kind))?;
                files.push((
                    tum_trajectory_name(kind),
                    trajectory_csv(
                        line,
                        Heading::North,
                        "; ",
                        &format!("{track}/{}", kind.name()),
                    )
                    .into_bytes(),
                ));
            }
            files
        }
    };
    Ok(Export { track, files })
}

/// The TUM output trajectory file of line `kind`: `traj_race_cl_<name>.csv`.
pub fn tum_trajectory_name(kind: LineKind) -> String {
    format!("traj_race_cl_{}.csv", kind.name().to_ascii_lowercase())
}

/// Heading conventions of trajectory files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heading {
    /// 0 = +x, counter-clockwise, in [0, 2π) (f1tenth_racetracks).
    XAxis,
    /// 0 = +y (north), counter-clockwise, in (−π, π] (TUM).
    North,
}

impl Heading {
    /// The convention of a trajectory file's headings: the one whose headings agree best
    /// with the direction from each point to the next (TUM's files and f1tenth_racetracks'
    /// differ by π/2; the column name is the same).
    pub fn detect(points: &[crate::TumRacelinePoint]) -> Heading {
        let err = |h: Heading| {
            let mut e: Vec<f64> = points
                .windows(2)
                .filter(|w| (w[1].x_m - w[0].x_m).hypot(w[1].y_m - w[0].y_m) > 1e-9)
                .map(|w| {
                    let chord = (w[1].y_m - w[0].y_m).atan2(w[1].x_m - w[0].x_m);
                    wrap_to_pi(h.to_x_axis(w[0].psi_rad) - chord).abs()
                })
                .collect();
            e.sort_by(f64::total_cmp);
            e.get(e.len() / 2).copied().unwrap_or(0.0)
        };
        if err(Heading::North) < err(Heading::XAxis) {
            Heading::North
        } else {
            Heading::XAxis
        }
    }

    /// `psi` (0 = +x, any range, as a set holds it) in this convention.
    pub fn from_x_axis(self, psi: f64) -> f64 {
        match self {
            Heading::XAxis => {
                let a = psi.rem_euclid(TAU);
                // rem_euclid may round up to exactly 2π
                if a >= TAU {
                    0.0
                } else {
                    a
                }
            }
            Heading::North => wrap_to_pi(psi - PI / 2.0),
        }
    }

    /// A heading of this convention as 0 = +x in (−π, π] (the set's trajectories).
    pub fn to_x_axis(self, psi: f64) -> f64 {
        match self {
            Heading::XAxis => wrap_to_pi(psi),
            Heading::North => wrap_to_pi(psi + PI / 2.0),
        }
    }
}

/// An angle in (−π, π].
fn wrap_to_pi(a: f64) -> f64 {
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w <= -PI {
        w + TAU
    } else {
        w
    }
}

/// A TUM track: `x_m, y_m, w_tr_right_m, w_tr_left_m` (Python float repr, cells joined by `sep`),
/// the loop closed implicitly.
fn track_csv(centerline: &[Waypoint], sep: &str) -> String {
    let mut s = format!("# {}\n", crate::tum::CENTERLINE_COLUMNS.join(sep));
    let mut w = centerline;
    // a closed centerline (last = first) is written open, as both consumers expect
    if w.len() > 3 && w[0].x_m == w[w.len() - 1].x_m && w[0].y_m == w[w.len() - 1].y_m {
        w = &w[..w.len() - 1];
    }
    for p in w {
        let cells = [p.x_m, p.y_m, p.d_right, p.d_left].map(float_repr);
        s.push_str(&cells.join(sep));
        s.push('\n');
    }
    s
}

/// A TUM trajectory: two `#` lines (an id and the ggv hash, as TUM's `export_traj_race`
/// writes them), the column header, rows of `%.7f` joined by `sep`, closed (last = first
/// with s = lap length). The id has the form of a UUID but is derived from `seed` and the
/// rows, so the same set gives the same bytes.
fn trajectory_csv(line: &[Waypoint], heading: Heading, sep: &str, seed: &str) -> String {
    let mut rows = String::new();
    for p in closed(line) {
        let cells = [
            p.s_m,
            p.x_m,
            p.y_m,
            heading.from_x_axis(p.psi_rad),
            p.kappa_radpm,
            p.vx_mps,
            p.ax_mps2,
        ]
        .map(|v| format!("{v:.7}"));
        rows.push_str(&cells.join(sep));
        rows.push('\n');
    }
    format!(
        "# {}\n# {NO_GGV_SHA1}\n# {}\n{rows}",
        content_uuid(seed, &rows),
        RACELINE_COLUMNS.join("; ")
    )
}

/// The line closed: unchanged when its last point repeats the first, else the first point
/// appended with s = last s + the closing distance.
fn closed(line: &[Waypoint]) -> Vec<Waypoint> {
    let mut out = line.to_vec();
    if let (Some(first), Some(last)) = (line.first(), line.last()) {
        if line.len() > 1 && (first.x_m != last.x_m || first.y_m != last.y_m) {
            let mut end = *first;
            end.s_m = last.s_m + (first.x_m - last.x_m).hypot(first.y_m - last.y_m);
            out.push(end);
        }
    }
    out
}

/// A UUID-shaped id (version 4 layout) from a 128-bit FNV-1a hash of the text.
fn content_uuid(seed: &str, text: &str) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in seed.bytes().chain(text.bytes()) {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    let hex = format!("{h:032x}");
    format!(
        "{}-{}-4{}-{}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        ["8", "9", "a", "b"][(h % 4) as usize],
        &hex[17..20],
        &hex[20..32]
    )
}

/// The set's map for the gym: its YAML and the image as 8-bit gray, free space 255 and
/// everything else 0 as map_server classifies it (the gym ignores the YAML thresholds and
/// calls every pixel above 128 free, so a grey unknown area would otherwise be track).
fn racetracks_map(folder: &SetFolder, track: &str) -> Result<Option<(MapMeta, Vec<u8>)>> {
    let yaml = match folder.map_yaml() {
        MapYaml::Found(y) => y,
        MapYaml::Missing => return Ok(None),
        MapYaml::Several(names) => {
            return Err(FormatError::inconsistent(
                folder.dir(),
                format!(
                    "several map YAMLs ({}) and none named {}; keep one",
                    names.join(", "),
                    folder.names().yaml
                ),
            ))
        }
    };
    let (meta, map) = folder.read_map(&yaml, FreeRule::MapServer)?;
    let (w, h) = (map.width, map.height);
    let mut gray = Vec::with_capacity(w * h);
    for row in 0..h {
        for col in 0..w {
            gray.push(if map.is_free(col as i64, row as i64) {
                255
            } else {
                0
            });
        }
    }
    let png = encode_gray_png(&folder.dir().join(format!("{track}_map.png")), w, h, &gray)?;
    Ok(Some((meta, png)))
}

/// The map YAML in the f1tenth_racetracks layout (key order, flow-style origin, no `mode`:
/// f1tenth_gym builds its track spec from exactly these keys).
fn racetracks_yaml(meta: &MapMeta, track: &str) -> Vec<u8> {
    format!(
        "image: {track}_map.png\nresolution: {}\norigin: [{},{}, {:.6}]\nnegate: 0\noccupied_thresh: {}\nfree_thresh: {}\n",
        float_repr(meta.resolution),
        float_repr(meta.origin[0]),
        float_repr(meta.origin[1]),
        meta.origin[2],
        float_repr(meta.occupied_thresh),
        float_repr(meta.free_thresh),
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_convert_both_ways() {
        for k in -20..=20 {
            let psi = k as f64 * 0.3;
            for h in [Heading::XAxis, Heading::North] {
                let there = h.from_x_axis(psi);
                let back = h.to_x_axis(there);
                assert!((wrap_to_pi(back - psi)).abs() < 1e-12, "{h:?} {psi}");
            }
            let x = Heading::XAxis.from_x_axis(psi);
            assert!((0.0..TAU).contains(&x));
            let n = Heading::North.from_x_axis(psi);
            assert!(n > -PI && n <= PI);
        }
        // heading +x is north −π/2 in TUM's convention, +y is 0
        assert!((Heading::North.from_x_axis(0.0) + PI / 2.0).abs() < 1e-15);
        assert_eq!(Heading::North.from_x_axis(PI / 2.0), 0.0);
    }

    #[test]
    fn ids_are_uuid_shaped_and_reproducible() {
        let a = content_uuid("t", "rows");
        assert_eq!(a, content_uuid("t", "rows"));
        assert_ne!(a, content_uuid("t", "rows2"));
        let parts: Vec<usize> = a.split('-').map(str::len).collect();
        assert_eq!(parts, [8, 4, 4, 4, 12]);
    }
}
