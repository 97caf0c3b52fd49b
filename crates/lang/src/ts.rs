//! tree-sitter plumbing: one grammar and one parser per language and thread, node helpers, and
//! the per-language table that classifies node kinds for the single full-tree walk.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use crate::Language;

/// Parsing stops after this long; the analysis then reports an uncertain error. Real source files
/// parse in milliseconds, so only pathological inputs (megabytes of nesting) hit it.
const PARSE_BUDGET: Duration = Duration::from_secs(3);

fn index(lang: Language) -> usize {
    match lang {
        Language::Python => 0,
        Language::Rust => 1,
        Language::JavaScript => 2,
        Language::TypeScript => 3,
        Language::Tsx => 4,
        Language::Go => 5,
        Language::Java => 6,
        Language::C => 7,
        Language::Cpp => 8,
        Language::Ruby => 9,
        Language::Bash => 10,
    }
}

fn grammar(lang: Language) -> tree_sitter::Language {
    match lang {
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::C => tree_sitter_c::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::Ruby => tree_sitter_ruby::LANGUAGE.into(),
        Language::Bash => tree_sitter_bash::LANGUAGE.into(),
    }
}

/// Node kind is an identifier-like leaf whose text is a reference.
pub(crate) const K_IDENT: u8 = 1;
/// Node kind is a Ruby symbol (`:name`): reference without the colon.
pub(crate) const K_SYMBOL: u8 = 2;
/// Node kind may be an import (checked by the language's import extractor).
pub(crate) const K_IMPORT: u8 = 4;
/// Node kind is a Rust macro invocation, or a token tree that may hold more (checked with syn).
pub(crate) const K_MACRO: u8 = 8;
/// Node kind is a call of a language whose regex-constructor calls are checked
/// (`regex_calls::call_kind`).
pub(crate) const K_CALL: u8 = 16;

/// Per-language static data: the grammar and the node-kind classification table.
pub(crate) struct LangData {
    pub grammar: tree_sitter::Language,
    /// `class[kind_id]` is a bit set of the `K_*` constants.
    pub class: Vec<u8>,
}

fn kinds_for(lang: Language) -> (&'static [&'static str], &'static [&'static str]) {
    match lang {
        Language::Python => (
            &["identifier"],
            &[
                "import_statement",
                "import_from_statement",
                "future_import_statement",
            ],
        ),
        Language::Rust => (
            &[
                "identifier",
                "type_identifier",
                "field_identifier",
                "shorthand_field_identifier",
            ],
            &["use_declaration", "extern_crate_declaration", "mod_item"],
        ),
        Language::JavaScript | Language::TypeScript | Language::Tsx => (
            &[
                "identifier",
                "property_identifier",
                "shorthand_property_identifier",
                "shorthand_property_identifier_pattern",
                "type_identifier",
                "private_property_identifier",
                "nested_identifier",
            ],
            &["import_statement", "export_statement", "call_expression"],
        ),
        Language::Go => (
            &[
                "identifier",
                "type_identifier",
                "field_identifier",
                "package_identifier",
            ],
            &["import_spec"],
        ),
        Language::Java => (&["identifier", "type_identifier"], &["import_declaration"]),
        Language::C | Language::Cpp => (
            &[
                "identifier",
                "type_identifier",
                "field_identifier",
                "namespace_identifier",
            ],
            &["preproc_include"],
        ),
        Language::Ruby => (&["identifier", "constant"], &["call"]),
        Language::Bash => (&["variable_name", "command_name"], &["command"]),
    }
}

fn build(lang: Language) -> LangData {
    let grammar = grammar(lang);
    let (idents, imports) = kinds_for(lang);
    let n = grammar.node_kind_count();
    let call = crate::regex_calls::call_kind(lang);
    let mut class = vec![0u8; n];
    for (id, slot) in class.iter_mut().enumerate() {
        let Ok(id16) = u16::try_from(id) else { break };
        let Some(kind) = grammar.node_kind_for_id(id16) else {
            continue;
        };
        // Every kind of that name, named or not: what `Node::kind() == call` matches.
        if call == Some(kind) {
            *slot |= K_CALL;
        }
        if !grammar.node_kind_is_named(id16) {
            continue;
        }
        if idents.contains(&kind) {
            *slot |= K_IDENT;
        }
        if imports.contains(&kind) {
            *slot |= K_IMPORT;
        }
        if lang == Language::Ruby && (kind == "simple_symbol" || kind == "hash_key_symbol") {
            *slot |= K_SYMBOL;
        }
        if lang == Language::Rust && (kind == "macro_invocation" || kind == "token_tree") {
            *slot |= K_MACRO;
        }
    }
    LangData { grammar, class }
}

/// The static data of a language, built once per process.
pub(crate) fn lang_data(lang: Language) -> &'static LangData {
    static DATA: OnceLock<Vec<LangData>> = OnceLock::new();
    let all = DATA.get_or_init(|| Language::ALL.iter().map(|&l| build(l)).collect());
    &all[index(lang)]
}

thread_local! {
    static PARSERS: RefCell<Vec<Option<Parser>>> = RefCell::new((0..Language::ALL.len()).map(|_| None).collect());
    static PARSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Calls `visit` on every node under `root` (itself included), in source order (pre-order),
/// without recursion.
pub(crate) fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() || cursor.node() == root {
                return;
            }
        }
    }
}

/// How many tree-sitter parses this thread has started (see [`crate::parse_count`]).
pub(crate) fn parse_count() -> u64 {
    PARSES.with(std::cell::Cell::get)
}

/// Parses `source` with the thread's parser for `lang`. `None` when the parse was cut short
/// by the time budget (or the grammar could not be loaded, which would be a build bug).
pub(crate) fn parse(lang: Language, source: &str) -> Option<Tree> {
    parse_from(lang, source, None)
}

/// Parses `source` with the thread's parser for `lang`, reusing the unchanged parts of `old`:
/// the tree of an earlier text, already edited (`Tree::edit`) to `source`'s positions.
/// tree-sitter then re-lexes only around the edits. `None` as for [`parse`].
pub(crate) fn reparse(lang: Language, source: &str, old: &Tree) -> Option<Tree> {
    parse_from(lang, source, Some(old))
}

fn parse_from(lang: Language, source: &str, old: Option<&Tree>) -> Option<Tree> {
    PARSES.with(|n| n.set(n.get() + 1));
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let slot = parsers.get_mut(index(lang))?;
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&lang_data(lang).grammar).ok()?;
            *slot = Some(p);
        }
        let parser = slot.as_mut()?;
        let bytes = source.as_bytes();
        let start = Instant::now();
        let mut progress = |_: &tree_sitter::ParseState| {
            if start.elapsed() > PARSE_BUDGET {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let tree = parser.parse_with_options(
            &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
            old,
            Some(ParseOptions::new().progress_callback(&mut progress)),
        );
        if tree.is_none() {
            // A cancelled parse leaves state behind; start clean next time.
            parser.reset();
        }
        tree
    })
}

/// The text of a node (empty when the range is not a char boundary, which cannot happen for
/// trees parsed from a `&str`).
pub(crate) fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// A Python string literal without interpolations, as (prefix, body): the prefix as written
/// (`r`, `b`, `Rb`, empty) and the text between its quotes, escapes unresolved. `None` for
/// anything else, f-strings included.
pub(crate) fn python_string<'s>(node: Node<'_>, src: &'s str) -> Option<(&'s str, &'s str)> {
    if node.kind() != "string" || named_kids(node).iter().any(|c| c.kind() == "interpolation") {
        return None;
    }
    let t = text(node, src);
    let quote = t.find(['"', '\''])?;
    let (prefix, quoted) = t.split_at(quote);
    if prefix.contains(['f', 'F']) {
        return None;
    }
    ["\"\"\"", "\'\'\'", "\"", "\'"]
        .iter()
        .find_map(|q| quoted.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
        .map(|body| (prefix, body))
}

/// The node's children, collected with a cursor (linear, unlike repeated `child(i)`).
pub(crate) fn kids<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// The node's named children.
pub(crate) fn named_kids<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The first direct child of a given kind.
pub(crate) fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).find(|c| c.kind() == kind)
}

/// 1-based line of a node's start.
pub(crate) fn line_of(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row)
        .unwrap_or(u32::MAX - 1)
        .saturating_add(1)
}

/// 1-based line of a node's end (inclusive: a node ending at column 0 ends on the line before).
pub(crate) fn end_line_of(node: Node<'_>) -> u32 {
    let end = node.end_position();
    let row = if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    };
    u32::try_from(row).unwrap_or(u32::MAX - 1).saturating_add(1)
}

/// 1-based (line, character column) of a byte offset.
pub(crate) fn line_col(src: &str, byte: usize) -> (u32, u32) {
    let byte = byte.min(src.len());
    let before = src.as_bytes().get(..byte).unwrap_or_default();
    let line = memchr_count(before) + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = match src.get(line_start..byte) {
        Some(s) => s.chars().count(),
        None => byte - line_start,
    } + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

fn memchr_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}
