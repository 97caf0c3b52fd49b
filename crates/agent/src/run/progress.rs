//! What the terminal view hears while the pipeline runs: [`ProgressEvent`] (phases, subtasks,
//! attempts, guard verdicts, one line per sampled candidate), the [`Progress`] sink the CLI
//! implements, and [`NoProgress`].

use crate::records::RunPhase;
use crate::run::summary::SubtaskStatus;

/// What the terminal view is told.
#[derive(Debug, Clone)]
pub enum ProgressEvent {
    /// A phase starts.
    Phase(RunPhase),
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
        /// What it said.
        status: crate::records::ActivityStatus,
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
