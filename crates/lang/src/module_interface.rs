//! What a module says about its own interface, read from its syntax tree: the names a Python
//! module's `__all__` lists, and the package a Go file declares.
//!
//! Both name a definition from outside its body. A Python name still listed in `__all__` is
//! exported: `from mod import *` fails on it (more_itertools' `__init__.py` star-imports
//! `more.py`, whose `__all__` lists every function). A Go package is reached from other
//! packages as `<package clause>.Name` (`logrus.SetOutput` for the root file `exported.go`,
//! whose path has no directory to name the package).

use tree_sitter::Tree;

use crate::Language;
use crate::ts::{self, line_of, named_kids, text};

/// The string entries of the top-level `__all__` assignments of `source` (a Python file), with
/// their 1-based lines: `__all__ = [...]`, `__all__ = (...)`, `__all__ += [...]`. Entries that
/// are not plain string literals are left out; `None` when the file could not be parsed.
pub(crate) fn python_dunder_all(source: &str) -> Option<Vec<(String, u32)>> {
    if !source.contains("__all__") {
        return Some(Vec::new());
    }
    let tree = ts::parse(Language::Python, source)?;
    Some(python_dunder_all_in(source, &tree))
}

/// [`python_dunder_all`] of `source` from its parsed `tree`.
pub(crate) fn python_dunder_all_in(source: &str, tree: &Tree) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for stmt in named_kids(tree.root_node()) {
        if stmt.kind() != "expression_statement" {
            continue;
        }
        for node in named_kids(stmt) {
            if !matches!(node.kind(), "assignment" | "augmented_assignment") {
                continue;
            }
            let (Some(left), Some(right)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            ) else {
                continue;
            };
            if text(left, source) != "__all__" || !matches!(right.kind(), "list" | "tuple" | "set")
            {
                continue;
            }
            for entry in named_kids(right) {
                if let Some((_, body)) = ts::python_string(entry, source) {
                    out.push((body.to_string(), line_of(entry)));
                }
            }
        }
    }
    out
}

/// The package a Go file declares (`package logrus` -> `logrus`); `None` without a clause or
/// when the file could not be parsed.
pub(crate) fn go_package(source: &str) -> Option<String> {
    let tree = ts::parse(Language::Go, source)?;
    go_package_in(source, &tree)
}

/// [`go_package`] of `source` from its parsed `tree`.
pub(crate) fn go_package_in(source: &str, tree: &Tree) -> Option<String> {
    let clause = ts::child_of_kind(tree.root_node(), "package_clause")?;
    let name = named_kids(clause)
        .into_iter()
        .find(|n| n.kind() == "package_identifier")?;
    Some(text(name, source).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// more_itertools 11.2.1, `more.py` (abridged): one `__all__` list over several lines.
    #[test]
    fn dunder_all_entries_and_lines() {
        let src = "import warnings\n\n__all__ = [\n    'AbortThread',\n    \"adjacent\",\n    'all_equal',\n]\n\n_marker = object()\n__all__ += ['chunked']\n\ndef f():\n    __all__ = ['local']\n";
        let got = python_dunder_all(src).unwrap();
        assert_eq!(
            got,
            vec![
                ("AbortThread".to_string(), 4),
                ("adjacent".to_string(), 5),
                ("all_equal".to_string(), 6),
                ("chunked".to_string(), 10),
            ]
        );
        assert!(python_dunder_all("x = 1\n").unwrap().is_empty());
        // A computed `__all__` lists nothing we can read.
        let computed = "__all__ = [n for n in dir() if not n.startswith('_')]\n";
        assert!(python_dunder_all(computed).unwrap().is_empty());
    }

    /// logrus `exported.go` (abridged) and a `_test` package.
    #[test]
    fn go_package_clause() {
        let src = "// Package doc\npackage logrus\n\nimport (\n\t\"context\"\n)\n\nfunc SetOutput(out io.Writer) {\n\tstd.SetOutput(out)\n}\n";
        assert_eq!(go_package(src).as_deref(), Some("logrus"));
        assert_eq!(
            go_package("package logrus_test\n").as_deref(),
            Some("logrus_test")
        );
        assert_eq!(go_package("func f() {}\n"), None);
    }
}
