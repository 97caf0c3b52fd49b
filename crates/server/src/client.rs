//! The fail-open gateway client: every call has a 2 s timeout and turns any failure (refused,
//! timeout, 4xx/5xx, wrong shape) into the benign default plus a warning, never an error.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use slopguard_fingerprint::Fingerprint;
use slopguard_store::{
    Claim, ClaimOutcome, ClaimRelease, ClaimRequest, LocalObserver, LogQuery, NewObservation,
    ObservationRow, Observer, ReleaseOutcome, Store, now_ms, rfc3339_ms,
};

/// Default per-request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// HTTP client of a `slopguard serve` (or Occam) gateway.
#[derive(Debug, Clone)]
pub struct GatewayClient {
    base: String,
    token: Option<String>,
    http: reqwest::Client,
}

/// Installs ring as rustls' process-wide crypto provider (once; harmless when already set).
/// [`GatewayClient`] calls it; call it before building another `reqwest::Client` yourself.
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl GatewayClient {
    /// A client for `base` (e.g. `http://127.0.0.1:9999`) with an optional bearer token and
    /// the default 2 s timeout.
    pub fn new(base: &str, token: Option<String>) -> Self {
        Self::with_timeout(base, token, DEFAULT_TIMEOUT)
    }

    /// Like [`GatewayClient::new`] with another timeout.
    pub fn with_timeout(base: &str, token: Option<String>, timeout: Duration) -> Self {
        install_crypto();
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        GatewayClient {
            base: base.trim_end_matches('/').to_owned(),
            token: token.filter(|t| !t.is_empty()),
            http,
        }
    }

    /// The client named by the environment: `SLOPGUARD_GATEWAY` (or the seeds' `OCCAM_URL`),
    /// with `SLOPGUARD_TOKEN`. `None` when neither URL is set.
    pub fn from_env() -> Option<Self> {
        let url = std::env::var("SLOPGUARD_GATEWAY")
            .ok()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| {
                std::env::var("OCCAM_URL")
                    .ok()
                    .filter(|s| !s.trim().is_empty())
            })?;
        Some(Self::new(url.trim(), std::env::var("SLOPGUARD_TOKEN").ok()))
    }

    /// The gateway's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn req(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let r = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(t) => r.bearer_auth(t),
            None => r,
        }
    }

    /// Sends and decodes; `Err(status, body)` on any non-2xx or transport/shape failure.
    async fn send<T: DeserializeOwned>(
        &self,
        rb: reqwest::RequestBuilder,
    ) -> Result<T, (Option<StatusCode>, serde_json::Value)> {
        let resp = rb
            .send()
            .await
            .map_err(|e| (None, serde_json::Value::String(e.to_string())))?;
        let status = resp.status();
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| (Some(status), serde_json::Value::String(e.to_string())))?;
        if !status.is_success() {
            let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                serde_json::Value::String(String::from_utf8_lossy(&bytes).into())
            });
            return Err((Some(status), body));
        }
        serde_json::from_slice(&bytes).map_err(|e| {
            (
                Some(status),
                serde_json::Value::String(format!("wrong shape: {e}")),
            )
        })
    }

    /// Checks `GET /healthz` answers.
    pub async fn healthy(&self) -> bool {
        self.send::<serde_json::Value>(self.req(reqwest::Method::GET, "/healthz"))
            .await
            .is_ok()
    }
}

fn warn(what: &str, err: &(Option<StatusCode>, serde_json::Value)) {
    match err.0 {
        Some(s) => tracing::warn!("observer gateway: {what} failed ({s}): {}", err.1),
        None => tracing::warn!("observer gateway: {what} unavailable: {}", err.1),
    }
}

/// A claim as the gateway shows it in `held_by` (no lock id).
fn claim_from_public(v: &serde_json::Value) -> Claim {
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_owned();
    let ms = |k: &str| {
        v.get(k)
            .and_then(|x| x.as_str())
            .and_then(|t| slopguard_store::parse_since(t, now_ms()).ok())
            .unwrap_or(0)
    };
    Claim {
        lock_id: String::new(),
        repo: s("repo"),
        path: s("path"),
        agent: s("agent"),
        run_id: v.get("run_id").and_then(|x| x.as_str()).map(str::to_owned),
        acquired_at_ms: ms("acquired_at"),
        expires_at_ms: ms("expires_at"),
        expires_at: s("expires_at"),
    }
}

#[async_trait::async_trait]
impl Observer for GatewayClient {
    async fn fingerprint(&self, target: &Path) -> Option<Fingerprint> {
        let rb = self
            .req(reqwest::Method::GET, "/repo/fingerprint")
            .query(&[("target", target.to_string_lossy().as_ref())]);
        self.send(rb)
            .await
            .map_err(|e| warn("fingerprint", &e))
            .ok()
    }

    async fn agent_log(&self, q: &LogQuery) -> Vec<ObservationRow> {
        let mut params: Vec<(&str, String)> = Vec::new();
        if let Some(s) = q.since_ms {
            params.push(("since", rfc3339_ms(s)));
        }
        if let Some(l) = q.limit {
            params.push(("limit", l.to_string()));
        }
        if let Some(r) = &q.run_id {
            params.push(("run_id", r.clone()));
        }
        if let Some(a) = &q.agent {
            params.push(("agent", a.clone()));
        }
        if let Some(r) = &q.repo {
            params.push(("repo", r.clone()));
        }
        let rb = self
            .req(reqwest::Method::GET, "/repo/agent-log")
            .query(&params);
        self.send(rb)
            .await
            .map_err(|e| warn("agent-log", &e))
            .unwrap_or_default()
    }

    async fn post_observation(&self, obs: &NewObservation) -> Option<i64> {
        #[derive(serde::Deserialize)]
        struct Id {
            id: i64,
        }
        let rb = self.req(reqwest::Method::POST, "/observation").json(obs);
        self.send::<Id>(rb)
            .await
            .map(|i| i.id)
            .map_err(|e| warn("observation", &e))
            .ok()
    }

    async fn claim(&self, req: &ClaimRequest) -> Option<ClaimOutcome> {
        let rb = self.req(reqwest::Method::POST, "/claim").json(req);
        match self.send::<serde_json::Value>(rb).await {
            Ok(v) => {
                let expires_at = v.get("expires_at").and_then(|x| x.as_str()).unwrap_or("");
                let expires_at_ms = slopguard_store::parse_since(expires_at, now_ms()).unwrap_or(0);
                Some(ClaimOutcome::Acquired(Claim {
                    lock_id: v.get("lock_id").and_then(|x| x.as_str())?.to_owned(),
                    repo: req.repo.clone(),
                    path: req.path.clone(),
                    agent: req.agent.clone(),
                    run_id: req.run_id.clone(),
                    acquired_at_ms: now_ms(),
                    expires_at_ms,
                    expires_at: expires_at.to_owned(),
                }))
            }
            Err((Some(StatusCode::CONFLICT), body)) => Some(ClaimOutcome::Held(claim_from_public(
                body.get("held_by").unwrap_or(&serde_json::Value::Null),
            ))),
            Err(e) => {
                warn("claim", &e);
                None
            }
        }
    }

    async fn release(&self, release: &ClaimRelease) -> Option<ReleaseOutcome> {
        let params: Vec<(&str, &str)> = match release {
            ClaimRelease::LockId(id) => vec![("lock_id", id.as_str())],
            ClaimRelease::PathAgent { repo, path, agent } => vec![
                ("repo", repo.as_str()),
                ("path", path.as_str()),
                ("agent", agent.as_str()),
            ],
        };
        let rb = self.req(reqwest::Method::DELETE, "/claim").query(&params);
        match self.send::<serde_json::Value>(rb).await {
            Ok(v) => Some(ReleaseOutcome::Released(claim_from_public(&v))),
            Err((Some(StatusCode::FORBIDDEN), body)) => Some(ReleaseOutcome::NotOwner(
                claim_from_public(body.get("held_by").unwrap_or(&serde_json::Value::Null)),
            )),
            Err((Some(StatusCode::NOT_FOUND), _)) => Some(ReleaseOutcome::NotFound),
            Err(e) => {
                warn("release", &e);
                None
            }
        }
    }
}

/// An observer that records nothing and knows nothing (when no store can be opened).
#[derive(Debug, Clone, Copy, Default)]
pub struct NullObserver;

#[async_trait::async_trait]
impl Observer for NullObserver {
    async fn fingerprint(&self, _target: &Path) -> Option<Fingerprint> {
        None
    }
    async fn agent_log(&self, _q: &LogQuery) -> Vec<ObservationRow> {
        Vec::new()
    }
    async fn post_observation(&self, _obs: &NewObservation) -> Option<i64> {
        None
    }
    async fn claim(&self, _req: &ClaimRequest) -> Option<ClaimOutcome> {
        None
    }
    async fn release(&self, _release: &ClaimRelease) -> Option<ReleaseOutcome> {
        None
    }
}

/// The observer the pipeline should use: the gateway when `SLOPGUARD_GATEWAY` / `OCCAM_URL` is
/// set, else the store in-process (`SLOPGUARD_DB` or the default SQLite file), else (the store
/// cannot be opened) a [`NullObserver`] with a warning.
pub async fn observer_from_env() -> Arc<dyn Observer> {
    if let Some(client) = GatewayClient::from_env() {
        return Arc::new(client);
    }
    match Store::open_default().await {
        Ok(store) => Arc::new(LocalObserver::new(store)),
        Err(e) => {
            tracing::warn!("observer store unavailable, running without it: {e}");
            Arc::new(NullObserver)
        }
    }
}
