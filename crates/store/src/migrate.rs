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
const SQLITE: &[(i64, &str)] = &[(1, include_str!("../migrations/sqlite/0001_init.sql"))];

/// PostgreSQL migrations: (version, SQL).
const POSTGRES: &[(i64, &str)] = &[(1, include_str!("../migrations/postgres/0001_init.sql"))];

/// The schema version this build expects.
pub(crate) const LATEST: i64 = 1;

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
        && v >= LATEST
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
    #[test]
    fn versions_are_contiguous() {
        for list in [super::SQLITE, super::POSTGRES] {
            for (i, (v, _)) in list.iter().enumerate() {
                assert_eq!(*v, i as i64 + 1);
            }
            assert_eq!(list.last().map(|(v, _)| *v), Some(super::LATEST));
        }
    }
}
