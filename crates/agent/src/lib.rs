//! slopguard's agent: repository analysis (phase 1) and planning with deterministic
//! post-processors (phase 2). The worker loop (phase 3) builds on these.
//!
//! * [`analysis::analyze`] — the eleven metrics, failing test ids, the repo brief.
//! * [`plan::request_plan`] / [`plan::request_plan_blocking`] — the planner call.
//! * [`plan::post::run_all`] — Layer-A, Layer-2, Layer-B, G9, scope filter.
//! * [`process::run`] — toolchain commands with a timeout, killed as a process group.
//! * [`trace::Trace`] — JSON-lines trace events.

pub mod analysis;
pub mod dynamic;
pub mod forge;
pub mod git;
pub mod plan;
pub mod process;
pub mod run;
pub mod state;
pub mod trace;
pub mod worker;
