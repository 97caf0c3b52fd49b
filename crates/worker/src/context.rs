//! The context for fixing failing tests, found without a model: what the failing tests printed
//! (assertion, expected and actual, the frames inside the repository), the failing test
//! functions' source, and the repository files the failures point at.
//!
//! Every runner prints a failing test's name near its message (pytest's `____ test_x ____`,
//! unittest's `FAIL: test_x`, Go's `--- FAIL: TestX`, cargo's `---- x stdout ----`, TAP's
//! `not ok 2 - x`), so the excerpt is the lines after each mention of a failing test's name,
//! without the runners' noise, cut to a budget.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use slopguard_change::Tree;
use slopguard_lang::{Definition, FileKind, analyze, detect, word_positions};

use slopguard_toolchain::{FailingTest, is_test_file};

/// The context of a subtask behind failing tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailureContext {
    /// What the failing tests printed, trimmed to the budget.
    pub output: String,
    /// The failing test functions: (path, first line, source).
    pub tests: Vec<(String, usize, String)>,
    /// Non-test repository files named by the failures' frames, most mentioned first.
    pub frame_files: Vec<String>,
    /// Definitions of the files to change that the failing tests call: (path, name, first
    /// line, last line). Where the bug most likely is.
    pub exercised: Vec<(String, String, usize, usize)>,
}

impl FailureContext {
    /// Nothing to show.
    pub fn is_empty(&self) -> bool {
        self.output.trim().is_empty() && self.tests.is_empty()
    }
}

/// Lines kept after each mention of a failing test.
const LINES_AFTER_MENTION: usize = 18;
/// Longest test function shown (lines).
pub(crate) const MAX_TEST_LINES: usize = 40;

/// Builds the context from the baseline's failing tests and the runners' output `log`, reading
/// test sources from `tree`; `sources` are the files to change (their definitions that the
/// tests call are listed). `budget` bounds the output excerpt (characters).
pub fn failure_context(
    tree: &dyn Tree,
    failing: &[FailingTest],
    log: &str,
    sources: &[String],
    budget: usize,
) -> FailureContext {
    let names: Vec<String> = failing.iter().map(|f| short_name(&f.id)).collect();
    let output = excerpt(log, &names, budget);
    let frames = frame_paths(log, tree);
    let mut tests = Vec::new();
    let mut seen = BTreeSet::new();
    for (f, name) in failing.iter().zip(&names) {
        // The runner's file, then the test files the frames name, then the other frames'
        // files: a Rust unit test's module (`src/test.rs`, `src/x.rs`'s `mod tests`) is named
        // by its frame while the runner names the crate root.
        let (test_frames, other_frames): (Vec<&String>, Vec<&String>) =
            frames.iter().partition(|p| is_test_file(p));
        let files: Vec<String> = f
            .file
            .iter()
            .cloned()
            .chain(test_frames.into_iter().cloned())
            .chain(other_frames.into_iter().cloned())
            .collect();
        for file in files {
            if let Some((line, src)) = function_source(tree, &file, name)
                && seen.insert((file.clone(), line))
            {
                tests.push((file, line, src));
                break;
            }
        }
    }
    let mut callers = tests.clone();
    callers.extend(test_helpers(tree, &tests));
    let frame_files: Vec<String> = frames.into_iter().filter(|p| !is_test_file(p)).collect();
    // The files the failures' frames name hold code the tests ran: a Rust crate's unit tests
    // name the crate root while the code they call lives in its modules.
    let mut read = sources.to_vec();
    read.extend(frame_files.iter().filter(|f| !sources.contains(f)).cloned());
    let exercised = exercised_definitions(tree, &callers, &read);
    FailureContext {
        output,
        tests,
        frame_files,
        exercised,
    }
}

/// Definitions of `sources` whose names the test snippets use (functions, methods, types),
/// and the methods the language runs for them without their names
/// ([`slopguard_lang::runs_implicitly`]: a `parse::<T>()` runs `T::from_str`). The tests
/// themselves are not among them, nor what holds them (a Rust `mod tests` in a source file):
/// a test names itself, and a change to it is no fix.
fn exercised_definitions(
    tree: &dyn Tree,
    tests: &[(String, usize, String)],
    sources: &[String],
) -> Vec<(String, String, usize, usize)> {
    let words: BTreeSet<&str> = tests
        .iter()
        .flat_map(|(_, _, src)| src.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .filter(|w| w.len() >= 2)
        .collect();
    let mut out = Vec::new();
    for path in sources {
        let Some(text) = source_text(tree, path) else {
            continue;
        };
        let language = match detect(path, text.as_bytes()) {
            FileKind::Code(language) => language,
            _ => continue,
        };
        let holds_a_test = |start: u32, end: u32| {
            tests.iter().any(|(file, line, _)| {
                file == path && (start as usize..=end as usize).contains(line)
            })
        };
        for d in analyze(language, &text).definitions {
            if holds_a_test(d.start_line, d.end_line) {
                continue;
            }
            if words.contains(d.simple_name())
                || slopguard_lang::runs_implicitly(language, &d.name, |w| words.contains(w))
            {
                out.push((
                    path.clone(),
                    d.name.clone(),
                    d.start_line as usize,
                    d.end_line as usize,
                ));
            }
        }
    }
    out
}

/// A definition the model is asked to rewrite alone: the function the failing tests call.
/// The smallest answer a small model can give, and one that cannot drop anything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionTarget {
    /// The file.
    pub path: String,
    /// The definition's name as the language layer gives it (`average`, `Stack::peek`).
    pub name: String,
    /// 1-based first line.
    pub start: usize,
    /// 1-based last line (inclusive).
    pub end: usize,
}

impl FunctionTarget {
    /// The definition `name` of `path`, on 1-based lines `start` to `end`.
    pub fn new(path: &str, name: &str, start: usize, end: usize) -> Self {
        FunctionTarget {
            path: path.into(),
            name: name.into(),
            start,
            end,
        }
    }

    /// Whether the definition holds 1-based lines `start` to `end` of `path`.
    pub fn holds(&self, path: &str, start: usize, end: usize) -> bool {
        self.path == path && self.start <= start && end <= self.end
    }

    /// The name without its owner (`Stack::peek` -> `peek`).
    pub fn simple_name(&self) -> &str {
        self.name
            .rsplit([':', '.', '#'])
            .next()
            .unwrap_or(&self.name)
    }
}

/// The name of the function that holds a test (`tests/t.py::C::test_x` -> `test_x`): the
/// toolchain reads test ids.
pub use slopguard_toolchain::test_function_name as short_name;

mod differing;
mod message;
mod noise;
mod test_source;
pub use differing::{assigns_one_of, differing_names};
pub use message::{expects_an_error, failure_message};
use noise::is_noise;
use test_source::test_helpers;
pub use test_source::{function_source, shortened_test};

/// The lines after each mention of a failing test's name, de-duplicated, without noise, cut
/// to `budget` characters (whole lines).
pub fn excerpt(log: &str, names: &[String], budget: usize) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let mut keep = vec![false; lines.len()];
    for (i, l) in lines.iter().enumerate() {
        if names
            .iter()
            .any(|n| !n.is_empty() && l.contains(n.as_str()))
        {
            for k in keep.iter_mut().skip(i).take(LINES_AFTER_MENTION + 1) {
                *k = true;
            }
        }
    }
    // pytest repeats every failure in its closing summary, and spells an assertion's operands
    // out again under "Full diff:": read once is enough.
    if let Some(summary) = lines
        .iter()
        .position(|l| l.contains("short test summary info"))
        && keep[..summary].iter().any(|k| *k)
    {
        keep[summary..].iter_mut().for_each(|k| *k = false);
    }
    let mut in_full_diff = false;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        if in_full_diff && t.starts_with("E ") {
            keep[i] = false;
        } else {
            in_full_diff = t.starts_with("E ") && t.contains("Full diff:");
            if in_full_diff {
                keep[i] = false;
            }
        }
    }
    if !keep.iter().any(|k| *k) {
        // No name found: the end of the log usually holds the summary and the error.
        let from = lines.len().saturating_sub(30);
        for k in keep.iter_mut().skip(from) {
            *k = true;
        }
    }
    let mut out = String::new();
    let mut seen = BTreeSet::new();
    for (i, l) in lines.iter().enumerate() {
        if !keep[i] || is_noise(l) || !seen.insert(l.trim()) {
            continue;
        }
        if out.len() + l.len() + 1 > budget {
            out.push_str("[... more output cut ...]\n");
            break;
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// A file and line a log names: a Python frame (`File "x.py", line 3`: groups 1 and 2) or a
/// `path.ext:line` of a known source extension (groups 3 and 4).
pub fn frame_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?:File "([^"]+)", line (\d+))|([A-Za-z0-9_./\\-]+\.(?:py|rs|go|js|mjs|cjs|ts|tsx|jsx|rb|java)):(\d+)"#,
        )
        .expect("frame regex")
    })
}

/// Repository files named in the log's frames (`File "x.py", line 3`, `src/lib.rs:12:5`,
/// `/abs/repo/src/a.js:3:9`), most mentioned first.
pub fn frame_paths(log: &str, tree: &dyn Tree) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for cap in frame_regex().captures_iter(log) {
        let raw = cap.get(1).or_else(|| cap.get(3)).map_or("", |m| m.as_str());
        let Some(path) = repo_path(raw, tree) else {
            continue;
        };
        match counts.iter_mut().find(|(p, _)| *p == path) {
            Some((_, n)) => *n += 1,
            None => counts.push((path, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts.into_iter().map(|(p, _)| p).collect()
}

/// `raw` as a path of the tree: as written, or the shortest suffix of an absolute path that
/// exists.
pub fn repo_path(raw: &str, tree: &dyn Tree) -> Option<String> {
    let raw = raw.trim_start_matches("./");
    let exists = |p: &str| tree.read(p).ok().flatten().is_some();
    if !raw.starts_with('/') && exists(raw) {
        return Some(raw.to_string());
    }
    let parts: Vec<&str> = raw.split('/').filter(|s| !s.is_empty()).collect();
    (0..parts.len())
        .rev()
        .map(|i| parts[i..].join("/"))
        .find(|p| exists(p))
}

/// The definitions of `text` parsed as `path`'s language (none for a file that is not code).
pub fn definitions(path: &str, text: &str) -> Vec<Definition> {
    match detect(path, text.as_bytes()) {
        FileKind::Code(lang) => analyze(lang, text).definitions,
        _ => Vec::new(),
    }
}

/// The text of `path` in `tree`: `None` when it is missing, unreadable or not UTF-8 (no
/// definitions or statements can be read from it then).
pub fn source_text(tree: &dyn Tree, path: &str) -> Option<String> {
    tree.read(path)
        .ok()
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
}

/// The other tests of the files the failing tests are in, as the words of their bodies: the
/// functions named like tests (`test_x`, `TestX`) that are not among `failing_names`. The
/// passing side of a spectrum: a function every passing test calls too is less suspect than
/// one only the failing tests call. Empty where tests are not named functions (`it(...)`
/// blocks), so a ranking by them falls back to the order of mention.
pub fn passing_test_words(
    tree: &dyn Tree,
    fc: &FailureContext,
    failing_names: &BTreeSet<String>,
) -> Vec<BTreeSet<String>> {
    let files: BTreeSet<&str> = fc.tests.iter().map(|(p, _, _)| p.as_str()).collect();
    let mut out = Vec::new();
    for path in files {
        let Some(text) = source_text(tree, path) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        for d in definitions(path, &text) {
            let name = d.simple_name();
            let test_like = name.starts_with("test") || name.starts_with("Test");
            if d.kind != slopguard_lang::DefKind::Function
                || !test_like
                || failing_names.contains(name)
            {
                continue;
            }
            let (a, b) = (
                d.start_line as usize,
                (d.end_line as usize).min(lines.len()),
            );
            if a >= 1 && a <= b {
                out.push(identifier_words(&lines[a - 1..b].join("\n")));
            }
        }
    }
    out
}

/// The identifier-like words of `text`.
pub fn identifier_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 2)
        .map(str::to_string)
        .collect()
}

/// The definitions of `path` that the definition `name` (1-based lines `start`-`end`)
/// mentions by name, itself left out: one hop down from a function the tests call, where the
/// bug may sit in a helper. In Rust and Go, where calling needs parentheses, only a mention
/// that calls or names the definition counts ([`calls_or_names`]): a field read (`self.year`),
/// a struct field (`Date { year, month }`) or a local of the same name is not the accessor
/// method named after it, a common pattern there.
pub fn called_definitions(
    tree: &dyn Tree,
    path: &str,
    name: &str,
    (start, end): (usize, usize),
) -> Vec<Definition> {
    let Some(text) = source_text(tree, path) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let body = lines
        .get(start.saturating_sub(1)..end.min(lines.len()))
        .map(|l| l.join("\n"))
        .unwrap_or_default();
    let fields_are_not_calls = matches!(
        detect(path, text.as_bytes()),
        FileKind::Code(slopguard_lang::Language::Rust | slopguard_lang::Language::Go)
    );
    definitions(path, &text)
        .into_iter()
        .filter(|d| {
            let range = (d.start_line as usize, d.end_line as usize);
            d.name != name
                && range != (start, end)
                && word_positions(&body, d.simple_name()).any(|at| {
                    let method = d.name != d.simple_name();
                    !fields_are_not_calls || calls_or_names(&body, at, d.simple_name(), method)
                })
        })
        .collect()
}

/// Whether the mention of `name` at byte `at` of `text` (Rust or Go) calls it (`name(`,
/// `name::<T>(`) or names it by its path (`Self::name`); a free function may also be passed by
/// its bare name (`map(helper)`), which a method cannot, and neither is read as a field
/// (`.name`) or written as one (`name:`).
fn calls_or_names(text: &str, at: usize, name: &str, method: bool) -> bool {
    let before = text[..at].trim_end();
    let after = text[at + name.len()..].trim_start();
    if after.starts_with('(') || after.starts_with("::<") || before.ends_with("::") {
        return true;
    }
    !method && !before.ends_with('.') && !after.starts_with(':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::collections::BTreeMap;

    /// A tree of `files` (path, text); the test modules under this one use it too.
    pub(super) fn tree(files: &[(&str, &str)]) -> MemTree {
        MemTree::new(
            files
                .iter()
                .map(|(p, c)| (p.to_string(), c.as_bytes().to_vec()))
                .collect::<BTreeMap<_, _>>(),
        )
    }

    #[test]
    fn a_rust_field_read_is_not_a_call_of_the_accessor_of_the_same_name() {
        let src = "pub struct Date { year: i32, month: u8 }\n\
            impl Date {\n\
            \x20   pub fn year(&self) -> i32 {\n        self.year\n    }\n\
            \x20   pub fn month(&self) -> u8 {\n        self.month\n    }\n\
            \x20   pub fn days(&self) -> u8 {\n        28\n    }\n\
            \x20   pub fn add_months(&self, n: i32) -> Date {\n\
            \x20       let total = self.year * 12 + self.month as i32 + n;\n\
            \x20       let (year, month) = (total / 12, self.days());\n\
            \x20       Date { year, month: month }\n    }\n}\n";
        let t = tree(&[("src/lib.rs", src)]);
        let called: Vec<String> =
            called_definitions(&t, "src/lib.rs", "Date::add_months", (12, 16))
                .into_iter()
                .filter(|d| d.kind == slopguard_lang::DefKind::Function)
                .map(|d| d.simple_name().to_string())
                .collect();
        assert_eq!(called, ["days"]);
        // Python reads a property without parentheses: the mention stays a call there.
        let py = "class D:\n    @property\n    def year(self):\n        return self._y\n\n    def next(self):\n        return self.year + 1\n";
        let t = tree(&[("d.py", py)]);
        let called: Vec<String> = called_definitions(&t, "d.py", "D.next", (6, 7))
            .into_iter()
            .map(|d| d.simple_name().to_string())
            .collect();
        assert_eq!(called, ["year"]);
    }

    #[test]
    fn a_rust_backtrace_keeps_only_the_frames_of_the_crate() {
        let log = "test add_months_clamps ... FAILED\n\
            ---- add_months_clamps stdout ----\n\
            thread 'add_months_clamps' panicked at tests/date.rs:62:5:\n\
            assertion `left == right` failed\n  left: 31\n right: 29\n\
            stack backtrace:\n   0: __rustc::rust_begin_unwind\n\
            \x20  1: core::panicking::panic_fmt\n   2: date::add_months_clamps\n\
            \x20            at ./tests/date.rs:62:5\n\
            \x20  3: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once\n\
            note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n\
            \x20  Doc-tests civil_date\nrunning 0 tests\n\
            test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
        let shown = excerpt(log, &["add_months_clamps".to_string()], 4000);
        assert!(shown.contains("left: 31"), "{shown}");
        assert!(shown.contains("2: date::add_months_clamps"), "{shown}");
        assert!(shown.contains("at ./tests/date.rs:62:5"), "{shown}");
        for gone in [
            "core::",
            "__rustc",
            "Some details",
            "stack backtrace",
            "running 0",
            "test result: ok",
            "Doc-tests",
        ] {
            assert!(!shown.contains(gone), "{gone} in {shown}");
        }
    }

    #[test]
    fn passing_tests_are_not_shown_with_the_failure() {
        let go = "=== RUN   TestTrailingComments\n    ini_test.go:57: path = \"/a\", want /a;b\n\
            --- FAIL: TestTrailingComments (0.00s)\n--- PASS: TestQuotedValues (0.00s)\n\
            --- SKIP: TestSlow (0.00s)\nFAIL\nFAIL\texample.com/ini\t0.003s\n\
            ok  \texample.com/other\t0.002s\n";
        let rust = "test parse::tests::when_ok ... FAILED\ntest tests::test_default ... ok\n\
            test src/lib.rs - (line 6) - compile ... ok\ntest tests::slow ... ignored\n\
            running 2 tests\nerror: test failed, to rerun pass `--lib`\n\
            thread 'parse::tests::when_ok' panicked at src/parse/tests.rs:7:31:\n";
        let ruby = "Utils#test_0004_expands the * wildcard = 0.00 s = F\n\
            Utils#test_0003_prefers higher quality = 0.00 s = .\n\
            Expected: \"bar\"\n  Actual: \"foo\"\n";
        let tap = "ok 1 - counts full pages\nnot ok 2 - counts a partial last page\n\
            \x20 expected: 6\n    Test.runInAsyncScope (node:async_hooks:206:9)\n";
        let tests = ["TestTrailingComments", "when_ok", "test_0004", "partial"].map(String::from);
        let shown: Vec<String> = [go, rust, ruby, tap]
            .iter()
            .map(|log| excerpt(log, &tests, 4000))
            .collect();
        let shown = shown.join("\n");
        for kept in [
            "want /a;b",
            "--- FAIL: TestTrailingComments",
            "FAIL\texample.com/ini",
            "when_ok ... FAILED",
            "panicked at src/parse/tests.rs:7:31",
            "wildcard = 0.00 s = F",
            "Actual: \"foo\"",
            "not ok 2 - counts a partial last page",
            "expected: 6",
        ] {
            assert!(shown.contains(kept), "{kept} not in {shown}");
        }
        for gone in [
            "TestQuotedValues",
            "TestSlow",
            "example.com/other",
            "test_default",
            "compile ... ok",
            "tests::slow",
            "running 2",
            "to rerun",
            "higher quality",
            "counts full pages",
            "node:async_hooks",
        ] {
            assert!(!shown.contains(gone), "{gone} in {shown}");
        }
    }

    #[test]
    fn names() {
        assert_eq!(
            short_name("tests/test_stats.py::StatsTest::test_average_fraction"),
            "test_average_fraction"
        );
        assert_eq!(
            short_name("tests.test_db.DbTest.test_name_with_quote"),
            "test_name_with_quote"
        );
        assert_eq!(short_name("example.com/wc::TestCount"), "TestCount");
        assert_eq!(
            short_name("collapses punctuation and spaces into one dash"),
            "collapses punctuation and spaces into one dash"
        );
    }

    #[test]
    fn a_rust_unit_test_is_found_in_the_module_its_frame_names() {
        let log = "test test::test_fractional_units ... FAILED\n\nfailures:\n\n---- test::test_fractional_units stdout ----\n\nthread 'test::test_fractional_units' panicked at src/test.rs:4:5:\nassertion `left == right` failed\n  left: 1\n right: 2\n";
        let t = tree(&[
            (
                "src/lib.rs",
                "mod test;\n\npub fn parse(s: &str) -> u32 {\n    s.len() as u32 - 1\n}\n",
            ),
            (
                "src/test.rs",
                "use super::parse;\n\n#[test]\nfn test_fractional_units() {\n    assert_eq!(parse(\"ab\"), 2);\n}\n",
            ),
        ]);
        // cargo names the crate root, not the module.
        let failing = [FailingTest {
            id: "test::test_fractional_units".into(),
            file: Some("src/lib.rs".into()),
        }];
        let cx = failure_context(&t, &failing, log, &["src/lib.rs".to_string()], 2000);
        assert_eq!(cx.tests.len(), 1, "{cx:?}");
        assert_eq!(cx.tests[0].0, "src/test.rs");
        assert_eq!(cx.exercised.len(), 1, "{cx:?}");
        assert_eq!(cx.exercised[0].1, "parse");
    }

    #[test]
    fn unit_tests_in_a_source_file_are_not_what_they_exercise() {
        // The crate root holds the tests; the code they call lives in the module a frame
        // names. Before, the tests themselves were the "exercised" definitions (a test names
        // itself), and the repair templates changed their lines.
        let log = "---- tests::parses_years stdout ----\nthread 'tests::parses_years' panicked at src/date.rs:2:40:\nattempt to subtract with overflow\n";
        let t = tree(&[
            (
                "src/lib.rs",
                "mod date;\npub use date::parse_year;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn parses_years() {\n        assert_eq!(parse_year(\"1969\"), Ok(0));\n    }\n}\n",
            ),
            (
                "src/date.rs",
                "pub fn parse_year(s: &str) -> Result<u32, ()> {\n    s.parse::<u32>().map(|y| y - 1970).map_err(|_| ())\n}\n",
            ),
        ]);
        let failing = [FailingTest {
            id: "tests::parses_years".into(),
            file: Some("src/lib.rs".into()),
        }];
        let cx = failure_context(&t, &failing, log, &["src/lib.rs".to_string()], 2000);
        assert_eq!(cx.tests.len(), 1, "{cx:?}");
        assert_eq!(cx.frame_files, ["src/date.rs"]);
        let exercised: Vec<(&str, &str)> = cx
            .exercised
            .iter()
            .map(|e| (e.0.as_str(), e.1.as_str()))
            .collect();
        assert_eq!(exercised, [("src/date.rs", "parse_year")]);
    }

    #[test]
    fn a_rust_parse_in_a_test_exercises_the_types_from_str() {
        let log = "---- tests::parses_fractions stdout ----\nthread 'tests::parses_fractions' panicked at src/lib.rs:20:5:\nassertion failed\n";
        let t = tree(&[(
            "src/lib.rs",
            "pub struct Size(pub u64);\n\nimpl std::str::FromStr for Size {\n    type Err = String;\n    fn from_str(s: &str) -> Result<Self, String> {\n        s.parse().map(Size).map_err(|_| s.to_string())\n    }\n}\n\nimpl Size {\n    pub fn half(&self) -> u64 {\n        self.0 / 2\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn parses_fractions() {\n        assert_eq!(\"1.5\".parse::<Size>().unwrap().0, 1);\n    }\n}\n",
        )]);
        let failing = [FailingTest {
            id: "tests::parses_fractions".into(),
            file: Some("src/lib.rs".into()),
        }];
        let cx = failure_context(&t, &failing, log, &["src/lib.rs".to_string()], 2000);
        let names: Vec<&str> = cx.exercised.iter().map(|e| e.1.as_str()).collect();
        assert!(names.contains(&"Size::from_str"), "{names:?}");
        // A method of the type the test does not reach is not exercised.
        assert!(!names.contains(&"Size::half"), "{names:?}");
    }

    #[test]
    fn unittest_output_test_source_and_frames() {
        let log = "test_average (tests.test_stats.StatsTest.test_average) ... ok\n\
test_average_fraction (tests.test_stats.StatsTest.test_average_fraction) ... FAIL\n\
\n======================================================================\n\
FAIL: test_average_fraction (tests.test_stats.StatsTest.test_average_fraction)\n\
----------------------------------------------------------------------\n\
Traceback (most recent call last):\n\
  File \"/tmp/x/tests/test_stats.py\", line 8, in test_average_fraction\n\
    self.assertEqual(average([1, 2]), 1.5)\n\
AssertionError: 1 != 1.5\n\
\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n";
        let t = tree(&[
            (
                "tests/test_stats.py",
                "import unittest\nfrom calc.stats import average\n\nclass StatsTest(unittest.TestCase):\n    def test_average(self):\n        self.assertEqual(average([2, 2]), 2)\n\n    def test_average_fraction(self):\n        self.assertEqual(average([1, 2]), 1.5)\n",
            ),
            (
                "calc/stats.py",
                "def average(v):\n    return sum(v) // len(v)\n",
            ),
        ]);
        let failing = [FailingTest {
            id: "tests.test_stats.StatsTest.test_average_fraction".into(),
            file: Some("tests/test_stats.py".into()),
        }];
        let cx = failure_context(&t, &failing, log, &["calc/stats.py".to_string()], 2000);
        assert!(
            cx.output.contains("AssertionError: 1 != 1.5"),
            "{}",
            cx.output
        );
        assert!(!cx.output.contains("Traceback"), "{}", cx.output);
        assert!(!cx.output.contains("====="), "{}", cx.output);
        assert_eq!(cx.tests.len(), 1);
        assert_eq!(cx.tests[0].1, 8);
        assert!(cx.tests[0].2.contains("assertEqual(average([1, 2]), 1.5)"));
        assert_eq!(
            frame_paths(log, &t),
            vec!["tests/test_stats.py".to_string()]
        );
    }

    #[test]
    fn what_a_test_helper_calls_is_exercised() {
        let lib = "pub fn split(s: &str) -> Vec<String> {\n    vec![s.into()]\n}\n\npub fn join(w: &[String]) -> String {\n    w.concat()\n}\n";
        let tests = "use super::*;\n\nfn split_ok(cases: &[(&str, &[&str])]) {\n    for &(input, expected) in cases {\n        assert_eq!(split(input), expected);\n    }\n}\n\n#[test]\nfn split_trailing() {\n    split_ok(&[(\"a \", &[\"a\"])]);\n}\n";
        let t = tree(&[("src/lib.rs", lib), ("src/tests.rs", tests)]);
        let failing = [FailingTest {
            id: "tests::split_trailing".into(),
            file: Some("src/tests.rs".into()),
        }];
        let fc = failure_context(&t, &failing, "", &["src/lib.rs".to_string()], 1000);
        let names: Vec<&str> = fc.exercised.iter().map(|e| e.1.as_str()).collect();
        assert_eq!(names, ["split"], "join is not called");
        assert_eq!(
            fc.tests.len(),
            1,
            "the helper is not shown as a failing test"
        );
    }

    #[test]
    fn budget_cuts_whole_lines() {
        let log =
            "--- FAIL: TestX\n".to_string() + "    x_test.go:3: got 1 want 2 padding padding\n";
        let out = excerpt(&log, &["TestX".into()], 20);
        assert!(out.ends_with("cut ...]\n"), "{out}");
        assert!(
            out.lines()
                .all(|l| l == "--- FAIL: TestX" || l.starts_with("[..."))
        );
    }

    #[test]
    fn frames_of_rust_and_node() {
        let t = tree(&[("tests/stack.rs", "x"), ("src/slugify.js", "y")]);
        let log = "thread 'peek' panicked at tests/stack.rs:12:5:\n  at slugify (/home/u/repo/src/slugify.js:4:10)\n";
        assert_eq!(
            frame_paths(log, &t),
            vec!["tests/stack.rs".to_string(), "src/slugify.js".to_string()]
        );
    }

    #[test]
    fn pytest_failures_are_shown_once_without_the_summary_or_the_full_diff() {
        let log = "\
___________________________ test_last_partial_page ____________________________
    def test_last_partial_page():
        p = paginate(ITEMS, 10, per_page=10)
>       assert p.items == [91, 92, 93, 94, 95]
E       assert [81, 82, 83, 84, 85, 86, ...] == [91, 92, 93, 94, 95]
E
E         At index 0 diff: 81 != 91
E         Full diff: (-: missing in left side, +: extra in left side)
E           [
E         -     91,
E         +     81,
tests/test_pages.py:17: AssertionError
=========================== short test summary info ============================
FAILED tests/test_pages.py::test_last_partial_page - assert [81, 82, 83, 84, 85, 86, ...] == [91, 92, 93, 94, 95]
  At index 0 diff: 81 != 91
1 failed, 9 passed in 0.05s
";
        let got = excerpt(log, &["test_last_partial_page".to_string()], 4000);
        assert!(got.contains("E         At index 0 diff: 81 != 91"), "{got}");
        assert!(
            got.contains("tests/test_pages.py:17: AssertionError"),
            "{got}"
        );
        assert!(!got.contains("Full diff"), "{got}");
        assert!(!got.contains("-     91,"), "{got}");
        assert!(!got.contains("FAILED tests/"), "{got}");
        // Without the failure blocks (pytest -q --tb=no), the summary is all there is.
        let summary_only = &log[log.find("=====").unwrap()..];
        let got = excerpt(summary_only, &["test_last_partial_page".to_string()], 4000);
        assert!(
            got.contains("FAILED tests/test_pages.py::test_last_partial_page"),
            "{got}"
        );
    }

    #[test]
    fn a_test_with_a_long_parameter_table_is_shown_from_its_own_line() {
        let mut src = String::from(
            "import pytest\n\n\n@pytest.mark.parametrize(\n    \"args, expected\",\n    [\n",
        );
        for i in 0..60 {
            src.push_str(&format!("        ([{i}], \"{i}.00\"),\n"));
        }
        src.push_str("    ],\n)\ndef test_metric(args, expected):\n    assert humanize.metric(*args) == expected\n");
        let t = tree(&[("tests/test_number.py", &src)]);
        let (line, text) = function_source(&t, "tests/test_number.py", "test_metric").unwrap();
        assert!(
            text.starts_with("def test_metric(args, expected):"),
            "{text}"
        );
        assert!(text.contains("humanize.metric(*args)"), "{text}");
        assert_eq!(line, 69);
    }
}
