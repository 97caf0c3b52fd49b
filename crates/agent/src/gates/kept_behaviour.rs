//! kept-behaviour: a fix that makes the failing tests pass must leave what the passing tests
//! do as it was.
//!
//! A repair that passes every test can still be wrong: `<` flipped to `!=` instead of `<=`,
//! another index, another variable. The tests that failed pass either way; what tells the two
//! apart is the tests that passed before. They passed with the bug, so the bug did not touch
//! what they check, and a right fix changes nothing on their path: they run the same lines
//! after the fix as before it. A wrong fix that happens to satisfy the failing tests usually
//! sends some passing test down another branch (the patch-correctness heuristic of Xiong et al.,
//! "Identifying Patch Correctness in Test-Based Program Repair", ICSE 2018: correct patches
//! keep passing tests' behaviour, overfitting ones change it).
//!
//! The gate records each test's lines again on the written worktree (the same per-test
//! coverage that localised the bug; twice when a test shifted, and the baseline once more at
//! the first shift of a subtask, so that a test whose lines vary from run to run, with random
//! inputs, is not taken for a shift) and compares, for every test that passed at the baseline,
//! the lines it ran outside the patch's own changed lines, mapped through the patch. A test
//! whose set differs is named with the first line it now runs or no longer runs, and the
//! candidate is refused. Lines the patch itself changed or added are left out, so a new guard
//! clause every test passes through is free; tests that failed at the baseline are what the
//! fix is for and are not compared. Where no runner records per-test coverage (unittest, Jest,
//! RSpec), or the suite is too slow to run again, the gate is skipped.
//!
//! A change to Rust files only is not judged ([`UNCALIBRATED`]): Rust's recording (probes in
//! an instrumented copy) localises well, but on the corpus's 11 real Rust fixes
//! (`scripts/bench/kept-behaviour-probe.py`, development half and tuning pool) the gate refused
//! 3 right fixes, each a passing test of a bad input that, once the bug is fixed, fails at
//! another check (`test_parse_bad_date` now reaches the weekday check), against 0 of 49 right
//! fixes in the other languages.

use std::collections::{BTreeMap, BTreeSet};

use std::path::Path;

use slopguard_change::{ChangeSet, FileChange};
use slopguard_toolchain::{RepoFiles, Spectrum, TestLimits};

use super::{Phase, Rejection, RejectionFinding};

/// The gate's slug.
pub const SLUG: &str = "kept-behaviour";

/// Most shifted tests named in a refusal.
const MAX_NAMED: usize = 3;

/// A test that passed at the baseline and runs other lines with the patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// The runner's id of the test.
    pub test: String,
    /// Which test of that id (1 for the first): ids repeat across `describe` blocks.
    pub occurrence: usize,
    /// The first line (in the patched file's numbering) it ran only with the patch.
    pub now_runs: Option<(String, u32)>,
    /// The first line (in the patched file's numbering) it ran only without the patch.
    pub no_longer_runs: Option<(String, u32)>,
}

/// Where each line of one file went through a patch: the unchanged lines by their old number
/// to their new one; changed, deleted and added lines are absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMap {
    /// Old line (1-based) to new line (1-based), for the lines the patch kept.
    kept: BTreeMap<u32, u32>,
    /// New lines (1-based) the patch kept (the values of `kept`).
    kept_new: BTreeSet<u32>,
}

impl LineMap {
    /// The map of `before` to `after` by a line diff.
    pub fn between(before: &str, after: &str) -> LineMap {
        let diff = similar::TextDiff::from_lines(before, after);
        let mut map = LineMap::default();
        for op in diff.ops() {
            if let similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = *op
            {
                for k in 0..len {
                    let (old, new) = (line_number(old_index + k), line_number(new_index + k));
                    map.kept.insert(old, new);
                    map.kept_new.insert(new);
                }
            }
        }
        map
    }
}

/// A 0-based index as a 1-based line number.
fn line_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// The tests that passed in `before` (the baseline's per-test coverage) and ran other lines in
/// `after` (the same suite on the patched tree), comparing only lines the patch kept.
/// `changes` are the patch's files; other files compare line for line. A test missing from
/// either recording is not compared.
pub fn shifted_tests(before: &Spectrum, after: &Spectrum, changes: &[FileChange]) -> Vec<Shift> {
    let maps: BTreeMap<&str, LineMap> = changes
        .iter()
        .map(|c| {
            (
                c.path.as_str(),
                LineMap::between(&lossy(&c.before), &lossy(&c.after)),
            )
        })
        .collect();
    let after_by_id = by_occurrence(after);
    let mut shifted = Vec::new();
    for (key, old) in by_occurrence(before) {
        if !old.passed {
            continue;
        }
        let Some(new) = after_by_id.get(&key) else {
            continue;
        };
        let was = kept_lines(&old.lines, &maps, Side::Before);
        let now = kept_lines(&new.lines, &maps, Side::After);
        if was != now {
            shifted.push(Shift {
                test: old.id.clone(),
                occurrence: key.1,
                now_runs: now.difference(&was).next().cloned(),
                no_longer_runs: was.difference(&now).next().cloned(),
            });
        }
    }
    shifted
}

/// A file version as text (invalid UTF-8 replaced; empty when the file is absent on that side).
fn lossy(bytes: &Option<Vec<u8>>) -> std::borrow::Cow<'_, str> {
    bytes
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default()
}

/// The tests of a recording by id and occurrence: two tests may share an id (`it('parses')`
/// under two `describe`s), and both recordings run them in the same order, so the second
/// `parses` of one is the second of the other.
fn by_occurrence(
    spectrum: &Spectrum,
) -> BTreeMap<(&str, usize), &slopguard_toolchain::TestCoverage> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    spectrum
        .tests
        .iter()
        .map(|t| {
            let n = seen.entry(t.id.as_str()).or_default();
            *n += 1;
            ((t.id.as_str(), *n), t)
        })
        .collect()
}

/// Which recording a set of lines comes from.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// The lines a test ran that the patch kept, in the patched numbering (line 0, no line of any
/// file, left out).
fn kept_lines(
    lines: &BTreeMap<String, BTreeSet<u32>>,
    maps: &BTreeMap<&str, LineMap>,
    side: Side,
) -> BTreeSet<(String, u32)> {
    let mut out = BTreeSet::new();
    for (path, ran) in lines {
        let map = maps.get(path.as_str());
        for &line in ran.iter().filter(|&&l| l > 0) {
            let kept = match (map, side) {
                (None, _) => Some(line),
                (Some(m), Side::Before) => m.kept.get(&line).copied(),
                (Some(m), Side::After) => m.kept_new.contains(&line).then_some(line),
            };
            if let Some(l) = kept {
                out.insert((path.clone(), l));
            }
        }
    }
    out
}

/// Records each test's lines on `worktree` (the candidate written) and refuses `change` when a
/// test that passed in `baseline` runs other lines. `None` when none does, or when the suite
/// could not be recorded again (the gate is then skipped). `baseline_again` is the baseline
/// recorded a second time, asked for only when a shift is confirmed (the caller keeps it for
/// the subtask's later candidates): a test whose two baseline recordings differ is noise.
pub fn check<'a>(
    worktree: &Path,
    baseline: &Spectrum,
    change: &ChangeSet,
    limits: &TestLimits,
    baseline_again: impl FnOnce() -> Option<&'a Spectrum>,
) -> Option<Rejection> {
    if !judged(&change.changes) {
        return None;
    }
    let record = || slopguard_toolchain::per_test_coverage(&RepoFiles::walk(worktree), limits);
    let shifted = confirmed_shifts(baseline, &change.changes, record);
    if shifted.is_empty() {
        return None;
    }
    refusal(&steady_at_baseline(shifted, baseline, baseline_again()))
}

/// The shifts of tests that ran the same lines in both recordings of the baseline (`baseline`
/// and `again`); all of them when there is no second recording. The after-side check of
/// [`confirmed_shifts`] misses a test whose random inputs reach a rare line: both recordings
/// of the patched tree may agree with each other and differ from the baseline's only by
/// chance. A second baseline that differs from the first says the test is noisy.
pub fn steady_at_baseline(
    shifted: Vec<Shift>,
    baseline: &Spectrum,
    again: Option<&Spectrum>,
) -> Vec<Shift> {
    match again {
        Some(again) => ran_the_same_lines(shifted, baseline, again),
        None => shifted,
    }
}

/// The shifts of tests that ran the same lines in recordings `first` and `second` of one tree.
fn ran_the_same_lines(shifted: Vec<Shift>, first: &Spectrum, second: &Spectrum) -> Vec<Shift> {
    let (first, second) = (by_occurrence(first), by_occurrence(second));
    shifted
        .into_iter()
        .filter(|s| {
            let key = (s.test.as_str(), s.occurrence);
            matches!((first.get(&key), second.get(&key)), (Some(a), Some(b)) if a.lines == b.lines)
        })
        .collect()
}

/// Extensions of the files whose changes the gate does not judge: its refusals of right fixes
/// there are not rare (see the module's doc).
pub const UNCALIBRATED: &[&str] = &["rs"];

/// Whether the gate judges `changes`: some changed file is outside [`UNCALIBRATED`].
pub fn judged(changes: &[FileChange]) -> bool {
    changes
        .iter()
        .any(|c| !UNCALIBRATED.contains(&slopguard_toolchain::extension(&c.path)))
}

/// The tests that ran other lines with the patch than at `baseline`, from `record` (the
/// suite recorded on the patched tree). A test whose lines differ from one recording to the
/// next says nothing about the patch (random inputs, `testing/quick`, timing): when a test
/// shifted, the patched tree is recorded once more and only the tests that ran the same lines
/// both times count. Empty when the first recording fails.
pub fn confirmed_shifts(
    baseline: &Spectrum,
    changes: &[FileChange],
    mut record: impl FnMut() -> Option<Spectrum>,
) -> Vec<Shift> {
    let Some(after) = record() else {
        return Vec::new();
    };
    let shifted = shifted_tests(baseline, &after, changes);
    if shifted.is_empty() {
        return shifted;
    }
    match record() {
        Some(again) => ran_the_same_lines(shifted, &after, &again),
        None => shifted,
    }
}

/// The refusal naming the shifted tests; `None` when there are none.
pub fn refusal(shifted: &[Shift]) -> Option<Rejection> {
    if shifted.is_empty() {
        return None;
    }
    let mut findings: Vec<RejectionFinding> = shifted
        .iter()
        .take(MAX_NAMED)
        .map(|s| {
            let what = match (&s.now_runs, &s.no_longer_runs) {
                (Some((p, l)), _) => format!("now runs {p}:{l}"),
                (None, Some((p, l))) => format!("no longer runs {p}:{l}"),
                (None, None) => "runs other lines".to_string(),
            };
            RejectionFinding {
                path: s
                    .now_runs
                    .as_ref()
                    .or(s.no_longer_runs.as_ref())
                    .map(|(p, _)| p.clone()),
                message: format!(
                    "{} passed before the fix and {what}: the fix changes what passing tests do, \
                     so it is probably not the bug's fix (look again at the failing test's case)",
                    s.test
                ),
                data: serde_json::json!({"test": s.test}),
            }
        })
        .collect();
    if shifted.len() > MAX_NAMED {
        findings.push(RejectionFinding {
            message: format!(
                "and {} more passing tests run other lines",
                shifted.len() - MAX_NAMED
            ),
            ..Default::default()
        });
    }
    Some(Rejection::new(SLUG, Phase::Dynamic, findings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_toolchain::TestCoverage;

    fn test(id: &str, passed: bool, path: &str, lines: &[u32]) -> TestCoverage {
        TestCoverage {
            id: id.into(),
            passed,
            lines: BTreeMap::from([(path.to_string(), lines.iter().copied().collect())]),
        }
    }

    fn spectrum(tests: Vec<TestCoverage>) -> Spectrum {
        Spectrum { tests }
    }

    const BUGGY: &str = "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n";

    #[test]
    fn a_fix_that_keeps_the_passing_tests_path_passes() {
        // `x > hi` was the bug's line (say it read `x >= hi`); the passing test never went
        // past line 3, the failing one now returns at line 5.
        let fixed = BUGGY.replace("x > hi", "x >= hi");
        let change = FileChange::modify("m.py", BUGGY, fixed.as_str());
        let before = spectrum(vec![
            test("t_low", true, "m.py", &[1, 2, 3]),
            test("t_high", false, "m.py", &[1, 2, 4, 6]),
        ]);
        let after = spectrum(vec![
            test("t_low", true, "m.py", &[1, 2, 3]),
            test("t_high", true, "m.py", &[1, 2, 4, 5]),
        ]);
        assert!(shifted_tests(&before, &after, &[change]).is_empty());
    }

    #[test]
    fn a_fix_that_sends_a_passing_test_down_another_branch_is_named() {
        let fixed = BUGGY.replace("x < lo", "x != lo");
        let change = FileChange::modify("m.py", BUGGY, fixed.as_str());
        let before = spectrum(vec![test("t_mid", true, "m.py", &[1, 2, 4, 6])]);
        let after = spectrum(vec![test("t_mid", true, "m.py", &[1, 2, 3])]);
        let shifted = shifted_tests(&before, &after, &[change]);
        assert_eq!(shifted.len(), 1);
        assert_eq!(shifted[0].test, "t_mid");
        assert_eq!(shifted[0].now_runs, Some(("m.py".into(), 3)));
        assert_eq!(shifted[0].no_longer_runs, Some(("m.py".into(), 4)));
        let refusal = refusal(&shifted).expect("refused");
        assert_eq!(refusal.gate, SLUG);
        assert!(
            refusal
                .text()
                .contains("t_mid passed before the fix and now runs m.py:3")
        );
    }

    #[test]
    fn lines_the_patch_adds_are_not_compared_and_kept_lines_follow_their_new_numbers() {
        // A guard clause added at the top: every test runs it, and every later line moves
        // down by two.
        let fixed = BUGGY.replace(
            "def clamp(x, lo, hi):\n",
            "def clamp(x, lo, hi):\n    if lo > hi:\n        raise ValueError\n",
        );
        let change = FileChange::modify("m.py", BUGGY, fixed.as_str());
        let before = spectrum(vec![test("t_low", true, "m.py", &[1, 2, 3])]);
        let after = spectrum(vec![test("t_low", true, "m.py", &[1, 2, 4, 5])]);
        assert!(shifted_tests(&before, &after, &[change]).is_empty());
    }

    #[test]
    fn other_files_compare_line_for_line_and_failing_or_missing_tests_are_skipped() {
        let change = FileChange::modify("m.py", BUGGY, BUGGY.replace("x < lo", "x <= lo"));
        let before = spectrum(vec![
            test("t_other", true, "util.py", &[5, 6]),
            test("t_failing", false, "util.py", &[5]),
            test("t_gone", true, "util.py", &[5]),
        ]);
        let after = spectrum(vec![
            test("t_other", true, "util.py", &[5, 7]),
            test("t_failing", true, "util.py", &[5, 9]),
        ]);
        let shifted = shifted_tests(&before, &after, &[change]);
        assert_eq!(
            shifted,
            vec![Shift {
                test: "t_other".into(),
                occurrence: 1,
                now_runs: Some(("util.py".into(), 7)),
                no_longer_runs: Some(("util.py".into(), 6)),
            }]
        );
    }

    #[test]
    fn tests_that_share_an_id_are_paired_in_their_order() {
        let change = FileChange::modify("m.py", BUGGY, BUGGY.replace("x < lo", "x <= lo"));
        let twice = || {
            spectrum(vec![
                test("parses", true, "util.py", &[5, 6]),
                test("parses", true, "util.py", &[5, 7]),
            ])
        };
        assert!(shifted_tests(&twice(), &twice(), &[change]).is_empty());
    }

    #[test]
    fn a_shift_counts_only_when_a_second_recording_of_the_fix_repeats_it() {
        let change = FileChange::modify("m.py", BUGGY, BUGGY.replace("x < lo", "x <= lo"));
        let before = spectrum(vec![
            test("t_steady", true, "util.py", &[5, 6]),
            test("t_random", true, "util.py", &[5, 6]),
        ]);
        let mut recordings = vec![
            spectrum(vec![
                test("t_steady", true, "util.py", &[5, 7]),
                test("t_random", true, "util.py", &[5, 9]),
            ]),
            spectrum(vec![
                test("t_steady", true, "util.py", &[5, 7]),
                test("t_random", true, "util.py", &[5, 8]),
            ]),
        ]
        .into_iter();
        let shifted = confirmed_shifts(&before, &[change], || recordings.next());
        let tests: Vec<&str> = shifted.iter().map(|s| s.test.as_str()).collect();
        assert_eq!(tests, ["t_steady"]);
    }

    #[test]
    fn a_shift_of_a_test_whose_baseline_recordings_differ_is_noise() {
        // Both recordings of the fix agree (a rare line reached twice by chance); a second
        // recording of the baseline reaches it too, so the test's lines vary by themselves.
        let change = FileChange::modify("m.py", BUGGY, BUGGY.replace("x < lo", "x <= lo"));
        let before = spectrum(vec![
            test("t_steady", true, "util.py", &[5, 6]),
            test("t_random", true, "util.py", &[5, 6]),
        ]);
        let after = spectrum(vec![
            test("t_steady", true, "util.py", &[5, 7]),
            test("t_random", true, "util.py", &[5, 6, 9]),
        ]);
        let shifted = confirmed_shifts(&before, &[change], || Some(after.clone()));
        assert_eq!(shifted.len(), 2, "both recordings of the fix agree");
        let again = spectrum(vec![
            test("t_steady", true, "util.py", &[5, 6]),
            test("t_random", true, "util.py", &[5, 6, 9]),
        ]);
        let kept = steady_at_baseline(shifted.clone(), &before, Some(&again));
        let tests: Vec<&str> = kept.iter().map(|s| s.test.as_str()).collect();
        assert_eq!(tests, ["t_steady"]);
        assert_eq!(steady_at_baseline(shifted, &before, None).len(), 2);
    }

    #[test]
    fn a_change_to_rust_files_only_is_not_judged() {
        let change = |path: &str| FileChange::modify(path, "a\n", "b\n");
        assert!(!judged(&[change("src/date.rs")]));
        assert!(judged(&[change("src/date.rs"), change("calc.py")]));
        assert!(judged(&[change("calc.py")]));
    }

    #[test]
    fn the_line_map_keeps_equal_lines_only() {
        let map = LineMap::between("a\nb\nc\n", "a\nx\ny\nc\n");
        assert_eq!(map.kept.get(&1), Some(&1));
        assert_eq!(map.kept.get(&2), None);
        assert_eq!(map.kept.get(&3), Some(&4));
        assert!(!map.kept_new.contains(&2) && !map.kept_new.contains(&3));
    }
}
