//! The records every phase of a run writes: how subtasks and the run stand
//! ([`SubtaskStatus`], [`RunStatus`]), the test baseline ([`Baseline`]), what each attempt
//! and guard did ([`AttemptRecord`], [`GuardActivity`]), the run record kept in the state file
//! and the summary ([`RunRecord`], [`TaskSummary`], [`SubtaskSummary`]), and what the critics
//! found ([`CriticsReport`], [`StepFinding`]).
//!
//! Plain data: this module depends on nothing of the run loop, so the state, the dynamic
//! checks, the critics, the gates and the run loop share these records without importing one
//! another.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use slopguard_guards::{GuardStatus, Report};

mod critics;
pub use critics::*;

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

/// The test baseline G8 and test-integrity compare against.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// Some runner ran tests.
    pub ran: bool,
    /// Ids of the tests failing at the baseline.
    pub failing: BTreeSet<String>,
    /// Tests collected (passed + failed).
    pub total: u32,
    /// The test run was broken at the baseline (compile or collection error).
    pub broken: bool,
    /// Why nothing ran (missing toolchain, timeout), when `ran` is false.
    #[serde(default)]
    pub reason: Vec<String>,
    /// The failing tests with their files, for the worker's failure context.
    #[serde(default)]
    pub failing_tests: Vec<slopguard_toolchain::FailingTest>,
    /// Ids of tests that failed at an earlier baseline of this run and pass now: a landed
    /// subtask fixed them (see [`Baseline::advanced_to`]).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub fixed: BTreeSet<String>,
    /// What the test runners printed at the baseline (capped), for the failing tests' messages.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub log: String,
    /// How long the baseline's test run took (milliseconds; 0: not measured). The run's later
    /// test runs derive their limits from it: a test that hangs is cut in seconds, not at the
    /// suite's full timeout.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub suite_ms: u64,
    /// How many tests failed at the baseline, as the runner counted them (its summary line);
    /// more than `failing` names when the runner's output was too long to keep whole.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed: u64,
    /// The build checks that already failed here, by tool (`go vet`), each with its output's
    /// lines as [`crate::dynamic::failure_lines`] counts them; `None` until captured (once per
    /// run, before the first gate). A change is blocked by a build check only for the
    /// failures it adds: a repository with a `go vet` finding nobody fixed would otherwise
    /// refuse every fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_failures: Option<BTreeMap<String, BTreeMap<String, usize>>>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Baseline {
    /// The ids of the tests failing in `now` that did not fail at this baseline: what a
    /// change broke.
    pub fn newly_failing<'a>(
        &'a self,
        now: &'a slopguard_toolchain::TestRun,
    ) -> impl Iterator<Item = &'a str> {
        now.failing
            .iter()
            .map(|f| f.id.as_str())
            .filter(|id| !self.failing.contains(*id))
    }

    /// The baseline after something landed: `next`, remembering which of this baseline's
    /// failing tests it fixed (and those fixed before).
    pub fn advanced_to(&self, mut next: Baseline) -> Baseline {
        next.fixed = self
            .fixed
            .iter()
            .chain(self.failing.difference(&next.failing))
            .filter(|id| !next.failing.contains(*id))
            .cloned()
            .collect();
        // What lands passed the build check against these failures, so it added none.
        if next.build_failures.is_none() {
            next.build_failures = self.build_failures.clone();
        }
        next
    }
}

/// When a gate runs (in the gate registry and in [`GuardActivity`] records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Reading the reply and turning it into a change (before any guard).
    Apply,
    /// The static guards, on the change in memory (nothing written yet).
    Static,
    /// Model-backed gates (critics), on a candidate the static guards passed, before the
    /// toolchain runs on it.
    Review,
    /// On the written worktree: toolchain runs.
    Dynamic,
    /// While planning: drops subtasks before any model call.
    Plan,
}

impl Phase {
    /// The word a record holds (`static`).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Apply => "apply",
            Phase::Static => "static",
            Phase::Review => "review",
            Phase::Dynamic => "dynamic",
            Phase::Plan => "plan",
        }
    }

    /// The `phase` field of a rejection's trace event: `apply` before any guard ran, `worker`
    /// for the guards and the toolchain (the names the trace has always used).
    pub fn trace_name(self) -> &'static str {
        match self {
            Phase::Apply => "apply",
            Phase::Plan => "planning",
            Phase::Static | Phase::Review | Phase::Dynamic => "worker",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one gate said about one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivityStatus {
    /// It found nothing wrong.
    #[serde(alias = "pass")]
    Passed,
    /// It found something worth saying, not worth refusing the candidate for.
    Warned,
    /// It refused the candidate.
    #[serde(alias = "block")]
    Blocked,
    /// It could not judge (toolchain missing, nothing to run, the critic's model failed).
    Skipped,
    /// A word this version does not know, read from an older or newer state file.
    #[serde(other)]
    Unknown,
}

impl ActivityStatus {
    /// The word a record holds (`blocked`).
    pub fn as_str(self) -> &'static str {
        match self {
            ActivityStatus::Passed => "passed",
            ActivityStatus::Warned => "warned",
            ActivityStatus::Blocked => "blocked",
            ActivityStatus::Skipped => "skipped",
            ActivityStatus::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for ActivityStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One guard's verdict on one attempt of a subtask.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardActivity {
    /// 1-based attempt number.
    pub attempt: u32,
    /// `static` (on the overlay, before writing), `review` (a critic), `dynamic` (build,
    /// tests on the written tree) or `apply` (the reply could not be turned into a change).
    pub phase: Phase,
    /// Guard slug (`symbol-preservation`, `build`, `test-regression`, `test-integrity`, ...).
    pub guard: String,
    /// The seeds' code (`G7`), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What the guard said.
    pub status: ActivityStatus,
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
            phase: Phase::Apply,
            guard: guard.into(),
            code: None,
            status: ActivityStatus::Blocked,
            messages: vec![message],
        }
    }

    /// The static guards' report as the records of `attempt`: one per guard that ran, with
    /// its findings (located when they name a place).
    pub fn from_static_report(report: &Report, attempt: u32) -> Vec<GuardActivity> {
        report
            .guards
            .iter()
            .filter(|g| g.status != GuardStatus::Disabled)
            .map(|g| GuardActivity {
                attempt,
                phase: Phase::Static,
                guard: g.guard.to_string(),
                code: g.code.map(str::to_string),
                status: match g.status {
                    GuardStatus::Passed => ActivityStatus::Passed,
                    GuardStatus::Warned => ActivityStatus::Warned,
                    GuardStatus::Blocked => ActivityStatus::Blocked,
                    GuardStatus::Disabled => ActivityStatus::Skipped,
                },
                messages: report
                    .findings
                    .iter()
                    .filter(|f| f.guard == g.guard)
                    .map(|f| {
                        let loc = f.location();
                        if loc.is_empty() {
                            f.message.clone()
                        } else {
                            format!("{loc}: {}", f.message)
                        }
                    })
                    .collect(),
            })
            .collect()
    }
}

/// How an attempt ended (`outcome` in the state file and the summaries).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptOutcome {
    /// Its change landed as a commit.
    Committed,
    /// Its change passed every gate in a dry run (reverted; nothing committed).
    Passed,
    /// A guard, the build or the tests refused its furthest candidate.
    Blocked,
    /// No reply became a change (no file in it, a search text not in the file, a model error).
    ApplyError,
    /// Its change passed, and git could not commit it.
    GitError,
    /// Not recorded: an attempt cut short, or a word an older state file used.
    #[default]
    #[serde(other)]
    Unknown,
}

impl AttemptOutcome {
    /// The word in the state file and the summaries.
    pub fn as_str(self) -> &'static str {
        match self {
            AttemptOutcome::Committed => "committed",
            AttemptOutcome::Passed => "passed",
            AttemptOutcome::Blocked => "blocked",
            AttemptOutcome::ApplyError => "apply_error",
            AttemptOutcome::GitError => "git_error",
            AttemptOutcome::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for AttemptOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One attempt of a subtask.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AttemptRecord {
    /// 1-based.
    pub attempt: u32,
    /// How it ended.
    pub outcome: AttemptOutcome,
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
    /// Another fix of the landed statement that passes the same tests (`calc.py:4 `a < b` ->
    /// `a > b``), when the repair templates found one: the tests cannot tell the two apart,
    /// so the landed fix may be the wrong one and wants a reviewer's eye.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also_passing: Option<String>,
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
                .filter(|a| a.status == ActivityStatus::Blocked)
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
            if a.status == ActivityStatus::Blocked && !out.contains(&a.guard) {
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

/// Where a run is: its phases in order. The state file and the trace spell them in snake
/// case (`"execution"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunPhase {
    /// Locking the repository, the worktree, the store.
    #[default]
    Preflight,
    /// The audit: metrics and the test baseline.
    Analysis,
    /// The plan: the planner's, an operator's, or the failing tests' own task.
    Planning,
    /// The subtasks: candidates, gates, landing.
    Execution,
    /// The critics after the subtasks landed.
    Critique,
    /// The metrics again on the branch.
    Measure,
    /// Finished (the state of a run that stopped earlier says where).
    Done,
}

impl RunPhase {
    /// The phase as the state file, the trace and the progress line spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            RunPhase::Preflight => "preflight",
            RunPhase::Analysis => "analysis",
            RunPhase::Planning => "planning",
            RunPhase::Execution => "execution",
            RunPhase::Critique => "critique",
            RunPhase::Measure => "measure",
            RunPhase::Done => "done",
        }
    }
}

impl std::fmt::Display for RunPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
/// (`state::RunState`) and reported in its summary (`run::RunSummary`), both of which
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
    pub critics: Option<CriticsReport>,
    /// The continuous critic's findings kept for the self-review (confidence 60-79, or 80+
    /// after a subtask's last step), when it was on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub self_review: Vec<StepFinding>,
    /// Tests that failed at the start of a planned run and still fail at its end although no
    /// subtask of the plan was about them (the planner left them out, or its subtask was
    /// dropped): the run is then not `completed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unaddressed_failing_tests: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempt_outcomes_keep_their_words_and_read_old_ones_as_unknown() {
        let record = AttemptRecord {
            attempt: 1,
            outcome: AttemptOutcome::ApplyError,
            ..Default::default()
        };
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["outcome"], "apply_error");
        let old: AttemptRecord =
            serde_json::from_str(r#"{"attempt": 2, "outcome": "llm_error"}"#).unwrap();
        assert_eq!(old.outcome, AttemptOutcome::Unknown);
        let blocked: AttemptRecord =
            serde_json::from_str(r#"{"attempt": 3, "outcome": "blocked"}"#).unwrap();
        assert_eq!(blocked.outcome, AttemptOutcome::Blocked);
    }

    #[test]
    fn guard_activity_keeps_its_words_and_reads_the_kept_behaviour_gates_old_ones() {
        let record = GuardActivity::apply_blocked(1, "apply", "no edit".into());
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            (json["phase"].as_str(), json["status"].as_str()),
            (Some("apply"), Some("blocked"))
        );
        // The kept-behaviour gate once wrote `block` and `pass`: they read as the words every
        // other gate writes, so an old state file's refusals still count as refusals.
        let old: GuardActivity = serde_json::from_str(
            r#"{"attempt": 2, "phase": "dynamic", "guard": "kept-behaviour", "status": "block"}"#,
        )
        .unwrap();
        assert_eq!(
            (old.phase, old.status),
            (Phase::Dynamic, ActivityStatus::Blocked)
        );
        let summary = SubtaskSummary {
            guard_activity: vec![old, record],
            ..Default::default()
        };
        assert_eq!(summary.guards_fired(), ["kept-behaviour", "apply"]);
        let unknown: GuardActivity = serde_json::from_str(
            r#"{"attempt": 3, "phase": "static", "guard": "x", "status": "vetoed"}"#,
        )
        .unwrap();
        assert_eq!(unknown.status, ActivityStatus::Unknown);
    }

    #[test]
    fn an_advanced_baseline_remembers_the_tests_that_landed_work_fixed() {
        let set = |ids: &[&str]| ids.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        let start = Baseline {
            failing: set(&["t::a", "t::b", "t::c"]),
            ..Baseline::default()
        };
        let after_one = start.advanced_to(Baseline {
            failing: set(&["t::c"]),
            ..Baseline::default()
        });
        assert_eq!(after_one.fixed, set(&["t::a", "t::b"]));
        // A test fixed earlier that fails again is not "fixed" any more.
        let after_two = after_one.advanced_to(Baseline {
            failing: set(&["t::a"]),
            ..Baseline::default()
        });
        assert_eq!(after_two.fixed, set(&["t::b", "t::c"]));
    }
}
