//! What a watch reports: its status, each round, each fix, as data and as text.

use super::*;

/// How the watch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WatchStatus {
    /// Every check passed.
    Green,
    /// Checks failed and no fix round is left (or there was nothing to work from).
    Failing,
    /// The fix did not pass the guards: nothing was pushed.
    FixFailed,
    /// The deadline came before the checks finished.
    Deadline,
    /// No token, no matching remote, an unreadable PR, a network, git or model error.
    Error,
}

impl WatchStatus {
    /// `green`, `failing`, `fix_failed`, `deadline`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            WatchStatus::Green => "green",
            WatchStatus::Failing => "failing",
            WatchStatus::FixFailed => "fix_failed",
            WatchStatus::Deadline => "deadline",
            WatchStatus::Error => "error",
        }
    }
}

/// One check run's verdict, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckBrief {
    /// The check's name.
    pub name: String,
    /// `queued`, `in_progress`, `completed`.
    pub status: String,
    /// `success`, `failure`, ... when completed.
    pub conclusion: Option<String>,
}

/// The log a fix worked from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogInfo {
    /// The failed check.
    pub check: String,
    /// The failing step.
    pub step: String,
    /// The excerpt's lines.
    pub lines: Vec<String>,
    /// Lines of the step left out.
    pub omitted: usize,
}

/// One fix run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FixOutcome {
    /// The run's id (its files are under `.slopguard/runs/<id>/`).
    pub run_id: String,
    /// The run's status (`completed`, `failed`, ...).
    pub status: String,
    /// The local branch of the fix ("" when nothing landed).
    pub branch: String,
    /// The fix commit, when one landed.
    pub commit: Option<String>,
    /// Pushed to the PR's branch.
    pub pushed: bool,
    /// The gates that refused a candidate (`containment`, `symbol-preservation`, ...).
    pub blocked_by: Vec<String>,
    /// Why nothing landed, when nothing did.
    pub error: Option<String>,
}

/// One round: a watched commit, its verdict, and the fix when it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Round {
    /// 1-based.
    pub round: u32,
    /// The commit whose checks were watched.
    pub sha: String,
    /// `green`, `failed`, `pending` (the deadline came first).
    pub verdict: String,
    /// Every check run of the commit at the last poll.
    pub checks: Vec<CheckBrief>,
    /// The log the fix worked from.
    pub log: Option<LogInfo>,
    /// Repository files the log names (the fix's file hints).
    pub hints: Vec<String>,
    /// The fix run.
    pub fix: Option<FixOutcome>,
}

/// What the watch did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WatchReport {
    /// Id of this watch (its trace is under `.slopguard/ci-watch/<id>/`).
    pub watch_id: String,
    /// The PR's URL as given.
    pub pr_url: String,
    /// `owner/name` ("" when the URL did not parse).
    pub repo: String,
    /// The PR's number (0 when the URL did not parse).
    pub number: u64,
    /// The PR's head branch ("" before the PR was read).
    pub branch: String,
    /// How it ended.
    pub status: WatchStatus,
    /// One sentence saying how it ended (and, for an error, how to fix it).
    pub message: String,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// Check polls made.
    pub polls: u32,
    /// Wall-clock time.
    pub elapsed_ms: u64,
    /// The trace file (none when the watch stopped before it started).
    pub trace_path: Option<String>,
}

impl WatchReport {
    /// The text summary: a headline, one line per round (and its fix), the trace.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "CI watch of {} ({}): {}\n",
            self.pr_url,
            if self.branch.is_empty() {
                "branch unknown".to_string()
            } else {
                format!("branch {}", self.branch)
            },
            self.status.as_str()
        );
        out.push_str(&format!("{}\n", self.message));
        for r in &self.rounds {
            out.push_str(&round_text(r));
        }
        if let Some(t) = &self.trace_path {
            out.push_str(&format!("Trace: {t}\n"));
        }
        out
    }
}

/// `round N: <sha> <verdict> (checks)` and the log and fix lines under it.
pub(super) fn round_text(r: &Round) -> String {
    let checks = r
        .checks
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c.name,
                c.conclusion.as_deref().unwrap_or(&c.status)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = format!(
        "round {}: {} {} ({})\n",
        r.round,
        short_id(&r.sha),
        r.verdict,
        if checks.is_empty() {
            "no checks"
        } else {
            &checks
        }
    );
    if let Some(log) = &r.log {
        out.push_str(&format!(
            "  log: {} / {}: {} line(s) kept, {} left out; hints: {}\n",
            log.check,
            log.step,
            log.lines.len(),
            log.omitted,
            if r.hints.is_empty() {
                "none".to_string()
            } else {
                r.hints.join(", ")
            }
        ));
    }
    if let Some(fix) = &r.fix {
        out.push_str(&format!("  fix: {}\n", fix_text(fix)));
    }
    out
}

pub(super) fn fix_text(fix: &FixOutcome) -> String {
    match (&fix.commit, fix.pushed) {
        (Some(c), true) => format!(
            "run {} committed {} on {}, pushed",
            fix.run_id,
            short_id(c),
            fix.branch
        ),
        (Some(c), false) => format!(
            "run {} committed {} on {}, not pushed",
            fix.run_id,
            short_id(c),
            fix.branch
        ),
        (None, _) => format!(
            "run {} landed nothing{}{}",
            fix.run_id,
            if fix.blocked_by.is_empty() {
                String::new()
            } else {
                format!(" (blocked by: {})", fix.blocked_by.join(", "))
            },
            fix.error
                .as_deref()
                .map(|e| format!(": {}", e.lines().next().unwrap_or("")))
                .unwrap_or_default()
        ),
    }
}

/// `1800 s`, or `0.7 s` below ten seconds.
pub(super) fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(10) && d.subsec_millis() != 0 {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} s", d.as_secs())
    }
}
