//! [`Store`]: one interface over the SQLite and PostgreSQL backends. This module opens and
//! closes it; one submodule per table family adds its queries (`impl Store` blocks):
//! [`observations`], [`runs`], [`claims`], [`feedback`], [`evidence`], [`sessions`].

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};

use crate::types::*;
use crate::{Result, StoreError, migrate};

/// Which database a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file (WAL).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

#[derive(Debug)]
enum Pools {
    /// `write` has one connection (SQLite has one writer; queueing in-process is cheaper than
    /// busy-waiting); `read` has several (WAL readers do not block the writer).
    Sqlite {
        write: SqlitePool,
        read: SqlitePool,
        /// Observations waiting for the writer: whoever holds the single write connection
        /// inserts everything queued in one statement (group commit) and answers each waiter.
        queue: Arc<std::sync::Mutex<Vec<PendingObservation>>>,
        /// Background WAL checkpoints of a file store (`None` in memory, which has no WAL).
        checkpoints: Option<Arc<Checkpoints>>,
    },
    Postgres(PgPool),
}

/// An observation waiting for the SQLite group commit, with where to send its id.
type PendingObservation = (
    NewObservation,
    tokio::sync::oneshot::Sender<std::result::Result<i64, String>>,
);

/// WAL pages after which a connection checkpoints by itself when it commits. The store's own
/// checkpoints (see [`Checkpoints`]) normally run long before this; it bounds the WAL when they
/// cannot keep up, or when other processes write.
const WAL_AUTOCHECKPOINT_PAGES: &str = "8192";

/// Group commits between two background checkpoints.
const COMMITS_PER_CHECKPOINT: u64 = 128;

/// Background checkpoints of an SQLite store's WAL.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold, so the
/// single writer (and every POST queued behind it) stalls while pages are copied and the file
/// is synced: up to hundreds of milliseconds under load. Instead, every
/// [`COMMITS_PER_CHECKPOINT`] group commits a PASSIVE checkpoint runs on a read connection,
/// concurrently with the writer, and at most one at a time.
#[derive(Debug, Default)]
struct Checkpoints {
    commits: std::sync::atomic::AtomicU64,
    running: std::sync::atomic::AtomicBool,
}

impl Checkpoints {
    /// Counts one commit and starts a checkpoint on `read` when one is due and none is running.
    fn after_commit(self: &Arc<Self>, read: &SqlitePool) {
        use std::sync::atomic::Ordering;
        let n = self.commits.fetch_add(1, Ordering::Relaxed) + 1;
        if !n.is_multiple_of(COMMITS_PER_CHECKPOINT) || self.running.swap(true, Ordering::AcqRel) {
            return;
        }
        let (this, read) = (self.clone(), read.clone());
        tokio::spawn(async move {
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&read)
                .await
            {
                tracing::warn!("background WAL checkpoint failed: {e}");
            }
            this.running.store(false, Ordering::Release);
        });
    }
}

/// The observation store. Cheap to clone (shared pools).
#[derive(Debug, Clone)]
pub struct Store {
    pools: Arc<Pools>,
    url: Arc<str>,
}

/// Runs `$body` with `$p` bound to the read pool of whichever backend is open. The body is
/// expanded once per backend, so row types are inferred for each.
macro_rules! on_read {
    ($self:expr, |$p:ident| $body:expr) => {
        match &*$self.pools {
            Pools::Sqlite { read: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

/// Like [`on_read`] with the write pool.
macro_rules! on_write {
    ($self:expr, |$p:ident| $body:expr) => {
        match &*$self.pools {
            Pools::Sqlite { write: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

mod claims;
mod evidence;
mod feedback;
mod observations;
mod runs;
mod sessions;

fn json_text<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// How long opening a PostgreSQL store waits for the server's first connection.
pub(crate) const PG_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects once to the server of `opts` within [`PG_CONNECT_TIMEOUT`]: `Ok` when it answers
/// (whatever it then says about credentials or the database, which the pool reports),
/// [`StoreError::Unreachable`] when it is refused, cannot be resolved or does not answer.
async fn probe_postgres(opts: &PgConnectOptions) -> Result<()> {
    use sqlx::ConnectOptions;
    let server = format!("{}:{}", opts.get_host(), opts.get_port());
    let unreachable = |why: String| StoreError::Unreachable {
        server: server.clone(),
        why,
    };
    match tokio::time::timeout(PG_CONNECT_TIMEOUT, opts.connect()).await {
        Err(_) => Err(unreachable(format!(
            "no answer within {} s",
            PG_CONNECT_TIMEOUT.as_secs()
        ))),
        Ok(Err(sqlx::Error::Io(e))) => Err(unreachable(io_cause(&e))),
        Ok(Err(sqlx::Error::Tls(e))) => Err(unreachable(format!("TLS failed: {e}"))),
        Ok(Err(_)) => Ok(()),
        Ok(Ok(conn)) => {
            use sqlx::Connection;
            let _ = conn.close().await;
            Ok(())
        }
    }
}

/// The cause of a failed connection in a few words (`connection refused`, ...).
fn io_cause(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused => "connection refused".into(),
        std::io::ErrorKind::TimedOut => "the connection timed out".into(),
        _ => e.to_string(),
    }
}

/// Where the default SQLite file lives: `<data dir>/slopguard/slopguard.db`
/// (`~/.local/share/slopguard/slopguard.db` on Linux).
pub fn default_sqlite_path() -> PathBuf {
    dirs::data_dir()
        .or_else(|| dirs::home_dir().map(|h| h.join(".local").join("share")))
        .unwrap_or_else(std::env::temp_dir)
        .join("slopguard")
        .join("slopguard.db")
}

impl Store {
    /// Opens the default store: `SLOPGUARD_DB` when set, else the SQLite file under the user's
    /// data directory (the only directory the store creates, on first use).
    pub async fn open_default() -> Result<Store> {
        match std::env::var("SLOPGUARD_DB") {
            Ok(url) if !url.trim().is_empty() => Store::open(url.trim()).await,
            _ => {
                let path = default_sqlite_path();
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                        context: format!("creating the data directory {}", dir.display()),
                        source,
                    })?;
                }
                Store::open_sqlite(&path).await
            }
        }
    }

    /// Opens a store by URL: `sqlite://PATH` (also `sqlite:PATH`, `sqlite::memory:` and a bare
    /// file path) or `postgres://...` / `postgresql://...`. Creates the SQLite file when missing
    /// (its directory must exist) and applies pending migrations.
    pub async fn open(url: &str) -> Result<Store> {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Store::open_postgres(url).await;
        }
        let rest = if let Some(rest) = url.strip_prefix("sqlite://") {
            rest
        } else if let Some(rest) = url.strip_prefix("sqlite:") {
            rest
        } else if url.contains("://") || url.is_empty() {
            return Err(StoreError::BadUrl(url.to_owned()));
        } else {
            url
        };
        let path = rest.split('?').next().unwrap_or(rest);
        if path == ":memory:" || path.is_empty() {
            return Store::open_sqlite_memory().await;
        }
        Store::open_sqlite(Path::new(path)).await
    }

    /// The SQLite read pool (`None` on PostgreSQL), for this crate's own checks.
    #[cfg(test)]
    pub(crate) fn sqlite_read_pool(&self) -> Option<&SqlitePool> {
        match &*self.pools {
            Pools::Sqlite { read, .. } => Some(read),
            Pools::Postgres(_) => None,
        }
    }

    pub(crate) fn sqlite_options(path: &Path) -> SqliteConnectOptions {
        SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // NORMAL under WAL: a committed transaction survives the process being killed
            // (the WAL is written before COMMIT returns); only an OS crash or power loss can lose
            // the last transactions.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .pragma("temp_store", "memory")
            // Reads through a memory map instead of one pread() copy per page, and a 16 MiB page
            // cache per connection: the agent-log queries of a busy gateway stay in memory.
            .pragma("cache_size", "-16384")
            .pragma("wal_autocheckpoint", WAL_AUTOCHECKPOINT_PAGES)
    }

    /// Opens (creating when missing) an SQLite store file; its directory must exist
    /// ([`StoreError::MissingDir`] otherwise).
    pub async fn open_sqlite(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
            && !dir.is_dir()
        {
            return Err(StoreError::MissingDir {
                dir: dir.display().to_string(),
                file: path.display().to_string(),
            });
        }
        Self::open_sqlite_with(path, Self::sqlite_options(path)).await
    }

    /// [`Store::open_sqlite`] with its connection options given (this crate's tests: a short
    /// busy timeout, a size limit).
    pub(crate) async fn open_sqlite_with(path: &Path, opts: SqliteConnectOptions) -> Result<Store> {
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(opts.clone())
            .await?;
        migrate::sqlite(&write).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .min_connections(0)
            .connect_lazy_with(opts);
        Ok(Store {
            pools: Arc::new(Pools::Sqlite {
                write,
                read,
                queue: Arc::default(),
                checkpoints: Some(Arc::default()),
            }),
            url: format!("sqlite://{}", path.display()).into(),
        })
    }

    /// Opens a private in-memory SQLite store (tests, dry runs).
    pub async fn open_sqlite_memory() -> Result<Store> {
        let opts = SqliteConnectOptions::from_str("sqlite::memory:")?;
        // One connection shared by reads and writes: every connection would be its own database.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await?;
        migrate::sqlite(&pool).await?;
        Ok(Store {
            pools: Arc::new(Pools::Sqlite {
                write: pool.clone(),
                read: pool,
                queue: Arc::default(),
                checkpoints: None,
            }),
            url: "sqlite::memory:".into(),
        })
    }

    /// Opens a PostgreSQL store. The pool size is `SLOPGUARD_DB_POOL` (default 16). One
    /// connection is tried first, bounded by [`PG_CONNECT_TIMEOUT`], so an unreachable server
    /// is reported as such at once (the pool would retry a refused connection until its
    /// acquire timeout and then say only "timed out").
    pub async fn open_postgres(url: &str) -> Result<Store> {
        let opts = PgConnectOptions::from_str(url)?;
        probe_postgres(&opts).await?;
        let max = std::env::var("SLOPGUARD_DB_POOL")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|n| *n > 0)
            .unwrap_or(16);
        let pool = PgPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(opts)
            .await?;
        migrate::postgres(&pool).await?;
        Ok(Store {
            pools: Arc::new(Pools::Postgres(pool)),
            url: redact(url).into(),
        })
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        match &*self.pools {
            Pools::Sqlite { .. } => Backend::Sqlite,
            Pools::Postgres(_) => Backend::Postgres,
        }
    }

    /// The URL the store was opened with (password removed).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Checks the database answers (`SELECT 1`).
    pub async fn ping(&self) -> Result<()> {
        on_read!(self, |p| {
            sqlx::query("SELECT 1").execute(p).await?;
        });
        Ok(())
    }

    /// Closes the pools, waiting for connections to finish.
    pub async fn close(&self) {
        match &*self.pools {
            Pools::Sqlite { write, read, .. } => {
                read.close().await;
                write.close().await;
            }
            Pools::Postgres(p) => p.close().await,
        }
    }
}

/// Removes the password from a database URL for display.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((creds, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    let user = creds.split(':').next().unwrap_or("");
    format!("{scheme}://{user}:***@{host}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Connection;

    fn feedback(body_bytes: usize) -> NewFeedback {
        NewFeedback {
            repo: "r".into(),
            run_id: None,
            kind: "review".into(),
            target: None,
            body: serde_json::json!({"text": "x".repeat(body_bytes)}),
        }
    }

    #[tokio::test]
    async fn a_lock_held_past_the_busy_timeout_is_named_and_the_write_can_be_done_after() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let opts = Store::sqlite_options(&path).busy_timeout(Duration::from_millis(300));
        let store = Store::open_sqlite_with(&path, opts).await.unwrap();
        // Another process's writer, as a second connection holding the write lock.
        let mut other = sqlx::SqliteConnection::connect_with(&Store::sqlite_options(&path))
            .await
            .unwrap();
        sqlx::raw_sql("BEGIN EXCLUSIVE")
            .execute(&mut other)
            .await
            .unwrap();
        let err = store.add_feedback(&feedback(10)).await.unwrap_err();
        assert!(matches!(err, StoreError::Busy(_)), "{err:?}");
        assert!(
            err.to_string().contains("locked by another process"),
            "{err}"
        );
        assert!(
            !err.to_string().contains("  "),
            "one space between words: {err}"
        );
        sqlx::raw_sql("ROLLBACK").execute(&mut other).await.unwrap();
        store.add_feedback(&feedback(10)).await.unwrap();
        assert_eq!(store.list_feedback("r", 10).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_full_disk_is_named_and_nothing_of_the_refused_write_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let store = Store::open_sqlite(&path).await.unwrap();
        store.add_feedback(&feedback(10)).await.unwrap();
        let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
            .fetch_one(store.sqlite_read_pool().unwrap())
            .await
            .unwrap();
        store.close().await;
        // SQLite's own size limit fails a write exactly as a full disk does (SQLITE_FULL).
        let limit = (pages + 4).to_string();
        let opts = Store::sqlite_options(&path).pragma("max_page_count", limit);
        let store = Store::open_sqlite_with(&path, opts).await.unwrap();
        let err = store.add_feedback(&feedback(1 << 20)).await.unwrap_err();
        assert!(matches!(err, StoreError::Full(_)), "{err:?}");
        assert!(err.to_string().contains("disk is full"), "{err}");
        assert!(
            !err.to_string().contains("  "),
            "one space between words: {err}"
        );
        assert_eq!(store.list_feedback("r", 10).await.unwrap().len(), 1);
        store.add_feedback(&feedback(10)).await.unwrap();
        assert_eq!(store.list_feedback("r", 10).await.unwrap().len(), 2);
    }

    #[test]
    fn redacts_password() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
    }
}
