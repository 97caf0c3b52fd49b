//! Import extraction, called by the walk on nodes whose kind may be an import.

use tree_sitter::Node;

use crate::ts::{line_of, named_kids, text};
use crate::{Import, Language};

/// Appends the imports `node` stands for (if any).
pub(crate) fn collect(lang: Language, node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    match lang {
        Language::Python => python(node, src, out),
        Language::Rust => rust(node, src, out),
        Language::JavaScript | Language::TypeScript | Language::Tsx => js(node, src, out),
        Language::Go => {
            if let Some(p) = node.child_by_field_name("path") {
                push(out, unquote(text(p, src)), node);
            }
        }
        Language::Java => java(node, src, out),
        Language::C | Language::Cpp => {
            if let Some(p) = node.child_by_field_name("path")
                && matches!(p.kind(), "string_literal" | "system_lib_string")
            {
                let t = text(p, src).trim();
                let t = t
                    .trim_start_matches(['"', '<'])
                    .trim_end_matches(['"', '>']);
                push(out, t.to_owned(), node);
            }
        }
        Language::Ruby => ruby(node, src, out),
        Language::Bash => bash(node, src, out),
    }
}

fn push(out: &mut Vec<Import>, module: String, node: Node<'_>) {
    if !module.is_empty() {
        out.push(Import {
            module,
            line: line_of(node),
        });
    }
}

/// Strips one layer of matching quotes or backticks.
fn unquote(s: &str) -> String {
    let s = s.trim();
    for q in ['"', '\'', '`'] {
        if s.len() >= 2 && s.starts_with(q) && s.ends_with(q) {
            return s[1..s.len() - 1].to_owned();
        }
    }
    s.to_owned()
}

fn python(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    match node.kind() {
        "import_statement" => {
            let mut cursor = node.walk();
            for name in node.children_by_field_name("name", &mut cursor) {
                let module = if name.kind() == "aliased_import" {
                    name.child_by_field_name("name").map(|n| text(n, src))
                } else {
                    Some(text(name, src))
                };
                if let Some(m) = module {
                    push(out, squash(m), node);
                }
            }
        }
        "import_from_statement" => {
            if let Some(m) = node.child_by_field_name("module_name") {
                push(out, squash(text(m, src)), node);
            }
        }
        "future_import_statement" => push(out, "__future__".to_owned(), node),
        _ => {}
    }
}

/// Removes whitespace (dotted names may be written `a . b` or across continuation lines).
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '\\')
        .collect()
}

fn rust(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    match node.kind() {
        "use_declaration" => {
            if let Some(arg) = node.child_by_field_name("argument") {
                let mut paths = Vec::new();
                use_tree(arg, src, "", &mut paths, 0);
                for p in paths {
                    push(out, p, node);
                }
            }
        }
        "extern_crate_declaration" => {
            if let Some(n) = node.child_by_field_name("name") {
                push(out, text(n, src).to_owned(), node);
            }
        }
        "mod_item" => {
            if node.child_by_field_name("body").is_none()
                && let Some(n) = node.child_by_field_name("name")
            {
                push(out, text(n, src).to_owned(), node);
            }
        }
        _ => {}
    }
}

fn join(prefix: &str, part: &str) -> String {
    let part = squash(part);
    if prefix.is_empty() {
        part
    } else if part == "self" {
        prefix.to_owned()
    } else {
        format!("{prefix}::{part}")
    }
}

/// Expands a Rust use tree into full paths: `std::{fmt, io::Write}` -> `std::fmt`,
/// `std::io::Write`; `a::{self, b}` -> `a`, `a::b`; `a::*` -> `a::*`; aliases keep the path.
fn use_tree(node: Node<'_>, src: &str, prefix: &str, out: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    match node.kind() {
        "scoped_use_list" => {
            let base = match node.child_by_field_name("path") {
                Some(p) => join(prefix, text(p, src)),
                None => prefix.to_owned(),
            };
            if let Some(list) = node.child_by_field_name("list") {
                use_tree(list, src, &base, out, depth + 1);
            }
        }
        "use_list" => {
            for c in named_kids(node) {
                use_tree(c, src, prefix, out, depth + 1);
            }
        }
        "use_as_clause" => {
            if let Some(p) = node.child_by_field_name("path") {
                use_tree(p, src, prefix, out, depth + 1);
            }
        }
        "line_comment" | "block_comment" | "attribute_item" => {}
        _ => out.push(join(prefix, text(node, src))),
    }
}

fn js(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    match node.kind() {
        "import_statement" | "export_statement" => {
            if let Some(s) = node.child_by_field_name("source") {
                push(out, unquote(text(s, src)), node);
            } else if node.kind() == "import_statement" {
                // TypeScript `import x = require('y')`.
                for c in named_kids(node) {
                    if c.kind() == "import_require_clause"
                        && let Some(s) = c.child_by_field_name("source")
                    {
                        push(out, unquote(text(s, src)), node);
                    }
                }
            }
        }
        "call_expression" => {
            let Some(f) = node.child_by_field_name("function") else {
                return;
            };
            let is_import =
                f.kind() == "import" || (f.kind() == "identifier" && text(f, src) == "require");
            if !is_import {
                return;
            }
            let Some(args) = node.child_by_field_name("arguments") else {
                return;
            };
            if let Some(first) = named_kids(args).into_iter().next()
                && first.kind() == "string"
            {
                push(out, unquote(text(first, src)), node);
            }
        }
        _ => {}
    }
}

fn java(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    let mut path = String::new();
    for c in named_kids(node) {
        match c.kind() {
            "scoped_identifier" | "identifier" => path = squash(text(c, src)),
            "asterisk" => path.push_str(".*"),
            _ => {}
        }
    }
    push(out, path, node);
}

fn ruby(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    if node.child_by_field_name("receiver").is_some() {
        return;
    }
    let Some(m) = node.child_by_field_name("method") else {
        return;
    };
    if !matches!(text(m, src), "require" | "require_relative" | "load") {
        return;
    }
    let Some(args) = node.child_by_field_name("arguments") else {
        return;
    };
    if let Some(first) = named_kids(args).into_iter().next()
        && first.kind() == "string"
    {
        let kids = named_kids(first);
        if kids.iter().all(|k| k.kind() == "string_content") {
            let module: String = kids.iter().map(|k| text(*k, src)).collect();
            push(out, module, node);
        }
    }
}

fn bash(node: Node<'_>, src: &str, out: &mut Vec<Import>) {
    let Some(name) = node.child_by_field_name("name") else {
        return;
    };
    if !matches!(text(name, src), "source" | ".") {
        return;
    }
    let mut cursor = node.walk();
    if let Some(arg) = node.children_by_field_name("argument", &mut cursor).next() {
        push(out, unquote(text(arg, src)), node);
    }
}
