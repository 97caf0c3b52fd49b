//! Per-role endpoint configuration, read from the environment (DESIGN.md section 10) and
//! overridable by flags.

use std::time::Duration;

/// Base URL used when nothing is configured (llama.cpp / xllamacpp server default port).
pub const DEFAULT_URL: &str = "http://127.0.0.1:8080/v1";
/// Shortest accepted request timeout.
pub const MIN_TIMEOUT: Duration = Duration::from_secs(1);
/// Longest accepted request timeout.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(600);
/// Default request timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// Who is asking: each role may use its own endpoint, model and sampling settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Turns the analysis into a task plan.
    Planner,
    /// Writes patches for one subtask.
    Worker,
    /// Critics and self-review.
    Reviewer,
}

impl Role {
    /// All roles.
    pub const ALL: [Role; 3] = [Role::Planner, Role::Worker, Role::Reviewer];

    /// `planner`, `worker`, `reviewer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Planner => "planner",
            Role::Worker => "worker",
            Role::Reviewer => "reviewer",
        }
    }

    fn env_prefix(self) -> &'static str {
        match self {
            Role::Planner => "SLOPGUARD_PLANNER",
            Role::Worker => "SLOPGUARD_WORKER",
            Role::Reviewer => "SLOPGUARD_REVIEWER",
        }
    }
}

/// Endpoint and sampling settings of one role.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleConfig {
    /// Base URL including `/v1` (no trailing slash).
    pub base_url: String,
    /// Model id sent in requests; empty means "whatever the server serves" (the health check
    /// then reports the first listed model).
    pub model: String,
    /// Bearer token, if the server needs one.
    pub api_key: Option<String>,
    /// `max_tokens` per request.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Per-request timeout, clamped to [`MIN_TIMEOUT`]..=[`MAX_TIMEOUT`].
    pub timeout: Duration,
}

impl RoleConfig {
    /// A role talking to `base_url` with defaults for everything else.
    pub fn new(base_url: &str, model: &str, role: Role) -> Self {
        let (max_tokens, temperature) = match role {
            Role::Planner => (1536, 0.2),
            Role::Worker => (2048, 0.1),
            Role::Reviewer => (1024, 0.3),
        };
        Self {
            base_url: normalize_url(base_url),
            model: model.to_string(),
            api_key: None,
            max_tokens,
            temperature,
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// The whole client configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmConfig {
    /// Planner role.
    pub planner: RoleConfig,
    /// Worker role.
    pub worker: RoleConfig,
    /// Reviewer role.
    pub reviewer: RoleConfig,
    /// Retries after a transport error (connect, reset, timeout), an answer that is not a chat
    /// completion, or a busy server (429, 502-504, 500 with `Retry-After`, whose delay is
    /// honoured up to 60 s); other HTTP errors are not retried. Clamped to 0..=5.
    pub retries: u32,
    /// First backoff delay; doubled per retry, capped at 8 s.
    pub backoff: Duration,
    /// Correction turns after a reply that is not valid JSON or violates the schema (0..=3).
    pub correction_turns: u32,
    /// Append `/no_think` to the last user message (Qwen3 family).
    pub no_think_suffix: bool,
    /// Send `chat_template_kwargs: {"enable_thinking": false}` (GLM, Gemma, vLLM).
    pub thinking_template_kwarg: bool,
}

impl LlmConfig {
    /// Every role on one endpoint and model.
    pub fn single(base_url: &str, model: &str) -> Self {
        Self {
            planner: RoleConfig::new(base_url, model, Role::Planner),
            worker: RoleConfig::new(base_url, model, Role::Worker),
            reviewer: RoleConfig::new(base_url, model, Role::Reviewer),
            retries: 2,
            backoff: Duration::from_millis(500),
            correction_turns: 2,
            no_think_suffix: false,
            thinking_template_kwarg: false,
        }
    }

    /// Reads the environment: `SLOPGUARD_LLM_URL`, `SLOPGUARD_LLM_MODEL`,
    /// `SLOPGUARD_LLM_API_KEY`, `SLOPGUARD_LLM_TIMEOUT` (seconds), `SLOPGUARD_LLM_RETRIES`,
    /// `SLOPGUARD_LLM_NO_THINK=1`, `SLOPGUARD_LLM_THINKING_KWARG=1`, and per role
    /// `SLOPGUARD_{PLANNER,WORKER,REVIEWER}_{URL,MODEL,MAX_TOKENS,TEMPERATURE}`.
    pub fn from_env() -> Self {
        Self::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
    }

    /// Like [`LlmConfig::from_env`] with an explicit variable lookup (for tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let url = get("SLOPGUARD_LLM_URL").unwrap_or_else(|| DEFAULT_URL.to_string());
        let model = get("SLOPGUARD_LLM_MODEL").unwrap_or_default();
        let mut cfg = Self::single(&url, &model);
        let key = get("SLOPGUARD_LLM_API_KEY");
        let timeout = get("SLOPGUARD_LLM_TIMEOUT")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(|s| clamp_timeout(Duration::from_secs_f64(s.min(1e6))));
        if let Some(r) = get("SLOPGUARD_LLM_RETRIES").and_then(|v| v.trim().parse().ok()) {
            cfg.retries = r;
        }
        cfg.retries = cfg.retries.min(5);
        cfg.no_think_suffix = get("SLOPGUARD_LLM_NO_THINK").is_some_and(|v| truthy(&v));
        cfg.thinking_template_kwarg =
            get("SLOPGUARD_LLM_THINKING_KWARG").is_some_and(|v| truthy(&v));
        for role in Role::ALL {
            let p = role.env_prefix();
            let rc = cfg.role_mut(role);
            if let Some(u) = get(&format!("{p}_URL")) {
                rc.base_url = normalize_url(&u);
            }
            if let Some(m) = get(&format!("{p}_MODEL")) {
                rc.model = m;
            }
            if let Some(n) = get(&format!("{p}_MAX_TOKENS")).and_then(|v| v.trim().parse().ok()) {
                rc.max_tokens = n;
            }
            if let Some(t) = get(&format!("{p}_TEMPERATURE"))
                .and_then(|v| v.trim().parse::<f32>().ok())
                .filter(|t| t.is_finite())
            {
                rc.temperature = t.clamp(0.0, 2.0);
            }
            rc.api_key = key.clone();
            if let Some(t) = timeout {
                rc.timeout = t;
            }
        }
        cfg
    }

    /// Points every role at `url` (the `--llm-url` flag).
    pub fn with_url(mut self, url: &str) -> Self {
        for role in Role::ALL {
            self.role_mut(role).base_url = normalize_url(url);
        }
        self
    }

    /// Uses `model` for every role (the `--model` flag).
    pub fn with_model(mut self, model: &str) -> Self {
        for role in Role::ALL {
            self.role_mut(role).model = model.to_string();
        }
        self
    }

    /// Sets every role's timeout (clamped).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        for role in Role::ALL {
            self.role_mut(role).timeout = clamp_timeout(timeout);
        }
        self
    }

    /// The settings of `role`.
    pub fn role(&self, role: Role) -> &RoleConfig {
        match role {
            Role::Planner => &self.planner,
            Role::Worker => &self.worker,
            Role::Reviewer => &self.reviewer,
        }
    }

    /// The settings of `role`, mutably.
    pub fn role_mut(&mut self, role: Role) -> &mut RoleConfig {
        match role {
            Role::Planner => &mut self.planner,
            Role::Worker => &mut self.worker,
            Role::Reviewer => &mut self.reviewer,
        }
    }
}

/// Clamps a timeout to [`MIN_TIMEOUT`]..=[`MAX_TIMEOUT`].
pub fn clamp_timeout(t: Duration) -> Duration {
    t.clamp(MIN_TIMEOUT, MAX_TIMEOUT)
}

fn truthy(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// Trims whitespace and trailing slashes; a URL given without a path gets `/v1` appended.
pub fn normalize_url(url: &str) -> String {
    let u = url.trim().trim_end_matches('/');
    let after_scheme = u.split_once("://").map(|(_, r)| r).unwrap_or(u);
    if after_scheme.contains('/') {
        u.to_string()
    } else {
        format!("{u}/v1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn defaults_without_env() {
        let c = LlmConfig::from_lookup(lookup(&[]));
        assert_eq!(c.planner.base_url, DEFAULT_URL);
        assert_eq!(c.worker.timeout, DEFAULT_TIMEOUT);
        assert!(!c.no_think_suffix);
    }

    #[test]
    fn per_role_overrides_and_clamps() {
        let c = LlmConfig::from_lookup(lookup(&[
            ("SLOPGUARD_LLM_URL", "http://h:1/v1/"),
            ("SLOPGUARD_LLM_MODEL", "m"),
            ("SLOPGUARD_WORKER_URL", "http://w:2"),
            ("SLOPGUARD_REVIEWER_MODEL", "big"),
            ("SLOPGUARD_PLANNER_MAX_TOKENS", "99"),
            ("SLOPGUARD_LLM_TIMEOUT", "100000"),
            ("SLOPGUARD_LLM_RETRIES", "50"),
            ("SLOPGUARD_LLM_NO_THINK", "yes"),
        ]));
        assert_eq!(c.planner.base_url, "http://h:1/v1");
        assert_eq!(c.worker.base_url, "http://w:2/v1");
        assert_eq!(c.reviewer.model, "big");
        assert_eq!(c.planner.model, "m");
        assert_eq!(c.planner.max_tokens, 99);
        assert_eq!(c.worker.timeout, MAX_TIMEOUT);
        assert_eq!(c.retries, 5);
        assert!(c.no_think_suffix);
    }

    #[test]
    fn flags_override_every_role() {
        let c = LlmConfig::single("http://a/v1", "x")
            .with_url("http://b:3")
            .with_model("y")
            .with_timeout(Duration::from_millis(1));
        for r in Role::ALL {
            assert_eq!(c.role(r).base_url, "http://b:3/v1");
            assert_eq!(c.role(r).model, "y");
            assert_eq!(c.role(r).timeout, MIN_TIMEOUT);
        }
    }
}
