//! The observation store adapter: [`Observations`] opens the store once per run and records
//! into it fail-open (a store that cannot be opened or written loses observations, never the
//! run). A leaf of the pipeline: the run context holds it, `observe` decides what goes in.

use slopguard_store::{BlockingStore, NewObservation};

/// Records observations in the store, fail-open.
pub(super) struct Observations {
    store: Option<BlockingStore>,
}

impl Observations {
    /// The store at `db` (else the default store), or none when `disabled` or when it cannot
    /// be opened (said in a warning).
    pub(super) fn open(db: Option<&str>, disabled: bool) -> Self {
        let store = (!disabled)
            .then(|| BlockingStore::open(db))
            .and_then(|opened| {
                opened
                    .map_err(|e| tracing::warn!(%e, "store unavailable; observations not recorded"))
                    .ok()
            });
        Self { store }
    }

    pub(super) fn record(&self, obs: &NewObservation) -> Option<i64> {
        self.store
            .as_ref()?
            .run(|s| s.record_observation(obs))
            .map_err(|e| tracing::warn!(%e, "observation not recorded"))
            .ok()
    }

    pub(super) fn close(&self) {
        if let Some(store) = &self.store {
            store.close();
        }
    }
}
