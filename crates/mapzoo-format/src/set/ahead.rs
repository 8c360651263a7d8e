//! Files of a set encoded ahead of its write: a build encodes what is already final (the
//! centerline CSV, the track-only map, most of global_waypoints.json, then the racing line's
//! files) on a second core while its later stages still run, so that little is left to
//! encode at the end. Each file is kept with what it was encoded from and used only for a set
//! holding the same content ([`TrackFiles::write_with`]), so the bytes written never depend
//! on what was encoded ahead.
//!
//! [`TrackFiles::write_with`]: crate::set::TrackFiles::write_with

use std::path::Path;

use crate::global::{GlobalJsonParts, GlobalWaypoints, JsonSection};
use crate::map::encode_gray_png;
use crate::set::checksum::content_hash;
use crate::set::files::CentMap;
use crate::waypoint::{self, Waypoint};

/// Files and JSON sections encoded ahead of a set's write (see the module documentation).
#[derive(Clone, Default)]
pub struct EncodedAhead {
    /// Waypoint CSVs: the waypoints, the CSV bytes and their [`content_hash`].
    csvs: Vec<(Vec<Waypoint>, Encoded)>,
    /// Track-only map images: the map, the PNG bytes and their [`content_hash`].
    gray_pngs: Vec<(CentMap, Encoded)>,
    /// Sections of global_waypoints.json.
    global: GlobalJsonParts,
}

/// A file's bytes and their [`content_hash`].
#[derive(Debug, Clone)]
pub(crate) struct Encoded {
    pub(crate) bytes: Vec<u8>,
    pub(crate) hash: String,
}

impl Encoded {
    fn of(bytes: Vec<u8>) -> Self {
        let hash = content_hash(&bytes);
        Encoded { bytes, hash }
    }
}

impl EncodedAhead {
    /// Encodes the waypoint CSV of `line` (nothing if a value is not finite: the set's
    /// encoding reports it).
    pub fn add_csv(&mut self, line: &[Waypoint]) {
        if waypoint::check_finite(line, Path::new("")).is_err() {
            return;
        }
        let csv = Encoded::of(waypoint::to_csv_string(line).into_bytes());
        replace(&mut self.csvs, line.to_vec(), csv, |a, b| a == b);
    }

    /// Encodes the PNG of a track-only map (nothing if it cannot be encoded: the set's
    /// encoding reports it).
    pub fn add_cent_map(&mut self, cent: &CentMap) {
        let Ok(png) = encode_gray_png(Path::new(""), cent.width, cent.height, &cent.gray) else {
            return;
        };
        replace(
            &mut self.gray_pngs,
            cent.clone(),
            Encoded::of(png),
            same_pixels,
        );
    }

    /// Encodes `sections` of `g`, a global_waypoints.json built from the parts known so far in
    /// the flavour it will be written in ([`GlobalJsonParts::encode`]).
    pub fn add_global(&mut self, g: GlobalWaypoints, sections: &[JsonSection]) {
        self.global.encode(g, sections);
    }

    /// Adds what `other` holds; its entries replace those here encoded from the same content.
    pub fn extend(&mut self, other: EncodedAhead) {
        for (line, csv) in other.csvs {
            replace(&mut self.csvs, line, csv, |a, b| a == b);
        }
        for (cent, png) in other.gray_pngs {
            replace(&mut self.gray_pngs, cent, png, same_pixels);
        }
        self.global.extend(other.global);
    }

    /// The CSV of `line`, if encoded ahead.
    pub(crate) fn csv(&self, line: &[Waypoint]) -> Option<&Encoded> {
        self.csvs.iter().find(|(l, _)| l == line).map(|(_, e)| e)
    }

    /// The PNG of `cent`'s pixels, if encoded ahead.
    pub(crate) fn gray_png(&self, cent: &CentMap) -> Option<&Encoded> {
        self.gray_pngs
            .iter()
            .find(|(c, _)| same_pixels(c, cent))
            .map(|(_, e)| e)
    }

    /// The JSON sections encoded ahead.
    pub fn global(&self) -> &GlobalJsonParts {
        &self.global
    }
}

impl std::fmt::Debug for EncodedAhead {
    /// What is held, not the bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EncodedAhead")
            .field("csvs", &self.csvs.len())
            .field("gray_pngs", &self.gray_pngs.len())
            .field("global", &self.global.sections())
            .finish()
    }
}

/// Puts `(key, value)` last in `entries`, in place of the entries whose key is `same` as `key`.
fn replace<K, V>(entries: &mut Vec<(K, V)>, key: K, value: V, same: impl Fn(&K, &K) -> bool) {
    entries.retain(|(k, _)| !same(k, &key));
    entries.push((key, value));
}

/// Whether two track-only maps have the same PNG (their YAMLs do not go into it).
fn same_pixels(a: &CentMap, b: &CentMap) -> bool {
    (a.width, a.height) == (b.width, b.height) && a.gray == b.gray
}
