//! Observations: recorded (group-committed on SQLite), listed as the agent log, counted.
use sqlx::{AssertSqlSafe, Row};

use super::*;

/// Most observations one group commit inserts (13 parameters each).
const GROUP_COMMIT_MAX: usize = 500;

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
fn decode_modes(text: &str) -> Vec<FailureMode> {
    let raw: Vec<String> = serde_json::from_str(text).unwrap_or_default();
    raw.iter()
        .map(|m| m.parse().unwrap_or(FailureMode::Unknown))
        .collect()
}

const OBS_COLUMNS: &str = "id, ts, repo, run_id, agent, subtask_id, model, branch, commit_sha, \
     outcome, touched_files, failure_modes, confidence, extra";

impl Store {
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
