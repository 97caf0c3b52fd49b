//! What the terminal view hears while the pipeline runs: [`ProgressEvent`] (phases, subtasks,
//! attempts, guard verdicts, one line per sampled candidate), the [`Progress`] sink the CLI
//! implements, and [`NoProgress`].

use std::time::Duration;

use serde_json::json;
use slopguard_llm::Sampling;

use crate::run::summary::{AttemptRecord, SubtaskStatus};

use super::context::Ctx;
use super::subtask::SubtaskRun;

/// What the terminal view is told.
#[derive(Debug, Clone)]
pub enum ProgressEvent {
    /// A phase starts.
    Phase(&'static str),
    /// The plan is known.
    Planned {
        /// Subtasks in the plan.
        subtasks: usize,
    },
    /// A subtask starts.
    SubtaskStart {
        /// 1-based index.
        index: usize,
        /// Subtasks in the plan.
        total: usize,
        /// Id.
        id: String,
        /// Title.
        title: String,
    },
    /// An attempt starts.
    Attempt {
        /// Subtask id.
        id: String,
        /// 1-based attempt.
        attempt: u32,
        /// Budget.
        max: u32,
    },
    /// A guard verdict.
    Guard {
        /// Subtask id.
        id: String,
        /// Guard slug.
        guard: String,
        /// `passed`, `blocked`, ...
        status: String,
    },
    /// A subtask ended.
    SubtaskEnd {
        /// Subtask id.
        id: String,
        /// Final status.
        status: SubtaskStatus,
        /// Commit, when committed.
        commit: Option<String>,
    },
    /// One sampled candidate and its verdict, as one line.
    Candidate(String),
    /// Free text (warnings, notes).
    Note(String),
}

/// Receives progress events (the CLI's terminal view).
pub trait Progress {
    /// Called for every event.
    fn on(&self, ev: &ProgressEvent);
}

/// Progress sink that ignores everything.
#[derive(Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn on(&self, _ev: &ProgressEvent) {}
}

/// What the progress line of a sampled candidate says about its model call.
pub(super) struct CandidateLine {
    pub(super) attempt: u32,
    pub(super) index: u32,
    pub(super) sampling: Sampling,
    pub(super) took: Duration,
    pub(super) completion_tokens: u64,
}

/// One progress line and one attempt-log line for a sampled candidate.
pub(super) fn candidate_line(
    cx: &Ctx<'_>,
    record: &mut AttemptRecord,
    run: &SubtaskRun,
    c: &CandidateLine,
    what: &str,
    verdict: &str,
) {
    let secs = c.took.as_secs_f64();
    let rate = if secs > 0.0 {
        c.completion_tokens as f64 / secs
    } else {
        0.0
    };
    let line = format!(
        "{} attempt {} candidate {} (t={:.1}): {what}, {} tokens in {secs:.1} s ({rate:.1} tok/s): {verdict}",
        run.id,
        c.attempt,
        c.index + 1,
        c.sampling.temperature.unwrap_or_default(),
        c.completion_tokens,
    );
    cx.progress.on(&ProgressEvent::Candidate(line.clone()));
    cx.emit(
        "execution",
        "worker.candidate",
        json!({"subtask_id": run.id, "attempt": c.attempt, "candidate": c.index + 1,
               "temperature": c.sampling.temperature, "seed": c.sampling.seed, "ms": c.took.as_millis() as u64,
               "completion_tokens": c.completion_tokens, "verdict": verdict}),
    );
    record.candidates.push(line);
}
