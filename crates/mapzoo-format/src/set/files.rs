//! The files of a track set in memory, typed: what a reader of a folder fills
//! and what the writer encodes, each file optional. Encoding checks every
//! number first, so a set with a NaN never reaches the disk.

use std::path::Path;

use crate::error::Result;
use crate::global::GlobalWaypoints;
use crate::map::{encode_gray_png, MapMeta};
use crate::sectors::{OtSectors, SpeedScaling};
use crate::set::layout::{
    line_csv, SetNames, GLOBAL_WAYPOINTS, OT_SECTORS, RACING_LINE, SPEED_SCALING, SP_LINE,
};
use crate::set::writer::{StagedSet, WritePolicy, Written};
use crate::waypoint::{self, Waypoint};

/// `<T>.yaml` + `<T>.png`: the occupancy map.
#[derive(Debug, Clone, PartialEq)]
pub struct MapFile {
    /// The map-server YAML; its `image` is written as `<T>.png`.
    pub meta: MapMeta,
    /// The image file's bytes as read, written back unchanged.
    pub image: Vec<u8>,
}

/// `<T>-cent.yaml` + `<T>-cent.png`: the track-only map the centerline was extracted from.
#[derive(Debug, Clone, PartialEq)]
pub struct CentMap {
    /// The map-server YAML; its `image` is written as `<T>-cent.png`.
    pub meta: MapMeta,
    /// Image width, pixels.
    pub width: usize,
    /// Image height, pixels.
    pub height: usize,
    /// 8-bit gray pixels, row-major, row 0 on top.
    pub gray: Vec<u8>,
}

/// Every file a track set may hold, in memory, each optional. A reader fills
/// the files it reads ([`crate::set::SetFolder::read_lines`]: the JSON, else the
/// line CSVs); [`TrackFiles::write`] writes what is present.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrackFiles {
    /// Track name: the folder's name and the prefix of its files.
    pub track: String,
    /// `<T>.yaml` + `<T>.png`.
    pub map: Option<MapFile>,
    /// `<T>-cent.yaml` + `<T>-cent.png`.
    pub cent_map: Option<CentMap>,
    /// `<T>_centerline.csv`.
    pub centerline: Option<Vec<Waypoint>>,
    /// `<T>_<name>.csv` per line, in writing order: [`RACING_LINE`] (the IQP line), [`SP_LINE`].
    pub lines: Vec<(String, Vec<Waypoint>)>,
    /// `global_waypoints.json`.
    pub global: Option<GlobalWaypoints>,
    /// `speed_scaling.yaml`.
    pub speed_scaling: Option<SpeedScaling>,
    /// `ot_sectors.yaml`.
    pub ot_sectors: Option<OtSectors>,
}

impl TrackFiles {
    /// No files yet, for track `track`.
    pub fn new(track: &str) -> Self {
        TrackFiles {
            track: track.to_string(),
            ..TrackFiles::default()
        }
    }

    /// The line CSV `<T>_<name>.csv`, if present.
    pub fn line(&self, name: &str) -> Option<&[Waypoint]> {
        self.lines
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, l)| l.as_slice())
    }

    /// The centerline: the JSON's when the set has one, else the CSV's, else empty.
    pub fn centerline_waypoints(&self) -> &[Waypoint] {
        match (&self.global, &self.centerline) {
            (Some(g), _) => &g.centerline.wpnts,
            (None, Some(c)) => c,
            (None, None) => &[],
        }
    }

    /// The racing line (IQP): the JSON's when the set has one, else the racing-line CSV's.
    pub fn racing_line(&self) -> Option<&[Waypoint]> {
        match &self.global {
            Some(g) => Some(&g.iqp.wpnts),
            None => self.line(RACING_LINE),
        }
    }

    /// The shortest-path line: the JSON's when the set has one, else the SP CSV's.
    pub fn sp_line(&self) -> Option<&[Waypoint]> {
        match &self.global {
            Some(g) => Some(&g.sp.wpnts),
            None => self.line(SP_LINE),
        }
    }

    /// Every present file as (name, bytes), in set order; errors name the file under `dir`.
    pub fn encode(&self, dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
        let names = SetNames::new(&self.track);
        let mut out = Vec::new();
        if let Some(map) = &self.map {
            out.push((names.png.clone(), map.image.clone()));
            let mut meta = map.meta.clone();
            meta.image = names.png.clone();
            out.push((names.yaml.clone(), meta.to_yaml_string().into_bytes()));
        }
        if let Some(cent) = &self.cent_map {
            let png = encode_gray_png(
                &dir.join(&names.cent_png),
                cent.width,
                cent.height,
                &cent.gray,
            )?;
            out.push((names.cent_png.clone(), png));
            let mut meta = cent.meta.clone();
            meta.image = names.cent_png.clone();
            out.push((names.cent_yaml.clone(), meta.to_yaml_string().into_bytes()));
        }
        let centerline = self
            .centerline
            .as_deref()
            .map(|c| (names.centerline_csv, c));
        let lines = self
            .lines
            .iter()
            .map(|(name, l)| (line_csv(&self.track, name), l.as_slice()));
        for (name, line) in centerline.into_iter().chain(lines) {
            waypoint::check_finite(line, &dir.join(&name))?;
            out.push((name, waypoint::to_csv_string(line).into_bytes()));
        }
        if let Some(g) = &self.global {
            let path = dir.join(GLOBAL_WAYPOINTS);
            out.push((
                GLOBAL_WAYPOINTS.into(),
                g.to_json_string(&path)?.into_bytes(),
            ));
        }
        if let Some(s) = &self.speed_scaling {
            out.push((SPEED_SCALING.into(), s.to_yaml_string().into_bytes()));
        }
        if let Some(s) = &self.ot_sectors {
            out.push((OT_SECTORS.into(), s.to_yaml_string().into_bytes()));
        }
        Ok(out)
    }

    /// Writes the present files as the folder `target`, all together, as `policy` says.
    /// Everything is encoded (and checked) before the disk is touched.
    pub fn write(&self, target: &Path, policy: WritePolicy) -> Result<Written> {
        let encoded = self.encode(target)?;
        let mut staged = StagedSet::new(target, policy)?;
        for (name, bytes) in encoded {
            staged.add(&name, &bytes)?;
        }
        staged.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> Vec<Waypoint> {
        (0..n)
            .map(|i| Waypoint {
                id: i as i64,
                x_m: i as f64,
                ..Waypoint::default()
            })
            .collect()
    }

    #[test]
    fn encodes_the_present_files_in_set_order() {
        let mut files = TrackFiles::new("t");
        files.centerline = Some(line(3));
        files.lines = vec![(RACING_LINE.into(), line(4)), (SP_LINE.into(), line(5))];
        files.speed_scaling = Some(SpeedScaling::single(4, 0.7, 0.7));
        let encoded = files.encode(Path::new("out")).unwrap();
        let names: Vec<&str> = encoded.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "t_centerline.csv",
                "t_racing_line.csv",
                "t_sp.csv",
                "speed_scaling.yaml"
            ]
        );
        assert_eq!(encoded[1].1, waypoint::to_csv_string(&line(4)).into_bytes());
        assert_eq!(files.racing_line().map(<[_]>::len), Some(4));
        assert_eq!(files.sp_line().map(<[_]>::len), Some(5));
        assert_eq!(files.centerline_waypoints().len(), 3);
    }

    /// A NaN anywhere in a line stops the encoding, naming the file, the waypoint and the column.
    #[test]
    fn non_finite_values_never_reach_a_file() {
        for (which, file) in [
            (0, "t_centerline.csv"),
            (1, "t_racing_line.csv"),
            (2, "t_sp.csv"),
        ] {
            let mut files = TrackFiles::new("t");
            files.centerline = Some(line(5));
            files.lines = vec![(RACING_LINE.into(), line(5)), (SP_LINE.into(), line(5))];
            let bad = match which {
                0 => &mut files.centerline.as_mut().unwrap()[3],
                k => &mut files.lines[k - 1].1[3],
            };
            bad.vx_mps = f64::NAN;
            let err = files.encode(Path::new("outdir")).unwrap_err().to_string();
            assert!(
                err.contains(file) && err.contains("waypoint 3") && err.contains("vx_mps"),
                "{err}"
            );
        }
    }
}
