//! Runs: started, finished, read back.
use sqlx::Row;

use super::*;

impl Store {
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
}
