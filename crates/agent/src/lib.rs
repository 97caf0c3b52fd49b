//! slopguard's agent: the guarded run loop over the analysis and planning of
//! `slopguard-planning` (`analysis::analyze`, the planner call, the plan post-processors, the
//! trace) and the worker of `slopguard-worker` (prompts, reply reading, repair templates). The
//! pull request and the CI watch (`slopguard-forge`) and the feedback loop
//! (`slopguard-feedback`) build on it.
//!
//! * [`run::execute`] — `slopguard run`: the guarded execution loop, resume, dry run; returns a
//!   [`run::RunSummary`] (the PR phase's input).
//! * [`gates`] — the run pipeline's gates beyond the static guards (apply, build, G8,
//!   test-integrity, the failing tests, G9): metadata, failure modes, trace events, docs.
//! * [`dynamic`] — writes and exact reverts, build, G8 test-regression, test count.
//! * [`git`] — the run's worktree and branch, commits with `Slopguard-Subtask:` trailers.
//! * [`state`] — atomic run state and the repository lock.
//! * [`records`] — the records every phase writes (statuses, attempts, guard activity, the
//!   run record, the critics' reports): a leaf, depending on nothing of the run loop.

pub mod critics;
pub mod dynamic;
pub mod gates;
pub mod git;
pub mod records;
pub mod run;
pub mod state;
