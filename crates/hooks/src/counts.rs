//! Test counts and test names read from a command's output, when the output is
//! recognisable: every ecosystem's runners that `slopguard_toolchain` knows (cargo test and
//! nextest, pytest and unittest, go test, Jest, Vitest, node's test runner, Minitest, RSpec)
//! and the plain `N passed, N failed` line. The parsers are the toolchain crate's, the same
//! ones `slopguard run` reads its own test runs with.

/// Counts read from one command's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct TestCounts {
    /// Tests that passed.
    pub passed: u64,
    /// Tests (or packages, for go test without `-v`) that failed, errors included.
    pub failed: u64,
    /// Tests skipped or ignored.
    pub skipped: u64,
}

impl TestCounts {
    /// Tests that ran (passed + failed). Zero means nothing was tested: not evidence.
    pub fn ran(&self) -> u64 {
        self.passed + self.failed
    }
}

/// What the output says, when anything.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct TestReport {
    /// Summed counts, when a summary line was recognised.
    pub counts: Option<TestCounts>,
    /// Names of tests reported as passing (libtest, pytest `-v`, go test `-v`, Minitest `-v`).
    pub passed: Vec<String>,
    /// Names of tests reported as failing.
    pub failed: Vec<String>,
}

/// Most names kept per list, so a huge suite does not bloat the session state.
pub const MAX_NAMES: usize = slopguard_toolchain::MAX_NAMES;

/// Reads counts and test names from output text.
pub fn read(output: &str) -> TestReport {
    let Some(run) = slopguard_toolchain::read_test_output(output) else {
        return TestReport::default();
    };
    TestReport {
        counts: run.ran.then(|| TestCounts {
            passed: run.passed.into(),
            failed: run.failed.into(),
            skipped: run.skipped.into(),
        }),
        passed: run.passing,
        failed: run
            .failing
            .into_iter()
            .map(|f| f.id)
            .take(MAX_NAMES)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(passed: u64, failed: u64, skipped: u64) -> Option<TestCounts> {
        Some(TestCounts {
            passed,
            failed,
            skipped,
        })
    }

    #[test]
    fn cargo_libtest_sums_binaries_and_names() {
        let out = "running 2 tests\ntest a::one ... ok\ntest a::two ... FAILED\n\n\
                   test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
                   running 3 tests\ntest result: ok. 3 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out\n";
        let r = read(out);
        assert_eq!(r.counts, c(4, 1, 2));
        assert_eq!(r.passed, vec!["a::one"]);
        assert_eq!(r.failed, vec!["a::two"]);
    }

    #[test]
    fn cargo_zero_tests_is_zero() {
        let r = read(
            "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
        );
        assert_eq!(r.counts.map(|c| c.ran()), Some(0));
    }

    #[test]
    fn nextest_summary() {
        let r = read(
            "        PASS [   0.004s] my-crate tests::alpha\n     Summary [   0.123s] 12 tests run: 10 passed, 2 failed, 1 skipped\n",
        );
        assert_eq!(r.counts, c(10, 2, 1));
        assert_eq!(r.passed, vec!["tests::alpha"]);
    }

    #[test]
    fn pytest_summaries() {
        assert_eq!(
            read("===== 3 passed, 1 failed, 2 skipped in 0.12s =====").counts,
            c(3, 1, 2)
        );
        assert_eq!(read("5 passed, 1 warning in 0.10s").counts, c(5, 0, 0));
        assert_eq!(
            read("==== 1 failed, 2 errors in 1.2s ====").counts,
            c(0, 3, 0)
        );
        assert_eq!(
            read("============ no tests ran in 0.01s ============").counts,
            c(0, 0, 0)
        );
        let r = read(
            "tests/test_p.py::test_empty PASSED  [ 50%]\nFAILED tests/test_p.py::test_big - assert 1 == 2\n1 passed, 1 failed in 0.03s",
        );
        assert_eq!(r.passed, vec!["tests/test_p.py::test_empty"]);
        assert_eq!(r.failed, vec!["tests/test_p.py::test_big"]);
        assert_eq!(r.counts, c(1, 1, 0));
    }

    #[test]
    fn go_test_packages_and_verbose() {
        let r = read(
            "ok  \texample.com/a\t0.01s\n?   \texample.com/b\t[no test files]\nFAIL\texample.com/c\t0.02s\nFAIL\n",
        );
        assert_eq!(r.counts, c(1, 1, 0));
        let r = read(
            "=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\texample.com/a\t0.01s\n",
        );
        assert_eq!(r.counts, c(1, 1, 0));
        assert_eq!(r.passed, vec!["TestA"]);
        assert_eq!(r.failed, vec!["TestB"]);
        assert_eq!(
            read("ok  \texample.com/a\t0.01s [no tests to run]\n").counts,
            c(0, 0, 0)
        );
    }

    #[test]
    fn jest_and_vitest() {
        assert_eq!(
            read("Tests:       1 failed, 5 passed, 6 total").counts,
            c(5, 1, 0)
        );
        assert_eq!(read("Tests:       5 passed, 5 total").counts, c(5, 0, 0));
        assert_eq!(
            read(" \u{1b}[2m     Tests \u{1b}[22m 1 failed | 4 passed (5)").counts,
            c(4, 1, 0)
        );
        assert_eq!(read("      Tests  4 passed (4)").counts, c(4, 0, 0));
        assert_eq!(read("No tests found, exiting with code 1").counts, None);
    }

    #[test]
    fn node_test_runner() {
        assert_eq!(
            read("# tests 3\n# pass 3\n# fail 0\n# skipped 0\n").counts,
            c(3, 0, 0)
        );
        assert_eq!(read("ℹ tests 2\nℹ pass 1\nℹ fail 1\n").counts, c(1, 1, 0));
    }

    #[test]
    fn plain_line_and_unrecognised() {
        assert_eq!(
            read("unit: 12 passed, 0 failed, 1 skipped").counts,
            c(12, 0, 1)
        );
        assert_eq!(read("12 passed, 3 failed").counts, c(12, 3, 0));
        assert_eq!(read("Compiling foo\nFinished dev profile\n").counts, None);
        assert_eq!(read("we passed the test").counts, None);
    }

    #[test]
    fn unittest_and_minitest() {
        let unittest = "test_a (t.T.test_a) ... ok\ntest_b (t.T.test_b) ... FAIL\n\nRan 2 tests in 0.001s\n\nFAILED (failures=1)";
        assert_eq!(read(unittest).counts, c(1, 1, 0));
        let minitest =
            "CalcTest#test_add = 0.00 s = .\n\n3 runs, 3 assertions, 1 failures, 0 errors, 1 skips";
        let r = read(minitest);
        assert_eq!(r.counts, c(1, 1, 1));
        assert_eq!(r.passed, vec!["CalcTest#test_add"]);
    }
}
