//! test-integrity: weakening the tests to get green — new skip/xfail/ignore markers, removed or
//! emptied assertions, test files changed by a task that is not about tests, and
//! `--passWithNoTests`-style escapes in configs and scripts. (The dynamic half, fewer tests
//! collected than at the baseline, runs in the pipeline on the written tree.)

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The test-integrity guard.
pub struct TestIntegrity;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "test-integrity",
    code: None,
    summary: "weakened tests: new skip/xfail/ignore markers, removed or emptied assertions, test files edited by a task not about tests, --passWithNoTests-style escapes",
    doc: include_str!("../../docs/test-integrity.md"),
    default_enabled: true,
    failure_mode: "test_integrity",
    trace_event: "critic_test_integrity.fail",
};

/// Whether `path` is a test file: the toolchain crate's predicate, by the naming and directory
/// conventions of the file's ecosystem.
pub fn is_test_path(path: &str) -> bool {
    slopguard_toolchain::is_test_file(path)
}

/// Skip / xfail / ignore / focus markers: (needle, what it does).
const MARKERS: &[(&str, &str)] = &[
    ("@pytest.mark.skip", "skips the test"),
    ("@pytest.mark.xfail", "marks the test as expected to fail"),
    ("pytest.skip(", "skips the test"),
    ("pytest.xfail(", "marks the test as expected to fail"),
    ("@unittest.skip", "skips the test"),
    ("@skip(", "skips the test"),
    ("self.skiptest(", "skips the test"),
    (
        "@unittest.expectedfailure",
        "marks the test as expected to fail",
    ),
    ("#[ignore", "ignores the test"),
    ("t.skip(", "skips the test"),
    ("t.skipf(", "skips the test"),
    ("t.skipnow(", "skips the test"),
    ("it.skip(", "skips the test"),
    ("test.skip(", "skips the test"),
    ("describe.skip(", "skips the suite"),
    ("xit(", "skips the test"),
    ("xdescribe(", "skips the suite"),
    ("xtest(", "skips the test"),
    ("it.todo(", "turns the test into a todo"),
    ("test.todo(", "turns the test into a todo"),
    ("it.only(", "focuses one test, skipping all others"),
    ("test.only(", "focuses one test, skipping all others"),
    ("describe.only(", "focuses one suite, skipping all others"),
    ("@disabled", "disables the test"),
];

/// Assertion forms counted per file.
const ASSERTIONS: &[&str] = &[
    "assert ",
    "assert(",
    "self.assert",
    "assert!(",
    "assert_eq!(",
    "assert_ne!(",
    "debug_assert",
    "expect(",
    "assert.",
    "t.error",
    "t.fatal",
    "require.",
    "should.",
    "assertthat(",
    "assertequals(",
];

/// Assertions that can never fail.
const VACUOUS: &[&str] = &[
    "assert true",
    "assert 1",
    "assert(true)",
    "assert!(true)",
    "assert_eq!(1, 1)",
    "assert_eq!(true, true)",
    "self.asserttrue(true)",
    "expect(true).tobe(true)",
    "expect(true).tobetruthy()",
    "expect(1).tobe(1)",
    "assert.ok(true)",
];

/// Escapes that make a test command succeed without tests or despite failures.
const ESCAPES: &[(&str, &str)] = &[
    (
        "passwithnotests",
        "lets the test run pass when no test is found (--passWithNoTests)",
    ),
    ("--exitzero", "makes the checker exit 0 whatever it finds"),
    (
        "continue-on-error: true",
        "lets the CI job pass when its tests fail",
    ),
    ("--deselect", "deselects tests from the run"),
    ("-k \"not ", "deselects tests from the run"),
    ("-k 'not ", "deselects tests from the run"),
    ("--ignore=test", "excludes test files from the run"),
    ("--ignore test", "excludes test files from the run"),
    ("testpathignorepatterns", "excludes test files from the run"),
];

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

/// Occurrences of the marker `needle` in `text` that are the marker itself, not the tail of a
/// longer identifier: a Rust `fn uses_nextest()` holds `xtest(` and Python's `sys.exit(` holds
/// `xit(`, yet neither skips anything. A needle that starts with an identifier character must
/// start a word (`.` before it is fine: `pytest.skip(`, `this.xit(`).
fn count_marker(text: &str, needle: &str) -> usize {
    marker_positions(text, needle).count()
}

fn marker_positions<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let needs_boundary = needle.chars().next().is_some_and(is_ident_char);
    text.match_indices(needle)
        .map(|(i, _)| i)
        .filter(move |&i| {
            !needs_boundary || !text[..i].chars().next_back().is_some_and(is_ident_char)
        })
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The escape a (lower-cased) line of a config or script holds, and what it does.
fn escape_in(ll: &str) -> Option<(&'static str, &'static str)> {
    ESCAPES
        .iter()
        .find(|(needle, _)| ll.contains(needle))
        .copied()
        .or_else(|| {
            (runs_tests(ll) && (ll.contains("|| true") || ll.contains("|| exit 0")))
                .then_some(("|| true", "makes a failing test command succeed"))
        })
}

/// Whether a (lower-cased) shell line names a test command: a word that starts with `test`
/// (`npm test`, `make tests`, `test:unit`) or a test runner (`pytest`, `cargo nextest`).
/// `latest_release_url` holds "test" and runs none (helm's get-helm-3).
fn runs_tests(line: &str) -> bool {
    const RUNNERS: &[&str] = &["pytest", "unittest", "nextest", "vitest", "ctest", "gotest"];
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.starts_with("test") || RUNNERS.contains(&w))
}

fn assertions(lower: &str) -> usize {
    // Comments are not assertions: drop `#`/`//` comment lines.
    lower
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !t.starts_with('#') && !t.starts_with("//")
        })
        .map(|l| ASSERTIONS.iter().map(|a| count(l, a)).sum::<usize>())
        .sum()
}

/// Whether the task is about the tests themselves: it names a test file, or asks to write,
/// change or extend tests. "Fix the bug behind the failing tests" is about the code, not the
/// tests, so it does not count.
fn task_is_about_tests(cx: &Context<'_>) -> bool {
    let Some(task) = cx.task() else {
        return false;
    };
    if task.file_hints.iter().any(|h| is_test_path(h)) {
        return true;
    }
    let text = task.text().to_ascii_lowercase();
    const PHRASES: &[&str] = &[
        "add test",
        "add a test",
        "add tests",
        "write test",
        "write a test",
        "new test",
        "tests for",
        "test for",
        "unit test",
        "regression test",
        "test suite",
        "test coverage",
        "coverage",
        "fixture",
        "refactor the test",
        "update the test",
        "update test",
        "quarantine",
    ];
    PHRASES.iter().any(|p| text.contains(p))
}

/// How a commit whose message is the task touched its tests (`None` for any other task: an
/// agent's task says what to change, and an agent editing tests it was not asked to is the
/// slop this guard is for).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CommitTests {
    /// The message says so ("test", "fixture", ...), or the commit changes code or its
    /// manifests together with tests (a fix and its tests, a dependency bump and the tests it
    /// changes): its test edits are its own, removed assertions included.
    Knowingly,
    /// The commit changes tests and no other code (`Fix typo`, `Lint`, `Make golangci-lint
    /// happy` over a test file): the tests are its subject, so editing them is not flagged,
    /// but under a message that does not say "test" it may not drop assertions (counted over
    /// all its test files, so assertions moved from one test file to another are kept).
    Only,
}

fn commit_touches_tests(cx: &Context<'_>) -> Option<CommitTests> {
    let task = cx.task().filter(|t| t.from_commit_message)?;
    const TEST_WORDS: &[&str] = &[
        "test", "tests", "testing", "pytest", "conftest", "fixture", "fixtures", "spec", "specs",
        "unittest",
    ];
    let code_beside_tests = cx.files().iter().any(|f| {
        !is_test_path(f.path())
            && (matches!(
                f.kind(),
                slopguard_lang::FileKind::Code(_) | slopguard_lang::FileKind::Data(_)
            ) || crate::guards::manifest_block::manifest_ecosystem(f.path()).is_some())
    });
    Some(if task.announces(&[], TEST_WORDS) || code_beside_tests {
        CommitTests::Knowingly
    } else {
        CommitTests::Only
    })
}

/// The assertions the change's test files lost, net: removed minus added over all of them (a
/// deleted test file's lines are all removed).
fn assertions_lost_over_test_files(cx: &Context<'_>) -> usize {
    let (mut removed, mut added) = (0, 0);
    for f in cx.files().iter().filter(|f| is_test_path(f.path())) {
        let changes = f.line_changes();
        let count = |lines: &[(u32, &str)]| -> usize {
            lines
                .iter()
                .map(|(_, l)| assertions(&l.to_ascii_lowercase()))
                .sum()
        };
        removed += count(&changes.removed);
        added += count(&changes.added);
    }
    removed.saturating_sub(added)
}

/// Whether a (lower-cased) line defines a test: a test function or method (Python, Go, Rust,
/// Ruby) or a test case call (JavaScript's `it(`/`test(`).
fn defines_a_test(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("def test")
        || t.starts_with("async def test")
        || t.starts_with("func test")
        || t.starts_with("fn test")
        || t.starts_with("#[test]")
        || t.starts_with("#[tokio::test")
        || t.starts_with("it(")
        || t.starts_with("test(")
        || t.starts_with("it.")
        || t.starts_with("test.")
        || (t.starts_with("it \"") || t.starts_with("it '"))
}

fn task_mentions(cx: &Context<'_>, words: &[&str]) -> bool {
    cx.task().is_some_and(|t| {
        let text = t.text().to_ascii_lowercase();
        words.iter().any(|w| text.contains(w))
    })
}

impl Guard for TestIntegrity {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let commit_tests = commit_touches_tests(cx);
        let task_about_tests = task_is_about_tests(cx);
        let about_tests = task_about_tests || commit_tests.is_some();
        // Removed assertions warn when the task is about tests; a test-only commit whose
        // message does not say "test" may only move them between its test files.
        let may_drop_assertions = task_about_tests
            || commit_tests == Some(CommitTests::Knowingly)
            || (commit_tests == Some(CommitTests::Only)
                && assertions_lost_over_test_files(cx) == 0);
        let skip_asked = task_mentions(cx, &["skip", "xfail", "ignore", "disable", "flaky"]);
        // Without a task nothing says whether a test edit weakens the suite or maintains it
        // (humans delete obsolete assertions and skip platform-specific tests): warn only.
        let weakening = |if_task: Severity| {
            if cx.task().is_none() {
                Severity::Warn
            } else {
                if_task
            }
        };
        // Escapes on lines the change removes from configs and scripts, per escape.
        let mut escapes_removed: std::collections::HashMap<&str, usize> = Default::default();
        for file in cx.files().iter().filter(|f| !is_test_path(f.path())) {
            for (_, l) in &file.line_changes().removed {
                if let Some((needle, _)) = escape_in(&l.to_ascii_lowercase()) {
                    *escapes_removed.entry(needle).or_default() += 1;
                }
            }
        }
        for file in cx.files() {
            let path = file.path();
            let after = file.after_text();
            let test_file = is_test_path(path);

            // A test file changed or deleted by a task that is not about tests.
            if test_file && cx.task().is_some() && !about_tests && file.change().before.is_some() {
                let what = if after.is_none() { "deletes" } else { "edits" };
                out.push(
                    Finding::new(
                        &INFO,
                        cx.intent_severity(),
                        format!("the change {what} test file `{path}`, but the task is not about tests"),
                    )
                    .at(path, None, None)
                    .feedback(format!(
                        "Do not change `{path}`: the task is not about tests. Tests define the expected behaviour; fix the code under test so the existing tests pass."
                    ))
                    .data(serde_json::json!({"check": "test_file_touched"})),
                );
            }

            if after.is_none() {
                continue;
            }
            // Counts over whole files change by what the added and removed lines hold (the
            // other lines are equal), so only those are scanned.
            let changes = file.line_changes();
            let lower = |lines: &[(u32, &str)]| -> Vec<(u32, String)> {
                lines
                    .iter()
                    .map(|(n, l)| (*n, l.to_ascii_lowercase()))
                    .collect()
            };
            let (added_l, removed_l) = (lower(&changes.added), lower(&changes.removed));
            let added = &changes.added;

            // New skip / xfail / ignore / focus markers (counted, so moved lines do not fire).
            // A marker on a test the change adds skips nothing that ran before (a new test for
            // one platform): it warns.
            // Net new tests: a test turned into a skipped one (`test(` -> `test.skip(`) is no new
            // test.
            let tests_in =
                |lines: &[(u32, String)]| lines.iter().filter(|(_, l)| defines_a_test(l)).count();
            let new_tests = tests_in(&added_l).saturating_sub(tests_in(&removed_l));
            if test_file || file.kind() != slopguard_lang::FileKind::Other {
                for (needle, what) in MARKERS {
                    let in_lines = |lines: &[(u32, String)]| -> usize {
                        lines.iter().map(|(_, l)| count_marker(l, needle)).sum()
                    };
                    let new_markers = in_lines(&added_l).saturating_sub(in_lines(&removed_l));
                    if new_markers > 0 {
                        let line = added_l
                            .iter()
                            .find(|(_, l)| count_marker(l, needle) > 0)
                            .map(|(n, _)| *n);
                        let severity = if skip_asked || new_markers <= new_tests {
                            Severity::Warn
                        } else {
                            weakening(Severity::Block)
                        };
                        out.push(
                            Finding::new(
                                &INFO,
                                severity,
                                format!("new `{}` marker in `{path}` ({what})", needle.trim_end_matches('(')),
                            )
                            .at(path, line, None)
                            .feedback(format!(
                                "Do not add `{}` to `{path}`: it {what} instead of making it pass. Remove the marker and fix the code under test.",
                                needle.trim_end_matches('(')
                            ))
                            .data(serde_json::json!({"check": "skip_marker", "marker": needle})),
                        );
                    }
                }
            }

            if test_file && file.change().before.is_some() {
                // Removed assertions (whole-file totals counted only for the message).
                let in_lines = |lines: &[(u32, String)]| -> usize {
                    lines.iter().map(|(_, l)| assertions(l)).sum()
                };
                if in_lines(&removed_l) > in_lines(&added_l) {
                    let before = file.before_text().unwrap_or("").to_ascii_lowercase();
                    let after = after.unwrap_or("").to_ascii_lowercase();
                    let (b, a) = (assertions(&before), assertions(&after));
                    let severity = if may_drop_assertions {
                        Severity::Warn
                    } else {
                        weakening(Severity::Block)
                    };
                    out.push(
                        Finding::new(
                            &INFO,
                            severity,
                            format!("{} assertion(s) removed from `{path}` ({b} -> {a})", b - a),
                        )
                        .at(path, None, None)
                        .feedback(format!(
                            "Keep every assertion in `{path}`: removing {} assertion(s) hides failures instead of fixing them. Restore them and fix the code under test.",
                            b - a
                        ))
                        .data(serde_json::json!({"check": "assertions_removed", "before": b, "after": a})),
                    );
                }
            }
            if test_file {
                // Vacuous assertions added.
                for (n, l) in added {
                    let t = l.trim().to_ascii_lowercase().replace("  ", " ");
                    let t = t.trim_end_matches(';');
                    if VACUOUS
                        .iter()
                        .any(|v| t == *v || t.starts_with(&format!("{v} ")))
                    {
                        out.push(
                            Finding::new(
                                &INFO,
                                weakening(Severity::Block),
                                format!("vacuous assertion `{}` added to `{path}`", l.trim()),
                            )
                            .at(path, Some(*n), None)
                            .feedback(format!(
                                "`{}` can never fail: it empties the test. Assert the real expected value instead.",
                                l.trim()
                            ))
                            .data(serde_json::json!({"check": "vacuous_assertion"})),
                        );
                    }
                }
            }

            // Escapes in configs and scripts.
            if !test_file {
                for (n, l) in added {
                    if let Some((needle, what)) = escape_in(&l.to_ascii_lowercase()) {
                        // The same escape on a line the change removed (a setting moved from
                        // package.json to jest.config.js, a line reformatted) is not new.
                        if let Some(left) = escapes_removed.get_mut(needle)
                            && *left > 0
                        {
                            *left -= 1;
                            continue;
                        }
                        out.push(
                            Finding::new(
                                &INFO,
                                weakening(Severity::Block),
                                format!("`{path}`: added `{}` {what}", needle.trim()),
                            )
                            .at(path, Some(*n), None)
                            .feedback(format!(
                                "Do not add `{}` in `{path}`: it {what}. Tests must run and fail when the code is wrong.",
                                needle.trim()
                            ))
                            .data(serde_json::json!({"check": "escape", "escape": needle})),
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        for p in [
            "tests/test_db.py",
            "test_x.py",
            "pkg/db_test.go",
            "src/app.test.ts",
            "web/__tests__/a.js",
            "tests/cli.rs",
            "conftest.py",
            "spec/user_spec.rb",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "src/db.py",
            "src/testing_utils.md",
            "README.md",
            "src/contest.py",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }

    #[test]
    fn a_test_command_is_a_word_not_a_substring() {
        assert!(runs_tests("npm test || true"));
        assert!(runs_tests("python -m pytest tests/ || true"));
        assert!(runs_tests("cargo nextest run || exit 0"));
        assert!(runs_tests("make tests || true"));
        // helm's scripts/get-helm-3: `latest` is no test.
        assert!(!runs_tests(
            "latest_release_response=$( curl -l --fail \"$latest_release_url\" 2>&1 || true )"
        ));
    }

    #[test]
    fn failing_tests_task_is_about_code() {
        use slopguard_change::{ChangeSet, MemTree, Task};
        let change = ChangeSet::new(std::sync::Arc::new(MemTree::default()), vec![], "t");
        let config = crate::Config::default();
        let about = |title: &str, hints: &[&str]| {
            let task = Task {
                title: title.into(),
                file_hints: hints.iter().map(|s| s.to_string()).collect(),
                ..Task::default()
            };
            task_is_about_tests(&Context::new(&change, Some(&task), &config))
        };
        assert!(!about(
            "Fix the bug in shop/pricing.py behind the failing tests",
            &["shop/pricing.py"]
        ));
        assert!(about(
            "Add a regression test for apply_discount",
            &["shop/pricing.py"]
        ));
        assert!(about("Tidy up", &["tests/test_pricing.py"]));
    }

    /// The findings of the guard on one modified file.
    fn findings_on(path: &str, before: &str, after: &str) -> Vec<Finding> {
        use slopguard_change::{ChangeKind, ChangeSet, FileChange, MemTree};
        let change = ChangeSet::new(
            std::sync::Arc::new(MemTree::default()),
            vec![FileChange {
                path: path.into(),
                kind: ChangeKind::Modify,
                before: Some(before.as_bytes().to_vec()),
                after: Some(after.as_bytes().to_vec()),
                after_is_symlink: false,
            }],
            "t",
        );
        let config = crate::Config::default();
        let mut out = Vec::new();
        TestIntegrity.check(&Context::new(&change, None, &config), &mut out);
        out
    }

    fn markers(findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .filter_map(|f| f.data.get("marker")?.as_str().map(str::to_string))
            .collect()
    }

    #[test]
    fn a_marker_inside_an_identifier_is_no_marker() {
        // A Rust helper whose name ends in `xtest`, and Python's `sys.exit(`: no skip added.
        let before = "#[test]\nfn runs() {\n    assert!(ok());\n}\n";
        let after = "#[test]\nfn runs() {\n    assert!(ok());\n}\n\nfn uses_nextest() -> bool {\n    true\n}\n";
        assert_eq!(
            markers(&findings_on("tests/runner.rs", before, after)),
            Vec::<String>::new()
        );
        let before = "def test_a():\n    assert f() == 1\n";
        let after = "import sys\n\ndef test_a():\n    assert f() == 1\n\nif __name__ == '__main__':\n    sys.exit(main())\n";
        assert_eq!(
            markers(&findings_on("tests/test_a.py", before, after)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn real_markers_still_fire() {
        let before = "test('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";
        let after = "xtest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";
        assert_eq!(
            markers(&findings_on("src/add.test.js", before, after)),
            ["xtest("]
        );
        let after = "describe('x', () => {\n  xit('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n";
        assert_eq!(
            markers(&findings_on("src/add.test.js", before, after)),
            ["xit("]
        );
        let before = "#[test]\nfn runs() {\n    assert!(ok());\n}\n";
        let after = "#[test]\n#[ignore]\nfn runs() {\n    assert!(ok());\n}\n";
        assert_eq!(
            markers(&findings_on("tests/runner.rs", before, after)),
            ["#[ignore"]
        );
        // A marker after `.` or whitespace is still a marker, and `pytest.skip(` is not
        // also counted as `test.skip(`.
        let before = "def test_a():\n    assert f() == 1\n";
        let after =
            "import pytest\n\ndef test_a():\n    pytest.skip('later')\n    assert f() == 1\n";
        assert_eq!(
            markers(&findings_on("tests/test_a.py", before, after)),
            ["pytest.skip("]
        );
    }

    #[test]
    fn counts_assertions_not_comments() {
        assert_eq!(
            assertions("assert x == 1\n# assert y\nself.assertequal(a, b)\n"),
            2
        );
    }
}
