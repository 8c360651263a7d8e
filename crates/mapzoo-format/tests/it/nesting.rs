//! The nesting bound of every YAML, JSON and TOML reader: documents nested below
//! [`MAX_NESTING_DEPTH`] read as before, deeper ones are [`FormatError::TooDeep`] at the
//! line and column where the limit is passed (the pre-scan refuses them before any
//! parser runs: only it makes that error), and YAML aliases cannot expand past the node
//! budget. The YAML pre-scan never counts less than libyaml nests.

use std::path::{Path, PathBuf};

use mapzoo_format::set::SetRecord;
use mapzoo_format::testdata::reference_data_or_skip;
use mapzoo_format::{
    check_nesting, check_nesting_limit, parse_yaml, yaml_node_budget, FormatError, GlobalWaypoints,
    MapMeta, OtSectors, SpeedScaling, Syntax, MAX_NESTING_DEPTH,
};
use proptest::prelude::*;

/// The shapes a nested document is written in.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// `x: [[[1]]]`
    YamlFlowSeq,
    /// `x: {a: {a: 1}}`
    YamlFlowMap,
    /// One key per line, each indented two more spaces.
    YamlBlockMap,
    /// `x:\n  - - - 1`
    YamlCompactSeq,
    /// `x:\n- a:\n  - a:\n    - 1`: sequences at their mapping's indentation.
    YamlIndentless,
    /// Block mappings whose values mix in flow sequences and quoted strings with brackets.
    YamlMixed,
    /// `[[[1]]]`
    JsonArray,
    /// `{"a": {"a": 1}}`
    JsonObject,
    /// `x = [[[1]]]`
    TomlArray,
    /// `x = {a = {a = 1}}`
    TomlInline,
    /// `x.a.a.a = 1`
    TomlDotted,
    /// `[x.a.a]\nv = 1`
    TomlHeader,
}

const SHAPES: [Shape; 12] = [
    Shape::YamlFlowSeq,
    Shape::YamlFlowMap,
    Shape::YamlBlockMap,
    Shape::YamlCompactSeq,
    Shape::YamlIndentless,
    Shape::YamlMixed,
    Shape::JsonArray,
    Shape::JsonObject,
    Shape::TomlArray,
    Shape::TomlInline,
    Shape::TomlDotted,
    Shape::TomlHeader,
];

/// A document nested `depth` levels (as the parser nests it, the top-level mapping
/// included), written as `shape`, under the key `x` of the top level; and the 1-based
/// line and column of the first character of level `limit + 1`, if it has one.
struct Nested {
    syntax: Syntax,
    /// The nested value alone, as the text of the key `x` of a larger document.
    text: String,
    depth: usize,
}

impl Nested {
    fn new(shape: Shape, depth: usize) -> Self {
        let n = depth - 1; // levels below the top-level mapping
        let (syntax, text) = match shape {
            Shape::YamlFlowSeq => (
                Syntax::Yaml,
                format!("x: {}1{}\n", "[".repeat(n), "]".repeat(n)),
            ),
            Shape::YamlFlowMap => (
                Syntax::Yaml,
                format!("x: {}1{}\n", "{a: ".repeat(n), "}".repeat(n)),
            ),
            Shape::YamlBlockMap => {
                let mut s = String::from("x:\n");
                for i in 1..n {
                    s.push_str(&format!("{}a{i}:\n", "  ".repeat(i)));
                }
                s.push_str(&format!("{}last: 1\n", "  ".repeat(n)));
                (Syntax::Yaml, if n == 0 { "x: 1\n".into() } else { s })
            }
            Shape::YamlCompactSeq => (Syntax::Yaml, format!("x:\n  {}1\n", "- ".repeat(n))),
            Shape::YamlIndentless => {
                // Levels below x alternate: a sequence at its mapping's indentation, a
                // mapping in its item.
                let mut s = String::from("x:\n");
                let (mut col, mut i) = (0, 0);
                while i < n {
                    let pad = " ".repeat(col);
                    if i + 1 == n {
                        s.push_str(&format!("{pad}- 1\n"));
                    } else if i + 2 == n {
                        s.push_str(&format!("{pad}- a: 1\n"));
                    } else {
                        s.push_str(&format!("{pad}- a:\n"));
                        col += 2;
                    }
                    i += 2;
                }
                (Syntax::Yaml, if n == 0 { "x: 1\n".into() } else { s })
            }
            Shape::YamlMixed => {
                // Block mappings, each with a quoted sibling holding brackets, quotes and
                // `#`, and a comment with a bracket; the innermost holds a flow sequence
                // with a quoted `]`.
                let s = if depth == 1 {
                    "x: \"[[[\"\n".to_string()
                } else {
                    let m = depth - 2;
                    let mut s = String::from("x:");
                    if m == 0 {
                        s.push_str(" [\"]\", 1]\n");
                    } else {
                        s.push('\n');
                        for i in 1..=m {
                            let pad = "  ".repeat(i);
                            s.push_str(&format!("{pad}s: 'it''s [not # a list'\n"));
                            if i < m {
                                s.push_str(&format!("{pad}k: # [comment\n"));
                            } else {
                                s.push_str(&format!("{pad}last: [\"]\", 1] # ]]\n"));
                            }
                        }
                    }
                    s
                };
                (Syntax::Yaml, s)
            }
            Shape::JsonArray => (
                Syntax::Json,
                format!("{}1{}", "[".repeat(depth), "]".repeat(depth)),
            ),
            Shape::JsonObject => (
                Syntax::Json,
                format!("{}\"[\"{}", "{\"a\": ".repeat(depth), "}".repeat(depth)),
            ),
            Shape::TomlArray => (
                Syntax::Toml,
                format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
            ),
            Shape::TomlInline => (
                Syntax::Toml,
                format!("x = {}\"{{\"{}\n", "{a = ".repeat(n), "}".repeat(n)),
            ),
            Shape::TomlDotted => (Syntax::Toml, format!("x{} = 1\n", ".a".repeat(n))),
            Shape::TomlHeader => (
                Syntax::Toml,
                if n == 0 {
                    "v = 1\n".into()
                } else {
                    format!("[x{}]\nv = 1\n", ".a".repeat(n - 1))
                },
            ),
        };
        Nested {
            syntax,
            text,
            depth,
        }
    }
}

/// The levels a YAML value nests (a scalar is 0).
fn yaml_depth(v: &serde_yaml_ng::Value) -> usize {
    match v {
        serde_yaml_ng::Value::Sequence(s) => 1 + s.iter().map(yaml_depth).max().unwrap_or(0),
        serde_yaml_ng::Value::Mapping(m) => {
            1 + m
                .iter()
                .map(|(k, v)| yaml_depth(k).max(yaml_depth(v)))
                .max()
                .unwrap_or(0)
        }
        serde_yaml_ng::Value::Tagged(t) => yaml_depth(&t.value),
        _ => 0,
    }
}

fn json_depth(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 1 + a.iter().map(json_depth).max().unwrap_or(0),
        serde_json::Value::Object(o) => 1 + o.values().map(json_depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn toml_depth(v: &toml::Value) -> usize {
    match v {
        toml::Value::Array(a) => 1 + a.iter().map(toml_depth).max().unwrap_or(0),
        toml::Value::Table(t) => 1 + t.values().map(toml_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The depth the language's own parser gives `text` (which must parse).
fn parsed_depth(syntax: Syntax, text: &str) -> usize {
    match syntax {
        Syntax::Yaml => yaml_depth(&serde_yaml_ng::from_str(text).expect("valid YAML")),
        Syntax::Json => json_depth(&serde_json::from_str(text).expect("valid JSON")),
        Syntax::Toml => toml_depth(&toml::Value::Table(text.parse().expect("valid TOML"))),
    }
}

/// A small valid map YAML with `extra` appended (the readers ignore unknown keys or
/// report them; neither is a nesting error).
const MAP_YAML: &str = "image: m.png\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n";

/// Every reader of `syntax` on `text`: (name, result as an error, if any).
fn readers(syntax: Syntax, text: &str) -> Vec<(&'static str, Option<FormatError>)> {
    let p = Path::new("nested");
    match syntax {
        Syntax::Yaml => vec![
            ("parse_yaml", parse_yaml(text, p).err()),
            (
                "map yaml",
                MapMeta::from_yaml_str(&format!("{MAP_YAML}{text}"), p).err(),
            ),
            ("speed_scaling", SpeedScaling::from_yaml_str(text, p).err()),
            ("ot_sectors", OtSectors::from_yaml_str(text, p).err()),
            (
                "ot_sectors ROS 2",
                OtSectors::from_yaml_str(&ros2(text), p).err(),
            ),
            (
                "speed_scaling ROS 2",
                SpeedScaling::from_yaml_str(&ros2(text), p).err(),
            ),
        ],
        Syntax::Json => vec![
            ("check_nesting", check_nesting(text, Syntax::Json, p).err()),
            (
                "global json",
                GlobalWaypoints::from_json_str(&format!("{{\"x\": {text}}}"), p).err(),
            ),
        ],
        Syntax::Toml => vec![
            ("check_nesting", check_nesting(text, Syntax::Toml, p).err()),
            ("mapzoo.toml", SetRecord::from_toml_str(text, p).err()),
        ],
    }
}

/// `text` as the parameters of a ROS 2 node (`node: ros__parameters: ...`).
fn ros2(text: &str) -> String {
    let mut s = String::from("node:\n  ros__parameters:\n");
    for line in text.lines() {
        s.push_str("    ");
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// Levels the readers' wrappers add around the nested text.
fn wrapper_levels(name: &str) -> usize {
    match name {
        "global json" => 1,
        "ot_sectors ROS 2" | "speed_scaling ROS 2" => 2,
        _ => 0,
    }
}

fn is_nesting_error(e: &Option<FormatError>) -> bool {
    matches!(
        e,
        Some(FormatError::TooDeep { .. } | FormatError::TooManyNodes { .. })
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// Below the limit every reader reads the document as before (the language's parser
    /// takes it, the pre-scan lets it through, a reader's error is about content);
    /// above, every reader is `TooDeep` from the pre-scan, never from a parser.
    #[test]
    fn nested_documents_are_read_below_the_limit_and_refused_above(
        shape in proptest::sample::select(SHAPES.to_vec()),
        depth in 1usize..=3 * MAX_NESTING_DEPTH,
    ) {
        let doc = Nested::new(shape, depth);
        if doc.depth <= MAX_NESTING_DEPTH {
            // The generator nests as it says, by the language's own parser.
            prop_assert_eq!(parsed_depth(doc.syntax, &doc.text), doc.depth, "{}", doc.text);
        }
        if doc.syntax == Syntax::Yaml && doc.depth <= MAX_NESTING_DEPTH {
            // The shared parse gives serde_yaml_ng's value, unchanged.
            let before: serde_yaml_ng::Value = serde_yaml_ng::from_str(&doc.text).unwrap();
            prop_assert_eq!(parse_yaml(&doc.text, Path::new("n")).unwrap(), before);
        }
        for (name, err) in readers(doc.syntax, &doc.text) {
            let levels = doc.depth + wrapper_levels(name);
            if levels <= MAX_NESTING_DEPTH {
                prop_assert!(!is_nesting_error(&err), "{name} at depth {levels}: {err:?}");
            } else {
                match err {
                    Some(FormatError::TooDeep { path, line, column, limit, what }) => {
                        prop_assert_eq!(path, PathBuf::from("nested"));
                        prop_assert_eq!(limit, MAX_NESTING_DEPTH);
                        prop_assert!(line >= 1 && column >= 1);
                        prop_assert!(what.starts_with(&format!("line {line}, column {column}: ")), "{what}");
                    }
                    other => prop_assert!(false, "{name} at depth {levels}: {other:?}"),
                }
            }
        }
    }

    /// With any limit, the pre-scan refuses exactly the documents deeper than it, at the
    /// line and column of the first character past it.
    #[test]
    fn the_prescan_counts_each_shape_exactly(
        shape in proptest::sample::select(SHAPES.to_vec()),
        depth in 1usize..40,
        limit in 1usize..40,
    ) {
        let doc = Nested::new(shape, depth);
        let got = check_nesting_limit(&doc.text, doc.syntax, limit, Path::new("n"));
        prop_assert_eq!(got.is_err(), depth > limit, "{:?} depth {} limit {}: {:?}", shape, depth, limit, got);
    }
}

/// A million levels in under 1 MiB, in each language: refused at once, at the first
/// character past the limit (the parsers would each take a minute or more, or recurse).
#[test]
fn a_million_levels_are_refused_where_the_limit_is_passed() {
    let n = 1_000_000;
    let cases = [
        (Syntax::Yaml, format!("x: {}", "[".repeat(n)), 1, 4 + 63),
        (
            Syntax::Yaml,
            format!("x:\n  {}1\n", "- ".repeat(n)),
            2,
            3 + 2 * 63,
        ),
        (Syntax::Json, "[".repeat(n), 1, 65),
        (Syntax::Toml, format!("x = {}", "[".repeat(n)), 1, 5 + 63),
        (
            Syntax::Toml,
            format!("x{} = 1", ".a".repeat(n)),
            1,
            2 + 2 * 64,
        ),
        (Syntax::Toml, format!("[x{}]", ".a".repeat(n)), 1, 1),
    ];
    for (syntax, text, line, column) in cases {
        match check_nesting(&text, syntax, Path::new("bomb")) {
            Err(FormatError::TooDeep {
                line: l, column: c, ..
            }) => assert_eq!((l, c), (line, column), "{syntax:?} {}", &text[..20]),
            other => panic!("{syntax:?}: {other:?}"),
        }
    }
}

/// Brackets and quotes inside YAML scalars and comments are not structure; a line past
/// a quoted or plain scalar is read where libyaml reads it.
#[test]
fn yaml_brackets_in_scalars_and_comments_do_not_nest() {
    let deep = "[".repeat(100);
    let docs = [
        format!("a: '{deep}'\n"),
        format!("a: \"{deep}\\\"\"\n"),
        format!("a: x{deep}\n"),
        format!("a: rock 'n roll {deep}\n"),
        format!("# {deep}\na: 1 # {deep}\n"),
        format!("a: |\n  {deep}\n  'unclosed\nb: 1\n"),
        format!("a: >-\n\n   {deep}\n\nb: 1\n"),
        format!("a: 'multi\n  line {deep}'\n"),
        format!("a: plain\n  continued {deep}\n"),
    ];
    for d in docs {
        assert!(
            check_nesting(&d, Syntax::Yaml, Path::new("n")).is_ok(),
            "{d}"
        );
        assert!(
            serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&d).is_ok(),
            "{d}"
        );
    }
    // ...but structure after a scalar that ended is counted.
    let ended = [
        format!("a: x\n{deep}\n"),
        format!("a: |\n  text\n{deep}\n"),
        format!("a: 'x' #\n{deep}\n"),
        format!("a: x # '\n{deep}\n"),
        format!("a: \"x\"\nb: {deep}\n"),
        format!("a: b\u{2028}c: {deep}\n"),
        format!("a: 'x'#\n{deep}\n"),
    ];
    for d in ended {
        assert!(
            check_nesting(&d, Syntax::Yaml, Path::new("n")).is_err(),
            "{d:?}"
        );
    }
}

/// YAML-like soup of the tokens where scanners disagree (quotes, comments, block scalars,
/// plain scalars with brackets, indentation): whenever libyaml parses it, the pre-scan
/// counts at least as many levels as the parsed value has.
fn soup() -> impl Strategy<Value = String> {
    soup_of(40)
}

/// Up to `n` pieces of [`soup`].
fn soup_of(n: usize) -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "[",
        "]",
        "{",
        "}",
        ", ",
        ": ",
        "- ",
        "? ",
        "\n",
        "\n  ",
        "\n    ",
        " ",
        "a",
        "b[",
        "'x'",
        "\"y\"",
        "'",
        "\"",
        "\\",
        "#",
        " #c",
        " |\n",
        " >-\n",
        " |2\n",
        "&a ",
        "!t ",
        "!t'",
        "it's",
        "'q''r'",
        "---\n",
        "...\n",
        "\t",
        "a:",
        "\r\n",
        "\u{2028}",
        "é",
        // whole nested fragments, so that a good share of the soups parse as nested
        // documents whatever the seed
        "[a, [b]]",
        "{a: [b, {c: d}]}",
        "- - a\n",
        "a:\n  b:\n    c\n",
        "[[",
        "]]",
    ]);
    proptest::collection::vec(pieces, 0..n).prop_map(|v| v.concat())
}

#[test]
fn the_yaml_prescan_never_counts_less_than_libyaml() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        ..Config::default()
    });
    let nested = std::cell::Cell::new(0usize);
    runner
        .run(&soup(), |text| {
            if let Ok(v) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text) {
                let d = yaml_depth(&v);
                if d > 1 {
                    nested.set(nested.get() + 1);
                }
                if d > 0 {
                    let under = check_nesting_limit(&text, Syntax::Yaml, d - 1, Path::new("n"));
                    prop_assert!(
                        under.is_err(),
                        "libyaml nests {} levels, the pre-scan fewer: {:?}",
                        d,
                        text
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    assert!(nested.get() > 5, "only {} documents nest", nested.get());
}

/// A YAML value tree: scalars (tricky ones), sequences and mappings, each collection
/// written in flow or block style.
#[derive(Debug, Clone)]
enum Tree {
    Scalar(usize),
    Seq(bool, Vec<Tree>),
    Map(bool, Vec<(usize, Tree)>),
    /// A `|` block scalar whose lines hold brackets and quotes (block context only).
    Literal,
}

/// Scalars safe in flow and block context.
const FLOW_SCALARS: [&str; 8] = [
    "1",
    "a",
    "'it''s [x'",
    "\"]\\\" {\"",
    "x#y",
    "it's",
    "é",
    "\"two\n  [lines\"",
];
/// Scalars only a block context allows (brackets inside a plain scalar).
const BLOCK_SCALARS: [&str; 3] = ["a[b", "rock 'n {roll", "x ]] y"];
const KEYS: [&str; 4] = ["k#", "'q [k#'", "\"d]#\"", "&an k#"];

/// Key `k` of the list, numbered `n` (keys of a mapping differ).
fn key(k: usize, n: usize) -> String {
    KEYS[k].replace('#', &n.to_string())
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        (0..FLOW_SCALARS.len() + BLOCK_SCALARS.len()).prop_map(Tree::Scalar),
        Just(Tree::Literal),
    ];
    leaf.prop_recursive(8, 64, 4, |inner| {
        prop_oneof![
            (
                any::<bool>(),
                proptest::collection::vec(inner.clone(), 0..4)
            )
                .prop_map(|(f, v)| Tree::Seq(f, v)),
            (
                any::<bool>(),
                proptest::collection::vec((0..KEYS.len(), inner), 0..4)
            )
                .prop_map(|(f, v)| Tree::Map(f, v)),
        ]
    })
}

/// `t` in flow style (every child in flow style too).
fn flow(t: &Tree) -> String {
    match t {
        Tree::Scalar(i) => FLOW_SCALARS[i % FLOW_SCALARS.len()].to_string(),
        Tree::Literal => "'lit'".to_string(),
        Tree::Seq(_, v) => format!("[{}]", v.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Tree::Map(_, v) => format!(
            "{{{}}}",
            v.iter()
                .enumerate()
                .map(|(n, (k, t))| format!("{}: {}", key(*k, n), flow(t)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `t` as the value after `key:` (`in_map`) or `- ` at indentation `pad` (block style
/// where chosen; a sequence of an even number of items in a mapping is written at the
/// mapping's indentation, as ROS files often do).
fn block(t: &Tree, pad: usize, in_map: bool, out: &mut String) {
    let deeper = " ".repeat(pad + 2);
    match t {
        Tree::Scalar(i) if *i >= FLOW_SCALARS.len() => {
            out.push_str(&format!(" {}\n", BLOCK_SCALARS[i - FLOW_SCALARS.len()]))
        }
        Tree::Literal => out.push_str(&format!(" |\n{deeper}[[ {{ 'x\n{deeper}  \"y # ]\n")),
        Tree::Seq(false, v) if !v.is_empty() => {
            out.push_str(" # [c\n");
            let at = if in_map && v.len() % 2 == 0 {
                pad
            } else {
                pad + 2
            };
            for t in v {
                out.push_str(&format!("{}-", " ".repeat(at)));
                block(t, at, false, out);
            }
        }
        Tree::Map(false, v) if !v.is_empty() => {
            out.push('\n');
            for (n, (k, t)) in v.iter().enumerate() {
                out.push_str(&format!("{deeper}{}:", key(*k, n)));
                block(t, pad + 2, true, out);
            }
        }
        other => out.push_str(&format!(" {} # ]\n", flow(other))),
    }
}

/// Tree-shaped documents with tricky scalars in both styles: the pre-scan counts exactly
/// the levels the parsed value has.
#[test]
fn the_yaml_prescan_counts_tree_documents_exactly() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 3000,
        ..Config::default()
    });
    let nested = std::cell::Cell::new(0usize);
    runner
        .run(&tree(), |t| {
            let mut text = String::from("top:");
            block(&t, 0, true, &mut text);
            let v: serde_yaml_ng::Value = match serde_yaml_ng::from_str(&text) {
                Ok(v) => v,
                Err(e) => {
                    prop_assert!(false, "{e}: {text}");
                    unreachable!()
                }
            };
            let d = yaml_depth(&v);
            if d > 3 {
                nested.set(nested.get() + 1);
            }
            let p = Path::new("n");
            prop_assert!(
                check_nesting_limit(&text, Syntax::Yaml, d - 1, p).is_err(),
                "{d}: {text}"
            );
            prop_assert!(
                check_nesting_limit(&text, Syntax::Yaml, d, p).is_ok(),
                "{d}: {text}"
            );
            Ok(())
        })
        .unwrap();
    assert!(nested.get() > 500, "only {} documents nest", nested.get());
}

/// A bomb after a soup prefix: brackets, braces or `- ` runs 200 deep, maybe behind a
/// quote, a comment or a block-scalar header that may or may not still be open.
fn soup_then_bomb() -> impl Strategy<Value = String> {
    let bomb = prop::sample::select(vec!["[", "{", "- ", "[a, ", "{a: ", "? ", "a:\n "]);
    (soup_of(8), bomb, soup_of(8)).prop_map(|(head, bomb, tail)| {
        let mut deep = String::new();
        let mut pad = String::new();
        for _ in 0..200 {
            if bomb == "a:\n " {
                deep.push_str(&format!("{pad}a:\n"));
                pad.push(' ');
            } else {
                deep.push_str(bomb);
            }
        }
        format!("{head}{deep}{tail}")
    })
}

/// Whatever comes before it, a bomb that takes libyaml past serde_yaml_ng's 128 levels
/// (the document may fail later) was refused by the pre-scan: libyaml's time grows with
/// the depth it reaches, whether the document parses or not. A fifth of the cases reach it
/// (the others fail in libyaml before the bomb).
#[test]
fn every_bomb_libyaml_nests_is_refused() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 10_000,
        ..Config::default()
    });
    let reached = std::cell::Cell::new(0usize);
    runner
        .run(&soup_then_bomb(), |text| {
            if let Err(e) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text) {
                if e.to_string().contains("recursion limit exceeded") {
                    reached.set(reached.get() + 1);
                    let got = check_nesting(&text, Syntax::Yaml, Path::new("n"));
                    prop_assert!(
                        matches!(got, Err(FormatError::TooDeep { .. })),
                        "{:?}: {:?}",
                        text,
                        got
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    assert!(
        reached.get() > 1000,
        "only {} bombs reached libyaml's limit",
        reached.get()
    );
}

/// `a: &a [x, …]` (n items) and `b: [*a, …]` (m aliases) hold 5 + n + m(n + 1) nodes
/// expanded: refused exactly when that passes the budget of the file's size.
#[test]
fn alias_expansion_is_bounded_by_the_node_budget() {
    for (n, m) in [
        (3, 3),
        (10, 200),
        (100, 100),
        (300, 300),
        (1000, 1000),
        (30, 40000),
    ] {
        let text = format!(
            "a: &a [{}]\nb: [{}]\n",
            vec!["x"; n].join(","),
            vec!["*a"; m].join(",")
        );
        let nodes = 5 + n + m * (n + 1);
        let got = parse_yaml(&text, Path::new("laughs"));
        if nodes > yaml_node_budget(text.len()) {
            assert!(
                matches!(got, Err(FormatError::TooManyNodes { .. })),
                "{n} × {m}: {got:?}"
            );
        } else {
            let before: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
            assert_eq!(got.unwrap(), before, "{n} × {m}");
        }
    }
    // Nested laughs: nine levels of nine aliases each (9^9 values from 1 kB).
    let mut text = String::from("l0: &l0 [x]\n");
    for i in 1..10 {
        text.push_str(&format!(
            "l{i}: &l{i} [{}]\n",
            vec![format!("*l{}", i - 1); 9].join(",")
        ));
    }
    let got = parse_yaml(&text, Path::new("laughs"));
    match got {
        Err(e @ FormatError::TooManyNodes { .. }) => {
            assert!(e.to_string().starts_with("laughs: its aliases"), "{e}");
        }
        other => panic!("{other:?}"),
    }
}

/// Every YAML, JSON, TOML and ini file of the reference data and the repository's
/// pipeline.toml nest at most 6 levels (a global_waypoints.json: the file, a marker array,
/// its markers, a marker, its pose, the position; the limit is 64).
#[test]
fn real_files_nest_far_below_the_limit() {
    let mut files = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../pipeline.toml")];
    if let Some(d) = reference_data_or_skip("nesting of the real files") {
        let mut stack = vec![d];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("yaml" | "yml" | "json" | "toml")
                ) {
                    files.push(p);
                }
            }
        }
    }
    let mut deepest = (0, PathBuf::new());
    for p in &files {
        let syntax = match p.extension().and_then(|e| e.to_str()) {
            Some("json") => Syntax::Json,
            Some("toml") => Syntax::Toml,
            _ => Syntax::Yaml,
        };
        let text = std::fs::read_to_string(p).unwrap();
        let levels = (0..=MAX_NESTING_DEPTH)
            .find(|&l| check_nesting_limit(&text, syntax, l, p).is_ok())
            .unwrap_or_else(|| panic!("{} is refused", p.display()));
        if levels > deepest.0 {
            deepest = (levels, p.clone());
        }
    }
    assert!(
        deepest.0 <= 6,
        "{} nests {} levels",
        deepest.1.display(),
        deepest.0
    );
}
