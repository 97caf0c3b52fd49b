//! The run loop: `slopguard run` (execution loop, resume, dry run) and its
//! [`summary::RunSummary`], the input of the PR phase.
//!
//! The run loop is a pipeline of small modules, one step each; the state is persisted after
//! every step, so `--resume` continues at the first unfinished subtask:
//!
//! ```text
//! lifecycle::execute          preflight: repo, lock, config, endpoint, state, worktree
//!  -> schedule::plan_phase        analyse -> plan (plan::pipeline)
//!  -> schedule::execution_phase   reconcile; each unfinished subtask in order, or skip it
//!     -> subtask::run_subtask         baseline, fingerprint, failure context, attempts
//!        -> localise::localise_by_coverage  each test's lines; the targets, most suspect first
//!        -> attempt::run_attempt          prompts, candidates sampled; while the model
//!                                         writes, the last survivor, then repair templates
//!                                         (repair::TemplateQueue, no model) are judged
//!           -> judge::judge_statically        reply applied, static guards, doc scope,
//!                                             test values; a refused reply salvaged
//!           -> survivors::evaluate_survivors  most votes first, then smallest:
//!              judge::review_candidate -> judge::judge_dynamically -> trim::trim_fix
//!              (the parts the tests do not need put back) or judge::prove_candidate
//!           -> land::land                     commit (or dry-run revert), baseline advances
//!        -> critique::critique_attempt    step critic (when on)
//!        -> observe::record_outcome       state, trace, progress, store
//!  -> critique::critique_phase    the critics over the branch (when on)
//!  -> lifecycle::finish           status, metrics after, clean-up, summary
//! ```
//!
//! Around it: `options` ([`RunOptions`], [`PlanSource`]), `error` ([`RunError`]), `progress`
//! ([`Progress`], [`ProgressEvent`]), `store` (the observation store adapter), `context` (the
//! run context every step works on),
//! [`candidates`] (sampling schedule, votes), [`proof`] (the regression proof), [`summary`].

pub mod summary;

pub use summary::{
    AttemptRecord, GuardActivity, MetricValue, RunRecord, RunStatus, RunSummary, SubtaskStatus,
    SubtaskSummary, TaskSummary, TokenUsage,
};

mod attempt;
pub mod candidates;
mod carry;
mod context;
mod critique;
mod error;
mod infill;
mod judge;
mod land;
mod lifecycle;
mod localise;
mod observe;
mod options;
mod progress;
pub mod proof;
mod repair;
mod schedule;
mod store;
mod subtask;
mod survivors;
mod trim;

pub use error::RunError;
pub use lifecycle::{execute, summarize};
pub use options::{PlanSource, RunOptions};
pub use progress::{NoProgress, Progress, ProgressEvent};
pub use slopguard_worker::infill::InfillSetting;
