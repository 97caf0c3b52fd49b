//! A scripted OpenAI-compatible server for tests: real HTTP on loopback, canned responses.
//!
//! Each `POST /v1/chat/completions` consumes the next [`Step`] of a [`Script`] and answers with
//! it: normal content, fenced JSON, trailing commas, a truncated reply (`finish_reason: length`),
//! a delayed reply (to trigger client timeouts) or an HTTP error. `GET /v1/models` lists the
//! script's models (with a context size when the script sets one) and `GET /props` answers in
//! llama.cpp's shape. Every request is recorded so tests can assert what the client sent.
//!
//! ```no_run
//! use scripted_llm::{Script, ScriptedServer};
//! let server = ScriptedServer::start(
//!     Script::new().fenced_json(r#"{"ok": true}"#).status(500, "boom"),
//! ).unwrap();
//! let base = server.url(); // "http://127.0.0.1:PORT/v1"
//! # let _ = base;
//! ```
//!
//! A script can also be read from a JSON or YAML file ([`Script::from_file`]):
//!
//! ```json
//! {"models": ["qwen"], "steps": [
//!   {"kind": "content", "content": "```json\n{\"a\": 1,}\n```"},
//!   {"kind": "content", "content": "{\"a\": ", "finish_reason": "length"},
//!   {"kind": "status", "status": 500, "body": "internal"},
//!   {"kind": "content", "content": "{}", "delay_ms": 3000}
//! ]}
//! ```

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The script file could not be read.
    #[error("cannot read script {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The script file is not a valid script.
    #[error("invalid script {path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What the parser said.
        message: String,
    },
}

/// One canned answer to one chat-completions request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// A 200 answer whose single choice carries `content`.
    Content {
        /// The assistant message content, verbatim.
        content: String,
        /// `finish_reason` (default `"stop"`; `"length"` simulates truncation).
        #[serde(default)]
        finish_reason: Option<String>,
        /// Wait this long before answering.
        #[serde(default)]
        delay_ms: Option<u64>,
        /// Token usage to report (default: a rough count of the content).
        #[serde(default)]
        usage: Option<Usage>,
    },
    /// A non-200 answer with a plain body.
    Status {
        /// HTTP status code.
        status: u16,
        /// Response body.
        #[serde(default)]
        body: String,
        /// Wait this long before answering.
        #[serde(default)]
        delay_ms: Option<u64>,
        /// A `Retry-After` header, in seconds.
        #[serde(default)]
        retry_after: Option<u64>,
    },
    /// A 200 answer with an arbitrary JSON body (for odd server shapes).
    Raw {
        /// The JSON body, verbatim.
        body: Value,
    },
    /// A 200 answer whose body is this text, verbatim: garbage, or JSON cut off mid-way.
    Text {
        /// The body.
        body: String,
    },
}

/// Token usage reported by a [`Step::Content`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
}

/// What the server answers, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Script {
    /// Model ids listed by `/v1/models` (default `["scripted-model"]`).
    #[serde(default = "default_models")]
    pub models: Vec<String>,
    /// Context size reported by `/v1/models` and `/props` when set.
    #[serde(default)]
    pub context_size: Option<u64>,
    /// `response_format.type` values this server rejects with HTTP 400 (without consuming a
    /// step), to exercise the client's structured-output fallback.
    #[serde(default)]
    pub reject_response_formats: Vec<String>,
    /// The middles answered to `POST /v1/completions` (raw completions: fill-in-the-middle),
    /// in order, and an empty one when they are used up. Without any, that endpoint answers
    /// 404, as a server that only chats.
    #[serde(default)]
    pub completions: Vec<String>,
    /// Each raw completion after the first is answered only after this many milliseconds (a
    /// slow model), to exercise what a client does meanwhile.
    #[serde(default)]
    pub completion_delay_ms: Option<u64>,
    /// When the steps are used up: repeat the last one (`true`) or answer 500 (`false`).
    #[serde(default)]
    pub repeat_last: bool,
    /// The answers, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
}

fn default_models() -> Vec<String> {
    vec!["scripted-model".to_string()]
}

impl Default for Script {
    fn default() -> Self {
        Self::new()
    }
}

impl Script {
    /// An empty script listing the model `scripted-model`.
    pub fn new() -> Self {
        Self {
            models: default_models(),
            context_size: None,
            reject_response_formats: Vec::new(),
            completions: Vec::new(),
            completion_delay_ms: None,
            repeat_last: false,
            steps: Vec::new(),
        }
    }

    /// Appends the text answered to the next raw completion request.
    pub fn completion(mut self, text: impl Into<String>) -> Self {
        self.completions.push(text.into());
        self
    }

    /// Answers each raw completion after the first only after `ms` milliseconds.
    pub fn slow_completions(mut self, ms: u64) -> Self {
        self.completion_delay_ms = Some(ms);
        self
    }

    /// Reads a script from a `.json`, `.yaml` or `.yml` file.
    pub fn from_file(path: &Path) -> Result<Self, ScriptError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let is_yaml = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        );
        let parsed = if is_yaml {
            serde_saphyr::from_str::<Script>(&text).map_err(|e| e.to_string())
        } else {
            serde_json::from_str::<Script>(&text).map_err(|e| e.to_string())
        };
        parsed.map_err(|message| ScriptError::Parse {
            path: path.display().to_string(),
            message,
        })
    }

    /// Sets the listed models.
    pub fn models(mut self, models: &[&str]) -> Self {
        self.models = models.iter().map(|m| m.to_string()).collect();
        self
    }

    /// Sets the reported context size.
    pub fn context_size(mut self, n: u64) -> Self {
        self.context_size = Some(n);
        self
    }

    /// Rejects requests whose `response_format.type` is `kind` with HTTP 400.
    pub fn reject_response_format(mut self, kind: &str) -> Self {
        self.reject_response_formats.push(kind.to_string());
        self
    }

    /// Repeats the last step forever once the script is used up.
    pub fn repeat_last(mut self) -> Self {
        self.repeat_last = true;
        self
    }

    /// Appends any step.
    pub fn step(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

    /// Appends a normal answer.
    pub fn content(self, content: impl Into<String>) -> Self {
        self.step(Step::Content {
            content: content.into(),
            finish_reason: None,
            delay_ms: None,
            usage: None,
        })
    }

    /// Appends an answer wrapping `json` in a ```json fence with prose around it.
    pub fn fenced_json(self, json: &str) -> Self {
        self.content(format!(
            "Here is the result:\n```json\n{json}\n```\nHope this helps."
        ))
    }

    /// Appends a truncated answer (`finish_reason: "length"`).
    pub fn truncated(self, content: impl Into<String>) -> Self {
        self.step(Step::Content {
            content: content.into(),
            finish_reason: Some("length".to_string()),
            delay_ms: None,
            usage: None,
        })
    }

    /// Appends an answer sent only after `delay_ms` milliseconds.
    pub fn delayed(self, delay_ms: u64, content: impl Into<String>) -> Self {
        self.step(Step::Content {
            content: content.into(),
            finish_reason: None,
            delay_ms: Some(delay_ms),
            usage: None,
        })
    }

    /// Appends an HTTP error answer.
    pub fn status(self, status: u16, body: impl Into<String>) -> Self {
        self.step(Step::Status {
            status,
            body: body.into(),
            delay_ms: None,
            retry_after: None,
        })
    }

    /// Appends an HTTP error answer with a `Retry-After: SECS` header (a busy server: 429, 503).
    pub fn status_retry_after(self, status: u16, secs: u64, body: impl Into<String>) -> Self {
        self.step(Step::Status {
            status,
            body: body.into(),
            delay_ms: None,
            retry_after: Some(secs),
        })
    }

    /// Appends a 200 answer whose body is `body` verbatim (not a chat completion).
    pub fn text(self, body: impl Into<String>) -> Self {
        self.step(Step::Text { body: body.into() })
    }
}

/// One request the server received.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordedRequest {
    /// HTTP method.
    pub method: String,
    /// Path (and query).
    pub path: String,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// The body parsed as JSON (`Null` when empty or not JSON).
    pub body: Value,
}

#[derive(Debug)]
struct Shared {
    script: Script,
    next: usize,
    next_completion: usize,
    /// The last raw completion's prompt: what a one-slot llama.cpp server holds in its cache.
    last_prompt: String,
    requests: Vec<RecordedRequest>,
}

type SharedState = Arc<Mutex<Shared>>;

/// A running scripted server. Stops when dropped.
#[derive(Debug)]
pub struct ScriptedServer {
    addr: SocketAddr,
    state: SharedState,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ScriptedServer {
    /// Starts serving `script` on a free port of 127.0.0.1, on a background thread.
    pub fn start(script: Script) -> std::io::Result<Self> {
        Self::start_on(script, "127.0.0.1:0")
    }

    /// Starts serving `script` on `addr` (e.g. `127.0.0.1:8080`).
    pub fn start_on(script: Script, addr: &str) -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let state: SharedState = Arc::new(Mutex::new(Shared {
            script,
            next: 0,
            next_completion: 0,
            last_prompt: String::new(),
            requests: Vec::new(),
        }));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let app_state = state.clone();
        let thread = std::thread::Builder::new()
            .name("scripted-llm".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    let app = Router::new().fallback(handle).with_state(app_state);
                    let _ = axum::serve(listener, app)
                        .with_graceful_shutdown(async {
                            let _ = rx.await;
                        })
                        .await;
                });
            })?;
        Ok(Self {
            addr,
            state,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// The base URL including `/v1`, as clients expect it.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The socket address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state
            .lock()
            .map(|s| s.requests.clone())
            .unwrap_or_default()
    }

    /// Only the chat-completions request bodies, in order.
    pub fn chat_requests(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .map(|r| r.body)
            .collect()
    }

    /// How many steps have been consumed.
    pub fn steps_used(&self) -> usize {
        self.state.lock().map(|s| s.next).unwrap_or(0)
    }

    /// Blocks until the server thread ends (it ends only when the process is killed or the
    /// server is dropped from another thread).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        // Do not join: a delayed step may still be sleeping; the thread ends on its own.
    }
}

async fn handle(
    State(state): State<SharedState>,
    method: Method,
    uri: Uri,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| uri.path().to_string());
    let body_json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let authorization = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let decision = {
        let Ok(mut shared) = state.lock() else {
            return (StatusCode::INTERNAL_SERVER_ERROR, "poisoned").into_response();
        };
        shared.requests.push(RecordedRequest {
            method: method.to_string(),
            path: path.clone(),
            authorization,
            body: body_json.clone(),
        });
        decide(&mut shared, &method, uri.path(), &body_json)
    };
    match decision {
        Decision::Now(resp) => resp,
        Decision::After(ms, step) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            render(step, &body_json)
        }
        Decision::Later(ms, response) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            response
        }
    }
}

enum Decision {
    Now(Response),
    /// A chat step answered after a delay.
    After(u64, Step),
    /// A ready answer sent after a delay.
    Later(u64, Response),
}

fn decide(shared: &mut Shared, method: &Method, path: &str, body: &Value) -> Decision {
    let script = &shared.script;
    let trimmed = path.trim_end_matches('/');
    if method == Method::GET && (trimmed.ends_with("/models")) {
        let data: Vec<Value> = script
            .models
            .iter()
            .map(|id| {
                let mut m = json!({"id": id, "object": "model", "owned_by": "scripted"});
                if let Some(n) = script.context_size {
                    m["meta"] = json!({"n_ctx_train": n});
                }
                m
            })
            .collect();
        return Decision::Now(axum::Json(json!({"object": "list", "data": data})).into_response());
    }
    if method == Method::GET && (trimmed == "/props" || trimmed == "/v1/props") {
        let n = script.context_size.unwrap_or(0);
        return Decision::Now(
            axum::Json(json!({"default_generation_settings": {"n_ctx": n}})).into_response(),
        );
    }
    if method == Method::GET && (trimmed == "/health" || trimmed == "/v1/health") {
        return Decision::Now(axum::Json(json!({"status": "ok"})).into_response());
    }
    if method == Method::POST
        && trimmed.ends_with("/completions")
        && !trimmed.ends_with("/chat/completions")
        && !script.completions.is_empty()
    {
        let text = script
            .completions
            .get(shared.next_completion)
            .cloned()
            .unwrap_or_default();
        shared.next_completion += 1;
        // Tokens counted as 4 characters; the prompt's start shared with the last one is
        // reported cached, as a one-slot llama.cpp server reports it.
        let prompt = body.get("prompt").and_then(Value::as_str).unwrap_or("");
        let shared_chars = prompt
            .chars()
            .zip(shared.last_prompt.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let prompt_tokens = (prompt.chars().count() as u64).div_ceil(4);
        let cached_tokens = shared_chars as u64 / 4;
        shared.last_prompt = prompt.to_string();
        let response = axum::Json(json!({
            "object": "text_completion",
            "model": body.get("model").cloned().unwrap_or(Value::Null),
            "choices": [{"index": 0, "text": text, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 10,
                      "total_tokens": prompt_tokens + 10,
                      "prompt_tokens_details": {"cached_tokens": cached_tokens}},
        }))
        .into_response();
        return match script.completion_delay_ms {
            Some(ms) if shared.next_completion > 1 => Decision::Later(ms, response),
            _ => Decision::Now(response),
        };
    }
    if method != Method::POST || !trimmed.ends_with("/chat/completions") {
        return Decision::Now((StatusCode::NOT_FOUND, "not found").into_response());
    }
    if let Some(kind) = body
        .get("response_format")
        .and_then(|rf| rf.get("type"))
        .and_then(Value::as_str)
        && script.reject_response_formats.iter().any(|k| k == kind)
    {
        return Decision::Now(
            (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": {"message": format!("response_format type {kind} is not supported")}})),
            )
                .into_response(),
        );
    }
    let step = if shared.next < script.steps.len() {
        let s = script.steps[shared.next].clone();
        shared.next += 1;
        s
    } else if script.repeat_last && !script.steps.is_empty() {
        shared.next += 1;
        script.steps[script.steps.len() - 1].clone()
    } else {
        return Decision::Now(
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "scripted-llm: script exhausted",
            )
                .into_response(),
        );
    };
    let delay = match &step {
        Step::Content { delay_ms, .. } | Step::Status { delay_ms, .. } => delay_ms.unwrap_or(0),
        Step::Raw { .. } | Step::Text { .. } => 0,
    };
    if delay > 0 {
        Decision::After(delay, step)
    } else {
        Decision::Now(render(step, body))
    }
}

fn render(step: Step, request: &Value) -> Response {
    match step {
        Step::Content {
            content,
            finish_reason,
            usage,
            ..
        } => {
            let model = request
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or("scripted-model");
            let usage = usage.unwrap_or(Usage {
                prompt_tokens: request.to_string().len() as u64 / 4,
                completion_tokens: content.len() as u64 / 4 + 1,
            });
            axum::Json(json!({
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [{
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish_reason.unwrap_or_else(|| "stop".to_string()),
                }],
                "usage": {
                    "prompt_tokens": usage.prompt_tokens,
                    "completion_tokens": usage.completion_tokens,
                    "total_tokens": usage.prompt_tokens + usage.completion_tokens,
                },
            }))
            .into_response()
        }
        Step::Status {
            status,
            body,
            retry_after,
            ..
        } => {
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut response = (code, body).into_response();
            if let Some(secs) = retry_after {
                response
                    .headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, secs.into());
            }
            response
        }
        Step::Raw { body } => axum::Json(body).into_response(),
        Step::Text { body } => (
            StatusCode::OK,
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal HTTP/1.1 client (no TLS stack needed for loopback tests).
    fn http(url: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        use std::io::{Read, Write};
        let hostport = url.trim_start_matches("http://").trim_end_matches("/v1");
        let mut stream = std::net::TcpStream::connect(hostport).unwrap();
        let payload = body.map(|b| b.to_string()).unwrap_or_default();
        let req = format!(
            "{method} /v1{path} HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{payload}",
            payload.len()
        );
        stream.write_all(req.as_bytes()).unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        let status = raw[9..12].parse().unwrap();
        let body = raw
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn post(url: &str, body: Value) -> (u16, String) {
        http(url, "POST", "/chat/completions", Some(&body))
    }

    #[test]
    fn serves_steps_in_order_and_records_requests() {
        let server = ScriptedServer::start(
            Script::new()
                .content("first")
                .truncated("{\"a\": ")
                .status(500, "boom"),
        )
        .unwrap();
        let url = server.url();
        let (s1, b1) = post(
            &url,
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]}),
        );
        assert_eq!(s1, 200);
        let v1: Value = serde_json::from_str(&b1).unwrap();
        assert_eq!(v1["choices"][0]["message"]["content"], "first");
        assert_eq!(v1["choices"][0]["finish_reason"], "stop");
        let (_, b2) = post(&url, json!({"n": 2}));
        let v2: Value = serde_json::from_str(&b2).unwrap();
        assert_eq!(v2["choices"][0]["finish_reason"], "length");
        let (s3, b3) = post(&url, json!({"n": 3}));
        assert_eq!((s3, b3.as_str()), (500, "boom"));
        let (s4, _) = post(&url, json!({"n": 4}));
        assert_eq!(s4, 500, "exhausted script answers 500");
        let bodies = server.chat_requests();
        assert_eq!(bodies.len(), 4);
        assert_eq!(bodies[0]["messages"][0]["content"], "hi");
        assert_eq!(bodies[2]["n"], 3);
        assert_eq!(server.steps_used(), 3);
    }

    #[test]
    fn models_lists_context_size_and_rejects_formats() {
        let server = ScriptedServer::start(
            Script::new()
                .models(&["qwen"])
                .context_size(4096)
                .reject_response_format("json_schema")
                .content("{}"),
        )
        .unwrap();
        let (_, models) = http(&server.url(), "GET", "/models", None);
        let models: Value = serde_json::from_str(&models).unwrap();
        assert_eq!(models["data"][0]["id"], "qwen");
        assert_eq!(models["data"][0]["meta"]["n_ctx_train"], 4096);
        let (s, _) = post(
            &server.url(),
            json!({"response_format": {"type": "json_schema"}}),
        );
        assert_eq!(s, 400);
        assert_eq!(
            server.steps_used(),
            0,
            "a rejected format does not consume a step"
        );
        let (s, _) = post(
            &server.url(),
            json!({"response_format": {"type": "json_object"}}),
        );
        assert_eq!(s, 200);
    }

    #[test]
    fn script_files_parse_in_json_and_yaml() {
        let dir = std::env::temp_dir().join(format!("scripted-llm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let j = dir.join("s.json");
        std::fs::write(
            &j,
            r#"{"steps": [{"kind": "content", "content": "x", "finish_reason": "length"}, {"kind": "status", "status": 503}]}"#,
        )
        .unwrap();
        let s = Script::from_file(&j).unwrap();
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.models, vec!["scripted-model"]);
        let y = dir.join("s.yaml");
        std::fs::write(
            &y,
            "models: [a]\nsteps:\n  - kind: content\n    content: hello\n    delay_ms: 5\n",
        )
        .unwrap();
        let s = Script::from_file(&y).unwrap();
        assert_eq!(
            s.steps[0],
            Step::Content {
                content: "hello".into(),
                finish_reason: None,
                delay_ms: Some(5),
                usage: None
            }
        );
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{\"steps\": [{\"kind\": \"nope\"}]}").unwrap();
        assert!(matches!(
            Script::from_file(&bad),
            Err(ScriptError::Parse { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn delayed_step_waits() {
        let server = ScriptedServer::start(Script::new().delayed(300, "late")).unwrap();
        let start = std::time::Instant::now();
        let (s, _) = post(&server.url(), json!({}));
        assert_eq!(s, 200);
        assert!(start.elapsed() >= Duration::from_millis(300));
    }
}
