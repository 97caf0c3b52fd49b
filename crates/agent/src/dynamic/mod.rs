//! Dynamic guards on the written tree: build, G8 test-regression and the dynamic half of
//! test-integrity (fewer tests collected than at the baseline), plus writing a change to the
//! worktree and reverting exactly the files it touched.
//!
//! The toolchain runners are the analysis module's ([`crate::analysis::runners`]): each command
//! runs with a timeout in its own process group, killed as a group on timeout. A missing
//! toolchain is reported as a skipped guard with the reason, never as a pass.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slopguard_change::ChangeSet;

use crate::analysis::runners::{self, TestOutcome};
use crate::analysis::{RepoFiles, Stack};
use crate::process::{self, RunOutput};
use crate::state::Baseline;

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

/// Writes `change` into `root`. Paths were judged by the containment guard before; they are
/// checked again here (relative, no `..`, not under `.git`) so a bug upstream cannot write
/// outside the worktree. On a failure half-way, what was written is reverted.
pub fn write_change(root: &Path, change: &ChangeSet) -> Result<Written, WriteError> {
    let mut w = Written {
        root: root.to_path_buf(),
        originals: Vec::new(),
    };
    let mut seen = BTreeSet::new();
    for c in &change.changes {
        for p in [c.old_path(), c.path.as_str()] {
            if seen.insert(p.to_string()) {
                if !safe_rel(p) {
                    let _ = w.revert();
                    return Err(WriteError {
                        path: p.to_string(),
                        source: std::io::Error::other("unsafe path"),
                    });
                }
                let before = std::fs::read(root.join(p)).ok();
                w.originals.push((p.to_string(), before));
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
    /// `passed`, `blocked`, `skipped`.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Pass => "passed",
            Verdict::Block(_) => "blocked",
            Verdict::Skipped(_) => "skipped",
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

fn tail(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

fn judge(name: &str, out: &RunOutput, timeout: Duration) -> Result<(), String> {
    if out.timed_out {
        Err(format!(
            "{name} timed out after {} s (process group killed)",
            timeout.as_secs()
        ))
    } else if out.success() {
        Ok(())
    } else {
        Err(format!("{name} failed:\n{}", tail(&out.combined(), 25)))
    }
}

/// The build guard: cargo check, go build + go vet, tsc --noEmit (when the repo has TypeScript
/// and tsc is available), python compile of every file.
pub fn build_guard(root: &Path, stack: Stack, has_ts: bool, timeout: Duration) -> Verdict {
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    let mut ran = 0;
    if stack.rust {
        if process::on_path("cargo") {
            ran += 1;
            let out = process::run(
                "cargo",
                &["check", "--all-targets", "--quiet", "--color", "never"],
                root,
                &[("CARGO_TERM_COLOR", "never")],
                timeout,
            );
            if let Err(e) = judge("cargo check", &out, timeout) {
                errors.push(e);
            }
        } else {
            skipped.push("cargo not found (install Rust with rustup)".to_string());
        }
    }
    if stack.go {
        if process::on_path("go") {
            ran += 1;
            for args in [&["build", "./..."][..], &["vet", "./..."][..]] {
                let out = process::run("go", args, root, &[], timeout);
                if let Err(e) = judge(&format!("go {}", args[0]), &out, timeout) {
                    errors.push(e);
                    break;
                }
            }
        } else {
            skipped.push("go not found (install Go)".to_string());
        }
    }
    if has_ts {
        let local = root.join("node_modules/.bin/tsc");
        let tsc = if local.exists() {
            Some(local.to_string_lossy().into_owned())
        } else if process::on_path("tsc") {
            Some("tsc".to_string())
        } else {
            None
        };
        match tsc {
            Some(t) => {
                ran += 1;
                let out = process::run(&t, &["--noEmit"], root, &[], timeout);
                if let Err(e) = judge("tsc --noEmit", &out, timeout) {
                    errors.push(e);
                }
            }
            None => skipped.push("tsc not available (npm install typescript)".to_string()),
        }
    }
    if stack.python {
        let py = ["python3", "python"]
            .into_iter()
            .find(|p| process::on_path(p));
        match py {
            Some(py) => {
                ran += 1;
                let out = process::run(
                    py,
                    &["-c", runners::PY_COMPILE_ALL],
                    root,
                    &[("PYTHONDONTWRITEBYTECODE", "1")],
                    timeout,
                );
                if let Err(e) = judge("python compile", &out, timeout) {
                    errors.push(e);
                }
            }
            None => skipped.push("python3 not found".to_string()),
        }
    }
    if !errors.is_empty() {
        return Verdict::Block(format!(
            "The project no longer builds after your change:\n{}",
            errors.join("\n")
        ));
    }
    if ran == 0 {
        return Verdict::Skipped(if skipped.is_empty() {
            "no build system recognised".into()
        } else {
            skipped.join("; ")
        });
    }
    if !skipped.is_empty() {
        tracing::warn!("build guard partly skipped: {}", skipped.join("; "));
    }
    Verdict::Pass
}

/// Runs the project's tests (the analysis runners) in `root`.
pub fn run_tests(root: &Path, timeout: Duration) -> TestOutcome {
    let files = RepoFiles::walk(root);
    let stack = files.stack();
    runners::test_results(&files, stack, timeout)
}

/// The baseline from a test outcome.
pub fn baseline_of(t: &TestOutcome) -> Baseline {
    Baseline {
        ran: t.ran,
        failing: t.failing.iter().map(|f| f.id.clone()).collect(),
        total: t.passed + t.failed,
        broken: t.broken,
        reason: if t.ran { Vec::new() } else { t.details.clone() },
        failing_tests: t.failing.clone(),
        log: t.log.clone(),
    }
}

/// G8: tests that passed at the baseline and fail now. `Skipped` when no runner ran, at the
/// baseline or now (with the reason).
pub fn test_regression(base: &Baseline, now: &TestOutcome) -> Verdict {
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
    let newly: Vec<&str> = now
        .failing
        .iter()
        .map(|f| f.id.as_str())
        .filter(|id| !base.failing.contains(*id))
        .collect();
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
pub fn test_count(base: &Baseline, now: &TestOutcome) -> Verdict {
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
    pub tests: Option<TestOutcome>,
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
    let stack = files.stack();
    let has_ts = files.has("tsconfig.json")
        || files
            .files
            .iter()
            .any(|f| f.ends_with(".ts") || f.ends_with(".tsx"));
    let mut verdicts = Vec::new();
    let mut tests = None;
    if opts.build {
        let v = build_guard(root, stack, has_ts, opts.build_timeout);
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
                let now = runners::test_results(&files, stack, opts.test_timeout);
                verdicts.push(("test-regression", Some("G8"), test_regression(base, &now)));
                verdicts.push(("test-integrity", None, test_count(base, &now)));
                tests = Some(now);
            }
            Some(base) => {
                let why = test_regression(base, &TestOutcome::default());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::FailingTest;
    use slopguard_change::{FileChange, MemTree};
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

    fn outcome(passed: u32, failing: &[&str]) -> TestOutcome {
        TestOutcome {
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
            details: vec![],
            broken: false,
            log: String::new(),
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
        let none = baseline_of(&TestOutcome::not_run("cargo not found: install"));
        assert!(
            matches!(test_regression(&none, &outcome(1, &[])), Verdict::Skipped(m) if m.contains("cargo not found"))
        );
    }

    #[test]
    fn build_guard_python() {
        if !process::on_path("python3") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.py"), "x = 1\n").unwrap();
        let st = Stack {
            python: true,
            ..Stack::default()
        };
        assert_eq!(
            build_guard(dir.path(), st, false, Duration::from_secs(30)),
            Verdict::Pass
        );
        std::fs::write(dir.path().join("bad.py"), "def f(:\n").unwrap();
        assert!(matches!(
            build_guard(dir.path(), st, false, Duration::from_secs(30)),
            Verdict::Block(m) if m.contains("bad.py")
        ));
        assert!(!dir.path().join("__pycache__").exists());
    }
}
