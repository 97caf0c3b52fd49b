//! The client's public types: its errors, chat messages, sampling, token usage, the answers
//! it returns and the health of an endpoint.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::repair::RepairPass;

/// Errors of the client.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The endpoint could not be reached (connection refused, DNS, TLS) after all retries.
    #[error("LLM endpoint {url} is unreachable: {message}")]
    Unreachable {
        /// The URL that failed.
        url: String,
        /// The transport error.
        message: String,
    },
    /// No answer within the timeout, after all retries.
    #[error("LLM endpoint {url} did not answer within {secs:.0} s")]
    Timeout {
        /// The URL that failed.
        url: String,
        /// The timeout in seconds.
        secs: f64,
    },
    /// The server answered with an HTTP error.
    #[error("LLM endpoint {url} answered HTTP {status}: {body}")]
    Http {
        /// The URL.
        url: String,
        /// HTTP status.
        status: u16,
        /// Start of the body.
        body: String,
        /// The server's `Retry-After`, in seconds, when it sent one.
        retry_after: Option<u64>,
    },
    /// The server's answer is not a chat completion.
    #[error("LLM endpoint {url} sent an unexpected answer: {message}")]
    BadResponse {
        /// The URL.
        url: String,
        /// What was wrong.
        message: String,
    },
    /// The model stopped at `max_tokens` (`finish_reason: length`).
    #[error("the model's reply was cut off at max_tokens={max_tokens} ({chars} characters)")]
    Truncated {
        /// The configured limit.
        max_tokens: u32,
        /// Length of the partial reply.
        chars: usize,
        /// The partial reply (excerpt).
        partial: String,
    },
    /// No valid JSON (or none matching the schema) after the correction turns.
    #[error("could not obtain valid JSON from the model after {attempts} attempts: {last_error}")]
    InvalidJson {
        /// Requests made.
        attempts: u32,
        /// The last parse or schema error.
        last_error: String,
        /// The last reply (excerpt).
        last_content: String,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl LlmError {
    /// True for errors that mean "nobody is listening there" (for exit-code 2 handling).
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            LlmError::Unreachable { .. } | LlmError::Timeout { .. }
        )
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: "system".into(),
            content: content.into(),
        }
    }
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: "user".into(),
            content: content.into(),
        }
    }
    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: "assistant".into(),
            content: content.into(),
        }
    }
}

/// Token counts as reported by the server (zero when it reports none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Prompt tokens the server did not read again because its prompt cache held them
    /// (`usage.prompt_tokens_details.cached_tokens`; llama.cpp, vLLM and OpenAI report it).
    #[serde(default)]
    pub cached_tokens: u64,
    /// Requests counted.
    #[serde(default)]
    pub requests: u64,
}

impl Usage {
    pub(crate) fn add(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.cached_tokens += other.cached_tokens;
        self.requests += other.requests;
    }
}

/// Per-call sampling overrides (candidates are sampled at different temperatures and seeds).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sampling {
    /// Temperature instead of the role's.
    pub temperature: Option<f32>,
    /// `seed` sent to the server (llama.cpp, vLLM and OpenAI honour it).
    pub seed: Option<u64>,
    /// A lower `max_tokens` than the role's (never a higher one), for answers known to be short.
    pub max_tokens: Option<u32>,
}

/// Structured-output support level of a server, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatSupport {
    /// `response_format: {"type": "json_schema", ...}`.
    JsonSchema,
    /// `response_format: {"type": "json_object"}`.
    JsonObject,
    /// No `response_format` at all.
    None,
}

impl FormatSupport {
    pub(crate) fn weaker(self) -> Option<Self> {
        match self {
            FormatSupport::JsonSchema => Some(FormatSupport::JsonObject),
            FormatSupport::JsonObject => Some(FormatSupport::None),
            FormatSupport::None => None,
        }
    }
}

/// One completed chat call.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    /// Assistant content, with `<think>...</think>` blocks removed.
    pub content: String,
    /// `finish_reason` as reported (`None` when absent or empty).
    pub finish_reason: Option<String>,
    /// Usage of this call.
    pub usage: Usage,
    /// Wall-clock time including retries.
    pub elapsed: Duration,
    /// The structured-output level used.
    pub format: Option<FormatSupport>,
}

/// A JSON reply with how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonReply {
    /// The value (valid against the schema).
    pub value: Value,
    /// Repair passes needed on the accepted reply.
    pub repairs: Vec<RepairPass>,
    /// Correction turns used (0: the first reply was accepted).
    pub corrections: u32,
    /// Usage summed over the attempts.
    pub usage: Usage,
    /// Wall-clock time summed over the attempts.
    pub elapsed: Duration,
    /// The accepted raw reply.
    pub raw: String,
}

/// Health of one role's endpoint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Health {
    /// Base URL checked.
    pub url: String,
    /// `GET /models` answered.
    pub reachable: bool,
    /// Model ids the server lists.
    pub models: Vec<String>,
    /// The configured model (empty: any).
    pub model: String,
    /// Whether the configured model is listed (`None` when no model is configured).
    pub model_listed: Option<bool>,
    /// Context size in tokens, when the server reports it.
    pub context_size: Option<u64>,
    /// The error when not reachable.
    pub error: Option<String>,
}
