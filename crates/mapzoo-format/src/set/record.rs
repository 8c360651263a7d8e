//! `mapzoo.toml`: how a set was built, inside the set (DESIGN §2, issue 12).
//!
//! The file records the mapzoo version, the track, the file flavour, the build settings the
//! pipeline chose (profile, free-space rule, start and direction, the configuration keys that
//! differ from the profile's defaults; an opaque table here) and a checksum of every file
//! mapzoo wrote, so a later run can tell a file the user edited from one it may replace.
//! The Race Stack and the dataset layout ignore the file.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{FormatError, Result};
use crate::flavor::Flavor;
use crate::map::FreeRule;
use crate::set::checksum::AnyHasher;

/// The name of the settings file inside a set.
pub const SETTINGS_FILE: &str = "mapzoo.toml";

/// The largest `mapzoo.toml` read, bytes (a written one is about 1 kB).
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// Bytes read at a time by [`file_holds`] and [`file_matches`].
const CHUNK: usize = 1 << 16;

/// Feeds the regular file `path` (symlinks followed; never a device, a FIFO or a folder) to
/// `f` chunk by chunk, in order, until `f` says stop (false); `None` when it is no regular
/// file or cannot be read.
fn scan_regular(path: &Path, mut f: impl FnMut(&[u8]) -> bool) -> Option<()> {
    use std::io::Read;
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => return Some(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if !f(&buf[..n]) {
            return Some(());
        }
    }
}

/// Whether `path` is a regular file holding exactly the bytes of `pieces` in order: read a
/// chunk at a time, never whole (a set's JSON is megabytes).
pub(crate) fn file_holds(path: &Path, pieces: &[&[u8]]) -> bool {
    let len: usize = pieces.iter().map(|p| p.len()).sum();
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == len as u64) {
        return false;
    }
    // the bytes of `pieces` not yet matched: the piece and the offset in it
    let (mut at, mut off) = (0, 0);
    let (mut same, mut seen) = (true, 0);
    let read = scan_regular(path, |mut chunk| {
        seen += chunk.len();
        while !chunk.is_empty() {
            let Some(piece) = pieces.get(at) else {
                same = false;
                return false;
            };
            let n = chunk.len().min(piece.len() - off);
            if chunk[..n] != piece[off..off + n] {
                same = false;
                return false;
            }
            (chunk, off) = (&chunk[n..], off + n);
            if off == piece.len() {
                (at, off) = (at + 1, 0);
            }
        }
        true
    });
    read.is_some() && same && seen == len
}

/// Whether the regular file `path` has the checksum `recorded` (of this version's algorithm
/// or an earlier one, [`hash_matches`](super::checksum::hash_matches)), read a chunk at a
/// time; `None` when it is no regular file or cannot be read.
pub(crate) fn file_matches(path: &Path, recorded: &str) -> Option<bool> {
    let Some(mut hasher) = AnyHasher::for_checksum(recorded) else {
        return Some(false);
    };
    scan_regular(path, |chunk| {
        hasher.update(chunk);
        true
    })?;
    Some(hasher.finish() == recorded)
}

/// The content of `mapzoo.toml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SetRecord {
    /// The mapzoo version that wrote the set.
    pub mapzoo_version: String,
    /// The track name.
    pub track: String,
    /// The flavour of the set's files (`flavor = "ros1"` or `"ros2"`; default ROS 1).
    pub flavor: Flavor,
    /// The build settings, owned by the pipeline: top-level keys such as `profile`,
    /// `free_rule`, `start`, `reverse` and a `[config]` table.
    pub settings: toml::Table,
    /// Every file mapzoo wrote with the set and its [`content_hash`], by name.
    pub files: BTreeMap<String, String>,
}

/// Keys of the file this type reads itself; the rest are [`SetRecord::settings`].
const OWN_KEYS: [&str; 4] = ["mapzoo_version", "track", "flavor", "files"];

impl SetRecord {
    /// A record for `track` written by this mapzoo version, flavour ROS 1, no files yet.
    pub fn new(track: &str, settings: toml::Table) -> Self {
        SetRecord {
            mapzoo_version: env!("CARGO_PKG_VERSION").to_string(),
            track: track.to_string(),
            flavor: Flavor::Ros1,
            settings,
            files: BTreeMap::new(),
        }
    }

    /// Reads `mapzoo.toml` at `path`: a regular file of at most [`MAX_RECORD_BYTES`].
    pub fn read(path: &Path) -> Result<Self> {
        let meta = std::fs::metadata(path).map_err(|e| FormatError::io(path, e))?;
        if !meta.is_file() {
            return Err(FormatError::bad_path(
                path,
                "is not a regular file; mapzoo.toml is a small text file mapzoo writes (remove it)",
            ));
        }
        if meta.len() > MAX_RECORD_BYTES {
            return Err(FormatError::invalid(
                path,
                format!(
                    "is {} bytes, more than a settings record can be ({MAX_RECORD_BYTES}); remove it",
                    meta.len()
                ),
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, e))?;
        Self::from_toml_str(&text, path)
    }

    /// Parses the text; `path` names the file in errors.
    pub fn from_toml_str(text: &str, path: &Path) -> Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        crate::nesting::check_nesting(text, crate::nesting::Syntax::Toml, path)?;
        let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            FormatError::syntax(path, None, None, format!("not valid TOML: {}", e.message()))
        })?;
        let string = |table: &toml::Table, key: &str| -> Result<Option<String>> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(FormatError::bad_value(
                    path,
                    key,
                    None,
                    format!("field \"{key}\" must be a string (found {other})"),
                )),
            }
        };
        let mapzoo_version = string(&table, "mapzoo_version")?.unwrap_or_default();
        let track = string(&table, "track")?.unwrap_or_default();
        let flavor = match string(&table, "flavor")?.as_deref() {
            None | Some("ros1") => Flavor::Ros1,
            Some("ros2") => Flavor::Ros2,
            Some(other) => {
                return Err(FormatError::bad_value(
                    path,
                    "flavor",
                    None,
                    format!("field \"flavor\" must be \"ros1\" or \"ros2\" (found {other:?})"),
                ))
            }
        };
        let mut files = BTreeMap::new();
        match table.get("files") {
            None => {}
            Some(toml::Value::Table(t)) => {
                for (name, v) in t {
                    let toml::Value::String(h) = v else {
                        return Err(FormatError::bad_value(
                            path,
                            format!("files.{name}"),
                            None,
                            format!("[files] entry {name:?} must be a checksum string (found {v})"),
                        ));
                    };
                    files.insert(name.clone(), h.clone());
                }
            }
            Some(other) => {
                return Err(FormatError::bad_value(
                    path,
                    "files",
                    None,
                    format!("\"files\" must be a table of file = \"checksum\" (found {other})"),
                ))
            }
        }
        for k in OWN_KEYS {
            table.remove(k);
        }
        Ok(SetRecord {
            mapzoo_version,
            track,
            flavor,
            settings: table,
            files,
        })
    }

    /// The file's text: a comment saying what it is, the own keys, the settings, `[files]`.
    pub fn to_toml_string(&self) -> String {
        let mut head = toml::Table::new();
        head.insert("mapzoo_version".into(), self.mapzoo_version.clone().into());
        head.insert("track".into(), self.track.clone().into());
        head.insert("flavor".into(), self.flavor.name().into());
        let mut text = String::from(
            "# How mapzoo built this set. `mapzoo regen` and `mapzoo check` rebuild with these\n\
             # settings unless a flag overrides them; the Race Stack ignores this file.\n",
        );
        text.push_str(&toml::to_string(&head).unwrap_or_default());
        let settings = toml::to_string(&self.settings).unwrap_or_default();
        if !settings.is_empty() {
            text.push_str(&settings);
        }
        let mut files = toml::Table::new();
        for (name, hash) in &self.files {
            files.insert(name.clone(), hash.clone().into());
        }
        let mut wrapper = toml::Table::new();
        wrapper.insert("files".into(), toml::Value::Table(files));
        text.push_str(
            "\n# The files mapzoo wrote, each with a checksum: a file whose checksum differs\n\
             # was edited, and mapzoo moves it aside (<name>.bak) instead of replacing it.\n",
        );
        text.push_str(&toml::to_string(&wrapper).unwrap_or_default());
        text
    }

    /// The recorded free-space rule (`free_rule = "map-server"` or `"nonzero"`), if any.
    pub fn free_rule(&self) -> Option<FreeRule> {
        match self.settings.get("free_rule") {
            Some(toml::Value::String(s)) => s.parse().ok(),
            _ => None,
        }
    }

    /// Whether file `name` was written by mapzoo and its current `bytes` differ from what
    /// was written (the user edited it). A file the record does not list is not "edited".
    pub fn edited(&self, name: &str, bytes: &[u8]) -> bool {
        self.files
            .get(name)
            .is_some_and(|h| !super::checksum::hash_matches(h, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::set::checksum::content_hash;

    #[test]
    fn round_trips_and_keeps_unknown_settings() {
        let mut settings = toml::Table::new();
        settings.insert("profile".into(), "racestack".into());
        settings.insert("free_rule".into(), "nonzero".into());
        let mut config = toml::Table::new();
        config.insert("x".into(), 1.5.into());
        settings.insert("config".into(), toml::Value::Table(config));
        let mut r = SetRecord::new("f", settings);
        r.flavor = Flavor::Ros2;
        r.files.insert("f.png".into(), content_hash(b"png"));
        let text = r.to_toml_string();
        let back = SetRecord::from_toml_str(&text, Path::new("mapzoo.toml")).unwrap();
        assert_eq!(back, r, "{text}");
        assert_eq!(back.free_rule(), Some(FreeRule::Nonzero));
        assert!(!back.edited("f.png", b"png"));
        assert!(back.edited("f.png", b"png, edited"));
        assert!(!back.edited("other.txt", b"anything"));
    }

    /// A set written by an earlier version (FNV-1a checksums) is checked with its algorithm.
    #[test]
    fn earlier_checksums_are_still_checked() {
        let mut r = SetRecord::new("f", toml::Table::new());
        r.files
            .insert("a.csv".into(), "fnv1a64:af63dc4c8601ec8c".into());
        assert!(!r.edited("a.csv", b"a"));
        assert!(r.edited("a.csv", b"b"));
    }

    #[test]
    fn bad_fields_are_named() {
        let p = Path::new("s/mapzoo.toml");
        for (text, field) in [
            ("flavor = \"ros3\"\n", "flavor"),
            ("track = 3\n", "track"),
            ("files = 1\n", "files"),
            ("[files]\n\"a.csv\" = 2\n", "a.csv"),
            ("= broken", "TOML"),
        ] {
            let err = SetRecord::from_toml_str(text, p).unwrap_err().to_string();
            assert!(err.contains("mapzoo.toml") && err.contains(field), "{err}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// The chunked reads agree with reading the whole file: the same checksum, and a file
        /// holds its bytes in any split into pieces, not with a byte changed, cut or added.
        #[test]
        fn chunked_reads_agree_with_whole_reads(
            len in 0usize..3 * CHUNK,
            seed in proptest::prelude::any::<u64>(),
            cuts in proptest::collection::vec(0usize..3 * CHUNK, 0..6),
            at in proptest::prelude::any::<usize>(),
        ) {
            let mut x = seed | 1;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            let tmp = tempfile::tempdir().unwrap();
            let path = tmp.path().join("f");
            std::fs::write(&path, &bytes).unwrap();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(len)).collect();
            cuts.extend([0, len]);
            cuts.sort_unstable();
            let pieces: Vec<&[u8]> = cuts.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
            let hash = content_hash(&bytes);
            proptest::prop_assert_eq!(file_matches(&path, &hash), Some(true));
            proptest::prop_assert_eq!(file_matches(&path, &content_hash(b"other")), Some(false));
            proptest::prop_assert!(file_holds(&path, &pieces));
            if len > 0 {
                let mut changed = bytes.clone();
                changed[at % len] ^= 1;
                proptest::prop_assert!(!file_holds(&path, &[&changed]));
                proptest::prop_assert!(!file_holds(&path, &[&bytes[..len - 1]]));
            }
            proptest::prop_assert!(!file_holds(&path, &[&bytes, b"+"]));
        }
    }

    /// A folder or a missing file holds nothing and has no checksum.
    #[test]
    fn only_regular_files_are_read() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(!file_holds(tmp.path(), &[]));
        let hash = content_hash(b"");
        assert_eq!(file_matches(tmp.path(), &hash), None);
        assert_eq!(file_matches(&tmp.path().join("missing"), &hash), None);
    }
}
