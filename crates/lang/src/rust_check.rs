//! The Rust second check: `syn` parses the whole file (rustc's grammar, not tree-sitter's
//! approximation), and the arguments of well-known expression macros are parsed as
//! comma-separated expressions, so `println!("{}", x y)` is caught. The literal format string
//! of the std formatting macros is checked against their brace grammar (`{` opens an argument
//! that a `}` closes, `{{` and `}}` are escapes), so `println!("{x", x)` and
//! `format!("a}b")` are caught too: rustc rejects both.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use crate::SyntaxError;
use crate::ts::line_col;

/// Above this tree depth syn runs on a thread with a large stack (it is recursive).
const DEEP: usize = 160;
/// Above this tree depth syn is not run at all.
const TOO_DEEP: usize = 3000;

/// Macros whose arguments are comma-separated expressions.
const EXPR_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "dbg",
    "format_args",
    "todo",
    "unimplemented",
    "unreachable",
];

/// Formatting macros and the position of their format string argument. A lone literal is a
/// format string in every edition for most of them (`todo!`, `unimplemented!` and the
/// `assert_eq!` family pass it to `format_args!`); see [`LONE_MESSAGE_FROM_2021`].
const FORMAT_MACROS: &[(&str, usize)] = &[
    ("println", 0),
    ("print", 0),
    ("eprintln", 0),
    ("eprint", 0),
    ("format", 0),
    ("format_args", 0),
    ("write", 1),
    ("writeln", 1),
    ("panic", 0),
    ("todo", 0),
    ("unimplemented", 0),
    ("unreachable", 0),
    ("assert", 1),
    ("debug_assert", 1),
    ("assert_eq", 2),
    ("assert_ne", 2),
    ("debug_assert_eq", 2),
    ("debug_assert_ne", 2),
];

/// Macros whose lone literal message was a plain string before edition 2021 (`panic!("{")`
/// compiles in 2015 and 2018, is an error from 2021): with arguments after it, it is a format
/// string in every edition.
const LONE_MESSAGE_FROM_2021: &[&str] = &["panic", "unreachable", "assert", "debug_assert"];

/// The errors found in macro arguments, by the editions they hold in.
#[derive(Debug, Default)]
pub(crate) struct MacroErrors {
    /// Errors in every edition.
    pub(crate) certain: Vec<SyntaxError>,
    /// Brace errors in lone messages of [`LONE_MESSAGE_FROM_2021`] macros: errors only in
    /// crates of edition 2021 or later.
    pub(crate) from_edition_2021: Vec<SyntaxError>,
}

/// The first brace error of a format string (`None` when the braces are well formed), with
/// its char offset in the string's value.
pub(crate) fn format_brace_error(fmt: &str) -> Option<(usize, &'static str)> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => i += 2,
            '{' => {
                let mut rest = &chars[i + 1..];
                let mut skipped = i + 1;
                // `{:}<5}`: the character before an alignment is the fill, and may be a brace.
                if let Some(colon) = rest.iter().position(|&c| matches!(c, ':' | '{' | '}'))
                    && rest[colon] == ':'
                    && matches!(rest.get(colon + 2), Some('<' | '^' | '>'))
                {
                    rest = &rest[colon + 3..];
                    skipped += colon + 3;
                }
                match rest.iter().position(|&c| c == '}' || c == '{') {
                    Some(j) if rest[j] == '}' => i = skipped + j + 1,
                    Some(_) => {
                        return Some((
                            i,
                            "`{` opens an argument that is not closed before the next `{`",
                        ));
                    }
                    None => {
                        return Some((
                            i,
                            "`{` opens an argument that is never closed (write `{{` for a literal brace)",
                        ));
                    }
                }
            }
            '}' if chars.get(i + 1) == Some(&'}') => i += 2,
            '}' => return Some((i, "unmatched `}` (write `}}` for a literal brace)")),
            _ => i += 1,
        }
    }
    None
}

/// Parses the file with syn; `max_depth` is the tree-sitter tree depth. `None` when syn was
/// not run (pathologically deep input), `Some(None)` when the file parses.
pub(crate) fn check_file(src: &str, max_depth: usize) -> Option<Option<SyntaxError>> {
    if max_depth > TOO_DEEP {
        return None;
    }
    if max_depth > DEEP {
        let owned = src.to_owned();
        return std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || parse_file_editions(&owned))
            .ok()?
            .join()
            .ok();
    }
    Some(parse_file_editions(src))
}

/// syn parses the 2018+ grammar; 2015-edition code using the `try!` macro (a keyword since
/// 2018) is retried with `r#try!`, and code using `async`, `await` or `dyn` as identifiers
/// (ripgrep's 2015 `StderrReader::async(...)`) with them as raw identifiers.
fn parse_file_editions(src: &str) -> Option<SyntaxError> {
    let err = parse_file(src)?;
    let mut retried = std::borrow::Cow::Borrowed(src);
    if src.contains("try!") {
        retried = retried
            .replace("r#try!", "try!")
            .replace("try!", "r#try!")
            .into();
    }
    let message = err.message.as_str();
    for word in ["async", "await", "dyn"] {
        if message.contains(&format!("keyword `{word}`")) {
            retried = raw_identifiers(&retried, word).into();
        }
    }
    if retried != src {
        parse_file(&retried)?;
    }
    Some(err)
}

/// `src` with every whole-word `word` written as the raw identifier `r#word`.
fn raw_identifiers(src: &str, word: &str) -> String {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '#';
    let mut out = String::with_capacity(src.len() + 16);
    let mut rest = src;
    while let Some(at) = rest.find(word) {
        let before_ok = !rest[..at].chars().next_back().is_some_and(ident);
        let after_ok = !rest[at + word.len()..].chars().next().is_some_and(ident);
        out.push_str(&rest[..at]);
        if before_ok && after_ok {
            out.push_str("r#");
        }
        out.push_str(word);
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

fn parse_file(src: &str) -> Option<SyntaxError> {
    let result = catch_unwind(AssertUnwindSafe(|| match syn::parse_file(src) {
        Ok(_) => None,
        Err(e) => {
            let start = e.span().start();
            Some(SyntaxError::new(
                u32::try_from(start.line.max(1)).unwrap_or(u32::MAX),
                u32::try_from(start.column + 1).unwrap_or(u32::MAX),
                e.to_string(),
            ))
        }
    }));
    // proc-macro2 keeps a per-thread source map that grows with every parse.
    proc_macro2::extra::invalidate_current_thread_spans();
    result.ok().flatten()
}

/// Parses the arguments of known expression macros (`name`, token tree byte range). For
/// `nested` macros (written inside another macro's tokens, which may be a DSL of its own:
/// `macro_rules!` bodies with `$x`, `quote!` with `#x`) only a format string that parses is
/// judged; arguments syn cannot parse are left alone.
pub(crate) fn check_macros(
    src: &str,
    macros: &[(&str, Range<usize>)],
    nested: bool,
) -> MacroErrors {
    let mut out = MacroErrors::default();
    for (name, range) in macros {
        let name = name.trim_start_matches("::");
        let name = name
            .strip_prefix("std::")
            .or_else(|| name.strip_prefix("core::"))
            .or_else(|| name.strip_prefix("alloc::"))
            .unwrap_or(name);
        if !EXPR_MACROS.contains(&name) {
            continue;
        }
        let Some(tt) = src.get(range.clone()) else {
            continue;
        };
        if tt.len() < 2 {
            continue;
        }
        let Some(inner) = tt.get(1..tt.len() - 1) else {
            continue;
        };
        let is_vec = name == "vec";
        let format_at = FORMAT_MACROS
            .iter()
            .find(|(m, _)| *m == name)
            .map(|(_, i)| *i);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let list = Punctuated::<Expr, Token![,]>::parse_terminated.parse_str(inner);
            match list {
                Ok(list) => {
                    let at = format_at?;
                    let lone = list.len() < at + 2;
                    let Some(Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    })) = list.iter().nth(at)
                    else {
                        return None;
                    };
                    let (_, why) = format_brace_error(&s.value())?;
                    let start = s.span().start();
                    Some((
                        start.line,
                        start.column,
                        format!("invalid format string: {why}"),
                        lone && LONE_MESSAGE_FROM_2021.contains(&name),
                    ))
                }
                Err(_) if nested => None,
                Err(e) => {
                    if is_vec && repeat_form.parse_str(inner).is_ok() {
                        return None;
                    }
                    let s = e.span().start();
                    Some((s.line, s.column, e.to_string(), false))
                }
            }
        }));
        proc_macro2::extra::invalidate_current_thread_spans();
        if let Ok(Some((l, c, msg, from_2021))) = result {
            let (l0, c0) = line_col(src, range.start + 1);
            let (line, col) = if l <= 1 {
                (l0, c0.saturating_add(u32::try_from(c).unwrap_or(0)))
            } else {
                (
                    l0.saturating_add(u32::try_from(l - 1).unwrap_or(0)),
                    u32::try_from(c + 1).unwrap_or(1),
                )
            };
            let error = SyntaxError::new(line, col, format!("in `{name}!` arguments: {msg}"));
            if from_2021 {
                out.from_edition_2021.push(error);
            } else {
                out.certain.push(error);
            }
        }
    }
    out
}

/// `vec![elem; n]`.
fn repeat_form(input: ParseStream<'_>) -> syn::Result<()> {
    input.parse::<Expr>()?;
    input.parse::<Token![;]>()?;
    input.parse::<Expr>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_brace_grammar() {
        assert_eq!(format_brace_error("{} and {name:>8} {{x}} {0:?}"), None);
        assert_eq!(format_brace_error("{x").map(|e| e.0), Some(0));
        assert_eq!(format_brace_error("ab}c").map(|e| e.0), Some(2));
        assert_eq!(format_brace_error("{a{b}").map(|e| e.0), Some(0));
        assert_eq!(format_brace_error("é}}{{"), None);
        // A brace as the fill character of an aligned argument.
        assert_eq!(format_brace_error("{:}<5} {0:{^9}"), None);
        assert_eq!(format_brace_error("{:}5}").map(|e| e.0), Some(4));
    }

    #[test]
    fn edition_2015_keywords_as_identifiers() {
        let src = "fn f(r: bool) -> R {\n    if r { R::async(1) } else { R::sync(2) }\n}\n";
        assert_eq!(check_file(src, 10), Some(None));
        // A real error in such a file is still one.
        let broken = "fn f() -> R {\n    R::async(1\n}\n";
        assert!(matches!(check_file(broken, 10), Some(Some(_))));
    }

    fn macro_errors(src: &str) -> Vec<u32> {
        let at = src.find('(').expect("a macro call");
        let end = src.rfind(')').expect("a macro call") + 1;
        let name = src[..at].trim_end_matches('!');
        check_macros(src, &[(name, at..end)], false)
            .certain
            .iter()
            .map(|e| e.column)
            .collect()
    }

    #[test]
    fn assertion_messages_are_format_strings_when_arguments_follow() {
        assert_eq!(macro_errors("assert_eq!(a, b, \"got {x\", x)").len(), 1);
        assert_eq!(macro_errors("assert!(ok, \"bad {}}\", y)").len(), 1);
        assert!(macro_errors("assert!(ok, \"bad {}\", y)").is_empty());
        // A lone message is a plain string before edition 2021 ...
        assert!(macro_errors("assert!(ok, \"{\")").is_empty());
        assert!(macro_errors("debug_assert_ne!(a, b)").is_empty());
        // ... but not for `assert_eq!`, `todo!` and `unimplemented!`, which pass it to
        // `format_args!` in every edition.
        assert_eq!(macro_errors("assert_eq!(a, b, \"got {\")").len(), 1);
        assert_eq!(macro_errors("todo!(\"parse {x\")").len(), 1);
        assert_eq!(macro_errors("unimplemented!(\"}\")").len(), 1);
    }

    #[test]
    fn lone_panic_messages_are_errors_only_from_edition_2021() {
        for call in [
            "panic!(\"bad {\")",
            "unreachable!(\"}\")",
            "assert!(ok, \"{x\")",
        ] {
            let at = call.find('(').unwrap();
            let name = &call[..at - 1];
            let found = check_macros(call, &[(name, at..call.len())], false);
            assert!(found.certain.is_empty(), "{call}: {found:?}");
            assert_eq!(found.from_edition_2021.len(), 1, "{call}: {found:?}");
        }
        let fine = "panic!(\"{{x}} is fine\")";
        let found = check_macros(fine, &[("panic", 6..fine.len())], false);
        assert!(found.certain.is_empty() && found.from_edition_2021.is_empty());
    }
}

#[cfg(test)]
mod nested_tests {
    use crate::{Language, analyze};

    /// The messages of the certain syntax errors `analyze` finds in Rust `src`.
    fn errors(src: &str) -> Vec<String> {
        analyze(Language::Rust, src)
            .syntax_errors
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn a_format_string_inside_another_macro_is_judged() {
        let broken = "fn t() {\n    assert_eq!(format!(\"{:?\", x), \"y\");\n}\n";
        let found = errors(broken);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`format!`") && found[0].contains("invalid format string"));
        // Two levels down, in a `select!`-like macro of another crate.
        let deep = "fn t() {\n    select! { _ = f => { println!(\"{} done\", n); println!(\"{ failed\", n); } }\n}\n";
        assert_eq!(errors(deep).len(), 1, "{:?}", errors(deep));
        let fine = "fn t() {\n    assert_eq!(format!(\"{:?} {{x}}\", x), \"y\");\n}\n";
        assert!(errors(fine).is_empty(), "{:?}", errors(fine));
    }

    #[test]
    fn macro_languages_inside_a_macro_are_left_alone() {
        // `macro_rules!` bodies and `quote!` write arguments syn cannot parse.
        let rules = "macro_rules! show {\n    ($x:expr) => { println!(\"{}\", $x) };\n}\n";
        assert!(errors(rules).is_empty(), "{:?}", errors(rules));
        let quoted = "fn t() -> TokenStream {\n    quote! { format!(\"{}\", #name) }\n}\n";
        assert!(errors(quoted).is_empty(), "{:?}", errors(quoted));
        // Not a format macro: its arguments are its own.
        let other = "fn t() {\n    assert_eq!(json!({\"a\": \"{\"}), v);\n}\n";
        assert!(errors(other).is_empty(), "{:?}", errors(other));
    }
}
