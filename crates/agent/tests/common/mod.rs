//! What the run-loop tests share: a Python repository whose tests run with `unittest`
//! (`calc.py` with a bug in `add`, a passing `helper`), a fresh store per run, a plan of one
//! task, the scripted replies' JSON and the run options.
#![allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses part of what is shared"
)]

use std::path::Path;
use std::process::Command;

use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::run::{PlanSource, RunOptions};
use slopguard_llm::LlmConfig;
use slopguard_planning::plan::{Action, Plan, Subtask, Task};
pub(crate) use slopguard_testkit::{git, python_missing, snapshot};

pub(crate) const CALC: &str = "def add(a, b):\n    return a - b\n\n\ndef helper():\n    return 5\n";
pub(crate) const TESTS: &str = "import unittest\n\nfrom calc import add, helper\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    def test_helper(self):\n        self.assertEqual(helper(), 5)\n";

pub(crate) fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    git(r, &["config", "user.email", "t@example.com"]);
    git(r, &["config", "user.name", "t"]);
    std::fs::write(r.join("calc.py"), CALC).unwrap();
    std::fs::write(r.join("notes.txt"), "notes\n").unwrap();
    std::fs::create_dir_all(r.join("tests")).unwrap();
    std::fs::write(r.join("tests/__init__.py"), "").unwrap();
    std::fs::write(r.join("tests/test_calc.py"), TESTS).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "init"]);
    std::fs::write(r.join("notes.txt"), "uncommitted user work\n").unwrap();
    dir
}

/// A fresh repository and store for one run.
pub(crate) struct Fixture {
    pub(crate) dir: tempfile::TempDir,
    pub(crate) tmp: tempfile::TempDir,
    pub(crate) db: String,
}

impl Fixture {
    /// `None` (the test is skipped) when python3 is missing.
    pub(crate) fn new() -> Option<Fixture> {
        if python_missing() {
            return None;
        }
        let tmp = tempfile::tempdir().unwrap();
        let db = format!("sqlite://{}", tmp.path().join("store.db").display());
        Some(Fixture {
            dir: repo(),
            tmp,
            db,
        })
    }

    pub(crate) fn opts(&self, url: &str) -> RunOptions {
        opts(self.dir.path(), url, &self.db, &self.tmp.path().join("wt"))
    }
}

/// A modify subtask with `hints`; its id comes from the plan's normalisation.
pub(crate) fn subtask(title: &str, hints: &[&str]) -> Subtask {
    Subtask {
        id: String::new(),
        title: title.into(),
        description: String::new(),
        file_hints: hints.iter().map(|s| s.to_string()).collect(),
        action: Action::Modify,
    }
}

/// A plan of one task, `T001` titled `title`, with `subtasks`.
pub(crate) fn one_task(title: &str, subtasks: Vec<Subtask>) -> Plan {
    Plan {
        tasks: vec![Task {
            id: "T001".into(),
            title: title.into(),
            priority: 1,
            description: String::new(),
            subtasks,
        }],
    }
}

pub(crate) fn plan() -> Plan {
    one_task(
        "Fix add",
        vec![
            subtask("Make add return the sum", &["calc.py"]),
            subtask("Document add in notes", &["notes.txt"]),
        ],
    )
}

pub(crate) fn patch(search: &str, replace: &str) -> String {
    serde_json::json!({"commit_message": "Fix add: return the sum", "patches": [{"action": "modify",
        "path": "calc.py", "edits": [{"search": search, "replace": replace}]}]})
    .to_string()
}

/// The reply of the notes subtask: a whole-file rewrite of `notes.txt`.
pub(crate) fn notes_patch() -> String {
    serde_json::json!({"commit_message": "notes", "patches": [{"action": "modify",
        "path": "notes.txt", "content": "notes\nadd returns the sum\n"}]})
    .to_string()
}

pub(crate) fn opts(repo: &Path, url: &str, db: &str, wt: &Path) -> RunOptions {
    RunOptions {
        path: repo.to_path_buf(),
        branch: Some("sg/loop".into()),
        plan: PlanSource::Given(plan()),
        llm: LlmConfig::single(url, "scripted-model"),
        db: Some(db.to_string()),
        analysis_toolchain: false,
        measure_after: false,
        worktree: Some(wt.to_path_buf()),
        dynamic: DynamicOptions::default(),
        candidates: slopguard_agent::run::candidates::CandidateCount::Fixed(1),
        // These tests script the model's answers; the repair templates (which would fix
        // `a - b` on their own) have a test of their own.
        templates: false,
        ..RunOptions::default()
    }
}

pub(crate) fn branch_log(fx: &Fixture) -> String {
    git(fx.dir.path(), &["log", "--format=%s", "main..sg/loop"])
}

pub(crate) fn trace_events(summary: &slopguard_agent::run::RunSummary) -> String {
    std::fs::read_to_string(&summary.trace_path).unwrap()
}

pub(crate) const FIXED_CALC: &str =
    "def add(a, b):\n    return a + b\n\n\ndef helper():\n    return 5\n";

/// The fixture with a second failing test, `test_add_zero`: `add` must be right for 0 too.
pub(crate) fn two_failing_tests(fx: &Fixture) {
    let r = fx.dir.path();
    let tests = TESTS.replace(
        "    def test_helper(self):",
        "    def test_add_zero(self):\n        self.assertEqual(add(0, 4), 4)\n\n    def test_helper(self):",
    );
    std::fs::write(r.join("tests/test_calc.py"), tests).unwrap();
    git(r, &["add", "tests/test_calc.py"]);
    git(r, &["commit", "-q", "-m", "test add with zero"]);
}

/// One subtask about the failing tests, two attempts of one candidate each.
pub(crate) fn fix_tests_options(fx: &Fixture, url: &str) -> RunOptions {
    let mut o = fx.opts(url);
    o.plan = PlanSource::Given(one_task(
        "Fix add",
        vec![subtask("Fix the failing tests", &["calc.py"])],
    ));
    o.max_attempts = 2;
    o
}

/// True (and says so) when pytest is not installed: the per-test coverage needs it.
pub(crate) fn pytest_missing() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("pytest missing; skipped");
    }
    !ok
}
