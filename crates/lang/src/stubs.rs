//! Function bodies judged by their statements: logic, a placeholder stub, or nothing at all.
//!
//! A lazy model's answer keeps a function's signature and docstring and replaces its code
//! with `raise NotImplementedError`, `pass  # TODO`, `todo!()` or an empty block. Counting
//! lines cannot see this (the docstring and comments are lines too); the statements of the
//! syntax tree can, so the placeholder guard compares the [`Body`] of a function's before and
//! after versions.

use tree_sitter::Node;

use crate::ts::{named_kids, text};
use crate::{Body, Language, NestedBodies};

/// The shape of the body of the function node `func` (a `function_definition`,
/// `function_item`, `method_definition`, `arrow_function`, `method_declaration`, ...):
/// [`Body::Unknown`] when it has no body, its language is not judged, or it does not parse
/// (error recovery may drop a broken body's statements; the syntax guard speaks for it).
pub(crate) fn body_shape(lang: Language, func: Node<'_>, src: &str) -> Body {
    if !judged(lang) || func.has_error() {
        return Body::Unknown;
    }
    let Some(body) = func.child_by_field_name("body") else {
        return Body::Unknown;
    };
    if !matches!(
        body.kind(),
        "block" | "statement_block" | "constructor_body"
    ) {
        // An arrow function returning an expression: `(x) => x + 1`.
        return Body::Logic;
    }
    let statements = statements(lang, body);
    if statements.is_empty() {
        return Body::Empty;
    }
    // Whether the body carries a TODO marker, read only when a bare `return` asks (most
    // bodies are judged by their first statement). Python places a comment before the first
    // statement outside the block, in the function.
    let todo_cell = std::cell::OnceCell::new();
    let todo = || {
        *todo_cell.get_or_init(|| {
            let start = named_kids(func)
                .into_iter()
                .filter(|c| c.kind().contains("comment"))
                .map(|c| c.start_byte())
                .chain([body.start_byte()])
                .min()
                .unwrap_or(body.start_byte());
            has_todo_marker(&src[start..line_end(src, func.end_byte())])
        })
    };
    // Declarations (a local `use`, an import, a nested function) run nothing of the body's
    // own: a body of declarations beside stubs is a stub (`use winapi_util::Handle; todo!()`),
    // one of declarations alone is judged as before.
    let (declarations, runs): (Vec<Node<'_>>, Vec<Node<'_>>) =
        statements.iter().partition(|&&s| is_declaration(lang, s));
    let judged = if runs.is_empty() {
        &declarations
    } else {
        &runs
    };
    if judged
        .iter()
        .all(|&s| is_stub_statement(lang, s, src, &todo))
    {
        Body::Stub
    } else {
        Body::Logic
    }
}

/// The functions the body of the function node `func` defines as its own statements (Rust
/// `fn` items, Python `def`s), each judged by [`body_shape`].
pub(crate) fn nested_bodies(lang: Language, func: Node<'_>, src: &str) -> NestedBodies {
    let mut out = NestedBodies::default();
    if !matches!(lang, Language::Rust | Language::Python) || func.has_error() {
        return out;
    }
    let Some(body) = func.child_by_field_name("body") else {
        return out;
    };
    for s in named_kids(body) {
        let inner = match s.kind() {
            "function_item" | "function_definition" => s,
            "decorated_definition" => match s.child_by_field_name("definition") {
                Some(d) if d.kind() == "function_definition" => d,
                _ => continue,
            },
            _ => continue,
        };
        out.functions = out.functions.saturating_add(1);
        if body_shape(lang, inner, src).is_placeholder() {
            out.placeholders = out.placeholders.saturating_add(1);
        }
    }
    out
}

/// Languages whose function bodies [`body_shape`] judges.
fn judged(lang: Language) -> bool {
    matches!(
        lang,
        Language::Python
            | Language::Rust
            | Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
            | Language::Go
            | Language::Java
    )
}

/// The byte offset of the end of the line holding `at` (a trailing `# TODO` after the last
/// statement may lie outside the body node).
fn line_end(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i)
}

/// The statements of a body block, without comments, empty statements (`;`) and leading
/// docstrings or directives (a string alone as a statement: Python docstrings, JavaScript's
/// `"use strict"`).
fn statements(lang: Language, body: Node<'_>) -> Vec<Node<'_>> {
    let container = if lang == Language::Go {
        // Go: `block` -> `statement_list` -> statements (absent when the block is empty).
        match named_kids(body)
            .into_iter()
            .find(|c| c.kind() == "statement_list")
        {
            Some(list) => list,
            None => return Vec::new(),
        }
    } else {
        body
    };
    let mut out: Vec<Node<'_>> = named_kids(container)
        .into_iter()
        .filter(|c| !c.kind().contains("comment") && c.kind() != "empty_statement")
        .collect();
    let leading_strings = out.iter().take_while(|s| is_string_statement(**s)).count();
    out.drain(..leading_strings);
    out
}

/// A statement that only declares: Rust items inside a function (`use`, `extern crate`, a
/// nested `fn`, a type, a `const`), Python imports and nested definitions. Nested functions'
/// bodies are definitions of their own, judged apart.
fn is_declaration(lang: Language, s: Node<'_>) -> bool {
    match lang {
        Language::Rust => matches!(
            s.kind(),
            "use_declaration"
                | "extern_crate_declaration"
                | "function_item"
                | "struct_item"
                | "enum_item"
                | "union_item"
                | "type_item"
                | "trait_item"
                | "impl_item"
                | "mod_item"
                | "const_item"
                | "static_item"
                | "macro_definition"
                | "attribute_item"
                | "inner_attribute_item"
        ),
        Language::Python => matches!(
            s.kind(),
            "import_statement"
                | "import_from_statement"
                | "future_import_statement"
                | "function_definition"
                | "class_definition"
                | "decorated_definition"
        ),
        _ => false,
    }
}

/// An expression statement made of one string literal (a docstring, a directive).
fn is_string_statement(s: Node<'_>) -> bool {
    s.kind() == "expression_statement"
        && s.named_child_count() == 1
        && s.named_child(0).is_some_and(|c| {
            matches!(
                c.kind(),
                "string" | "concatenated_string" | "string_literal" | "template_string"
            )
        })
}

/// Whether statement `s` is a placeholder: `pass`, `...`, a raise / throw / panic saying
/// "not implemented", `todo!()` / `unimplemented!()`, or (when the body carries a TODO
/// marker: `todo()`) a return of nothing or of an empty value.
fn is_stub_statement(lang: Language, s: Node<'_>, src: &str, todo: &dyn Fn() -> bool) -> bool {
    let t = text(s, src);
    match s.kind() {
        "pass_statement" | "ellipsis" => true,
        "expression_statement" => {
            s.named_child_count() == 1
                && s.named_child(0)
                    .is_some_and(|inner| is_stub_statement(lang, inner, src, todo))
        }
        "macro_invocation" => rust_stub_macro(s, src),
        "raise_statement" => t.contains("NotImplementedError") || says_not_implemented(t),
        "throw_statement" => says_not_implemented(t),
        "call_expression" if lang == Language::Go => {
            s.child_by_field_name("function")
                .is_some_and(|f| text(f, src) == "panic")
                && says_not_implemented(t)
        }
        "return_statement" | "return_expression" => {
            (returns_nothing(t) && todo()) || says_not_implemented(t)
        }
        _ => false,
    }
}

/// `todo!(..)`, `unimplemented!(..)`, or `panic!("not implemented")`.
fn rust_stub_macro(m: Node<'_>, src: &str) -> bool {
    let Some(name) = m.child_by_field_name("macro") else {
        return false;
    };
    let name = text(name, src);
    let name = name.rsplit("::").next().unwrap_or(name);
    match name {
        "todo" | "unimplemented" => true,
        "panic" => says_not_implemented(text(m, src)),
        _ => false,
    }
}

/// Whether `text` says the code is missing: "not implemented", "not yet implemented",
/// "unimplemented", "implement me", `NotImplementedError`, or a TODO / FIXME word. Python's
/// `NotImplemented` value (what a binary operator returns to defer) says nothing of the kind.
fn says_not_implemented(text: &str) -> bool {
    // Every phrase below holds one of these words: most statements are ruled out here,
    // without building the squashed copy.
    if !["implement", "todo", "fixme"]
        .iter()
        .any(|w| contains_ignoring_case(text, w))
    {
        return false;
    }
    let squashed: String = text
        .split("NotImplemented")
        .enumerate()
        .map(|(i, part)| {
            // Keep `NotImplemented` when a word character follows it (`NotImplementedError`).
            let glued = part.bytes().next().is_some_and(crate::is_word_byte);
            if i > 0 && glued {
                format!("NotImplemented{part}")
            } else {
                part.to_owned()
            }
        })
        .collect::<String>()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    [
        "notimplemented",
        "notyetimplemented",
        "unimplemented",
        "implementme",
    ]
    .iter()
    .any(|p| squashed.contains(p))
        || has_todo_marker(text)
}

/// Whether `text` holds `needle` (ASCII lowercase) in any letter case.
fn contains_ignoring_case(text: &str, needle: &str) -> bool {
    text.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Whether `text` holds the word TODO or FIXME (any case).
fn has_todo_marker(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    crate::mentions_word(&lower, "todo") || crate::mentions_word(&lower, "fixme")
}

/// A return of nothing or of an empty value: `return`, `return None`, `return null;`,
/// `return nil, nil`, `return false`, `return 0`, `return []`, `return Ok(())`.
fn returns_nothing(statement: &str) -> bool {
    let value = statement
        .trim()
        .trim_end_matches(';')
        .trim_start_matches("return")
        .trim();
    value.split(',').all(|v| {
        matches!(
            v.trim(),
            "" | "None"
                | "null"
                | "nil"
                | "undefined"
                | "false"
                | "False"
                | "0"
                | "[]"
                | "{}"
                | "()"
                | "\"\""
                | "''"
                | "Ok(())"
                | "Default::default()"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze;

    /// The body of the first definition named `name` in `src`.
    fn shape(lang: Language, src: &str, name: &str) -> Body {
        let a = analyze(lang, src);
        assert!(a.syntax_errors.is_empty(), "{src}: {:?}", a.syntax_errors);
        a.definitions
            .iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("no `{name}` in {src}"))
            .body
    }

    #[test]
    fn python_stubs_under_a_kept_docstring() {
        let stubs = [
            "def f(x):\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    raise NotImplementedError\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    raise NotImplementedError(\"later\")\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    pass  # TODO: implement\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    # TODO\n    pass\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    ...\n",
            "def f(x): ...\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    return None  # TODO\n",
            "def f(x):\n    # TODO: port the parser\n    return\n",
        ];
        for src in stubs {
            assert_eq!(shape(Language::Python, src, "f"), Body::Stub, "{src}");
        }
        let empty = "def f(x):\n    \"\"\"Only the docstring is left.\"\"\"\n";
        assert_eq!(shape(Language::Python, empty, "f"), Body::Empty);
        let logic = [
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    return x + 1\n",
            "def f(x):\n    return None\n",
            "def f(x):\n    if x:\n        raise NotImplementedError\n    return x\n",
            "def f(x):\n    raise ValueError(x)\n",
            "def f(x):\n    return NotImplemented\n",
        ];
        for src in logic {
            assert_eq!(shape(Language::Python, src, "f"), Body::Logic, "{src}");
        }
    }

    #[test]
    fn python_abstract_members_are_declared_so() {
        let src = "import abc\nfrom typing import Protocol, overload\n\n\
                   class A(abc.ABC):\n    @abc.abstractmethod\n    def run(self):\n        raise NotImplementedError\n\n    def plain(self):\n        raise NotImplementedError\n\n\
                   class P(Protocol):\n    def read(self) -> bytes:\n        ...\n\n\
                   @overload\ndef g(x: int) -> int: ...\n";
        assert_eq!(shape(Language::Python, src, "A.run"), Body::Abstract);
        assert_eq!(shape(Language::Python, src, "A.plain"), Body::Stub);
        assert_eq!(shape(Language::Python, src, "P.read"), Body::Abstract);
        assert_eq!(shape(Language::Python, src, "g"), Body::Abstract);
    }

    #[test]
    fn stubs_in_other_languages() {
        let cases = [
            (
                Language::Rust,
                "fn f() -> u8 {\n    todo!()\n}\n",
                Body::Stub,
            ),
            (
                Language::Rust,
                "/// Doc.\nfn f() -> u8 {\n    // later\n    unimplemented!(\"soon\");\n}\n",
                Body::Stub,
            ),
            (Language::Rust, "fn f() {}\n", Body::Empty),
            (
                Language::Rust,
                "fn f() -> u8 {\n    #[cfg(unix)]\n    fn imp() -> u8 { 1 }\n    #[cfg(not(unix))]\n    fn imp() -> u8 { unimplemented!() }\n    imp()\n}\n",
                Body::Logic,
            ),
            // walkdir 2.5.0 `util::device_num` (windows), its code replaced under a kept `use`.
            (
                Language::Rust,
                "#[cfg(windows)]\npub fn device_num<P: AsRef<Path>>(path: P) -> io::Result<u64> {\n    use winapi_util::{file, Handle};\n\n    unimplemented!()\n}\n",
                Body::Stub,
            ),
            // dirs-sys 0.5.0 `home_dir`: its `#[cfg]` fallbacks kept, its own code gone.
            (
                Language::Rust,
                "pub fn home_dir() -> Option<PathBuf> {\n    todo!();\n\n    #[cfg(target_os = \"android\")]\n    unsafe fn fallback() -> Option<OsString> {\n        None\n    }\n    #[cfg(not(target_os = \"android\"))]\n    unsafe fn fallback() -> Option<OsString> {\n        let amt = libc::sysconf(libc::_SC_GETPW_R_SIZE_MAX);\n        Some(amt.to_string().into())\n    }\n}\n",
                Body::Stub,
            ),
            (
                Language::Rust,
                "#[cfg(unix)]\npub fn device_num<P: AsRef<Path>>(path: P) -> io::Result<u64> {\n    use std::os::unix::fs::MetadataExt;\n\n    path.as_ref().metadata().map(|md| md.dev())\n}\n",
                Body::Logic,
            ),
            (
                Language::Rust,
                "fn f() {\n    use std::io::Write;\n}\n",
                Body::Logic,
            ),
            (
                Language::Python,
                "def f(x):\n    \"\"\"Doc.\"\"\"\n    import json\n    raise NotImplementedError\n",
                Body::Stub,
            ),
            (
                Language::Go,
                "package p\n\nfunc f() int {\n\tpanic(\"not implemented\")\n}\n",
                Body::Stub,
            ),
            (
                Language::Go,
                "package p\n\nfunc f() int {\n\tpanic(\"TODO\")\n}\n",
                Body::Stub,
            ),
            (
                Language::Go,
                "package p\n\nfunc f() int {\n\tpanic(err)\n}\n",
                Body::Logic,
            ),
            (Language::Go, "package p\n\nfunc f() {\n}\n", Body::Empty),
            (
                Language::JavaScript,
                "function f(a) {\n  // keep docs\n  throw new Error('Not implemented');\n}\n",
                Body::Stub,
            ),
            (
                Language::TypeScript,
                "class K {\n  f(a: number): number {\n    throw new Error(\"Not implemented\");\n  }\n}\n",
                Body::Stub,
            ),
            (Language::JavaScript, "const f = () => {};\n", Body::Empty),
            (
                Language::JavaScript,
                "const f = (a) => a + 1;\n",
                Body::Logic,
            ),
            (
                Language::JavaScript,
                "function f(a) {\n  throw new TypeError('a must be a string');\n}\n",
                Body::Logic,
            ),
        ];
        for (lang, src, want) in cases {
            let first = analyze(lang, src)
                .definitions
                .first()
                .map(|d| d.name.clone());
            let name = if src.contains("class K") {
                "K.f".to_owned()
            } else {
                first.unwrap_or_default()
            };
            assert_eq!(shape(lang, src, &name), want, "{src}");
        }
    }

    #[test]
    fn nested_functions_are_counted_with_their_placeholders() {
        // ignore 0.4.34 `pathutil::is_hidden_path`, its windows variant gutted.
        let src = "pub(crate) fn is_hidden_path(dent: &Path) -> bool {\n    #[cfg(not(windows))]\n    fn imp(path: &Path) -> bool {\n        is_hidden_path_only(path)\n    }\n\n    #[cfg(windows)]\n    fn imp(path: &Path) -> bool {\n        use std::os::windows::fs::MetadataExt;\n\n        unimplemented!()\n    }\n\n    imp(dent)\n}\n";
        let a = analyze(Language::Rust, src);
        let def = &a.definitions[0];
        assert_eq!(def.body, Body::Logic);
        let want = NestedBodies {
            functions: 2,
            placeholders: 1,
        };
        assert_eq!(def.nested, want);
        let py = "def outer(x):\n    def helper(y):\n        raise NotImplementedError\n\n    @cache\n    def other(y):\n        return y\n\n    return helper(x) + other(x)\n";
        let want = NestedBodies {
            functions: 2,
            placeholders: 1,
        };
        assert_eq!(analyze(Language::Python, py).definitions[0].nested, want);
        let flat = analyze(Language::Go, "package p\n\nfunc f() int {\n\treturn 1\n}\n");
        assert_eq!(flat.definitions[0].nested, NestedBodies::default());
    }

    #[test]
    fn broken_bodies_are_not_judged() {
        let a = analyze(Language::Python, "def main(:\n    print('hi')\n");
        assert!(a.definitions.iter().all(|d| d.body == Body::Unknown));
    }

    #[test]
    fn bodiless_declarations_are_unknown() {
        let src = "trait T {\n    fn f(&self) -> u8;\n}\n";
        assert_eq!(shape(Language::Rust, src, "T::f"), Body::Unknown);
        let src = "abstract class A {\n  abstract f(): void;\n}\n";
        assert_eq!(shape(Language::TypeScript, src, "A.f"), Body::Unknown);
    }
}
