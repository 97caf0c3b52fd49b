//! The code of a source file without its comments and docstrings, as a list of tokens: two
//! versions with the same tokens differ only in documentation and layout. Used to hold a
//! change that was asked to document code to documenting it.

use tree_sitter::{Node, Tree};

use crate::{Language, ts};

/// One token of code: its 1-based line and its text.
pub type CodeToken = (u32, String);

/// The leaf tokens of `source` parsed as `language`, in order, without comments (every node
/// whose kind names a comment: line, block and doc comments) and, in Python, without
/// docstrings (a string that is the whole first statement of a module, class or function).
/// `None` when the text does not parse in time.
pub fn code_tokens(language: Language, source: &str) -> Option<Vec<CodeToken>> {
    let tree = ts::parse(language, source)?;
    Some(code_tokens_in(language, source, &tree))
}

/// [`code_tokens`] of `source` from its parsed `tree`.
pub(crate) fn code_tokens_in(language: Language, source: &str, tree: &Tree) -> Vec<CodeToken> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind().contains("comment") || (language == Language::Python && is_docstring(node)) {
            continue;
        }
        if node.child_count() == 0 {
            let text = ts::text(node, source);
            if !text.trim().is_empty() {
                out.push((node.start_position().row as u32 + 1, text.to_string()));
            }
            continue;
        }
        stack.extend(ts::kids(node).into_iter().rev());
    }
    out
}

/// A Python docstring: an expression statement made of one string, the first statement of a
/// module or of a block (a class's or function's body).
fn is_docstring(node: Node<'_>) -> bool {
    if node.kind() != "expression_statement" || node.named_child_count() != 1 {
        return false;
    }
    let is_string = node
        .named_child(0)
        .is_some_and(|c| matches!(c.kind(), "string" | "concatenated_string"));
    let Some(parent) = node.parent() else {
        return false;
    };
    let first_statement = ts::named_kids(parent)
        .into_iter()
        .find(|k| !k.kind().contains("comment"));
    is_string
        && matches!(parent.kind(), "module" | "block")
        && first_statement.is_some_and(|f| f.id() == node.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(language: Language, source: &str) -> Vec<String> {
        code_tokens(language, source)
            .unwrap()
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn comments_and_docstrings_are_not_code() {
        let plain = "def add(a, b):\n    return a + b\n";
        let documented = "\"\"\"Math.\"\"\"\n\n\ndef add(a, b):\n    \"\"\"Adds.\"\"\"\n    # the sum\n    return a + b  # done\n";
        assert_eq!(
            texts(Language::Python, plain),
            texts(Language::Python, documented)
        );
        // A string that is not the first statement is code.
        let later = "def f():\n    x = 1\n    \"not a docstring\"\n";
        assert!(texts(Language::Python, later).contains(&"\"".to_string()));
        let rust =
            "/// Adds.\npub fn add(a: i32, b: i32) -> i32 {\n    // sum\n    a + b /* ok */\n}\n";
        assert_eq!(
            texts(Language::Rust, rust),
            texts(
                Language::Rust,
                "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
            )
        );
        let go = "// Count counts.\nfunc Count(s string) int {\n\treturn len(s) // length\n}\n";
        assert_eq!(
            texts(Language::Go, go),
            texts(
                Language::Go,
                "func Count(s string) int {\n\treturn len(s)\n}\n"
            )
        );
    }

    #[test]
    fn a_changed_or_deleted_statement_changes_the_tokens_with_its_line() {
        let before = "import unittest\n\n\nclass T(unittest.TestCase):\n    pass\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n";
        let after =
            "import unittest\n\n\nclass T(unittest.TestCase):\n    \"\"\"Tests.\"\"\"\n    pass\n";
        let b = code_tokens(Language::Python, before).unwrap();
        let a = code_tokens(Language::Python, after).unwrap();
        assert_ne!(b, a);
        assert!(b.iter().any(|(line, t)| *line == 8 && t == "if"));
    }
}
