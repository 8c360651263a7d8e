//! The bound on how deeply a YAML, JSON or TOML file may nest, checked by one O(n) pass
//! over the text before any parser sees it.
//!
//! A map YAML of `x: [[[[…` a million levels deep fits in 1 MiB, and libyaml (under
//! serde_yaml_ng) spends time proportional to the nesting on every token: such a file ran
//! for minutes before serde_yaml_ng's own depth limit was reached. The files of a set and
//! the configs nest a few levels (the deepest real one, a ROS 2 `global_waypoints.json`,
//! six), so anything past [`MAX_NESTING_DEPTH`] is refused with the line and column where
//! the limit was passed, before parsing.
//!
//! The YAML pass follows libyaml's scanner (0.2.5, as unsafe-libyaml ports it) token by
//! token: where a quoted or plain scalar, a block scalar or a comment starts and ends, the
//! flow level and the stack of block indentations. A bracket inside a scalar is not
//! structure, a bracket the scanner would read as structure is never skipped, so the depth
//! counted is at least the parser's. Block collections count one level per indentation
//! (two where a sequence shares its mapping's indentation), flow collections one per
//! bracket. JSON counts brackets outside strings; TOML adds dotted-key and table-header
//! levels to brackets and inline tables.
//!
//! YAML aliases are bounded separately ([`parse_yaml`]): `a: &a [x, x, …]` with
//! `b: [*a, *a, …]` expands to the square of its size (a 50 kB file ran out of memory), so
//! the document is first walked once, counting nodes after expansion, against
//! [`yaml_node_budget`].

use std::cell::Cell;
use std::path::Path;

use crate::error::{FormatError, Result};

/// The deepest nesting read, in levels of brackets, braces, block indentation or dotted
/// keys. Real files of a set need at most six.
pub const MAX_NESTING_DEPTH: usize = 64;

/// The languages [`check_nesting`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// YAML 1.1 as libyaml reads it (map YAML, sector files, vehicle parameters).
    Yaml,
    /// JSON (global_waypoints.json, the values of a TUM ini file).
    Json,
    /// TOML 1.0 (mapzoo.toml, pipeline.toml, `--config`).
    Toml,
}

impl Syntax {
    fn name(self) -> &'static str {
        match self {
            Syntax::Yaml => "YAML",
            Syntax::Json => "JSON",
            Syntax::Toml => "TOML",
        }
    }
}

/// Where the depth first passed the limit: 1-based line and column (characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TooDeepAt {
    line: usize,
    column: usize,
}

/// Checks that `text` nests at most [`MAX_NESTING_DEPTH`] levels; else
/// [`FormatError::TooDeep`] naming `path`, the line and the column where the limit is
/// passed. Linear in the length of `text`; nothing is parsed.
pub fn check_nesting(text: &str, syntax: Syntax, path: &Path) -> Result<()> {
    check_nesting_limit(text, syntax, MAX_NESTING_DEPTH, path)
}

/// [`check_nesting`] with another limit (tests use small ones).
pub fn check_nesting_limit(text: &str, syntax: Syntax, limit: usize, path: &Path) -> Result<()> {
    let at = match syntax {
        Syntax::Yaml => YamlScan::new(text, limit).run(),
        Syntax::Json => json_depth(text.as_bytes(), limit),
        Syntax::Toml => toml_depth(text.as_bytes(), limit),
    };
    match at {
        None => Ok(()),
        Some(TooDeepAt { line, column }) => Err(FormatError::TooDeep {
            path: path.to_path_buf(),
            line,
            column,
            limit,
            what: format!(
                "line {line}, column {column}: the {} nests deeper than {limit} levels \
                 (brackets, braces, indentation or dotted keys); no map, set or config file \
                 needs more than a few, so it was not parsed: check that this is the right \
                 file, or flatten it",
                syntax.name()
            ),
        }),
    }
}

/// The most nodes a YAML document of `len` bytes may hold once its aliases are expanded:
/// twice what a document of that size can hold written out (one node a byte, `{a,b}`),
/// plus 4096 for a small file that shares a block a few times.
pub fn yaml_node_budget(len: usize) -> usize {
    2 * len + 4096
}

/// Parses YAML text into a value after [`check_nesting`] and the alias bound: a document
/// whose aliases expand past [`yaml_node_budget`] nodes is [`FormatError::TooManyNodes`].
/// Every other error is serde_yaml_ng's, as [`crate::error::yaml_syntax`] words it.
pub fn parse_yaml(text: &str, path: &Path) -> Result<serde_yaml_ng::Value> {
    parse_yaml_with(text, path, |e| crate::error::yaml_syntax(path, &e))
}

/// [`parse_yaml`] with the caller's wording of a serde_yaml_ng error.
pub(crate) fn parse_yaml_with(
    text: &str,
    path: &Path,
    syntax_error: impl FnOnce(serde_yaml_ng::Error) -> FormatError,
) -> Result<serde_yaml_ng::Value> {
    check_nesting(text, Syntax::Yaml, path)?;
    check_alias_expansion(text, yaml_node_budget(text.len()), path)?;
    serde_yaml_ng::from_str(text).map_err(syntax_error)
}

/// Walks the document once, counting nodes with aliases expanded, and stops at `budget`.
/// Other errors are left to the parse that follows.
fn check_alias_expansion(text: &str, budget: usize, path: &Path) -> Result<()> {
    // Without an alias nothing expands; skip the second walk.
    if !text.contains('*') {
        return Ok(());
    }
    let left = Cell::new(budget);
    let over = Cell::new(false);
    let counter = NodeCounter {
        left: &left,
        over: &over,
    };
    let _ = serde::de::DeserializeSeed::deserialize(
        counter,
        serde_yaml_ng::Deserializer::from_str(text),
    );
    if over.get() {
        return Err(FormatError::TooManyNodes {
            path: path.to_path_buf(),
            limit: budget,
            what: format!(
                "its aliases (*name) expand to more than {budget} values, more than a file \
                 of {} bytes can hold written out (an alias bomb?); it was not parsed: write \
                 the repeated parts out or check that this is the right file",
                text.len()
            ),
        });
    }
    Ok(())
}

/// Counts nodes down from a budget; an error once it is spent.
#[derive(Clone, Copy)]
struct NodeCounter<'a> {
    left: &'a Cell<usize>,
    over: &'a Cell<bool>,
}

impl NodeCounter<'_> {
    fn take<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        match self.left.get().checked_sub(1) {
            Some(n) => {
                self.left.set(n);
                Ok(())
            }
            None => {
                self.over.set(true);
                Err(E::custom("node budget spent"))
            }
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for NodeCounter<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NodeCounter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_i128<E: serde::de::Error>(self, _: i128) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_u128<E: serde::de::Error>(self, _: u128) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_none<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        self.take()
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        self.take()?;
        serde::de::DeserializeSeed::deserialize(self, d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<(), D::Error> {
        self.take()?;
        serde::de::DeserializeSeed::deserialize(self, d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<(), A::Error> {
        self.take()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<(), A::Error> {
        self.take()?;
        while map.next_entry_seed(self, self)?.is_some() {}
        Ok(())
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(
        self,
        data: A,
    ) -> std::result::Result<(), A::Error> {
        use serde::de::VariantAccess;
        // A tagged node (`!tag value`): the tag, then the value.
        self.take()?;
        let (_, variant) = data.variant::<serde::de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}

/// A byte-position cursor that counts lines and columns as libyaml does (columns in
/// characters; `\r\n`, `\r`, `\n`, U+0085, U+2028 and U+2029 end a line).
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    col: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        let b = text.as_bytes();
        // libyaml's reader drops a leading byte-order mark before counting columns.
        let i = if b.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        Cursor {
            b,
            i,
            line: 0,
            col: 0,
        }
    }

    fn at(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }

    fn eof(&self) -> bool {
        self.i >= self.b.len()
    }

    /// The length in bytes of the line break at offset `k`, 0 if none.
    fn break_len(&self, k: usize) -> usize {
        match (self.at(k), self.at(k + 1), self.at(k + 2)) {
            (b'\r', b'\n', _) => 2,
            (b'\r', _, _) | (b'\n', _, _) => 1,
            (0xC2, 0x85, _) => 2,
            (0xE2, 0x80, 0xA8) | (0xE2, 0x80, 0xA9) => 3,
            _ => 0,
        }
    }

    fn is_break(&self, k: usize) -> bool {
        self.break_len(k) > 0
    }

    fn is_blank(&self, k: usize) -> bool {
        matches!(self.at(k), b' ' | b'\t')
    }

    /// Blank, line break or end of text.
    fn is_blankz(&self, k: usize) -> bool {
        self.i + k >= self.b.len() || self.is_blank(k) || self.is_break(k)
    }

    /// Moves past one character (not a line break).
    fn skip(&mut self) {
        if self.eof() {
            return;
        }
        let lead = self.b[self.i];
        let n = match lead {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        self.i = (self.i + n).min(self.b.len());
        self.col += 1;
    }

    /// Moves past one line break.
    fn skip_line(&mut self) {
        let n = self.break_len(0);
        if n > 0 {
            self.i += n;
            self.line += 1;
            self.col = 0;
        }
    }

    /// Moves past a line break or one character.
    fn skip_any(&mut self) {
        if self.is_break(0) {
            self.skip_line();
        } else {
            self.skip();
        }
    }

    fn here(&self) -> TooDeepAt {
        TooDeepAt {
            line: self.line + 1,
            column: self.col + 1,
        }
    }

    /// `---` or `...` at column 0 followed by a blank, a break or the end.
    fn document_indicator(&self) -> bool {
        self.col == 0
            && ((self.at(0) == b'-' && self.at(1) == b'-' && self.at(2) == b'-')
                || (self.at(0) == b'.' && self.at(1) == b'.' && self.at(2) == b'.'))
            && self.is_blankz(3)
    }
}

/// A possible simple key of the block context: where it started.
#[derive(Clone, Copy)]
struct SimpleKey {
    col: usize,
    line: usize,
    index: usize,
    /// The deepest flow nesting inside the key so far (a flow collection may be a key;
    /// its mapping is known only at the `:`).
    flow_depth: usize,
}

/// libyaml's scanner reduced to what decides nesting.
struct YamlScan<'a> {
    c: Cursor<'a>,
    limit: usize,
    flow: usize,
    /// Open flow collections, innermost last: (a sequence, holding a `key: value` pair
    /// entry, which the parser makes a one-pair mapping, one more level).
    flows: Vec<(bool, bool)>,
    /// Open pair entries of flow sequences.
    pairs: usize,
    /// Block indentation stack: (column, a sequence (else a mapping), whether an
    /// indentless sequence is open in the mapping).
    indents: Vec<(usize, bool, bool)>,
    /// Levels the stack holds (one per entry, one more per indentless sequence).
    block_depth: usize,
    simple_key_allowed: bool,
    /// The possible simple key of the block context (flow level 0).
    key: Option<SimpleKey>,
}

impl<'a> YamlScan<'a> {
    fn new(text: &'a str, limit: usize) -> Self {
        YamlScan {
            c: Cursor::new(text),
            limit,
            flow: 0,
            flows: Vec::new(),
            pairs: 0,
            indents: Vec::new(),
            block_depth: 0,
            simple_key_allowed: true,
            key: None,
        }
    }

    fn indent(&self) -> isize {
        self.indents.last().map_or(-1, |&(c, _, _)| c as isize)
    }

    fn too_deep(&mut self) -> Option<TooDeepAt> {
        let flow = self.flow + self.pairs;
        if let Some(k) = &mut self.key {
            k.flow_depth = k.flow_depth.max(flow);
        }
        (flow + self.block_depth > self.limit).then(|| self.c.here())
    }

    fn roll_indent(&mut self, column: usize, seq: bool) -> Option<TooDeepAt> {
        if self.flow == 0 && self.indent() < column as isize {
            self.indents.push((column, seq, false));
            self.block_depth += 1;
            return self.too_deep();
        }
        None
    }

    fn unroll_indent(&mut self, column: isize) {
        if self.flow > 0 {
            return;
        }
        while self.indent() > column {
            if let Some((_, _, indentless)) = self.indents.pop() {
                self.block_depth -= 1 + usize::from(indentless);
            }
        }
    }

    /// A key at the column of a mapping ends the indentless sequence open in it.
    fn end_indentless(&mut self, column: usize) {
        if self.flow > 0 {
            return;
        }
        if let Some((c, false, indentless @ true)) = self.indents.last_mut() {
            if *c == column {
                *indentless = false;
                self.block_depth -= 1;
            }
        }
    }

    /// A `?` or `:` in a flow sequence makes its entry a one-pair mapping.
    fn open_pair(&mut self) -> Option<TooDeepAt> {
        if let Some((true, pair @ false)) = self.flows.last_mut() {
            *pair = true;
            self.pairs += 1;
            return self.too_deep();
        }
        None
    }

    /// Saves a possible simple key at the cursor (only the block context's matters here).
    fn save_simple_key(&mut self) {
        if self.flow == 0 && self.simple_key_allowed {
            self.key = Some(SimpleKey {
                col: self.c.col,
                line: self.c.line,
                index: self.c.i,
                flow_depth: 0,
            });
        }
    }

    fn remove_simple_key(&mut self) {
        if self.flow == 0 {
            self.key = None;
        }
    }

    fn stale_simple_keys(&mut self) {
        if let Some(k) = self.key {
            if k.line < self.c.line || k.index + 1024 < self.c.i {
                self.key = None;
            }
        }
    }

    fn run(mut self) -> Option<TooDeepAt> {
        loop {
            self.scan_to_next_token();
            if self.c.eof() {
                return None;
            }
            self.stale_simple_keys();
            self.unroll_indent(self.c.col as isize);
            if let Some(at) = self.fetch_token() {
                return Some(at);
            }
        }
    }

    /// Blanks, comments and line breaks before the next token.
    fn scan_to_next_token(&mut self) {
        loop {
            if self.c.col == 0 && self.c.b[self.c.i..].starts_with(b"\xEF\xBB\xBF") {
                self.c.skip();
            }
            // Tabs are skipped too where libyaml reports them as an error: either way
            // nothing after them nests less.
            while self.c.is_blank(0) {
                self.c.skip();
            }
            if self.c.at(0) == b'#' {
                while !self.c.eof() && !self.c.is_break(0) {
                    self.c.skip();
                }
            }
            if !self.c.is_break(0) {
                return;
            }
            self.c.skip_line();
            if self.flow == 0 {
                self.simple_key_allowed = true;
            }
        }
    }

    fn fetch_token(&mut self) -> Option<TooDeepAt> {
        let ch = self.c.at(0);
        let blankz1 = self.c.is_blankz(1);
        if self.c.col == 0 && ch == b'%' {
            // A directive: its line holds nothing that nests.
            self.unroll_indent(-1);
            self.remove_simple_key();
            self.simple_key_allowed = false;
            while !self.c.eof() && !self.c.is_break(0) {
                self.c.skip();
            }
            return None;
        }
        if self.c.document_indicator() {
            self.unroll_indent(-1);
            self.remove_simple_key();
            self.simple_key_allowed = false;
            for _ in 0..3 {
                self.c.skip();
            }
            return None;
        }
        match ch {
            b'[' | b'{' => {
                self.save_simple_key();
                self.flow += 1;
                self.flows.push((ch == b'[', false));
                self.simple_key_allowed = true;
                let at = self.too_deep();
                self.c.skip();
                at
            }
            b']' | b'}' => {
                self.flow = self.flow.saturating_sub(1);
                if let Some((_, true)) = self.flows.pop() {
                    self.pairs -= 1;
                }
                self.simple_key_allowed = false;
                self.c.skip();
                None
            }
            b',' => {
                if let Some((true, pair @ true)) = self.flows.last_mut() {
                    *pair = false;
                    self.pairs -= 1;
                }
                self.remove_simple_key();
                self.simple_key_allowed = true;
                self.c.skip();
                None
            }
            b'-' if blankz1 => {
                let mut at = None;
                if self.flow == 0 {
                    let col = self.c.col;
                    if self.indent() == col as isize {
                        // An indentless sequence: the parser opens one more level.
                        if let Some((_, false, indentless @ false)) = self.indents.last_mut() {
                            *indentless = true;
                            self.block_depth += 1;
                            at = self.too_deep();
                        }
                    } else {
                        at = self.roll_indent(col, true);
                    }
                }
                self.simple_key_allowed = true;
                self.remove_simple_key();
                self.c.skip();
                at
            }
            b'?' if self.flow > 0 || blankz1 => {
                self.end_indentless(self.c.col);
                let at = self
                    .roll_indent(self.c.col, false)
                    .or_else(|| self.open_pair());
                self.simple_key_allowed = self.flow == 0;
                self.remove_simple_key();
                self.c.skip();
                at
            }
            b':' if self.flow > 0 || blankz1 => {
                let at = if self.flow > 0 {
                    self.simple_key_allowed = false;
                    self.open_pair()
                } else if let Some(k) = self.key.take() {
                    // The key's own flow levels sit inside the mapping it opens.
                    self.end_indentless(k.col);
                    self.simple_key_allowed = false;
                    self.roll_indent(k.col, false).or_else(|| {
                        (k.flow_depth + self.block_depth > self.limit).then(|| self.c.here())
                    })
                } else {
                    self.simple_key_allowed = true;
                    self.roll_indent(self.c.col, false)
                };
                self.c.skip();
                at
            }
            b'*' | b'&' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                self.c.skip();
                while self.c.at(0).is_ascii_alphanumeric() || matches!(self.c.at(0), b'_' | b'-') {
                    self.c.skip();
                }
                None
            }
            b'!' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                self.scan_tag();
                None
            }
            b'|' | b'>' if self.flow == 0 => {
                self.remove_simple_key();
                self.simple_key_allowed = true;
                self.scan_block_scalar();
                None
            }
            b'\'' | b'"' => {
                self.save_simple_key();
                self.simple_key_allowed = false;
                self.scan_quoted(ch == b'\'');
                None
            }
            _ => {
                let plain = !(self.c.is_blankz(0) || b"-?:,[]{}#&*!|>'\"%@`".contains(&ch))
                    || (ch == b'-' && !self.c.is_blank(1))
                    || (self.flow == 0 && (ch == b'?' || ch == b':') && !blankz1);
                if plain {
                    self.save_simple_key();
                    self.simple_key_allowed = false;
                    if self.scan_plain() {
                        self.simple_key_allowed = true;
                    }
                } else {
                    // A character that starts no token: libyaml stops here.
                    self.c.skip();
                }
                None
            }
        }
    }

    /// A tag: `!<verbatim>` or a handle and suffix of URI characters.
    fn scan_tag(&mut self) {
        self.c.skip();
        let uri = |b: u8, verbatim: bool| {
            b.is_ascii_alphanumeric()
                || b";/?:@&=+$.%!~*'()_-".contains(&b)
                || (verbatim && b",[]".contains(&b))
        };
        if self.c.at(0) == b'<' {
            self.c.skip();
            while uri(self.c.at(0), true) {
                self.c.skip();
            }
            if self.c.at(0) == b'>' {
                self.c.skip();
            }
        } else {
            while uri(self.c.at(0), false) {
                self.c.skip();
            }
        }
    }

    /// A single- or double-quoted scalar, which may span lines.
    fn scan_quoted(&mut self, single: bool) {
        self.c.skip();
        loop {
            if self.c.eof() || self.c.document_indicator() {
                // libyaml stops with an error here.
                return;
            }
            match self.c.at(0) {
                b'\'' if single && self.c.at(1) == b'\'' => {
                    self.c.skip();
                    self.c.skip();
                }
                b'\'' if single => {
                    self.c.skip();
                    return;
                }
                b'"' if !single => {
                    self.c.skip();
                    return;
                }
                b'\\' if !single => {
                    self.c.skip();
                    self.c.skip_any();
                }
                _ => self.c.skip_any(),
            }
        }
    }

    /// A plain scalar; returns whether it ended after a line break (libyaml then allows a
    /// simple key again).
    fn scan_plain(&mut self) -> bool {
        let indent = self.indent() + 1;
        let mut leading_blanks = false;
        loop {
            if self.c.document_indicator() || self.c.at(0) == b'#' {
                break;
            }
            while !self.c.is_blankz(0) {
                let ch = self.c.at(0);
                if (ch == b':' && self.c.is_blankz(1))
                    || (self.flow > 0 && (b",[]{}".contains(&ch)))
                    || (self.flow > 0 && ch == b':' && b",?[]{}".contains(&self.c.at(1)))
                {
                    return leading_blanks;
                }
                leading_blanks = false;
                self.c.skip();
            }
            if !(self.c.is_blank(0) || self.c.is_break(0)) {
                break;
            }
            while self.c.is_blank(0) || self.c.is_break(0) {
                if self.c.is_blank(0) {
                    self.c.skip();
                } else {
                    self.c.skip_line();
                    leading_blanks = true;
                }
            }
            if self.flow == 0 && (self.c.col as isize) < indent {
                break;
            }
        }
        leading_blanks
    }

    /// A literal (`|`) or folded (`>`) block scalar: its header, then every line indented
    /// at least as far as its content.
    fn scan_block_scalar(&mut self) {
        self.c.skip();
        let mut increment = 0usize;
        if matches!(self.c.at(0), b'+' | b'-') {
            self.c.skip();
            if self.c.at(0).is_ascii_digit() {
                increment = usize::from(self.c.at(0) - b'0');
                self.c.skip();
            }
        } else if self.c.at(0).is_ascii_digit() {
            increment = usize::from(self.c.at(0) - b'0');
            self.c.skip();
            if matches!(self.c.at(0), b'+' | b'-') {
                self.c.skip();
            }
        }
        while self.c.is_blank(0) {
            self.c.skip();
        }
        if self.c.at(0) == b'#' {
            while !self.c.eof() && !self.c.is_break(0) {
                self.c.skip();
            }
        }
        if !self.c.is_break(0) {
            // Text after the header (or the end): libyaml stops, or the scalar is empty.
            return;
        }
        self.c.skip_line();
        let parent = self.indent();
        let mut indent = if increment > 0 {
            if parent >= 0 {
                parent as usize + increment
            } else {
                increment
            }
        } else {
            0
        };
        self.block_scalar_breaks(&mut indent, parent);
        while self.c.col == indent && !self.c.eof() {
            while !self.c.eof() && !self.c.is_break(0) {
                self.c.skip();
            }
            if self.c.eof() {
                return;
            }
            self.c.skip_line();
            self.block_scalar_breaks(&mut indent, parent);
        }
    }

    /// The indentation and empty lines before a block scalar line; sets `indent` from the
    /// first non-empty line when it is not given.
    fn block_scalar_breaks(&mut self, indent: &mut usize, parent: isize) {
        let mut max_indent = 0;
        loop {
            while (*indent == 0 || self.c.col < *indent) && self.c.at(0) == b' ' {
                self.c.skip();
            }
            max_indent = max_indent.max(self.c.col);
            if !self.c.is_break(0) {
                break;
            }
            self.c.skip_line();
        }
        if *indent == 0 {
            *indent = max_indent.max((parent + 1).max(1) as usize);
        }
    }
}

/// The depth of JSON text: brackets and braces outside strings.
fn json_depth(b: &[u8], limit: usize) -> Option<TooDeepAt> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let (mut line, mut line_start) = (0usize, 0usize);
    for (i, &ch) in b.iter().enumerate() {
        if ch == b'\n' {
            line += 1;
            line_start = i + 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if ch == b'\\' {
                escaped = true;
            } else if ch == b'"' {
                in_string = false;
            }
            continue;
        }
        match ch {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(TooDeepAt {
                        line: line + 1,
                        column: char_column(&b[line_start..i]) + 1,
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The number of characters in a UTF-8 byte run.
fn char_column(run: &[u8]) -> usize {
    run.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

/// The depth of TOML text: table-header keys, plus dotted keys, arrays and inline tables
/// of the current entry (an array may span lines).
fn toml_depth(b: &[u8], limit: usize) -> Option<TooDeepAt> {
    let mut i = 0usize;
    let (mut line, mut line_start) = (0usize, 0usize);
    // Levels of the current [table] header.
    let mut table = 0usize;
    // Open arrays and inline tables: (is an inline table, dots in its current key).
    let mut open: Vec<(bool, usize)> = Vec::new();
    // Levels of the line's key, and whether a key is being read.
    let mut key_levels = 0usize;
    let mut in_key = true;
    let depth = |table: usize, key_levels: usize, open: &[(bool, usize)]| {
        table + key_levels + open.iter().map(|&(_, dots)| 1 + dots).sum::<usize>()
    };
    while i < b.len() {
        let ch = b[i];
        let at = |i: usize| TooDeepAt {
            line: line + 1,
            column: char_column(&b[line_start..i]) + 1,
        };
        match ch {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                if open.is_empty() {
                    key_levels = 0;
                    in_key = true;
                }
                i += 1;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let delim = [ch; 3];
                let triple = b[i..].starts_with(&delim);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if b[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    if ch == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == ch && (!triple || b[i..].starts_with(&delim)) {
                        i += 1;
                        if triple {
                            // The closing quotes, with up to two quotes of content before them.
                            while i < b.len() && b[i] == ch {
                                i += 1;
                            }
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'[' if open.is_empty() && in_key && key_levels == 0 => {
                // A [table] or [[array of tables]] header: its dotted key sets the level.
                let mut k = i + 1;
                let mut levels = 1usize;
                while k < b.len() && b[k] != b']' && b[k] != b'\n' {
                    match b[k] {
                        b'.' => levels += 1,
                        q @ (b'"' | b'\'') => {
                            k += 1;
                            while k < b.len() && b[k] != q && b[k] != b'\n' {
                                k += if q == b'"' && b[k] == b'\\' { 2 } else { 1 };
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                if levels > limit {
                    return Some(at(i));
                }
                table = levels;
                in_key = false;
                i = k;
            }
            b'.' if in_key => {
                match open.last_mut() {
                    Some((_, dots)) => *dots += 1,
                    None => key_levels += 1,
                }
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b'=' if in_key => {
                in_key = false;
                if open.is_empty() {
                    key_levels += 1;
                }
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b'[' | b'{' => {
                open.push((ch == b'{', 0));
                in_key = ch == b'{';
                if depth(table, key_levels, &open) > limit {
                    return Some(at(i));
                }
                i += 1;
            }
            b']' | b'}' => {
                open.pop();
                in_key = false;
                i += 1;
            }
            b',' => {
                // The next entry of an inline table starts with a key.
                in_key = match open.last_mut() {
                    Some((true, dots)) => {
                        *dots = 0;
                        true
                    }
                    _ => false,
                };
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}
