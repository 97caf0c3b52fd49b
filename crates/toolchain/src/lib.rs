//! The project toolchains slopguard runs and reads.
//!
//! One module per ecosystem in [`ecosystems`] (Rust with cargo or cargo-nextest, Python with
//! pytest or unittest, Go, Node with `node --test`, npm test, Jest or Vitest, Ruby with
//! Minitest or RSpec), each implementing [`Ecosystem`]: detection, the build check, the test
//! command and the parse of its output into one [`TestRun`], the test-file predicate, the
//! test-to-source map, the runner commands a shell line may hold, and its dependency hygiene.
//! [`ECOSYSTEMS`] is the registry: adding an ecosystem is one module plus one line there.
//!
//! Everything above reads from here: the analysis (build and test metrics, dependencies), the
//! run's dynamic gates (build, test regression), the planner's test map, the hooks' validation
//! detector and test counts, and the guards' test-file predicate. Commands run through
//! [`process::run`]: a timeout, and the whole process group killed on it.
//!
//! Test runs have two limits, [`TestLimits`]: the suite's and each test's. A test that runs
//! past its limit (an infinite loop is a common bug) is a hang: it is cut on its own where the
//! runner allows it and reported as a failing test whose message says "timed out", the other
//! tests' results kept ([`run_tests_limited`]; each ecosystem's module says how its runner
//! does it). A suite killed at its own limit keeps the results its output printed so far and
//! names the test it was in when the output shows it ([`cut_at_timeout`]).

mod coverage;
pub mod ecosystems;
mod files;
pub mod process;
mod test_run;

use std::collections::BTreeSet;
use std::time::Duration;

pub(crate) use coverage::ScratchDir;
pub use coverage::{Spectrum, TestCoverage, ochiai, read_go_profile};
pub use ecosystems::ECOSYSTEMS;
pub use files::{FileView, MemoryView, RepoFiles, extension, file_name, join, parent};
pub use test_run::{
    FailingTest, MAX_LOG_BYTES, MAX_NAMES, TestRun, comma_counts, first_word, log_tail,
    minitest_spec_description, numbers_before, plain_summary, strip_ansi, tail, test_function_name,
};

/// One ecosystem's toolchain knowledge. Implementations are unit structs registered in
/// [`ECOSYSTEMS`].
pub trait Ecosystem: Sync {
    /// Short name: `rust`, `python`, `go`, `node`, `ruby`.
    fn name(&self) -> &'static str;

    /// File extensions of the ecosystem's code (without the dot).
    fn extensions(&self) -> &'static [&'static str];

    /// The programs its build checks and tests need, for `slopguard doctor`.
    fn tools(&self) -> &'static [Tool];

    /// Whether the repository is a project of this ecosystem (its manifest at the root, or its
    /// code near the top).
    fn detect(&self, files: &RepoFiles) -> bool;

    /// The stack tag the repository brief shows (`rust/cargo`, `python/pyproject`).
    fn stack_tag(&self, files: &RepoFiles) -> String;

    /// The commands the repository brief names: how the project is built and tested.
    fn commands(&self, files: &RepoFiles) -> Commands;

    /// Checks that the project builds (compiles, type-checks, parses).
    fn build(&self, files: &RepoFiles, timeout: Duration) -> Build;

    /// Runs the tests within `limits` and reads their output, test files located where the
    /// output allows. A test past [`TestLimits::per_test`] is cut where the runner allows it
    /// and reported failing with "timed out" in its message; a suite killed at
    /// [`TestLimits::suite`] keeps the results its partial output shows (see
    /// [`cut_at_timeout`]).
    fn test(&self, files: &RepoFiles, limits: &TestLimits) -> TestRun;

    /// Reads whatever this ecosystem's runners print (pure: no files are read, so failing
    /// tests carry no file unless the output names it). The hooks read an agent's command
    /// output with it; [`Ecosystem::test`] uses it on its own runs.
    fn parse_output(&self, text: &str) -> TestRun;

    /// Runs the tests recording which lines of the project each one ran
    /// ([`coverage`](crate::coverage)), within `limits`; `None` when this ecosystem cannot
    /// record per-test coverage here, or the recording failed.
    fn coverage(&self, _files: &RepoFiles, _limits: &TestLimits) -> Option<Spectrum> {
        None
    }

    /// Whether `path` (with one of [`Ecosystem::extensions`]) is a test file.
    fn is_test_file(&self, path: &str) -> bool;

    /// The files a test file imports (they may include test files; [`sources_for_test`]
    /// filters those).
    fn imports_of_test(&self, view: &dyn FileView, test_file: &str, text: &str)
    -> BTreeSet<String>;

    /// The runner this simple command invokes, when it is one of this ecosystem's test or
    /// check commands (`words` are the command's words, wrappers already stripped).
    fn runner_command(&self, words: &[&str]) -> Option<RunnerCommand>;

    /// Build output and dependency directories a `.gitignore` should list.
    fn ignored_dirs(&self) -> &'static [&'static str];

    /// Dependency hygiene: manifests, lockfiles, pinned versions.
    fn dependency_checks(&self, files: &RepoFiles) -> Vec<Check>;
}

/// A program an ecosystem's checks need: how to ask its version and how to install it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    /// What users call it (`cargo`, `pytest`).
    pub name: &'static str,
    /// The program to run.
    pub program: &'static str,
    /// Arguments that print its version.
    pub version_args: &'static [&'static str],
    /// How to install it.
    pub install: &'static str,
    /// What happens without it.
    pub without: &'static str,
}

/// What happens without an ecosystem's build or test tool.
pub const UNKNOWN_WITHOUT_IT: &str = "build and tests of this stack are reported as unknown";

/// What the brief says about building and testing a project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commands {
    /// The build or check command.
    pub build: String,
    /// The test command.
    pub test: String,
}

/// The build check of one ecosystem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// What ran, as a user would type it (`cargo test --no-run`, `go build + go vet`).
    pub tool: String,
    /// How it went.
    pub result: BuildResult,
}

/// How a build check went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildResult {
    /// It builds.
    Passed,
    /// It does not: the output's last lines.
    Failed(String),
    /// It ran past the timeout (process group killed).
    TimedOut(Duration),
    /// The tool is not installed: how to install it.
    Missing(String),
    /// Nothing to check (no files of the kind), with the reason.
    NotApplicable(String),
}

impl Build {
    /// A build check named `tool` with `result`.
    pub fn new(tool: impl Into<String>, result: BuildResult) -> Self {
        Self {
            tool: tool.into(),
            result,
        }
    }

    /// Judges a finished command: passed, timed out or failed with the last 25 lines.
    pub fn judge(tool: impl Into<String>, out: &process::RunOutput) -> Self {
        let result = if out.timed_out {
            BuildResult::TimedOut(out.elapsed)
        } else if out.success() {
            BuildResult::Passed
        } else {
            BuildResult::Failed(tail(&out.combined(), 25, "\n"))
        };
        Self::new(tool, result)
    }
}

/// Whether a command validates by running tests or only by checking (build, lint, types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunnerKind {
    /// Runs tests.
    Test,
    /// Builds, type-checks or lints.
    Check,
}

/// A test or check runner found in a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerCommand {
    /// Test or check.
    pub kind: RunnerKind,
    /// The runner as users name it: `cargo test`, `pytest`, `go vet`.
    pub runner: String,
}

impl RunnerCommand {
    /// A test runner called `runner`.
    pub fn test(runner: impl Into<String>) -> Option<Self> {
        Some(Self {
            kind: RunnerKind::Test,
            runner: runner.into(),
        })
    }

    /// A check (build, lint, types) called `runner`.
    pub fn check(runner: impl Into<String>) -> Option<Self> {
        Some(Self {
            kind: RunnerKind::Check,
            runner: runner.into(),
        })
    }
}

/// One dependency-hygiene check: a score in 0..1 and what was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// 1.0 is good.
    pub score: f64,
    /// What was found, for humans.
    pub message: String,
}

impl Check {
    /// A check scoring `score` with `message`.
    pub fn new(score: f64, message: impl Into<String>) -> Self {
        Self {
            score,
            message: message.into(),
        }
    }
}

/// The ecosystems the repository is a project of, in registry order.
pub fn detect(files: &RepoFiles) -> Vec<&'static dyn Ecosystem> {
    ECOSYSTEMS
        .iter()
        .copied()
        .filter(|e| e.detect(files))
        .collect()
}

/// The registered ecosystem called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Ecosystem> {
    ECOSYSTEMS.iter().copied().find(|e| e.name() == name)
}

/// The ecosystem whose code has `path`'s extension.
pub fn for_path(path: &str) -> Option<&'static dyn Ecosystem> {
    let ext = extension(path);
    ECOSYSTEMS
        .iter()
        .copied()
        .find(|e| e.extensions().contains(&ext))
}

/// How long tests may run: the whole suite of one ecosystem, and each test on its own.
///
/// A test past `per_test` is a hang: it is cut on its own where the runner allows it (pytest,
/// unittest, Minitest: an alarm in the test's process; Go: `go test -timeout`; `node --test`:
/// `--test-timeout`; cargo: libtest's "has been running for over 60 seconds" warning, so never
/// sooner than 60 s) and reported as a failing test whose message says "timed out". The
/// suite limit stays the backstop for what a per-test cut cannot reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestLimits {
    /// The whole test command of one ecosystem; its process group is killed past it.
    pub suite: Duration,
    /// One test.
    pub per_test: Duration,
}

impl TestLimits {
    /// The per-test limit when nothing better is known: a minute.
    pub const DEFAULT_PER_TEST: Duration = Duration::from_secs(60);
    /// The default suite limit: ten minutes.
    pub const DEFAULT_SUITE: Duration = Duration::from_secs(600);
    /// The shortest per-test limit [`TestLimits::from_baseline`] sets.
    pub const MIN_PER_TEST: Duration = Duration::from_secs(10);
    /// The shortest suite limit [`TestLimits::from_baseline`] sets.
    pub const MIN_SUITE: Duration = Duration::from_secs(30);

    /// A suite limit with the default per-test limit (never longer than the suite's).
    pub fn with_suite(suite: Duration) -> Self {
        Self {
            suite,
            per_test: Self::DEFAULT_PER_TEST.min(suite),
        }
    }

    /// Limits derived from how long the whole suite took when it last passed (`baseline`, for
    /// example the analysis' test run), capped at `max_suite`:
    ///
    /// - per test: `5 x baseline + 10 s`, clamped to 10..=60 s (no test of a suite that ran in
    ///   `baseline` can legitimately take much longer than the whole suite did);
    /// - suite: `10 x baseline + 30 s`, at least 30 s and at most `max_suite`.
    ///
    /// A suite of 2 s gets 20 s per test and 50 s in all; one of 30 s gets 60 s and 330 s.
    pub fn from_baseline(baseline: Duration, max_suite: Duration) -> Self {
        let per_test = (baseline * 5 + Duration::from_secs(10))
            .clamp(Self::MIN_PER_TEST, Self::DEFAULT_PER_TEST);
        let suite = (baseline * 10 + Duration::from_secs(30))
            .max(Self::MIN_SUITE)
            .min(max_suite);
        Self {
            suite,
            per_test: per_test.min(suite),
        }
    }

    /// The per-test limit in whole seconds, at least 1.
    pub fn per_test_secs(&self) -> u64 {
        self.per_test.as_secs().max(1)
    }
}

impl Default for TestLimits {
    /// Ten minutes for the suite, a minute per test.
    fn default() -> Self {
        Self {
            suite: Self::DEFAULT_SUITE,
            per_test: Self::DEFAULT_PER_TEST,
        }
    }
}

/// Runs the tests of every ecosystem the repository is a project of, merged into one run: each
/// suite within `timeout`, each test within [`TestLimits::DEFAULT_PER_TEST`]. Same as
/// [`run_tests_limited`] with [`TestLimits::with_suite`].
pub fn run_tests(files: &RepoFiles, timeout: Duration) -> TestRun {
    run_tests_limited(files, &TestLimits::with_suite(timeout))
}

/// Runs the tests of every ecosystem the repository is a project of within `limits`, merged
/// into one run. A hanging test is a failing test whose message says "timed out" (the other
/// tests' results are kept); a suite cut at its limit says so in [`TestRun::details`].
pub fn run_tests_limited(files: &RepoFiles, limits: &TestLimits) -> TestRun {
    let started = std::time::Instant::now();
    let found = detect(files);
    let mut all = TestRun::default();
    for eco in &found {
        all.merge(eco.test(files, limits));
    }
    if found.is_empty() {
        all.details.push("no recognised test runner".into());
    }
    all.failing.sort();
    all.failing.dedup();
    all.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let cut = limits.per_test * u32::try_from(all.timed_out()).unwrap_or(u32::MAX);
    all.cut_ms = u64::try_from(cut.as_millis())
        .unwrap_or(u64::MAX)
        .min(all.elapsed_ms);
    all
}

/// The per-test coverage of every ecosystem of the repository that can record it, merged;
/// `None` when none could.
pub fn per_test_coverage(files: &RepoFiles, limits: &TestLimits) -> Option<Spectrum> {
    let mut all: Option<Spectrum> = None;
    for eco in detect(files) {
        if let Some(s) = eco.coverage(files, limits) {
            all.get_or_insert_with(Spectrum::default)
                .tests
                .extend(s.tests);
        }
    }
    all
}

/// Runs the build check of every ecosystem the repository is a project of.
pub fn run_builds(files: &RepoFiles, timeout: Duration) -> Vec<Build> {
    detect(files)
        .iter()
        .map(|eco| eco.build(files, timeout))
        .collect()
}

/// Reads test results from any runner's output (an agent's command, a CI log): every
/// ecosystem's parser, then the plain `N passed, N failed` line no runner owns. `None` when
/// nothing in the output is about tests.
pub fn read_test_output(output: &str) -> Option<TestRun> {
    let text = strip_ansi(output);
    let mut all = TestRun::default();
    let mut any = false;
    for eco in ECOSYSTEMS {
        let run = eco.parse_output(&text);
        if run.recognised() {
            any = true;
            all.merge(run);
        }
    }
    for line in text.lines() {
        if let Some((p, f, s)) = plain_summary(line.trim()) {
            any = true;
            all.ran = true;
            all.passed += p;
            all.failed += f;
            all.skipped += s;
        }
    }
    any.then_some(all)
}

/// Directory names that hold tests in every ecosystem.
const TEST_DIRS: &[&str] = &[
    "tests",
    "test",
    "__tests__",
    "spec",
    "specs",
    "testing",
    "e2e",
];

/// Whether `path` lies under a directory named like a test directory (`tests/`, `spec/`, ...).
pub fn in_test_dir(path: &str) -> bool {
    path.split('/')
        .rev()
        .skip(1)
        .any(|c| TEST_DIRS.contains(&c))
}

/// Code extensions of languages no registered ecosystem runs yet, whose tests are still
/// recognised by directory and name (`src/test/java/FooTest.java`, `tests/foo_test.c`).
const OTHER_CODE_EXTENSIONS: &[&str] = &[
    "java", "kt", "c", "h", "cc", "cpp", "hpp", "cs", "php", "swift", "sh",
];

/// Whether `path` is a test file: the predicate of the ecosystem owning its extension, or, for
/// other languages' code, a test directory or a `test_`/`_test`/`Test` name.
pub fn is_test_file(path: &str) -> bool {
    if let Some(eco) = for_path(path) {
        return eco.is_test_file(path);
    }
    let ext = extension(path);
    if !OTHER_CODE_EXTENSIONS.contains(&ext) {
        return false;
    }
    let name = file_name(path);
    let stem = name.strip_suffix(&format!(".{ext}")).unwrap_or(name);
    in_test_dir(path)
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
}

/// The source files `test_file` imports (existing, non-test files only), sorted.
pub fn sources_for_test(view: &dyn FileView, test_file: &str) -> Vec<String> {
    let Some(eco) = for_path(test_file) else {
        return Vec::new();
    };
    let Some(text) = view.read(test_file) else {
        return Vec::new();
    };
    eco.imports_of_test(view, test_file, &text)
        .into_iter()
        .filter(|p| p != test_file && !is_test_file(p))
        .collect()
}

/// The test or check runner a simple command invokes, when a registered ecosystem knows it.
pub fn runner_command(words: &[&str]) -> Option<RunnerCommand> {
    ECOSYSTEMS.iter().find_map(|e| e.runner_command(words))
}

/// The first non-option word of `words` from `start`, with its index: the subcommand of
/// `cargo +nightly -q test`, `npm --prefix x run test`. Options that take a value skip it.
pub fn subcommand<'a>(words: &[&'a str], start: usize) -> Option<(usize, &'a str)> {
    const WITH_VALUE: &[&str] = &[
        "-C",
        "--manifest-path",
        "--config",
        "-Z",
        "--prefix",
        "--cwd",
        "--dir",
        "-f",
        "--file",
        "--filter",
        "-F",
    ];
    let mut i = start;
    while i < words.len() {
        let a = words[i];
        if a.starts_with('+') || a.starts_with('-') {
            i += if WITH_VALUE.contains(&a) { 2 } else { 1 };
            continue;
        }
        return Some((i, a));
    }
    None
}

/// Words in a script or target name that make it a test (`test:unit`, `e2e`) or a check
/// (`lint`, `typecheck`, `build`).
pub fn script_kind(name: &str) -> Option<RunnerKind> {
    const CHECK_WORDS: &[&str] = &[
        "test",
        "tests",
        "check",
        "lint",
        "typecheck",
        "type-check",
        "tsc",
        "verify",
        "ci",
        "spec",
        "validate",
        "clippy",
        "vet",
    ];
    let lower = name.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split([':', '-', '_', '.']).collect();
    if parts
        .iter()
        .any(|p| matches!(*p, "test" | "tests" | "spec" | "e2e" | "unit"))
    {
        Some(RunnerKind::Test)
    } else if parts.iter().any(|p| CHECK_WORDS.contains(p)) || lower == "build" {
        Some(RunnerKind::Check)
    } else {
        None
    }
}

/// The base name of a command word (`/usr/bin/cargo` -> `cargo`).
pub fn command_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Tool missing: the message the build and test results carry.
pub fn missing(tool: &str, hint: &str) -> String {
    format!("{tool} not found: {hint}")
}

/// A test run killed at its suite limit (or stopped at a hanging test, see
/// [`process::RunOutput::stopped`]): `run` is what its partial output showed (the tests
/// that finished keep their verdicts), `hanging` the tests the output shows still running
/// (they become failing tests, counted once). `details` says the suite timed out and names
/// the hanging tests; the log keeps the partial `output`.
pub fn cut_at_timeout(
    tool: &str,
    out: &process::RunOutput,
    mut run: TestRun,
    hanging: Vec<FailingTest>,
    output: &str,
) -> TestRun {
    let mut names = Vec::new();
    for h in hanging {
        if !run.failing.iter().any(|f| f.id == h.id) {
            run.failed += 1;
            run.failing.push(h.clone());
        }
        run.passing.retain(|p| *p != h.id);
        names.push(h.id);
    }
    if !run.failing.is_empty() || !run.passing.is_empty() || run.passed + run.failed > 0 {
        run.ran = true;
    }
    let mut detail = if out.stopped {
        format!(
            "{tool}: stopped after {:.0} s at a test past the per-test limit (process group killed)",
            out.elapsed.as_secs_f64()
        )
    } else {
        format!(
            "{tool}: timed out after {:.0} s (process group killed)",
            out.elapsed.as_secs_f64()
        )
    };
    if names.is_empty() {
        detail.push_str("; the test that hangs is not named in the output");
    } else {
        detail.push_str(&format!("; the test that hangs: {}", names.join(", ")));
    }
    if run.ran {
        detail.push_str("; results printed before the cut are kept");
    }
    run.details.push(detail);
    run.log = log_tail(output);
    run
}

/// The detail of a test cut at the per-test limit: `<test> timed out after N s (slopguard
/// per-test limit)`.
pub fn per_test_timeout_message(test: &str, limits: &TestLimits) -> String {
    format!(
        "{test} timed out after {} s (slopguard per-test limit)",
        limits.per_test_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_of_every_ecosystem_and_others() {
        for p in [
            "tests/test_ops.py",
            "pkg/ops_test.py",
            "conftest.py",
            "tests/helpers.py",
            "calc_test.go",
            "tests/ops.rs",
            "src/a.test.ts",
            "__tests__/a.js",
            "test/cart.test.js",
            "test/calc_test.rb",
            "spec/calc_spec.rb",
            "src/test/java/FooTest.java",
            "lib/FooTest.java",
            "tests/unit/foo.c",
        ] {
            assert!(is_test_file(p), "{p}");
        }
        for p in [
            "src/ops.py",
            "tests/__init__.py",
            "calc.go",
            "src/lib.rs",
            "src/test_utils.md",
            "lib/calc.rb",
            "README.md",
            "src/Main.java",
        ] {
            assert!(!is_test_file(p), "{p}");
        }
    }

    #[test]
    fn limits_from_a_baseline() {
        let secs = Duration::from_secs;
        let max = secs(600);
        let quick = TestLimits::from_baseline(Duration::from_millis(500), max);
        assert_eq!(
            (quick.per_test, quick.suite),
            (Duration::from_millis(12_500), secs(35))
        );
        let two = TestLimits::from_baseline(secs(2), max);
        assert_eq!((two.per_test, two.suite), (secs(20), secs(50)));
        let slow = TestLimits::from_baseline(secs(30), max);
        assert_eq!((slow.per_test, slow.suite), (secs(60), secs(330)));
        let huge = TestLimits::from_baseline(secs(300), max);
        assert_eq!((huge.per_test, huge.suite), (secs(60), max));
        let zero = TestLimits::from_baseline(Duration::ZERO, max);
        assert_eq!((zero.per_test, zero.suite), (secs(10), secs(30)));
        assert_eq!(TestLimits::with_suite(secs(20)).per_test, secs(20));
        assert_eq!(TestLimits::default().per_test, TestLimits::DEFAULT_PER_TEST);
    }

    #[test]
    fn tests_cut_at_the_per_test_limit_are_counted() {
        let run = TestRun {
            failing: vec![
                FailingTest {
                    id: "tests/t.py::test_loop".into(),
                    file: None,
                },
                FailingTest {
                    id: "tests/t.py::test_sum".into(),
                    file: None,
                },
            ],
            log: "E   Failed: tests/t.py::test_loop timed out after 60 s (slopguard per-test \
                  limit)\nE   assert 3 == 4 in tests/t.py::test_sum"
                .into(),
            ..TestRun::default()
        };
        assert_eq!(run.timed_out(), 1);
    }

    #[test]
    fn a_cut_run_keeps_its_results_and_names_the_hang() {
        let out = process::RunOutput {
            code: None,
            stdout: String::new(),
            stderr: String::new(),
            timed_out: true,
            stopped: false,
            not_found: false,
            spawn_error: None,
            elapsed: Duration::from_secs(30),
        };
        let mut partial = TestRun::default();
        partial.push_passing("a");
        partial.passed = 1;
        let hang = FailingTest {
            id: "b".into(),
            file: Some("t.rb".into()),
        };
        let run = cut_at_timeout("minitest", &out, partial, vec![hang.clone()], "log");
        assert!(run.ran);
        assert_eq!((run.passed, run.failed), (1, 1));
        assert_eq!(run.failing, [hang]);
        assert_eq!(
            run.details,
            [
                "minitest: timed out after 30 s (process group killed); the test that hangs: b; \
              results printed before the cut are kept"
            ]
        );
        let nothing = cut_at_timeout("pytest", &out, TestRun::default(), Vec::new(), "");
        assert!(!nothing.ran && !nothing.broken);
        assert!(nothing.details[0].contains("not named"));
    }

    #[test]
    fn output_of_any_runner_is_read() {
        let cargo =
            "test a ... ok\ntest b ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 2 ignored";
        let r = read_test_output(cargo).unwrap();
        assert_eq!((r.passed, r.failed, r.skipped), (1, 1, 2));
        assert_eq!(r.passing, vec!["a"]);
        let plain = read_test_output("checks: 4 passed, 0 failed").unwrap();
        assert_eq!((plain.passed, plain.failed), (4, 0));
        assert!(read_test_output("Compiling foo\nFinished").is_none());
    }
}
