//! Which lines of the project each test ran, and whether it passed: the spectrum of
//! spectrum-based fault localisation.
//!
//! A line that the failing tests run and the passing tests do not is where a bug most likely
//! sits ([`Spectrum::suspicion`], the Ochiai score of the fault-localisation literature). A
//! test that only *mentions* a function says less: a test calls `Parse` and asserts on `Get`,
//! the bug is in `parseValue` that `Parse` calls; only running the tests shows it.
//!
//! Each ecosystem that can record per-test coverage with what its toolchain ships implements
//! [`crate::Ecosystem::coverage`]: Python (a trace function inside pytest), Go (`go test
//! -cover`, one run per test), Node (`node --test` with a preloaded recorder of V8's precise
//! coverage), Ruby (Minitest with the `coverage` library) and Rust (`cargo test` over a copy
//! whose statements report themselves: `rustc`'s own coverage needs `llvm-tools` matching the
//! compiler). The other runners (unittest, Jest, RSpec) return `None`: callers
//! fall back on what the tests' source says.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One test's coverage.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct TestCoverage {
    /// The runner's id of the test.
    pub id: String,
    /// It passed.
    pub passed: bool,
    /// Lines it ran (1-based), by path relative to the repository root.
    pub lines: BTreeMap<String, BTreeSet<u32>>,
}

/// The per-test coverage of a suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spectrum {
    /// Every test the recording ran, in its order.
    pub tests: Vec<TestCoverage>,
}

impl Spectrum {
    /// The tests a recorder inside a runner wrote as JSON (the Python and Ruby ones):
    /// `[{"id": "...", "passed": true, "lines": {"path/rel.py": [3, 4]}}]`.
    pub fn from_recorded_json(text: &str) -> Option<Spectrum> {
        let tests: Vec<TestCoverage> = serde_json::from_str(text).ok()?;
        Some(Spectrum { tests })
    }

    /// The spectrum holds at least one failing test that ran a line of the project: without
    /// one it says nothing about where a bug is.
    pub fn localises(&self) -> bool {
        self.tests
            .iter()
            .any(|t| !t.passed && t.lines.values().any(|l| !l.is_empty()))
    }

    /// The Ochiai suspicion of every line a failing test ran, by path and line:
    /// `failed(line) / sqrt(total_failed * (failed(line) + passed(line)))`. 1 for a line every
    /// failing test runs and no passing one; lower the more passing tests run it too.
    pub fn suspicion(&self) -> BTreeMap<(String, u32), f64> {
        let total_failed = self.tests.iter().filter(|t| !t.passed).count();
        if total_failed == 0 {
            return BTreeMap::new();
        }
        let mut counts: BTreeMap<(String, u32), (u32, u32)> = BTreeMap::new();
        for test in &self.tests {
            for (path, lines) in &test.lines {
                // Line 0 is no line of the file: Python reports it for the module's own code
                // object (an empty `__init__.py` "runs" line 0).
                for &line in lines.iter().filter(|&&l| l > 0) {
                    let c = counts.entry((path.clone(), line)).or_default();
                    if test.passed {
                        c.1 += 1;
                    } else {
                        c.0 += 1;
                    }
                }
            }
        }
        counts
            .into_iter()
            .filter(|(_, (failed, _))| *failed > 0)
            .map(|(key, (failed, passed))| {
                (key, ochiai(failed as usize, passed as usize, total_failed))
            })
            .collect()
    }

    /// The lines of `path` some passing test ran and no failing one: a one-token change
    /// there cannot change what a failing test does (its suspicion is 0, not unknown, as for
    /// a line no test ran).
    pub fn run_by_passing_only(&self, path: &str) -> BTreeSet<u32> {
        let lines = |passed: bool| {
            self.tests
                .iter()
                .filter(move |t| t.passed == passed)
                .filter_map(move |t| t.lines.get(path))
                .flatten()
                .copied()
                .collect::<BTreeSet<u32>>()
        };
        let failing = lines(false);
        lines(true)
            .into_iter()
            .filter(|l| !failing.contains(l))
            .collect()
    }
}

/// The Ochiai score of an element (a line, a function) that `failed` failing and `passed`
/// passing tests ran, out of `total_failed` failing tests:
/// `failed / sqrt(total_failed * (failed + passed))`; 0 when no failing test ran it.
pub fn ochiai(failed: usize, passed: usize, total_failed: usize) -> f64 {
    if failed == 0 || total_failed == 0 {
        return 0.0;
    }
    failed as f64 / (total_failed as f64 * (failed + passed) as f64).sqrt()
}

/// A fresh directory under the system's temporary directory for one recording's files
/// (binaries, profiles, JSON), removed with everything in it when dropped.
pub(crate) struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `slopguard-<kind>-<pid>-<n>`, created; `None` when it cannot be.
    pub(crate) fn new(kind: &str) -> Option<ScratchDir> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "slopguard-{kind}-{}-{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).ok()?;
        Some(ScratchDir(dir))
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reads a Go cover profile (`go test -coverprofile`): the lines of every block that ran,
/// by path relative to the module root. Blocks name their file by import path
/// (`example.com/ini/ini.go:99.2,101.3 2 1`); `module` is the module path of `go.mod`. Files
/// outside the module are left out.
pub fn read_go_profile(profile: &str, module: &str) -> BTreeMap<String, BTreeSet<u32>> {
    let mut lines: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    let prefix = format!("{module}/");
    for line in profile.lines().filter(|l| !l.starts_with("mode:")) {
        let Some((location, counts)) = line.rsplit_once(':') else {
            continue;
        };
        let mut fields = counts.split_whitespace();
        let (Some(range), Some(_statements), Some(count)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if count.parse::<u64>().map_or(true, |c| c == 0) {
            continue;
        }
        let Some(path) = location.strip_prefix(&prefix) else {
            continue;
        };
        let Some((start, end)) = range.split_once(',') else {
            continue;
        };
        let line_of = |pos: &str| pos.split('.').next().and_then(|l| l.parse::<u32>().ok());
        let (Some(start), Some(end)) = (line_of(start), line_of(end)) else {
            continue;
        };
        if end >= start && end - start < 10_000 {
            lines
                .entry(path.to_string())
                .or_default()
                .extend(start..=end);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(id: &str, passed: bool, lines: &[(&str, &[u32])]) -> TestCoverage {
        TestCoverage {
            id: id.into(),
            passed,
            lines: lines
                .iter()
                .map(|(p, l)| (p.to_string(), l.iter().copied().collect()))
                .collect(),
        }
    }

    #[test]
    fn a_line_only_the_failing_test_runs_is_the_most_suspect() {
        let spectrum = Spectrum {
            tests: vec![
                test(
                    "fails",
                    false,
                    &[("ini.go", &[10, 11, 20, 30]), ("__init__.py", &[0])],
                ),
                test("passes_a", true, &[("ini.go", &[10, 11, 30])]),
                test("passes_b", true, &[("ini.go", &[10, 30])]),
            ],
        };
        assert!(spectrum.localises());
        let s = spectrum.suspicion();
        let at = |l: u32| s[&("ini.go".to_string(), l)];
        assert!((at(20) - 1.0).abs() < 1e-9);
        assert!(at(11) > at(10));
        assert!((at(10) - at(30)).abs() < 1e-9);
        assert!(at(10) < at(20));
        // Lines no failing test ran get no score, nor does line 0 (no line of the file).
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn lines_only_passing_tests_ran_are_cleared() {
        let spectrum = Spectrum {
            tests: vec![
                test("fails", false, &[("a.py", &[1, 2, 5])]),
                test("passes", true, &[("a.py", &[1, 3, 4]), ("b.py", &[7])]),
            ],
        };
        assert_eq!(spectrum.run_by_passing_only("a.py"), BTreeSet::from([3, 4]));
        assert_eq!(spectrum.run_by_passing_only("b.py"), BTreeSet::from([7]));
        assert!(spectrum.run_by_passing_only("c.py").is_empty());
    }

    #[test]
    fn without_a_failing_test_nothing_is_suspect() {
        let spectrum = Spectrum {
            tests: vec![test("passes", true, &[("a.py", &[1, 2])])],
        };
        assert!(!spectrum.localises());
        assert!(spectrum.suspicion().is_empty());
    }

    #[test]
    fn go_profiles_name_module_files_and_skip_blocks_that_did_not_run() {
        let profile = "mode: set\n\
            example.com/ini/ini.go:99.2,101.3 2 1\n\
            example.com/ini/ini.go:102.5,102.20 1 0\n\
            example.com/ini/sub/x.go:7.1,7.30 1 1\n\
            golang.org/x/other/y.go:1.1,3.2 1 1\n";
        let lines = read_go_profile(profile, "example.com/ini");
        assert_eq!(
            lines
                .get("ini.go")
                .map(|l| l.iter().copied().collect::<Vec<_>>()),
            Some(vec![99, 100, 101])
        );
        assert_eq!(lines.get("sub/x.go").map(BTreeSet::len), Some(1));
        assert_eq!(lines.len(), 2);
    }
}
