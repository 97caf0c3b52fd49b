//! Test counts and test names read from a test runner's output, when the output is
//! recognisable: cargo test (libtest), cargo nextest, pytest, go test, jest, vitest, node's test
//! runner, and the plain `N passed, N failed` line.

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
    /// Names of tests reported as passing (libtest, pytest `-v`, go test `-v`).
    pub passed: Vec<String>,
    /// Names of tests reported as failing.
    pub failed: Vec<String>,
}

/// Most names kept per list, so a huge suite does not bloat the session state.
pub const MAX_NAMES: usize = 2000;

/// Reads counts and test names from output text.
pub fn read(output: &str) -> TestReport {
    let mut counts: Option<TestCounts> = None;
    let mut add = |c: TestCounts| {
        let t = counts.get_or_insert_with(TestCounts::default);
        t.passed += c.passed;
        t.failed += c.failed;
        t.skipped += c.skipped;
    };
    let mut report = TestReport::default();
    let mut go_pkg = TestCounts::default();
    let mut go_pkg_seen = false;
    let mut go_verbose = TestCounts::default();
    let mut go_verbose_seen = false;
    let mut node = (None::<u64>, None::<u64>, None::<u64>);

    for raw in output.lines() {
        let line = strip_ansi(raw);
        let t = line.trim();
        // cargo test: `test result: ok. 5 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out`
        if let Some(rest) = t.strip_prefix("test result: ") {
            let n = numbers_before(rest, &["passed", "failed", "ignored"]);
            add(TestCounts {
                passed: n[0],
                failed: n[1],
                skipped: n[2],
            });
            continue;
        }
        // cargo test per-test lines: `test a::b ... ok` / `... FAILED` / `... ignored`
        if let Some(rest) = t.strip_prefix("test ")
            && let Some((name, verdict)) = rest.rsplit_once(" ... ")
        {
            match verdict.trim() {
                "ok" => push_name(&mut report.passed, name),
                "FAILED" => push_name(&mut report.failed, name),
                _ => {}
            }
            continue;
        }
        // nextest: `Summary [   0.1s] 12 tests run: 10 passed, 2 failed, 1 skipped`
        if t.starts_with("Summary [")
            && let Some((_, rest)) = t.split_once("run:")
        {
            let n = numbers_before(rest, &["passed", "failed", "skipped"]);
            add(TestCounts {
                passed: n[0],
                failed: n[1],
                skipped: n[2],
            });
            continue;
        }
        // nextest per-test lines: `PASS [ 0.01s] crate tests::name` / `FAIL [...] ...`
        if let Some(rest) = t
            .strip_prefix("PASS [")
            .or_else(|| t.strip_prefix("FAIL ["))
            && let Some((_, name)) = rest.split_once(']')
        {
            let name = name.trim();
            let name = name.rsplit(' ').next().unwrap_or(name);
            if t.starts_with("PASS") {
                push_name(&mut report.passed, name);
            } else {
                push_name(&mut report.failed, name);
            }
            continue;
        }
        // go test -v: `--- PASS: TestX (0.00s)` / `--- FAIL: TestX`
        if let Some(rest) = t.strip_prefix("--- PASS: ") {
            go_verbose_seen = true;
            go_verbose.passed += 1;
            push_name(&mut report.passed, first_word(rest));
            continue;
        }
        if let Some(rest) = t.strip_prefix("--- FAIL: ") {
            go_verbose_seen = true;
            go_verbose.failed += 1;
            push_name(&mut report.failed, first_word(rest));
            continue;
        }
        if t.starts_with("--- SKIP: ") {
            go_verbose_seen = true;
            go_verbose.skipped += 1;
            continue;
        }
        // go test package lines: `ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `?   \tpkg\t[no test files]`
        if (t.starts_with("ok ") || t.starts_with("ok\t")) && t.contains('\t')
            || t.starts_with("ok  ")
        {
            go_pkg_seen = true;
            if !t.contains("[no tests to run]") && !t.contains("[no test files]") {
                go_pkg.passed += 1;
            }
            continue;
        }
        if t.starts_with("FAIL\t") || (t.starts_with("FAIL ") && t.split_whitespace().count() >= 2)
        {
            go_pkg_seen = true;
            go_pkg.failed += 1;
            continue;
        }
        // jest: `Tests:       1 failed, 5 passed, 6 total`
        if let Some(rest) = t.strip_prefix("Tests:") {
            let n = numbers_before(rest, &["passed", "failed", "skipped"]);
            add(TestCounts {
                passed: n[0],
                failed: n[1],
                skipped: n[2],
            });
            continue;
        }
        // vitest: `Tests  1 failed | 4 passed (5)`
        if let Some(rest) = t.strip_prefix("Tests ")
            && rest.contains('(')
        {
            let n = numbers_before(rest, &["passed", "failed", "skipped"]);
            add(TestCounts {
                passed: n[0],
                failed: n[1],
                skipped: n[2],
            });
            continue;
        }
        // node --test (TAP or spec reporter): `# pass 5`, `ℹ fail 0`
        let node_line = t.strip_prefix("# ").or_else(|| t.strip_prefix("ℹ "));
        if let Some(rest) = node_line {
            let mut parts = rest.split_whitespace();
            if let (Some(key), Some(val), None) = (parts.next(), parts.next(), parts.next())
                && let Ok(v) = val.parse::<u64>()
            {
                match key {
                    "pass" => node.0 = Some(v),
                    "fail" => node.1 = Some(v),
                    "skipped" => node.2 = Some(v),
                    _ => {}
                }
                continue;
            }
        }
        // pytest -v: `tests/test_x.py::test_name PASSED  [ 50%]`
        if let Some((name, rest)) = t.split_once(' ')
            && name.contains("::")
        {
            let verdict = rest.split_whitespace().next().unwrap_or("");
            match verdict {
                "PASSED" => push_name(&mut report.passed, name),
                "FAILED" | "ERROR" => push_name(&mut report.failed, name),
                _ => {}
            }
        }
        // pytest short summary: `FAILED tests/test_x.py::test_name - AssertionError`
        if let Some(rest) = t
            .strip_prefix("FAILED ")
            .or_else(|| t.strip_prefix("ERROR "))
        {
            push_name(&mut report.failed, first_word(rest));
            continue;
        }
        // pytest summary: `==== 3 passed, 1 failed, 2 skipped in 0.12s ====`, `5 passed in 0.1s`,
        // `no tests ran in 0.01s`; and the plain `N passed, N failed` line.
        if let Some(c) = pytest_or_plain_summary(t) {
            add(c);
        }
    }
    if go_verbose_seen {
        add(go_verbose);
    } else if go_pkg_seen {
        add(go_pkg);
    }
    if let (Some(p), Some(f)) = (node.0, node.1) {
        add(TestCounts {
            passed: p,
            failed: f,
            skipped: node.2.unwrap_or(0),
        });
    }
    report.counts = counts;
    report
}

fn pytest_or_plain_summary(t: &str) -> Option<TestCounts> {
    let inner = t.trim_matches(|c: char| c == '=' || c == ' ' || c == '-');
    if inner.starts_with("no tests ran") {
        return Some(TestCounts::default());
    }
    let has_time = inner.contains(" in ") && inner.trim_end().ends_with('s');
    let body = if has_time {
        inner.rsplit_once(" in ").map(|(a, _)| a)?
    } else {
        // `label: 12 passed, 0 failed` (one word before a colon) or the bare line.
        match inner.split_once(':') {
            Some((label, rest)) if label.split_whitespace().count() == 1 => rest.trim(),
            Some(_) => return None,
            None => inner,
        }
    };
    let mut c = TestCounts::default();
    let mut any = false;
    for part in body.split(',') {
        let mut it = part.split_whitespace();
        let (Some(num), Some(word), None) = (it.next(), it.next(), it.next()) else {
            return None;
        };
        let n: u64 = num.parse().ok()?;
        match word {
            "passed" => c.passed += n,
            "failed" | "error" | "errors" => c.failed += n,
            "skipped" | "xfailed" | "deselected" => c.skipped += n,
            "xpassed" => c.passed += n,
            "warning" | "warnings" | "rerun" => {}
            _ => return None,
        }
        any = true;
    }
    // The plain form must be exactly `N passed, N failed[, N skipped]`.
    if !has_time && (!body.contains("passed") || !body.contains("failed")) {
        return None;
    }
    any.then_some(c)
}

/// For each keyword, the number written right before it (0 when absent).
fn numbers_before(text: &str, keys: &[&str]) -> Vec<u64> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '|' || c == '.')
        .filter(|w| !w.is_empty())
        .collect();
    keys.iter()
        .map(|k| {
            words
                .windows(2)
                .filter(|w| w[1] == *k)
                .filter_map(|w| w[0].parse::<u64>().ok())
                .sum()
        })
        .collect()
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

fn push_name(list: &mut Vec<String>, name: &str) {
    let name = name.trim();
    if !name.is_empty() && list.len() < MAX_NAMES {
        list.push(name.to_string());
    }
}

/// Removes ANSI colour escapes.
fn strip_ansi(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for n in chars.by_ref() {
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
}
