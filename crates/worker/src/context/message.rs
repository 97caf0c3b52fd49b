//! The failure's message: the few lines of a test run's output that say what went wrong (an
//! assertion and its operands, what was expected and what came, a panic's or an exception's
//! text), without the test's source, frames or runner chatter. Short enough to go into every
//! infill prompt as a comment under the failing test ([`crate::infill::test_with_failure`]):
//! what the code must do, in the runner's words (ChatRepair feeds the failing test's output
//! back to the model for the same reason).
//!
//! Each runner spells the message its own way:
//!
//! | runner | message lines |
//! |---|---|
//! | pytest | `E   assert f(2) == 3` (the `E` column) |
//! | unittest, tracebacks | `AssertionError: 1 != 2`, `ValueError: ...` |
//! | `go test` | `    x_test.go:57: got "a", want "b"` (the test's log line) |
//! | cargo test | the lines after `thread '...' panicked at src/x.rs:3:5:` |
//! | node:test | `expected: 'a'`, `actual: 'b'`, `error: 'bad value'` of the TAP diagnostics |
//! | minitest, Jest | `Expected: [1, 2]`, `Actual: [2, 1]`, `Received: 2`; a diff's `-"a"`, `+nil` |

use std::sync::OnceLock;

use regex::Regex;

/// Most message lines kept.
const MAX_LINES: usize = 6;
/// Longest message line kept (characters); longer ones are cut with `...`.
const MAX_LINE_CHARS: usize = 160;
/// Most lines of a panic's message read after its `panicked at` line.
const PANIC_LINES: usize = 3;
/// Most lines of a diff read after its `--- expected` line.
const DIFF_LINES: usize = 4;

/// The message lines of `output` (a failing test run's output, or an excerpt of it), in the
/// order printed, each once, at most [`MAX_LINES`]. Empty when no line looks like one.
pub fn failure_message(output: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut panic_lines_left = 0;
    let mut diff_lines_left = 0;
    for line in output.lines() {
        let t = line.trim();
        let kept = if t == "--- expected" {
            diff_lines_left = DIFF_LINES;
            None
        } else if diff_lines_left > 0 {
            diff_lines_left -= 1;
            diff_line(t)
        } else if panic_lines_left > 0 {
            if ends_panic_message(t) {
                panic_lines_left = 0;
                None
            } else {
                panic_lines_left -= 1;
                Some(t)
            }
        } else if let Some(rest) = t.split_once("panicked at ").map(|(_, r)| r) {
            // Rust 1.73+: `panicked at src/x.rs:3:5:`, the message on the next lines; before
            // it, `panicked at 'message', src/x.rs:3:5`.
            match rest.strip_prefix('\'') {
                Some(quoted) => quoted.rsplit_once("', ").map(|(m, _)| m),
                None => {
                    panic_lines_left = PANIC_LINES;
                    None
                }
            }
        } else {
            message_of(line, t)
        };
        if let Some(m) = kept.map(str::trim).filter(|m| !m.is_empty()) {
            let m = cut(m);
            if !out.contains(&m) {
                out.push(m);
            }
        }
        if out.len() == MAX_LINES {
            break;
        }
    }
    out
}

/// What runners print when a test expected an error (an exception, a panic, an `Err`, a
/// non-nil `error`) and the code returned normally, lower-cased: pytest's `DID NOT RAISE`,
/// unittest's `ValueError not raised`, minitest's and RSpec's `nothing was raised`, node's
/// `Missing expected exception` (and `rejection`), Jest's `did not throw`, cargo's `did not
/// panic` (a `#[should_panic]` test) and `unwrap_err()` on an `Ok`, Go's error left nil as
/// tests word it (`got <nil>`, `err == nil`, `wantErr true`, `expected error`).
const NO_ERROR_RAISED: [&str; 17] = [
    "did not raise",
    "not raised",
    "nothing was raised",
    "missing expected exception",
    "missing expected rejection",
    "did not throw",
    "to throw",
    "did not panic",
    "unwrap_err()` on an `ok`",
    ".is_err()",
    "got <nil>",
    "got nil",
    "== nil, want",
    "wanterr true",
    "expected error",
    "expected an error",
    "want error",
];

/// Whether `output` (a failing test run's output) says a test expected an error that did not
/// come ([`NO_ERROR_RAISED`]): the code returned where it should have refused its input, so
/// the check that refuses it is wrong or missing.
pub fn expects_an_error(output: &str) -> bool {
    output.lines().any(|line| {
        let lower = line.to_ascii_lowercase();
        NO_ERROR_RAISED.iter().any(|p| lower.contains(p))
    })
}

/// The message `line` (`t` trimmed) states, if it is one of a runner's message lines.
fn message_of<'a>(line: &'a str, t: &'a str) -> Option<&'a str> {
    if let Some(rest) = t.strip_prefix("E ") {
        return Some(rest); // pytest
    }
    if let Some(c) = go_log_line().captures(line) {
        return c.get(1).map(|m| m.as_str());
    }
    let lower = t.to_ascii_lowercase();
    let labelled = ["expected:", "actual:", "received:"]
        .iter()
        .any(|p| lower.starts_with(p));
    // node:test's one-line `error: 'invalid value'` (a block `error: |-` is left out, and a
    // suite's count of its failed subtests, which says nothing of what failed).
    let tap_error = t.starts_with("error: '") && !subtests_failed(t);
    if (labelled || tap_error) && t.split_once(':').is_some_and(|(_, v)| !v.trim().is_empty()) {
        return Some(t);
    }
    exception_line().is_match(t).then_some(t)
}

/// node:test's line for a suite whose subtests failed: `error: '2 subtests failed'`.
fn subtests_failed(t: &str) -> bool {
    t.strip_prefix("error: '")
        .and_then(|rest| rest.strip_suffix('\''))
        .and_then(|rest| rest.split_once(' '))
        .is_some_and(|(count, what)| {
            count.chars().all(|c| c.is_ascii_digit())
                && matches!(what, "subtest failed" | "subtests failed")
        })
}

/// A minitest diff's changed line after `--- expected` / `+++ actual`: `-"a"`, `+nil`.
fn diff_line(t: &str) -> Option<&str> {
    let changed = (t.starts_with('-') && !t.starts_with("---"))
        || (t.starts_with('+') && !t.starts_with("+++"));
    changed.then_some(t)
}

/// Where a panic's message ends: the backtrace, a frame, a note, the next test's output.
fn ends_panic_message(t: &str) -> bool {
    t.is_empty()
        || t.starts_with("stack backtrace")
        || t.starts_with("note:")
        || t.starts_with("at ")
        || t.starts_with("----")
        || t.starts_with("failures:")
        || t.split_once(": ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A `go test` log line: `    name_test.go:57: message` (group 1).
fn go_log_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\s+[\w.-]+_test\.go:\d+: (.+)$").expect("go log regex"))
}

/// An exception's line: `AssertionError: 1 != 2`, `ValueError: bad`, `Error: boom`.
fn exception_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Failure)(?: \[\w+\])?: \S")
            .expect("exception regex")
    })
}

/// `m` cut to [`MAX_LINE_CHARS`] characters.
fn cut(m: &str) -> String {
    if m.chars().count() <= MAX_LINE_CHARS {
        return m.to_string();
    }
    let kept: String = m.chars().take(MAX_LINE_CHARS).collect();
    format!("{kept}...")
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_error_expected_and_not_raised_is_told_apart_from_a_wrong_value() {
        for output in [
            "E       Failed: DID NOT RAISE <class 'ValueError'>",
            "AssertionError: ValueError not raised",
            "ArgumentError expected but nothing was raised.",
            "    error: 'Missing expected exception.'",
            "note: test did not panic as expected",
            "    parser_test.go:51: 5-3 => expected beyond end of range, got <nil>",
            "    decode_test.go:12: dec.Err() == nil, want: *SyntaxError",
            "    Received function did not throw",
        ] {
            assert!(expects_an_error(output), "{output}");
        }
        for output in [
            "E       assert 3 == 4",
            "    size_test.go:40: got 10, want 12",
            "ValueError: invalid literal for int() with base 10: 'x'",
            "Expected: [1, 2]\n  Actual: [2, 1]",
        ] {
            assert!(!expects_an_error(output), "{output}");
        }
    }
    use super::*;

    #[test]
    fn pytest_keeps_the_e_column() {
        let out = "\
___________________ test_calc[start3-duration3-expectation3] ___________________
start = datetime.date(1996, 2, 29)
    def test_calc(start, duration, expectation):
>           assert start + duration == expectation
E           assert (datetime.date(1996, 2, 29) + Duration(years=4)) == datetime.date(2000, 2, 29)
tests/test_duration.py:342: AssertionError
";
        assert_eq!(
            failure_message(out),
            [
                "assert (datetime.date(1996, 2, 29) + Duration(years=4)) == datetime.date(2000, 2, 29)"
            ]
        );
    }

    #[test]
    fn go_keeps_the_tests_log_line() {
        let out = "--- FAIL: TestTrailingComments (0.00s)\n    ini_test.go:57: path = \"/a\", want /a;b\nFAIL\nFAIL\texample.com/ini\t0.003s\n";
        assert_eq!(failure_message(out), ["path = \"/a\", want /a;b"]);
    }

    #[test]
    fn rust_keeps_the_panic_message_not_its_frames() {
        let out = "\
---- parse::tests::to_and_from_str stdout ----
thread 'parse::tests::to_and_from_str' (19558) panicked at src/parse/tests.rs:47:31:
called `Result::unwrap()` on an `Err` value: \"couldn't parse\"
stack backtrace:
   4: bytesize::parse::tests::to_and_from_str::parse
             at ./src/parse/tests.rs:47:31
---- tests::when_ok stdout ----
thread 'tests::when_ok' panicked at src/lib.rs:9:5:
assertion `left == right` failed
  left: 3
 right: 4
note: run with `RUST_BACKTRACE=1`
";
        assert_eq!(
            failure_message(out),
            [
                "called `Result::unwrap()` on an `Err` value: \"couldn't parse\"",
                "assertion `left == right` failed",
                "left: 3",
                "right: 4",
            ]
        );
        let old = "thread 'main' panicked at 'index out of bounds', src/lib.rs:3:5\n";
        assert_eq!(failure_message(old), ["index out of bounds"]);
    }

    #[test]
    fn node_minitest_and_unittest_keep_expected_actual_and_the_exception() {
        let node = "\
not ok 5 - leaves missing placeholders untouched by default
  error: |-
    Expected values to be strictly equal:
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  expected: 'Hello Cy, you owe {amount}'
  actual: 'Hello Cy, you owe '
  operator: 'strictEqual'
";
        assert_eq!(
            failure_message(node),
            [
                "expected: 'Hello Cy, you owe {amount}'",
                "actual: 'Hello Cy, you owe '"
            ]
        );
        let minitest = "AllocationTest#test_leftover [test/allocation_test.rb:18]:\nExpected: [14, 29, 57]\n  Actual: [14, 28, 58]\n";
        assert_eq!(
            failure_message(minitest),
            ["Expected: [14, 29, 57]", "Actual: [14, 28, 58]"]
        );
        let tap = "not ok 4 - quotes\n  error: 'invalid parameter value'\n  name: 'TypeError'\n  expected:\n  operator: 'throws'\n";
        assert_eq!(failure_message(tap), ["error: 'invalid parameter value'"]);
        // A suite's count of failed subtests is no message.
        let suite = "not ok 1 - parse\n  error: '2 subtests failed'\n  code: 'ERR_TEST_FAILURE'\n";
        assert!(
            failure_message(suite).is_empty(),
            "{:?}",
            failure_message(suite)
        );
        let diff = "IniConfigTest#test_equals [test/ini_config_test.rb:39]:\n--- expected\n+++ actual\n@@ -1 +1 @@\n-\"postgres://app@db\"\n+nil\n10 runs, 17 assertions, 1 failures\n";
        assert_eq!(failure_message(diff), ["-\"postgres://app@db\"", "+nil"]);
        let unittest = "FAIL: test_mean (tests.test_stats.T)\nTraceback (most recent call last):\n  File \"t.py\", line 3, in test_mean\nAssertionError: 1 != 1.5\n";
        assert_eq!(failure_message(unittest), ["AssertionError: 1 != 1.5"]);
    }

    #[test]
    fn nothing_is_kept_from_output_without_a_message_and_long_output_is_capped() {
        assert!(failure_message("ok 1 - adds\n1 passed in 0.1s\n").is_empty());
        let many: String = (0..20).map(|i| format!("E   assert {i} == 0\n")).collect();
        assert_eq!(failure_message(&many).len(), MAX_LINES);
        let long = format!("E   assert {} == 1\n", "x".repeat(400));
        assert!(failure_message(&long)[0].ends_with("..."));
    }
}
