//! [`BlockingStore`]: the store for synchronous callers (a run, a hook process, the feedback
//! inbox), which drive the async [`Store`] on a current-thread tokio runtime of their own.
//! One adapter, so each caller does not build its own runtime-and-store pair.

use std::future::Future;

use crate::{Result, Store, StoreError};

/// A [`Store`] with the runtime that drives it.
pub struct BlockingStore {
    runtime: tokio::runtime::Runtime,
    store: Store,
}

impl BlockingStore {
    /// Opens the store at `url` (`sqlite://PATH`, `postgres://...`; see [`Store::open`]), or
    /// the default store ([`Store::open_default`]: `SLOPGUARD_DB`, else the user's SQLite file)
    /// when `url` is `None` or blank.
    pub fn open(url: Option<&str>) -> Result<BlockingStore> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|source| StoreError::Io {
                context: "starting the store's runtime".into(),
                source,
            })?;
        let store = runtime.block_on(async {
            match url.map(str::trim).filter(|u| !u.is_empty()) {
                Some(u) => Store::open(u).await,
                None => Store::open_default().await,
            }
        })?;
        Ok(BlockingStore { runtime, store })
    }

    /// Runs `call` on the store to its end: `store.run(|s| s.record_observation(&o))`.
    pub fn run<'s, F: Future>(&'s self, call: impl FnOnce(&'s Store) -> F) -> F::Output {
        self.runtime.block_on(call(&self.store))
    }

    /// Closes the store (waits for its connections to finish).
    pub fn close(&self) {
        self.runtime.block_on(self.store.close());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewObservation, Outcome};

    #[test]
    fn a_blocking_store_records_and_reads_back_without_an_async_caller() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let store = BlockingStore::open(Some(&format!("  {url} "))).unwrap();
        let o = NewObservation::new("repo", "run", "slopguard", Outcome::Fail);
        let id = store.run(|s| s.record_observation(&o)).unwrap();
        assert!(id > 0);
        store.close();
        let again = BlockingStore::open(Some(&url)).unwrap();
        assert_eq!(again.run(|s| s.count_observations()).unwrap(), 1);
        let missing = dir.path().join("no/such/dir/s.db");
        assert!(BlockingStore::open(Some(&format!("sqlite://{}", missing.display()))).is_err());
    }
}
