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
//! `b: [*a, *a, …]` expands to the square of its size (a 50 kB file ran for over a minute), so
//! the document is first walked once, counting nodes after expansion, against
//! [`yaml_node_budget`].

use std::path::Path;

use crate::error::{FormatError, Result};

mod aliases;
mod json;
mod toml;
mod yaml;

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

/// The number of characters in a UTF-8 byte run.
fn char_column(run: &[u8]) -> usize {
    run.iter().filter(|&&b| b & 0xC0 != 0x80).count()
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
        Syntax::Yaml => yaml::YamlScan::new(text, limit).run(),
        Syntax::Json => json::json_depth(text.as_bytes(), limit),
        Syntax::Toml => toml::toml_depth(text.as_bytes(), limit),
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
    aliases::check_alias_expansion(text, yaml_node_budget(text.len()), path)?;
    serde_yaml_ng::from_str(text).map_err(syntax_error)
}
