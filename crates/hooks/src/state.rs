//! Per-session state and the pure decisions over it: the doom-loop counter, the evidence
//! ledger and the verification gate at stop.
//!
//! The state is plain serde data, stored as JSON in the store's hook session row and updated
//! atomically by each hook process (see [`crate::store`]). Every function here is pure over
//! `&mut SessionState` and its arguments, so the whole policy is unit-testable.

use std::collections::BTreeMap;

use crate::counts::TestCounts;
use crate::goal::Goal;
use crate::validation::Detection;

/// Default number of edits of one file that triggers the doom-loop nudge.
pub const DEFAULT_DOOM_LOOP_THRESHOLD: u32 = 7;
/// Most evidence entries kept in the session state (older ones stay in the store's ledger).
pub const MAX_EVIDENCE: usize = 64;

/// Everything the hooks remember about one agent session.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SessionState {
    /// Per-file edit tracking, keyed by repository-relative path.
    pub files: BTreeMap<String, FileState>,
    /// Number of edits recorded in the session (all files).
    pub edits: u64,
    /// Validation runs, oldest first (at most [`MAX_EVIDENCE`]).
    pub evidence: Vec<Evidence>,
    /// Sequence number of the next evidence entry.
    pub next_seq: u64,
    /// Signature of the last known failing-test set (doom-loop progress marker).
    pub failing_signature: Option<String>,
    /// Stop blocks since the last stop that was not a hook-forced continuation.
    pub stop_blocks: u32,
    /// Stops let through by the escape hatch (for the record).
    pub escapes: u32,
}

/// Edit tracking for one file.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FileState {
    /// Edits since the last progress reset.
    pub count: u32,
    /// Edits in the whole session.
    pub total: u32,
    /// The doom-loop nudge was given (once per file per session).
    pub nudged: bool,
    /// Signature of the last guard verdict on this file.
    pub guard_signature: Option<String>,
}

/// One validation run in the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Evidence {
    /// Order within the session.
    pub seq: u64,
    /// The command line as run.
    pub command: String,
    /// Runners recognised in it (`cargo test`, `pytest`, ...).
    pub runners: Vec<String>,
    /// Exit code, when known.
    pub exit_code: Option<i64>,
    /// Test counts read from the output, when recognisable.
    pub counts: Option<TestCounts>,
    /// Names of tests reported passing.
    pub passed_tests: Vec<String>,
    /// Names of tests reported failing.
    pub failed_tests: Vec<String>,
    /// Hash of the tree the command ran on.
    pub tree_hash: String,
    /// Whether this run proves the tree: exit 0, a trusted validation, and not zero tests.
    pub success: bool,
    /// Why it does not count, when it does not.
    pub note: Option<String>,
}

/// Decides whether a finished validation run is evidence of a working tree.
///
/// Success needs exit code 0, a validation whose exit status the line reflects (or, for a
/// validation piped into another command, recognisable counts with passes and no failures), no
/// failed tests in the output, and — when counts are recognisable — at least one test run.
pub fn judge_run(
    detection: &Detection,
    exit_code: Option<i64>,
    counts: Option<TestCounts>,
) -> (bool, Option<String>) {
    if let Some(f) = detection.rejection()
        && !detection.counted_with_output()
    {
        let why = match f.status {
            crate::validation::Status::Background => "ran in the background",
            crate::validation::Status::Forced => {
                "its failure cannot show: a later `||` or `;` decides the exit status"
            }
            crate::validation::Status::Defeated => {
                "a flag lets it pass without testing (--passWithNoTests, --collect-only, --help, ...)"
            }
            _ => "not trusted",
        };
        return (false, Some(format!("`{}` {why}", f.runner)));
    }
    if exit_code != Some(0) {
        return (
            false,
            Some(match exit_code {
                Some(code) => format!("exit code {code}"),
                None => "exit code unknown".into(),
            }),
        );
    }
    if let Some(c) = counts {
        if c.failed > 0 {
            return (false, Some(format!("{} test(s) failed", c.failed)));
        }
        if c.ran() == 0 {
            return (
                false,
                Some("no tests ran (zero collected is not evidence)".into()),
            );
        }
    }
    if !detection.counted() {
        // Only pipe-masked validations: the output must show passing tests.
        if counts.is_none_or(|c| c.passed == 0) {
            return (
                false,
                Some("piped into another command without `set -o pipefail`, and the output shows no test counts".into()),
            );
        }
    }
    (true, None)
}

/// Records a validation run; returns the entry. Resets doom-loop counters when the failing-test
/// set changes.
pub fn record_evidence(state: &mut SessionState, mut evidence: Evidence) -> Evidence {
    evidence.seq = state.next_seq;
    state.next_seq += 1;
    if let Some(counts) = evidence.counts {
        let mut failing = evidence.failed_tests.clone();
        failing.sort();
        let signature = format!("{}:{}", counts.failed, failing.join(","));
        if state.failing_signature.as_deref() != Some(signature.as_str()) {
            if state.failing_signature.is_some() {
                reset_counts(state);
            }
            state.failing_signature = Some(signature);
        }
    }
    state.evidence.push(evidence.clone());
    if state.evidence.len() > MAX_EVIDENCE {
        let drop = state.evidence.len() - MAX_EVIDENCE;
        state.evidence.drain(..drop);
    }
    evidence
}

fn reset_counts(state: &mut SessionState) {
    for f in state.files.values_mut() {
        f.count = 0;
    }
}

/// Records a guard verdict for a file; a change of verdict resets that file's edit counter.
pub fn record_guard_verdict(state: &mut SessionState, path: &str, signature: &str) {
    let f = state.files.entry(path.to_string()).or_default();
    if f.guard_signature.as_deref() != Some(signature) {
        if f.guard_signature.is_some() {
            f.count = 0;
        }
        f.guard_signature = Some(signature.to_string());
    }
}

/// Records one edit of `path`; returns the doom-loop nudge text when this edit reaches the
/// threshold and the file was not nudged before in this session.
pub fn record_edit(state: &mut SessionState, path: &str, threshold: u32) -> Option<String> {
    state.edits += 1;
    let f = state.files.entry(path.to_string()).or_default();
    f.count += 1;
    f.total += 1;
    if threshold > 0 && f.count >= threshold && !f.nudged {
        f.nudged = true;
        return Some(format!(
            "slopguard: `{path}` has now been edited {} times without the failing tests or the \
             guard verdict changing. Repeated small edits to one file are a sign of a loop. Step \
             back before the next edit: re-read the failing output, state the root cause in one \
             sentence, and consider whether the fix belongs in a different file or needs a \
             different approach.",
            f.count
        ));
    }
    None
}

/// The verification gate's answer at stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopDecision {
    /// Let the agent stop.
    Allow,
    /// Let the agent stop although the gate is not satisfied: it already blocked once in this
    /// stop sequence (the escape hatch, so a stop can never loop forever).
    AllowEscape,
    /// Keep the agent working; the text is the instruction.
    Block(String),
}

/// Decides a stop: allowed when no file was edited, or when the current tree has a successful
/// validation run (with a goal: every criterion has matching fresh evidence). Otherwise blocks
/// once per stop sequence; when `stop_hook_active` is set and this session already blocked in
/// the sequence, the stop is let through.
pub fn decide_stop(
    state: &mut SessionState,
    tree_hash: &str,
    goal: Option<&Goal>,
    stop_hook_active: bool,
) -> StopDecision {
    if !stop_hook_active {
        state.stop_blocks = 0;
    }
    if state.edits == 0 {
        return StopDecision::Allow;
    }
    let fresh: Vec<&Evidence> = state
        .evidence
        .iter()
        .filter(|e| e.success && e.tree_hash == tree_hash)
        .collect();
    let reason = match goal.filter(|g| !g.criteria.is_empty()) {
        Some(goal) => {
            let uncovered: Vec<_> = goal
                .criteria
                .iter()
                .filter(|c| !fresh.iter().any(|e| c.covered_by(e)))
                .collect();
            if uncovered.is_empty() {
                None
            } else {
                let mut r = format!(
                    "slopguard: not done yet. {} of {} acceptance criteria in the goal file have \
                     no passing evidence on the current tree:\n",
                    uncovered.len(),
                    goal.criteria.len()
                );
                for c in &uncovered {
                    r.push_str(&format!("- {}\n", c.describe()));
                }
                r.push_str(
                    "Run the command or test that proves each one (in the foreground, without \
                     `|| true`), fix what fails, and stop again. Evidence counts only for the \
                     exact tree it ran on: re-run after any further edit.",
                );
                Some(r)
            }
        }
        None if fresh.is_empty() => Some(stale_reason(state, tree_hash)),
        None => None,
    };
    block_once(state, reason, stop_hook_active)
}

/// Decides a stop when the goal file exists but cannot be used (`problem` names the file and
/// what is wrong): a session that edited files is blocked once per stop sequence with the
/// problem, because stopping would skip acceptance criteria nobody can read; a session without
/// edits stops as usual.
pub fn decide_stop_with_unusable_goal(
    state: &mut SessionState,
    problem: &str,
    stop_hook_active: bool,
) -> StopDecision {
    if !stop_hook_active {
        state.stop_blocks = 0;
    }
    if state.edits == 0 {
        return StopDecision::Allow;
    }
    let reason = format!(
        "slopguard: the acceptance criteria cannot be checked: {problem}. A goal file holds \
         `[[criteria]]` tables, each with an `id` and a `command` or a `test` that proves it. \
         Tell the user the goal file must be fixed (or fix it, if that is your task), then stop \
         again."
    );
    block_once(state, Some(reason), stop_hook_active)
}

/// Blocks a stop with `reason`, once per stop sequence: when `stop_hook_active` is set and this
/// session already blocked in the sequence, the stop is let through (the escape hatch).
fn block_once(
    state: &mut SessionState,
    reason: Option<String>,
    stop_hook_active: bool,
) -> StopDecision {
    match reason {
        None => {
            state.stop_blocks = 0;
            StopDecision::Allow
        }
        Some(_) if stop_hook_active && state.stop_blocks >= 1 => {
            state.escapes += 1;
            StopDecision::AllowEscape
        }
        Some(reason) => {
            state.stop_blocks += 1;
            StopDecision::Block(reason)
        }
    }
}

fn stale_reason(state: &SessionState, tree_hash: &str) -> String {
    let edited: Vec<&str> = state
        .files
        .iter()
        .filter(|(_, f)| f.total > 0)
        .map(|(p, _)| p.as_str())
        .take(8)
        .collect();
    let mut r = format!(
        "slopguard: you edited {} file(s) ({}) but no validation has succeeded on the current \
         tree. ",
        state.files.values().filter(|f| f.total > 0).count(),
        edited.join(", ")
    );
    match state
        .evidence
        .iter()
        .rev()
        .find(|e| e.tree_hash == tree_hash)
    {
        Some(e) if !e.success => r.push_str(&format!(
            "The last run, `{}`, does not count: {}. ",
            e.command,
            e.note.as_deref().unwrap_or("it failed")
        )),
        _ => {
            if let Some(e) = state.evidence.iter().rev().find(|e| e.success) {
                r.push_str(&format!(
                    "`{}` passed earlier, but files changed since. ",
                    e.command
                ));
            }
        }
    }
    r.push_str(
        "Run the project's tests or checks now (e.g. `cargo test`, `pytest`, `npm test`), in the \
         foreground and without `|| true`, fix what fails, then stop again.",
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::Criterion;
    use crate::validation::detect;

    fn passing(command: &str, tree: &str) -> Evidence {
        let counts = Some(TestCounts {
            passed: 3,
            failed: 0,
            skipped: 0,
        });
        let (success, note) = judge_run(&detect(command), Some(0), counts);
        Evidence {
            command: command.into(),
            exit_code: Some(0),
            counts,
            tree_hash: tree.into(),
            success,
            note,
            ..Evidence::default()
        }
    }

    #[test]
    fn no_edits_no_gate() {
        let mut s = SessionState::default();
        assert_eq!(decide_stop(&mut s, "t1", None, false), StopDecision::Allow);
    }

    #[test]
    fn block_once_then_escape() {
        let mut s = SessionState::default();
        record_edit(&mut s, "a.rs", 7);
        assert!(matches!(
            decide_stop(&mut s, "t1", None, false),
            StopDecision::Block(_)
        ));
        assert_eq!(
            decide_stop(&mut s, "t1", None, true),
            StopDecision::AllowEscape
        );
        // A new stop sequence (the user spoke again) blocks again.
        assert!(matches!(
            decide_stop(&mut s, "t1", None, false),
            StopDecision::Block(_)
        ));
    }

    #[test]
    fn stop_hook_active_from_another_hook_still_blocks_once() {
        let mut s = SessionState::default();
        record_edit(&mut s, "a.rs", 7);
        assert!(matches!(
            decide_stop(&mut s, "t1", None, true),
            StopDecision::Block(_)
        ));
        assert_eq!(
            decide_stop(&mut s, "t1", None, true),
            StopDecision::AllowEscape
        );
    }

    #[test]
    fn an_unusable_goal_blocks_an_edited_session_once_per_stop_sequence() {
        let problem = "invalid goal file /r/.slopguard/goal.toml: no acceptance criteria";
        let mut s = SessionState::default();
        // Nothing edited: nothing the criteria would have checked.
        assert_eq!(
            decide_stop_with_unusable_goal(&mut s, problem, false),
            StopDecision::Allow
        );
        record_edit(&mut s, "a.rs", 7);
        // Fresh passing tests do not make up for criteria nobody can read.
        record_evidence(&mut s, passing("cargo test", "t1"));
        let StopDecision::Block(reason) = decide_stop_with_unusable_goal(&mut s, problem, false)
        else {
            panic!("an edited session with an unusable goal must be blocked")
        };
        assert!(reason.contains(problem), "{reason}");
        assert_eq!(
            decide_stop_with_unusable_goal(&mut s, problem, true),
            StopDecision::AllowEscape
        );
        // A new stop sequence blocks again.
        assert!(matches!(
            decide_stop_with_unusable_goal(&mut s, problem, false),
            StopDecision::Block(_)
        ));
    }

    #[test]
    fn fresh_evidence_allows_and_stale_blocks() {
        let mut s = SessionState::default();
        record_edit(&mut s, "a.rs", 7);
        record_evidence(&mut s, passing("cargo test", "t1"));
        assert_eq!(decide_stop(&mut s, "t1", None, false), StopDecision::Allow);
        let StopDecision::Block(reason) = decide_stop(&mut s, "t2", None, false) else {
            panic!("stale evidence must block")
        };
        assert!(
            reason.contains("passed earlier, but files changed since"),
            "{reason}"
        );
    }

    #[test]
    fn forced_and_empty_runs_are_not_evidence() {
        let (ok, note) = judge_run(&detect("cargo test || true"), Some(0), None);
        assert!(!ok);
        assert!(note.unwrap().contains("cannot show"));
        let zero = Some(TestCounts::default());
        let (ok, note) = judge_run(&detect("pytest"), Some(0), zero);
        assert!(!ok);
        assert!(note.unwrap().contains("zero collected"));
        let (ok, _) = judge_run(&detect("cargo test"), Some(101), None);
        assert!(!ok);
        let piped = detect("cargo test | tail");
        assert!(!judge_run(&piped, Some(0), None).0);
        let three = Some(TestCounts {
            passed: 3,
            failed: 0,
            skipped: 0,
        });
        assert!(judge_run(&piped, Some(0), three).0);
        assert!(judge_run(&detect("cargo clippy"), Some(0), None).0);
    }

    #[test]
    fn goal_coverage_names_uncovered() {
        let goal = Goal {
            goal: None,
            criteria: vec![
                Criterion {
                    id: "tests".into(),
                    description: None,
                    command: Some("cargo test".into()),
                    test: None,
                },
                Criterion {
                    id: "lint".into(),
                    description: Some("no clippy warnings".into()),
                    command: Some("cargo clippy".into()),
                    test: None,
                },
            ],
        };
        let mut s = SessionState::default();
        record_edit(&mut s, "a.rs", 7);
        record_evidence(&mut s, passing("cargo test -q", "t1"));
        let StopDecision::Block(reason) = decide_stop(&mut s, "t1", Some(&goal), false) else {
            panic!("uncovered criterion must block")
        };
        assert!(reason.contains("`lint`"), "{reason}");
        assert!(!reason.contains("`tests`"), "{reason}");
        record_evidence(&mut s, passing("cargo clippy -- -D warnings", "t1"));
        assert_eq!(
            decide_stop(&mut s, "t1", Some(&goal), false),
            StopDecision::Allow
        );
    }

    #[test]
    fn test_pattern_matches_passed_names() {
        let c = Criterion {
            id: "empty".into(),
            description: None,
            command: None,
            test: Some("parser::empty".into()),
        };
        let mut e = passing("cargo test", "t");
        assert!(!c.covered_by(&e));
        e.passed_tests = vec!["parser::empty_input".into()];
        assert!(c.covered_by(&e));
        let filtered = passing("cargo test parser::empty", "t");
        assert!(c.covered_by(&filtered));
    }

    #[test]
    fn doom_loop_nudges_once_per_file() {
        let mut s = SessionState::default();
        let nudges: Vec<_> = (0..10).map(|_| record_edit(&mut s, "a.rs", 7)).collect();
        assert_eq!(nudges.iter().filter(|n| n.is_some()).count(), 1);
        assert!(nudges[6].is_some(), "the seventh edit nudges");
        assert!(record_edit(&mut s, "b.rs", 7).is_none());
    }

    #[test]
    fn progress_resets_the_counter() {
        let mut s = SessionState::default();
        for _ in 0..6 {
            assert!(record_edit(&mut s, "a.rs", 7).is_none());
        }
        let mut failing = passing("cargo test", "t");
        failing.counts = Some(TestCounts {
            passed: 2,
            failed: 1,
            skipped: 0,
        });
        failing.failed_tests = vec!["x".into()];
        record_evidence(&mut s, failing.clone());
        // Same failing set: no reset.
        record_evidence(&mut s, failing.clone());
        assert_eq!(s.files["a.rs"].count, 6);
        failing.failed_tests = vec!["y".into()];
        record_evidence(&mut s, failing);
        assert_eq!(s.files["a.rs"].count, 0);
        record_guard_verdict(&mut s, "a.rs", "blocked:g7");
        for _ in 0..3 {
            record_edit(&mut s, "a.rs", 7);
        }
        record_guard_verdict(&mut s, "a.rs", "pass");
        assert_eq!(s.files["a.rs"].count, 0);
    }

    #[test]
    fn state_round_trips_and_tolerates_unknown_fields() {
        let mut s = SessionState::default();
        record_edit(&mut s, "a.rs", 7);
        record_evidence(&mut s, passing("cargo test", "t"));
        let v = serde_json::to_value(&s).unwrap();
        let back: SessionState = serde_json::from_value(v).unwrap();
        assert_eq!(back, s);
        let odd: SessionState =
            serde_json::from_value(serde_json::json!({"edits": 2, "future": [1]})).unwrap();
        assert_eq!(odd.edits, 2);
    }
}
