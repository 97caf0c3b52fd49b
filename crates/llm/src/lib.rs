//! slopguard's OpenAI-compatible LLM client.
//!
//! * [`LlmConfig`]: per-role ([`Role::Planner`], [`Role::Worker`], [`Role::Reviewer`]) base URL,
//!   model, `max_tokens`, temperature and timeout, from `SLOPGUARD_*` variables and flags.
//! * [`LlmClient`] (async) and [`BlockingClient`] (sync): [`LlmClient::chat`] for text,
//!   [`LlmClient::chat_json`] / [`LlmClient::chat_json_value`] for JSON matching a schema, and
//!   [`LlmClient::health`].
//! * [`repair`]: JSON extraction and repair; [`schema`]: the small schema checker.
//!
//! How `chat_json` works: the request carries `response_format` (`json_schema`, falling back to
//! `json_object`, falling back to none when the server rejects it; the level that worked is
//! remembered per base URL). Transport errors are retried with exponential backoff; HTTP errors
//! are not. `finish_reason: "length"` becomes [`LlmError::Truncated`]. The reply goes through
//! [`repair::repair_json`], then the schema check and `T`'s deserializer; on failure the model
//! gets a bounded number of correction turns that quote the problem.
//!
//! ```no_run
//! use slopguard_llm::{BlockingClient, LlmConfig, Message, Role};
//! #[derive(serde::Deserialize)]
//! struct Answer { ok: bool }
//! let client = BlockingClient::new(LlmConfig::from_env()).unwrap();
//! let schema = serde_json::json!({"type": "object", "required": ["ok"],
//!     "properties": {"ok": {"type": "boolean"}}});
//! let a: Answer = client
//!     .chat_json(Role::Worker, &[Message::user("Answer {\"ok\": true}")], &schema)
//!     .unwrap();
//! # let _ = a.ok;
//! ```

mod client;
mod config;
pub mod repair;
pub mod schema;
mod types;

pub use client::{LlmClient, install_crypto_provider, strip_think};
pub use config::{
    DEFAULT_TIMEOUT, DEFAULT_URL, LlmConfig, MAX_TIMEOUT, MIN_TIMEOUT, Role, RoleConfig,
    clamp_timeout, normalize_url,
};
pub use types::{
    ChatResponse, FormatSupport, Health, JsonReply, LlmError, Message, Sampling, Usage,
};

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A synchronous wrapper around [`LlmClient`] owning a small tokio runtime.
///
/// Do not call it from inside an async runtime (tokio refuses nested `block_on`); use
/// [`LlmClient`] there.
#[derive(Debug)]
pub struct BlockingClient {
    runtime: tokio::runtime::Runtime,
    inner: LlmClient,
}

impl BlockingClient {
    /// Builds the client and its runtime.
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Client(e.to_string()))?;
        Ok(Self {
            runtime,
            inner: LlmClient::new(config)?,
        })
    }

    /// The async client inside.
    pub fn inner(&self) -> &LlmClient {
        &self.inner
    }

    /// See [`LlmClient::chat`].
    pub fn chat(&self, role: Role, messages: &[Message]) -> Result<ChatResponse, LlmError> {
        self.runtime.block_on(self.inner.chat(role, messages))
    }

    /// See [`LlmClient::chat_sampled`].
    pub fn chat_sampled(
        &self,
        role: Role,
        messages: &[Message],
        sampling: Sampling,
    ) -> Result<ChatResponse, LlmError> {
        self.runtime
            .block_on(self.inner.chat_sampled(role, messages, sampling))
    }

    /// [`Self::chat_sampled`], given up when `cancel` becomes true (looked at every 50 ms):
    /// `None` then, and the request is dropped (its connection closed). For a reply asked for
    /// ahead of time that other work may make useless.
    pub fn chat_sampled_unless(
        &self,
        role: Role,
        messages: &[Message],
        sampling: Sampling,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Option<Result<ChatResponse, LlmError>> {
        self.unless(self.inner.chat_sampled(role, messages, sampling), cancel)
    }

    /// [`LlmClient::complete_sampled`], given up when `cancel` becomes true, as
    /// [`Self::chat_sampled_unless`].
    pub fn complete_sampled_unless(
        &self,
        role: Role,
        prompt: &str,
        stop: &[String],
        sampling: Sampling,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Option<Result<ChatResponse, LlmError>> {
        self.unless(
            self.inner.complete_sampled(role, prompt, stop, sampling),
            cancel,
        )
    }

    /// Runs `call` until it ends (`Some`) or `cancel` becomes true (`None`, the call dropped),
    /// looking at `cancel` every 50 ms.
    fn unless(
        &self,
        call: impl std::future::Future<Output = Result<ChatResponse, LlmError>>,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Option<Result<ChatResponse, LlmError>> {
        use std::sync::atomic::Ordering;
        self.runtime.block_on(async {
            tokio::pin!(call);
            loop {
                tokio::select! {
                    reply = &mut call => return Some(reply),
                    _ = tokio::time::sleep(std::time::Duration::from_millis(50)) => {
                        if cancel.load(Ordering::Relaxed) {
                            return None;
                        }
                    }
                }
            }
        })
    }

    /// See [`LlmClient::set_transcript`].
    pub fn set_transcript(&self, path: &std::path::Path) -> std::io::Result<()> {
        self.inner.set_transcript(path)
    }

    /// See [`LlmClient::chat_json`].
    pub fn chat_json<T: DeserializeOwned>(
        &self,
        role: Role,
        messages: &[Message],
        schema: &Value,
    ) -> Result<T, LlmError> {
        self.runtime
            .block_on(self.inner.chat_json::<T>(role, messages, schema))
    }

    /// See [`LlmClient::chat_json_value`].
    pub fn chat_json_value(
        &self,
        role: Role,
        messages: &[Message],
        schema: &Value,
    ) -> Result<JsonReply, LlmError> {
        self.runtime
            .block_on(self.inner.chat_json_value(role, messages, schema))
    }

    /// See [`LlmClient::health`].
    pub fn health(&self, role: Role) -> Health {
        self.runtime.block_on(self.inner.health(role))
    }

    /// See [`LlmClient::usage`].
    pub fn usage(&self) -> BTreeMap<&'static str, Usage> {
        self.inner.usage()
    }
}
