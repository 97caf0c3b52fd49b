//! The observation store: observations, runs, claims, feedback, the evidence ledger and agent
//! hook sessions, behind one interface ([`Store`]) over two backends:
//!
//! - **SQLite** (default): one file, WAL journal, created on first use under the user's data
//!   directory (`~/.local/share/slopguard/slopguard.db`) or at `sqlite://PATH`.
//! - **PostgreSQL** (`postgres://...`): one store shared by a fleet of machines.
//!
//! Times are integer milliseconds since the Unix epoch and JSON is stored as text, so the same
//! SQL (`$1` placeholders, `RETURNING`, `ON CONFLICT`) runs on both. Each backend has its own
//! versioned migrations (`migrations/sqlite`, `migrations/postgres`), applied on open.
//!
//! The crate also holds the G9 failure memory ([`failure_memory`]) and the [`Observer`] interface the
//! pipeline uses, with an in-process implementation ([`LocalObserver`]).

mod blocking;
mod migrate;
mod observer;
mod repo_key;
mod store;
mod types;

pub mod failure_memory;
pub mod review;

pub use blocking::BlockingStore;
pub use observer::{LocalObserver, Observer, compute_fingerprint};
pub use repo_key::{is_remote_url, repo_key_of_dir};
pub use store::{Backend, Store, default_sqlite_path};
pub use types::*;

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Input a client sent is not acceptable (bad field, unknown failure mode, ...). The message
    /// is meant for the client.
    #[error("{0}")]
    Invalid(String),
    /// The database URL is not one the store understands.
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://...")]
    BadUrl(String),
    /// The database failed.
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// Another process held the store's lock longer than the busy timeout (10 s). Nothing was
    /// written by the refused statement.
    #[error(
        "the store is locked by another process ({0}): another slopguard (a run, `serve`, a \
         hook) is writing to it; try again when it is done, or point --db / SLOPGUARD_DB at \
         another store"
    )]
    Busy(String),
    /// The disk (or the database's size limit) is full; the refused transaction was rolled
    /// back, so nothing of it is stored.
    #[error(
        "the store's disk is full ({0}): nothing of this write was kept; free space on the disk \
         that holds it, or point --db / SLOPGUARD_DB at a store elsewhere"
    )]
    Full(String),
    /// The store cannot be written (a read-only file, directory or mount).
    #[error(
        "the store is read-only ({0}): give the user write access to the file and its \
         directory, or point --db / SLOPGUARD_DB at a writable store"
    )]
    ReadOnly(String),
    /// A file system operation failed (creating the data directory).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The directory a SQLite store file should be in does not exist. The store never creates
    /// directories for a path the user named: a typo would otherwise grow a tree somewhere.
    #[error(
        "the directory {dir} of the store file {file} does not exist: create it (`mkdir -p {dir}`) \
         or point --db / SLOPGUARD_DB at a file in an existing directory"
    )]
    MissingDir {
        /// The missing directory.
        dir: String,
        /// The store file that was asked for.
        file: String,
    },
    /// The PostgreSQL server could not be reached (refused, unresolvable, or no answer within
    /// the connect timeout).
    #[error(
        "cannot reach PostgreSQL at {server}: {why}. Check that the server runs and listens \
         there, or point --db / SLOPGUARD_DB at another database"
    )]
    Unreachable {
        /// `host:port` of the server (no credentials).
        server: String,
        /// What went wrong (`connection refused`, `no answer within 5 s`, ...).
        why: String,
    },
    /// Stored data could not be decoded.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
}

impl From<sqlx::Error> for StoreError {
    /// Names the failures a user can act on (a lock held too long, a full disk, a read-only
    /// file) in their words; the rest stay database errors.
    fn from(e: sqlx::Error) -> Self {
        let Some(db) = e.as_database_error() else {
            return StoreError::Db(e);
        };
        let message = db.message().to_string();
        let code = db.code().map(|c| c.into_owned()).unwrap_or_default();
        if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
            // SQLite's extended result code; its low byte is the primary code.
            match code.parse::<i32>().map(|c| c & 0xff) {
                Ok(5 | 6) => StoreError::Busy(message),
                Ok(13) => StoreError::Full(message),
                Ok(8) => StoreError::ReadOnly(message),
                _ => StoreError::Db(e),
            }
        } else {
            // PostgreSQL's SQLSTATE: disk_full, lock_not_available, read_only_sql_transaction.
            match code.as_str() {
                "53100" => StoreError::Full(message),
                "55P03" => StoreError::Busy(message),
                "25006" => StoreError::ReadOnly(message),
                _ => StoreError::Db(e),
            }
        }
    }
}

/// Result type of the store.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
