//! Dynamic guards on the written tree: build, G8 test-regression and the dynamic half of
//! test-integrity (fewer tests collected than at the baseline), plus writing a change to the
//! worktree and reverting exactly the files it touched.
//!
//! The build checks and test runs are the toolchain crate's (`slopguard_toolchain`): each
//! command runs with a timeout in its own process group, killed as a group on timeout. A
//! missing toolchain is reported as a skipped guard with the reason, never as a pass.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slopguard_change::{ChangeSet, FileChange, MemTree, containment};

use slopguard_toolchain::{RepoFiles, TestLimits, TestRun};

use crate::records::{ActivityStatus, Baseline};

mod build;
pub use build::{build_failures, build_guard, failure_lines};

/// Errors writing or reverting files.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct WriteError {
    /// The file.
    pub path: String,
    /// The cause.
    #[source]
    pub source: std::io::Error,
}

/// What [`write_change`] did, enough to undo it exactly.
#[derive(Debug, Clone, Default)]
pub struct Written {
    root: PathBuf,
    /// (path, content before; `None` when the file did not exist).
    originals: Vec<(String, Option<Vec<u8>>)>,
}

impl Written {
    /// The touched paths (both sides of renames).
    pub fn paths(&self) -> Vec<String> {
        self.originals.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Restores every touched file to its content before the write (deleting created files and
    /// the directories that became empty).
    pub fn revert(&self) -> Result<(), WriteError> {
        for (path, before) in self.originals.iter().rev() {
            let full = self.root.join(path);
            let err = |source| WriteError {
                path: path.clone(),
                source,
            };
            match before {
                Some(bytes) => {
                    if let Some(parent) = full.parent() {
                        std::fs::create_dir_all(parent).map_err(err)?;
                    }
                    std::fs::write(&full, bytes).map_err(err)?;
                }
                None => {
                    match std::fs::remove_file(&full) {
                        Ok(()) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => return Err(err(e)),
                    }
                    let mut dir = full.parent();
                    while let Some(d) = dir {
                        if d == self.root || std::fs::remove_dir(d).is_err() {
                            break;
                        }
                        dir = d.parent();
                    }
                }
            }
        }
        Ok(())
    }
}

/// Why [`with_undone`] failed, which says where the change is.
#[derive(Debug, thiserror::Error)]
pub enum UndoneError {
    /// The undo could not be written: nothing ran, and the change is in place as before (a
    /// write that fails half-way is reverted).
    #[error("could not undo the change: {0}")]
    NotUndone(WriteError),
    /// The run ran and the change could not be written back: the files hold the undo.
    #[error("could not write the change back: {0}")]
    NotWrittenBack(WriteError),
}

impl UndoneError {
    /// Whether the change is still written where it was.
    pub fn change_in_place(&self) -> bool {
        matches!(self, UndoneError::NotUndone(_))
    }
}

impl From<UndoneError> for WriteError {
    fn from(e: UndoneError) -> WriteError {
        match e {
            UndoneError::NotUndone(w) | UndoneError::NotWrittenBack(w) => w,
        }
    }
}

/// Runs `run` in `root`, where a change is written, with the files `changes` touched put back
/// as they were before it, then writes them again: the tests without the fix (the regression
/// proof), the baseline recorded once more (kept-behaviour). An error when the undo cannot be
/// written or the change cannot be written back ([`UndoneError`] says which).
pub fn with_undone<'c, T>(
    root: &Path,
    changes: impl IntoIterator<Item = &'c FileChange>,
    run: impl FnOnce() -> T,
) -> Result<T, UndoneError> {
    let undo = changes.into_iter().map(undo_of).collect();
    let undone = ChangeSet::new(std::sync::Arc::new(MemTree::default()), undo, "undone");
    let written = write_change(root, &undone).map_err(UndoneError::NotUndone)?;
    let out = run();
    written.revert().map_err(UndoneError::NotWrittenBack)?;
    Ok(out)
}

/// The change that takes `c`'s file back to how it was before `c`.
fn undo_of(c: &FileChange) -> FileChange {
    match (&c.before, &c.after) {
        (Some(before), Some(after)) => {
            FileChange::modify(c.path.clone(), after.clone(), before.clone())
        }
        (None, Some(after)) => FileChange::delete(c.path.clone(), after.clone()),
        (Some(before), None) => FileChange::create(c.path.clone(), before.clone()),
        (None, None) => FileChange::create(c.path.clone(), Vec::new()),
    }
}

/// Writes `change` into `root`. Paths were judged by the containment guard before; they are
/// checked again here, lexically (relative, no `..`, not under `.git`) and where the kernel
/// would put the bytes (no symlink of the worktree leading out of it or into `.git/`,
/// [`containment::locate`]), so neither a bug upstream nor a repository's symlink can make
/// the worker write outside the worktree. On a failure half-way, what was written is reverted.
pub fn write_change(root: &Path, change: &ChangeSet) -> Result<Written, WriteError> {
    let mut w = Written {
        root: root.to_path_buf(),
        originals: Vec::new(),
    };
    let mut seen = BTreeSet::new();
    for c in &change.changes {
        for p in [c.old_path(), c.path.as_str()] {
            if seen.insert(p.to_string()) {
                let before = contained(root, p).and_then(|()| original(&root.join(p)));
                match before {
                    Ok(before) => w.originals.push((p.to_string(), before)),
                    Err(why) => {
                        let _ = w.revert();
                        return Err(WriteError {
                            path: p.to_string(),
                            source: std::io::Error::other(why),
                        });
                    }
                }
            }
        }
    }
    let res = (|| {
        for c in &change.changes {
            if c.old_path() != c.path {
                let _ = std::fs::remove_file(root.join(c.old_path()));
            }
            let full = root.join(&c.path);
            let err = |source| WriteError {
                path: c.path.clone(),
                source,
            };
            match &c.after {
                Some(bytes) => {
                    if let Some(parent) = full.parent() {
                        std::fs::create_dir_all(parent).map_err(err)?;
                    }
                    std::fs::write(&full, bytes).map_err(err)?;
                }
                None => match std::fs::remove_file(&full) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(err(e)),
                },
            }
        }
        Ok(())
    })();
    if let Err(e) = res {
        let _ = w.revert();
        return Err(e);
    }
    Ok(w)
}

/// What is at `full` before the write, to restore it: `None` when nothing is there, the bytes
/// of a file (through a symlink to one). Anything else (a directory, a symlink to nothing or
/// to a directory, a path through a file) is refused: a revert could not put it back, and
/// removing "the created file" would delete the symlink itself.
fn original(full: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::symlink_metadata(full) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
        Ok(_) => {}
    }
    match std::fs::metadata(full) {
        Ok(m) if m.is_file() => std::fs::read(full).map(Some).map_err(|e| e.to_string()),
        Ok(_) => Err("is a directory, not a file".into()),
        Err(_) => Err("is a symlink to nothing".into()),
    }
}

/// Why writing `p` under `root` could land outside it, if it could.
fn contained(root: &Path, p: &str) -> Result<(), String> {
    if !safe_rel(p) {
        return Err("unsafe path (absolute, `..`, `.git/` or empty)".into());
    }
    containment::locate(root, root, p)
        .map(|_| ())
        .map_err(|escape| escape.describe(root))
}

fn safe_rel(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains('\0')
        && !p.contains('\\')
        && p.split('/').all(|c| c != ".." && c != "." && !c.is_empty())
        && p.split('/').next() != Some(".git")
}

/// Outcome of one dynamic guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Passed.
    Pass,
    /// Blocked, with feedback for the model.
    Block(String),
    /// Could not run (toolchain missing, nothing to check), with the reason.
    Skipped(String),
}

impl Verdict {
    /// The verdict as a guard activity status.
    pub fn status(&self) -> ActivityStatus {
        match self {
            Verdict::Pass => ActivityStatus::Passed,
            Verdict::Block(_) => ActivityStatus::Blocked,
            Verdict::Skipped(_) => ActivityStatus::Skipped,
        }
    }
}

/// Options of the dynamic guards.
#[derive(Debug, Clone)]
pub struct DynamicOptions {
    /// Timeout of each build command.
    pub build_timeout: Duration,
    /// Timeout of the test run.
    pub test_timeout: Duration,
    /// Run the build guard.
    pub build: bool,
    /// Run G8 and the dynamic test-integrity check.
    pub tests: bool,
}

impl Default for DynamicOptions {
    fn default() -> Self {
        Self {
            build_timeout: Duration::from_secs(300),
            test_timeout: Duration::from_secs(600),
            build: true,
            tests: true,
        }
    }
}

/// Runs the project's tests (every detected ecosystem's runner) in `root`.
pub fn run_tests(root: &Path, timeout: Duration) -> TestRun {
    slopguard_toolchain::run_tests(&RepoFiles::walk(root), timeout)
}

/// The baseline from a test outcome.
pub fn baseline_of(t: &TestRun) -> Baseline {
    Baseline {
        ran: t.ran,
        failing: t.failing.iter().map(|f| f.id.clone()).collect(),
        total: t.passed + t.failed,
        broken: t.broken,
        reason: if t.ran { Vec::new() } else { t.details.clone() },
        failing_tests: t.failing.clone(),
        log: t.log.clone(),
        fixed: Default::default(),
        // A hang cost the per-test limit: the next runs' limits come from the rest.
        suite_ms: match t.elapsed_ms {
            0 => 0,
            ms => ms.saturating_sub(t.cut_ms).max(1),
        },
        failed: u64::from(t.failed),
        build_failures: None,
    }
}

/// The limits of a test run after the baseline: derived from how long the baseline's run took
/// (a test that hangs is then cut within seconds and reported failing by name), bounded by
/// `max_suite`; the default per-test limit under `max_suite` when the baseline was not timed.
pub fn test_limits(base: Option<&Baseline>, max_suite: Duration) -> TestLimits {
    match base.map(|b| b.suite_ms).filter(|ms| *ms > 0) {
        Some(ms) => TestLimits::from_baseline(Duration::from_millis(ms), max_suite),
        None => TestLimits::with_suite(max_suite),
    }
}

/// G8: tests that passed at the baseline and fail now. `Skipped` when no runner ran, at the
/// baseline or now (with the reason).
pub fn test_regression(base: &Baseline, now: &TestRun) -> Verdict {
    if !base.ran && !base.broken {
        return Verdict::Skipped(format!(
            "no test baseline: {}",
            if base.reason.is_empty() {
                "no recognised test runner".to_string()
            } else {
                base.reason.join("; ")
            }
        ));
    }
    if now.broken && !base.broken {
        return Verdict::Block(format!(
            "The test suite no longer runs after your change (compile or collection error):\n{}",
            now.details
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    if !now.ran && !now.broken {
        // The runner did not run at all now (e.g. timeout) but did at the baseline.
        return Verdict::Block(format!(
            "The tests did not run after your change: {}",
            now.details.join("; ")
        ));
    }
    let newly: Vec<&str> = base.newly_failing(now).collect();
    // The runner's output can be too long to keep whole (a test that prints megabytes): the
    // names of some failures are then lost, but its count of them is not.
    let failed_before = base.failed.max(base.failing.len() as u64);
    if newly.is_empty() && u64::from(now.failed) > failed_before {
        return Verdict::Block(format!(
            "{} tests fail after your change against {failed_before} before it (the test \
             output was too long to name them all). Your change broke behaviour other tests rely \
             on; change only what the subtask asks.",
            now.failed
        ));
    }
    if newly.is_empty() {
        Verdict::Pass
    } else {
        let shown: Vec<&str> = newly.iter().take(20).copied().collect();
        Verdict::Block(format!(
            "Tests that passed before your change now fail: {}. Your change broke behaviour they \
             rely on; keep the existing behaviour (signatures, return values, side effects) and \
             change only what the subtask asks.",
            shown.join(", ")
        ))
    }
}

/// Test-integrity (dynamic): fewer tests collected than at the baseline.
pub fn test_count(base: &Baseline, now: &TestRun) -> Verdict {
    if !base.ran {
        return Verdict::Skipped("no test baseline".into());
    }
    let total = now.passed + now.failed;
    if now.ran && total < base.total {
        Verdict::Block(format!(
            "Fewer tests run after your change ({total}) than before ({}). Do not delete, \
             rename away or disable tests; fix the code instead.",
            base.total
        ))
    } else {
        Verdict::Pass
    }
}

/// The dynamic verdicts of one attempt.
#[derive(Debug, Clone)]
pub struct DynamicReport {
    /// (guard slug, code, verdict), in run order.
    pub verdicts: Vec<(&'static str, Option<&'static str>, Verdict)>,
    /// The test outcome, when tests ran (to advance the baseline on success).
    pub tests: Option<TestRun>,
    /// Time spent in the toolchain.
    pub elapsed: Duration,
}

impl DynamicReport {
    /// Whether any guard blocked.
    pub fn blocked(&self) -> bool {
        self.verdicts
            .iter()
            .any(|(_, _, v)| matches!(v, Verdict::Block(_)))
    }

    /// Feedback for the model (blocking verdicts only).
    pub fn feedback(&self) -> String {
        let mut s = String::new();
        for (g, code, v) in &self.verdicts {
            if let Verdict::Block(msg) = v {
                let label = code.map(|c| format!("{c} {g}")).unwrap_or(g.to_string());
                s.push_str(&format!("- [{label}] {msg}\n"));
            }
        }
        s
    }
}

/// Runs build, then (if it passed) the tests for G8 and test-integrity, on `root`.
pub fn run_dynamic(
    root: &Path,
    baseline: Option<&Baseline>,
    opts: &DynamicOptions,
) -> DynamicReport {
    let t0 = Instant::now();
    let files = RepoFiles::walk(root);
    let mut verdicts = Vec::new();
    let mut tests = None;
    if opts.build {
        let v = build_guard(&files, opts.build_timeout, baseline);
        let blocked = matches!(v, Verdict::Block(_));
        verdicts.push(("build", None, v));
        if blocked {
            return DynamicReport {
                verdicts,
                tests,
                elapsed: t0.elapsed(),
            };
        }
    }
    if opts.tests {
        match baseline {
            Some(base) if base.ran || base.broken => {
                let limits = test_limits(Some(base), opts.test_timeout);
                let now = slopguard_toolchain::run_tests_limited(&files, &limits);
                verdicts.push(("test-regression", Some("G8"), test_regression(base, &now)));
                verdicts.push(("test-integrity", None, test_count(base, &now)));
                tests = Some(now);
            }
            Some(base) => {
                let why = test_regression(base, &TestRun::default());
                verdicts.push(("test-regression", Some("G8"), why.clone()));
            }
            None => verdicts.push((
                "test-regression",
                Some("G8"),
                Verdict::Skipped("no baseline captured".into()),
            )),
        }
    }
    DynamicReport {
        verdicts,
        tests,
        elapsed: t0.elapsed(),
    }
}

/// The dynamic guards with the tests first: the tests (G8, test-integrity) run; the build
/// check runs only when `worth_building` accepts their outcome, and its verdict goes first in
/// the report, as [`run_dynamic`] orders it. For candidates that are many and mostly wrong
/// (the repair templates): every test runner here compiles or loads the code it runs, so a
/// candidate that does not build already fails its tests, and the build check (`go build` +
/// `go vet`, every file compiled) is paid once for the candidate that passes them instead of
/// for each. What passes all of this passed the same gates as [`run_dynamic`]'s.
pub fn run_dynamic_tests_first(
    root: &Path,
    baseline: Option<&Baseline>,
    opts: &DynamicOptions,
    worth_building: impl FnOnce(&DynamicReport) -> bool,
) -> DynamicReport {
    let tests_only = DynamicOptions {
        build: false,
        ..opts.clone()
    };
    let mut report = run_dynamic(root, baseline, &tests_only);
    if opts.build && !report.blocked() && worth_building(&report) {
        let started = Instant::now();
        let build = build_guard(&RepoFiles::walk(root), opts.build_timeout, baseline);
        report.verdicts.insert(0, ("build", None, build));
        report.elapsed += started.elapsed();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::{FileChange, MemTree};
    use slopguard_planning::analysis::FailingTest;
    use std::sync::Arc;

    #[test]
    fn write_and_revert_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::write(r.join("a.txt"), "a").unwrap();
        std::fs::write(r.join("gone.txt"), "g").unwrap();
        std::fs::write(r.join("untouched.txt"), "u").unwrap();
        let change = ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![
                FileChange::modify("a.txt", "a", "A"),
                FileChange::create("new/dir/b.txt", "b"),
                FileChange::delete("gone.txt", "g"),
            ],
            "t",
        );
        let w = write_change(r, &change).unwrap();
        assert_eq!(std::fs::read_to_string(r.join("a.txt")).unwrap(), "A");
        assert!(r.join("new/dir/b.txt").exists());
        assert!(!r.join("gone.txt").exists());
        w.revert().unwrap();
        assert_eq!(std::fs::read_to_string(r.join("a.txt")).unwrap(), "a");
        assert_eq!(std::fs::read_to_string(r.join("gone.txt")).unwrap(), "g");
        assert!(!r.join("new").exists());
        assert_eq!(
            std::fs::read_to_string(r.join("untouched.txt")).unwrap(),
            "u"
        );
        let bad = ChangeSet::new(
            Arc::new(MemTree::default()),
            vec![FileChange::create("../escape.txt", "x")],
            "t",
        );
        assert!(write_change(r, &bad).is_err());
        assert!(!r.parent().unwrap().join("escape.txt").exists());
    }

    #[test]
    fn a_change_that_cannot_be_undone_is_left_in_place_and_nothing_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "fixed").unwrap();
        let change = FileChange::modify("a.txt", "buggy", "fixed");
        let ran = std::cell::Cell::new(false);
        let seen = with_undone(dir.path(), [&change], || {
            ran.set(true);
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap()
        });
        assert_eq!(seen.unwrap(), "buggy");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "fixed"
        );
        // An undo outside the worktree is refused before anything is written.
        let escape = FileChange::modify("../a.txt", "buggy", "fixed");
        ran.set(false);
        let err = with_undone(dir.path(), [&change, &escape], || ran.set(true)).unwrap_err();
        assert!(err.change_in_place(), "{err}");
        assert!(!ran.get());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
            "fixed"
        );
    }

    fn outcome(passed: u32, failing: &[&str]) -> TestRun {
        TestRun {
            ran: true,
            passed,
            failed: failing.len() as u32,
            failing: failing
                .iter()
                .map(|id| FailingTest {
                    id: id.to_string(),
                    file: None,
                })
                .collect(),
            ..TestRun::default()
        }
    }

    #[test]
    fn g8_and_count() {
        let base = baseline_of(&outcome(3, &["t::known_bug"]));
        assert_eq!(test_regression(&base, &outcome(4, &[])), Verdict::Pass);
        assert_eq!(
            test_regression(&base, &outcome(3, &["t::known_bug"])),
            Verdict::Pass
        );
        assert!(matches!(
            test_regression(&base, &outcome(2, &["t::known_bug", "t::other"])),
            Verdict::Block(m) if m.contains("t::other")
        ));
        let mut broken = outcome(0, &[]);
        broken.ran = false;
        broken.broken = true;
        assert!(matches!(test_regression(&base, &broken), Verdict::Block(_)));
        assert!(matches!(
            test_count(&base, &outcome(2, &[])),
            Verdict::Block(_)
        ));
        assert_eq!(test_count(&base, &outcome(4, &[])), Verdict::Pass);
        let none = baseline_of(&TestRun::not_run("cargo not found: install"));
        assert!(
            matches!(test_regression(&none, &outcome(1, &[])), Verdict::Skipped(m) if m.contains("cargo not found"))
        );
    }

    #[test]
    fn tests_first_builds_only_what_its_caller_finds_worth_building() {
        let pytest = std::process::Command::new("python3")
            .args(["-m", "pytest", "--version"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !pytest {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("tests")).unwrap();
        std::fs::write(root.join("calc.py"), "def one():\n    return 1\n").unwrap();
        std::fs::write(
            root.join("tests/test_calc.py"),
            "from calc import one\n\n\ndef test_one():\n    assert one() == 1\n",
        )
        .unwrap();
        std::fs::write(
            root.join("pyproject.toml"),
            "[tool.pytest.ini_options]\npythonpath = [\".\"]\n",
        )
        .unwrap();
        let base = baseline_of(&run_tests(root, Duration::from_secs(60)));
        assert!(base.ran && base.failing.is_empty(), "{base:?}");
        // A file no test imports stops building: only the build check can see it.
        std::fs::write(root.join("unused.py"), "def f(:\n").unwrap();
        let opts = DynamicOptions::default();

        let unbuilt = run_dynamic_tests_first(root, Some(&base), &opts, |_| false);
        assert!(!unbuilt.blocked());
        assert_eq!(
            unbuilt.verdicts.iter().map(|v| v.0).collect::<Vec<_>>(),
            ["test-regression", "test-integrity"]
        );

        let built = run_dynamic_tests_first(root, Some(&base), &opts, |r| r.tests.is_some());
        assert!(built.blocked());
        assert!(
            matches!(&built.verdicts[0], ("build", None, Verdict::Block(m)) if m.contains("unused.py"))
        );
    }

    #[test]
    fn later_test_runs_are_limited_by_the_baselines_suite_time() {
        let max = Duration::from_secs(600);
        let timed = Baseline {
            suite_ms: 2_000,
            ..Baseline::default()
        };
        let l = test_limits(Some(&timed), max);
        assert_eq!((l.per_test.as_secs(), l.suite.as_secs()), (20, 50));
        // Not timed (a state saved by an older release, or no baseline): the defaults.
        let untimed = Baseline::default();
        assert_eq!(
            test_limits(Some(&untimed), max),
            TestLimits::with_suite(max)
        );
        assert_eq!(test_limits(None, max), TestLimits::with_suite(max));
        assert_eq!(
            baseline_of(&TestRun {
                elapsed_ms: 7,
                ..TestRun::default()
            })
            .suite_ms,
            7
        );
        // A baseline with a hang cut at a minute: the limits come from the suite without it.
        let hung = baseline_of(&TestRun {
            elapsed_ms: 60_160,
            cut_ms: 60_000,
            ..TestRun::default()
        });
        assert_eq!(hung.suite_ms, 160);
        assert_eq!(test_limits(Some(&hung), max).per_test.as_secs(), 10);
    }

    #[test]
    fn more_failures_than_at_the_baseline_block_even_when_their_names_were_lost() {
        let base = baseline_of(&outcome(5, &["t1"]));
        assert_eq!(base.failed, 1);
        let lost_names = TestRun {
            ran: true,
            passed: 3,
            failed: 3,
            ..TestRun::default()
        };
        assert!(
            matches!(test_regression(&base, &lost_names), Verdict::Block(m) if m.contains("3 tests fail"))
        );
        let same = TestRun {
            ran: true,
            passed: 5,
            failed: 1,
            ..TestRun::default()
        };
        assert_eq!(test_regression(&base, &same), Verdict::Pass);
    }
}
