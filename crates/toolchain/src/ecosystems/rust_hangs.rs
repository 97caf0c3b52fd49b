//! Hanging Rust tests: libtest cannot cut a test on stable Rust, and it only warns `test X
//! has been running for over 60 seconds` (nextest: `SLOW [> 60.000s] bin X`). A bug that
//! loops forever would otherwise cost the whole suite limit.
//!
//! [`HangWatch`] reads `cargo test`'s output as it arrives. libtest prints a test's line when
//! the test finishes and starts another test only then, so while a test binary runs (from its
//! `running N tests` to its `test result:`) a quiet spell as long as the per-test limit means
//! that every test still running has run at least that long: the run is stopped there. The
//! tests it was running are read from the binary's own `--list` ([`unfinished_tests`]; this
//! assumes the whole suite ran, unfiltered, as the toolchain runs it). Doc-tests are left to
//! the warnings (each compiles before it runs), as is nextest (it prints nothing per passing
//! test here). A warned test stops the run once it has run past the per-test limit.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::process::{self, Watch};
use crate::{FailingTest, RepoFiles};

/// How long a test runs before libtest (and nextest, by default) says it is slow.
const LIBTEST_WARN_AFTER: Duration = Duration::from_secs(60);

/// How long listing a test binary's tests may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(20);

/// Stops `cargo test` at a test past the per-test limit: a quiet test binary or a slow-test
/// warning (see the module doc).
pub(super) struct HangWatch {
    per_test: Duration,
    /// Since when the running test binary has finished no test; `None` between binaries and
    /// in doc-tests.
    quiet_since: Option<Instant>,
    in_doctests: bool,
    /// When a slow-test warning's test passes the per-test limit.
    warned_stop: Option<Instant>,
}

impl HangWatch {
    pub(super) fn new(per_test: Duration) -> Self {
        Self {
            per_test,
            quiet_since: None,
            in_doctests: false,
            warned_stop: None,
        }
    }
}

impl Watch for HangWatch {
    fn line(&mut self, line: &str) {
        let l = line.trim();
        if hanging_test(l).is_some() {
            let at = Instant::now() + self.per_test.saturating_sub(LIBTEST_WARN_AFTER);
            self.warned_stop = Some(self.warned_stop.map_or(at, |w| w.min(at)));
        } else if l.starts_with("Doc-tests ") {
            self.in_doctests = true;
        } else if l.starts_with("Running ") {
            self.in_doctests = false;
        } else if let Some(rest) = l.strip_prefix("running ") {
            let tests = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok());
            if !self.in_doctests && tests.is_some_and(|n| n > 0) {
                self.quiet_since = Some(Instant::now());
            }
        } else if l.starts_with("test result: ") {
            self.quiet_since = None;
        } else if self.quiet_since.is_some() && finished_test(l).is_some() {
            self.quiet_since = Some(Instant::now());
        }
    }

    fn stop_at(&self) -> Option<Instant> {
        let quiet = self.quiet_since.map(|q| q + self.per_test);
        match (quiet, self.warned_stop) {
            (Some(q), Some(w)) => Some(q.min(w)),
            (q, w) => q.or(w),
        }
    }
}

/// The name of the test a libtest result line reports finished (`test X ... ok`).
fn finished_test(l: &str) -> Option<&str> {
    let (name, verdict) = l.strip_prefix("test ")?.rsplit_once(" ... ")?;
    (!verdict.trim().is_empty()).then_some(name)
}

/// The test a slow-test warning names: libtest's `test X has been running for over 60
/// seconds` (the name) or nextest's `SLOW [> 60.000s] binary-id X` (`binary-id X`).
pub(super) fn hanging_test(l: &str) -> Option<String> {
    if let Some(rest) = l.strip_prefix("test ")
        && let Some((name, _)) = rest.split_once(" has been running for over ")
    {
        return Some(name.trim().to_string());
    }
    let rest = l.strip_prefix("SLOW [")?;
    let (_, after) = rest.split_once(']')?;
    let id = after.trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// The tests the output warns about as slow and never reports finished, with the test file
/// of the `Running` section they are in.
pub(super) fn hanging_tests(text: &str) -> Vec<FailingTest> {
    let mut current_file: Option<String> = None;
    let mut found: Vec<FailingTest> = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some((file, _)) = running_section(l) {
            current_file = Some(file.to_string());
        } else if let Some(id) = hanging_test(l) {
            if !found.iter().any(|f| f.id == id) {
                let file = current_file.clone().filter(|_| !l.starts_with("SLOW"));
                found.push(FailingTest { id, file });
            }
        } else if let Some(name) = finished_test(l) {
            found.retain(|f| f.id != name);
        } else if let Some((status, rest)) = l.split_once(" [")
            && matches!(status, "PASS" | "FAIL" | "TIMEOUT")
            && let Some((_, after)) = rest.split_once(']')
        {
            let after = after.trim_start();
            let after = match after.strip_prefix('(') {
                Some(r) => r.split_once(')').map_or(r, |(_, x)| x).trim_start(),
                None => after,
            };
            found.retain(|f| f.id != after.trim());
        }
    }
    found
}

/// A cargo `Running` line's test file and binary: `Running unittests src/lib.rs
/// (target/debug/deps/calc-1)` or `Running tests/calc.rs (target/debug/deps/calc-2)`.
fn running_section(l: &str) -> Option<(&str, Option<&str>)> {
    let rest = l.strip_prefix("Running ")?;
    let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
    let (file, binary) = match rest.split_once(" (") {
        Some((file, b)) => (file, b.strip_suffix(')')),
        None => (rest, None),
    };
    Some((file.trim(), binary.map(str::trim)))
}

/// The tests the last test binary the output shows running was running when the run was
/// cut, with the binary's test file. libtest starts its tests in name order (the order of its
/// `--list`), as many at once as it has threads and one more each time one finishes: the
/// tests running are those of the first `finished + threads` listed that did not finish. Empty
/// when that binary reported its result or cannot list its tests.
pub(super) fn unfinished_tests(files: &RepoFiles, text: &str) -> Vec<FailingTest> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let Some(start) = lines.iter().rposition(|l| running_section(l).is_some()) else {
        return Vec::new();
    };
    let section = &lines[start..];
    if section.iter().any(|l| l.starts_with("test result: ")) {
        return Vec::new();
    }
    let Some((file, Some(binary))) = running_section(section[0]) else {
        return Vec::new();
    };
    let finished: Vec<&str> = section.iter().filter_map(|l| finished_test(l)).collect();
    listed_tests(&files.root, binary)
        .into_iter()
        .take(finished.len() + test_threads())
        .filter(|name| !finished.contains(&name.as_str()))
        .map(|id| FailingTest {
            id,
            file: Some(file.to_string()),
        })
        .collect()
}

/// How many tests libtest runs at once here: `RUST_TEST_THREADS`, else the available
/// parallelism (libtest's own default).
fn test_threads() -> usize {
    std::env::var("RUST_TEST_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The tests a libtest binary lists (`name: test` lines of `--list`), run from `root`.
fn listed_tests(root: &Path, binary: &str) -> Vec<String> {
    let path = root.join(binary);
    let Some(program) = path.to_str() else {
        return Vec::new();
    };
    let out = process::run(program, &["--list"], root, &[], LIST_TIMEOUT);
    if !out.success() {
        return Vec::new();
    }
    out.stdout
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `lines` to a watch with a per-test limit of an hour.
    fn watched(lines: &[&str]) -> HangWatch {
        let mut w = HangWatch::new(Duration::from_secs(3600));
        for l in lines {
            w.line(l);
        }
        w
    }

    #[test]
    fn a_running_test_binary_is_watched_until_its_result() {
        let running = [
            "     Running tests/calc.rs (target/debug/deps/calc-2)",
            "running 3 tests",
        ];
        let w = watched(&running);
        assert!(w.stop_at().is_some());
        let first = w.stop_at().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let w = watched(&[running[0], running[1], "test adds ... ok"]);
        assert!(
            w.stop_at().unwrap() > first,
            "a finished test restarts the quiet spell"
        );
        let done = watched(&[
            running[0],
            running[1],
            "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
        ]);
        assert_eq!(done.stop_at(), None);
        assert_eq!(watched(&["running 0 tests"]).stop_at(), None);
        let doc = watched(&["   Doc-tests calc", "running 2 tests"]);
        assert_eq!(doc.stop_at(), None, "doc-tests compile as they run");
    }

    #[test]
    fn a_slow_test_warning_stops_the_run_at_the_limit() {
        let mut w = HangWatch::new(Duration::from_secs(5));
        w.line("test hangs has been running for over 60 seconds");
        assert!(
            w.stop_at().unwrap() <= Instant::now(),
            "60 s already passed 5 s"
        );
    }

    #[test]
    fn the_running_line_names_file_and_binary() {
        assert_eq!(
            running_section("Running unittests src/lib.rs (target/debug/deps/calc-1)"),
            Some(("src/lib.rs", Some("target/debug/deps/calc-1")))
        );
        assert_eq!(
            running_section("Running tests/calc.rs"),
            Some(("tests/calc.rs", None))
        );
        assert_eq!(finished_test("test x ... ok"), Some("x"));
        assert_eq!(
            finished_test("test x has been running for over 60 seconds"),
            None
        );
    }

    #[test]
    fn slow_test_warnings_name_the_hanging_tests() {
        // `cargo test` output when a test loops (libtest warns after 60 s) and the run is cut.
        let text = "\
     Running unittests src/lib.rs (target/debug/deps/calc-1)
running 1 test
test unit_ok ... ok
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
     Running tests/calc.rs (target/debug/deps/calc-2)
running 4 tests
test adds ... ok
test wrong ... FAILED
test hangs has been running for over 60 seconds
test slow has been running for over 60 seconds
test slow ... ok";
        let hangs = hanging_tests(text);
        assert_eq!(
            hangs,
            [FailingTest {
                id: "hangs".into(),
                file: Some("tests/calc.rs".into())
            }]
        );
        let nextest =
            "        SLOW [> 60.000s] calc::calc hangs\n        PASS [   0.010s] calc::calc adds";
        assert_eq!(hanging_tests(nextest)[0].id, "calc::calc hangs");
        assert_eq!(hanging_test("test x ... ok"), None);
    }
}
