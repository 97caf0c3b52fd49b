//! A test that loops forever is a failing test, named, with "timed out" in the run: real runs
//! of small projects (pytest or unittest, Go, `node --test`, Minitest, cargo) with a short
//! per-test limit. Each is skipped with a NOTICE when its toolchain is not installed.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{has_pytest, write};
use slopguard_toolchain::{RepoFiles, TestLimits, TestRun, process, run_tests_limited};

/// The per-test limit the runs get.
const PER_TEST: Duration = Duration::from_secs(2);

/// The suite limit: far longer than a run with a working per-test cut takes.
const SUITE: Duration = Duration::from_secs(90);

/// Runs the project's tests with [`PER_TEST`], returning the run and how long it took.
fn run(root: &Path) -> (TestRun, Duration) {
    let limits = TestLimits {
        suite: SUITE,
        per_test: PER_TEST,
    };
    let start = Instant::now();
    let run = run_tests_limited(&RepoFiles::walk(root), &limits);
    (run, start.elapsed())
}

/// The failing test whose id contains `name`, with the file it names.
fn failing<'a>(run: &'a TestRun, name: &str) -> &'a slopguard_toolchain::FailingTest {
    run.failing
        .iter()
        .find(|f| f.id.contains(name))
        .unwrap_or_else(|| panic!("{name} is not failing: {run:#?}"))
}

fn says_timed_out(run: &TestRun) -> bool {
    run.log.contains("timed out") || run.details.iter().any(|d| d.contains("timed out"))
}

#[test]
fn pytest_cuts_the_hanging_test_and_keeps_the_others() {
    if !has_pytest("the pytest hang test") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("calc.py", "def add(a, b):\n    return a + b\n"),
            (
                "tests/test_calc.py",
                "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n\
                 def test_hangs():\n    while True:\n        pass\n\n\n\
                 def test_wrong():\n    assert add(2, 2) == 5\n\n\n\
                 def test_after():\n    assert add(1, 1) == 2\n",
            ),
        ],
    );
    let (run, took) = run(dir.path());
    assert!(took < Duration::from_secs(20), "took {took:?}: {run:#?}");
    assert!(run.ran, "{run:#?}");
    assert_eq!((run.passed, run.failed), (2, 2), "{run:#?}");
    let hang = failing(&run, "test_hangs");
    assert_eq!(hang.id, "tests/test_calc.py::test_hangs");
    assert_eq!(hang.file.as_deref(), Some("tests/test_calc.py"));
    failing(&run, "test_wrong");
    assert!(
        run.log
            .contains("tests/test_calc.py::test_hangs timed out after 2 s"),
        "{}",
        run.log
    );
}

/// A `unittest.TestCase` suite, run by whichever runner is installed (pytest when it is; the
/// unittest driver itself is checked in the crate's python module tests).
#[test]
fn unittest_case_cuts_the_hanging_test_and_keeps_the_others() {
    if !process::on_path("python3") {
        eprintln!("NOTICE: python3 not installed: the unittest hang test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("calc.py", "def add(a, b):\n    return a + b\n"),
            ("tests/__init__.py", ""),
            (
                "tests/test_calc.py",
                "import unittest\nfrom calc import add\n\n\nclass CalcTest(unittest.TestCase):\n    \
                 def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    \
                 def test_hangs(self):\n        while True:\n            pass\n\n    \
                 def test_wrong(self):\n        self.assertEqual(add(2, 2), 5)\n",
            ),
        ],
    );
    let (run, took) = run(dir.path());
    assert!(took < Duration::from_secs(20), "took {took:?}: {run:#?}");
    assert_eq!((run.passed, run.failed), (1, 2), "{run:#?}");
    let hang = failing(&run, "test_hangs");
    assert_eq!(hang.file.as_deref(), Some("tests/test_calc.py"), "{run:#?}");
    assert!(says_timed_out(&run), "{run:#?}");
}

#[test]
fn go_test_names_the_hanging_test() {
    if !process::on_path("go") {
        eprintln!("NOTICE: go not installed: the Go hang test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("go.mod", "module example.com/calc\n\ngo 1.19\n"),
            (
                "calc.go",
                "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
            ),
            (
                "calc_test.go",
                "package calc\n\nimport \"testing\"\n\n\
                 func TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\n\
                 func TestWrong(t *testing.T) {\n\tif Add(2, 2) != 5 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\n\
                 func TestHangs(t *testing.T) {\n\tfor {\n\t}\n}\n",
            ),
            (
                "other/other_test.go",
                "package other\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {}\n",
            ),
        ],
    );
    let (run, took) = run(dir.path());
    // Go's limit is per package binary: twice the per-test limit, plus the build.
    assert!(took < Duration::from_secs(45), "took {took:?}: {run:#?}");
    let hang = failing(&run, "TestHangs");
    assert_eq!(hang.id, "example.com/calc::TestHangs");
    assert_eq!(hang.file.as_deref(), Some("calc_test.go"));
    failing(&run, "TestWrong");
    assert!(run.passing.iter().any(|p| p == "TestAdd"), "{run:#?}");
    assert!(run.passing.iter().any(|p| p == "TestOther"), "{run:#?}");
    assert_eq!((run.passed, run.failed), (2, 2), "{run:#?}");
    assert!(!run.broken, "the package failed by its hang: {run:#?}");
    assert!(says_timed_out(&run), "{run:#?}");
}

#[test]
fn node_test_fails_the_hanging_file_and_keeps_the_others() {
    if !process::on_path("node") {
        eprintln!("NOTICE: node not installed: the Node hang test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "package.json",
                r#"{"name":"calc","version":"1.0.0","scripts":{"test":"node --test"}}"#,
            ),
            ("src/calc.js", "exports.add = (a, b) => a + b;\n"),
            (
                "test/hang.test.js",
                "const test = require('node:test');\n\
                 test('loops forever', () => { while (true) {} });\n",
            ),
            (
                "test/calc.test.js",
                "const test = require('node:test');\nconst assert = require('node:assert');\n\
                 const { add } = require('../src/calc');\n\
                 test('adds', () => { assert.strictEqual(add(2, 3), 5); });\n\
                 test('wrong', () => { assert.strictEqual(add(2, 2), 5); });\n",
            ),
        ],
    );
    let (run, took) = run(dir.path());
    assert!(took < Duration::from_secs(20), "took {took:?}: {run:#?}");
    if !run.log.contains("test timed out after") {
        eprintln!("NOTICE: this node has no --test-timeout: only the suite limit applies");
        return;
    }
    let hang = failing(&run, "hang.test.js");
    assert_eq!(hang.file.as_deref(), Some("test/hang.test.js"), "{run:#?}");
    failing(&run, "wrong");
    assert!(run.passing.is_empty() || !run.passing.iter().any(|p| p.contains("hang")));
    assert_eq!((run.passed, run.failed), (1, 2), "{run:#?}");
}

#[test]
fn minitest_cuts_the_hanging_test_and_keeps_the_others() {
    if !process::on_path("ruby") {
        eprintln!("NOTICE: ruby not installed: the Minitest hang test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("Gemfile", "source 'https://rubygems.org'\n"),
            (
                "lib/calc.rb",
                "module Calc\n  def self.add(a, b) = a + b\nend\n",
            ),
            (
                "test/calc_test.rb",
                "require 'minitest/autorun'\nrequire 'calc'\n\nclass CalcTest < Minitest::Test\n  \
                 def test_add\n    assert_equal 5, Calc.add(2, 3)\n  end\n\n  \
                 def test_hangs\n    loop {}\n  end\n\n  \
                 def test_wrong\n    assert_equal 5, Calc.add(2, 2)\n  end\nend\n",
            ),
        ],
    );
    let (run, took) = run(dir.path());
    assert!(took < Duration::from_secs(20), "took {took:?}: {run:#?}");
    assert_eq!((run.passed, run.failed), (1, 2), "{run:#?}");
    let hang = failing(&run, "CalcTest#test_hangs");
    assert_eq!(hang.file.as_deref(), Some("test/calc_test.rb"));
    assert!(
        run.log.contains("CalcTest#test_hangs timed out after 2 s"),
        "{}",
        run.log
    );
}

/// A suite limit shorter than the per-test one: the run is killed, the test that hangs is
/// still named from what the runner printed, and the finished tests keep their verdicts.
#[test]
fn minitest_killed_at_the_suite_limit_keeps_its_results() {
    if !process::on_path("ruby") {
        eprintln!("NOTICE: ruby not installed: the Minitest suite-limit test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("Gemfile", "source 'https://rubygems.org'\n"),
            (
                "test/calc_test.rb",
                "require 'minitest/autorun'\n\nclass CalcTest < Minitest::Test\n  \
                 i_suck_and_my_tests_are_order_dependent!\n  \
                 def test_a_add\n    assert_equal 5, 2 + 3\n  end\n\n  \
                 def test_b_hangs\n    loop {}\n  end\nend\n",
            ),
        ],
    );
    let limits = TestLimits {
        suite: Duration::from_secs(3),
        per_test: Duration::from_secs(60),
    };
    let start = Instant::now();
    let run = run_tests_limited(&RepoFiles::walk(dir.path()), &limits);
    assert!(start.elapsed() < Duration::from_secs(15), "{run:#?}");
    assert!(run.ran, "{run:#?}");
    assert_eq!(run.passing, ["CalcTest#test_a_add"], "{run:#?}");
    assert_eq!(run.failed, 1, "{run:#?}");
    assert_eq!(
        failing(&run, "test_b_hangs").file.as_deref(),
        Some("test/calc_test.rb")
    );
    assert!(
        run.details.iter().any(|d| d.contains("timed out after")
            && d.contains("the test that hangs: CalcTest#test_b_hangs")),
        "{run:#?}"
    );
}

/// The same for pytest: killed at the suite limit, the progress the plugin logged says which
/// test hung and which passed.
#[test]
fn pytest_killed_at_the_suite_limit_keeps_its_results() {
    if !process::on_path("python3") {
        eprintln!("NOTICE: python3 not installed: the Python suite-limit test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "tests/test_calc.py",
                "def test_a_add():\n    assert 2 + 3 == 5\n\n\n\
                 def test_b_hangs():\n    while True:\n        pass\n",
            ),
            ("tests/__init__.py", ""),
        ],
    );
    // The limit leaves a loaded machine time to start pytest and run the first test (4 s was
    // not enough at load average 8).
    let limits = TestLimits {
        suite: Duration::from_secs(12),
        per_test: Duration::from_secs(60),
    };
    let start = Instant::now();
    let run = run_tests_limited(&RepoFiles::walk(dir.path()), &limits);
    assert!(start.elapsed() < Duration::from_secs(40), "{run:#?}");
    assert!(run.ran, "{run:#?}");
    assert_eq!((run.passed, run.failed), (1, 1), "{run:#?}");
    assert!(
        failing(&run, "test_b_hangs").file.as_deref().is_some(),
        "{run:#?}"
    );
    assert!(
        run.details
            .iter()
            .any(|d| d.contains("the test that hangs:")),
        "{run:#?}"
    );
}

/// cargo: libtest only warns about a test after 60 s; the run is stopped once the test binary
/// has been quiet for the per-test limit, and the test it was running is named from its list.
#[test]
fn cargo_test_cuts_the_hanging_test_and_keeps_the_others() {
    if !process::on_path("cargo") {
        eprintln!("NOTICE: cargo not installed: the cargo hang test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
            ),
            (
                "src/lib.rs",
                "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
            ),
            (
                "tests/calc.rs",
                "#[test]\nfn adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n\n\
                 #[test]\nfn wrong() {\n    assert_eq!(calc::add(2, 2), 5);\n}\n\n\
                 #[test]\n#[allow(clippy::empty_loop)]\nfn hangs() {\n    loop {}\n}\n",
            ),
        ],
    );
    let limits = TestLimits {
        suite: Duration::from_secs(300),
        per_test: PER_TEST,
    };
    let start = Instant::now();
    let run = run_tests_limited(&RepoFiles::walk(dir.path()), &limits);
    let took = start.elapsed();
    // The build of the small crate takes most of it; libtest's own warning would take 60 s.
    assert!(took < Duration::from_secs(55), "took {took:?}: {run:#?}");
    let hang = failing(&run, "hangs");
    assert_eq!(hang.id, "hangs");
    assert_eq!(hang.file.as_deref(), Some("tests/calc.rs"));
    failing(&run, "wrong");
    assert_eq!(run.passing, ["adds"], "{run:#?}");
    assert_eq!((run.passed, run.failed), (1, 2), "{run:#?}");
    assert!(says_timed_out(&run), "{run:#?}");
    assert_eq!(run.timed_out(), 1, "{run:#?}");
}
