use super::*;

fn exp(paths: &[&str]) -> Vec<String> {
    paths.iter().map(|s| s.to_string()).collect()
}

#[test]
fn whole_file_after_path_line() {
    let text = "Fix average to use true division\n\ncalc/stats.py\n```python\ndef average(v):\n    return sum(v) / len(v)\n```\n";
    let r = parse(text, &exp(&["calc/stats.py"])).unwrap();
    assert_eq!(r.format, ReplyFormat::WholeFile);
    assert_eq!(
        r.message.as_deref(),
        Some("Fix average to use true division")
    );
    assert_eq!(
        r.edits,
        vec![FileEdit::Whole {
            path: "calc/stats.py".into(),
            content: "def average(v):\n    return sum(v) / len(v)\n".into()
        }]
    );
}

#[test]
fn path_in_info_string_bare_name_and_single_file() {
    let r = parse(
        "```go wordcount.go\npackage x\n```",
        &exp(&["wordcount.go"]),
    )
    .unwrap();
    assert_eq!(r.edits[0].path(), "wordcount.go");
    let r = parse(
        "**stats.py**\n```python\nx = 1\n```",
        &exp(&["calc/stats.py"]),
    )
    .unwrap();
    assert_eq!(r.edits[0].path(), "calc/stats.py");
    let r = parse(
        "Here it is:\n```rust\nfn a() {}\n```",
        &exp(&["src/lib.rs"]),
    )
    .unwrap();
    assert_eq!(r.edits[0].path(), "src/lib.rs");
    assert_eq!(r.message.as_deref(), Some("Here it is:"));
}

#[test]
fn fences_without_a_path_are_explanation_when_another_names_its_file() {
    let text = "```plaintext\nfix tests\n```\n";
    assert!(parse(text, &exp(&["src/slugify.js"])).is_err());
    let text = "```\nfix tests\n```\n\nsrc/slugify.js\n```javascript\nx();\n```\n";
    let r = parse(text, &exp(&["src/slugify.js"])).unwrap();
    assert_eq!(
        r.edits,
        vec![FileEdit::Whole {
            path: "src/slugify.js".into(),
            content: "x();\n".into()
        }]
    );
}

#[test]
fn a_text_fence_wrapped_around_the_whole_answer_is_not_a_file() {
    let text = "```text\nFix average\n\ncalc/stats.py\n```python\nx = 1 / 2\n```\n";
    let r = parse(text, &exp(&["calc/stats.py"])).unwrap();
    assert_eq!(
        r.edits,
        vec![FileEdit::Whole {
            path: "calc/stats.py".into(),
            content: "x = 1 / 2\n".into()
        }]
    );
}

#[test]
fn a_forgotten_closing_fence_is_closed_and_line_suffixes_dropped() {
    let text = close_forgotten_fence("wordcount.go\n```go\npackage x\n");
    let r = parse(&text, &exp(&["wordcount.go"])).unwrap();
    assert_eq!(r.edits[0].path(), "wordcount.go");
    let text = "wordcount.go:7\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n";
    let r = parse(text, &exp(&["wordcount.go"])).unwrap();
    assert_eq!(r.edits[0].path(), "wordcount.go");
}

#[test]
fn unclosed_fence_is_a_cut_off_reply() {
    let e = parse("src/db.py\n```python\ndef f():\n", &exp(&["src/db.py"])).unwrap_err();
    assert!(e.0.contains("cut off"), "{e}");
}

#[test]
fn language_word_after_a_bare_fence_is_not_content() {
    let r = parse("fix\na.py\n```\npython\nx = 1\n```\n", &exp(&["a.py"])).unwrap();
    assert_eq!(
        r.edits,
        vec![FileEdit::Whole {
            path: "a.py".into(),
            content: "x = 1\n".into()
        }]
    );
}

#[test]
fn search_replace_blocks() {
    let text = "Use a placeholder\nsrc/db.py\n<<<<<<< SEARCH\n    q = f\"{x}\"\n=======\n    q = \"?\"\n>>>>>>> REPLACE\n";
    let r = parse(text, &exp(&["src/db.py"])).unwrap();
    assert_eq!(r.format, ReplyFormat::SearchReplace);
    assert_eq!(r.message.as_deref(), Some("Use a placeholder"));
    assert!(
        matches!(&r.edits[0], FileEdit::SearchReplace { search, .. } if search == "    q = f\"{x}\"\n")
    );
}

#[test]
fn blocks_without_a_path_belong_to_the_only_file() {
    let text = "<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n";
    let r = parse(text, &exp(&["calc/stats.py"])).unwrap();
    assert_eq!(r.edits[0].path(), "calc/stats.py");
    assert!(parse(text, &exp(&["a.py", "b.py"])).is_err());
}

#[test]
fn conflict_markers_with_a_path_are_search_replace_blocks() {
    let text = "<<<<<<< calc/stats.py\n    return a // b\n=======\n    return a / b\n>>>>>>> calc/stats.py\n";
    let r = parse(text, &exp(&["calc/stats.py"])).unwrap();
    assert_eq!(
        r.edits,
        vec![FileEdit::SearchReplace {
            path: "calc/stats.py".into(),
            search: "    return a // b\n".into(),
            replace: "    return a / b\n".into(),
        }]
    );
}

#[test]
fn git_conflict_markers_are_search_replace_blocks_of_the_only_file() {
    let text = "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> fix\n";
    let r = parse(text, &exp(&["a.py"])).unwrap();
    assert_eq!(r.edits[0].path(), "a.py");
}

#[test]
fn unified_diff_hunks_become_search_replace() {
    let text = "Fix peek\n```diff\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,3 +3,3 @@\n fn peek(&self) -> Option<&T> {\n-    self.items.first()\n+    self.items.last()\n }\n```\n";
    let r = parse(text, &exp(&["src/lib.rs"])).unwrap();
    assert_eq!(r.format, ReplyFormat::UnifiedDiff);
    assert_eq!(
        r.edits,
        vec![FileEdit::SearchReplace {
            path: "src/lib.rs".into(),
            search: "fn peek(&self) -> Option<&T> {\n    self.items.first()\n}\n".into(),
            replace: "fn peek(&self) -> Option<&T> {\n    self.items.last()\n}\n".into(),
        }]
    );
}

#[test]
fn json_patches_still_accepted() {
    let text = r#"{"commit_message": "fix", "patches": [{"action": "modify", "path": "a.py", "edits": [{"search": "x", "replace": "y"}]}]}"#;
    let r = parse(text, &exp(&["a.py"])).unwrap();
    assert_eq!(r.format, ReplyFormat::Json);
    assert_eq!(r.message.as_deref(), Some("fix"));
    assert_eq!(r.edits.len(), 1);
}

#[test]
fn prose_only_is_an_error() {
    assert!(parse("I would change the division.", &exp(&["a.py"])).is_err());
}

#[test]
fn elisions_are_found_unless_the_file_had_them() {
    let old = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    let new = "def a():\n    return 3\n\n# ... rest of the file unchanged\n";
    assert_eq!(
        elided_line(new, old),
        Some((4, "# ... rest of the file unchanged".into()))
    );
    assert_eq!(
        elided_line("x = 1\n...\n", "x = 2\n"),
        Some((2, "...".into()))
    );
    // A Protocol stub's `...` that was already there is code, not an elision.
    let stub = "class P(Protocol):\n    def f(self) -> int: ...\n    ...\n";
    assert_eq!(elided_line(stub, stub), None);
    assert_eq!(elided_line("// keep the sort stable\n", ""), None);
}
