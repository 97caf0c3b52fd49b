//! The evidence ledger: the commands a hook session ran and what they printed.
use sqlx::Row;

use super::*;

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

impl Store {
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
}
