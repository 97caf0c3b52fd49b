//! The guard engine: the [`Guard`] trait, every guard, the stack runner and its output
//! formats (text, JSON, SARIF 2.1.0).
//!
//! A guard is a pure function of a change (before and after bytes of every touched file, the
//! base tree, the task and the configuration) to findings. Static guards never write to disk
//! and never use the network unless their configuration says so, so they can judge an LLM's
//! patch before anything is written.
//!
//! Layout, after ruff: one guard per module under [`guards`], its documentation in
//! `docs/<slug>.md` (shown by `slopguard guards explain`), its fixtures in
//! `tests/fixtures/<slug>/{fail_*,pass_*}`, and the list of all guards in [`registry`].

mod config;
mod context;
mod finding;
mod guard;
pub mod guards;
mod intent;
pub mod output;
mod parse_cache;
mod registry;
mod report;
mod runner;
pub mod text;

pub use config::{
    Config, ConfigError, DEFAULT_EXCLUDE, GuardSettings, PathSettings, SeverityOverride,
};
pub use context::{Context, FileView};
pub use finding::{Finding, Severity};
pub use guard::{Guard, GuardInfo};
pub use parse_cache::{AnalysisStore, ParseCache};
pub use registry::{find_guard, registry};
pub use report::{GuardOutcome, GuardStatus, Report, Verdict};
pub use runner::{run_static, run_static_in, run_static_parallel, run_static_with};
