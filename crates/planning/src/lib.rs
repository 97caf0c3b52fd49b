//! slopguard's analysis and planning, below the worker and the run loop:
//!
//! * [`analysis`]: [`analysis::analyze`], the eleven metrics, failing test ids, the repo brief.
//! * [`plan`]: the task plan, [`plan::request_plan`] / [`plan::request_plan_blocking`] (the
//!   planner call), [`plan::post::run_all`] (the deterministic post-processors: failing tests
//!   first, test-only hints retargeted, README-only and repeatedly failing subtasks dropped,
//!   scope filter), [`plan::pipeline`] (analysis, then the plan, then the post-processors:
//!   shared by `slopguard plan` and `run`).
//! * [`trace`]: [`trace::Trace`], the JSON-lines trace events every phase writes.

pub mod analysis;
pub mod plan;
pub mod trace;
