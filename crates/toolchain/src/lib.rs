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

pub mod ecosystems;
mod files;
pub mod process;
mod test_run;

use std::collections::BTreeSet;
use std::time::Duration;

pub use ecosystems::ECOSYSTEMS;
pub use files::{FileView, MemoryView, RepoFiles, extension, file_name, join, parent};
pub use test_run::{
    FailingTest, MAX_LOG_BYTES, MAX_NAMES, TestRun, comma_counts, first_word, log_tail,
    numbers_before, plain_summary, strip_ansi, tail,
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

    /// Runs the tests and reads their output, test files located where the output allows.
    fn test(&self, files: &RepoFiles, timeout: Duration) -> TestRun;

    /// Reads whatever this ecosystem's runners print (pure: no files are read, so failing
    /// tests carry no file unless the output names it). The hooks read an agent's command
    /// output with it; [`Ecosystem::test`] uses it on its own runs.
    fn parse_output(&self, text: &str) -> TestRun;

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

/// Runs the tests of every ecosystem the repository is a project of, merged into one run.
pub fn run_tests(files: &RepoFiles, timeout: Duration) -> TestRun {
    let found = detect(files);
    let mut all = TestRun::default();
    for eco in &found {
        all.merge(eco.test(files, timeout));
    }
    if found.is_empty() {
        all.details.push("no recognised test runner".into());
    }
    all.failing.sort();
    all.failing.dedup();
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

/// A test run that timed out.
pub fn timed_out(tool: &str, out: &process::RunOutput) -> TestRun {
    TestRun::not_run(&format!(
        "{tool}: timed out after {:.0} s (process group killed)",
        out.elapsed.as_secs_f64()
    ))
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
