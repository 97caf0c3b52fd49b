//! [`Observer`]: what the pipeline asks of the observer, fail-open. Two implementations share it:
//! [`LocalObserver`] (the store in-process) and the gateway client in `slopguard-server`.

use std::path::Path;

use slopguard_fingerprint::Fingerprint;

use crate::Store;
use crate::types::*;

/// The observer as the pipeline uses it. Every method is fail-open: an unreachable or broken
/// observer yields the benign default (`None`, `[]`) and a warning on the log, never an error, so
/// a run never fails because of it.
#[async_trait::async_trait]
pub trait Observer: Send + Sync {
    /// The repository fingerprint of `target` (`None` when unavailable).
    async fn fingerprint(&self, target: &Path) -> Option<Fingerprint>;
    /// Agent-log rows, newest first (`[]` when unavailable).
    async fn agent_log(&self, query: &LogQuery) -> Vec<ObservationRow>;
    /// Records an observation; its id, or `None` when unavailable.
    async fn post_observation(&self, obs: &NewObservation) -> Option<i64>;
    /// Tries to claim a path; `None` when the observer is unavailable (callers then proceed
    /// unclaimed).
    async fn claim(&self, req: &ClaimRequest) -> Option<ClaimOutcome>;
    /// Releases a claim; `None` when unavailable.
    async fn release(&self, release: &ClaimRelease) -> Option<ReleaseOutcome>;
}

/// The store used in-process, without a gateway.
#[derive(Debug, Clone)]
pub struct LocalObserver {
    store: Store,
}

impl LocalObserver {
    /// Wraps an open store.
    pub fn new(store: Store) -> Self {
        LocalObserver { store }
    }

    /// The wrapped store.
    pub fn store(&self) -> &Store {
        &self.store
    }
}

/// Computes the fingerprint of a repository in-process (what `GET /repo/fingerprint` serves).
/// The error is a message fit for a log line or a 500 body.
pub fn compute_fingerprint(root: &Path) -> Result<Fingerprint, String> {
    slopguard_fingerprint::compute(root).map_err(|e| e.to_string())
}

#[async_trait::async_trait]
impl Observer for LocalObserver {
    async fn fingerprint(&self, target: &Path) -> Option<Fingerprint> {
        let root = target.to_path_buf();
        match tokio::task::spawn_blocking(move || compute_fingerprint(&root)).await {
            Ok(Ok(fp)) => Some(fp),
            Ok(Err(e)) => {
                tracing::warn!("fingerprint unavailable: {e}");
                None
            }
            Err(e) => {
                tracing::warn!("fingerprint task failed: {e}");
                None
            }
        }
    }

    async fn agent_log(&self, query: &LogQuery) -> Vec<ObservationRow> {
        self.store.agent_log(query).await.unwrap_or_else(|e| {
            tracing::warn!("agent log unavailable: {e}");
            Vec::new()
        })
    }

    async fn post_observation(&self, obs: &NewObservation) -> Option<i64> {
        self.store
            .record_observation(obs)
            .await
            .map_err(|e| tracing::warn!("observation not recorded: {e}"))
            .ok()
    }

    async fn claim(&self, req: &ClaimRequest) -> Option<ClaimOutcome> {
        self.store
            .acquire_claim(req)
            .await
            .map_err(|e| tracing::warn!("claim unavailable: {e}"))
            .ok()
    }

    async fn release(&self, release: &ClaimRelease) -> Option<ReleaseOutcome> {
        self.store
            .release_claim(release)
            .await
            .map_err(|e| tracing::warn!("release unavailable: {e}"))
            .ok()
    }
}
