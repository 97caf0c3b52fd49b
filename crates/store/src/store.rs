//! [`Store`]: one interface over the SQLite and PostgreSQL backends.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{AssertSqlSafe, PgPool, Row, SqlitePool};

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

/// Most observations one group commit inserts (13 parameters each).
const GROUP_COMMIT_MAX: usize = 500;

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

/// The columns of a feedback row, in the order [`decode_feedback`] reads them.
const FEEDBACK_COLUMNS: &str =
    "id, ts, repo, run_id, kind, target, body, state, detail, updated_ts";

/// Decodes a feedback row (either backend).
macro_rules! decode_feedback {
    ($row:expr) => {{
        let row = $row;
        let body: String = row.try_get("body")?;
        let detail: String = row.try_get("detail")?;
        FeedbackRow {
            id: row.try_get("id")?,
            ts_ms: row.try_get("ts")?,
            feedback: NewFeedback {
                repo: row.try_get("repo")?,
                run_id: row.try_get("run_id")?,
                kind: row.try_get("kind")?,
                target: row.try_get("target")?,
                body: serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
            },
            state: row.try_get("state")?,
            detail: serde_json::from_str(&detail).unwrap_or(serde_json::Value::Null),
            updated_ms: row.try_get("updated_ts")?,
        }
    }};
}

/// Decodes an observation row (either backend).
macro_rules! decode_observation {
    ($row:expr) => {{
        let row = $row;
        let ts_ms: i64 = row.try_get("ts")?;
        let outcome: String = row.try_get("outcome")?;
        let touched: String = row.try_get("touched_files")?;
        let modes: String = row.try_get("failure_modes")?;
        let extra: Option<String> = row.try_get("extra")?;
        ObservationRow {
            id: row.try_get("id")?,
            ts: rfc3339_ms(ts_ms),
            ts_ms,
            repo: row.try_get("repo")?,
            run_id: row.try_get("run_id")?,
            agent: row.try_get("agent")?,
            subtask_id: row.try_get("subtask_id")?,
            model: row.try_get("model")?,
            branch: row.try_get("branch")?,
            commit_sha: row.try_get("commit_sha")?,
            outcome: outcome.parse().unwrap_or(Outcome::Fail),
            touched_files: serde_json::from_str(&touched).unwrap_or_default(),
            failure_modes: decode_modes(&modes),
            confidence: row.try_get("confidence")?,
            extra: extra.and_then(|e| serde_json::from_str(&e).ok()),
        }
    }};
}

/// Binds one observation's 13 values to `$q` in the column order of [`insert_observations_sql`]
/// (owned values, so the query does not borrow the observation). `$now` stands in for a missing
/// `ts_ms`. A macro because the query types differ per backend and per call (rows or scalar).
macro_rules! bind_observation {
    ($q:expr, $obs:expr, $now:expr) => {{
        let obs: &NewObservation = $obs;
        $q.bind(obs.ts_ms.unwrap_or($now))
            .bind(obs.repo.clone())
            .bind(obs.run_id.clone())
            .bind(obs.agent.clone())
            .bind(obs.subtask_id.clone())
            .bind(obs.model.clone())
            .bind(obs.branch.clone())
            .bind(obs.commit_sha.clone())
            .bind(obs.outcome.as_str())
            .bind(json_text(&obs.touched_files)?)
            .bind(json_text(&obs.failure_modes)?)
            .bind(obs.confidence)
            .bind(obs.extra.as_ref().map(json_text).transpose()?)
    }};
}

/// Binds the parameters of [`log_filter`]'s SQL, in order.
macro_rules! bind_log_query {
    ($query:expr, $q:expr) => {{
        let mut query = $query;
        if let Some(r) = &$q.repo {
            query = query.bind(r.as_str());
        }
        if let Some(s) = $q.since_ms {
            query = query.bind(s);
        }
        if let Some(r) = &$q.run_id {
            query = query.bind(r.as_str());
        }
        if let Some(a) = &$q.agent {
            query = query.bind(a.as_str());
        }
        query
    }};
}

macro_rules! decode_claim {
    ($row:expr) => {{
        let row = $row;
        let expires_at_ms: i64 = row.try_get("expires_at")?;
        Claim {
            lock_id: row.try_get("lock_id")?,
            repo: row.try_get("repo")?,
            path: row.try_get("path")?,
            agent: row.try_get("agent")?,
            run_id: row.try_get("run_id")?,
            acquired_at_ms: row.try_get("acquired_at")?,
            expires_at_ms,
            expires_at: rfc3339_ms(expires_at_ms),
        }
    }};
}

macro_rules! decode_evidence {
    ($row:expr) => {{
        let row = $row;
        let ts_ms: i64 = row.try_get("ts")?;
        let argv: String = row.try_get("argv")?;
        EvidenceRow {
            id: row.try_get("id")?,
            ts_ms,
            evidence: NewEvidence {
                session_id: row.try_get("session_id")?,
                argv: serde_json::from_str(&argv).unwrap_or_default(),
                command: row.try_get("command")?,
                exit_code: row.try_get("exit_code")?,
                tests_passed: row.try_get("tests_passed")?,
                tests_failed: row.try_get("tests_failed")?,
                tests_collected: row.try_get("tests_collected")?,
                tree_hash: row.try_get("tree_hash")?,
                ts_ms: Some(ts_ms),
            },
        }
    }};
}

fn decode_modes(text: &str) -> Vec<FailureMode> {
    let raw: Vec<String> = serde_json::from_str(text).unwrap_or_default();
    raw.iter()
        .map(|m| m.parse().unwrap_or(FailureMode::Unknown))
        .collect()
}

fn json_text<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

const OBS_COLUMNS: &str = "id, ts, repo, run_id, agent, subtask_id, model, branch, commit_sha, \
     outcome, touched_files, failure_modes, confidence, extra";
const CLAIM_COLUMNS: &str = "lock_id, repo, path, agent, run_id, acquired_at, expires_at";

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

    // ---------------------------------------------------------------- observations

    /// Records an observation and returns its id. When this returns, the row is committed.
    ///
    /// On SQLite, concurrent calls are group-committed: the caller that gets the single write
    /// connection inserts every queued observation in one statement, and each caller gets its
    /// own id only after that commit.
    pub async fn record_observation(&self, obs: &NewObservation) -> Result<i64> {
        if let Pools::Sqlite {
            write,
            read,
            queue,
            checkpoints,
        } = &*self.pools
        {
            let after_commit = || {
                if let Some(c) = checkpoints {
                    c.after_commit(read);
                }
            };
            return group_commit(write, queue, obs, after_commit).await;
        }
        let sql = insert_observations_sql(1) + " RETURNING id";
        let id: i64 = on_write!(self, |p| {
            bind_observation!(
                sqlx::query_scalar(AssertSqlSafe(sql.clone())),
                obs,
                now_ms()
            )
            .fetch_one(p)
            .await?
        });
        Ok(id)
    }

    /// Inserts many observations in one transaction (seeding, imports). Returns how many.
    pub async fn record_observations_bulk(&self, rows: &[NewObservation]) -> Result<u64> {
        const CHUNK: usize = 500;
        let now = now_ms();
        let mut n = 0u64;
        on_write!(self, |p| {
            let mut tx = p.begin().await?;
            for chunk in rows.chunks(CHUNK) {
                let sql = insert_observations_sql(chunk.len());
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for obs in chunk {
                    q = bind_observation!(q, obs, now);
                }
                n += q.execute(&mut *tx).await?.rows_affected();
            }
            tx.commit().await?;
        });
        Ok(n)
    }

    /// Observations matching `q`, newest first.
    pub async fn agent_log(&self, q: &LogQuery) -> Result<Vec<ObservationRow>> {
        let filter = log_filter(q);
        let sql = format!("SELECT {OBS_COLUMNS} FROM observations{filter}");
        let rows = on_read!(self, |p| {
            let rows = bind_log_query!(sqlx::query(AssertSqlSafe(sql)), q)
                .fetch_all(p)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(decode_observation!(row));
            }
            out
        });
        Ok(rows)
    }

    /// The same rows as [`Store::agent_log`], already serialised by the database as the
    /// gateway's JSON array (one result row instead of one per observation: the fast path of
    /// `GET /repo/agent-log`). Deserialises to the same [`ObservationRow`]s, with `extra: null`
    /// where absent.
    pub async fn agent_log_json(&self, q: &LogQuery) -> Result<String> {
        let filter = log_filter(q);
        let json: Option<String> = match &*self.pools {
            Pools::Sqlite { read, .. } => {
                let sql = format!(
                    // The objects are built in the aggregate itself (building them in the
                    // subquery would lose their JSON subtype and re-parse each one). The
                    // aggregate takes the rows in the order the LIMITed subquery yields them
                    // (an ORDER BY inside the aggregate would sort them again in a temporary
                    // b-tree); the store's tests check the order.
                    "SELECT json_group_array(json_object(\
                     'id', id, \
                     'ts', strftime('%Y-%m-%dT%H:%M:%fZ', ts / 1000.0, 'unixepoch'), \
                     'ts_ms', ts, 'repo', repo, 'run_id', run_id, 'agent', agent, \
                     'subtask_id', subtask_id, 'model', model, 'branch', branch, \
                     'commit_sha', commit_sha, 'outcome', outcome, \
                     'touched_files', json(touched_files), 'failure_modes', json(failure_modes), \
                     'confidence', confidence, 'extra', json(extra))) \
                     FROM (SELECT * FROM observations{filter})"
                );
                bind_log_query!(sqlx::query_scalar(AssertSqlSafe(sql)), q)
                    .fetch_one(read)
                    .await?
            }
            Pools::Postgres(pool) => {
                let sql = format!(
                    "SELECT COALESCE(json_agg(t.o ORDER BY t.ts DESC, t.id DESC), '[]'::json)::text \
                     FROM (SELECT ts, id, json_build_object(\
                     'id', id, \
                     'ts', to_char(to_timestamp(ts / 1000) AT TIME ZONE 'UTC', \
                           'YYYY-MM-DD\"T\"HH24:MI:SS') || '.' || lpad((ts % 1000)::text, 3, '0') || 'Z', \
                     'ts_ms', ts, 'repo', repo, 'run_id', run_id, 'agent', agent, \
                     'subtask_id', subtask_id, 'model', model, 'branch', branch, \
                     'commit_sha', commit_sha, 'outcome', outcome, \
                     'touched_files', touched_files::json, 'failure_modes', failure_modes::json, \
                     'confidence', confidence, 'extra', extra::json) AS o \
                     FROM observations{filter}) t"
                );
                bind_log_query!(sqlx::query_scalar(AssertSqlSafe(sql)), q)
                    .fetch_one(pool)
                    .await?
            }
        };
        Ok(json.unwrap_or_else(|| "[]".to_owned()))
    }

    /// Number of stored observations.
    pub async fn count_observations(&self) -> Result<i64> {
        let n: i64 = on_read!(self, |p| {
            sqlx::query_scalar("SELECT COUNT(*) FROM observations")
                .fetch_one(p)
                .await?
        });
        Ok(n)
    }

    /// Every observation id at or above `min_id`, ascending (for integrity checks).
    pub async fn observation_ids(&self, min_id: i64) -> Result<Vec<i64>> {
        let ids: Vec<i64> = on_read!(self, |p| {
            sqlx::query_scalar("SELECT id FROM observations WHERE id >= $1 ORDER BY id")
                .bind(min_id)
                .fetch_all(p)
                .await?
        });
        Ok(ids)
    }

    // ---------------------------------------------------------------- runs

    /// Records the start of a run (or updates it when the id exists).
    pub async fn start_run(
        &self,
        run_id: &str,
        repo: &str,
        extra: Option<&serde_json::Value>,
    ) -> Result<()> {
        let extra = extra.map(json_text).transpose()?;
        let sql = "INSERT INTO runs (run_id, repo, started_at, status, extra) \
                   VALUES ($1, $2, $3, 'running', $4) \
                   ON CONFLICT (run_id) DO UPDATE SET repo = excluded.repo, \
                   started_at = excluded.started_at, status = excluded.status, \
                   extra = excluded.extra, finished_at = NULL";
        on_write!(self, |p| {
            sqlx::query(sql)
                .bind(run_id)
                .bind(repo)
                .bind(now_ms())
                .bind(&extra)
                .execute(p)
                .await?;
        });
        Ok(())
    }

    /// Marks a run finished with a status. Returns whether the run existed.
    pub async fn finish_run(&self, run_id: &str, status: &str) -> Result<bool> {
        let sql = "UPDATE runs SET finished_at = $1, status = $2 WHERE run_id = $3";
        let n = on_write!(self, |p| {
            sqlx::query(sql)
                .bind(now_ms())
                .bind(status)
                .bind(run_id)
                .execute(p)
                .await?
                .rows_affected()
        });
        Ok(n > 0)
    }

    /// One run.
    pub async fn get_run(&self, run_id: &str) -> Result<Option<RunRow>> {
        let sql = "SELECT run_id, repo, started_at, finished_at, status, extra FROM runs \
                   WHERE run_id = $1";
        let row = on_read!(self, |p| {
            match sqlx::query(sql).bind(run_id).fetch_optional(p).await? {
                Some(row) => {
                    let extra: Option<String> = row.try_get("extra")?;
                    Some(RunRow {
                        run_id: row.try_get("run_id")?,
                        repo: row.try_get("repo")?,
                        started_at_ms: row.try_get("started_at")?,
                        finished_at_ms: row.try_get("finished_at")?,
                        status: row.try_get("status")?,
                        extra: extra.and_then(|e| serde_json::from_str(&e).ok()),
                    })
                }
                None => None,
            }
        });
        Ok(row)
    }

    // ---------------------------------------------------------------- claims

    /// Tries to take a claim on `req.path`. Atomic: one `INSERT .. ON CONFLICT DO UPDATE ..
    /// WHERE expired` statement, so of many concurrent acquirers exactly one wins; an expired
    /// claim is taken over. The TTL is clamped to 30..=3600 s.
    pub async fn acquire_claim(&self, req: &ClaimRequest) -> Result<ClaimOutcome> {
        self.acquire_claim_at(req, now_ms()).await
    }

    /// [`Store::acquire_claim`] with an explicit clock (milliseconds since the epoch), for tests
    /// and replays: the claim starts at `now` and expired claims are those with
    /// `expires_at <= now`.
    pub async fn acquire_claim_at(&self, req: &ClaimRequest, now: i64) -> Result<ClaimOutcome> {
        if req.path.trim().is_empty() || req.agent.trim().is_empty() {
            return Err(StoreError::Invalid(
                "claim needs a non-empty path and agent".into(),
            ));
        }
        let ttl = req
            .ttl_seconds
            .unwrap_or(DEFAULT_CLAIM_TTL_S)
            .clamp(MIN_CLAIM_TTL_S, MAX_CLAIM_TTL_S);
        let insert = format!(
            "INSERT INTO claims ({CLAIM_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (repo, path) DO UPDATE SET lock_id = excluded.lock_id, \
             agent = excluded.agent, run_id = excluded.run_id, \
             acquired_at = excluded.acquired_at, expires_at = excluded.expires_at \
             WHERE claims.expires_at <= excluded.acquired_at \
             RETURNING {CLAIM_COLUMNS}"
        );
        let select = format!("SELECT {CLAIM_COLUMNS} FROM claims WHERE repo = $1 AND path = $2");
        // The holder may release between our failed insert and the read: try a few times.
        for _ in 0..5 {
            let lock_id = new_lock_id();
            let got = on_write!(self, |p| {
                match sqlx::query(AssertSqlSafe(insert.clone()))
                    .bind(&lock_id)
                    .bind(&req.repo)
                    .bind(&req.path)
                    .bind(&req.agent)
                    .bind(&req.run_id)
                    .bind(now)
                    .bind(now + ttl * 1000)
                    .fetch_optional(p)
                    .await?
                {
                    Some(row) => Some(decode_claim!(&row)),
                    None => None,
                }
            });
            if let Some(claim) = got {
                return Ok(ClaimOutcome::Acquired(claim));
            }
            let held = on_write!(self, |p| {
                match sqlx::query(AssertSqlSafe(select.clone()))
                    .bind(&req.repo)
                    .bind(&req.path)
                    .fetch_optional(p)
                    .await?
                {
                    Some(row) => Some(decode_claim!(&row)),
                    None => None,
                }
            });
            if let Some(claim) = held {
                return Ok(ClaimOutcome::Held(claim));
            }
        }
        Err(StoreError::Invalid(
            "claim contended too much; retry".into(),
        ))
    }

    /// Live (unexpired) claims, optionally only on one path, optionally only in one repo.
    pub async fn list_claims(&self, repo: Option<&str>, path: Option<&str>) -> Result<Vec<Claim>> {
        let mut sql = format!("SELECT {CLAIM_COLUMNS} FROM claims WHERE expires_at > $1");
        let mut n = 1;
        if repo.is_some() {
            n += 1;
            sql.push_str(&format!(" AND repo = ${n}"));
        }
        if path.is_some() {
            n += 1;
            sql.push_str(&format!(" AND path = ${n}"));
        }
        sql.push_str(" ORDER BY acquired_at, path LIMIT 10000");
        let claims = on_read!(self, |p| {
            let mut q = sqlx::query(AssertSqlSafe(sql)).bind(now_ms());
            if let Some(r) = repo {
                q = q.bind(r);
            }
            if let Some(pa) = path {
                q = q.bind(pa);
            }
            let rows = q.fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(decode_claim!(row));
            }
            out
        });
        Ok(claims)
    }

    /// Releases a claim. Only the owner may: by lock id, or by path with the owning agent.
    pub async fn release_claim(&self, release: &ClaimRelease) -> Result<ReleaseOutcome> {
        let (del_sql, args): (String, Vec<&str>) = match release {
            ClaimRelease::LockId(id) => (
                format!("DELETE FROM claims WHERE lock_id = $1 RETURNING {CLAIM_COLUMNS}"),
                vec![id.as_str()],
            ),
            ClaimRelease::PathAgent { repo, path, agent } => (
                format!(
                    "DELETE FROM claims WHERE repo = $1 AND path = $2 AND agent = $3 \
                     RETURNING {CLAIM_COLUMNS}"
                ),
                vec![repo.as_str(), path.as_str(), agent.as_str()],
            ),
        };
        let deleted = on_write!(self, |p| {
            let mut q = sqlx::query(AssertSqlSafe(del_sql));
            for a in &args {
                q = q.bind(*a);
            }
            match q.fetch_optional(p).await? {
                Some(row) => Some(decode_claim!(&row)),
                None => None,
            }
        });
        if let Some(claim) = deleted {
            return Ok(ReleaseOutcome::Released(claim));
        }
        let ClaimRelease::PathAgent { repo, path, .. } = release else {
            return Ok(ReleaseOutcome::NotFound);
        };
        let select = format!("SELECT {CLAIM_COLUMNS} FROM claims WHERE repo = $1 AND path = $2");
        let held = on_write!(self, |p| {
            match sqlx::query(AssertSqlSafe(select))
                .bind(repo.as_str())
                .bind(path.as_str())
                .fetch_optional(p)
                .await?
            {
                Some(row) => Some(decode_claim!(&row)),
                None => None,
            }
        });
        Ok(match held {
            Some(claim) if claim.expires_at_ms > now_ms() => ReleaseOutcome::NotOwner(claim),
            _ => ReleaseOutcome::NotFound,
        })
    }

    // ---------------------------------------------------------------- feedback

    /// Records a feedback row and returns its id.
    pub async fn add_feedback(&self, fb: &NewFeedback) -> Result<i64> {
        let body = json_text(&fb.body)?;
        let sql = "INSERT INTO feedback (ts, repo, run_id, kind, target, body) \
                   VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";
        let id: i64 = on_write!(self, |p| {
            sqlx::query_scalar(sql)
                .bind(now_ms())
                .bind(&fb.repo)
                .bind(&fb.run_id)
                .bind(&fb.kind)
                .bind(&fb.target)
                .bind(&body)
                .fetch_one(p)
                .await?
        });
        Ok(id)
    }

    /// Feedback rows of a repo, newest first.
    pub async fn list_feedback(&self, repo: &str, limit: u32) -> Result<Vec<FeedbackRow>> {
        let sql = format!(
            "SELECT {FEEDBACK_COLUMNS} FROM feedback WHERE repo = $1 ORDER BY ts DESC, id DESC LIMIT $2"
        );
        let rows = on_read!(self, |p| {
            let rows = sqlx::query(AssertSqlSafe(sql))
                .bind(repo)
                .bind(i64::from(limit.min(MAX_LOG_LIMIT)))
                .fetch_all(p)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(decode_feedback!(row));
            }
            out
        });
        Ok(rows)
    }

    /// One feedback row by id.
    pub async fn feedback(&self, id: i64) -> Result<Option<FeedbackRow>> {
        let sql = format!("SELECT {FEEDBACK_COLUMNS} FROM feedback WHERE id = $1");
        let row = on_read!(self, |p| {
            match sqlx::query(AssertSqlSafe(sql))
                .bind(id)
                .fetch_optional(p)
                .await?
            {
                Some(row) => Some(decode_feedback!(&row)),
                None => None,
            }
        });
        Ok(row)
    }

    /// Moves a feedback item from `t.from` to `t.to`, replacing its detail, and records the
    /// transition, in one transaction. `false` (and nothing written) when the item is not in
    /// `t.from` any more (another process moved it) or does not exist.
    pub async fn transition_feedback(&self, t: &FeedbackTransition) -> Result<bool> {
        let detail = json_text(&t.detail)?;
        let now = now_ms();
        let moved = on_write!(self, |p| {
            let mut tx = p.begin().await?;
            let n = sqlx::query(
                "UPDATE feedback SET state = $1, detail = $2, updated_ts = $3 \
                 WHERE id = $4 AND state = $5",
            )
            .bind(&t.to)
            .bind(&detail)
            .bind(now)
            .bind(t.feedback_id)
            .bind(&t.from)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 1 {
                sqlx::query(
                    "INSERT INTO feedback_transitions (feedback_id, ts, from_state, to_state, note) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(t.feedback_id)
                .bind(now)
                .bind(&t.from)
                .bind(&t.to)
                .bind(&t.note)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            n == 1
        });
        Ok(moved)
    }

    /// The transitions of a feedback item, oldest first.
    pub async fn feedback_history(&self, id: i64) -> Result<Vec<FeedbackTransitionRow>> {
        let sql = "SELECT ts, from_state, to_state, note FROM feedback_transitions \
                   WHERE feedback_id = $1 ORDER BY id";
        let rows = on_read!(self, |p| {
            let rows = sqlx::query(sql).bind(id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(FeedbackTransitionRow {
                    ts_ms: row.try_get("ts")?,
                    from: row.try_get("from_state")?,
                    to: row.try_get("to_state")?,
                    note: row.try_get("note")?,
                });
            }
            out
        });
        Ok(rows)
    }

    // ---------------------------------------------------------------- evidence ledger

    /// Appends an entry to the evidence ledger and returns its id.
    pub async fn add_evidence(&self, ev: &NewEvidence) -> Result<i64> {
        let argv = json_text(&ev.argv)?;
        let sql = "INSERT INTO evidence (ts, session_id, argv, command, exit_code, tests_passed, \
                   tests_failed, tests_collected, tree_hash) \
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";
        let id: i64 = on_write!(self, |p| {
            sqlx::query_scalar(sql)
                .bind(ev.ts_ms.unwrap_or_else(now_ms))
                .bind(&ev.session_id)
                .bind(&argv)
                .bind(&ev.command)
                .bind(ev.exit_code)
                .bind(ev.tests_passed)
                .bind(ev.tests_failed)
                .bind(ev.tests_collected)
                .bind(&ev.tree_hash)
                .fetch_one(p)
                .await?
        });
        Ok(id)
    }

    /// The evidence ledger of one session, oldest first.
    pub async fn list_evidence(&self, session_id: &str) -> Result<Vec<EvidenceRow>> {
        let sql = "SELECT id, ts, session_id, argv, command, exit_code, tests_passed, \
                   tests_failed, tests_collected, tree_hash FROM evidence \
                   WHERE session_id = $1 ORDER BY id";
        let rows = on_read!(self, |p| {
            let rows = sqlx::query(sql).bind(session_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(decode_evidence!(row));
            }
            out
        });
        Ok(rows)
    }

    // ---------------------------------------------------------------- hook sessions

    /// The state of a hook session (`None` when never written).
    pub async fn get_session(&self, session_id: &str) -> Result<Option<serde_json::Value>> {
        let sql = "SELECT state FROM hook_sessions WHERE session_id = $1";
        let state: Option<String> = on_read!(self, |p| {
            sqlx::query_scalar(sql)
                .bind(session_id)
                .fetch_optional(p)
                .await?
        });
        Ok(state.map(|s| parse_state(&s)))
    }

    /// Reads a hook session's state (`{}` when new), lets `f` change it, writes it back and
    /// returns the new state, atomically across concurrent processes: SQLite takes the write
    /// lock first (`BEGIN IMMEDIATE`), PostgreSQL locks the row (`SELECT .. FOR UPDATE`) in a
    /// transaction. A corrupt stored state is replaced by `{}`.
    pub async fn update_session(
        &self,
        session_id: &str,
        f: impl FnOnce(&mut serde_json::Value) + Send,
    ) -> Result<serde_json::Value> {
        let upsert = "INSERT INTO hook_sessions (session_id, state, updated_at) VALUES ($1, $2, $3) \
                      ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, \
                      updated_at = excluded.updated_at";
        let select = "SELECT state FROM hook_sessions WHERE session_id = $1";
        match &*self.pools {
            Pools::Sqlite { write, .. } => {
                let mut tx = write.begin_with("BEGIN IMMEDIATE").await?;
                let old: Option<String> = sqlx::query_scalar(select)
                    .bind(session_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                let mut state = old.map(|s| parse_state(&s)).unwrap_or_else(empty_state);
                f(&mut state);
                sqlx::query(upsert)
                    .bind(session_id)
                    .bind(json_text(&state)?)
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(state)
            }
            Pools::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query(
                    "INSERT INTO hook_sessions (session_id, state, updated_at) \
                     VALUES ($1, '{}', $2) ON CONFLICT (session_id) DO NOTHING",
                )
                .bind(session_id)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
                let old: String = sqlx::query_scalar(
                    "SELECT state FROM hook_sessions WHERE session_id = $1 FOR UPDATE",
                )
                .bind(session_id)
                .fetch_one(&mut *tx)
                .await?;
                let mut state = parse_state(&old);
                f(&mut state);
                sqlx::query(upsert)
                    .bind(session_id)
                    .bind(json_text(&state)?)
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(state)
            }
        }
    }
}

/// SQLite group commit (see [`Store::record_observation`]).
async fn group_commit(
    write: &SqlitePool,
    queue: &std::sync::Mutex<Vec<PendingObservation>>,
    obs: &NewObservation,
    after_commit: impl Fn(),
) -> Result<i64> {
    let (tx, mut rx) = tokio::sync::oneshot::channel();
    lock_queue(queue).push((obs.clone(), tx));
    loop {
        tokio::select! {
            biased;
            done = &mut rx => {
                return match done {
                    Ok(Ok(id)) => Ok(id),
                    Ok(Err(e)) => Err(StoreError::Corrupt(format!("group commit failed: {e}"))),
                    Err(_) => Err(StoreError::Corrupt("group commit dropped the write".into())),
                };
            }
            conn = write.acquire() => {
                let mut conn = conn?;
                loop {
                    let batch: Vec<PendingObservation> = {
                        let mut q = lock_queue(queue);
                        let n = q.len().min(GROUP_COMMIT_MAX);
                        q.drain(..n).collect()
                    };
                    if batch.is_empty() {
                        break;
                    }
                    match insert_batch(&mut conn, &batch).await {
                        Ok(ids) => {
                            after_commit();
                            for ((_, tx), id) in batch.into_iter().zip(ids) {
                                let _ = tx.send(Ok(id));
                            }
                        }
                        Err(e) => {
                            let msg = e.to_string();
                            for (_, tx) in batch {
                                let _ = tx.send(Err(msg.clone()));
                            }
                        }
                    }
                }
                // Our own entry went into a batch (ours or an earlier leader's), so its answer
                // is ready: the next turn of the loop receives it.
            }
        }
    }
}

fn lock_queue(
    queue: &std::sync::Mutex<Vec<PendingObservation>>,
) -> std::sync::MutexGuard<'_, Vec<PendingObservation>> {
    queue
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `INSERT INTO observations (...) VALUES ($1..$13), ($14..$26), ...` for `rows` observations.
/// Every insert binds, per row, in this column order: ts, repo, run_id, agent, subtask_id,
/// model, branch, commit_sha, outcome, touched_files, failure_modes, confidence, extra.
fn insert_observations_sql(rows: usize) -> String {
    const COLUMNS: usize = 13;
    let mut sql = String::from(
        "INSERT INTO observations (ts, repo, run_id, agent, subtask_id, model, branch, \
         commit_sha, outcome, touched_files, failure_modes, confidence, extra) VALUES ",
    );
    for i in 0..rows {
        if i > 0 {
            sql.push(',');
        }
        sql.push('(');
        for k in 1..=COLUMNS {
            if k > 1 {
                sql.push(',');
            }
            sql.push('$');
            sql.push_str(&(i * COLUMNS + k).to_string());
        }
        sql.push(')');
    }
    sql
}

/// Inserts a batch in one statement and returns the ids in batch order. SQLite assigns
/// AUTOINCREMENT ids to a multi-row VALUES list in order; RETURNING's row order is unspecified,
/// so the returned ids are sorted.
///
/// The statement runs in autocommit mode: its implicit transaction commits when the statement
/// completes, which `fetch_all` waits for, so the ids are handed out only after the COMMIT (one
/// round trip to the connection's thread instead of three for BEGIN, INSERT and COMMIT).
async fn insert_batch(
    conn: &mut sqlx::pool::PoolConnection<sqlx::Sqlite>,
    batch: &[PendingObservation],
) -> Result<Vec<i64>> {
    let now = now_ms();
    let mut sql = insert_observations_sql(batch.len());
    sql.push_str(" RETURNING id");
    let mut q = sqlx::query_scalar::<_, i64>(AssertSqlSafe(sql));
    for (obs, _) in batch {
        q = bind_observation!(q, obs, now);
    }
    let mut ids = q.fetch_all(&mut **conn).await?;
    if ids.len() != batch.len() {
        return Err(StoreError::Corrupt(format!(
            "inserted {} of {} observations",
            ids.len(),
            batch.len()
        )));
    }
    ids.sort_unstable();
    Ok(ids)
}

/// The `WHERE .. ORDER BY .. LIMIT` tail of an agent-log query, with `$n` placeholders in the
/// order [`bind_log_query`] binds them.
///
/// The limit is written into the SQL rather than bound: SQLite lets a bound LIMIT shape the
/// plan, so it marks the statement expired whenever that parameter is re-bound, and every
/// execution of a cached statement was parsed and planned again. The limit is our own clamped
/// integer, and the few distinct values each get their own cached statement.
fn log_filter(q: &LogQuery) -> String {
    let limit = q.limit.unwrap_or(DEFAULT_LOG_LIMIT).min(MAX_LOG_LIMIT);
    let mut conds: Vec<String> = Vec::new();
    let mut n = 0;
    let mut next = || {
        n += 1;
        format!("${n}")
    };
    if q.repo.is_some() {
        conds.push(format!("repo = {}", next()));
    }
    if q.since_ms.is_some() {
        conds.push(format!("ts >= {}", next()));
    }
    if q.run_id.is_some() {
        conds.push(format!("run_id = {}", next()));
    }
    if q.agent.is_some() {
        conds.push(format!("agent = {}", next()));
    }
    let mut sql = String::new();
    if !conds.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conds.join(" AND "));
    }
    sql.push_str(&format!(" ORDER BY ts DESC, id DESC LIMIT {limit}"));
    sql
}

fn empty_state() -> serde_json::Value {
    serde_json::Value::Object(serde_json::Map::new())
}

fn parse_state(text: &str) -> serde_json::Value {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) if !v.is_null() => v,
        Ok(_) => empty_state(),
        Err(e) => {
            tracing::warn!("corrupt hook session state replaced: {e}");
            empty_state()
        }
    }
}

/// A fresh lock id: 128 bits from SipHash keyed with the process's random `RandomState` keys over
/// a counter and the clock, hex-encoded. Unguessable for other clients, unique in practice.
fn new_lock_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut parts = [0u64; 2];
    for (i, part) in parts.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u128(nanos);
        h.write_usize(i);
        h.write_u32(std::process::id());
        *part = h.finish();
    }
    format!("{:016x}{:016x}", parts[0], parts[1])
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

    #[test]
    fn lock_ids_differ() {
        let a = new_lock_id();
        let b = new_lock_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
    }

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
