//! The run pipeline's gates beyond the static guards: what stops a candidate patch between the
//! model's reply and the commit, each with one metadata record (slug, phase, failure mode for
//! the store, the seeds' trace event, documentation), so `slopguard guards` can list and
//! explain them and the run loop maps every rejection the same way.
//!
//! The static guards carry their own records (`slopguard_guards::registry`); [`failure_mode`]
//! and [`fail_event`] cover both, and a test checks that every registered static guard has a
//! failure mode (no silent default).

use slopguard_change::ChangeSet;
use slopguard_llm::{BlockingClient, LlmError};
use slopguard_store::FailureMode;

pub mod doc_scope;
pub mod intent_review;
pub mod kept_behaviour;
pub mod step_critic;
pub mod swallowed_error;
pub mod test_values;

/// A code file a candidate writes, outside the tests: its text before (empty for a new file)
/// and after, read lossily. What the gates that read added code lines (test-values,
/// swallowed-error) start from.
pub(crate) struct CodeEdit<'c> {
    pub(crate) path: &'c str,
    pub(crate) before: std::borrow::Cow<'c, str>,
    pub(crate) after: std::borrow::Cow<'c, str>,
}

impl CodeEdit<'_> {
    /// The after text's lines (0-based index, text) that the candidate adds: those whose
    /// trimmed text is on no line of the before text (a line moved or re-indented is not new).
    pub(crate) fn added_lines(&self) -> Vec<(usize, &str)> {
        let old: std::collections::BTreeSet<&str> = self.before.lines().map(str::trim).collect();
        self.after
            .lines()
            .enumerate()
            .filter(|(_, l)| !old.contains(l.trim()))
            .collect()
    }
}

/// The files of `change` the candidate writes that are not tests and that `is_code` accepts
/// by path.
pub(crate) fn code_edits<'c>(
    change: &'c ChangeSet,
    is_code: impl Fn(&str) -> bool,
) -> impl Iterator<Item = CodeEdit<'c>> {
    change.changes.iter().filter_map(move |c| {
        if slopguard_planning::analysis::is_test_file(&c.path) || !is_code(&c.path) {
            return None;
        }
        Some(CodeEdit {
            path: &c.path,
            before: c
                .before
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default(),
            after: String::from_utf8_lossy(c.after.as_deref()?),
        })
    })
}

pub use crate::records::Phase;

/// One gate of the run pipeline.
#[derive(Debug, Clone, Copy)]
pub struct Gate {
    /// Slug, as in guard activity records and feedback (`test-regression`).
    pub slug: &'static str,
    /// The seeds' code, when there is one (`G8`).
    pub code: Option<&'static str>,
    /// When it runs.
    pub phase: Phase,
    /// One line: what it stops.
    pub summary: &'static str,
    /// The failure mode recorded in the store when it blocks.
    pub mode: FailureMode,
    /// The trace event emitted when it blocks.
    pub event: &'static str,
    /// Its documentation (Markdown).
    pub doc: &'static str,
}

/// One thing a gate found wrong with a candidate.
#[derive(Debug, Clone, Default)]
pub struct RejectionFinding {
    /// The file, when the finding is about one.
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The gate's own data (a guard's `data` field; null when it has none).
    pub data: serde_json::Value,
}

/// One gate's refusal of a candidate. Every way a candidate is turned down (a model error, an
/// unreadable reply, edits that do not apply, a static guard, the build, the tests) takes this
/// shape, and the run records each the same way: its failure mode joins the subtask's, its
/// trace event is emitted, and (before any guard ran) it is added to the guard activity.
#[derive(Debug, Clone)]
pub struct Rejection {
    /// The gate's slug (`apply`, `symbol-preservation`, `test-regression`).
    pub gate: String,
    /// When it ran.
    pub phase: Phase,
    /// The store's failure mode for it.
    pub mode: FailureMode,
    /// What it found.
    pub findings: Vec<RejectionFinding>,
}

impl Rejection {
    /// A refusal by `gate`, its failure mode looked up in the gates' and guards' records.
    pub fn new(gate: &str, phase: Phase, findings: Vec<RejectionFinding>) -> Rejection {
        Rejection {
            gate: gate.to_string(),
            phase,
            mode: failure_mode(gate),
            findings,
        }
    }

    /// A refusal with one message and no file.
    pub fn message(gate: &str, phase: Phase, message: impl Into<String>) -> Rejection {
        Rejection::new(
            gate,
            phase,
            vec![RejectionFinding {
                message: message.into(),
                ..Default::default()
            }],
        )
    }

    /// Its findings' messages, one per line.
    pub fn text(&self) -> String {
        self.findings
            .iter()
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Every gate of the run pipeline that is not a static guard, in pipeline order.
pub const GATES: &[Gate] = &[
    Gate {
        slug: "llm",
        code: None,
        phase: Phase::Apply,
        summary: "the model call failed (HTTP error, bad answer); an unreachable endpoint stops the run, resumable",
        mode: FailureMode::Unknown,
        event: "critic_llm.fail",
        doc: "# llm\n\nThe model call of a candidate failed: the server answered with an HTTP error or \
              something that is not a chat completion. The candidate is rejected and the next one is \
              sampled. An endpoint that does not answer at all stops the run with exit 2; \
              `slopguard run --resume` continues at the same subtask.\n",
    },
    Gate {
        slug: "json",
        code: None,
        phase: Phase::Apply,
        summary: "the reply cannot be read: no file in it, a fence cut off at max_tokens",
        mode: FailureMode::JsonParseBad,
        event: "critic_json.fail",
        doc: "# json (unreadable reply)\n\nThe reply has no file the worker can use: prose only, a code \
              block without a path when several files were shown, a fence cut off at `max_tokens`, \
              malformed SEARCH/REPLACE blocks. Recorded as `json_parse_bad` (the store's mode for \
              unparseable model output). The feedback says what shape was expected.\n",
    },
    Gate {
        slug: "apply",
        code: None,
        phase: Phase::Apply,
        summary: "edits that cannot be applied: search text not found or ambiguous, elided whole files, files outside the list",
        mode: FailureMode::PatcherReject,
        event: "critic_apply.fail",
        doc: "# apply\n\nThe reply was read but cannot become a change: a SEARCH text that no matcher of \
              the chain finds (the feedback quotes the file's closest lines) or that occurs in several \
              places; a whole file that elides code (`# ... rest unchanged`, a bare `...` the file did \
              not have); a whole file for a file not shown in full, or not among the files to change; \
              a definition-only answer that does not define the definition asked for; an answer that \
              changes only blank lines or spaces.\n",
    },
    Gate {
        slug: "doc-scope",
        code: None,
        phase: Phase::Static,
        summary: "a subtask that asks only for doc comments or docstrings may not change code",
        mode: FailureMode::PatcherReject,
        event: "critic_doc_scope.fail",
        doc: "# doc-scope\n\nA subtask whose title or description asks only for documentation in code \
              (doc comments, docstrings, code comments) and not for a fix, a refactoring or a \
              removal, may change comments, docstrings and layout and nothing else. Each changed \
              source file's code tokens (tree-sitter leaves, comments and Python docstrings left \
              out) must be the same before and after; otherwise the candidate is refused, naming \
              the first line whose code changed. Deleting a code file is refused too; Markdown and \
              other non-code files are free. Runs after the static guards passed, on the change in \
              memory.\n",
    },
    Gate {
        slug: "test-values",
        code: None,
        phase: Phase::Static,
        summary: "a fix may not write a failing test's expected value into the code",
        mode: FailureMode::PatcherReject,
        event: "critic_test_values.fail",
        doc: "# test-values\n\nOn a subtask behind failing tests: a literal the candidate adds to a code \
              file (a string of three characters or more, a number other than 0, 1, 2 and -1) that \
              the file did not hold before and that an assertion line of a failing test holds is \
              refused, naming the literal and the test line. Writing the expected value in \
              (`if n == 7: return 13`) passes the tests and fixes nothing. Literals the file already \
              had, and test inputs on lines without an assertion, are free. Runs after the static \
              guards passed, on the change in memory.\n",
    },
    Gate {
        slug: "swallowed-error",
        code: None,
        phase: Phase::Static,
        summary: "a fix may not catch the error a failing test raised and only print it",
        mode: FailureMode::PatcherReject,
        event: "critic_swallowed_error.fail",
        doc: "# swallowed-error\n\nOn a subtask behind failing tests whose output shows the code \
              raising an error (`sqlite3.OperationalError: ...`, `TypeError: ...`; assertion errors \
              do not count): a handler the candidate adds to a Python, JavaScript/TypeScript or Ruby \
              file that catches that error (by name, or every error: a bare `except`, `Exception`, \
              a `catch`, a bare `rescue`) and whose body only prints it (`print`, `console.log`, \
              `console.error`, `puts`, `warn`, with `pass` and comments) is refused. The test no \
              longer sees the error and the bug stays, silent. A handler that returns a value, \
              assigns a fallback, raises again or only passes is handling the error, and passes. \
              Runs after the static guards passed, on the change in memory.\n",
    },
    Gate {
        slug: "build",
        code: None,
        phase: Phase::Dynamic,
        summary: "the project no longer builds: each ecosystem's build check (cargo test --no-run, go build + vet, tsc or node --check, Python and Ruby compile)",
        mode: FailureMode::BuildRetryExhausted,
        event: "critic_build_retry.fail",
        doc: "# build\n\nRuns on the written worktree the build check of every ecosystem the tree is a \
              project of (the toolchain crate's `Ecosystem::build`): `cargo test --no-run` (the test \
              run then reuses its binaries), `go build ./...` and `go vet ./...`, `tsc --noEmit` for \
              TypeScript or `node --check` for each JavaScript file, and a compile of every Python or \
              Ruby file. A failure reverts the candidate; its last lines are the feedback. A missing \
              toolchain skips the gate with the reason, never passes it silently.\n",
    },
    Gate {
        slug: "test-regression",
        code: Some("G8"),
        phase: Phase::Dynamic,
        summary: "tests that passed at the baseline fail now, or the suite no longer runs",
        mode: FailureMode::TestRegression,
        event: "critic_test_regression.fail",
        doc: "# test-regression (G8)\n\nThe project's tests run with its own runner after the build \
              passed. A test that passed at the run's baseline and fails now blocks, and so does a \
              suite that no longer runs (compile or collection error). The baseline advances when a \
              patch lands, so tests it fixed count as passing from then on.\n",
    },
    Gate {
        slug: "test-integrity",
        code: None,
        phase: Phase::Dynamic,
        summary: "fewer tests run than at the baseline (the dynamic half of test-integrity)",
        mode: FailureMode::TestIntegrity,
        event: "critic_test_integrity.fail",
        doc: "# test-integrity (dynamic)\n\nFewer tests collected than at the baseline: deleted, renamed \
              away or disabled tests. The static half (skip markers, removed assertions) runs with the \
              static guards.\n",
    },
    Gate {
        slug: "tests",
        code: None,
        phase: Phase::Dynamic,
        summary: "a subtask behind failing tests lands only when its patch makes at least one of them pass",
        mode: FailureMode::TestRegression,
        event: "worker.tests.still_failing",
        doc: "# tests (the failing tests must pass)\n\nA subtask about the baseline's failing tests has \
              them as targets. A candidate that passes every other gate but leaves all of them failing \
              is rejected; its feedback is what the tests printed after the patch. Among candidates the \
              one that fixes every target lands at once. One that fixes some but not all is carried to \
              the next attempt (its tests' output is the feedback) and lands at the last attempt only \
              if no candidate fixed them all.\n",
    },
    Gate {
        slug: "kept-behaviour",
        code: None,
        phase: Phase::Dynamic,
        summary: "a fix of failing tests may not change which lines the passing tests run",
        mode: FailureMode::TestRegression,
        event: "critic_kept_behaviour.fail",
        doc: "# kept-behaviour\n\nOn a subtask behind failing tests, once a candidate (a model's or a \
              repair template's) makes them all pass: the suite runs once more recording the lines \
              each test runs, and every test that passed at the baseline must run the same lines \
              as it did then, outside the lines the patch changed (kept lines are followed to their \
              new numbers). Those tests passed with the bug, so a right fix leaves their path \
              alone; a fix that sends one down another branch (`<` made `!=` where `<=` was meant) \
              passes the tests and is wrong. A test whose lines vary by themselves (random \
              inputs) is not held to them: a shift counts only when a second recording of the \
              fix repeats it and a second recording of the baseline (made once per subtask, at \
              the first shift) agrees with the first. The refusal names the test and the first \
              line it now runs or no longer runs. Skipped where no runner records per-test coverage \
              (unittest, Jest, RSpec), for suites over 60 s, and for a change to Rust files only \
              (there it refused 3 of 11 right fixes: a test of a bad input that fails at another \
              check once the bug is fixed).\n",
    },
    Gate {
        slug: "regression-proof",
        code: None,
        phase: Phase::Dynamic,
        summary: "with `feedback fix`: the patch's own test must fail without the fix and pass with it",
        mode: FailureMode::TestRegression,
        event: "worker.regression_proof.refused",
        doc: "# regression-proof (feedback fixes)\n\nOn for `slopguard feedback fix`, off for `run`. \
              After the build and the whole suite passed with the candidate, its code files are put \
              back as they were (its test files kept) and the tests run again: the candidate's new \
              tests must fail there. Refused: a change with no test file (no test), a test that \
              passes without the fix (pass-on-both: it does not exercise the bug), a test that \
              fails with the fix too (fail-on-both: the fix does not fix it).\n",
    },
    Gate {
        slug: "failure-memory",
        code: Some("G9"),
        phase: Phase::Plan,
        summary: "subtasks on files that failed repeatedly in this repository are dropped from the plan",
        mode: FailureMode::Unknown,
        event: "plan.occam_filter",
        doc: "# failure-memory (G9)\n\nBefore execution, the store's recent observations of this \
              repository are read: a subtask whose files failed at least the threshold number of times \
              (`--g9-threshold`, default 2) is dropped from the plan, so a run does not spend its budget \
              where earlier runs failed.\n",
    },
];

/// What a model-backed gate sees of a candidate.
pub struct ReviewInput<'a> {
    /// The subtask's title.
    pub title: &'a str,
    /// The subtask's description.
    pub description: &'a str,
    /// The candidate's change (in memory; nothing is written yet).
    pub change: &'a ChangeSet,
}

/// A gate that asks a model about a candidate: a critic. The sibling of the static guards'
/// `Guard` trait for gates whose judgement costs a model call; it runs after the static
/// guards passed and before the toolchain, and refuses with a [`Rejection`] like every gate.
/// Each one is one module of this directory and one line in [`MODEL_GATES`].
pub trait ModelGate: Send + Sync {
    /// Its metadata record (listed and explained by `slopguard guards`).
    fn gate(&self) -> &'static Gate;
    /// The gate's verdict: `Some` refuses the candidate. A model error is returned as is (the
    /// run treats an unreachable endpoint as it does for the worker).
    fn review(
        &self,
        input: &ReviewInput<'_>,
        client: &BlockingClient,
    ) -> Result<Option<Rejection>, LlmError>;
}

/// Every model-backed gate, in the order they run. Each is opt-in.
pub static MODEL_GATES: &[&dyn ModelGate] = &[&intent_review::IntentReview];

/// Every gate that is not a static guard: the pipeline's own, then the model-backed ones.
pub fn all() -> impl Iterator<Item = &'static Gate> {
    GATES.iter().chain(MODEL_GATES.iter().map(|g| g.gate()))
}

/// The gate with `slug` or code.
pub fn find(name: &str) -> Option<&'static Gate> {
    all().find(|g| g.slug == name || g.code.is_some_and(|c| c.eq_ignore_ascii_case(name)))
}

/// The store's failure mode for a guard or gate that blocked: the gate's record, else the static
/// guard's own ([`slopguard_guards::GuardInfo::failure_mode`]), else `git` (a refused commit).
pub fn failure_mode(slug: &str) -> FailureMode {
    if let Some(g) = find(slug) {
        return g.mode;
    }
    if let Some(g) = slopguard_guards::find_guard(slug) {
        return g
            .info()
            .failure_mode
            .parse()
            .unwrap_or(FailureMode::Unknown);
    }
    match slug {
        "git" => FailureMode::GitRefused,
        _ => FailureMode::Unknown,
    }
}

/// The trace event for a guard or gate that blocked: the gate's record, else the static
/// guard's own, else `critic_<slug>.fail`.
pub fn fail_event(slug: &str) -> String {
    if let Some(g) = find(slug) {
        return g.event.to_string();
    }
    if let Some(g) = slopguard_guards::find_guard(slug) {
        return g.info().trace_event.to_string();
    }
    format!("critic_{}.fail", slug.replace('-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_static_guard_has_a_failure_mode() {
        for g in slopguard_guards::registry() {
            let slug = g.info().slug;
            assert_ne!(
                failure_mode(slug),
                FailureMode::Unknown,
                "static guard `{slug}` has no failure mode"
            );
        }
    }

    #[test]
    fn gates_are_found_by_slug_and_code() {
        assert_eq!(find("G8").map(|g| g.slug), Some("test-regression"));
        assert_eq!(find("build").map(|g| g.phase), Some(Phase::Dynamic));
        assert_eq!(failure_mode("apply"), FailureMode::PatcherReject);
        assert_eq!(fail_event("test-regression"), "critic_test_regression.fail");
        assert_eq!(fail_event("symbol-preservation"), "critic_ast_diff.fail");
        for g in GATES {
            assert!(g.doc.starts_with("# "), "{}", g.slug);
        }
    }
}
