//! [`TestRun`]: what one or more test runs said, in one shape for every ecosystem, and the
//! small text helpers the ecosystems' output parsers share.

use serde::{Deserialize, Serialize};

/// A failing test: its id as the runner names it and, when known, the test file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FailingTest {
    /// e.g. `tests/test_ops.py::OpsTest::test_sub`, `sub_subtracts`,
    /// `example.com/calc::TestSub`, `sub subtracts`.
    pub id: String,
    /// Repo-relative test file, when the runner's output says.
    pub file: Option<String>,
}

/// What the test runners said: counts, the failing tests, the passing tests' names when the
/// output lists them, and the output itself (for the failing tests' messages and frames).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestRun {
    /// Some runner actually ran tests (a summary was recognised).
    pub ran: bool,
    /// Tests passed.
    pub passed: u32,
    /// Tests failed (or errored).
    pub failed: u32,
    /// Tests skipped or ignored.
    #[serde(default)]
    pub skipped: u32,
    /// The failing tests.
    pub failing: Vec<FailingTest>,
    /// Names of tests reported as passing, when the output lists them (verbose runners).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passing: Vec<String>,
    /// Lines for humans: which runner ran, why nothing ran.
    pub details: Vec<String>,
    /// A runner reported failure without test counts (compile error, collection error).
    pub broken: bool,
    /// What the runners printed (capped to the last [`MAX_LOG_BYTES`]), for the failing tests'
    /// messages in the worker's prompt. Not serialized.
    #[serde(skip)]
    pub log: String,
    /// Wall-clock time of the whole run in milliseconds (every runner together), so callers
    /// can derive the next run's limits from it ([`crate::TestLimits::from_baseline`]).
    #[serde(default)]
    pub elapsed_ms: u64,
    /// The part of [`TestRun::elapsed_ms`] spent in tests cut at the per-test limit (a hang
    /// costs the limit, not the test's own time): the time the suite takes without its hangs
    /// is the difference.
    #[serde(default)]
    pub cut_ms: u64,
}

/// Most bytes of runner output kept in [`TestRun::log`].
pub const MAX_LOG_BYTES: usize = 64 * 1024;

/// Most names kept in [`TestRun::passing`], so a huge suite does not bloat saved state.
pub const MAX_NAMES: usize = 2000;

impl TestRun {
    /// Nothing ran, for `reason`.
    pub fn not_run(reason: &str) -> Self {
        Self {
            details: vec![reason.to_string()],
            ..Self::default()
        }
    }

    /// The failing tests whose id the log names on a line saying it timed out: the runners'
    /// per-test cuts ([`crate::per_test_timeout_message`], `go test -timeout`'s panic
    /// naming the test, the Node runner's `test timed out`).
    pub fn timed_out(&self) -> usize {
        let lines: Vec<&str> = self
            .log
            .lines()
            .filter(|l| l.contains("timed out"))
            .collect();
        self.failing
            .iter()
            .filter(|f| lines.iter().any(|l| l.contains(f.id.as_str())))
            .count()
    }

    /// Tests that ran (passed + failed).
    pub fn total(&self) -> u32 {
        self.passed + self.failed
    }

    /// Whether the output said anything about tests (a summary, or a test's verdict).
    pub fn recognised(&self) -> bool {
        self.ran || !self.failing.is_empty() || !self.passing.is_empty()
    }

    /// Adds another run's results to this one (runs of several ecosystems in one repository).
    pub fn merge(&mut self, other: TestRun) {
        self.ran |= other.ran;
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        for f in other.failing {
            if !self.failing.contains(&f) {
                self.failing.push(f);
            }
        }
        for p in other.passing {
            self.push_passing(&p);
        }
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

    /// Records a failing test once.
    pub fn push_failing(&mut self, id: &str, file: Option<String>) {
        let id = id.trim();
        if !id.is_empty() && !self.failing.iter().any(|f| f.id == id) {
            self.failing.push(FailingTest {
                id: id.to_string(),
                file,
            });
        }
    }

    /// Records a passing test's name (up to [`MAX_NAMES`]).
    pub fn push_passing(&mut self, name: &str) {
        let name = name.trim();
        if !name.is_empty() && self.passing.len() < MAX_NAMES {
            self.passing.push(name.to_string());
        }
    }

    /// Keeps `output` as the run's log and, when no test ran but the command failed, marks the
    /// run broken with the output's last lines, naming `tool`.
    pub fn finish(mut self, tool: &str, output: &str, success: bool) -> Self {
        self.log = log_tail(output);
        if !self.ran && !success {
            self.broken = true;
            self.details
                .push(format!("{tool}: did not run: {}", tail(output, 4, " | ")));
        }
        self
    }
}

/// The name of the function that holds a test, from its id as a runner names it: the last
/// segment (`tests/t.py::C::test_x` -> `test_x`, `pkg::TestX` -> `TestX`, `stack peek` ->
/// `stack peek`), without a pytest parameter set (`test_metric[1234.56-1.23 k]` ->
/// `test_metric`) or a Go subtest (`TestParse/empty` -> `TestParse`).
pub fn test_function_name(id: &str) -> String {
    let id = match id.find('[') {
        Some(i) if id.ends_with(']') && i > 0 => &id[..i],
        _ => id,
    };
    let id = id.rsplit("::").next().unwrap_or(id);
    let id = match id.split_once('/') {
        Some((func, _)) if func.starts_with("Test") && !func.contains(' ') => func,
        _ => id,
    };
    let id = id.rsplit('#').next().unwrap_or(id);
    let id = match id.rsplit_once('.') {
        Some((_, last)) if !last.contains(' ') && !last.is_empty() => last,
        _ => id,
    };
    id.trim().to_string()
}

/// The description of a test written with Minitest's spec DSL, from its method name, which
/// the DSL makes `test_`, four digits, `_` and the description (`test_0002_carries over` ->
/// `carries over`); `None` for any other name.
pub fn minitest_spec_description(method: &str) -> Option<&str> {
    let rest = method.strip_prefix("test_")?;
    let b = rest.as_bytes();
    (b.len() > 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'_').then(|| &rest[5..])
}

/// The last [`MAX_LOG_BYTES`] of `text`, cut at a line start.
pub fn log_tail(text: &str) -> String {
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

/// The last `lines` non-blank lines of `s`, joined by `sep`.
pub fn tail(s: &str, lines: usize, sep: &str) -> String {
    let v: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    v[v.len().saturating_sub(lines)..].join(sep)
}

/// For each keyword, the sum of the numbers written right before it (0 when absent):
/// `numbers_before("3 passed; 1 failed", &["passed", "failed"]) == [3, 1]`.
pub fn numbers_before(text: &str, keys: &[&str]) -> Vec<u32> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '|' || c == '.')
        .filter(|w| !w.is_empty())
        .collect();
    keys.iter()
        .map(|k| {
            words
                .windows(2)
                .filter(|w| w[1] == *k)
                .filter_map(|w| w[0].parse::<u32>().ok())
                .sum()
        })
        .collect()
}

/// The first whitespace-separated word of `s`.
pub fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

/// `s` without ANSI colour escapes.
pub fn strip_ansi(s: &str) -> std::borrow::Cow<'_, str> {
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

/// Counts in a summary written as comma-separated `N word` parts (pytest's
/// `3 passed, 1 failed, 2 skipped`, the plain `12 passed, 0 failed`): `None` when a part is
/// not a known `N word`.
pub fn comma_counts(body: &str) -> Option<(u32, u32, u32)> {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut any = false;
    for part in body.split(',') {
        let words: Vec<&str> = part.split_whitespace().collect();
        let (num, word) = match words.as_slice() {
            [num, word] => (*num, *word),
            // pytest 9's `7 subtests passed`. Its `failed` counts each failed subtest, and
            // its `passed` the tests, a test whose subtests failed among them: `7 failed, 28
            // passed, 7 subtests passed` with a bug, `28 passed, 14 subtests passed` without.
            // Counted with the subtests that passed, a suite's total stays the same whichever
            // subtests fail (42 both times), as the tests-run count compares it.
            [num, "subtests", word] => (*num, *word),
            _ => return None,
        };
        let n: u32 = num.parse().ok()?;
        match word {
            "passed" | "xpassed" => passed += n,
            "failed" | "error" | "errors" => failed += n,
            "skipped" | "xfailed" | "deselected" => skipped += n,
            "warning" | "warnings" | "rerun" => {}
            _ => return None,
        }
        any = true;
    }
    any.then_some((passed, failed, skipped))
}

/// The plain summary line no single runner owns: `12 passed, 0 failed` or
/// `label: 12 passed, 0 failed[, 1 skipped]` (one word before the colon). Both `passed` and
/// `failed` must be there, so prose does not count.
pub fn plain_summary(line: &str) -> Option<(u32, u32, u32)> {
    let inner = line.trim_matches(|c: char| c == '=' || c == ' ' || c == '-');
    let body = match inner.split_once(':') {
        Some((label, rest)) if label.split_whitespace().count() == 1 => rest.trim(),
        Some(_) => return None,
        None => inner,
    };
    if !body.contains("passed") || !body.contains("failed") {
        return None;
    }
    comma_counts(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minitest_spec_name_gives_its_description() {
        assert_eq!(
            minitest_spec_description("test_0002_carries over"),
            Some("carries over")
        );
        assert_eq!(
            minitest_spec_description("test_abcé_x"),
            None,
            "not digits, no panic"
        );
        assert_eq!(minitest_spec_description("test_add"), None);
        assert_eq!(minitest_spec_description("test_00021_x"), None);
    }

    #[test]
    fn short_names_drop_pytest_parameters_and_go_subtests() {
        assert_eq!(
            test_function_name("tests/test_number.py::test_metric[[-1500, 'V']--1.50 kV]"),
            "test_metric"
        );
        assert_eq!(test_function_name("t.py::C::test_x[a.b]"), "test_x");
        assert_eq!(
            test_function_name("example.com/ini::TestParse/empty_value"),
            "TestParse"
        );
        assert_eq!(test_function_name("tests/t.py::C::test_x"), "test_x");
        assert_eq!(
            test_function_name("stack peek / empty"),
            "stack peek / empty"
        );
    }

    #[test]
    fn merge_sums_and_keeps_each_failure_once() {
        let mut a = TestRun {
            ran: true,
            passed: 2,
            failed: 1,
            ..TestRun::default()
        };
        a.push_failing("t1", None);
        let mut b = TestRun {
            ran: true,
            passed: 1,
            skipped: 2,
            failed: 1,
            ..TestRun::default()
        };
        b.push_failing("t1", None);
        b.push_failing("t2", Some("x_test.go".into()));
        a.merge(b);
        assert_eq!((a.passed, a.failed, a.skipped), (3, 2, 2));
        assert_eq!(a.failing.len(), 2);
    }

    #[test]
    fn log_tail_cuts_at_a_line_start() {
        let long = format!("{}\nlast line\n", "x".repeat(MAX_LOG_BYTES + 10));
        assert_eq!(log_tail(&long), "last line\n");
    }

    #[test]
    fn plain_and_comma_summaries() {
        assert_eq!(plain_summary("12 passed, 1 failed"), Some((12, 1, 0)));
        assert_eq!(
            plain_summary("suite: 3 passed, 0 failed, 2 skipped"),
            Some((3, 0, 2))
        );
        assert_eq!(plain_summary("we passed the build, nothing failed"), None);
        assert_eq!(plain_summary("3 passed"), None);
        assert_eq!(comma_counts("2 passed, 1 warning"), Some((2, 0, 0)));
        assert_eq!(strip_ansi("\u{1b}[32mok\u{1b}[0m"), "ok");
    }
}
