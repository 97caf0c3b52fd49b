//! test-values: a fix may not copy the failing tests' expected values into the code.
//!
//! The cheapest way to make a failing assertion pass is to write its expected value into the
//! code: `if n == 7: return 13`, `return "2024-01-31"`, a constant bumped to the number the test
//! prints. Such a change passes every other gate (the tests pass, nothing is deleted), and it
//! is wrong. This gate compares the literals a candidate adds to a code file with the failing
//! tests' source: a string (three characters or more) or a number (other than 0, 1, 2 and -1)
//! that the file did not hold before and that a failing test's assertion holds is refused,
//! naming the literal and the test line it came from. Literals the file already had (a bound
//! moved from one place to another) and literals the tests only pass in as inputs on lines
//! without an assertion are free.

use std::collections::BTreeSet;

use slopguard_change::ChangeSet;

use super::{Phase, Rejection, RejectionFinding, code_edits};

/// The gate's slug.
pub const SLUG: &str = "test-values";

/// Words that make a test line an assertion (its literals are expected values).
const ASSERTION_WORDS: [&str; 8] = [
    "assert", "expect", "should", "eq(", "equal", "==", "tobe", "must_",
];

/// The refusal of `change` when it adds a literal taken from an assertion of `tests` (the
/// failing tests' sources); `None` when it adds none.
pub fn check(change: &ChangeSet, tests: &[&str]) -> Option<Rejection> {
    let expected = expected_values(tests);
    if expected.is_empty() {
        return None;
    }
    let mut findings = Vec::new();
    for edit in code_edits(change, is_code) {
        let had: BTreeSet<String> = literals(&edit.before).into_iter().collect();
        for (n, line) in edit.added_lines() {
            for lit in literals(line) {
                if had.contains(&lit) {
                    continue;
                }
                if let Some(test_line) = expected.iter().find(|(l, _)| *l == lit).map(|(_, t)| t) {
                    findings.push(RejectionFinding {
                        path: Some(edit.path.to_string()),
                        message: format!(
                            "{}:{}: the literal {lit} is a failing test's expected value \
                             (`{}`): fix the computation, do not write the answer in",
                            edit.path,
                            n + 1,
                            test_line.trim()
                        ),
                        data: serde_json::json!({"literal": lit, "line": n + 1}),
                    });
                }
            }
        }
    }
    (!findings.is_empty()).then(|| Rejection::new(SLUG, Phase::Static, findings))
}

/// Literals on the assertion lines of `tests`, each with its line.
fn expected_values(tests: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for src in tests {
        for line in src.lines() {
            let lower = line.to_lowercase();
            if !ASSERTION_WORDS.iter().any(|w| lower.contains(w)) {
                continue;
            }
            for lit in literals(line) {
                out.push((lit, line.to_string()));
            }
        }
    }
    out
}

/// Whether the file is code (not docs, data or configuration).
fn is_code(path: &str) -> bool {
    matches!(
        path.rsplit('.').next().unwrap_or(""),
        "py" | "rs"
            | "go"
            | "js"
            | "mjs"
            | "cjs"
            | "ts"
            | "tsx"
            | "jsx"
            | "rb"
            | "java"
            | "c"
            | "h"
            | "cpp"
            | "cc"
            | "hpp"
            | "cs"
            | "kt"
            | "swift"
            | "php"
    )
}

/// The literals of `text` worth comparing, normalised: strings of three characters or more
/// (their content, quoted with `"`), numbers other than 0, 1, 2 and -1 (as written, without
/// `_` separators and type suffixes). A rough scan, enough for the comparison: a quote inside a
/// comment may start a string.
fn literals(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' || c == b'`' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let content = &text[start..j.min(b.len())];
            if content.trim().chars().count() >= 3 {
                out.push(format!("\"{content}\""));
            }
            i = j + 1;
        } else if c.is_ascii_digit() && (i == 0 || !is_word(b[i - 1])) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_' || b[i] == b'.') {
                if b[i] == b'.' && !b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    break;
                }
                i += 1;
            }
            let number: String = text[start..i].chars().filter(|c| *c != '_').collect();
            if !matches!(number.as_str(), "0" | "1" | "2" | "0.0" | "1.0") {
                out.push(number);
            }
            while i < b.len() && is_word(b[i]) {
                i += 1; // a type suffix (`10u8`, `3.5f`) or an identifier's tail
            }
        } else if is_word(c) {
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use slopguard_change::FileChange;

    use super::*;

    fn change(path: &str, before: &str, after: &str) -> ChangeSet {
        ChangeSet::new(
            std::sync::Arc::new(slopguard_change::MemTree::new(Default::default())),
            vec![FileChange::modify(path, before, after)],
            "test",
        )
    }

    const TEST: &str = "def test_days():\n    d = days_in('2024-02')\n    assert d == 29\n    assert name(3) == 'March'\n";

    #[test]
    fn an_expected_value_written_into_the_code_is_refused() {
        let c = change(
            "cal.py",
            "def days_in(m):\n    return month_len(m)\n",
            "def days_in(m):\n    if m == '2024-02':\n        return 29\n    return month_len(m)\n",
        );
        let r = check(&c, &[TEST]).expect("refused");
        assert_eq!(r.gate, SLUG);
        assert_eq!(r.findings.len(), 1, "{}", r.text());
        assert!(
            r.text().contains("cal.py:3: the literal 29"),
            "{}",
            r.text()
        );
    }

    #[test]
    fn literals_the_file_had_inputs_and_small_numbers_are_free() {
        // 29 was in the file already: moving it is a fix like any other.
        let c = change(
            "cal.py",
            "LEAP = 29\ndef f(m):\n    return 28\n",
            "LEAP = 29\ndef f(m):\n    return LEAP if leap(m) else 28\n",
        );
        assert!(check(&c, &[TEST]).is_none());
        // '2024-02' is only an input of the test (no assertion on its line); 1 and 2 are free.
        let c = change("cal.py", "x = 3\n", "x = 3\ny = '2024-02'\nz = n - 1 + 2\n");
        assert!(check(&c, &[TEST]).is_none());
        // A test file or a non-code file may hold anything.
        let c = change("tests/test_cal.py", "", "assert d == 29\n");
        assert!(check(&c, &[TEST]).is_none());
        let c = change("README.md", "", "29 days\n");
        assert!(check(&c, &[TEST]).is_none());
    }

    #[test]
    fn strings_of_any_quote_and_numbers_with_suffixes_are_read() {
        assert_eq!(
            literals("x = f(\"abc\", 'de', `ghi`) + 10u8 + 3.25 + 1_000 + v2"),
            ["\"abc\"", "\"ghi\"", "10", "3.25", "1000"]
        );
    }
}
