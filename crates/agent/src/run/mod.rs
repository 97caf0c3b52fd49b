//! Phase 3 orchestration: `slopguard run` (execution loop, resume, dry run) and its
//! [`summary::RunSummary`], the input of the PR phase.

pub mod summary;

pub use summary::{
    AttemptRecord, GuardActivity, MetricValue, RunRecord, RunStatus, RunSummary, SubtaskStatus,
    SubtaskSummary, TaskSummary, TokenUsage,
};

mod attempt;
pub mod candidates;
mod context;
mod critique;
mod error;
mod judge;
mod land;
mod lifecycle;
mod observe;
mod options;
mod progress;
pub mod proof;
mod schedule;
mod subtask;
mod survivors;

pub use error::RunError;
pub use lifecycle::{execute, summarize};
pub use options::{PlanSource, RunOptions};
pub use progress::{NoProgress, Progress, ProgressEvent};
