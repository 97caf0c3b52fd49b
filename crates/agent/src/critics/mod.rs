//! Critics after the guards: once a run's subtasks have landed, model-backed reviewers read the
//! branch's diff before the pull request is written.
//!
//! - [`panel`]: three personas (developer, architect, contributor), advisory findings.
//! - [`devil`]: one adversarial pass; its findings are what the refiner works on.
//! - [`refiner`]: a revised patch for the devil's findings. It meets exactly the checks a
//!   worker patch meets ([`revision`]: every static guard, then build and tests); any refusal
//!   reverts it and the worker's version ships, with the reason traced.
//! - [`judge`]: compares the worker's version (v0) with the refiner's (v1); v1 is kept only
//!   when the judge prefers it and every gate passed. An unclear answer keeps v0.
//! - [`qa`]: three questions about the patch, a defender answers; a revision it proposes is
//!   applied only when it passes the same gates.
//! - [`self_critic`]: a review comment written beside the pull-request body.
//!
//! Every critic is off unless `slopguard.toml` `[critics]` or `run --critics` turns it on: on
//! a small local model each costs a model call of 10-60 s. A token budget caps the whole phase.
//! Findings are data ([`CriticFinding`]): in the run summary, the PR body, the trace (the seeds'
//! event names: `critic_panel.review.end`, `critic_devil.finding`, `critic_refiner.kept`,
//! `critic_refiner.reverted`, `critic_judge.verdict`, `critic_qa.answers`, `critic_self.review`).

pub mod devil;
mod findings;
pub mod judge;
pub mod panel;
pub mod qa;
pub mod refiner;
pub mod revision;
pub mod self_critic;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{Value, json};
use slopguard_fingerprint::Fingerprint;
use slopguard_guards::Config;
use slopguard_llm::{BlockingClient, LlmConfig, Message, Role, Sampling};

pub use findings::parse_findings;

pub use crate::records::{CriticFinding, CriticsReport, QaExchange, RevisionOutcome, Severity};

use crate::dynamic::DynamicOptions;
use crate::records::Baseline;

/// The critics, in the order they run.
pub const CRITICS: &[&str] = &["panel", "devil", "refiner", "judge", "qa", "self-critic"];

/// Default token budget of the whole critique phase (prompt and completion).
pub const DEFAULT_TOKEN_BUDGET: u64 = 40_000;

/// Which critics run, on which model, within which budget (`slopguard.toml` `[critics]`).
///
/// ```toml
/// [critics]
/// enabled = ["panel", "devil", "refiner", "judge"]   # or "all"
/// token_budget = 40000
/// [critics.devil]                                    # optional: another model or endpoint
/// model = "qwen2.5-coder-1.5b-instruct"
/// url = "http://127.0.0.1:8081/v1"
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CriticsConfig {
    /// The critics turned on (names from [`CRITICS`]).
    pub enabled: Vec<String>,
    /// Most tokens the phase may spend.
    pub token_budget: u64,
    /// Per-critic endpoint overrides.
    pub endpoints: BTreeMap<String, CriticEndpoint>,
}

/// Another model or endpoint for one critic.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriticEndpoint {
    /// Model id.
    pub model: Option<String>,
    /// Base URL with `/v1`.
    pub url: Option<String>,
}

impl CriticsConfig {
    /// Reads `[critics]` from the whole configuration file; absent: every critic off.
    pub fn from_toml(raw: &toml::Table) -> Result<Self, String> {
        let mut cfg = Self {
            token_budget: DEFAULT_TOKEN_BUDGET,
            ..Self::default()
        };
        let Some(table) = raw.get("critics") else {
            return Ok(cfg);
        };
        let table = table
            .as_table()
            .ok_or("[critics] must be a table (see README: Configuration)")?;
        for (key, value) in table {
            match key.as_str() {
                "enabled" => cfg.enabled = enabled_list(value)?,
                "token_budget" => {
                    cfg.token_budget = value
                        .as_integer()
                        .filter(|n| *n > 0)
                        .ok_or("[critics] token_budget: expected a positive integer")?
                        as u64;
                }
                name if CRITICS.contains(&name) => {
                    let endpoint: CriticEndpoint = value
                        .clone()
                        .try_into()
                        .map_err(|e| format!("[critics.{name}]: {e}"))?;
                    cfg.endpoints.insert(name.to_string(), endpoint);
                }
                other => {
                    return Err(format!(
                        "[critics] unknown key `{other}`: expected enabled, token_budget or one of {}",
                        CRITICS.join(", ")
                    ));
                }
            }
        }
        Ok(cfg)
    }

    /// Turns on the critics named in `list` (`run --critics panel,devil`; `all`; `none`).
    pub fn enable(&mut self, list: &[String]) -> Result<(), String> {
        self.enabled = enabled_list(&toml::Value::Array(
            list.iter()
                .map(|s| toml::Value::String(s.clone()))
                .collect(),
        ))?;
        Ok(())
    }

    /// Whether `critic` is on.
    pub fn on(&self, critic: &str) -> bool {
        self.enabled.iter().any(|c| c == critic)
    }

    /// Whether any critic is on.
    pub fn any(&self) -> bool {
        !self.enabled.is_empty()
    }
}

/// `"all"`, `"none"`, or a list of critic names, checked.
fn enabled_list(value: &toml::Value) -> Result<Vec<String>, String> {
    let names: Vec<String> = match value {
        toml::Value::String(s) => vec![s.clone()],
        toml::Value::Array(a) => a
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or("[critics] enabled: expected names of critics")?,
        _ => return Err("[critics] enabled: expected \"all\" or a list of critics".into()),
    };
    let mut out = Vec::new();
    for name in names.iter().flat_map(|n| n.split(',')).map(str::trim) {
        match name {
            "" | "none" => {}
            "all" => out.extend(CRITICS.iter().map(|c| c.to_string())),
            c if CRITICS.contains(&c) => out.push(c.to_string()),
            other => {
                return Err(format!(
                    "unknown critic `{other}`: expected all, none or {}",
                    CRITICS.join(", ")
                ));
            }
        }
    }
    out.dedup();
    Ok(out)
}

/// What stops the critique phase: git or the worktree failed under a revision (a critic's
/// unusable answer or a refused revision is no error: it is recorded and the phase goes on).
/// The run loop turns it into its own error (`run::RunError`) where it calls [`critique`].
#[derive(Debug, thiserror::Error)]
pub enum CriticsError {
    /// A git operation failed.
    #[error(transparent)]
    Git(#[from] crate::git::GitError),
    /// Writing or reverting a revision in the worktree failed.
    #[error(transparent)]
    Write(#[from] crate::dynamic::WriteError),
}

/// What the critics read and where revisions go.
pub struct Workspace<'a> {
    /// The run's worktree, on its branch.
    pub worktree: &'a Path,
    /// The commit the run started from: the diff under review is base..HEAD.
    pub base_commit: &'a str,
    /// The test baseline (HEAD's tests), for the revisions' dynamic gates.
    pub baseline: Option<&'a Baseline>,
    /// Build and test options of the run.
    pub dynamic: &'a DynamicOptions,
    /// The guard configuration.
    pub guards: &'a Config,
    /// The repository fingerprint for the guards, when known.
    pub fingerprint: Option<&'a Fingerprint>,
    /// What the run was asked to do (the landed subtasks' titles), for the prompts.
    pub task: String,
}

/// The model calls of the phase, within the budget.
pub struct Models<'a> {
    default: &'a BlockingClient,
    own: BTreeMap<String, BlockingClient>,
    budget: u64,
    report: &'a mut CriticsReport,
    kept_tests: Option<slopguard_toolchain::TestRun>,
}

impl<'a> Models<'a> {
    /// The run's client for every critic but those with an endpoint of their own in `cfg`.
    pub fn new(
        default: &'a BlockingClient,
        run_llm: &LlmConfig,
        cfg: &CriticsConfig,
        report: &'a mut CriticsReport,
    ) -> Result<Self, String> {
        let mut own = BTreeMap::new();
        for (critic, endpoint) in &cfg.endpoints {
            let mut llm = run_llm.clone();
            if let Some(url) = &endpoint.url {
                llm.reviewer.base_url = url.trim_end_matches('/').to_string();
            }
            if let Some(model) = &endpoint.model {
                llm.reviewer.model = model.clone();
            }
            let client = BlockingClient::new(llm)
                .map_err(|e| format!("[critics.{critic}]: cannot build its client: {e}"))?;
            own.insert(critic.clone(), client);
        }
        Ok(Self {
            default,
            own,
            budget: cfg.token_budget,
            report,
            kept_tests: None,
        })
    }

    /// Asks the reviewer model as `critic`; `None` (and a skip recorded) when the budget is
    /// spent or the call fails: a critic never stops the run.
    pub fn ask(&mut self, critic: &str, messages: &[Message], max_tokens: u32) -> Option<String> {
        if self.report.tokens >= self.budget {
            self.report
                .skipped
                .push(format!("{critic}: token budget of {} spent", self.budget));
            return None;
        }
        let client = self.own.get(critic).unwrap_or(self.default);
        let sampling = Sampling {
            temperature: Some(0.2),
            seed: None,
            max_tokens: Some(max_tokens),
        };
        self.report.calls += 1;
        match client.chat_sampled(Role::Reviewer, messages, sampling) {
            Ok(reply) => {
                self.report.tokens += reply.usage.prompt_tokens + reply.usage.completion_tokens;
                Some(reply.content)
            }
            Err(e) => {
                self.report
                    .skipped
                    .push(format!("{critic}: model error: {e}"));
                None
            }
        }
    }

    /// The test run of the last revision kept, which the branch head now is.
    pub fn take_kept_tests(&mut self) -> Option<slopguard_toolchain::TestRun> {
        self.kept_tests.take()
    }

    /// Records the tests of a kept revision.
    fn kept(&mut self, tests: Option<slopguard_toolchain::TestRun>) {
        if tests.is_some() {
            self.kept_tests = tests;
        }
    }

    /// The report being written.
    pub fn report(&mut self) -> &mut CriticsReport {
        self.report
    }
}

/// Runs the enabled critics over the branch's diff. Revisions that pass every gate are
/// committed on the branch (`emit` hears every step); the returned report says what happened.
pub fn critique(
    ws: &Workspace<'_>,
    cfg: &CriticsConfig,
    models: &mut Models<'_>,
    emit: &dyn Fn(&str, Value),
) -> Result<(), CriticsError> {
    let started = Instant::now();
    let diff = branch_diff(ws)?;
    if diff.trim().is_empty() {
        models
            .report()
            .skipped
            .push("all: the branch changes nothing".into());
        return Ok(());
    }
    if cfg.on("panel") {
        panel::review(ws, &diff, models, emit);
    }
    if cfg.on("devil") {
        devil::attack(ws, &diff, models, emit);
    }
    if cfg.on("refiner") {
        refiner::refine(ws, &diff, cfg.on("judge"), models, emit)?;
    }
    if cfg.on("qa") {
        let diff = branch_diff(ws)?;
        qa::round(ws, &diff, models, emit)?;
    }
    if cfg.on("self-critic") {
        let diff = branch_diff(ws)?;
        self_critic::review(ws, &diff, models, emit);
    }
    models.report().elapsed_ms = started.elapsed().as_millis() as u64;
    let report = models.report();
    emit(
        "critics.end",
        json!({"ran": report.ran, "findings": report.findings.len(), "calls": report.calls,
               "tokens": report.tokens, "elapsed_ms": report.elapsed_ms}),
    );
    Ok(())
}

/// Largest diff shown to a critic, in characters.
const MAX_DIFF_CHARS: usize = 12_000;

/// The branch's change under review: `git diff base..HEAD`, cut to [`MAX_DIFF_CHARS`].
pub fn branch_diff(ws: &Workspace<'_>) -> Result<String, CriticsError> {
    let range = format!("{}..HEAD", ws.base_commit);
    let diff = crate::git::git(ws.worktree, &["diff", "--no-color", &range])?;
    Ok(cut(&diff, MAX_DIFF_CHARS))
}

/// `text` cut at a character boundary below `max` bytes, saying so.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let end = (0..=max)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}\n[cut]\n", &text[..end])
}

/// The user message every reviewing critic starts from: the task and the diff.
fn task_and_diff(ws: &Workspace<'_>, diff: &str) -> String {
    format!(
        "The change was made for: {}\n\nThe diff:\n```diff\n{diff}```\n",
        ws.task
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_reads_enabled_budget_and_endpoints() {
        let raw: toml::Table = toml::from_str(
            "[critics]\nenabled = [\"panel\", \"devil\"]\ntoken_budget = 500\n[critics.devil]\nmodel = \"m\"\n",
        )
        .unwrap();
        let cfg = CriticsConfig::from_toml(&raw).unwrap();
        assert_eq!(cfg.enabled, ["panel", "devil"]);
        assert_eq!(cfg.token_budget, 500);
        assert_eq!(cfg.endpoints["devil"].model.as_deref(), Some("m"));
        assert!(!CriticsConfig::from_toml(&toml::Table::new()).unwrap().any());
        let all: toml::Table = toml::from_str("[critics]\nenabled = \"all\"\n").unwrap();
        assert_eq!(
            CriticsConfig::from_toml(&all).unwrap().enabled.len(),
            CRITICS.len()
        );
        for bad in [
            "[critics]\nenabled = [\"panle\"]\n",
            "[critics]\ncolour = 1\n",
            "[critics]\ntoken_budget = -3\n",
            "[critics.devil]\nmodle = \"x\"\n",
        ] {
            let raw: toml::Table = toml::from_str(bad).unwrap();
            assert!(CriticsConfig::from_toml(&raw).is_err(), "{bad}");
        }
        let mut cfg = CriticsConfig::default();
        cfg.enable(&["refiner,judge".into()]).unwrap();
        assert_eq!(cfg.enabled, ["refiner", "judge"]);
    }
}
