//! Store-backed endpoints: observations, agent log, claims, health, metrics.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use slopguard_store::{
    Claim, ClaimOutcome, ClaimRelease, ClaimRequest, FailureMode, LogQuery, MAX_LOG_LIMIT,
    NewObservation, Outcome, ReleaseOutcome, now_ms, parse_since,
};

use slopguard_store::review::{Intake, Severity};

use crate::{ApiError, AppState, body_error, uptime_s};

type ApiResult<T> = Result<T, ApiError>;

fn query_error(rej: QueryRejection) -> ApiError {
    ApiError::bad_request(rej.body_text())
}

fn parse_json(body: Result<Bytes, BytesRejection>) -> ApiResult<serde_json::Value> {
    let bytes = body.map_err(body_error)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            format!("malformed JSON: {e}"),
        )
    })
}

/// `GET /`: the endpoint list, so a client (or a person with curl) can find its way.
pub(crate) async fn index() -> Json<serde_json::Value> {
    let endpoints: Vec<_> = crate::ENDPOINTS
        .iter()
        .map(|e| json!({"methods": e.methods, "path": e.path, "what": e.what}))
        .collect();
    Json(json!({
        "service": "slopguard observer gateway",
        "version": env!("CARGO_PKG_VERSION"),
        "endpoints": endpoints,
    }))
}

pub(crate) async fn healthz(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(json!({"status": "ok", "uptime_s": uptime_s(&state)}))
}

pub(crate) async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    match state.store.ping().await {
        Ok(()) => Json(json!({"status": "ready", "store": state.store.url()})).into_response(),
        Err(e) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "store_unavailable",
            e.to_string(),
        )
        .into_response(),
    }
}

/// `GET /metrics`: the gateway's own gauges, then the recorder's counters and histograms.
///
/// The recorder only has series once something was recorded, and a request is recorded after
/// its answer, so the first scrape of a fresh gateway used to be an empty 200, which a
/// scraper cannot tell from a broken exporter. The gauges written here are always present.
pub(crate) async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let mut text = format!(
        "# HELP slopguard_up Whether the gateway answers (always 1 when it does).\n\
         # TYPE slopguard_up gauge\n\
         slopguard_up 1\n\
         # HELP slopguard_uptime_seconds Seconds since the gateway started.\n\
         # TYPE slopguard_uptime_seconds gauge\n\
         slopguard_uptime_seconds {}\n\
         # HELP slopguard_build_info The gateway's version (value always 1).\n\
         # TYPE slopguard_build_info gauge\n\
         slopguard_build_info{{version=\"{}\"}} 1\n",
        crate::uptime_s(&state),
        env!("CARGO_PKG_VERSION"),
    );
    text.push_str(&state.metrics.render());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

pub(crate) async fn post_observation(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let value = parse_json(body)?;
    let obs = NewObservation::from_json(value).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_observation", e.to_string()).with(json!({
            "allowed_failure_modes": FailureMode::ALL.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
            "allowed_outcomes": Outcome::ALL.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
        }))
    })?;
    let id = state
        .store
        .record_observation(&obs)
        .await
        .map_err(ApiError::store)?;
    metrics::counter!("slopguard_observations_total", "outcome" => obs.outcome.as_str())
        .increment(1);
    Ok(Json(json!({"id": id})))
}

/// `POST /feedback` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FeedbackBody {
    repo: String,
    text: String,
    #[serde(default)]
    on: Option<String>,
    #[serde(default)]
    severity: Option<String>,
}

/// `POST /feedback`: takes a reviewer's feedback in as a pending item of the self-correction
/// loop, in the same shape as `slopguard feedback add`.
pub(crate) async fn post_feedback(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let value = parse_json(body)?;
    let invalid = |msg: String| ApiError::new(StatusCode::BAD_REQUEST, "invalid_feedback", msg);
    let fb: FeedbackBody = serde_json::from_value(value).map_err(|e| invalid(e.to_string()))?;
    if fb.repo.trim().is_empty() {
        return Err(invalid(
            "`repo` is empty: give the repository's id (its origin URL or path)".into(),
        ));
    }
    let severity: Severity = match fb.severity.as_deref() {
        Some(s) => s.parse().map_err(invalid)?,
        None => Severity::default(),
    };
    let intake =
        Intake::new(&fb.text, fb.on, severity, "gateway").map_err(|e| invalid(e.to_string()))?;
    let repo = crate::repo_key(&state, &fb.repo).await;
    let id = state
        .store
        .add_feedback(&intake.to_row(&repo))
        .await
        .map_err(ApiError::store)?;
    metrics::counter!("slopguard_feedback_total").increment(1);
    Ok(Json(json!({"id": id, "state": "pending"})))
}

/// `GET /repo/agent-log` parameters.
#[derive(Debug, Deserialize)]
pub(crate) struct AgentLogParams {
    since: Option<String>,
    limit: Option<String>,
    run_id: Option<String>,
    agent: Option<String>,
    repo: Option<String>,
}

pub(crate) async fn agent_log(
    State(state): State<Arc<AppState>>,
    params: Result<Query<AgentLogParams>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(p) = params.map_err(query_error)?;
    let nonempty = |v: Option<String>| v.filter(|s| !s.is_empty());
    let since_ms = match nonempty(p.since) {
        Some(s) => Some(parse_since(&s, now_ms()).map_err(ApiError::store)?),
        None => None,
    };
    let limit = match nonempty(p.limit) {
        Some(l) => Some(
            l.parse::<u32>()
                .map_err(|_| ApiError::bad_request(format!("invalid limit {l:?}")))?
                .min(MAX_LOG_LIMIT),
        ),
        None => None,
    };
    let repo = match nonempty(p.repo) {
        Some(r) => Some(crate::repo_key(&state, &r).await),
        None => None,
    };
    let q = LogQuery {
        repo,
        since_ms,
        limit,
        run_id: nonempty(p.run_id),
        agent: nonempty(p.agent),
    };
    let body = state
        .store
        .agent_log_json(&q)
        .await
        .map_err(ApiError::store)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// A claim as shown to others: never the lock id (it is the owner's proof).
fn public_claim(c: &Claim) -> serde_json::Value {
    json!({
        "repo": c.repo,
        "path": c.path,
        "agent": c.agent,
        "run_id": c.run_id,
        "acquired_at": slopguard_store::rfc3339_ms(c.acquired_at_ms),
        "expires_at": c.expires_at,
    })
}

pub(crate) async fn post_claim(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let value = parse_json(body)?;
    let req: ClaimRequest = serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("invalid claim: {e}")))?;
    match state
        .store
        .acquire_claim(&req)
        .await
        .map_err(ApiError::store)?
    {
        ClaimOutcome::Acquired(c) => Ok(Json(json!({
            "lock_id": c.lock_id,
            "expires_at": c.expires_at,
            "path": c.path,
            "agent": c.agent,
            "ttl_seconds": (c.expires_at_ms - c.acquired_at_ms) / 1000,
        }))
        .into_response()),
        ClaimOutcome::Held(c) => Ok((
            StatusCode::CONFLICT,
            Json(json!({"error": "already_claimed", "held_by": public_claim(&c)})),
        )
            .into_response()),
    }
}

/// `GET /claim` / `DELETE /claim` parameters.
#[derive(Debug, Deserialize)]
pub(crate) struct ClaimParams {
    path: Option<String>,
    repo: Option<String>,
    agent: Option<String>,
    lock_id: Option<String>,
}

pub(crate) async fn list_claims(
    State(state): State<Arc<AppState>>,
    params: Result<Query<ClaimParams>, QueryRejection>,
) -> ApiResult<Json<Vec<serde_json::Value>>> {
    let Query(p) = params.map_err(query_error)?;
    let claims = state
        .store
        .list_claims(
            p.repo.as_deref(),
            p.path.as_deref().filter(|s| !s.is_empty()),
        )
        .await
        .map_err(ApiError::store)?;
    Ok(Json(claims.iter().map(public_claim).collect()))
}

pub(crate) async fn delete_claim(
    State(state): State<Arc<AppState>>,
    params: Result<Query<ClaimParams>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(p) = params.map_err(query_error)?;
    let release = match (p.lock_id.filter(|s| !s.is_empty()), p.path, p.agent) {
        (Some(id), _, _) => ClaimRelease::LockId(id),
        (None, Some(path), Some(agent)) if !path.is_empty() && !agent.is_empty() => {
            ClaimRelease::PathAgent {
                repo: p.repo.unwrap_or_default(),
                path,
                agent,
            }
        }
        _ => {
            return Err(ApiError::bad_request(
                "name the claim: ?lock_id=..., or ?path=...&agent=<owning agent>",
            ));
        }
    };
    match state
        .store
        .release_claim(&release)
        .await
        .map_err(ApiError::store)?
    {
        ReleaseOutcome::Released(c) => Ok(Json(json!({
            "released": true,
            "path": c.path,
            "agent": c.agent,
        }))
        .into_response()),
        ReleaseOutcome::NotOwner(c) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_owner",
            "only the owner may release this claim (give its lock_id, or the owning agent)",
        )
        .with(json!({"held_by": public_claim(&c)}))),
        ReleaseOutcome::NotFound => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such claim",
        )),
    }
}
