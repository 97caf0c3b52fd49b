//! `slopguard serve`: the observer gateway over the store, speaking the seeds' ("Occam") wire
//! shapes (DESIGN.md section 6) so existing clients work unchanged, plus [`client`], the
//! fail-open gateway client the pipeline uses.
//!
//! Endpoints: [`ENDPOINTS`] (`GET /` answers the same list as JSON; `serve --help` prints it).
//!
//! Security: a bearer token when configured (constant-time compare; missing -> 401, wrong ->
//! 403; `/`, `/health`, `/healthz` and `/readyz` stay open for probes and discovery), a
//! request body limit (413), and every `target` / `path` parameter confined to the configured
//! roots (403).

mod api;
pub mod client;
mod gitinfo;
mod repo;

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use slopguard_store::Store;

pub use client::{GatewayClient, observer_from_env};

/// Default listen address (the seeds' port).
pub const DEFAULT_ADDR: &str = "127.0.0.1:9999";
/// Default request body limit in bytes.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// One endpoint of the gateway, as `GET /` and `serve --help` list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// HTTP methods, `|`-separated (`GET|POST|DELETE`).
    pub methods: &'static str,
    /// The path; `<path>` stands for a file path inside the target repository.
    pub path: &'static str,
    /// What it answers.
    pub what: &'static str,
}

/// Every endpoint the gateway answers, in the order they are listed. [`router`] serves exactly
/// these (a test asks each of them).
pub const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        methods: "GET",
        path: "/",
        what: "this list of endpoints (JSON)",
    },
    Endpoint {
        methods: "GET",
        path: "/health",
        what: "liveness: {\"status\":\"ok\",\"uptime_s\":N} (alias of /healthz)",
    },
    Endpoint {
        methods: "GET",
        path: "/healthz",
        what: "liveness: {\"status\":\"ok\",\"uptime_s\":N}",
    },
    Endpoint {
        methods: "GET",
        path: "/readyz",
        what: "readiness: 200 when the store answers, else 503",
    },
    Endpoint {
        methods: "GET",
        path: "/metrics",
        what: "Prometheus text: up, uptime, build, requests and latencies",
    },
    Endpoint {
        methods: "POST",
        path: "/observation",
        what: "record one agent run's observation",
    },
    Endpoint {
        methods: "GET",
        path: "/repo/agent-log",
        what: "recorded observations (?since=, limit=, run_id=, agent=, repo=)",
    },
    Endpoint {
        methods: "GET|POST|DELETE",
        path: "/claim",
        what: "list, take or release file claims between agents",
    },
    Endpoint {
        methods: "GET",
        path: "/repo/fingerprint",
        what: "languages, manifests, dependencies, frameworks (?target=)",
    },
    Endpoint {
        methods: "GET",
        path: "/repo/context",
        what: "the repository brief an agent starts from (?target=)",
    },
    Endpoint {
        methods: "GET",
        path: "/repo/churn/<path>",
        what: "how often a file changed (git history)",
    },
    Endpoint {
        methods: "GET",
        path: "/repo/blame/<path>",
        what: "who last changed each line of a file",
    },
    Endpoint {
        methods: "GET",
        path: "/file/imports",
        what: "what a file imports (?path=)",
    },
    Endpoint {
        methods: "GET",
        path: "/file/exports",
        what: "what a file defines (?path=)",
    },
    Endpoint {
        methods: "GET",
        path: "/symbol",
        what: "a definition's signature and its callers (?path=, name=)",
    },
    Endpoint {
        methods: "POST",
        path: "/feedback",
        what: "reviewer feedback for the self-correction loop: {\"repo\", \"text\", \"on\"?, \"severity\"?: low|medium|high} -> {\"id\", \"state\": \"pending\"} (then `slopguard feedback triage ID`)",
    },
];

/// The endpoint list as `serve --help` prints it: one `METHODS PATH  what` line each.
pub fn endpoints_help() -> String {
    let mut out = String::from("Endpoints (all JSON but /metrics; `GET /` lists them too):\n");
    for e in ENDPOINTS {
        out.push_str(&format!("  {:<6} {:<20} {}\n", e.methods, e.path, e.what));
    }
    out.push_str(
        "With --token, every endpoint but /, /health, /healthz and /readyz needs \
         `Authorization: Bearer <token>`.",
    );
    out
}

/// How to run the gateway.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Listen address.
    pub addr: SocketAddr,
    /// Store URL (`sqlite://PATH`, `postgres://...`); the default SQLite file when `None`.
    pub db_url: Option<String>,
    /// Bearer token; no auth when `None` or empty.
    pub token: Option<String>,
    /// Directories `target` / `path` parameters may point into (the first is the default
    /// target). Must not be empty.
    pub roots: Vec<PathBuf>,
    /// Largest accepted request body in bytes.
    pub body_limit: usize,
}

/// Errors starting the gateway.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The store could not be opened.
    #[error("store: {0}")]
    Store(#[from] slopguard_store::StoreError),
    /// A configured root does not exist or cannot be resolved.
    #[error("root {path}: {source}")]
    Root {
        /// The root as given.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
    /// No root was configured.
    #[error("at least one --root is needed")]
    NoRoots,
    /// Binding or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Shared state of the handlers.
#[derive(Debug)]
pub struct AppState {
    store: Store,
    token: Option<Vec<u8>>,
    roots: Vec<PathBuf>,
    metrics: PrometheusHandle,
    started: Instant,
}

impl AppState {
    /// Builds the state: canonicalises the roots and sets up the metrics recorder.
    pub fn new(
        store: Store,
        token: Option<String>,
        roots: &[PathBuf],
    ) -> Result<Self, ServerError> {
        if roots.is_empty() {
            return Err(ServerError::NoRoots);
        }
        let roots = roots
            .iter()
            .map(|r| {
                std::fs::canonicalize(r).map_err(|source| ServerError::Root {
                    path: r.clone(),
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AppState {
            store,
            token: token.filter(|t| !t.is_empty()).map(String::into_bytes),
            roots,
            metrics: metrics_handle(),
            started: Instant::now(),
        })
    }

    /// The store behind the gateway.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The canonical allowed roots.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }
}

/// The process-wide Prometheus recorder (installed once; later calls share it).
fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("slopguard_http_request_duration_seconds".into()),
                    &[
                        0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                    ],
                )
                .unwrap_or_else(|_| PrometheusBuilder::new());
            match builder.install_recorder() {
                Ok(handle) => handle,
                // Another recorder is already installed (embedding process): keep a private one
                // so /metrics still answers.
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            }
        })
        .clone()
}

/// A JSON error answer: `{"error": code, "message": text, ...extra}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    extra: Option<serde_json::Value>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: None,
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub(crate) fn with(mut self, extra: serde_json::Value) -> Self {
        self.extra = Some(extra);
        self
    }

    pub(crate) fn store(e: slopguard_store::StoreError) -> Self {
        match e {
            slopguard_store::StoreError::Invalid(m) => Self::bad_request(m),
            other => {
                tracing::error!("store error: {other}");
                Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "store_unavailable",
                    other.to_string(),
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({"error": self.code, "message": self.message});
        if let (Some(serde_json::Value::Object(extra)), Some(obj)) =
            (self.extra, body.as_object_mut())
        {
            obj.extend(extra);
        }
        (self.status, axum::Json(body)).into_response()
    }
}

/// Turns a body rejection (too large, unreadable) into a JSON error with its status (413 for an
/// oversized body).
pub(crate) fn body_error(rej: axum::extract::rejection::BytesRejection) -> ApiError {
    let status = rej.status();
    let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "payload_too_large"
    } else {
        "bad_body"
    };
    ApiError::new(status, code, rej.body_text())
}

/// Resolves a client-given path against the roots: relative paths are taken from `base` (or
/// the first root). Refuses (403) anything that is not inside a root, lexically and after
/// resolving symlinks; 404 when it does not exist.
pub(crate) fn confine(
    state: &AppState,
    given: Option<&str>,
    base: Option<&Path>,
) -> Result<PathBuf, ApiError> {
    let base = base.unwrap_or(&state.roots[0]);
    let raw = match given {
        None => base.to_path_buf(),
        Some(g) if g.trim().is_empty() => base.to_path_buf(),
        Some(g) => {
            let p = PathBuf::from(g);
            if p.is_absolute() { p } else { base.join(p) }
        }
    };
    let forbidden = || {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden_target",
            format!(
                "{} is outside the allowed roots ({})",
                raw.display(),
                state
                    .roots
                    .iter()
                    .map(|r| r.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    };
    let lexical = normalize_lexically(&raw);
    if !state.roots.iter().any(|r| lexical.starts_with(r)) {
        return Err(forbidden());
    }
    let canon = std::fs::canonicalize(&lexical).map_err(|e| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("{}: {e}", lexical.display()),
        )
    })?;
    if !state.roots.iter().any(|r| canon.starts_with(r)) {
        return Err(forbidden());
    }
    Ok(canon)
}

/// The store key of the repository a client named, the key the CLI uses for it: a remote URL
/// as given; a directory inside the roots by its `origin` URL, else its work tree's top
/// (`slopguard_store::repo_key_of_dir`); anything else (outside the roots, or not on this
/// machine) as given.
pub(crate) async fn repo_key(state: &AppState, given: &str) -> String {
    let given = given.trim().to_string();
    if slopguard_store::is_remote_url(&given) {
        return given;
    }
    match confine(state, Some(&given), None) {
        Ok(dir) => tokio::task::spawn_blocking(move || slopguard_store::repo_key_of_dir(&dir))
            .await
            .unwrap_or(given),
        Err(_) => given,
    }
}

/// Removes `.` and resolves `..` without touching the file system.
fn normalize_lexically(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

async fn auth(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let Some(token) = &state.token else {
        return next.run(req).await;
    };
    let path = req.uri().path();
    if matches!(path, "/" | "/health" | "/healthz" | "/readyz") {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim);
    match given {
        None => {
            let mut resp = ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "missing bearer token (Authorization: Bearer <SLOPGUARD_TOKEN>)",
            )
            .into_response();
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            resp
        }
        Some(given) => {
            use subtle::ConstantTimeEq;
            if bool::from(given.as_bytes().ct_eq(token)) {
                next.run(req).await
            } else {
                ApiError::new(StatusCode::FORBIDDEN, "forbidden", "wrong bearer token")
                    .into_response()
            }
        }
    }
}

async fn track_metrics(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = req.method().as_str().to_owned();
    let resp = next.run(req).await;
    let status = resp.status().as_u16().to_string();
    let labels = [("method", method), ("route", route), ("status", status)];
    metrics::counter!("slopguard_http_requests_total", &labels).increment(1);
    metrics::histogram!("slopguard_http_request_duration_seconds", &labels)
        .record(start.elapsed().as_secs_f64());
    resp
}

/// The gateway's routes over `state`.
pub fn router(state: Arc<AppState>, body_limit: usize) -> Router {
    Router::new()
        .route("/", get(api::index))
        .route("/health", get(api::healthz))
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(api::metrics))
        .route("/observation", axum::routing::post(api::post_observation))
        .route("/feedback", axum::routing::post(api::post_feedback))
        .route("/repo/agent-log", get(api::agent_log))
        .route(
            "/claim",
            get(api::list_claims)
                .post(api::post_claim)
                .delete(api::delete_claim),
        )
        .route("/repo/fingerprint", get(repo::fingerprint))
        .route("/repo/context", get(repo::context))
        .route("/repo/churn/{*path}", get(repo::churn))
        .route("/repo/blame/{*path}", get(repo::blame))
        .route("/file/imports", get(repo::imports))
        .route("/file/exports", get(repo::exports))
        .route("/symbol", get(repo::symbol))
        .fallback(|| async {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "no such endpoint (`GET /` lists the endpoints)",
            )
        })
        .layer(middleware::from_fn_with_state(state.clone(), auth))
        .route_layer(middleware::from_fn(track_metrics))
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// Serves `router` on an already bound listener until `shutdown` resolves.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    body_limit: usize,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state, body_limit))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Opens the store, binds `config.addr` and serves until Ctrl-C or SIGTERM.
pub async fn serve(config: ServerConfig) -> Result<(), ServerError> {
    let store = match &config.db_url {
        Some(url) if !url.trim().is_empty() => Store::open(url).await?,
        _ => Store::open_default().await?,
    };
    let state = Arc::new(AppState::new(
        store.clone(),
        config.token.clone(),
        &config.roots,
    )?);
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let local = listener.local_addr()?;
    tracing::info!(
        "slopguard gateway on http://{local} (store {}, auth {})",
        store.url(),
        if state.token.is_some() { "on" } else { "off" }
    );
    eprintln!(
        "slopguard serve: listening on http://{local}, store {}",
        store.url()
    );
    serve_on(listener, state, config.body_limit, shutdown_signal()).await?;
    store.close().await;
    Ok(())
}

/// Builds a multi-threaded runtime and runs [`serve`] on it (for the CLI).
pub fn run_blocking(config: ServerConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(serve(config))?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Used by handlers to report how long the process has been up.
pub(crate) fn uptime_s(state: &AppState) -> u64 {
    state.started.elapsed().as_secs()
}
