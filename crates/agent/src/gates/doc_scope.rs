//! doc-scope: a subtask that asks only to document code (doc comments, docstrings, comments)
//! may not change the code itself.
//!
//! Planners add "Add doc comments to source files" subtasks, and small models answer them by
//! rewriting the file: a dropped `if __name__ == "__main__":` block, a renamed variable, a
//! "simplified" condition, with not one comment added. Every other gate can pass such a
//! change (the tests still run, nothing that is used was removed). This one compares each
//! changed source file's code tokens before and after ([`slopguard_lang::code_tokens`]:
//! comments, docstrings and layout left out); any difference refuses the candidate, naming
//! the first line that differs. Files that are not code (Markdown, text) are free to change.

use slopguard_change::{ChangeKind, ChangeSet, FileChange};
use slopguard_lang::{FileKind, Language};

use super::{Phase, Rejection, RejectionFinding};
use slopguard_planning::plan::Subtask;

/// The gate's slug.
pub const SLUG: &str = "doc-scope";

/// Words that make a subtask a documentation one.
const DOC_WORDS: [&str; 8] = [
    "doc comment",
    "doc-comment",
    "docstring",
    "documentation comment",
    "code comment",
    "add comments",
    "comment the",
    "jsdoc",
];

/// Words that say the subtask also changes behaviour: then code may change.
const CODE_WORDS: [&str; 10] = [
    "fix",
    "bug",
    "implement",
    "refactor",
    "rename",
    "remove",
    "delete",
    "optimi",
    "handle",
    "support",
];

/// Whether the subtask asks only for documentation in code.
pub fn asks_for_docs_only(subtask: &Subtask) -> bool {
    let text = format!("{} {}", subtask.title, subtask.description).to_lowercase();
    DOC_WORDS.iter().any(|w| text.contains(w)) && !CODE_WORDS.iter().any(|w| text.contains(w))
}

/// The refusal of `change` for a documentation-only `subtask` that changes code; `None` when
/// the subtask is not one, or the change only touches comments, docstrings and layout.
pub fn check(subtask: &Subtask, change: &ChangeSet) -> Option<Rejection> {
    if !asks_for_docs_only(subtask) {
        return None;
    }
    let findings: Vec<RejectionFinding> = change.changes.iter().filter_map(code_changed).collect();
    (!findings.is_empty()).then(|| Rejection::new(SLUG, Phase::Static, findings))
}

/// What a change to one file does to its code, when it does anything.
fn code_changed(file: &FileChange) -> Option<RejectionFinding> {
    let sample = file.after.as_deref().or(file.before.as_deref())?;
    let FileKind::Code(language) =
        slopguard_lang::detect(&file.path, &sample[..sample.len().min(256)])
    else {
        return None;
    };
    let finding = |message: String, line: u32| RejectionFinding {
        path: Some(file.path.clone()),
        message,
        data: serde_json::json!({"line": line}),
    };
    let (before, after) = match (&file.kind, file.before_text(), file.after_text()) {
        (ChangeKind::Modify | ChangeKind::Rename { .. }, Some(b), Some(a)) => (b, a),
        (ChangeKind::Delete, ..) => {
            return Some(finding(
                format!(
                    "the subtask asks only for documentation, but the change deletes the code \
                     file `{}`; keep it and only add or edit comments",
                    file.path
                ),
                0,
            ));
        }
        _ => return None,
    };
    first_code_difference(language, before, after).map(|(line, code)| {
        finding(
            format!(
                "the subtask asks only for documentation (doc comments, docstrings), but the \
                 change alters the code of `{}` at line {line} (`{code}`); keep every line of \
                 code as it is and only add or edit comments",
                file.path
            ),
            line,
        )
    })
}

/// The first place where the code of `after` differs from `before`: its line in `after` (or
/// in `before` when code was only removed) and that line's text. `None` when the code tokens
/// are the same, or a version does not parse (the syntax guard speaks to that).
fn first_code_difference(language: Language, before: &str, after: &str) -> Option<(u32, String)> {
    let old = slopguard_lang::code_tokens(language, before)?;
    let new = slopguard_lang::code_tokens(language, after)?;
    let at = old
        .iter()
        .zip(&new)
        .position(|((_, a), (_, b))| a != b)
        .or_else(|| (old.len() != new.len()).then(|| old.len().min(new.len())))?;
    // The after version's line, where the reader looks; the before version's when code was
    // only removed at the end.
    let (line, source) = match (new.get(at), old.get(at)) {
        (Some((line, _)), _) => (*line, after),
        (None, Some((line, _))) => (*line, before),
        (None, None) => return None,
    };
    let text = source
        .lines()
        .nth(line as usize - 1)
        .unwrap_or_default()
        .trim()
        .chars()
        .take(120)
        .collect();
    Some((line, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_planning::plan::Action;

    fn subtask(title: &str) -> Subtask {
        Subtask {
            id: "T002-S01".into(),
            title: title.into(),
            description: String::new(),
            file_hints: vec!["src/db.py".into()],
            action: Action::Modify,
        }
    }

    fn modify(path: &str, before: &str, after: &str) -> ChangeSet {
        ChangeSet::new(
            std::sync::Arc::new(slopguard_change::MemTree::new(Default::default())),
            vec![FileChange::modify(path, before, after)],
            "test",
        )
    }

    const TESTS: &str = "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(True)\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n";

    #[test]
    fn a_documentation_subtask_that_deletes_code_is_refused_at_the_first_changed_line() {
        // Seen live: "Add doc comments to source files" answered by deleting the main block.
        let after = "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(True)\n";
        let st = subtask("Add doc comments to source files");
        let r = check(&st, &modify("tests/test_db.py", TESTS, after)).expect("refused");
        assert_eq!(r.gate, SLUG);
        let m = &r.findings[0].message;
        assert!(m.contains("line 9") && m.contains("if __name__"), "{m}");
    }

    #[test]
    fn comments_and_docstrings_alone_pass() {
        let after = "\"\"\"Tests of the store.\"\"\"\nimport unittest\n\n\nclass T(unittest.TestCase):\n    \"\"\"The store.\"\"\"\n\n    def test_a(self):\n        # always true\n        self.assertTrue(True)\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n";
        let st = subtask("Add docstrings to the test module");
        assert!(check(&st, &modify("tests/test_db.py", TESTS, after)).is_none());
        // Markdown is not code: a README may change as it likes.
        assert!(check(&st, &modify("README.md", "# A\n", "# B\n\nMore.\n")).is_none());
    }

    #[test]
    fn a_subtask_that_also_fixes_or_is_not_about_docs_may_change_code() {
        let after = TESTS.replace("True)", "False)");
        for title in [
            "Fix the bug and add doc comments",
            "Make the failing tests pass",
            "Address the review comments",
        ] {
            assert!(
                check(&subtask(title), &modify("tests/test_db.py", TESTS, &after)).is_none(),
                "{title}"
            );
        }
        assert!(
            check(
                &subtask("Add doc comments"),
                &modify("tests/test_db.py", TESTS, &after)
            )
            .is_some()
        );
    }
}
