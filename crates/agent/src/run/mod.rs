//! Phase 3 orchestration: `slopguard run` (execution loop, resume, dry run) and its
//! [`summary::RunSummary`], the input of the PR phase.

pub mod summary;

pub use summary::{
    AttemptRecord, GuardActivity, MetricValue, RunRecord, RunStatus, RunSummary, SubtaskStatus,
    SubtaskSummary, TaskSummary, TokenUsage,
};

pub mod candidates;
pub mod exec;
pub mod proof;

pub use exec::{
    NoProgress, PlanSource, Progress, ProgressEvent, RunError, RunOptions, execute, summarize,
};
