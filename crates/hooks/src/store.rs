//! Session persistence behind a small trait: read-modify-write of one session's state,
//! atomic across concurrent hook processes, plus an append-only evidence ledger.
//!
//! [`FileStore`] keeps one JSON file per session under `<repo>/.slopguard/hooks/` and
//! serialises writers with an exclusive `flock` on a lock file; [`MemoryStore`] is for tests.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::state::{Evidence, SessionState};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// File system failure.
    #[error("session store: {0}")]
    Io(#[from] std::io::Error),
    /// Backend failure (database).
    #[error("session store: {0}")]
    Backend(String),
}

/// A ledger row: one validation run of a session.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LedgerEntry {
    /// The agent session.
    pub session_id: String,
    /// The argument vector of the first validation in the command, when recognised.
    pub argv: Vec<String>,
    /// The run.
    pub evidence: Evidence,
}

/// Where hook sessions live.
pub trait SessionStore {
    /// Atomically loads the session's state (default when new), applies `f`, saves and returns
    /// the new state. Concurrent calls for one session never lose an update.
    fn update(
        &self,
        session_id: &str,
        f: Box<dyn FnOnce(&mut SessionState) + Send + '_>,
    ) -> Result<SessionState, StoreError>;

    /// Appends a ledger entry.
    fn add_evidence(&self, entry: &LedgerEntry) -> Result<(), StoreError>;
}

/// In-memory store (tests).
#[derive(Debug, Default)]
pub struct MemoryStore {
    sessions: Mutex<HashMap<String, SessionState>>,
    ledger: Mutex<Vec<LedgerEntry>>,
}

impl MemoryStore {
    /// The ledger so far.
    pub fn ledger(&self) -> Vec<LedgerEntry> {
        self.ledger.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

impl SessionStore for MemoryStore {
    fn update(
        &self,
        session_id: &str,
        f: Box<dyn FnOnce(&mut SessionState) + Send + '_>,
    ) -> Result<SessionState, StoreError> {
        let mut map = self
            .sessions
            .lock()
            .map_err(|_| StoreError::Backend("poisoned".into()))?;
        let state = map.entry(session_id.to_string()).or_default();
        f(state);
        Ok(state.clone())
    }

    fn add_evidence(&self, entry: &LedgerEntry) -> Result<(), StoreError> {
        self.ledger
            .lock()
            .map_err(|_| StoreError::Backend("poisoned".into()))?
            .push(entry.clone());
        Ok(())
    }
}

/// One JSON file per session in a directory, writers serialised by `flock`.
#[derive(Debug, Clone)]
pub struct FileStore {
    dir: PathBuf,
}

impl FileStore {
    /// A store in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> FileStore {
        FileStore { dir: dir.into() }
    }

    /// The default place for a repository: `<root>/.slopguard/hooks`.
    pub fn for_repo(root: &Path) -> FileStore {
        FileStore::new(root.join(".slopguard").join("hooks"))
    }

    fn file(&self, session_id: &str, ext: &str) -> PathBuf {
        let safe: String = session_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(128)
            .collect();
        self.dir.join(format!("{safe}.{ext}"))
    }
}

struct Flock(std::fs::File);

impl Flock {
    fn exclusive(path: &Path) -> std::io::Result<Flock> {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a valid, owned file descriptor; released on close.
            #[allow(unsafe_code, reason = "flock(2) has no safe wrapper in std")]
            let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) };
            if rc != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(Flock(f))
    }
}

impl Drop for Flock {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: unlocking the descriptor we locked.
            #[allow(unsafe_code, reason = "flock(2) has no safe wrapper in std")]
            unsafe {
                libc::flock(self.0.as_raw_fd(), libc::LOCK_UN);
            }
        }
    }
}

impl SessionStore for FileStore {
    fn update(
        &self,
        session_id: &str,
        f: Box<dyn FnOnce(&mut SessionState) + Send + '_>,
    ) -> Result<SessionState, StoreError> {
        std::fs::create_dir_all(&self.dir)?;
        let _lock = Flock::exclusive(&self.file(session_id, "lock"))?;
        let path = self.file(session_id, "json");
        let mut state: SessionState = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => SessionState::default(),
            Err(e) => return Err(e.into()),
        };
        f(&mut state);
        let tmp = self.file(session_id, "json.tmp");
        let bytes = serde_json::to_vec(&state).map_err(|e| StoreError::Backend(e.to_string()))?;
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, &path)?;
        Ok(state)
    }

    fn add_evidence(&self, entry: &LedgerEntry) -> Result<(), StoreError> {
        std::fs::create_dir_all(&self.dir)?;
        let _lock = Flock::exclusive(&self.file(&entry.session_id, "lock"))?;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.file(&entry.session_id, "ledger.jsonl"))?;
        let mut line = serde_json::to_vec(entry).map_err(|e| StoreError::Backend(e.to_string()))?;
        line.push(b'\n');
        f.write_all(&line)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_updates_are_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path());
        std::thread::scope(|s| {
            for _ in 0..8 {
                let store = store.clone();
                s.spawn(move || {
                    for _ in 0..25 {
                        store.update("sess", Box::new(|st| st.edits += 1)).unwrap();
                    }
                });
            }
        });
        let st = store.update("sess", Box::new(|_| {})).unwrap();
        assert_eq!(st.edits, 200);
    }
}
