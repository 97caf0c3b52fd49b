//! The run summary: what `slopguard run` did, for the terminal, `--format json` and the pull
//! request body (tasks and subtasks with their commits, guard activity per subtask, failures,
//! metrics before and after, the model).
//!
//! It is built from the persisted run state (`crate::state::RunState`) after execution, so a
//! resumed run summarises every subtask, including the ones committed before a crash.

use crate::git::short_id;
use serde::{Deserialize, Serialize};

pub use crate::records::{
    ActivityStatus, AttemptOutcome, AttemptRecord, GuardActivity, MetricValue, RunRecord,
    RunStatus, SubtaskStatus, SubtaskSummary, TaskSummary, TokenUsage,
};

/// What a run did. This is the input of the PR phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The run and what it did.
    #[serde(flatten)]
    pub run: RunRecord,
    /// The branch head after the run (full id).
    pub head_commit: String,
    /// Metrics at the branch head after the run (empty when not measured).
    #[serde(default)]
    pub metrics_after: Vec<MetricValue>,
    /// Weighted overall score after.
    #[serde(default)]
    pub overall_after: Option<f64>,
    /// Run end (ms since the epoch).
    pub finished_ms: i64,
    /// The JSON-lines trace.
    pub trace_path: String,
    /// The persisted state.
    pub state_path: String,
}

impl RunSummary {
    /// Every subtask, in plan order.
    pub fn subtasks(&self) -> impl Iterator<Item = &SubtaskSummary> {
        self.run.tasks.iter().flat_map(|t| t.subtasks.iter())
    }

    /// Commits on the branch, in order: (subtask id, commit id).
    pub fn commits(&self) -> Vec<(String, String)> {
        self.subtasks()
            .filter_map(|s| s.commit.as_ref().map(|c| (s.id.clone(), c.clone())))
            .collect()
    }

    /// Subtasks that failed, with why.
    pub fn failed(&self) -> Vec<&SubtaskSummary> {
        self.subtasks()
            .filter(|s| s.status == SubtaskStatus::Failed)
            .collect()
    }

    /// Number of blocked guard verdicts per guard slug over the whole run.
    pub fn guard_firings(&self) -> std::collections::BTreeMap<String, u32> {
        let mut m = std::collections::BTreeMap::new();
        for a in self.subtasks().flat_map(|s| s.guard_activity.iter()) {
            if a.status == ActivityStatus::Blocked {
                *m.entry(a.guard.clone()).or_insert(0) += 1;
            }
        }
        m
    }

    /// A short human-readable summary (what the terminal prints at the end).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let n = self.subtasks().count();
        let landed = self
            .subtasks()
            .filter(|s| matches!(s.status, SubtaskStatus::Committed | SubtaskStatus::Passed))
            .count();
        s.push_str(&format!(
            "Run {} ({}): {landed}/{n} subtasks {}\n",
            self.run.run_id,
            self.run.status.as_str(),
            if self.run.dry_run {
                "passed (dry run, nothing committed)"
            } else {
                "committed"
            }
        ));
        if self.run.branch.is_empty() {
            // A dry run creates no branch; say so rather than print an empty name.
            s.push_str(&format!(
                "No branch ({}) on {} ({}); worktree {}\n",
                if self.run.dry_run {
                    "dry run"
                } else {
                    "nothing was committed"
                },
                self.run.base,
                short_id(&self.run.base_commit),
                self.run.worktree
            ));
        } else {
            s.push_str(&format!(
                "Branch {} on {} ({}), head {}\n",
                self.run.branch,
                self.run.base,
                short_id(&self.run.base_commit),
                short_id(&self.head_commit)
            ));
        }
        for t in &self.run.tasks {
            s.push_str(&format!("{} {}\n", t.id, t.title));
            for st in &t.subtasks {
                let what = match (&st.status, &st.commit) {
                    (SubtaskStatus::Committed, Some(c)) => format!("committed {}", short_id(c)),
                    (other, _) => other.as_str().to_string(),
                };
                s.push_str(&format!(
                    "  {} {} — {what}, {} attempt(s)",
                    st.id, st.title, st.attempts
                ));
                if let Some(beaten) = st.candidates_beaten {
                    s.push_str(&format!(", chosen over {beaten} other candidate(s)"));
                }
                let fired = st.guards_fired();
                if !fired.is_empty() {
                    s.push_str(&format!(", blocked by: {}", fired.join(", ")));
                }
                s.push('\n');
                if !st.still_failing.is_empty() {
                    s.push_str(&format!(
                        "    still failing: {}\n",
                        st.still_failing.join(", ")
                    ));
                }
                if let Some(other) = &st.also_passing {
                    s.push_str(&format!(
                        "    review: the tests also pass with {other}; they cannot tell the two fixes apart\n"
                    ));
                }
                if st.status == SubtaskStatus::Failed {
                    // The whole reason: its first line says how it ended, the rest are the
                    // last findings, which are the point.
                    let why = st.failure_reason();
                    let mut lines = why.lines();
                    s.push_str(&format!("    why: {}\n", lines.next().unwrap_or("")));
                    for l in lines {
                        s.push_str(&format!("      {l}\n"));
                    }
                    if !st.failure_modes.is_empty() {
                        s.push_str(&format!(
                            "    failure modes: {}\n",
                            st.failure_modes.join(", ")
                        ));
                    }
                }
            }
        }
        if !self.run.unaddressed_failing_tests.is_empty() {
            s.push_str(&format!(
                "Tests failing before the run still fail, and no subtask was about them: {}\n",
                self.run.unaddressed_failing_tests.join(", ")
            ));
        }
        if let (Some(b), Some(a)) = (self.run.overall_before, self.overall_after) {
            s.push_str(&format!("Overall score {b:.2} -> {a:.2}\n"));
        }
        s.push_str(&format!("Trace: {}\n", self.trace_path));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_failed_and_firings() {
        let mut sum = RunSummary {
            run: RunRecord {
                run_id: "r".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        sum.run.tasks.push(TaskSummary {
            id: "T001".into(),
            title: "t".into(),
            subtasks: vec![
                SubtaskSummary {
                    id: "T001-S01".into(),
                    status: SubtaskStatus::Committed,
                    commit: Some("abc".into()),
                    guard_activity: vec![GuardActivity {
                        attempt: 1,
                        phase: crate::records::Phase::Static,
                        guard: "symbol-preservation".into(),
                        code: Some("G7".into()),
                        status: ActivityStatus::Blocked,
                        messages: vec![],
                    }],
                    ..Default::default()
                },
                SubtaskSummary {
                    id: "T001-S02".into(),
                    status: SubtaskStatus::Failed,
                    error: Some("json".into()),
                    ..Default::default()
                },
            ],
            ..Default::default()
        });
        assert_eq!(sum.commits(), vec![("T001-S01".into(), "abc".into())]);
        assert_eq!(sum.failed().len(), 1);
        assert_eq!(sum.guard_firings()["symbol-preservation"], 1);
        let text = sum.to_text();
        assert!(text.contains("blocked by: symbol-preservation"));
        let json = serde_json::to_string(&sum).unwrap();
        let back: RunSummary = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sum);
    }

    #[test]
    fn a_landed_fix_names_the_tests_it_left_failing_and_a_fix_the_tests_cannot_tell_from_it() {
        let text = summary_of(SubtaskSummary {
            id: "T001-S01".into(),
            title: "Fix it".into(),
            status: SubtaskStatus::Partial,
            still_failing: vec!["tests/test_calc.py::test_add_zero".into()],
            also_passing: Some("calc.py:4 `a < b` -> `a > b`".into()),
            ..Default::default()
        })
        .to_text();
        assert!(
            text.contains("    still failing: tests/test_calc.py::test_add_zero\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "    review: the tests also pass with calc.py:4 `a < b` -> `a > b`; they cannot \
                 tell the two fixes apart\n"
            ),
            "{text}"
        );
    }

    fn failed(error: Option<&str>, log: Vec<AttemptRecord>) -> SubtaskSummary {
        SubtaskSummary {
            id: "T001-S01".into(),
            title: "Fix it".into(),
            status: SubtaskStatus::Failed,
            attempts: 3,
            error: error.map(str::to_string),
            attempt_log: log,
            ..Default::default()
        }
    }

    fn summary_of(st: SubtaskSummary) -> RunSummary {
        RunSummary {
            run: RunRecord {
                run_id: "r".into(),
                branch: "slopguard/r".into(),
                tasks: vec![TaskSummary {
                    id: "T001".into(),
                    title: "t".into(),
                    subtasks: vec![st],
                    ..Default::default()
                }],
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn why_prints_the_last_findings_in_full() {
        let st = failed(
            Some(
                "failed after 3 attempt(s); last findings:\nsrc/db.py:3: syntax error\nG7: `seed` was removed",
            ),
            vec![],
        );
        let text = summary_of(st).to_text();
        assert!(
            text.contains(
                "    why: failed after 3 attempt(s); last findings:\n      src/db.py:3: syntax error\n      G7: `seed` was removed\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn why_never_ends_empty() {
        let attempt = |n: u32, outcome: AttemptOutcome, feedback: &str| AttemptRecord {
            attempt: n,
            outcome,
            feedback: feedback.into(),
            ..Default::default()
        };
        // No findings in the error, but the attempt log has feedback: that is shown.
        let st = failed(
            Some("failed after 3 attempt(s); last findings:\n"),
            vec![
                attempt(1, AttemptOutcome::Blocked, "src/db.py: syntax error"),
                attempt(
                    2,
                    AttemptOutcome::ApplyError,
                    "the reply was cut off at max_tokens",
                ),
                attempt(3, AttemptOutcome::ApplyError, ""),
            ],
        );
        let why = st.failure_reason();
        assert_eq!(
            why,
            "failed after 3 attempt(s); last findings:\nattempt 2 (apply_error): the reply was cut off at max_tokens"
        );
        // Nothing anywhere: the attempt outcomes, and where to look.
        let st = failed(
            Some("failed after 3 attempt(s); last findings:"),
            vec![
                attempt(1, AttemptOutcome::Unknown, ""),
                attempt(2, AttemptOutcome::Unknown, ""),
            ],
        );
        let text = summary_of(st).to_text();
        let why: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("why:"))
            .take(2)
            .collect();
        assert_eq!(why.len(), 2, "{text}");
        assert!(why[0].ends_with("last findings:"), "{text}");
        assert!(
            why[1].contains("no findings were recorded (attempt outcomes: unknown, unknown)"),
            "{text}"
        );
        // No error at all.
        assert!(
            failed(None, vec![])
                .failure_reason()
                .contains("no attempt was recorded")
        );
    }

    #[test]
    fn a_dry_run_names_no_empty_branch() {
        let sum = RunSummary {
            run: RunRecord {
                run_id: "r".into(),
                base: "HEAD".into(),
                base_commit: "0123456789abcdef".into(),
                worktree: "/tmp/wt".into(),
                dry_run: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let text = sum.to_text();
        assert!(!text.contains("Branch  on"), "{text}");
        assert!(
            text.contains("No branch (dry run) on HEAD (0123456789); worktree /tmp/wt\n"),
            "{text}"
        );
    }
}
