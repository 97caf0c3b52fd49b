//! The source analysis driver: one parse, one full-tree walk (syntax errors, references,
//! imports, Rust macro calls), the definitions pass, then the per-language second checks.

use rustc_hash::FxHashSet;
use tree_sitter::{Node, Tree};

use crate::ts::{self, K_CALL, K_IDENT, K_IMPORT, K_MACRO, K_SYMBOL, text};
use crate::{Import, Language, MAX_ERRORS, SourceAnalysis, SyntaxError};
use crate::{cfamily, defs, go_template, js_regex, python_check, regex_calls, rust_check};

/// A syntax error found by tree-sitter, with what the second checks need to judge it.
pub(crate) struct RawError {
    pub error: SyntaxError,
    /// Byte range of the ERROR / MISSING node.
    pub start_byte: usize,
    /// C/C++: the tree around the error explains it without a real syntax error: it sits in
    /// an `#if 0` block, it is an ERROR inside a call's argument list (function-like macros
    /// take any tokens: `va_arg(ap, char*)`), or its text holds a preprocessor directive
    /// (`#include` / `#if` inside an initializer).
    pub in_preproc: bool,
    /// Start byte of the top-level construct (child of the root) holding the error: a parser
    /// derailed by a macro keeps failing until that construct ends.
    pub top_start: usize,
}

/// What the walk collects.
pub(crate) struct Walked<'s, 't> {
    pub errors: Vec<RawError>,
    pub refs: FxHashSet<&'s str>,
    pub imports: Vec<Import>,
    /// Rust macro invocations: (macro name, byte range of the token tree).
    pub macros: Vec<(&'s str, std::ops::Range<usize>)>,
    /// Rust macro invocations inside another macro's token tree (`assert_eq!(format!(..), x)`,
    /// a `select!` arm's `println!`), which tree-sitter leaves as tokens: the same pairs.
    pub nested_macros: Vec<(&'s str, std::ops::Range<usize>)>,
    /// Deepest node nesting seen (used to keep syn's recursion safe).
    pub max_depth: usize,
    /// Whether to collect [`Walked::calls`] (the text may hold a regex-constructor call).
    pub collect_calls: bool,
    /// The call nodes (`K_CALL`) when [`Walked::collect_calls`], in source order: the
    /// candidates of `regex_calls::check`, gathered here rather than by a second walk.
    pub calls: Vec<Node<'t>>,
}

/// See [`crate::analyze`].
pub(crate) fn analyze(language: Language, source: &str) -> SourceAnalysis {
    let tree = std::cell::OnceCell::new();
    analyze_with(language, source, || {
        tree.get_or_init(|| ts::parse(language, source)).as_ref()
    })
}

/// [`analyze`] with the tree of `source` in `language` supplied by `tree` (called at most
/// once, and not at all when the text is analysed as another language: C++ text in a `.h`),
/// so that a caller holding the parse shares it.
pub(crate) fn analyze_with<'t>(
    language: Language,
    source: &str,
    tree: impl FnOnce() -> Option<&'t Tree>,
) -> SourceAnalysis {
    if language == Language::C {
        // `.h` (and some `.c`) files are often C++. Parse as C first; when that reports errors,
        // parse as C++ too and keep whichever analysis has fewer certain errors (then fewer
        // errors in all; ties keep C).
        if cfamily::looks_like_cpp(source) {
            return analyze_one(
                Language::Cpp,
                source,
                ts::parse(Language::Cpp, source).as_ref(),
            );
        }
        let c = analyze_one(Language::C, source, tree());
        if c.syntax_errors.is_empty() && c.uncertain_syntax_errors.is_empty() {
            return c;
        }
        let cpp = analyze_one(
            Language::Cpp,
            source,
            ts::parse(Language::Cpp, source).as_ref(),
        );
        let score = |a: &SourceAnalysis| {
            (
                a.syntax_errors.len(),
                a.syntax_errors.len() + a.uncertain_syntax_errors.len(),
            )
        };
        return if score(&cpp) < score(&c) { cpp } else { c };
    }
    analyze_one(language, source, tree())
}

/// Analyses `src` in `lang` from its tree (`None`: the parse was cut short).
fn analyze_one(lang: Language, src: &str, tree: Option<&Tree>) -> SourceAnalysis {
    let mut out = SourceAnalysis::default();
    let Some(tree) = tree else {
        out.uncertain_syntax_errors.push(SyntaxError::new(
            1,
            1,
            "file too large or too complex to analyse in time",
        ));
        return out;
    };
    let root = tree.root_node();
    let mut walked = walk(lang, tree, src);
    let calls = std::mem::take(&mut walked.calls);
    out.definitions = defs::definitions(lang, root, src);
    out.imports = walked.imports;
    let mut refs: Vec<String> = walked.refs.into_iter().map(str::to_owned).collect();
    refs.sort_unstable();
    out.references = refs;

    let mut certain: Vec<SyntaxError> = Vec::new();
    let mut uncertain: Vec<SyntaxError> = Vec::new();
    match lang {
        Language::C | Language::Cpp => {
            let (c, u) = cfamily::classify(src, walked.errors);
            certain = c;
            uncertain = u;
            certain.extend(cfamily::bracket_balance(src));
        }
        Language::TypeScript | Language::Tsx => {
            for e in walked.errors {
                if typescript_uncertain(src, &e) {
                    uncertain.push(e.error);
                } else {
                    certain.push(e.error);
                }
            }
        }
        Language::Bash => {
            for e in walked.errors {
                if bash_uncertain(src, &e) {
                    uncertain.push(e.error);
                } else {
                    certain.push(e.error);
                }
            }
        }
        _ => certain.extend(walked.errors.into_iter().map(|e| e.error)),
    }
    match lang {
        Language::Python => certain.extend(python_check::check(src)),
        Language::Rust => {
            // syn implements rustc's grammar; tree-sitter-rust has false positives (inside
            // `macro_rules!`, on some casts and generics). When syn ran and accepted the file,
            // tree-sitter's errors are only uncertain.
            match rust_check::check_file(src, walked.max_depth) {
                Some(None) => uncertain.append(&mut certain),
                Some(Some(e)) => certain.push(e),
                None => {}
            }
            for (macros, nested) in [(&walked.macros, false), (&walked.nested_macros, true)] {
                let found = rust_check::check_macros(src, macros, nested);
                certain.extend(found.certain);
                out.syntax_errors_from_edition_2021
                    .extend(found.from_edition_2021);
            }
        }
        Language::Go => certain.extend(go_template::check(root, src, &out.imports)),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            certain.extend(js_regex::check(root, src));
        }
        _ => {}
    }
    if matches!(lang, Language::Python | Language::Rust | Language::Go) {
        certain.extend(regex_calls::check(lang, &calls, src));
    }
    out.syntax_errors = finish(certain);
    out.uncertain_syntax_errors = finish(uncertain);
    out.syntax_errors_from_edition_2021 =
        finish(std::mem::take(&mut out.syntax_errors_from_edition_2021));
    out
}

/// Sorts errors by position, keeps one per line, caps the count.
fn finish(mut errors: Vec<SyntaxError>) -> Vec<SyntaxError> {
    errors.sort_by_key(|e| (e.line, e.column));
    errors.dedup_by_key(|e| e.line);
    errors.truncate(MAX_ERRORS);
    errors
}

fn walk<'s, 't>(lang: Language, tree: &'t Tree, src: &'s str) -> Walked<'s, 't> {
    let class = &ts::lang_data(lang).class;
    let mut w = Walked {
        errors: Vec::new(),
        refs: FxHashSet::default(),
        imports: Vec::new(),
        macros: Vec::new(),
        nested_macros: Vec::new(),
        max_depth: 0,
        collect_calls: regex_calls::wanted(lang, src),
        calls: Vec::new(),
    };
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    let mut err_depth: Option<usize> = None;
    let any_error = tree.root_node().has_error();
    'outer: loop {
        let node = cursor.node();
        if !any_error {
            let c = class.get(usize::from(node.kind_id())).copied().unwrap_or(0);
            if c != 0 {
                visit(lang, node, c, src, &mut w);
            }
        } else if node.is_missing() {
            if err_depth.is_none() && w.errors.len() < MAX_ERRORS * 4 {
                w.errors
                    .push(raw_error(lang, node, src, missing_message(node)));
            }
        } else if node.is_error() {
            if err_depth.is_none() {
                if w.errors.len() < MAX_ERRORS * 4 {
                    w.errors
                        .push(raw_error(lang, node, src, error_message(node, src)));
                }
                err_depth = Some(depth);
            }
        } else {
            let c = class.get(usize::from(node.kind_id())).copied().unwrap_or(0);
            if c != 0 {
                visit(lang, node, c, src, &mut w);
            }
        }
        if cursor.goto_first_child() {
            depth += 1;
            w.max_depth = w.max_depth.max(depth);
            continue;
        }
        loop {
            if err_depth == Some(depth) {
                err_depth = None;
            }
            if cursor.goto_next_sibling() {
                continue 'outer;
            }
            if !cursor.goto_parent() {
                break 'outer;
            }
            depth -= 1;
        }
    }
    w
}

fn visit<'s, 't>(lang: Language, node: Node<'t>, class: u8, src: &'s str, w: &mut Walked<'s, 't>) {
    if class & K_IDENT != 0 {
        let t = text(node, src);
        if !t.is_empty() {
            w.refs.insert(t.trim_start_matches('#'));
        }
    }
    if class & K_SYMBOL != 0 {
        let t = text(node, src)
            .trim_start_matches(':')
            .trim_end_matches(':');
        if !t.is_empty() && !t.starts_with(['"', '\'']) {
            w.refs.insert(t);
        }
    }
    if class & K_IMPORT != 0 {
        crate::imports::collect(lang, node, src, &mut w.imports);
    }
    if class & K_CALL != 0 && w.collect_calls {
        w.calls.push(node);
    }
    if class & K_MACRO != 0 {
        if node.kind() == "token_tree" {
            nested_macros(node, src, &mut w.nested_macros);
        } else if let Some(name) = node.child_by_field_name("macro")
            && let Some(tt) = ts::child_of_kind(node, "token_tree")
        {
            w.macros.push((text(name, src), tt.byte_range()));
        }
    }
}

/// The macro invocations written directly in Rust token tree `tt` (`name ! (...)`, which
/// tree-sitter leaves as three tokens there): (name, byte range of their token tree).
fn nested_macros<'s>(tt: Node<'_>, src: &'s str, out: &mut Vec<(&'s str, std::ops::Range<usize>)>) {
    let mut cursor = tt.walk();
    let tokens: Vec<Node<'_>> = tt.children(&mut cursor).collect();
    for call in tokens.windows(3) {
        if call[0].kind() == "identifier" && call[1].kind() == "!" && call[2].kind() == "token_tree"
        {
            out.push((text(call[0], src), call[2].byte_range()));
        }
    }
}

fn raw_error(lang: Language, node: Node<'_>, src: &str, message: String) -> RawError {
    let (line, column) = node_line_col(node, src);
    let in_preproc = matches!(lang, Language::C | Language::Cpp) && c_explained(node, src);
    let mut top = node;
    while let Some(p) = top.parent() {
        if p.parent().is_none() {
            break;
        }
        top = p;
    }
    RawError {
        error: SyntaxError::new(line, column, message),
        start_byte: node.start_byte(),
        in_preproc,
        top_start: top.start_byte(),
    }
}

/// 1-based line and character column of a node's start.
pub(crate) fn node_line_col(node: Node<'_>, src: &str) -> (u32, u32) {
    let pos = node.start_position();
    let start = node.start_byte();
    let line_start = start.saturating_sub(pos.column);
    let col = src
        .get(line_start..start)
        .map_or(pos.column, |s| s.chars().count());
    (
        u32::try_from(pos.row + 1).unwrap_or(u32::MAX),
        u32::try_from(col + 1).unwrap_or(u32::MAX),
    )
}

fn missing_message(node: Node<'_>) -> String {
    let kind = node.kind();
    if kind.chars().any(|c| c.is_alphanumeric()) && kind.chars().any(|c| c == '_') {
        format!("missing {}", kind.replace('_', " "))
    } else if kind.chars().all(|c| c.is_ascii_alphabetic()) && kind.len() > 3 {
        format!("missing {kind}")
    } else {
        format!("missing `{kind}`")
    }
}

fn error_message(node: Node<'_>, src: &str) -> String {
    if node.start_byte() >= src.len() {
        return "unexpected end of file".to_owned();
    }
    let t = text(node, src).trim();
    if t.is_empty() {
        return "syntax error".to_owned();
    }
    let first_line = t.lines().next().unwrap_or(t).trim_end();
    let snippet: String = first_line.chars().take(40).collect();
    let ellipsis = if snippet.len() < t.len() { "…" } else { "" };
    if node.child_count() <= 1 && !t.contains(char::is_whitespace) {
        format!("unexpected `{snippet}`")
    } else {
        format!("invalid syntax near `{snippet}{ellipsis}`")
    }
}

/// See [`RawError::in_preproc`].
fn c_explained(node: Node<'_>, src: &str) -> bool {
    if node.is_error() {
        let t = text(node, src);
        if t.starts_with('#') || t.contains("\n#") || t.contains("\n #") {
            return true;
        }
    }
    let mut p = node.parent();
    let mut depth = 0;
    while let Some(n) = p {
        match n.kind() {
            "argument_list" if node.is_error() && depth < 3 => return true,
            "preproc_if" => {
                let cond = n
                    .child_by_field_name("condition")
                    .map(|c| text(c, src).trim());
                if matches!(cond, Some("0" | "false")) {
                    return true;
                }
            }
            _ => {}
        }
        depth += 1;
        p = n.parent();
    }
    false
}

/// tree-sitter-typescript predates or lacks three valid constructs: `export type * from "m"` /
/// `export type * as ns from "m"` (TypeScript 5.0), variance annotations on type parameters
/// (`interface State<in out T>`, TypeScript 4.7), and a body-less default function declaration
/// (`export default function (): T;`, as `.d.ts` files emitted by tsc have it). Errors on a line
/// holding one are uncertain.
fn typescript_uncertain(src: &str, e: &RawError) -> bool {
    let Some(line) = src.lines().nth((e.error.line as usize).saturating_sub(1)) else {
        return false;
    };
    is_export_type_star(line) || has_variance_annotation(line) || is_default_function_decl(line)
}

/// `export default function (` or `export default function<T>(`: an anonymous default
/// function's signature starts here.
fn is_default_function_decl(line: &str) -> bool {
    let mut words = line.split_whitespace();
    if (words.next(), words.next()) != (Some("export"), Some("default")) {
        return false;
    }
    let rest = line
        .trim_start()
        .strip_prefix("export")
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("default"))
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("function"))
        .map(str::trim_start);
    rest.is_some_and(|r| r.starts_with('(') || r.starts_with('<'))
}

/// `export type * from "m";` or `export type * as ns from "m";`, alone on its line.
fn is_export_type_star(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let rest = match words.as_slice() {
        ["export", "type", "*", "as", _, "from", rest @ ..] => rest,
        ["export", "type", "*", "from", rest @ ..] => rest,
        _ => return false,
    };
    let spec = rest.concat();
    let spec = spec.strip_suffix(';').unwrap_or(&spec);
    spec.len() >= 2
        && ((spec.starts_with('"') && spec.ends_with('"'))
            || (spec.starts_with('\'') && spec.ends_with('\'')))
}

/// A type parameter list entry starting with `in`, `out` or `in out` and a name: `<in T`,
/// `, out U`.
fn has_variance_annotation(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.iter().enumerate().any(|(i, b)| {
        if *b != b'<' && *b != b',' {
            return false;
        }
        let mut words = line[i + 1..].split_whitespace();
        let name = match (words.next(), words.next()) {
            (Some("in"), Some("out")) => words.next(),
            (Some("in" | "out"), name) => name,
            _ => return false,
        };
        name.and_then(|n| n.chars().next())
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
    })
}

/// tree-sitter-bash misparses some valid heredocs (`<<\\EOF ||`, `: <<=cut`) and commands
/// continued over lines inside `$( )`: errors on or right after such lines are uncertain.
fn bash_uncertain(src: &str, e: &RawError) -> bool {
    let line = e.error.line as usize;
    let lines: Vec<&str> = src.lines().skip(line.saturating_sub(3)).take(3).collect();
    lines.iter().any(|l| {
        let t = l.trim_end();
        t.contains("<<")
            || t.ends_with('|')
            || t.ends_with('\\')
            || t.ends_with("&&")
            || t.ends_with("||")
            || t.contains("$(")
            // Nested brace expansion, `{{,us-}ascii,greek{,8}}`: a word to bash, a broken
            // group command to tree-sitter-bash.
            || (t.trim_start().starts_with("{{") || t.contains(" {{"))
    })
}
