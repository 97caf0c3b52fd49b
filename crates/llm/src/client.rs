//! The HTTP client: chat completions with retries, structured output negotiation, JSON repair
//! and correction turns, usage accounting and a health check.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::config::{LlmConfig, Role, RoleConfig};
use crate::repair::repair_json;
use crate::schema::validate;
use crate::types::{
    ChatResponse, FormatSupport, Health, JsonReply, LlmError, Message, Sampling, Usage,
};

/// Longest reply excerpt kept in errors and correction turns.
const EXCERPT: usize = 2000;

#[derive(Debug, Deserialize)]
struct WireResponse {
    #[serde(default)]
    choices: Vec<WireChoice>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
struct WireChoice {
    #[serde(default)]
    message: Option<WireMessage>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WireMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    reasoning_content: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
    #[serde(default)]
    prompt_tokens_details: Option<WirePromptDetails>,
}

#[derive(Debug, Deserialize)]
struct WirePromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

/// The LLM client. Cheap to share by reference; all state is behind mutexes.
///
/// Async API; [`crate::BlockingClient`] wraps it for synchronous callers.
#[derive(Debug)]
pub struct LlmClient {
    config: LlmConfig,
    http: reqwest::Client,
    formats: Mutex<HashMap<String, FormatSupport>>,
    usage: Mutex<BTreeMap<&'static str, Usage>>,
    transcript: Mutex<Option<std::fs::File>>,
}

/// Installs rustls' ring provider as the process default (idempotent).
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl LlmClient {
    /// Builds a client for `config`.
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        install_crypto_provider();
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            // Below the keep-alive of common local servers (llama.cpp's is 5 s): a run spends
            // minutes on tests between two calls, and a pooled connection the server closed
            // meanwhile fails the next request ("connection closed before message completed").
            .pool_idle_timeout(Duration::from_secs(4))
            .build()
            .map_err(|e| LlmError::Client(e.to_string()))?;
        Ok(Self {
            config,
            http,
            formats: Mutex::new(HashMap::new()),
            usage: Mutex::new(BTreeMap::new()),
            transcript: Mutex::new(None),
        })
    }

    /// Appends every request from now on to `path` as one JSON line: the role, the request
    /// body as sent (messages included), the reply as received (or the error), `finish_reason`,
    /// usage and time. The file is created (with its directory) if missing.
    pub fn set_transcript(&self, path: &std::path::Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        if let Ok(mut t) = self.transcript.lock() {
            *t = Some(file);
        }
        Ok(())
    }

    fn record(&self, role: Role, body: &Value, result: &Result<ChatResponse, LlmError>, ms: u128) {
        use std::io::Write;
        let Ok(mut guard) = self.transcript.lock() else {
            return;
        };
        let Some(file) = guard.as_mut() else {
            return;
        };
        let ts = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let mut line =
            json!({"ts_ms": ts, "role": role.as_str(), "request": body, "ms": ms as u64});
        match result {
            Ok(r) => {
                line["reply"] = Value::String(r.content.clone());
                line["finish_reason"] = json!(r.finish_reason);
                line["usage"] = json!(r.usage);
            }
            Err(e) => line["error"] = Value::String(e.to_string()),
        }
        if let Err(e) = writeln!(file, "{line}") {
            tracing::warn!(%e, "model transcript not written");
        }
    }

    /// The configuration in use.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Token usage so far, per role name.
    pub fn usage(&self) -> BTreeMap<&'static str, Usage> {
        self.usage.lock().map(|u| u.clone()).unwrap_or_default()
    }

    /// The structured-output level remembered for `base_url`, once detected.
    pub fn format_support(&self, base_url: &str) -> Option<FormatSupport> {
        self.formats
            .lock()
            .ok()
            .and_then(|f| f.get(base_url).copied())
    }

    /// A plain chat call (no JSON handling). Transport errors are retried with backoff; HTTP
    /// errors are returned at once. `finish_reason: length` is *not* an error here (see
    /// [`ChatResponse::finish_reason`]).
    pub async fn chat(&self, role: Role, messages: &[Message]) -> Result<ChatResponse, LlmError> {
        self.chat_with_format(role, messages, None, Sampling::default())
            .await
    }

    /// A plain chat call with per-call sampling overrides (see [`LlmClient::chat`]).
    pub async fn chat_sampled(
        &self,
        role: Role,
        messages: &[Message],
        sampling: Sampling,
    ) -> Result<ChatResponse, LlmError> {
        self.chat_with_format(role, messages, None, sampling).await
    }

    /// Asks for JSON matching `schema`, repairs what comes back, validates it, and spends up to
    /// `correction_turns` extra requests telling the model what was wrong. Deserializes the
    /// accepted value into `T`.
    pub async fn chat_json<T: DeserializeOwned>(
        &self,
        role: Role,
        messages: &[Message],
        schema: &Value,
    ) -> Result<T, LlmError> {
        let mut last = None;
        let reply = self
            .chat_json_inner(role, messages, schema, |v| {
                serde_json::from_value::<T>(v.clone())
                    .map(|t| last = Some(t))
                    .map_err(|e| e.to_string())
            })
            .await?;
        let _ = reply;
        last.ok_or_else(|| LlmError::InvalidJson {
            attempts: 1,
            last_error: "value could not be deserialized".into(),
            last_content: String::new(),
        })
    }

    /// Like [`LlmClient::chat_json`] but returns the JSON value with repair and usage details.
    pub async fn chat_json_value(
        &self,
        role: Role,
        messages: &[Message],
        schema: &Value,
    ) -> Result<JsonReply, LlmError> {
        self.chat_json_inner(role, messages, schema, |_| Ok(()))
            .await
    }

    async fn chat_json_inner(
        &self,
        role: Role,
        messages: &[Message],
        schema: &Value,
        mut accept: impl FnMut(&Value) -> Result<(), String>,
    ) -> Result<JsonReply, LlmError> {
        let rc = self.config.role(role).clone();
        let turns = self.config.correction_turns.min(3);
        let mut msgs = messages.to_vec();
        let mut usage = Usage::default();
        let mut elapsed = Duration::ZERO;
        let mut attempts = 0u32;
        loop {
            attempts += 1;
            let resp = self
                .chat_with_format(role, &msgs, Some(schema), Sampling::default())
                .await?;
            usage.add(resp.usage);
            elapsed += resp.elapsed;
            if resp.finish_reason.as_deref() == Some("length") {
                return Err(LlmError::Truncated {
                    max_tokens: rc.max_tokens,
                    chars: resp.content.chars().count(),
                    partial: excerpt(&resp.content),
                });
            }
            let problem = match repair_json(&resp.content) {
                Ok(rep) => {
                    let violations = validate(schema, &rep.value);
                    if violations.is_empty() {
                        match accept(&rep.value) {
                            Ok(()) => {
                                if !rep.passes.is_empty() {
                                    tracing::debug!(passes = ?rep.passes, "llm json repaired");
                                }
                                return Ok(JsonReply {
                                    value: rep.value,
                                    repairs: rep.passes,
                                    corrections: attempts - 1,
                                    usage,
                                    elapsed,
                                    raw: resp.content,
                                });
                            }
                            Err(e) => format!("the JSON does not have the expected shape: {e}"),
                        }
                    } else {
                        let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
                        format!("the JSON does not match the schema: {}", list.join("; "))
                    }
                }
                Err(e) => e.to_string(),
            };
            if attempts > turns {
                return Err(LlmError::InvalidJson {
                    attempts,
                    last_error: problem,
                    last_content: excerpt(&resp.content),
                });
            }
            tracing::info!(attempt = attempts, %problem, "llm json correction turn");
            msgs.push(Message::assistant(excerpt(&resp.content)));
            msgs.push(Message::user(format!(
                "Your previous reply could not be used: {problem}.\nReply again with ONLY one JSON \
                 value that matches the schema below. No markdown fences, no prose, no comments, \
                 double-quoted strings with escaped quotes and \\n for newlines.\nSchema: {}",
                serde_json::to_string(schema).unwrap_or_default()
            )));
        }
    }

    async fn chat_with_format(
        &self,
        role: Role,
        messages: &[Message],
        schema: Option<&Value>,
        sampling: Sampling,
    ) -> Result<ChatResponse, LlmError> {
        let rc = self.config.role(role);
        let mut level = schema.map(|_| {
            self.format_support(&rc.base_url)
                .unwrap_or(FormatSupport::JsonSchema)
        });
        let start = Instant::now();
        loop {
            let mut body = self.request_body(rc, messages, schema, level);
            apply_sampling(&mut body, rc, sampling);
            match self.send(role, rc, "/chat/completions", &body).await {
                Ok(mut resp) => {
                    if let Some(l) = level
                        && let Ok(mut f) = self.formats.lock()
                    {
                        f.insert(rc.base_url.clone(), l);
                    }
                    resp.elapsed = start.elapsed();
                    resp.format = level;
                    return Ok(resp);
                }
                Err(LlmError::Http {
                    status, body, url, ..
                }) if level.is_some_and(|l| l != FormatSupport::None)
                    && format_rejected(status, &body) =>
                {
                    let next = level.and_then(FormatSupport::weaker);
                    tracing::info!(%url, status, from = ?level, to = ?next, "response_format rejected; falling back");
                    level = next;
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn request_body(
        &self,
        rc: &RoleConfig,
        messages: &[Message],
        schema: Option<&Value>,
        level: Option<FormatSupport>,
    ) -> Value {
        let mut msgs: Vec<Value> = messages
            .iter()
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        if self.config.no_think_suffix
            && let Some(last) = msgs.iter_mut().rev().find(|m| m["role"] == "user")
        {
            let text = last["content"].as_str().unwrap_or_default();
            if !text.trim_end().ends_with("/no_think") {
                last["content"] = Value::String(format!("{text}\n/no_think"));
            }
        }
        let mut body = json!({
            "messages": msgs,
            "max_tokens": rc.max_tokens,
            "temperature": rc.temperature,
            "stream": false,
        });
        if !rc.model.is_empty() {
            body["model"] = Value::String(rc.model.clone());
        }
        if self.config.thinking_template_kwarg {
            body["chat_template_kwargs"] = json!({"enable_thinking": false});
        }
        match (schema, level) {
            (Some(s), Some(FormatSupport::JsonSchema)) => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": "reply", "strict": false, "schema": s}
                });
            }
            (Some(_), Some(FormatSupport::JsonObject)) => {
                body["response_format"] = json!({"type": "json_object"});
            }
            _ => {}
        }
        body
    }

    /// A raw text completion (`POST /completions`, the OpenAI API's legacy endpoint that
    /// llama.cpp, vLLM, LM Studio and Ollama serve): `prompt` continued, no chat template
    /// applied, until the model ends it, a text of `stop` comes, or `sampling.max_tokens`. For
    /// prompts in a model's own special tokens (fill-in-the-middle). Retried like
    /// [`LlmClient::chat`]; `finish_reason: length` is not an error.
    pub async fn complete_sampled(
        &self,
        role: Role,
        prompt: &str,
        stop: &[String],
        sampling: Sampling,
    ) -> Result<ChatResponse, LlmError> {
        let rc = self.config.role(role);
        let start = Instant::now();
        let mut body = json!({
            "prompt": prompt,
            "max_tokens": rc.max_tokens,
            "temperature": rc.temperature,
            "stream": false,
            "stop": stop,
        });
        if !rc.model.is_empty() {
            body["model"] = Value::String(rc.model.clone());
        }
        apply_sampling(&mut body, rc, sampling);
        let mut resp = self.send(role, rc, "/completions", &body).await?;
        resp.elapsed = start.elapsed();
        Ok(resp)
    }

    async fn send(
        &self,
        role: Role,
        rc: &RoleConfig,
        endpoint: &str,
        body: &Value,
    ) -> Result<ChatResponse, LlmError> {
        let url = format!("{}{endpoint}", rc.base_url);
        let retries = self.config.retries.min(5);
        let mut attempt = 0u32;
        loop {
            let started = Instant::now();
            let result = self.send_once(rc, &url, body).await;
            self.record(role, body, &result, started.elapsed().as_millis());
            match result {
                Ok(resp) => {
                    if let Ok(mut u) = self.usage.lock() {
                        u.entry(role.as_str()).or_default().add(resp.usage);
                    }
                    return Ok(resp);
                }
                // A pooled connection the server closed while idle: the request never reached
                // it, so it is sent again once on a fresh connection, whatever the retries.
                Err(e) if attempt == 0 && retries == 0 && is_stale_connection(&e) => {
                    tracing::debug!(%e, "stale pooled connection; sending again");
                    attempt = retries.max(1);
                    continue;
                }
                Err(e) => match retry_delay(&e, self.config.backoff, attempt, retries) {
                    Some(delay) => {
                        tracing::warn!(%e, attempt, ?delay, "llm request failed; retrying");
                        tokio::time::sleep(delay).await;
                        attempt += 1;
                    }
                    None => return Err(e),
                },
            }
        }
    }

    async fn send_once(
        &self,
        rc: &RoleConfig,
        url: &str,
        body: &Value,
    ) -> Result<ChatResponse, LlmError> {
        let mut req = self.http.post(url).timeout(rc.timeout).json(body);
        if let Some(key) = &rc.api_key {
            req = req.bearer_auth(key);
        }
        let resp = req.send().await.map_err(|e| transport_error(url, rc, &e))?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let text = resp
            .text()
            .await
            .map_err(|e| transport_error(url, rc, &e))?;
        if !status.is_success() {
            return Err(LlmError::Http {
                url: url.to_string(),
                status: status.as_u16(),
                body: excerpt(&text),
                retry_after,
            });
        }
        let wire: WireResponse =
            serde_json::from_str(&text).map_err(|e| LlmError::BadResponse {
                url: url.to_string(),
                message: format!("{e}; body: {}", excerpt(&text)),
            })?;
        let Some(choice) = wire.choices.into_iter().next() else {
            return Err(LlmError::BadResponse {
                url: url.to_string(),
                message: format!("no choices in the answer: {}", excerpt(&text)),
            });
        };
        let content = choice
            .message
            .as_ref()
            .and_then(|m| {
                m.content
                    .clone()
                    .filter(|c| !c.trim().is_empty())
                    .or_else(|| m.reasoning_content.clone())
            })
            .or(choice.text)
            .unwrap_or_default();
        let usage = wire
            .usage
            .map(|u| Usage {
                prompt_tokens: u.prompt_tokens.unwrap_or(0),
                completion_tokens: u.completion_tokens.unwrap_or(0),
                cached_tokens: u
                    .prompt_tokens_details
                    .and_then(|d| d.cached_tokens)
                    .unwrap_or(0),
                requests: 1,
            })
            .unwrap_or(Usage {
                requests: 1,
                ..Usage::default()
            });
        Ok(ChatResponse {
            content: strip_think(&content),
            finish_reason: choice.finish_reason.filter(|f| !f.is_empty()),
            usage,
            elapsed: Duration::ZERO,
            format: None,
        })
    }

    /// Checks `role`'s endpoint: `GET /models` answers, the configured model is listed, and the
    /// context size when the server reports one (`/models` metadata or llama.cpp's `/props`).
    pub async fn health(&self, role: Role) -> Health {
        let rc = self.config.role(role);
        let timeout = rc.timeout.min(Duration::from_secs(10));
        let mut health = Health {
            url: rc.base_url.clone(),
            reachable: false,
            models: Vec::new(),
            model: rc.model.clone(),
            model_listed: None,
            context_size: None,
            error: None,
        };
        let url = format!("{}/models", rc.base_url);
        let mut req = self.http.get(&url).timeout(timeout);
        if let Some(key) = &rc.api_key {
            req = req.bearer_auth(key);
        }
        let value: Value = match req.send().await {
            Ok(resp) if resp.status().is_success() => resp.json().await.unwrap_or(Value::Null),
            Ok(resp) => {
                health.error = Some(format!(
                    "GET {url} answered HTTP {}",
                    resp.status().as_u16()
                ));
                return health;
            }
            Err(e) => {
                health.error = Some(transport_error(&url, rc, &e).to_string());
                return health;
            }
        };
        health.reachable = true;
        let entries: Vec<Value> = value
            .get("data")
            .or_else(|| value.get("models"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for e in &entries {
            if let Some(id) = e
                .get("id")
                .or_else(|| e.get("name"))
                .or_else(|| e.get("model"))
                .and_then(Value::as_str)
            {
                health.models.push(id.to_string());
            }
        }
        if !rc.model.is_empty() {
            health.model_listed = Some(health.models.iter().any(|m| m == &rc.model));
        }
        let chosen = entries
            .iter()
            .find(|e| e.get("id").and_then(Value::as_str) == Some(rc.model.as_str()))
            .or_else(|| entries.first());
        health.context_size = chosen.and_then(context_from_model_entry);
        // llama.cpp reports the runtime context (n_ctx) on /props, outside /v1.
        let root = rc.base_url.trim_end_matches("/v1");
        if let Ok(resp) = self
            .http
            .get(format!("{root}/props"))
            .timeout(timeout)
            .send()
            .await
            && resp.status().is_success()
            && let Ok(v) = resp.json::<Value>().await
            && let Some(n) = v
                .pointer("/default_generation_settings/n_ctx")
                .and_then(Value::as_u64)
                .filter(|n| *n > 0)
        {
            health.context_size = Some(n);
        }
        health
    }
}

fn context_from_model_entry(e: &Value) -> Option<u64> {
    [
        "/max_model_len",
        "/context_length",
        "/max_context_length",
        "/meta/n_ctx",
        "/meta/n_ctx_train",
    ]
    .iter()
    .find_map(|p| e.pointer(p).and_then(Value::as_u64))
}

fn transport_error(url: &str, rc: &RoleConfig, e: &reqwest::Error) -> LlmError {
    if e.is_timeout() {
        LlmError::Timeout {
            url: url.to_string(),
            secs: rc.timeout.as_secs_f64(),
        }
    } else {
        let mut message = e.to_string();
        let mut src = std::error::Error::source(e);
        while let Some(s) = src {
            message = format!("{message}: {s}");
            src = s.source();
        }
        LlmError::Unreachable {
            url: url.to_string(),
            message,
        }
    }
}

/// The longest `Retry-After` the client waits out; a server asking for more gets the error.
const MAX_RETRY_AFTER_SECS: u64 = 60;

/// How long to wait before sending a request again after `e`, or `None` when `e` is final
/// or the `retries` are spent. Sent again: transport errors (refused, reset, timed out), an
/// answer that is not a chat completion (garbage, JSON cut off), and a busy server (429, 502,
/// 503, 504, or 500 with a `Retry-After`), after the server's `Retry-After` when it gave one
/// (up to 60 s), else after `backoff` doubled per attempt (up to 8 s). Other HTTP errors (a
/// rejected request, a response_format the server does not take) would fail again.
fn retry_delay(e: &LlmError, backoff: Duration, attempt: u32, retries: u32) -> Option<Duration> {
    if attempt >= retries {
        return None;
    }
    let backoff = backoff
        .saturating_mul(1u32 << attempt.min(4))
        .min(Duration::from_secs(8));
    match e {
        LlmError::Unreachable { .. } | LlmError::Timeout { .. } | LlmError::BadResponse { .. } => {
            Some(backoff)
        }
        LlmError::Http {
            status,
            body,
            retry_after,
            ..
        } => {
            let busy = matches!(status, 429 | 502 | 503 | 504)
                || (*status == 500 && retry_after.is_some());
            if !busy || format_rejected(*status, body) {
                return None;
            }
            match retry_after {
                Some(secs) if *secs > MAX_RETRY_AFTER_SECS => None,
                Some(secs) => Some(Duration::from_secs(*secs)),
                None => Some(backoff),
            }
        }
        _ => None,
    }
}

/// Whether a transport error is a pooled connection the server had closed (hyper's
/// incomplete-message error on send), as opposed to a server that is not there.
fn is_stale_connection(e: &LlmError) -> bool {
    matches!(e, LlmError::Unreachable { message, .. }
        if message.contains("connection closed before message completed"))
}

/// Does an HTTP error look like "this server does not support that response_format"?
fn format_rejected(status: u16, body: &str) -> bool {
    let b = body.to_ascii_lowercase();
    matches!(status, 400 | 415 | 422 | 501)
        || (status == 500
            && (b.contains("response_format")
                || b.contains("json_schema")
                || b.contains("grammar")
                || b.contains("schema")))
}

/// `sampling`'s overrides of `rc`'s settings in a request `body`: the temperature, the seed,
/// and a lower `max_tokens` (never above the role's).
fn apply_sampling(body: &mut Value, rc: &RoleConfig, sampling: Sampling) {
    if let Some(t) = sampling.temperature {
        body["temperature"] = json!(t);
    }
    if let Some(seed) = sampling.seed {
        body["seed"] = json!(seed);
    }
    if let Some(max) = sampling.max_tokens {
        body["max_tokens"] = json!(max.min(rc.max_tokens));
    }
}

/// Removes `<think>...</think>` blocks (an unterminated block is dropped to the end).
pub fn strip_think(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    if out.trim().is_empty() && !s.trim().is_empty() && !s.contains("</think>") {
        return s.to_string();
    }
    out.trim().to_string()
}

fn excerpt(s: &str) -> String {
    if s.chars().count() <= EXCERPT {
        s.to_string()
    } else {
        let cut: String = s.chars().take(EXCERPT).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_closed_pooled_connection_is_stale() {
        let stale = LlmError::Unreachable {
            url: "u".into(),
            message: "error sending request: client error (SendRequest): connection closed before message completed".into(),
        };
        let refused = LlmError::Unreachable {
            url: "u".into(),
            message: "tcp connect error: Connection refused (os error 111)".into(),
        };
        assert!(is_stale_connection(&stale));
        assert!(!is_stale_connection(&refused));
    }

    #[test]
    fn think_blocks_are_removed() {
        assert_eq!(strip_think("<think>hmm</think>\n{\"a\":1}"), "{\"a\":1}");
        assert_eq!(strip_think("x<think>never closed"), "x");
        assert_eq!(strip_think("plain"), "plain");
    }

    #[test]
    fn format_rejection_detection() {
        assert!(format_rejected(400, "anything"));
        assert!(format_rejected(500, "Failed to parse grammar"));
        assert!(!format_rejected(500, "out of memory"));
        assert!(!format_rejected(404, "response_format"));
    }

    #[test]
    fn context_size_from_various_servers() {
        assert_eq!(
            context_from_model_entry(&json!({"max_model_len": 8192})),
            Some(8192)
        );
        assert_eq!(
            context_from_model_entry(&json!({"meta": {"n_ctx_train": 32768}})),
            Some(32768)
        );
        assert_eq!(context_from_model_entry(&json!({"id": "x"})), None);
    }
}
