//! Hook sessions: their state, read and updated.

use super::*;

impl Store {
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
