//! The YAML pre-scan: libyaml's scanner (0.2.5, as unsafe-libyaml ports it) reduced to
//! what decides nesting: where scalars and comments start and end, the flow level, the
//! block indentation stack and the simple key of the block context.

use super::TooDeepAt;

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
pub(super) struct YamlScan<'a> {
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
    pub(super) fn new(text: &'a str, limit: usize) -> Self {
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

    pub(super) fn run(mut self) -> Option<TooDeepAt> {
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

    /// Blanks, then a comment to the end of the line, if any.
    fn skip_blanks_and_comment(&mut self) {
        while self.c.is_blank(0) {
            self.c.skip();
        }
        if self.c.at(0) == b'#' {
            while !self.c.eof() && !self.c.is_break(0) {
                self.c.skip();
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
            self.skip_blanks_and_comment();
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
        self.skip_blanks_and_comment();
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
