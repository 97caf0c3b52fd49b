//! The observation store adapter: [`Observations`] opens the store once per run and records
//! into it fail-open (a store that cannot be opened or written loses observations, never the
//! run). A leaf of the pipeline: the run context holds it, `observe` decides what goes in.

use slopguard_store::{NewObservation, Store};

/// Records observations in the store, fail-open.
pub(super) struct Observations {
    pub(super) rt: Option<tokio::runtime::Runtime>,
    pub(super) store: Option<Store>,
}

impl Observations {
    pub(super) fn open(db: Option<&str>, disabled: bool) -> Self {
        if disabled {
            return Self {
                rt: None,
                store: None,
            };
        }
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return Self {
                rt: None,
                store: None,
            };
        };
        let store = rt.block_on(async {
            let r = match db {
                Some(u) if !u.trim().is_empty() => Store::open(u.trim()).await,
                _ => Store::open_default().await,
            };
            match r {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::warn!(%e, "store unavailable; observations not recorded");
                    None
                }
            }
        });
        Self {
            rt: Some(rt),
            store,
        }
    }

    pub(super) fn record(&self, obs: &NewObservation) -> Option<i64> {
        let (Some(rt), Some(store)) = (&self.rt, &self.store) else {
            return None;
        };
        rt.block_on(store.record_observation(obs))
            .map_err(|e| tracing::warn!(%e, "observation not recorded"))
            .ok()
    }

    pub(super) fn close(&self) {
        if let (Some(rt), Some(store)) = (&self.rt, &self.store) {
            rt.block_on(store.close());
        }
    }
}
