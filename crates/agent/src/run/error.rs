//! [`RunError`]: what stops a run at any step of the pipeline (the state stays on disk and
//! `--resume` continues).

use crate::dynamic;
use crate::git;
use crate::state;

/// Errors that stop a run (the state stays on disk; `--resume` continues).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A git operation failed.
    #[error(transparent)]
    Git(#[from] git::GitError),
    /// State or lock.
    #[error(transparent)]
    State(#[from] state::StateError),
    /// The LLM endpoint is unreachable.
    #[error("{0}")]
    LlmUnreachable(String),
    /// The LLM client could not be built or answered unusably for planning.
    #[error("{0}")]
    Llm(String),
    /// Bad input (plan file, config, branch).
    #[error("{0}")]
    Input(String),
    /// Nothing to resume.
    #[error("no unfinished run to resume in {0} (start one without --resume)")]
    NothingToResume(String),
    /// Writing the worktree failed.
    #[error(transparent)]
    Write(#[from] dynamic::WriteError),
}

impl From<crate::critics::CriticsError> for RunError {
    /// The critique phase's failures are the run's: the same git or worktree error.
    fn from(e: crate::critics::CriticsError) -> Self {
        match e {
            crate::critics::CriticsError::Git(e) => RunError::Git(e),
            crate::critics::CriticsError::Write(e) => RunError::Write(e),
        }
    }
}
