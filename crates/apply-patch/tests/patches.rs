//! Parser and applier behaviour on well-formed and malformed envelopes.

use std::collections::BTreeMap;

use slopguard_apply_patch::{
    ApplyError, ChangeKind, Chunk, FileChange, Operation, ParseError, PatchError, apply, parse,
    parse_and_apply,
};

fn fs(pairs: &[(&str, &str)]) -> impl FnMut(&str) -> Option<String> + use<> {
    let map: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |p: &str| map.get(p).cloned()
}

fn wrap(body: &str) -> String {
    format!("*** Begin Patch\n{body}\n*** End Patch")
}

#[test]
fn parses_every_operation_kind() {
    let patch = parse(&wrap(
        "*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n\
         *** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123",
    ))
    .unwrap();
    assert_eq!(
        patch.operations,
        vec![
            Operation::Add {
                path: "path/add.py".into(),
                contents: "abc\ndef\n".into()
            },
            Operation::Delete {
                path: "path/delete.py".into()
            },
            Operation::Update {
                path: "path/update.py".into(),
                move_to: Some("path/update2.py".into()),
                chunks: vec![Chunk {
                    context: Some("def f():".into()),
                    old_lines: vec!["    pass".into()],
                    new_lines: vec!["    return 123".into()],
                    end_of_file: false,
                }],
            },
        ]
    );
}

#[test]
fn empty_envelope_has_no_operations() {
    assert!(
        parse("*** Begin Patch\n*** End Patch")
            .unwrap()
            .operations
            .is_empty()
    );
}

#[test]
fn first_chunk_may_omit_header() {
    let patch = parse(&wrap("*** Update File: f.py\n import foo\n+bar")).unwrap();
    let Operation::Update { chunks, .. } = &patch.operations[0] else {
        panic!("expected an update")
    };
    assert_eq!(chunks[0].context, None);
    assert_eq!(chunks[0].old_lines, vec!["import foo"]);
    assert_eq!(chunks[0].new_lines, vec!["import foo", "bar"]);
}

#[test]
fn heredoc_and_command_wrappers_are_accepted() {
    let inner = wrap("*** Add File: a.txt\n+hi");
    for text in [
        format!("<<'EOF'\n{inner}\nEOF\n"),
        format!("<<EOF\n{inner}\nEOF"),
        format!("apply_patch <<'PATCH'\n{inner}\nPATCH\n"),
        format!("  {inner}  \n"),
    ] {
        let patch = parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(patch.operations.len(), 1, "{text:?}");
    }
}

#[test]
fn markers_tolerate_surrounding_whitespace() {
    let patch = parse("*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch").unwrap();
    assert_eq!(
        patch.operations,
        vec![Operation::Add {
            path: "foo".into(),
            contents: "hi\n".into()
        }]
    );
}

#[test]
fn malformed_envelopes_are_errors_not_panics() {
    let cases: &[(&str, &str)] = &[
        ("", "Begin Patch"),
        ("bad", "Begin Patch"),
        ("*** Begin Patch\nbad", "End Patch"),
        ("*** Begin Patch", "End Patch"),
        ("*** End Patch\n*** Begin Patch", "Begin Patch"),
        ("echo hi\n*** Begin Patch\n*** End Patch", "Begin Patch"),
        (
            "*** Begin Patch\n*** End Patch\nrm -rf / && echo done",
            "End Patch",
        ),
    ];
    for (text, needle) in cases {
        match parse(text) {
            Err(ParseError::Envelope(msg)) => assert!(msg.contains(needle), "{text:?}: {msg}"),
            other => panic!("{text:?}: expected an envelope error, got {other:?}"),
        }
    }
}

#[test]
fn malformed_hunks_report_line_numbers() {
    let cases: &[(&str, usize, &str)] = &[
        ("*** Frobnicate File: x", 2, "not a valid file header"),
        ("*** Update File: test.py", 2, "no change lines"),
        ("*** Update File: a\n@@", 3, "chunk has no lines"),
        ("*** Add File: \n+x", 2, "missing file path"),
        ("*** Update File: a\nfoo", 3, "unexpected line"),
        ("*** Update File: a\n@@\n+x\n@@\nzzz", 6, "unexpected line"),
        ("*** Update File: a\n@@\n*** End of File", 4, "empty chunk"),
        ("*** Add File: a\n+x\ngarbage", 4, "not a valid file header"),
    ];
    for (body, line, needle) in cases {
        match parse(&wrap(body)) {
            Err(ParseError::Hunk { line: l, message }) => {
                assert!(message.contains(needle), "{body:?}: {message}");
                assert_eq!(l, *line, "{body:?}: {message}");
            }
            other => panic!("{body:?}: expected a hunk error, got {other:?}"),
        }
    }
}

#[test]
fn update_modifies_in_memory() {
    let changes = parse_and_apply(
        &wrap("*** Update File: u.txt\n@@\n foo\n-bar\n+baz"),
        fs(&[("u.txt", "foo\nbar\n")]),
    )
    .unwrap();
    assert_eq!(
        changes,
        vec![FileChange::modify("u.txt", "foo\nbar\n", "foo\nbaz\n")]
    );
}

#[test]
fn multiple_chunks_and_end_of_file() {
    let changes = parse_and_apply(
        &wrap(
            "*** Update File: f\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File",
        ),
        fs(&[("f", "a\nb\nc\nd\ne\nf\n")]),
    )
    .unwrap();
    assert_eq!(changes[0].after_text(), Some("a\nB\nc\nd\nE\nf\ng\n"));
}

#[test]
fn context_header_narrows_position() {
    let original = "def a():\n    return 1\n\ndef b():\n    return 1\n";
    let changes = parse_and_apply(
        &wrap("*** Update File: m.py\n@@ def b():\n-    return 1\n+    return 2"),
        fs(&[("m.py", original)]),
    )
    .unwrap();
    assert_eq!(
        changes[0].after_text(),
        Some("def a():\n    return 1\n\ndef b():\n    return 2\n")
    );
}

#[test]
fn pure_addition_appends_at_end() {
    let changes = parse_and_apply(
        &wrap("*** Update File: f\n@@\n+tail"),
        fs(&[("f", "one\ntwo")]),
    )
    .unwrap();
    assert_eq!(changes[0].after_text(), Some("one\ntwo\ntail\n"));
}

#[test]
fn fuzzy_matching_tolerates_whitespace_and_typography() {
    let changes = parse_and_apply(
        &wrap("*** Update File: f\n@@\n-let s = \"a - b\";\n+let s = \"c\";"),
        fs(&[("f", "   let s = “a — b”;   \nnext\n")]),
    )
    .unwrap();
    assert_eq!(changes[0].after_text(), Some("let s = \"c\";\nnext\n"));
}

#[test]
fn add_delete_and_rename() {
    let changes = parse_and_apply(
        &wrap(
            "*** Add File: new.txt\n+hello\n*** Delete File: old.txt\n\
             *** Update File: src.txt\n*** Move to: dst.txt\n@@\n-line\n+line2",
        ),
        fs(&[("old.txt", "bye\n"), ("src.txt", "line\n")]),
    )
    .unwrap();
    assert_eq!(
        changes,
        vec![
            FileChange::create("new.txt", "hello\n"),
            FileChange::delete("old.txt", "bye\n"),
            FileChange {
                path: "dst.txt".into(),
                kind: ChangeKind::Rename {
                    from: "src.txt".into()
                },
                before: Some(b"line\n".to_vec()),
                after: Some(b"line2\n".to_vec()),
                after_is_symlink: false,
            },
        ]
    );
}

#[test]
fn later_operations_see_earlier_ones() {
    let changes = parse_and_apply(
        &wrap("*** Add File: a\n+one\n*** Update File: a\n@@\n-one\n+two"),
        fs(&[]),
    )
    .unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].kind, ChangeKind::Create);
    assert_eq!(changes[0].after_text(), Some("two\n"));
}

#[test]
fn apply_errors_are_typed() {
    let missing = parse_and_apply(&wrap("*** Delete File: nope"), fs(&[])).unwrap_err();
    assert_eq!(
        missing,
        PatchError::Apply(ApplyError::Missing {
            path: "nope".into(),
            action: "delete"
        })
    );
    let exists = parse_and_apply(&wrap("*** Add File: a\n+x"), fs(&[("a", "y\n")])).unwrap_err();
    assert!(matches!(
        exists,
        PatchError::Apply(ApplyError::AlreadyExists { .. })
    ));
    let ctx = parse_and_apply(
        &wrap("*** Update File: a\n@@ fn missing()\n-x\n+y"),
        fs(&[("a", "x\n")]),
    )
    .unwrap_err();
    assert!(matches!(
        ctx,
        PatchError::Apply(ApplyError::ContextNotFound { .. })
    ));
    let lines = parse_and_apply(
        &wrap("*** Update File: a\n@@\n-not there\n+y"),
        fs(&[("a", "x\n")]),
    )
    .unwrap_err();
    assert!(lines.to_string().contains("failed to find expected lines"));
    let upd = parse_and_apply(&wrap("*** Update File: gone\n@@\n-x\n+y"), fs(&[])).unwrap_err();
    assert!(upd.to_string().contains("does not exist"));
}

#[test]
fn apply_on_parsed_patch_is_pure() {
    let patch = parse(&wrap("*** Update File: a\n@@\n-x\n+y")).unwrap();
    let first = apply(&patch, fs(&[("a", "x\n")])).unwrap();
    let second = apply(&patch, fs(&[("a", "x\n")])).unwrap();
    assert_eq!(first, second);
}

#[test]
fn garbage_never_panics() {
    // A cheap fuzz: every prefix and a few byte-level mutations of a realistic patch.
    let patch = wrap(
        "*** Add File: a\n+x\n*** Update File: b\n*** Move to: c\n@@ ctx\n keep\n-old\n+new\n\
         *** End of File\n*** Delete File: d",
    );
    let read = |p: &str| match p {
        "b" => Some("ctx\nkeep\nold\n".to_string()),
        "d" => Some("d\n".to_string()),
        _ => None,
    };
    for i in 0..=patch.len() {
        if patch.is_char_boundary(i) {
            let _ = parse_and_apply(&patch[..i], read);
            let _ = parse_and_apply(&patch[i..], read);
        }
    }
    for junk in ["\0", "@@", "***", "\n\n\n", "+", "-", " ", "\r\n", "é"] {
        for i in (0..patch.len()).step_by(7) {
            if patch.is_char_boundary(i) {
                let mut s = patch.clone();
                s.insert_str(i, junk);
                let _ = parse_and_apply(&s, read);
            }
        }
    }
    assert!(parse_and_apply(&patch, read).is_ok());
}
