//! Errors of the change model.

use std::path::PathBuf;

/// Why a change could not be built. Every variant says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{0}` is not inside a git repository (run `git init`, or pass a path inside one)")]
    NotARepo(PathBuf),
    /// git refuses the repository because another user owns it (`safe.directory`).
    #[error(
        "git refuses the repository at {0} because another user owns it (\"dubious ownership\"). \
         If you trust it, run `git config --global --add safe.directory {0}`, or run slopguard as \
         the user who owns it"
    )]
    DubiousOwnership(PathBuf),
    #[error("git {args}: {message}")]
    Git { args: String, message: String },
    #[error("unknown revision `{0}` (check `git log` for a valid commit, branch or tag)")]
    UnknownRevision(String),
    #[error("invalid patch input: {0}")]
    InvalidPatch(String),
    #[error("{path}: hunk {hunk} does not apply: {reason}")]
    HunkFailed {
        path: String,
        hunk: usize,
        reason: String,
    },
    #[error("{path}: {reason}")]
    EditFailed { path: String, reason: String },
    #[error("invalid task file {path}: {reason}")]
    InvalidTask { path: PathBuf, reason: String },
}

impl ChangeError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ChangeError::Io {
            path: path.into(),
            source,
        }
    }
}
