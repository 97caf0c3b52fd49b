//! Versioned migrations, one list per backend.
//!
//! SQLite keeps the applied version in `PRAGMA user_version` (one cheap read when nothing is to
//! do, which matters for short-lived hook processes); migrations run under `BEGIN IMMEDIATE` and
//! re-check the version, so two processes opening a fresh file at once apply them once.
//! PostgreSQL keeps applied versions in `slopguard_migrations` and serialises migrators with a
//! transaction-scoped advisory lock.

use sqlx::{PgPool, SqlitePool};

use crate::Result;

/// SQLite migrations: (version, SQL). Versions start at 1 and increase by one.
const SQLITE: &[(i64, &str)] = &[
    (1, include_str!("../migrations/sqlite/0001_init.sql")),
    (
        2,
        include_str!("../migrations/sqlite/0002_agent_log_covering_index.sql"),
    ),
    (
        3,
        include_str!("../migrations/sqlite/0003_feedback_states.sql"),
    ),
];

/// PostgreSQL migrations: (version, SQL).
const POSTGRES: &[(i64, &str)] = &[
    (1, include_str!("../migrations/postgres/0001_init.sql")),
    (
        2,
        include_str!("../migrations/postgres/0002_feedback_states.sql"),
    ),
];

/// The schema version this build expects on SQLite.
pub(crate) const LATEST: i64 = 3;

/// The schema version this build expects on PostgreSQL.
pub(crate) const LATEST_POSTGRES: i64 = 2;

/// Applies pending SQLite migrations.
pub(crate) async fn sqlite(pool: &SqlitePool) -> Result<()> {
    let current: i64 = sqlx::query_scalar("PRAGMA user_version")
        .fetch_one(pool)
        .await?;
    if current >= LATEST {
        return Ok(());
    }
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let current: i64 = sqlx::query_scalar("PRAGMA user_version")
        .fetch_one(&mut *tx)
        .await?;
    for (version, sql) in SQLITE.iter().filter(|(v, _)| *v > current) {
        tracing::info!(version, "applying SQLite migration");
        sqlx::raw_sql(*sql).execute(&mut *tx).await?;
        let set = format!("PRAGMA user_version = {version}");
        sqlx::raw_sql(sqlx::AssertSqlSafe(set))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Applies pending PostgreSQL migrations.
pub(crate) async fn postgres(pool: &PgPool) -> Result<()> {
    // Fast path: the table exists and is current.
    let current: std::result::Result<Option<i64>, sqlx::Error> =
        sqlx::query_scalar("SELECT MAX(version) FROM slopguard_migrations")
            .fetch_one(pool)
            .await;
    if let Ok(Some(v)) = current
        && v >= LATEST_POSTGRES
    {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    // An arbitrary constant key: "slopguard" on a phone keypad.
    sqlx::query("SELECT pg_advisory_xact_lock(756746827)")
        .execute(&mut *tx)
        .await?;
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS slopguard_migrations (
            version BIGINT PRIMARY KEY,
            applied_at BIGINT NOT NULL
        )",
    )
    .execute(&mut *tx)
    .await?;
    let current: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM slopguard_migrations")
        .fetch_one(&mut *tx)
        .await?;
    let current = current.unwrap_or(0);
    for (version, sql) in POSTGRES.iter().filter(|(v, _)| *v > current) {
        tracing::info!(version, "applying PostgreSQL migration");
        sqlx::raw_sql(*sql).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO slopguard_migrations (version, applied_at) VALUES ($1, $2)")
            .bind(version)
            .bind(crate::now_ms())
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use sqlx::sqlite::SqlitePoolOptions;

    use crate::{LogQuery, NewObservation, Outcome, Store};

    /// A file made by a version-1 build opens, is upgraded in place, and keeps its rows; the
    /// agent-log query then reads through the covering index.
    #[tokio::test]
    async fn version_1_file_is_upgraded_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.db");
        let opts = Store::sqlite_options(&path);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(opts)
            .await
            .unwrap();
        sqlx::raw_sql(super::SQLITE[0].1)
            .execute(&pool)
            .await
            .unwrap();
        sqlx::raw_sql(
            "PRAGMA user_version = 1; \
             INSERT INTO observations (ts, repo, run_id, agent, outcome) \
             VALUES (5, 'r', 'run-1', 'a', 'fail')",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;

        let store = Store::open_sqlite(&path).await.unwrap();
        store
            .record_observation(&NewObservation::new("r", "run-2", "a", Outcome::Success))
            .await
            .unwrap();
        let rows = store
            .agent_log(&LogQuery {
                repo: Some("r".into()),
                ..Default::default()
            })
            .await
            .unwrap();
        let runs: Vec<&str> = rows.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(runs, ["run-2", "run-1"]);
        let read = store.sqlite_read_pool().expect("an SQLite store");
        let version: i64 = sqlx::query_scalar("PRAGMA user_version")
            .fetch_one(read)
            .await
            .unwrap();
        assert_eq!(version, super::LATEST);
        let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(
            "EXPLAIN QUERY PLAN SELECT * FROM observations WHERE repo = 'r' AND ts >= 0 \
             ORDER BY ts DESC, id DESC LIMIT 20",
        )
        .fetch_all(read)
        .await
        .unwrap();
        let plan = plan.into_iter().map(|r| r.3).collect::<Vec<_>>().join("; ");
        assert!(
            plan.contains("COVERING INDEX observations_repo_ts_cover"),
            "{plan}"
        );
    }

    #[test]
    fn versions_are_contiguous() {
        for (list, latest) in [
            (super::SQLITE, super::LATEST),
            (super::POSTGRES, super::LATEST_POSTGRES),
        ] {
            for (i, (v, _)) in list.iter().enumerate() {
                assert_eq!(*v, i as i64 + 1);
            }
            assert_eq!(list.last().map(|(v, _)| *v), Some(latest));
        }
    }
}
