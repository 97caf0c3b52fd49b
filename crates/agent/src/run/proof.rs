//! The regression-proof gate: a fix lands only with a test that fails without it and passes
//! with it, both run for real.
//!
//! Used by `slopguard feedback fix` (the self-correction loop's hard rule: no pull request
//! without such a test), off for `slopguard run`. For a candidate that passed the dynamic gates
//! (build and the whole suite, with its new test, green), the code files of the change are put
//! back as they were, the test files kept, and the tests run again: the candidate's new tests
//! must fail there. Three ways to be refused, each with feedback for the next attempt:
//! - **no test**: the change touches no test file;
//! - **pass-on-both**: the new test passes without the fix too, so it does not exercise the
//!   bug;
//! - **fail-on-both**: the new test fails with the fix as well, so the fix does not fix it
//!   (found from the dynamic gates' run: the only newly failing tests are the candidate's own).

use std::path::Path;
use std::time::Duration;

use slopguard_change::ChangeSet;

use crate::dynamic::{self, WriteError};
use crate::records::Baseline;
use slopguard_planning::analysis::is_test_file;
use slopguard_toolchain::TestRun;

/// Characters of the failing regression test's output quoted in the feedback.
const FAIL_OUTPUT_CHARS: usize = 900;

/// The gate's slug (trace, summary, `slopguard guards`).
pub const SLUG: &str = "regression-proof";

/// What the proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The new tests fail without the fix: these ids.
    Proven(Vec<String>),
    /// The change has no test file.
    NoTest,
    /// Without the fix, the tests pass all the same.
    PassOnBoth,
}

/// The test files a change creates or modifies.
pub fn test_files(change: &ChangeSet) -> Vec<String> {
    change
        .changes
        .iter()
        .filter(|c| c.after.is_some() && is_test_file(&c.path))
        .map(|c| c.path.clone())
        .collect()
}

/// Failing tests of `now` that were not failing at the baseline and belong to `files` (by the
/// runner's file, or by the file's stem in the id).
pub fn new_failures_in(base: &Baseline, now: &TestRun, files: &[String]) -> Vec<String> {
    now.failing
        .iter()
        .filter(|f| !base.failing.contains(&f.id))
        .filter(|f| {
            files.iter().any(|file| {
                f.file.as_deref() == Some(file.as_str())
                    || f.id.contains(file.as_str())
                    || stem(file).is_some_and(|s| f.id.contains(s))
            })
        })
        .map(|f| f.id.clone())
        .collect()
}

fn stem(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next()?;
    let stem = name.split('.').next()?;
    (stem.len() >= 4).then_some(stem)
}

/// Fail-on-both, read from the dynamic gates' run of the candidate: every newly failing test is
/// one of the candidate's own test files'. The feedback for the model, or `None`.
pub fn fail_on_both(change: &ChangeSet, base: &Baseline, now: &TestRun) -> Option<String> {
    let files = test_files(change);
    if files.is_empty() {
        return None;
    }
    let newly: Vec<&str> = now
        .failing
        .iter()
        .filter(|f| !base.failing.contains(&f.id))
        .map(|f| f.id.as_str())
        .collect();
    // A test the file had before the change that fails now is a regression, not the new test.
    let before: String = change
        .changes
        .iter()
        .filter(|c| files.contains(&c.path))
        .filter_map(|c| c.before_text())
        .collect();
    let own: Vec<String> = new_failures_in(base, now, &files)
        .into_iter()
        .filter(|id| !before.contains(slopguard_worker::context::short_name(id).as_str()))
        .collect();
    (!newly.is_empty() && own.len() == newly.len()).then(|| {
        let names: Vec<String> = own
            .iter()
            .map(|id| slopguard_worker::context::short_name(id))
            .collect();
        let printed = slopguard_worker::context::excerpt(&now.log, &names, FAIL_OUTPUT_CHARS);
        format!(
            "fail-on-both: your regression test fails with your fix too ({}), so the fix does not \
             fix what the test checks. Fix the code so the test passes (or correct the test if it \
             is wrong: it must import what it calls and expect the right value). What it \
             printed:\n{}",
            own.join(", "),
            printed.trim_end()
        )
    })
}

/// Runs the tests in `root` (where the candidate is written) with the candidate's code files
/// put back as they were and its test files kept, then writes the candidate back.
pub fn prove(
    root: &Path,
    change: &ChangeSet,
    base: &Baseline,
    timeout: Duration,
) -> Result<Proof, WriteError> {
    let files = test_files(change);
    if files.is_empty() {
        return Ok(Proof::NoTest);
    }
    let code = change.changes.iter().filter(|c| !is_test_file(&c.path));
    let outcome = dynamic::with_undone(root, code, || dynamic::run_tests(root, timeout))?;
    let failing = new_failures_in(base, &outcome, &files);
    Ok(if failing.is_empty() {
        Proof::PassOnBoth
    } else {
        Proof::Proven(failing)
    })
}

/// The feedback for a refused proof.
pub fn feedback(proof: &Proof, change: &ChangeSet) -> Option<String> {
    match proof {
        Proof::Proven(_) => None,
        Proof::NoTest => Some(
            "no regression test: the change touches no test file. Add a test in the \
             repository's test framework that fails before your fix and passes after it."
                .into(),
        ),
        Proof::PassOnBoth => Some(format!(
            "pass-on-both: your test in {} passes without your fix too, so it does not exercise \
             the bug. Make the test check the exact behaviour the feedback says is wrong.",
            test_files(change).join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::{FileChange, MemTree};
    use slopguard_planning::analysis::FailingTest;
    use std::sync::Arc;

    fn change() -> ChangeSet {
        ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![
                FileChange::modify("calc/stats.py", "a", "b"),
                FileChange::modify("tests/test_stats.py", "t", "t2"),
            ],
            "t",
        )
    }

    fn failing(ids: &[(&str, Option<&str>)]) -> TestRun {
        TestRun {
            ran: true,
            failing: ids
                .iter()
                .map(|(id, file)| FailingTest {
                    id: id.to_string(),
                    file: file.map(str::to_string),
                })
                .collect(),
            ..TestRun::default()
        }
    }

    #[test]
    fn only_the_candidates_own_new_failures_count() {
        let base = Baseline {
            failing: ["tests/test_other.py::test_old".to_string()].into(),
            ..Baseline::default()
        };
        let files = test_files(&change());
        assert_eq!(files, vec!["tests/test_stats.py".to_string()]);
        let now = failing(&[
            ("tests/test_other.py::test_old", None),
            ("tests/test_stats.py::test_average_of_two", None),
            ("test_spread", Some("tests/test_stats.py")),
            ("tests/test_report.py::test_x", None),
        ]);
        assert_eq!(
            new_failures_in(&base, &now, &files),
            vec![
                "tests/test_stats.py::test_average_of_two".to_string(),
                "test_spread".to_string()
            ]
        );
        // Another file's test broke too: that is a regression, not fail-on-both.
        assert_eq!(fail_on_both(&change(), &base, &now), None);
        // So is a test the file already had (node names tests by their title).
        let with_old = ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![FileChange::modify(
                "tests/test_stats.py",
                "test('itemCount sums the quantities', ...)",
                "t2",
            )],
            "t",
        );
        let old_title = failing(&[("itemCount sums the quantities", Some("tests/test_stats.py"))]);
        assert_eq!(fail_on_both(&with_old, &base, &old_title), None);
        let mut own_only = failing(&[("tests/test_stats.py::test_average_of_two", None)]);
        own_only.log =
            "FAIL: test_average_of_two\nNameError: name 'average' is not defined\n".into();
        let msg = fail_on_both(&change(), &base, &own_only).expect("fail-on-both");
        assert!(msg.starts_with("fail-on-both"), "{msg}");
        assert!(
            msg.contains("NameError: name 'average' is not defined"),
            "{msg}"
        );
    }

    #[test]
    fn feedback_names_each_refusal() {
        assert!(feedback(&Proof::Proven(vec!["t".into()]), &change()).is_none());
        assert!(
            feedback(&Proof::NoTest, &change())
                .unwrap()
                .starts_with("no regression test")
        );
        assert!(
            feedback(&Proof::PassOnBoth, &change())
                .unwrap()
                .contains("tests/test_stats.py")
        );
    }
}
