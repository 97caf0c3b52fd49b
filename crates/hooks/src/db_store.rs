//! [`SessionStore`] over slopguard's observation store (`slopguard_store::Store`): SQLite by
//! default (one file under the user's data directory, WAL), PostgreSQL when `SLOPGUARD_DB`
//! names one, so that many machines' agents share session state and the evidence ledger.
//!
//! Hook processes are short-lived and synchronous: the adapter drives the async store through
//! [`BlockingStore`] (a current-thread runtime of its own).

use slopguard_store::{BlockingStore, NewEvidence};

use crate::state::SessionState;
use crate::store::{LedgerEntry, SessionStore, StoreError};

/// Session state and ledger in the database.
pub struct DbStore {
    store: BlockingStore,
}

fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl DbStore {
    /// Opens the store at `url` (`sqlite://PATH`, `postgres://...`), or the default store
    /// (`SLOPGUARD_DB`, else the SQLite file in the user's data directory) when `None`.
    pub fn open(url: Option<&str>) -> Result<DbStore, StoreError> {
        let store = BlockingStore::open(url).map_err(backend)?;
        Ok(DbStore { store })
    }
}

impl SessionStore for DbStore {
    fn update(
        &self,
        session_id: &str,
        f: Box<dyn FnOnce(&mut SessionState) + Send + '_>,
    ) -> Result<SessionState, StoreError> {
        let value = self
            .store
            .run(|s| {
                s.update_session(session_id, move |v| {
                    // A state written by an older version (or corrupt) starts afresh.
                    let mut state: SessionState =
                        serde_json::from_value(v.clone()).unwrap_or_default();
                    f(&mut state);
                    *v = serde_json::to_value(&state).unwrap_or_else(|_| serde_json::json!({}));
                })
            })
            .map_err(backend)?;
        serde_json::from_value(value).map_err(backend)
    }

    fn add_evidence(&self, entry: &LedgerEntry) -> Result<(), StoreError> {
        let ev = &entry.evidence;
        let counts = ev.counts.as_ref();
        let row = NewEvidence {
            session_id: entry.session_id.clone(),
            argv: entry.argv.clone(),
            command: ev.command.clone(),
            exit_code: ev.exit_code,
            tests_passed: counts.map(|c| c.passed as i64),
            tests_failed: counts.map(|c| c.failed as i64),
            tests_collected: counts.map(|c| (c.passed + c.failed + c.skipped) as i64),
            tree_hash: Some(ev.tree_hash.clone()),
            ts_ms: None,
        };
        self.store
            .run(|s| s.add_evidence(&row))
            .map(|_| ())
            .map_err(backend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_and_ledger_appends() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let store = DbStore::open(Some(&url)).unwrap();
        let s = store
            .update(
                "sess-1",
                Box::new(|s: &mut SessionState| s.stop_blocks += 1),
            )
            .unwrap();
        assert_eq!(s.stop_blocks, 1);
        // A second handle (another hook process) sees the update.
        let other = DbStore::open(Some(&url)).unwrap();
        let s = other
            .update(
                "sess-1",
                Box::new(|s: &mut SessionState| s.stop_blocks += 1),
            )
            .unwrap();
        assert_eq!(s.stop_blocks, 2);
        let s = other
            .update("sess-2", Box::new(|_s: &mut SessionState| {}))
            .unwrap();
        assert_eq!(s.stop_blocks, 0, "sessions are separate");
    }
}
