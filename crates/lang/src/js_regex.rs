//! The JavaScript regular-expression second check: every regex literal of a JavaScript or
//! TypeScript file must compile as ECMAScript. The tree-sitter grammar sees `/^(ab/` as a
//! well-formed literal; the engine throws a `SyntaxError` when the script loads.
//!
//! Each literal's pattern and flags go to `regress`, an ECMAScript regex engine (with the web
//! compatibility grammar of Annex B outside unicode mode, as browsers and Node parse: `/a{/` and
//! `/]/` are fine there). Literals with the `v` flag (ES2024 class sets) are not checked.

use tree_sitter::Node;

use crate::SyntaxError;
use crate::ts::{line_col, text};

/// Errors of the regex literals under `root`.
pub(crate) fn check(root: Node<'_>, src: &str) -> Vec<SyntaxError> {
    if !src.contains('/') {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "regex" {
            if let Some(e) = literal_error(n, src) {
                out.push(e);
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

fn literal_error(n: Node<'_>, src: &str) -> Option<SyntaxError> {
    let pattern = n.child_by_field_name("pattern").map(|p| text(p, src))?;
    let flags = n.child_by_field_name("flags").map_or("", |f| text(f, src));
    if flags.contains('v') {
        return None;
    }
    let err = regress::Regex::with_flags(pattern, flags).err()?;
    let (line, column) = line_col(src, n.start_byte());
    let shown: String = pattern.chars().take(60).collect();
    Some(SyntaxError::new(
        line,
        column,
        format!("invalid regular expression /{shown}/{flags}: {err}"),
    ))
}

#[cfg(test)]
mod tests {
    use crate::{Language, analyze};

    fn errors(src: &str) -> Vec<String> {
        analyze(Language::JavaScript, src)
            .syntax_errors
            .into_iter()
            .map(|e| e.message)
            .collect()
    }

    #[test]
    fn an_unterminated_group_is_an_error() {
        let e = errors("const re = /^(ab/;\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("invalid regular expression /^(ab/"), "{e:?}");
        assert!(e[0].contains("Unbalanced parenthesis"), "{e:?}");
        assert_eq!(errors("const re = /x{2,1}/g;\n").len(), 1);
        assert_eq!(errors("const re = /[a-z/u;\n").len(), 1);
    }

    #[test]
    fn valid_and_web_compatible_regexes_pass() {
        for ok in [
            r"const a = /^(?<year>\d{4})-(?<m>\d\d)$/u;",
            r"const b = /(?<=\$)\d+(?!px)/g;",
            r"const c = /\p{Letter}+/gu;",
            r"const d = /a{/;",
            r"const e = /]/;",
            r"const f = /[\w-]+\/[^/]*/gi;",
            r"const g = /[\p{L}--[a-z]]/v;",
            r"const h = x / y / z;",
            r"const i = '/(' + s;",
        ] {
            assert_eq!(errors(ok), Vec::<String>::new(), "{ok}");
        }
        let ts = analyze(Language::TypeScript, "const r: RegExp = /^(a|b/;\n");
        assert_eq!(ts.syntax_errors.len(), 1);
    }
}
