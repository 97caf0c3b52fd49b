//! Arguments shared by several commands: the output formats and the model endpoint, defined
//! once so every command spells and documents them the same way.

use std::path::{Path, PathBuf};
use std::time::Duration;

use slopguard_guards::output::Format;
use slopguard_llm::LlmConfig;

/// Output format of the reporting commands (`analyze`, `plan`, `doctor`, `replay`, `guards`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ReportFormat {
    /// A table for humans.
    Text,
    /// One JSON document.
    Json,
}

/// Output format of `check` and `hook`-less guard reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Findings for humans, coloured on a terminal.
    Text,
    /// One JSON document (`schema_version` 1).
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
}

impl From<CheckFormat> for Format {
    fn from(f: CheckFormat) -> Format {
        match f {
            CheckFormat::Text => Format::Text,
            CheckFormat::Json => Format::Json,
            CheckFormat::Sarif => Format::Sarif,
        }
    }
}

/// When text output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The observation store, for the commands that record runs in it (`run`, `ci-watch`).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct StoreArgs {
    /// Store for observations and the failure memory (`sqlite://PATH`, `postgres://...`).
    #[arg(long, env = "SLOPGUARD_DB")]
    pub db: Option<String>,

    /// Do not record observations in the store.
    #[arg(long)]
    pub no_store: bool,
}

/// The model endpoint, for every command that talks to a model (`plan`, `run`, `doctor`).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct LlmArgs {
    /// LLM base URL including /v1 (default: SLOPGUARD_LLM_URL, else http://127.0.0.1:8080/v1).
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,

    /// Model id (default: SLOPGUARD_LLM_MODEL, per role SLOPGUARD_PLANNER_MODEL /
    /// SLOPGUARD_WORKER_MODEL, else the server's first model).
    #[arg(long)]
    pub model: Option<String>,

    /// LLM request timeout in seconds, clamped to 1..600 (default: SLOPGUARD_LLM_TIMEOUT).
    #[arg(long, value_name = "SECONDS")]
    pub llm_timeout: Option<u64>,
}

impl LlmArgs {
    /// The LLM configuration: the environment, overridden by the flags.
    pub(crate) fn config(&self) -> LlmConfig {
        self.config_with_timeout(self.llm_timeout)
    }

    /// As [`LlmArgs::config`], with `timeout` seconds when no flag gives one.
    pub(crate) fn config_or_timeout(&self, timeout: u64) -> LlmConfig {
        self.config_with_timeout(Some(self.llm_timeout.unwrap_or(timeout)))
    }

    fn config_with_timeout(&self, timeout: Option<u64>) -> LlmConfig {
        let mut cfg = LlmConfig::from_env();
        if let Some(u) = &self.llm_url {
            cfg = cfg.with_url(u);
        }
        if let Some(m) = &self.model {
            cfg = cfg.with_model(m);
        }
        if let Some(t) = timeout {
            cfg = cfg.with_timeout(Duration::from_secs(t));
        }
        cfg
    }
}

/// The repository a command works on: a path inside it, given as PATH or as `-C PATH` /
/// `--repo PATH` (the spelling `check` and `replay` use), so one convention works everywhere.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct RepoArg {
    /// The repository (any path inside it).
    #[arg(default_value = ".", value_name = "PATH")]
    path: PathBuf,
    /// The repository, as `check` and `replay` take it (the same as PATH).
    #[arg(
        long = "repo",
        short = 'C',
        value_name = "PATH",
        conflicts_with = "path"
    )]
    repo: Option<PathBuf>,
}

impl RepoArg {
    /// The path given, either way.
    pub(crate) fn path(&self) -> &Path {
        self.repo.as_deref().unwrap_or(&self.path)
    }
}
