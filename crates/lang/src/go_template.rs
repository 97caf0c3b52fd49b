//! The Go template second check: string literals passed to `.Parse(...)` in a file that imports
//! `text/template` or `html/template` must have well-formed `{{ ... }}` actions. The Go parser
//! sees only a string; `template.Must(template.New("x").Parse("{{end}"))` compiles and panics
//! at start-up.
//!
//! Checked: every `{{` closes with `}}` before the next `{{` and before the text ends, outside
//! the action's quoted strings (`{{ "}}" }}` is fine) and comments (`{{/* ... */}}`). A stray
//! `}}` in text is text to the template lexer, so it is not an error. Files that call
//! `.Delims(` (custom delimiters) are not checked, nor `Parse` functions of other imported
//! packages (`url.Parse`, `time.Parse`).

use tree_sitter::Node;

use crate::ts::{line_col, text};
use crate::{Import, SyntaxError};

/// Template errors in the `.Parse` literals of a parsed Go file.
pub(crate) fn check(root: Node<'_>, src: &str, imports: &[Import]) -> Vec<SyntaxError> {
    let uses_templates = imports
        .iter()
        .any(|i| i.module == "text/template" || i.module == "html/template");
    if !uses_templates || !src.contains("{{") || src.contains(".Delims(") {
        return Vec::new();
    }
    // `url.Parse`, `time.Parse`: a package function of another import, not a template's.
    let other_packages: Vec<&str> = imports
        .iter()
        .filter(|i| !i.module.ends_with("/template"))
        .map(|i| i.module.rsplit('/').next().unwrap_or(&i.module))
        .collect();
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression"
            && let Some(f) = n.child_by_field_name("function")
            && f.kind() == "selector_expression"
            && f.child_by_field_name("field")
                .is_some_and(|x| text(x, src) == "Parse")
            && !f
                .child_by_field_name("operand")
                .is_some_and(|o| other_packages.contains(&text(o, src)))
            && let Some(args) = n.child_by_field_name("arguments")
            && let Some(lit) = args.named_child(0)
            && matches!(
                lit.kind(),
                "interpreted_string_literal" | "raw_string_literal"
            )
        {
            let raw = text(lit, src);
            let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
            // `\"` in an interpreted literal is a quote of the template (offsets stay close
            // enough for the reported column).
            let body = if lit.kind() == "interpreted_string_literal" {
                body.replace("\\\\", "\u{0}")
                    .replace("\\\"", "\"")
                    .replace('\u{0}', "\\")
            } else {
                body.to_string()
            };
            if let Some((at, why)) = delimiter_error(&body) {
                let (line, column) = line_col(src, lit.start_byte() + 1 + at);
                out.push(SyntaxError::new(
                    line,
                    column,
                    format!("in a template passed to `Parse`: {why}"),
                ));
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// The first delimiter error of a Go template text (byte offset, message).
pub(crate) fn delimiter_error(t: &str) -> Option<(usize, &'static str)> {
    let b = t.as_bytes();
    let mut i = 0;
    while let Some(open) = t.get(i..).and_then(|r| r.find("{{")) {
        let start = i + open;
        let mut j = start + 2;
        // `{{- /* comment */ -}}`
        let inner = t[j..].trim_start_matches('-').trim_start();
        if inner.starts_with("/*") {
            let cstart = t.len() - inner.len();
            let Some(end) = t[cstart..].find("*/") else {
                return Some((start, "template comment `{{/*` is never closed with `*/}}`"));
            };
            j = cstart + end + 2;
        }
        loop {
            let Some(&c) = b.get(j) else {
                return Some((start, "`{{` opens an action that is never closed with `}}`"));
            };
            match c {
                b'"' | b'\'' | b'`' => {
                    let mut k = j + 1;
                    while k < b.len() && b[k] != c {
                        k += if c != b'`' && b[k] == b'\\' { 2 } else { 1 };
                    }
                    if k >= b.len() {
                        return Some((start, "a quoted string in a `{{` action is never closed"));
                    }
                    j = k + 1;
                }
                b'}' if b.get(j + 1) == Some(&b'}') => {
                    i = j + 2;
                    break;
                }
                b'{' if b.get(j + 1) == Some(&b'{') => {
                    return Some((
                        start,
                        "`{{` opens an action that is not closed with `}}` before the next `{{`",
                    ));
                }
                _ => j += 1,
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters() {
        assert_eq!(delimiter_error("{{if .X}}a{{else}}b{{end}}"), None);
        assert_eq!(
            delimiter_error("{{ \"}}\" }} {{/* don't */}} {{- .Y -}} }} x"),
            None
        );
        assert_eq!(delimiter_error("{{if .X}}a{{end}").map(|e| e.0), Some(10));
        assert_eq!(delimiter_error("{{.A}\n{{.B}}").map(|e| e.0), Some(0));
        assert_eq!(delimiter_error("{{ \"x }}").map(|e| e.0), Some(0));
        assert_eq!(delimiter_error("plain text"), None);
    }
}
