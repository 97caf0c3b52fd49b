//! Feedback: added, listed, moved through its states, with its history.
use sqlx::{AssertSqlSafe, Row};

use super::*;

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

impl Store {
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
}
