//! Agent-loop guardrails behind Claude Code's and Codex's hook protocols.
//!
//! `slopguard hook claude` / `slopguard hook codex` read one hook event on stdin and answer in
//! the agent's protocol ([`protocol`]). The guardrails:
//!
//! - **containment** ([`containment`]): an edit whose path resolves outside the project (an
//!   absolute path, `..`, a symlink that leaves it), into `.git/`, or with a NUL byte is denied
//!   with the reason, or put to the user (`[hooks] outside_root`), before anything else;
//! - **guard before write** ([`edits`], [`engine::EditJudge`]): the file as it would be after
//!   Write / Edit / MultiEdit / `apply_patch` is judged by the static guard stack; a block
//!   denies the tool call with the findings as the reason;
//! - **evidence ledger** ([`validation`], [`counts`], [`state::Evidence`]): every validation
//!   command is recorded with its exit code, test counts and the tree hash ([`tree`]) it ran on;
//! - **verification gate** ([`state::decide_stop`]): a stop after edits needs a successful
//!   validation on the current tree, or fresh evidence for every criterion of a goal file
//!   ([`goal`]); it blocks once per stop sequence, never forever;
//! - **doom-loop nudge** ([`state::record_edit`]): the Nth edit of one file gets one nudge.
//!
//! Session state persists through [`store::SessionStore`]; [`install`] writes the agents' hook
//! configuration.

pub mod config;
pub mod containment;
pub mod counts;
pub mod db_store;
pub mod edits;
pub mod engine;
pub mod goal;
pub mod install;
pub mod protocol;
pub mod state;
pub mod store;
pub mod tree;
pub mod validation;

pub use config::HookConfig;
pub use engine::{Deps, EditJudge, Judgement, PassJudge, handle};
pub use protocol::{Agent, HookAnswer, HookInput};
