//! Why a step on a feedback item stopped.

use slopguard_llm::LlmError;

use crate::inbox::InboxError;
use crate::refine::RefineError;
use crate::triage::TriageError;

/// Why a step stopped.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The step does not apply to the item as it is (its state, an empty note, a setting it
    /// cannot read): nothing changed. The message says what to do instead.
    #[error("{0}")]
    Refused(String),
    /// The store failed, or the item does not exist.
    #[error(transparent)]
    Inbox(#[from] InboxError),
    /// `approve`/`reject`: the store refused the move (the loop does not make it, or another
    /// process moved the item first).
    #[error(transparent)]
    NotMoved(InboxError),
    /// The item's row holds no review feedback.
    #[error("feedback {0} is not review feedback")]
    NotReviewFeedback(i64),
    /// What an earlier step should have left on the item is not there.
    #[error("{what}")]
    Missing {
        /// What is missing and what to do.
        what: String,
        /// Why the stored value did not read.
        #[source]
        source: serde_json::Error,
    },
    /// The model client could not be built.
    #[error(transparent)]
    Client(LlmError),
    /// The reviewer model is not reachable.
    #[error("cannot reach the reviewer model at {url}: {source}")]
    Unreachable {
        /// The reviewer's base URL.
        url: String,
        /// The client's error.
        #[source]
        source: LlmError,
    },
    /// The triage answer was refused (the item stays pending).
    #[error(transparent)]
    Triage(TriageError),
    /// The revised plan was refused (the plan stays as it was, still waiting).
    #[error(transparent)]
    Refine(RefineError),
    /// A file of the fix could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: String,
        /// The write's error.
        #[source]
        source: std::io::Error,
    },
}

impl StepError {
    /// Whether the step refused the item as it is (or the command's input) rather than failed:
    /// a usage error to the front end.
    pub fn is_refusal(&self) -> bool {
        matches!(self, StepError::Refused(_) | StepError::NotMoved(_))
    }
}
