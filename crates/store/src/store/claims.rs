//! Claims: advisory locks on paths that agents acquire, list and release.
use sqlx::{AssertSqlSafe, Row};

use super::*;

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

const CLAIM_COLUMNS: &str = "lock_id, repo, path, agent, run_id, acquired_at, expires_at";

impl Store {
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

#[cfg(test)]
mod tests {
    use super::new_lock_id;

    #[test]
    fn lock_ids_differ() {
        let a = new_lock_id();
        let b = new_lock_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
    }
}
