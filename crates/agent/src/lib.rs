//! slopguard's agent: the guarded run loop over the analysis and planning of
//! `slopguard-planning` and the worker of `slopguard-worker` (both re-exported here under
//! their old paths, `analysis`, `plan`, `trace` and `worker`). The pull request and the CI
//! watch (`slopguard-forge`) and the feedback loop (`slopguard-feedback`) build on it.
//!
//! * [`analysis::analyze`] — the eleven metrics, failing test ids, the repo brief.
//! * [`plan::request_plan`] / [`plan::request_plan_blocking`] — the planner call.
//! * [`plan::post::run_all`] — the plan post-processors (failing tests first, test-only hints
//!   retargeted, README-only and repeatedly failing subtasks dropped, scope filter).
//! * [`process::run`] — toolchain commands with a timeout, killed as a process group.
//! * [`trace::Trace`] — JSON-lines trace events.
//! * [`run::execute`] — `slopguard run`: the guarded execution loop, resume, dry run; returns a
//!   [`run::RunSummary`] (the PR phase's input).
//! * [`worker`] — prompt (with the failing tests' context), plain-text reply parsing, reply to
//!   change set, static guards on the overlay.
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

pub use slopguard_planning::{analysis, plan, trace};
pub use slopguard_toolchain::process;
pub use slopguard_worker as worker;
