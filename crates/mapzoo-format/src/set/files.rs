//! The files of a track set in memory, typed: what a reader of a folder fills
//! and what the writer encodes, each file optional. Encoding checks every
//! number first, so a set with a NaN never reaches the disk.

use std::borrow::Cow;
use std::path::Path;
use std::sync::{mpsc, OnceLock};
use std::thread::ScopedJoinHandle;

use crate::error::FormatError;
use crate::error::Result;
use crate::global::{GlobalWaypoints, JsonText};
use crate::map::{encode_gray_png, MapMeta};
use crate::sectors::{OtSectors, SpeedScaling};
use crate::set::ahead::EncodedAhead;
use crate::set::checksum::{AnyHasher, ContentHasher};
use crate::set::layout::{
    line_csv, SetNames, GLOBAL_WAYPOINTS, OT_SECTORS, RACING_LINE, SPEED_SCALING, SP_LINE,
};
use crate::set::record::{file_holds, file_matches, SetRecord, SETTINGS_FILE};
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
    /// `mapzoo.toml`: how the set was built; its `[files]` checksums are filled on encoding.
    pub record: Option<SetRecord>,
}

/// A file's bytes: in one piece, or global_waypoints.json's in the pieces its text came in
/// ([`JsonText`]: the sections encoded ahead are borrowed, never copied into one buffer).
struct Body<'a>(Vec<Cow<'a, [u8]>>);

impl<'a> Body<'a> {
    fn one(bytes: impl Into<Cow<'a, [u8]>>) -> Self {
        Body(vec![bytes.into()])
    }

    /// global_waypoints.json's text, borrowed.
    fn json(text: &'a JsonText<'a>) -> Self {
        Body(text.pieces().iter().map(|p| p.as_bytes().into()).collect())
    }

    /// The pieces, in order.
    fn pieces(&self) -> Vec<&[u8]> {
        self.0.iter().map(|p| &**p).collect()
    }

    /// The [`content_hash`](crate::set::content_hash) of the bytes.
    fn hash(&self) -> String {
        let mut hasher = ContentHasher::default();
        for piece in &self.0 {
            hasher.update(piece);
        }
        hasher.finish()
    }

    /// The bytes in one buffer.
    fn into_bytes(self) -> Vec<u8> {
        match <[_; 1]>::try_from(self.0) {
            Ok([one]) => one.into_owned(),
            Err(pieces) => pieces.concat(),
        }
    }
}

/// The files of a set but `mapzoo.toml`, encoded ([`TrackFiles::encode_files`]).
struct EncodedFiles<'a, 's> {
    /// (name, bytes), in set order; global_waypoints.json's bytes where its thread left them.
    files: Vec<(String, Body<'a>)>,
    /// Each file's [`content_hash`] where it came with the bytes, by position in `files`.
    known: Vec<Option<String>>,
    /// global_waypoints.json's position in `files` and the thread finishing its checksum
    /// (`None` from it for a set without a record).
    global_hash: Option<(usize, ScopedJoinHandle<'s, Option<String>>)>,
}

impl EncodedFiles<'_, '_> {
    /// Each file's [`content_hash`] as `mapzoo.toml` records it (all `None` for a set without
    /// a record), once global_waypoints.json's is finished.
    fn hashes(&mut self, recorded: bool) -> Vec<Option<String>> {
        if let Some((at, handle)) = self.global_hash.take() {
            let hash = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if let Some(slot) = self.known.get_mut(at) {
                *slot = hash;
            }
        }
        if !recorded {
            return vec![None; self.files.len()];
        }
        self.files
            .iter()
            .zip(&self.known)
            .map(|((_, body), hash)| Some(hash.clone().unwrap_or_else(|| body.hash())))
            .collect()
    }
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
        let (json, ahead) = (OnceLock::new(), EncodedAhead::default());
        std::thread::scope(|scope| {
            let mut files = self.encode_files(dir, &ahead, &json, scope)?;
            let hashes = files.hashes(self.record.is_some());
            let record = self.record_bytes(&files.files, &hashes);
            let mut out: Vec<(String, Vec<u8>)> = files
                .files
                .into_iter()
                .map(|(name, body)| (name, body.into_bytes()))
                .collect();
            out.extend(record.map(|bytes| (SETTINGS_FILE.to_string(), bytes)));
            Ok(out)
        })
    }

    /// Every present file but `mapzoo.toml`, in set order, taking the files and JSON sections
    /// that `ahead` holds for this set's content from it. global_waypoints.json (most of the
    /// bytes: its markers) is written on a second thread while this one writes the rest, into
    /// `json`; its checksum may still be in the making on return.
    fn encode_files<'a: 's, 's>(
        &'a self,
        dir: &Path,
        ahead: &'a EncodedAhead,
        json: &'a OnceLock<JsonText<'a>>,
        scope: &'s std::thread::Scope<'s, '_>,
    ) -> Result<EncodedFiles<'a, 's>> {
        let (ready, text_ready) = mpsc::channel();
        let global = self.global.as_ref().map(|g| {
            let path = dir.join(GLOBAL_WAYPOINTS);
            let hash = self.record.is_some();
            scope.spawn(move || -> Option<String> {
                // hashed as it is written: the start beside the encoding of its last sections,
                // the rest while the other files are staged
                let mut hasher = ContentHasher::default();
                let lead = |piece: &str| hasher.update(piece.as_bytes());
                let text = match g.to_json_text_with(&path, ahead.global(), lead) {
                    Ok(text) => text,
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return None;
                    }
                };
                let text = json.get_or_init(|| text);
                let _ = ready.send(Ok(()));
                hash.then(|| {
                    for piece in &text.pieces()[text.led()..] {
                        hasher.update(piece.as_bytes());
                    }
                    hasher.finish()
                })
            })
        });
        let names = SetNames::new(&self.track);
        let mut out: Vec<(String, Body<'a>)> = Vec::new();
        // the hashes known with the bytes, by position in `out`
        let mut known: Vec<Option<String>> = Vec::new();
        if let Some(map) = &self.map {
            out.push((names.png.clone(), Body::one(map.image.as_slice())));
            let mut meta = map.meta.clone();
            meta.image = names.png.clone();
            out.push((
                names.yaml.clone(),
                Body::one(meta.to_yaml_string().into_bytes()),
            ));
        }
        if let Some(cent) = &self.cent_map {
            let (png, hash) = match ahead.gray_png(cent) {
                Some(e) => (Cow::Borrowed(e.bytes.as_slice()), Some(e.hash.clone())),
                None => {
                    let path = dir.join(&names.cent_png);
                    let png = encode_gray_png(&path, cent.width, cent.height, &cent.gray)?;
                    (png.into(), None)
                }
            };
            known.resize(out.len(), None);
            known.push(hash);
            out.push((names.cent_png.clone(), Body::one(png)));
            let mut meta = cent.meta.clone();
            meta.image = names.cent_png.clone();
            out.push((
                names.cent_yaml.clone(),
                Body::one(meta.to_yaml_string().into_bytes()),
            ));
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
            let (csv, hash) = match ahead.csv(line) {
                Some(e) => (Cow::Borrowed(e.bytes.as_slice()), Some(e.hash.clone())),
                None => {
                    waypoint::check_finite(line, &dir.join(&name))?;
                    (waypoint::to_csv_string(line).into_bytes().into(), None)
                }
            };
            known.resize(out.len(), None);
            known.push(hash);
            out.push((name, Body::one(csv)));
        }
        let mut global_hash = None;
        if let Some(handle) = global {
            match text_ready.recv() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(e),
                Err(_) => {
                    // the thread ended without its text: it panicked
                    let panic = match handle.join() {
                        Err(panic) => panic,
                        Ok(_) => Box::new("global_waypoints.json's thread ended without its text"),
                    };
                    std::panic::resume_unwind(panic)
                }
            }
            if let Some(text) = json.get() {
                known.resize(out.len(), None);
                known.push(None);
                global_hash = Some((out.len(), handle));
                out.push((GLOBAL_WAYPOINTS.into(), Body::json(text)));
            }
        }
        if let Some(s) = &self.speed_scaling {
            out.push((
                SPEED_SCALING.into(),
                Body::one(s.to_yaml_string().into_bytes()),
            ));
        }
        if let Some(s) = &self.ot_sectors {
            out.push((
                OT_SECTORS.into(),
                Body::one(s.to_yaml_string().into_bytes()),
            ));
        }
        known.resize(out.len(), None);
        Ok(EncodedFiles {
            files: out,
            known,
            global_hash,
        })
    }

    /// `mapzoo.toml` recording `files` with their `hashes`, if the set has a record.
    fn record_bytes(
        &self,
        files: &[(String, Body<'_>)],
        hashes: &[Option<String>],
    ) -> Option<Vec<u8>> {
        let mut record = self.record.clone()?;
        record.track = self.track.clone();
        record.files = files
            .iter()
            .zip(hashes)
            .filter_map(|((name, _), h)| Some((name.clone(), h.clone()?)))
            .collect();
        Some(record.to_toml_string().into_bytes())
    }

    /// Writes the present files as the folder `target`, all together, as `policy` says.
    /// Everything is encoded (and checked) before the disk is touched.
    ///
    /// Into an existing folder: a folder holding another track's set is refused (the two
    /// would mix); a file that may hold the user's work is moved aside to `<name>.bak`
    /// instead of being replaced ([`StagedSet::add_keeping_old`]): the map image `<T>.png`
    /// when its bytes change, and any file the folder's `mapzoo.toml` lists whose checksum no
    /// longer matches (edited since mapzoo wrote it), except the map YAML and the sector files,
    /// which the caller reads and carries over. Every other file is kept; what was replaced is
    /// named in [`Written`].
    pub fn write(&self, target: &Path, policy: WritePolicy) -> Result<Written> {
        self.write_with(target, policy, &EncodedAhead::default())
    }

    /// [`Self::write`], taking the files and JSON sections that `ahead` holds for this set's
    /// content from it instead of encoding them again (the same bytes).
    pub fn write_with(
        &self,
        target: &Path,
        policy: WritePolicy,
        ahead: &EncodedAhead,
    ) -> Result<Written> {
        let json = OnceLock::new();
        std::thread::scope(|scope| {
            let mut files = self.encode_files(target, ahead, &json, scope)?;
            let names = SetNames::new(&self.track);
            let old = if policy != WritePolicy::Create && target.is_dir() {
                self.check_same_track(target)?;
                SetRecord::read(&target.join(SETTINGS_FILE)).ok()
            } else {
                None
            };
            // Into a recorded folder, each file's checksum tells whether the user edited it;
            // otherwise the checksums are only for mapzoo.toml, and the JSON's is finished
            // while the other files are staged.
            let early = old.is_some().then(|| files.hashes(self.record.is_some()));
            let carried = [
                names.yaml.as_str(),
                SPEED_SCALING,
                OT_SECTORS,
                SETTINGS_FILE,
            ];
            let mut staged = StagedSet::new(target, policy)?;
            for (i, (name, body)) in files.files.iter().enumerate() {
                let pieces = body.pieces();
                let hash = early.as_ref().and_then(|h| h[i].as_deref());
                let guard = *name == names.png
                    || old.as_ref().is_some_and(|r| {
                        !carried.contains(&name.as_str())
                            && edited_since(r, name, &target.join(name), &pieces, hash)
                    });
                if guard {
                    staged.add_pieces_keeping_old(name, &pieces)?;
                } else {
                    staged.add_pieces(name, &pieces)?;
                }
            }
            let hashes = match early {
                Some(hashes) => hashes,
                None => files.hashes(self.record.is_some()),
            };
            if let Some(record) = self.record_bytes(&files.files, &hashes) {
                staged.add(SETTINGS_FILE, &record)?;
            }
            staged.commit()
        })
    }

    /// Refuses to write into `dir` when it holds another track's set: its `mapzoo.toml`
    /// names another track, or it has a centerline / racing-line CSV of another name.
    fn check_same_track(&self, dir: &Path) -> Result<()> {
        let folder = crate::set::SetFolder::open_as(dir, &self.track)?;
        // A record naming another track counts when that track's files are still there (a
        // set copied and renamed by hand is the new track's).
        let recorded = SetRecord::read(&dir.join(SETTINGS_FILE))
            .ok()
            .map(|r| r.track)
            .filter(|t| !t.is_empty() && *t != self.track)
            .and_then(|t| {
                let names = SetNames::new(&t);
                [names.yaml, names.centerline_csv, names.racing_line_csv]
                    .into_iter()
                    .find(|f| folder.has(f))
                    .map(|f| (t, f))
            });
        let by_csv = || {
            folder.files().iter().find_map(|f| {
                let suffixes = [
                    crate::set::layout::CENTERLINE_SUFFIX.to_string(),
                    format!("_{RACING_LINE}.csv"),
                    format!("_{SP_LINE}.csv"),
                ];
                suffixes.iter().find_map(|suf| {
                    let other = f.strip_suffix(suf.as_str())?;
                    (other != self.track && !other.is_empty())
                        .then(|| (other.to_string(), f.clone()))
                })
            })
        };
        match recorded.or_else(by_csv) {
            None => Ok(()),
            Some((other, file)) => Err(FormatError::inconsistent(
                dir,
                format!(
                    "holds the set of track {other:?} ({file}); writing track {:?} into it would mix two tracks: write it into a folder of its own",
                    self.track
                ),
            )),
        }
    }
}

/// Whether the file `path`, `name` in the record `r`, was edited since `r` was written: a
/// regular file whose checksum is not the one recorded. `new_hash` is the checksum of
/// `pieces`, the bytes about to replace it: a file holding them has it (no second pass).
fn edited_since(
    r: &SetRecord,
    name: &str,
    path: &Path,
    pieces: &[&[u8]],
    new_hash: Option<&str>,
) -> bool {
    let Some(recorded) = r.files.get(name) else {
        return false;
    };
    if let Some(h) = new_hash {
        if AnyHasher::is_current(recorded) && file_holds(path, pieces) {
            return recorded != h;
        }
    }
    file_matches(path, recorded).is_some_and(|same| !same)
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

    /// Files encoded ahead are used only for the content they were encoded from: a set
    /// written with current, stale or no files encoded ahead has the same bytes, `mapzoo.toml`
    /// (its checksums) included.
    #[test]
    fn files_encoded_ahead_give_the_same_bytes() {
        use crate::global::{GlobalParts, GlobalWaypoints, JsonSection};
        let set = |n: usize| {
            let mut files = TrackFiles::new("t");
            files.centerline = Some(line(n));
            files.lines = vec![(RACING_LINE.into(), line(n + 1))];
            files.global = Some(GlobalWaypoints::build(GlobalParts {
                centerline: line(n),
                right_bound: vec![[0.0, 1.0]; n],
                ..GlobalParts::default()
            }));
            files.record = Some(SetRecord::new("t", toml::Table::new()));
            files
        };
        let ahead_of = |files: &TrackFiles| {
            let mut ahead = EncodedAhead::default();
            ahead.add_csv(files.centerline.as_deref().unwrap());
            ahead.add_csv(&files.lines[0].1);
            let sections: Vec<JsonSection> = JsonSection::in_order().collect();
            ahead.add_global(files.global.clone().unwrap(), &sections);
            ahead
        };
        let files = set(4);
        let plain = files.encode(Path::new("out")).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        for (i, ahead) in [ahead_of(&files), ahead_of(&set(5))].iter().enumerate() {
            let dir = tmp.path().join(i.to_string());
            files.write_with(&dir, WritePolicy::Create, ahead).unwrap();
            for (name, bytes) in &plain {
                assert_eq!(&std::fs::read(dir.join(name)).unwrap(), bytes, "{name}");
            }
            assert_eq!(crate::atomic::tests::entries(&dir).len(), plain.len());
        }
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

    /// `raceline --out` into an existing set of another track mixed two tracks.
    #[test]
    fn writing_into_another_tracks_set_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("f");
        let mut f = TrackFiles::new("f");
        f.centerline = Some(line(3));
        f.write(&dir, WritePolicy::Create).unwrap();
        let mut g = TrackFiles::new("g");
        g.centerline = Some(line(4));
        let err = g.write(&dir, WritePolicy::Merge).unwrap_err().to_string();
        assert!(
            err.contains("\"f\"") && err.contains("mix two tracks"),
            "{err}"
        );
        assert_eq!(crate::atomic::tests::entries(&dir), ["f_centerline.csv"]);
        // The same track merges.
        f.write(&dir, WritePolicy::Merge).unwrap();
    }

    /// A set of track `t` with a record (a centerline and a racing line), written as `dir`.
    fn recorded_set(dir: &Path) -> TrackFiles {
        let mut files = TrackFiles::new("t");
        files.centerline = Some(line(3));
        files.lines = vec![(RACING_LINE.into(), line(4))];
        files.record = Some(SetRecord::new("t", toml::Table::new()));
        files.write(dir, WritePolicy::Create).unwrap();
        files
    }

    /// regen overwrote an edited `<T>-cent.png`: a file mapzoo wrote and the user changed
    /// since (its checksum in mapzoo.toml no longer matches) is moved aside, not replaced.
    #[test]
    fn an_edited_file_is_moved_aside_and_an_unedited_one_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        let mut files = recorded_set(&dir);
        std::fs::write(dir.join("t_centerline.csv"), "edited by hand").unwrap();
        files.centerline = Some(line(5));
        files.lines = vec![(RACING_LINE.into(), line(6))];
        let w = files.write(&dir, WritePolicy::Merge).unwrap();
        assert_eq!(
            w.backed_up,
            [(
                "t_centerline.csv".to_string(),
                "t_centerline.csv.bak".to_string()
            )]
        );
        assert!(
            w.replaced.contains(&"t_racing_line.csv".to_string()),
            "{w:?}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("t_centerline.csv.bak")).unwrap(),
            "edited by hand"
        );
        let record = SetRecord::read(&dir.join(SETTINGS_FILE)).unwrap();
        assert!(!record.edited(
            "t_centerline.csv",
            &std::fs::read(dir.join("t_centerline.csv")).unwrap()
        ));
    }

    /// A set written by an earlier version records FNV-1a checksums: its unedited files are
    /// replaced, not taken for edited, and an edited one is still moved aside.
    #[test]
    fn an_earlier_versions_checksums_are_checked_with_their_algorithm() {
        let fnv1a = |bytes: &[u8]| {
            let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
            format!("fnv1a64:{h:016x}")
        };
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        let mut files = recorded_set(&dir);
        let mut old = SetRecord::read(&dir.join(SETTINGS_FILE)).unwrap();
        for (name, hash) in old.files.iter_mut() {
            *hash = fnv1a(&std::fs::read(dir.join(name)).unwrap());
        }
        std::fs::write(dir.join(SETTINGS_FILE), old.to_toml_string()).unwrap();
        std::fs::write(dir.join("t_racing_line.csv"), "edited by hand").unwrap();
        files.centerline = Some(line(5));
        let w = files.write(&dir, WritePolicy::Merge).unwrap();
        assert_eq!(
            w.backed_up,
            [(
                "t_racing_line.csv".to_string(),
                "t_racing_line.csv.bak".to_string()
            )],
            "{w:?}"
        );
        assert!(
            w.replaced.contains(&"t_centerline.csv".to_string()),
            "{w:?}"
        );
    }
}
