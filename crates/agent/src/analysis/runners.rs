//! Build and test runners for cargo, Python (pytest, falling back to unittest), go and node,
//! with output parsers that extract the failing test ids.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::metrics::{W_BUILD, W_TEST_RESULTS};
use super::{FailingTest, Metric, RepoFiles, Stack, Status};
use crate::process::{self, RunOutput};

/// The outcome of the test runners.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestOutcome {
    /// Some runner actually ran tests.
    pub ran: bool,
    /// Tests passed.
    pub passed: u32,
    /// Tests failed (or errored).
    pub failed: u32,
    /// The failing tests.
    pub failing: Vec<FailingTest>,
    /// Lines for the metric details.
    pub details: Vec<String>,
    /// A runner reported failure without test counts (compile error, collection error).
    pub broken: bool,
    /// What the runners printed (capped to the last [`MAX_LOG_BYTES`]), for the failing tests'
    /// messages in the worker's prompt. Not serialized.
    #[serde(skip)]
    pub log: String,
}

/// Most bytes of runner output kept in [`TestOutcome::log`].
pub const MAX_LOG_BYTES: usize = 64 * 1024;

/// The last `MAX_LOG_BYTES` of `text`, cut at a line start.
fn log_tail(text: &str) -> String {
    if text.len() <= MAX_LOG_BYTES {
        return text.to_string();
    }
    let mut from = text.len() - MAX_LOG_BYTES;
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let rest = &text[from..];
    rest.find('\n').map_or(rest, |i| &rest[i + 1..]).to_string()
}

impl TestOutcome {
    /// Nothing ran, for `reason`.
    pub fn not_run(reason: &str) -> Self {
        Self {
            details: vec![reason.to_string()],
            ..Self::default()
        }
    }

    fn merge(&mut self, other: TestOutcome) {
        self.ran |= other.ran;
        self.passed += other.passed;
        self.failed += other.failed;
        self.failing.extend(other.failing);
        self.details.extend(other.details);
        self.broken |= other.broken;
        if !other.log.is_empty() {
            if !self.log.is_empty() {
                self.log.push('\n');
            }
            self.log.push_str(&other.log);
            self.log = log_tail(&self.log);
        }
    }

    /// The `test_results` metric: unknown when nothing ran; otherwise the pass ratio, and a
    /// fail whenever any test fails.
    pub fn to_metric(&self) -> Metric {
        if !self.ran && !self.broken {
            return Metric::unknown(
                "test_results",
                "Test results",
                W_TEST_RESULTS,
                self.details.clone(),
            );
        }
        let total = self.passed + self.failed;
        let mut details = Vec::new();
        details.push(format!("{} passed, {} failed", self.passed, self.failed));
        for t in self.failing.iter().take(20) {
            match &t.file {
                Some(f) => details.push(format!("FAILED {} ({f})", t.id)),
                None => details.push(format!("FAILED {}", t.id)),
            }
        }
        details.extend(self.details.iter().cloned());
        let mut score = if total == 0 {
            0.0
        } else {
            self.passed as f64 / total as f64
        };
        if self.failed > 0 || self.broken {
            score = score.min(0.49);
        }
        let mut m = Metric::scored(
            "test_results",
            "Test results",
            W_TEST_RESULTS,
            score,
            details,
        );
        m.status = if self.failed > 0 || self.broken {
            Status::Fail
        } else {
            Status::of(score)
        };
        m
    }
}

fn missing(tool: &str, hint: &str) -> String {
    format!("{tool} not found: {hint}")
}

fn tail(s: &str, lines: usize) -> String {
    let v: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    v[v.len().saturating_sub(lines)..].join(" | ")
}

/// The `build` metric: every detected stack must build.
pub fn build_metric(files: &RepoFiles, stack: Stack, timeout: Duration) -> Metric {
    let root = files.root.as_path();
    let mut details = Vec::new();
    let mut known = 0u32;
    let mut ok = 0u32;
    let mut record =
        |name: &str, out: Option<Result<(), String>>, details: &mut Vec<String>| match out {
            None => {}
            Some(Ok(())) => {
                known += 1;
                ok += 1;
                details.push(format!("{name}: ok"));
            }
            Some(Err(e)) => {
                known += 1;
                details.push(format!("{name}: FAILED: {e}"));
            }
        };
    if stack.rust {
        let r = if process::on_path("cargo") {
            let out = process::run(
                "cargo",
                &["test", "--no-run", "--quiet", "--color", "never"],
                root,
                &[("CARGO_TERM_COLOR", "never")],
                timeout,
            );
            Some(verdict(&out))
        } else {
            details.push(missing(
                "cargo",
                "install Rust with rustup (https://rustup.rs)",
            ));
            None
        };
        record("cargo build", r, &mut details);
    }
    if stack.python {
        let r = if process::on_path("python3") {
            let out = process::run(
                "python3",
                &["-c", PY_COMPILE_ALL],
                root,
                &[("PYTHONDONTWRITEBYTECODE", "1")],
                timeout,
            );
            Some(verdict(&out))
        } else {
            details.push(missing("python3", "install Python 3"));
            None
        };
        record("python compile", r, &mut details);
    }
    if stack.go {
        let r = if process::on_path("go") {
            let out = process::run("go", &["build", "./..."], root, &[], timeout);
            Some(verdict(&out))
        } else {
            details.push(missing("go", "install Go (e.g. apt-get install golang-go)"));
            None
        };
        record("go build", r, &mut details);
    }
    if stack.node {
        let r = if !process::on_path("node") {
            details.push(missing("node", "install Node.js"));
            None
        } else if files.has("tsconfig.json") {
            if files.root.join("node_modules/.bin/tsc").exists() {
                let out = process::run("node_modules/.bin/tsc", &["--noEmit"], root, &[], timeout);
                Some(verdict(&out))
            } else {
                details.push("tsc not installed (run npm install)".into());
                None
            }
        } else {
            Some(node_check(files, timeout))
        };
        record("node", r, &mut details);
    }
    if known == 0 {
        if details.is_empty() {
            details.push("no recognised build system".into());
        }
        return Metric::unknown("build", "Build", W_BUILD, details);
    }
    Metric::scored("build", "Build", W_BUILD, ok as f64 / known as f64, details)
}

fn verdict(out: &RunOutput) -> Result<(), String> {
    if out.timed_out {
        Err(format!(
            "timed out after {:.0} s",
            out.elapsed.as_secs_f64()
        ))
    } else if out.success() {
        Ok(())
    } else {
        Err(tail(&out.combined(), 4))
    }
}

/// Compiles every Python file in memory (no `__pycache__` written) and prints the failures;
/// the build metric and the dynamic build guard both run it. Virtualenvs, build output and
/// slopguard's own `.slopguard/` are not the project's code.
pub(crate) const PY_COMPILE_ALL: &str = r#"
import os, sys
bad = 0
skip = {'.git', 'node_modules', '__pycache__', '.venv', 'venv', '.tox', 'build', 'dist', 'target', '.slopguard'}
for d, dirs, files in os.walk('.'):
    dirs[:] = [x for x in dirs if x not in skip and not x.startswith('.venv')]
    for f in files:
        if f.endswith('.py'):
            p = os.path.join(d, f)
            try:
                with open(p, 'rb') as fh:
                    compile(fh.read(), p, 'exec')
            except (SyntaxError, ValueError) as e:
                bad += 1
                print(f"{p}: {e}")
sys.exit(1 if bad else 0)
"#;

fn node_check(files: &RepoFiles, timeout: Duration) -> Result<(), String> {
    let mut errors = Vec::new();
    for f in files
        .files
        .iter()
        .filter(|f| f.ends_with(".js") || f.ends_with(".cjs") || f.ends_with(".mjs"))
        .take(300)
    {
        let out = process::run("node", &["--check", f], &files.root, &[], timeout);
        if !out.success() {
            errors.push(format!("{f}: {}", tail(&out.stderr, 2)));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// Runs the tests of every detected stack.
pub fn test_results(files: &RepoFiles, stack: Stack, timeout: Duration) -> TestOutcome {
    let mut all = TestOutcome::default();
    if stack.rust {
        all.merge(run_cargo(files, timeout));
    }
    if stack.python {
        all.merge(run_python(files, timeout));
    }
    if stack.go {
        all.merge(run_go(files, timeout));
    }
    if stack.node {
        all.merge(run_node(files, timeout));
    }
    if !stack.rust && !stack.python && !stack.go && !stack.node {
        all.details.push("no recognised test runner".into());
    }
    all.failing.sort();
    all.failing.dedup();
    all
}

fn timed_out(tool: &str, out: &RunOutput) -> TestOutcome {
    TestOutcome::not_run(&format!(
        "{tool}: timed out after {:.0} s (process group killed)",
        out.elapsed.as_secs_f64()
    ))
}

/// Whether the repository runs its Rust tests with cargo-nextest (it has nextest's config file)
/// and nextest is installed. Whether it is installed is asked once per process: the test runs
/// of every attempt would otherwise each start one more cargo.
fn uses_nextest(files: &RepoFiles) -> bool {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    files.has(".config/nextest.toml")
        && *INSTALLED.get_or_init(|| {
            process::run(
                "cargo",
                &["nextest", "--version"],
                &files.root,
                &[],
                Duration::from_secs(20),
            )
            .success()
        })
}

fn run_cargo(files: &RepoFiles, timeout: Duration) -> TestOutcome {
    if !process::on_path("cargo") {
        return TestOutcome::not_run(&missing("cargo", "install Rust with rustup"));
    }
    if uses_nextest(files) {
        return run_nextest(files, timeout);
    }
    // One stream, so that `Running <file>` lines stay in order with the test lines.
    let out = process::run(
        "sh",
        &["-c", "exec cargo test --no-fail-fast --color never 2>&1"],
        &files.root,
        &[("CARGO_TERM_COLOR", "never")],
        timeout,
    );
    if out.timed_out {
        return timed_out("cargo test", &out);
    }
    let mut t = parse_cargo(&out.stdout);
    t.log = log_tail(&out.stdout);
    if !t.ran && !out.success() {
        t.broken = true;
        t.details
            .push(format!("cargo test: did not run: {}", tail(&out.stdout, 4)));
    }
    t
}

/// `cargo nextest run`, for repositories configured for it: only failures are printed, each
/// with its binary id and test name.
fn run_nextest(files: &RepoFiles, timeout: Duration) -> TestOutcome {
    let out = process::run(
        "sh",
        &[
            "-c",
            "exec cargo nextest run --no-fail-fast --color never --status-level fail \
             --final-status-level fail --failure-output never --success-output never 2>&1",
        ],
        &files.root,
        &[("CARGO_TERM_COLOR", "never")],
        timeout,
    );
    if out.timed_out {
        return timed_out("cargo nextest", &out);
    }
    let mut t = parse_nextest(&out.stdout, |binary| nextest_binary_file(files, binary));
    t.log = log_tail(&out.stdout);
    if !t.ran && !out.success() {
        t.broken = true;
        t.details.push(format!(
            "cargo nextest: did not run: {}",
            tail(&out.stdout, 4)
        ));
    }
    t
}

/// The source file of a nextest binary id, when the repository has it at the usual place:
/// `crate::name` is an integration test (`tests/name.rs`) or a binary (`src/bin/name.rs`), a
/// bare `crate` its library's unit tests (`src/lib.rs`).
fn nextest_binary_file(files: &RepoFiles, binary: &str) -> Option<String> {
    let candidates = match binary.split_once("::") {
        Some((_, name)) => {
            let name = name.strip_prefix("bin/").unwrap_or(name);
            vec![format!("tests/{name}.rs"), format!("src/bin/{name}.rs")]
        }
        None => vec!["src/lib.rs".to_string(), "src/main.rs".to_string()],
    };
    candidates.into_iter().find(|c| files.has(c))
}

/// Parses `cargo nextest run` output: the `Summary` line gives the counts, the status lines of
/// failed tests (`FAIL`, `TIMEOUT`, `SIGSEGV`, ...) their ids (`binary-id test-name`);
/// `locate` maps a binary id to its source file.
pub fn parse_nextest(text: &str, locate: impl Fn(&str) -> Option<String>) -> TestOutcome {
    const FAILED: &[&str] = &["FAIL", "TIMEOUT", "ABORT", "LEAK-FAIL"];
    let mut t = TestOutcome::default();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("Summary [") {
            let Some((_, counts)) = rest.split_once(']') else {
                continue;
            };
            t.ran = true;
            t.passed += count_before(counts, " passed");
            t.failed += count_before(counts, " failed") + count_before(counts, " timed out");
            continue;
        }
        let Some((status, rest)) = l.split_once(" [") else {
            continue;
        };
        if !(FAILED.contains(&status) || status.starts_with("SIG")) {
            continue;
        }
        let Some((_, after)) = rest.split_once(']') else {
            continue;
        };
        let mut after = after.trim_start();
        if after.starts_with('(')
            && let Some((_, r)) = after.split_once(')')
        {
            after = r.trim_start();
        }
        let Some((binary, name)) = after.split_once(' ') else {
            continue;
        };
        let id = format!("{binary} {}", name.trim());
        if !t.failing.iter().any(|f| f.id == id) {
            t.failing.push(FailingTest {
                id,
                file: locate(binary),
            });
        }
    }
    t
}

/// Parses merged `cargo test` output.
pub fn parse_cargo(text: &str) -> TestOutcome {
    let mut t = TestOutcome::default();
    let mut current_file: Option<String> = None;
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("Running ") {
            // "Running unittests src/lib.rs (target/...)" or "Running tests/x.rs (target/...)"
            let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
            current_file = rest.split(" (").next().map(|s| s.trim().to_string());
            continue;
        }
        if l.starts_with("Doc-tests ") {
            current_file = None;
            continue;
        }
        if let Some(name) = l
            .strip_prefix("test ")
            .and_then(|r| r.strip_suffix(" ... FAILED"))
        {
            t.failing.push(FailingTest {
                id: name.trim().to_string(),
                file: current_file.clone(),
            });
            continue;
        }
        if let Some(rest) = l.strip_prefix("test result: ") {
            t.ran = true;
            t.passed += count_before(rest, " passed");
            t.failed += count_before(rest, " failed");
        }
    }
    t
}

fn count_before(s: &str, word: &str) -> u32 {
    s.find(word)
        .and_then(|i| {
            s[..i]
                .rsplit(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn python_has_pytest(root: &Path) -> bool {
    process::run(
        "python3",
        &["-c", "import pytest"],
        root,
        &[],
        Duration::from_secs(30),
    )
    .success()
}

fn run_python(files: &RepoFiles, timeout: Duration) -> TestOutcome {
    if !process::on_path("python3") {
        return TestOutcome::not_run(&missing("python3", "install Python 3"));
    }
    let root = files.root.as_path();
    let env = [("PYTHONDONTWRITEBYTECODE", "1"), ("PYTHONUNBUFFERED", "1")];
    if python_has_pytest(root) {
        let out = process::run(
            "python3",
            &[
                "-m",
                "pytest",
                "-q",
                "-rfE",
                "--color=no",
                "-p",
                "no:cacheprovider",
            ],
            root,
            &env,
            timeout,
        );
        if out.timed_out {
            return timed_out("pytest", &out);
        }
        let mut t = parse_pytest(&out.stdout);
        t.log = log_tail(&out.stdout);
        // Exit 5: no tests collected.
        if out.code == Some(5) {
            t.details.push("pytest: no tests collected".into());
        } else if !t.ran && !out.success() {
            t.broken = true;
            t.details
                .push(format!("pytest: did not run: {}", tail(&out.combined(), 4)));
        }
        t.details.push("runner: pytest".into());
        return t;
    }
    let out = process::run(
        "python3",
        &["-m", "unittest", "discover", "-v"],
        root,
        &env,
        timeout,
    );
    if out.timed_out {
        return timed_out("unittest", &out);
    }
    let mut t = parse_unittest(&out.stderr);
    t.log = log_tail(&out.stderr);
    if !t.ran && !out.success() {
        t.broken = true;
        t.details
            .push(format!("unittest: did not run: {}", tail(&out.stderr, 4)));
    }
    t.details
        .push("runner: python -m unittest (pytest not installed)".into());
    t
}

/// Parses `pytest -q -rfE` output.
pub fn parse_pytest(text: &str) -> TestOutcome {
    let mut t = TestOutcome::default();
    for line in text.lines() {
        let l = line.trim();
        for prefix in ["FAILED ", "ERROR "] {
            if let Some(rest) = l.strip_prefix(prefix) {
                let id = rest.split(" - ").next().unwrap_or(rest).trim().to_string();
                let file = id
                    .split("::")
                    .next()
                    .map(str::to_string)
                    .filter(|f| f.ends_with(".py"));
                t.failing.push(FailingTest { id, file });
            }
        }
        // Summary: "1 failed, 2 passed in 0.03s" (maybe wrapped in ====).
        let s = l.trim_matches('=').trim();
        if (s.contains(" passed") || s.contains(" failed") || s.contains(" error"))
            && s.contains(" in ")
            && s.chars().next().is_some_and(|c| c.is_ascii_digit())
        {
            t.ran = true;
            t.passed += count_before(s, " passed");
            t.failed += count_before(s, " failed") + count_before(s, " error");
        }
    }
    t
}

/// Parses `python -m unittest discover -v` output (stderr).
pub fn parse_unittest(text: &str) -> TestOutcome {
    let mut t = TestOutcome::default();
    let mut total = None;
    for line in text.lines() {
        let l = line.trim();
        // "test_sub (tests.test_ops.OpsTest.test_sub) ... FAIL" (3.11) or
        // "test_sub (tests.test_ops.OpsTest) ... ERROR" (older).
        let status = [" ... FAIL", " ... ERROR"]
            .iter()
            .find_map(|s| l.strip_suffix(s));
        if let Some(head) = status
            && let Some((name, rest)) = head.split_once(" (")
        {
            let qual = rest.trim_end_matches(')');
            let id = if qual.ends_with(&format!(".{name}")) {
                qual.to_string()
            } else {
                format!("{qual}.{name}")
            };
            // module path: everything before the class (first capitalised segment).
            let parts: Vec<&str> = qual.split('.').collect();
            let module: Vec<&str> = parts
                .iter()
                .take_while(|p| !p.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                .copied()
                .collect();
            let file = (!module.is_empty()).then(|| format!("{}.py", module.join("/")));
            t.failing.push(FailingTest { id, file });
        }
        if let Some(rest) = l.strip_prefix("Ran ") {
            total = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u32>().ok());
        }
    }
    if let Some(n) = total {
        t.ran = n > 0;
        t.failed = t.failing.len() as u32;
        t.passed = n.saturating_sub(t.failed);
    }
    t
}

fn run_go(files: &RepoFiles, timeout: Duration) -> TestOutcome {
    if !process::on_path("go") {
        return TestOutcome::not_run(&missing(
            "go",
            "install Go (e.g. apt-get install golang-go) to run the Go tests",
        ));
    }
    let out = process::run(
        "go",
        &["test", "-json", "./..."],
        &files.root,
        &[("GOFLAGS", "-mod=mod")],
        timeout,
    );
    if out.timed_out {
        return timed_out("go test", &out);
    }
    let module = files
        .read("go.mod")
        .and_then(|m| slopguard_fingerprint::go_module_path(&m))
        .unwrap_or_default();
    let mut t = parse_go_json(&out.stdout, |pkg, test| {
        go_test_file(files, &module, pkg, test)
    });
    t.log = log_tail(&go_json_output(&out.stdout));
    if !t.ran && !out.success() {
        t.broken = true;
        t.details.push(format!(
            "go test: did not run: {}",
            tail(&out.combined(), 4)
        ));
    }
    t
}

/// The text `go test -json` printed: the `Output` fields of its events, in order.
pub fn go_json_output(json_lines: &str) -> String {
    let mut out = String::new();
    for line in json_lines.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => {
                if let Some(o) = v.get("Output").and_then(Value::as_str) {
                    out.push_str(o);
                }
            }
            Err(_) => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Finds the `_test.go` file of `pkg` that defines `func <test>(`.
fn go_test_file(files: &RepoFiles, module: &str, pkg: &str, test: &str) -> Option<String> {
    let dir = pkg
        .strip_prefix(module)
        .map(|d| d.trim_start_matches('/').to_string())
        .unwrap_or_default();
    let top = test.split('/').next().unwrap_or(test);
    let needle = format!("func {top}(");
    files
        .files
        .iter()
        .filter(|f| {
            f.ends_with("_test.go")
                && match f.rsplit_once('/') {
                    Some((d, _)) => d == dir,
                    None => dir.is_empty(),
                }
        })
        .find(|f| files.read(f).is_some_and(|s| s.contains(&needle)))
        .cloned()
}

/// Parses `go test -json` events; `locate(package, test)` finds the test file.
pub fn parse_go_json(text: &str, locate: impl Fn(&str, &str) -> Option<String>) -> TestOutcome {
    let mut t = TestOutcome::default();
    for line in text.lines() {
        let Ok(ev) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let action = ev.get("Action").and_then(Value::as_str).unwrap_or("");
        let pkg = ev.get("Package").and_then(Value::as_str).unwrap_or("");
        match (action, ev.get("Test").and_then(Value::as_str)) {
            ("pass", Some(_)) => {
                t.ran = true;
                t.passed += 1;
            }
            ("fail", Some(test)) => {
                t.ran = true;
                t.failed += 1;
                t.failing.push(FailingTest {
                    id: format!("{pkg}::{test}"),
                    file: locate(pkg, test),
                });
            }
            // Package-level failure not explained by a failing test: a build failure.
            ("fail", None)
                if !pkg.is_empty()
                    && !t
                        .failing
                        .iter()
                        .any(|f| f.id.starts_with(&format!("{pkg}::"))) =>
            {
                t.broken = true;
                t.details
                    .push(format!("go test: package {pkg} failed to build or run"));
            }
            _ => {}
        }
    }
    t
}

fn run_node(files: &RepoFiles, timeout: Duration) -> TestOutcome {
    if !process::on_path("node") {
        return TestOutcome::not_run(&missing("node", "install Node.js"));
    }
    let pkg: Value = files
        .read("package.json")
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null);
    let script = pkg
        .pointer("/scripts/test")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string();
    if script.is_empty() || script.contains("no test specified") {
        return TestOutcome::not_run("package.json has no test script");
    }
    let has_deps = ["dependencies", "devDependencies"].iter().any(|k| {
        pkg.get(k)
            .and_then(Value::as_object)
            .is_some_and(|m| !m.is_empty())
    });
    if has_deps && !files.root.join("node_modules").exists() {
        return TestOutcome::not_run("node_modules missing: run npm install (tests not run)");
    }
    let root = files.root.as_path();
    let out = if let Some(rest) = script.strip_prefix("node --test") {
        let extra: Vec<&str> = rest.split_whitespace().collect();
        let mut args = vec!["--test", "--test-reporter=tap"];
        args.extend(extra);
        process::run("node", &args, root, &[("CI", "1")], timeout)
    } else if process::on_path("npm") {
        process::run("npm", &["test", "--silent"], root, &[("CI", "1")], timeout)
    } else {
        return TestOutcome::not_run(&missing("npm", "install npm"));
    };
    if out.timed_out {
        return timed_out("node tests", &out);
    }
    let root_str = root.display().to_string();
    let mut t = parse_tap(&out.stdout, &root_str);
    if !t.ran {
        let j = parse_jest_summary(&out.combined());
        if j.ran {
            t = j;
        }
    }
    t.log = log_tail(&out.combined());
    if !t.ran && !out.success() {
        t.broken = true;
        t.details.push(format!(
            "npm test: did not run: {}",
            tail(&out.combined(), 4)
        ));
    }
    t
}

/// Parses TAP (node's test runner): leaf `not ok` entries are failures; `# pass` / `# fail`
/// give the counts. `root` is stripped from `location:` paths.
pub fn parse_tap(text: &str, root: &str) -> TestOutcome {
    let mut t = TestOutcome::default();
    let mut pending: Option<String> = None;
    let mut pending_file: Option<String> = None;
    let mut pending_leaf = true;
    let flush = |t: &mut TestOutcome, name: Option<String>, file: Option<String>, leaf: bool| {
        if let Some(n) = name
            && leaf
        {
            t.failing.push(FailingTest { id: n, file });
        }
    };
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("not ok ") {
            flush(&mut t, pending.take(), pending_file.take(), pending_leaf);
            let name = rest
                .split_once(" - ")
                .map(|(_, n)| n)
                .unwrap_or(rest)
                .split(" # ")
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            pending = Some(name);
            pending_leaf = true;
            continue;
        }
        if l.starts_with("ok ") {
            flush(&mut t, pending.take(), pending_file.take(), pending_leaf);
            continue;
        }
        if pending.is_some() {
            if let Some(loc) = l.strip_prefix("location: ") {
                let loc = loc.trim_matches(|c| c == '\'' || c == '"');
                let path = loc.split(':').next().unwrap_or(loc);
                let rel = path
                    .strip_prefix(root)
                    .map(|p| p.trim_start_matches('/'))
                    .unwrap_or(path);
                pending_file = Some(rel.to_string());
            }
            if l.starts_with("failureType:") && l.contains("subtestsFailed") {
                pending_leaf = false;
            }
        }
        if let Some(n) = l.strip_prefix("# pass ") {
            t.ran = true;
            t.passed += n.trim().parse::<u32>().unwrap_or(0);
        }
        if let Some(n) = l.strip_prefix("# fail ") {
            t.ran = true;
            t.failed += n.trim().parse::<u32>().unwrap_or(0);
        }
    }
    flush(&mut t, pending.take(), pending_file.take(), pending_leaf);
    t
}

/// Parses a Jest summary line (`Tests: 1 failed, 2 passed, 3 total`) or a Vitest one
/// (`Tests  1 failed | 2 passed (3)`), and the `✕` / `×` lines of failed tests.
pub fn parse_jest_summary(text: &str) -> TestOutcome {
    let mut t = TestOutcome::default();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l
            .strip_prefix("Tests:")
            .or_else(|| l.strip_prefix("Tests "))
        {
            t.ran = true;
            t.passed += count_before(rest, " passed");
            t.failed += count_before(rest, " failed");
        }
        if let Some(name) = l.strip_prefix("✕ ").or_else(|| l.strip_prefix("× ")) {
            // Jest appends the duration in brackets (`(3 ms)`), Vitest bare (`3ms`): an id
            // must not change from run to run.
            let name = name.rsplit_once(" (").map(|(n, _)| n).unwrap_or(name);
            let name = match name.trim().rsplit_once(' ') {
                Some((n, last)) if is_duration(last) => n,
                _ => name,
            };
            t.failing.push(FailingTest {
                id: name.trim().to_string(),
                file: None,
            });
        }
    }
    t
}

/// `3ms`, `1.2s`: a test runner's timing.
fn is_duration(word: &str) -> bool {
    let digits = word
        .strip_suffix("ms")
        .or_else(|| word.strip_suffix('s'))
        .unwrap_or_default();
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nextest_output_with_files() {
        // Real output of `cargo nextest run` (0.9) with the flags run_nextest passes.
        let text = "\
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.00s
────────────
 Nextest run ID 9954d4f8-a9e5-48d2-9ba3-f14985683192 with nextest profile: default
    Starting 5 tests across 2 binaries
        FAIL [   0.089s] (4/5) sample-calc unit::unit_fails
        FAIL [   0.079s] (5/5) sample-calc::ops_test sub_subtracts
     TIMEOUT [  60.002s] (6/7) sample-calc::slow never_ends
────────────
     Summary [   0.095s] 7 tests run: 4 passed, 2 failed, 1 timed out, 0 skipped
        FAIL [   0.089s] (4/5) sample-calc unit::unit_fails
        FAIL [   0.079s] (5/5) sample-calc::ops_test sub_subtracts
     TIMEOUT [  60.002s] (6/7) sample-calc::slow never_ends
error: test run failed";
        let t = parse_nextest(text, |b| match b {
            "sample-calc::ops_test" => Some("tests/ops_test.rs".to_string()),
            _ => None,
        });
        assert!(t.ran);
        assert_eq!((t.passed, t.failed), (4, 3));
        let ids: Vec<(&str, Option<&str>)> = t
            .failing
            .iter()
            .map(|f| (f.id.as_str(), f.file.as_deref()))
            .collect();
        assert_eq!(
            ids,
            [
                ("sample-calc unit::unit_fails", None),
                (
                    "sample-calc::ops_test sub_subtracts",
                    Some("tests/ops_test.rs")
                ),
                ("sample-calc::slow never_ends", None),
            ]
        );
        // A build failure prints no summary: nothing ran.
        assert!(!parse_nextest("error[E0425]: cannot find value `x`", |_| None).ran);
    }

    #[test]
    fn cargo_output_with_files() {
        let text = "\
   Compiling sample-calc v0.1.0
     Running unittests src/lib.rs (target/debug/deps/sample_calc-1)
running 0 tests
test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
     Running tests/ops_test.rs (target/debug/deps/ops_test-2)
running 3 tests
test add_adds ... ok
test sub_subtracts ... FAILED
test mul_multiplies ... ok
test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
   Doc-tests sample_calc
test result: ok. 0 passed; 0 failed;";
        let t = parse_cargo(text);
        assert!(t.ran);
        assert_eq!((t.passed, t.failed), (2, 1));
        assert_eq!(
            t.failing,
            vec![FailingTest {
                id: "sub_subtracts".into(),
                file: Some("tests/ops_test.rs".into())
            }]
        );
    }

    #[test]
    fn pytest_output() {
        let text = "\
..F                                                                      [100%]
=========================== short test summary info ============================
FAILED tests/test_ops.py::OpsTest::test_sub - AssertionError: 8 != 2
ERROR tests/test_db.py::test_conn - fixture missing
1 failed, 2 passed, 1 error in 0.05s";
        let t = parse_pytest(text);
        assert!(t.ran);
        assert_eq!((t.passed, t.failed), (2, 2));
        assert_eq!(t.failing[0].id, "tests/test_ops.py::OpsTest::test_sub");
        assert_eq!(t.failing[0].file.as_deref(), Some("tests/test_ops.py"));
        assert_eq!(t.failing[1].id, "tests/test_db.py::test_conn");
    }

    #[test]
    fn unittest_output_new_and_old_formats() {
        let text = "\
test_add (tests.test_ops.OpsTest.test_add) ... ok
test_sub (tests.test_ops.OpsTest.test_sub) ... FAIL
test_div (pkg.test_math.MathTest) ... ERROR
----------------------------------------------------------------------
Ran 3 tests in 0.001s

FAILED (failures=1, errors=1)";
        let t = parse_unittest(text);
        assert!(t.ran);
        assert_eq!((t.passed, t.failed), (1, 2));
        assert_eq!(t.failing[0].id, "tests.test_ops.OpsTest.test_sub");
        assert_eq!(t.failing[0].file.as_deref(), Some("tests/test_ops.py"));
        assert_eq!(t.failing[1].id, "pkg.test_math.MathTest.test_div");
        assert_eq!(t.failing[1].file.as_deref(), Some("pkg/test_math.py"));
    }

    #[test]
    fn go_json_events() {
        let text = r#"{"Action":"run","Package":"example.com/calc","Test":"TestAdd"}
{"Action":"pass","Package":"example.com/calc","Test":"TestAdd"}
{"Action":"fail","Package":"example.com/calc","Test":"TestSub"}
{"Action":"fail","Package":"example.com/calc"}
not json"#;
        let t = parse_go_json(text, |_, test| Some(format!("calc_test.go#{test}")));
        assert_eq!((t.passed, t.failed), (1, 1));
        assert_eq!(t.failing[0].id, "example.com/calc::TestSub");
        assert_eq!(t.failing[0].file.as_deref(), Some("calc_test.go#TestSub"));
        assert!(!t.broken, "package fail explained by its failing test");
        let broken = parse_go_json(r#"{"Action":"fail","Package":"x/y"}"#, |_, _| None);
        assert!(broken.broken && !broken.ran);
    }

    #[test]
    fn tap_leaf_failures_only() {
        let text = "\
TAP version 13
# Subtest: suite
    # Subtest: inner
    not ok 1 - inner
      ---
      location: '/repo/test/a.test.js:3:1'
      failureType: 'testCodeFailure'
      ...
not ok 1 - suite
  ---
  location: '/repo/test/a.test.js:1:1'
  failureType: 'subtestsFailed'
  ...
ok 2 - other
# pass 1
# fail 1";
        let t = parse_tap(text, "/repo");
        assert_eq!((t.passed, t.failed), (1, 1));
        assert_eq!(
            t.failing,
            vec![FailingTest {
                id: "inner".into(),
                file: Some("test/a.test.js".into())
            }]
        );
    }

    #[test]
    fn jest_summary() {
        let t = parse_jest_summary(
            "  ✕ sub subtracts (3 ms)\nTests:       1 failed, 2 passed, 3 total",
        );
        assert_eq!((t.passed, t.failed), (2, 1));
        assert_eq!(t.failing[0].id, "sub subtracts");
    }

    #[test]
    fn vitest_summary() {
        // Vitest 3's default reporter.
        let text = " ❯ test/ops.test.ts (3 tests | 1 failed) 4ms
   × ops > sub subtracts 3ms
     → expected 8 to be 2 // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  17:30:01
   Duration  312ms";
        let t = parse_jest_summary(text);
        assert!(t.ran);
        assert_eq!((t.passed, t.failed), (2, 1));
        assert_eq!(t.failing.len(), 1);
        assert!(
            t.failing[0].id.starts_with("ops > sub subtracts"),
            "{:?}",
            t.failing
        );
    }

    #[test]
    fn outcome_metric_verdicts() {
        assert_eq!(
            TestOutcome::not_run("x").to_metric().status,
            Status::Unknown
        );
        let ok = TestOutcome {
            ran: true,
            passed: 3,
            ..TestOutcome::default()
        };
        assert_eq!(ok.to_metric().status, Status::Pass);
        let bad = TestOutcome {
            ran: true,
            passed: 9,
            failed: 1,
            ..TestOutcome::default()
        };
        let m = bad.to_metric();
        assert_eq!(m.status, Status::Fail);
        assert!(m.score.unwrap() < 0.5);
    }
}
