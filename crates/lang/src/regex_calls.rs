//! The regular expressions handed to a regex constructor as one string literal, in Python
//! (`re.compile(r"(\d+")`), Rust (`Regex::new(...)`) and Go (`regexp.MustCompile(...)`), must
//! keep their bracket structure: every group closed, no `)` without its `(`, every character
//! class closed. A string literal is well-formed code whatever it holds; the engine raises
//! (Python's `re.error`, Go's panic, Rust's `Err` that code `unwrap`s) when the line runs.
//!
//! Only the structure is checked, with each engine's escapes and class rules, not the whole
//! grammar: the three engines differ in what else they accept (lookarounds, backreferences,
//! `\Q...\E`), and a pattern one of them accepts must not be called broken. Skipped: patterns
//! built from pieces (concatenation, f-strings, a variable), verbose patterns (`(?x)`,
//! `re.VERBOSE`: `#` comments may hold anything), and calls through other names (`from re
//! import compile`).

use tree_sitter::Node;

use crate::ts::{line_col, python_string, text};
use crate::{Language, SyntaxError};

/// Whether `src` may hold a regex-constructor call of `lang` (one of the callees occurs in the
/// text): only then does the analysis walk collect the calls for [`check`].
pub(crate) fn wanted(lang: Language, src: &str) -> bool {
    Calls::of(lang).is_some_and(|calls| calls.names.iter().any(|n| src.contains(n)))
}

/// The node kind of a call in `lang`, for the languages whose regex constructors are checked
/// (the analysis walk classifies nodes of this kind as calls).
pub(crate) fn call_kind(lang: Language) -> Option<&'static str> {
    Calls::of(lang).map(|calls| calls.call_kind)
}

/// Errors of the regex-constructor calls among `calls`: the call nodes the analysis walk met
/// (every node of [`call_kind`], collected when [`wanted`]), so the tree is not walked a second
/// time.
pub(crate) fn check(lang: Language, calls: &[Node<'_>], src: &str) -> Vec<SyntaxError> {
    let Some(constructors) = Calls::of(lang) else {
        return Vec::new();
    };
    calls
        .iter()
        .filter_map(|&n| call_error(&constructors, n, src))
        .collect()
}

/// What a regex-constructor call looks like in one language.
struct Calls {
    call_kind: &'static str,
    /// The callee as written.
    names: &'static [&'static str],
    /// Whether a `[` inside a class opens a nested class (Rust) or is a literal `[`.
    nested_classes: bool,
}

impl Calls {
    fn of(lang: Language) -> Option<Calls> {
        Some(match lang {
            Language::Python => Calls {
                call_kind: "call",
                names: &[
                    "re.compile",
                    "re.match",
                    "re.search",
                    "re.fullmatch",
                    "re.sub",
                    "re.subn",
                    "re.split",
                    "re.findall",
                    "re.finditer",
                ],
                nested_classes: false,
            },
            Language::Rust => Calls {
                call_kind: "call_expression",
                names: &[
                    "Regex::new",
                    "RegexBuilder::new",
                    "regex::Regex::new",
                    "regex::bytes::Regex::new",
                    "bytes::Regex::new",
                ],
                nested_classes: true,
            },
            Language::Go => Calls {
                call_kind: "call_expression",
                names: &[
                    "regexp.MustCompile",
                    "regexp.Compile",
                    "regexp.MatchString",
                    "regexp.Match",
                    "regexp.MustCompilePOSIX",
                    "regexp.CompilePOSIX",
                ],
                nested_classes: false,
            },
            _ => return None,
        })
    }
}

fn call_error(calls: &Calls, call: Node<'_>, src: &str) -> Option<SyntaxError> {
    let callee = text(call.child_by_field_name("function")?, src);
    if !calls.names.contains(&callee) || expects_an_error(call, src) {
        return None;
    }
    let args = call.child_by_field_name("arguments")?;
    let mut cursor = args.walk();
    let named: Vec<Node<'_>> = args.named_children(&mut cursor).collect();
    let first = *named.first()?;
    let verbose_flag = named[1..].iter().any(|a| {
        let t = text(*a, src);
        t.contains("VERBOSE") || t.contains("re.X")
    });
    if verbose_flag {
        return None;
    }
    let pattern = literal_value(first, src)?;
    if verbose(&pattern) {
        return None;
    }
    let message = structure_error(&pattern, calls.nested_classes)?;
    let (line, column) = line_col(src, first.start_byte());
    let shown: String = pattern.chars().take(60).collect();
    Some(SyntaxError::new(
        line,
        column,
        format!("invalid regular expression `{shown}` in {callee}(): {message}"),
    ))
}

/// Whether the code around the call expects the pattern to be refused: a test of the error
/// (`Regex::new("(").unwrap_err()`, `with pytest.raises(re.error):`) or a `try` whose `except`
/// catches it (`re.error`, `Exception`, everything; not `ImportError`).
fn expects_an_error(call: Node<'_>, src: &str) -> bool {
    if let Some(parent) = call.parent()
        && parent.kind() == "field_expression"
        && let Some(field) = parent.child_by_field_name("field")
        && matches!(
            text(field, src),
            "is_err" | "unwrap_err" | "expect_err" | "err"
        )
    {
        return true;
    }
    let mut from = call;
    let mut up = call.parent();
    while let Some(n) = up {
        match n.kind() {
            // Only the `try` body is guarded: a call in an `except` clause is not.
            "try_statement" if from.kind() == "block" && catches_regex_errors(n, src) => {
                return true;
            }
            "with_statement" => {
                let header = text(n, src).lines().next().unwrap_or("");
                if header.contains("aises") {
                    return true;
                }
            }
            "function_definition" | "function_item" | "function_declaration" => return false,
            _ => {}
        }
        from = n;
        up = n.parent();
    }
    false
}

/// Whether a Python `try` has an `except` that catches `re.error`.
fn catches_regex_errors(try_statement: Node<'_>, src: &str) -> bool {
    let mut c = try_statement.walk();
    try_statement
        .children(&mut c)
        .filter(|k| k.kind() == "except_clause")
        .any(|clause| {
            let header = text(clause, src).lines().next().unwrap_or("");
            let caught = header
                .trim_start_matches("except")
                .trim_end_matches(':')
                .trim();
            caught.is_empty()
                || caught.contains("Exception")
                || caught
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .any(|w| w == "error")
        })
}

/// The value of a plain string literal (its escapes resolved where they matter to a regex:
/// `\\` is one backslash), `None` for anything else: concatenations, f-strings, byte strings
/// with interpolation, names.
fn literal_value(node: Node<'_>, src: &str) -> Option<String> {
    let raw_text = text(node, src);
    match node.kind() {
        // Python: `string` with a prefix (raw or not); f-strings are pieces.
        "string" => {
            let (prefix, body) = python_string(node, src)?;
            Some(if prefix.contains(['r', 'R']) {
                body.to_string()
            } else {
                unescape(body)
            })
        }
        // Rust: "..." and r"...", r#"..."#; Go: "..." and `...`.
        "string_literal" | "interpreted_string_literal" => Some(unescape(strip_quotes(raw_text)?)),
        "raw_string_literal" => {
            let body = raw_text.trim_start_matches('r').trim_matches('#');
            Some(strip_quotes(body)?.to_string())
        }
        _ => None,
    }
}

/// The text between a Rust or Go literal's quotes: `"..."` or `` `...` ``.
fn strip_quotes(s: &str) -> Option<&str> {
    ["\"", "`"].iter().find_map(|q| {
        (s.len() >= 2)
            .then(|| s.strip_prefix(q)?.strip_suffix(q))
            .flatten()
    })
}

/// A string literal's body with `\\` and escaped quotes resolved; other escapes are kept as
/// written (`\d` stays `\d` for the regex; `\n` or `\x28` are letters to the check).
fn unescape(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some(q @ ('"' | '\'' | '`')) => out.push(q),
            Some(other) => {
                // An escape the string resolves (`\n`, `\x28`, `\u{..}`) or passes on (`\d`):
                // either way not a bracket.
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Whether the pattern turns on verbose mode (`(?x)`, `(?ix)`...): whitespace and `#`
/// comments are then not pattern.
fn verbose(pattern: &str) -> bool {
    let mut rest = pattern;
    while let Some(at) = rest.find("(?") {
        let flags: String = rest[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '-')
            .collect();
        if flags.split('-').next().is_some_and(|on| on.contains('x')) {
            return true;
        }
        rest = &rest[at + 2..];
    }
    false
}

/// The first structural error of `pattern`, in the words of Python's `re`.
fn structure_error(pattern: &str, nested_classes: bool) -> Option<String> {
    let p: Vec<char> = pattern.chars().collect();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '\\' => i += 1,
            '[' => match class_end(&p, i, nested_classes) {
                Some(end) => i = end,
                None => return Some(format!("unterminated character set at position {i}")),
            },
            '(' if p.get(i + 1) == Some(&'?') && p.get(i + 2) == Some(&'#') => {
                // A comment group runs to the first `)`.
                match p[i..].iter().position(|c| *c == ')') {
                    Some(len) => i += len,
                    None => {
                        return Some(format!("missing ), unterminated comment at position {i}"));
                    }
                }
            }
            '(' => open.push(i),
            ')' if open.pop().is_none() => {
                return Some(format!("unbalanced parenthesis at position {i}"));
            }
            _ => {}
        }
        i += 1;
    }
    open.first()
        .map(|at| format!("missing ), unterminated subpattern at position {at}"))
}

/// The index of the `]` closing the class opened at `start`; `None` when it is never closed.
fn class_end(p: &[char], start: usize, nested: bool) -> Option<usize> {
    let mut i = start + 1;
    if p.get(i) == Some(&'^') {
        i += 1;
    }
    // A `]` first in the class is a literal `]`.
    if p.get(i) == Some(&']') {
        i += 1;
    }
    let mut depth = 0usize;
    while i < p.len() {
        match p[i] {
            '\\' => i += 1,
            '[' if p.get(i + 1) == Some(&':') => {
                // `[:alpha:]`: one item.
                if let Some(len) = p[i + 2..].windows(2).position(|w| w == [':', ']']) {
                    i += len + 3;
                }
            }
            '[' if nested => depth += 1,
            ']' if depth == 0 => return Some(i),
            ']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::{Language, analyze};

    fn errors(lang: Language, src: &str) -> Vec<String> {
        analyze(lang, src)
            .syntax_errors
            .into_iter()
            .map(|e| e.message)
            .collect()
    }

    #[test]
    fn python_patterns_with_broken_brackets_are_errors() {
        let e = errors(
            Language::Python,
            "import re\nPAT = re.compile(r\"(\\d+-(\\w+)\")\n",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains("missing ), unterminated subpattern at position 0"),
            "{e:?}"
        );
        let e = errors(Language::Python, "import re\nre.match('a)b', s)\n");
        assert!(
            e[0].contains("unbalanced parenthesis at position 1"),
            "{e:?}"
        );
        let e = errors(Language::Python, "import re\nre.sub(\"[a-z\", '', s)\n");
        assert!(e[0].contains("unterminated character set"), "{e:?}");
    }

    #[test]
    fn python_patterns_that_compile_are_not() {
        for src in [
            r#"re.compile(r"(\d+)-(\w+)")"#,
            r#"re.compile("\\(literal\\)")"#,
            r#"re.compile("\\(")"#,
            r#"re.compile('\033\\[((?:\\d|;)*)([a-zA-Z])')"#,
            r#"re.compile(r"[()\]]+")"#,
            r#"re.compile(r"[]a]")"#,
            r#"re.compile(r"[[:alpha:]]")"#,
            r#"re.compile(r"(?P<name>x)(?P=name)(?#a comment ( )")"#,
            r#"re.compile(r"(?<=a)b(?!c)")"#,
            r#"re.compile(r"(?x) ( a  # a comment with ( ")"#,
            r#"re.compile(r" ( a  # with ( ", re.VERBOSE)"#,
            r#"re.compile(f"({x}")"#,
            r#"re.compile("(" + x)"#,
            r#"compile("(")"#,
        ] {
            let src = format!("import re\nX = {src}\n");
            assert!(errors(Language::Python, &src).is_empty(), "{src}");
        }
        // Code that expects the refusal.
        for src in [
            "def test_e():\n    with pytest.raises(re.error):\n        re.compile('(')\n",
            "try:\n    re.compile('(')\nexcept re.error:\n    pass\n",
        ] {
            assert!(errors(Language::Python, src).is_empty(), "{src}");
        }
        // A `try` about something else does not hide it.
        for src in [
            "try:\n    import x\nexcept ImportError:\n    P = re.compile('(a')\n",
            "try:\n    import x\nexcept Exception:\n    P = re.compile('(a')\n",
        ] {
            assert_eq!(errors(Language::Python, src).len(), 1, "{src}");
        }
    }

    #[test]
    fn rust_and_go_patterns() {
        let e = errors(
            Language::Rust,
            "fn f() { let re = Regex::new(r\"^(\\d+$\").unwrap(); }\n",
        );
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("in Regex::new()"), "{e:?}");
        for ok in [
            r#"fn f() { let re = Regex::new(r"^(\d+)$").unwrap(); }"#,
            r#"fn f() { let re = Regex::new("\\(x\\)").unwrap(); }"#,
            r#"fn f() { let re = Regex::new(r"[a[b]]").unwrap(); }"#,
            r##"fn f() { let re = Regex::new(r#"(")"#).unwrap(); }"##,
            r#"fn f() { let err = Regex::new(r"(").unwrap_err(); }"#,
        ] {
            assert!(errors(Language::Rust, ok).is_empty(), "{ok}");
        }
        let go = "package p\n\nimport \"regexp\"\n\nvar re = regexp.MustCompile(`^(a|b$`)\n";
        let e = errors(Language::Go, go);
        assert_eq!(e.len(), 1, "{e:?}");
        let ok =
            "package p\n\nimport \"regexp\"\n\nvar re = regexp.MustCompile(\"^\\\\(a|b\\\\)$\")\n";
        assert!(errors(Language::Go, ok).is_empty(), "{ok}");
    }
}
