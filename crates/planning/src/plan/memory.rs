//! Prior failures from the store (G9 and the planner's "prior runs" block), fail-open.

use slopguard_store::BlockingStore;
use slopguard_store::failure_memory::{FailureMemory, Window, failure_memory};

/// Prior failures of one repo.
#[derive(Debug, Clone, Default)]
pub struct PriorFailures {
    /// Wide window (7 d / 200 rows), for G9.
    pub wide: FailureMemory,
    /// Lines for the planner prompt, from the narrow window (24 h / 20 rows).
    pub prompt_lines: Vec<String>,
}

/// Reads the failure memory of `repo` from the store at `db` (a `sqlite://` or `postgres://`
/// URL), or from the default SQLite file when `db` is `None` and that file exists. Never
/// creates a store; any error yields `None` (fail-open).
pub fn load(db: Option<&str>, repo: &str) -> Option<PriorFailures> {
    let url = match db {
        Some(u) if !u.trim().is_empty() => u.trim().to_string(),
        _ => {
            let p = slopguard_store::default_sqlite_path();
            if !p.exists() {
                return None;
            }
            format!("sqlite://{}", p.display())
        }
    };
    let store = BlockingStore::open(Some(&url))
        .map_err(|e| tracing::warn!(%e, "store unavailable; planning without failure memory"))
        .ok()?;
    let now = crate::trace::now_ms();
    let (wide, narrow) = (
        Window::WIDE.query(repo, now),
        Window::NARROW.query(repo, now),
    );
    let wide_rows = store.run(|s| s.agent_log(&wide));
    let narrow_rows = store.run(|s| s.agent_log(&narrow)).unwrap_or_default();
    store.close();
    Some(PriorFailures {
        wide: failure_memory(repo, &wide_rows.ok()?),
        prompt_lines: failure_memory(repo, &narrow_rows).prompt_lines(15),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_store::{NewObservation, Outcome, Store};

    #[test]
    fn reads_failures_of_this_repo_from_a_store() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = Store::open(&url).await.unwrap();
            for repo in ["mine", "mine", "theirs", "theirs", "theirs"] {
                let mut o = NewObservation::new(repo, "run", "slopguard", Outcome::Fail);
                o.touched_files = vec!["calc/ops.py".into()];
                store.record_observation(&o).await.unwrap();
            }
            store.close().await;
        });
        let pf = load(Some(&url), "mine").unwrap();
        assert_eq!(pf.wide.failures("calc/ops.py"), 2);
        assert_eq!(pf.prompt_lines.len(), 1);
        assert!(
            pf.prompt_lines[0].starts_with("calc/ops.py: 2 failures"),
            "{:?}",
            pf.prompt_lines
        );
        assert!(load(Some("bogus://x"), "mine").is_none());
    }
}
