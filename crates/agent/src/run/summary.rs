//! The run summary: what `slopguard run` did, for the terminal, `--format json` and the pull
//! request body (tasks and subtasks with their commits, guard activity per subtask, failures,
//! metrics before and after, the model).
//!
//! It is built from the persisted run state (`crate::state::RunState`) after execution, so a
//! resumed run summarises every subtask, including the ones committed before a crash.

use crate::git::short_id;
use serde::{Deserialize, Serialize};

/// How a subtask ended (or where it stands).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubtaskStatus {
    /// Not started yet.
    #[default]
    Pending,
    /// Every guard passed and the change is committed on the branch.
    Committed,
    /// Every guard passed in a dry run; nothing was committed.
    Passed,
    /// Failed after the retry budget (or on an error that retrying cannot fix).
    Failed,
    /// Committed with `--allow-partial` although some of its failing tests still fail
    /// ([`SubtaskSummary::still_failing`] names them).
    Partial,
    /// Not attempted (dropped, or the model produced no change).
    Skipped,
}

impl SubtaskStatus {
    /// Whether the subtask is finished (a resume does not redo it).
    pub fn is_final(self) -> bool {
        !matches!(self, SubtaskStatus::Pending)
    }

    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            SubtaskStatus::Pending => "pending",
            SubtaskStatus::Committed => "committed",
            SubtaskStatus::Passed => "passed",
            SubtaskStatus::Failed => "failed",
            SubtaskStatus::Partial => "partial",
            SubtaskStatus::Skipped => "skipped",
        }
    }
}

/// One guard's verdict on one attempt of a subtask.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardActivity {
    /// 1-based attempt number.
    pub attempt: u32,
    /// `static` (on the overlay, before writing), `dynamic` (build, tests on the written tree)
    /// or `apply` (the reply could not be turned into a change).
    pub phase: String,
    /// Guard slug (`symbol-preservation`, `build`, `test-regression`, `test-integrity`, ...).
    pub guard: String,
    /// The seeds' code (`G7`), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// `passed`, `warned`, `blocked`, `skipped` (toolchain missing, nothing to run).
    pub status: String,
    /// What the guard said (blocking and warning findings; the reason for a skip).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<String>,
}

impl GuardActivity {
    /// The `apply` phase's block: the reply could not become a committed change (`guard` is
    /// `json`, `json-emit`, `apply` or `git`), for the reason `message`.
    pub fn apply_blocked(attempt: u32, guard: &str, message: String) -> GuardActivity {
        GuardActivity {
            attempt,
            phase: "apply".into(),
            guard: guard.into(),
            code: None,
            status: "blocked".into(),
            messages: vec![message],
        }
    }
}

/// One attempt of a subtask.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AttemptRecord {
    /// 1-based.
    pub attempt: u32,
    /// `committed`, `passed` (dry run), `blocked`, `llm_error`, `apply_error`, `empty`.
    pub outcome: String,
    /// Files the attempt's change touched.
    #[serde(default)]
    pub touched: Vec<String>,
    /// The feedback given to the next attempt (empty on success).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub feedback: String,
    /// Milliseconds in the model call.
    #[serde(default)]
    pub llm_ms: u64,
    /// Milliseconds in build and test runs.
    #[serde(default)]
    pub toolchain_ms: u64,
    /// Milliseconds of everything else (prompt, parsing, static guards, writes, git, state).
    #[serde(default)]
    pub overhead_ms: f64,
    /// One line per candidate sampled in this attempt (temperature, format, matchers, verdict).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// One subtask of the run, as it ended.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SubtaskSummary {
    /// `T001-S01`.
    pub id: String,
    /// Title from the plan.
    pub title: String,
    /// Description from the plan.
    #[serde(default)]
    pub description: String,
    /// File hints from the plan.
    #[serde(default)]
    pub file_hints: Vec<String>,
    /// Where it stands.
    pub status: SubtaskStatus,
    /// The commit on the run branch (full id), when committed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The commit message's first line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_title: Option<String>,
    /// Attempts made.
    pub attempts: u32,
    /// Files changed by the landed (or last) attempt.
    #[serde(default)]
    pub touched_files: Vec<String>,
    /// Every guard verdict of every attempt.
    #[serde(default)]
    pub guard_activity: Vec<GuardActivity>,
    /// Per-attempt details.
    #[serde(default)]
    pub attempt_log: Vec<AttemptRecord>,
    /// Candidate replies sampled, over all attempts.
    #[serde(default)]
    pub candidates: u32,
    /// How many other candidates the landed one beat (sampled minus one), when it landed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates_beaten: Option<u32>,
    /// Failure modes (the store's closed set, wire spelling) when it failed.
    #[serde(default)]
    pub failure_modes: Vec<String>,
    /// Why it failed or was skipped, for humans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The subtask's observation was recorded in the store.
    #[serde(default)]
    pub observed: bool,
    /// Where the landed change came from: a reply format (`whole-file`, `search-replace`,
    /// ...), `template` (a repair template, no model) or `salvaged` (a refused reply reduced
    /// to the definitions it changed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_source: Option<String>,
    /// The failing tests it was behind that still fail after it landed (a partial fix).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub still_failing: Vec<String>,
}

impl SubtaskSummary {
    /// Why the subtask failed, never blank: the recorded error with its findings in full, or,
    /// when the error names no findings (`last findings:` followed by nothing, as when every
    /// attempt ended in a model or apply error without guard feedback), what the attempt log
    /// and guard activity do say, and failing those, that nothing was recorded.
    pub fn failure_reason(&self) -> String {
        let error = self.error.as_deref().unwrap_or("").trim();
        let findings_missing = error.is_empty() || error.ends_with("last findings:");
        if !findings_missing {
            return error.to_string();
        }
        let mut known: Vec<String> = Vec::new();
        if let Some(last) = self
            .attempt_log
            .iter()
            .rev()
            .find(|a| !a.feedback.trim().is_empty())
        {
            known.push(format!(
                "attempt {} ({}): {}",
                last.attempt,
                last.outcome,
                last.feedback.trim()
            ));
        }
        if known.is_empty() {
            let blocked: Vec<String> = self
                .guard_activity
                .iter()
                .filter(|a| a.status == "blocked")
                .map(|a| {
                    let what = a.messages.join("; ");
                    format!(
                        "attempt {}: {} blocked ({}) {what}",
                        a.attempt, a.guard, a.phase
                    )
                    .trim_end()
                    .to_string()
                })
                .collect();
            known.extend(blocked);
        }
        if known.is_empty() {
            let outcomes: Vec<&str> = self
                .attempt_log
                .iter()
                .map(|a| a.outcome.as_str())
                .collect();
            known.push(if outcomes.is_empty() {
                "no attempt was recorded; the run's trace has the details".to_string()
            } else {
                format!(
                    "no findings were recorded (attempt outcomes: {}); the run's trace has the details",
                    outcomes.join(", ")
                )
            });
        }
        let head = if error.is_empty() {
            format!("failed after {} attempt(s); last findings:", self.attempts)
        } else {
            error.to_string()
        };
        format!("{head}\n{}", known.join("\n"))
    }

    /// Guards that blocked at least one attempt (slugs, deduplicated, in order).
    pub fn guards_fired(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for a in &self.guard_activity {
            if a.status == "blocked" && !out.contains(&a.guard) {
                out.push(a.guard.clone());
            }
        }
        out
    }
}

/// One task of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskSummary {
    /// `T001`.
    pub id: String,
    /// Title.
    pub title: String,
    /// Why it matters.
    #[serde(default)]
    pub description: String,
    /// 1 (highest) ..
    pub priority: u32,
    /// Its subtasks, in order.
    pub subtasks: Vec<SubtaskSummary>,
}

/// One metric value (before or after the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricValue {
    /// Metric id (`build`, `test_results`, ...).
    pub name: String,
    /// Human title.
    pub title: String,
    /// 0..1, `None` when unknown.
    pub score: Option<f64>,
    /// `pass`, `warn`, `fail`, `unknown`.
    pub status: String,
}

/// Token usage of the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    /// Prompt tokens.
    pub prompt: u64,
    /// Completion tokens.
    pub completion: u64,
}

impl TokenUsage {
    /// Adds what was spent between two readings of a client's running totals (prompt,
    /// completion), so a call that failed still counts what it cost.
    pub fn add_since(&mut self, before: (u64, u64), after: (u64, u64)) {
        self.prompt += after.0.saturating_sub(before.0);
        self.completion += after.1.saturating_sub(before.1);
    }
}

/// Overall status of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Still running (or killed: the state says where it stopped).
    #[default]
    Running,
    /// Every subtask landed (or passed, in a dry run).
    Completed,
    /// Some subtasks landed, some failed.
    Partial,
    /// No subtask landed.
    Failed,
}

impl RunStatus {
    /// The status as the JSON output spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Partial => "partial",
            RunStatus::Failed => "failed",
        }
    }
}

/// What a run is and what it has done so far: kept in the state file while it runs
/// ([`crate::state::RunState`]) and reported in its summary ([`RunSummary`]), both of which
/// flatten it (their JSON has these fields at the top level).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Run id (`20261121-142800-ab12`).
    pub run_id: String,
    /// The user's repository (absolute path).
    pub repo: String,
    /// Repository id used in the store (origin URL or path).
    pub repo_id: String,
    /// The run branch (empty in a dry run, or when nothing was committed and it was deleted).
    pub branch: String,
    /// The base ref as given (`HEAD`, `main`, ...).
    pub base: String,
    /// The base commit (full id).
    pub base_commit: String,
    /// The separate worktree the run works in.
    pub worktree: String,
    /// Dry run: nothing committed.
    pub dry_run: bool,
    /// Model used by the worker (as configured, or as the server listed it).
    #[serde(default)]
    pub model: String,
    /// LLM base URL.
    #[serde(default)]
    pub llm_url: String,
    /// Overall status.
    #[serde(default)]
    pub status: RunStatus,
    /// Tasks and subtasks with their status, commits, attempts and guard activity.
    #[serde(default)]
    pub tasks: Vec<TaskSummary>,
    /// Metrics at the base.
    #[serde(default)]
    pub metrics_before: Vec<MetricValue>,
    /// Weighted overall score at the base.
    #[serde(default)]
    pub overall_before: Option<f64>,
    /// Tokens used (summed over resumes).
    #[serde(default)]
    pub usage: TokenUsage,
    /// Run start (ms since the epoch).
    pub started_ms: i64,
    /// Times the run was resumed.
    #[serde(default)]
    pub resumes: u32,
    /// What the critics said and did after the subtasks landed (when any critic was on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critics: Option<crate::critics::CriticsReport>,
    /// The continuous critic's findings kept for the self-review (confidence 60-79, or 80+
    /// after a subtask's last step), when it was on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub self_review: Vec<crate::gates::step_critic::Finding>,
}

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

impl std::ops::Deref for RunSummary {
    type Target = RunRecord;
    fn deref(&self) -> &RunRecord {
        &self.run
    }
}

impl std::ops::DerefMut for RunSummary {
    fn deref_mut(&mut self) -> &mut RunRecord {
        &mut self.run
    }
}

impl RunSummary {
    /// Every subtask, in plan order.
    pub fn subtasks(&self) -> impl Iterator<Item = &SubtaskSummary> {
        self.tasks.iter().flat_map(|t| t.subtasks.iter())
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
            if a.status == "blocked" {
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
            self.run_id,
            self.status.as_str(),
            if self.dry_run {
                "passed (dry run, nothing committed)"
            } else {
                "committed"
            }
        ));
        if self.branch.is_empty() {
            // A dry run creates no branch; say so rather than print an empty name.
            s.push_str(&format!(
                "No branch ({}) on {} ({}); worktree {}\n",
                if self.dry_run {
                    "dry run"
                } else {
                    "nothing was committed"
                },
                self.base,
                short_id(&self.base_commit),
                self.worktree
            ));
        } else {
            s.push_str(&format!(
                "Branch {} on {} ({}), head {}\n",
                self.branch,
                self.base,
                short_id(&self.base_commit),
                short_id(&self.head_commit)
            ));
        }
        for t in &self.tasks {
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
        if let (Some(b), Some(a)) = (self.overall_before, self.overall_after) {
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
        sum.tasks.push(TaskSummary {
            id: "T001".into(),
            title: "t".into(),
            subtasks: vec![
                SubtaskSummary {
                    id: "T001-S01".into(),
                    status: SubtaskStatus::Committed,
                    commit: Some("abc".into()),
                    guard_activity: vec![GuardActivity {
                        attempt: 1,
                        phase: "static".into(),
                        guard: "symbol-preservation".into(),
                        code: Some("G7".into()),
                        status: "blocked".into(),
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
        let attempt = |n: u32, outcome: &str, feedback: &str| AttemptRecord {
            attempt: n,
            outcome: outcome.into(),
            feedback: feedback.into(),
            ..Default::default()
        };
        // No findings in the error, but the attempt log has feedback: that is shown.
        let st = failed(
            Some("failed after 3 attempt(s); last findings:\n"),
            vec![
                attempt(1, "blocked", "src/db.py: syntax error"),
                attempt(2, "llm_error", "the reply was cut off at max_tokens"),
                attempt(3, "llm_error", ""),
            ],
        );
        let why = st.failure_reason();
        assert_eq!(
            why,
            "failed after 3 attempt(s); last findings:\nattempt 2 (llm_error): the reply was cut off at max_tokens"
        );
        // Nothing anywhere: the attempt outcomes, and where to look.
        let st = failed(
            Some("failed after 3 attempt(s); last findings:"),
            vec![attempt(1, "empty", ""), attempt(2, "empty", "")],
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
            why[1].contains("no findings were recorded (attempt outcomes: empty, empty)"),
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
