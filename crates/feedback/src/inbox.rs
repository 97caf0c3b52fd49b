//! The feedback items of one repository in the store, driven from synchronous code (the CLI):
//! the store is async, so the inbox owns a small runtime, as the run's observation store does.

use std::path::{Path, PathBuf};

use slopguard_store::{
    BlockingStore, FeedbackRow, FeedbackTransition, FeedbackTransitionRow, LogQuery, NewObservation,
};

use super::{Intake, State};

/// Errors of the inbox, each saying what to do.
#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    /// The repository path cannot be opened.
    #[error("cannot open the repository {0}: {1}")]
    Repo(PathBuf, std::io::Error),
    /// The store cannot be opened or answered with an error.
    #[error("store: {0} (set --db or SLOPGUARD_DB to a sqlite:// or postgres:// URL)")]
    Store(#[from] slopguard_store::StoreError),
    /// No such item for this repository.
    #[error("no feedback item {0} for this repository (see `slopguard feedback list`)")]
    NotFound(i64),
    /// The move is not one the loop makes.
    #[error("feedback {id} is {from}; it cannot become {to}")]
    NotAllowed {
        /// The item.
        id: i64,
        /// Its state.
        from: &'static str,
        /// The refused state.
        to: &'static str,
    },
    /// Another process moved the item first.
    #[error(
        "feedback {0} changed state meanwhile (another process moved it); run the command again"
    )]
    Raced(i64),
}

/// The agent name of the observations `feedback verify` records.
pub const REMEMBER_AGENT: &str = "slopguard-feedback";

/// A verified fix the store remembers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RememberedFix {
    /// The feedback's text.
    pub symptom: String,
    /// Its fix class.
    pub class: String,
    /// The files the fix changed (code and test).
    pub files: Vec<String>,
}

/// One repository's feedback items.
pub struct Inbox {
    store: BlockingStore,
    root: PathBuf,
    repo: String,
}

impl Inbox {
    /// Opens the store at `db` (else SLOPGUARD_DB's default, the user store) for the
    /// repository at `repo` (any directory inside its work tree: the root is its top).
    pub fn open(db: Option<&str>, repo: &Path) -> Result<Inbox, InboxError> {
        let dir = repo
            .canonicalize()
            .map_err(|e| InboxError::Repo(repo.to_path_buf(), e))?;
        let root = slopguard_agent::git::toplevel(&dir)
            .ok()
            .and_then(|top| top.canonicalize().ok())
            .unwrap_or(dir);
        let store = BlockingStore::open(db)?;
        let repo = slopguard_store::repo_key_of_dir(&root);
        Ok(Inbox { store, root, repo })
    }

    /// The repository's root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The repository's key in the store.
    pub fn repo(&self) -> &str {
        &self.repo
    }

    /// Records `intake` as a pending item; its id.
    pub fn add(&self, intake: &Intake) -> Result<i64, InboxError> {
        let row = intake.to_row(&self.repo);
        Ok(self.store.run(|s| s.add_feedback(&row))?)
    }

    /// The item `id` of this repository.
    pub fn get(&self, id: i64) -> Result<FeedbackRow, InboxError> {
        match self.store.run(|s| s.feedback(id))? {
            Some(row) if row.feedback.repo == self.repo => Ok(row),
            _ => Err(InboxError::NotFound(id)),
        }
    }

    /// The newest `limit` items, optionally only those in `state`.
    pub fn list(&self, state: Option<State>, limit: u32) -> Result<Vec<FeedbackRow>, InboxError> {
        let rows = self.store.run(|s| s.list_feedback(&self.repo, limit))?;
        Ok(rows
            .into_iter()
            .filter(|r| state.is_none_or(|s| r.state == s.name()))
            .collect())
    }

    /// Every transition of item `id`, oldest first.
    pub fn history(&self, id: i64) -> Result<Vec<FeedbackTransitionRow>, InboxError> {
        Ok(self.store.run(|s| s.feedback_history(id))?)
    }

    /// Records an observation (a verified fix's symptom, class and files, for the failure
    /// memory); its id.
    pub fn observe(&self, obs: &NewObservation) -> Result<i64, InboxError> {
        Ok(self.store.run(|s| s.record_observation(obs))?)
    }

    /// The repository's verified fixes remembered by `feedback verify`, newest first: (symptom,
    /// fix class, files).
    pub fn remembered_fixes(&self, limit: u32) -> Result<Vec<RememberedFix>, InboxError> {
        let query = LogQuery {
            repo: Some(self.repo.clone()),
            agent: Some(REMEMBER_AGENT.into()),
            limit: Some(limit),
            ..LogQuery::default()
        };
        let rows = self.store.run(|s| s.agent_log(&query))?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let extra = r.extra?;
                Some(RememberedFix {
                    symptom: extra["symptom"].as_str()?.to_string(),
                    class: extra["fix_class"].as_str().unwrap_or("").to_string(),
                    files: r.touched_files,
                })
            })
            .collect())
    }

    /// Moves `row` to `to` with `note`, replacing its detail; refused when the loop does not
    /// make that move or another process moved the item first.
    pub fn transition(
        &self,
        row: &FeedbackRow,
        to: State,
        note: &str,
        detail: serde_json::Value,
    ) -> Result<(), InboxError> {
        let from = State::parse(&row.state).unwrap_or(State::Pending);
        if !from.may_move_to(to) {
            return Err(InboxError::NotAllowed {
                id: row.id,
                from: from.name(),
                to: to.name(),
            });
        }
        let transition = FeedbackTransition {
            feedback_id: row.id,
            from: from.name().into(),
            to: to.name().into(),
            note: note.into(),
            detail,
        };
        let moved = self.store.run(|s| s.transition_feedback(&transition))?;
        if moved {
            Ok(())
        } else {
            Err(InboxError::Raced(row.id))
        }
    }
}
