//! The options of a run ([`RunOptions`], [`PlanSource`]) and their defaults: what the CLI
//! (and `feedback fix`, `ci-watch`) hand to [`super::execute`] before the pipeline starts
//! (analyse -> plan -> per subtask: attempts -> candidates -> static judge -> review ->
//! dynamic judge -> proof -> land -> observe -> critics -> finish).

use std::path::PathBuf;
use std::time::Duration;

use slopguard_llm::LlmConfig;

use crate::dynamic::DynamicOptions;
use crate::run::candidates;
use slopguard_planning::plan::Plan;
use slopguard_planning::plan::post::Scope;

/// Where the plan comes from.
#[derive(Debug, Clone, Default)]
pub enum PlanSource {
    /// Ask the planner model.
    #[default]
    Llm,
    /// An operator plan (`--plan-from-file`).
    File(PathBuf),
    /// A plan given in memory (tests, callers).
    Given(Plan),
}

/// Options of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Any path inside the repository.
    pub path: PathBuf,
    /// Base ref (default `HEAD`).
    pub base: String,
    /// Branch name (default `slopguard/<run-id>`).
    pub branch: Option<String>,
    /// Resume: `Some("")` for the latest unfinished run, `Some(id)` for that run.
    pub resume: Option<String>,
    /// Plan and guard verdicts only; nothing committed.
    pub dry_run: bool,
    /// Plan source.
    pub plan: PlanSource,
    /// Scope vertical.
    pub scope: Option<Scope>,
    /// LLM configuration.
    pub llm: LlmConfig,
    /// Store URL (`sqlite://...`, `postgres://...`); default the user store.
    pub db: Option<String>,
    /// Do not record observations.
    pub no_store: bool,
    /// Attempts per subtask (default 3).
    pub max_attempts: u32,
    /// G9 threshold.
    pub g9_threshold: u32,
    /// `slopguard.toml` (default `<repo>/slopguard.toml`).
    pub config: Option<PathBuf>,
    /// Dynamic guard options.
    pub dynamic: DynamicOptions,
    /// Run the toolchain during analysis (build and test metrics).
    pub analysis_toolchain: bool,
    /// Re-run the analysis on the branch after execution (metrics after).
    pub measure_after: bool,
    /// Token budget for file contents in the worker prompt.
    pub file_budget_tokens: usize,
    /// Where the run's worktree goes (default under the temp dir).
    pub worktree: Option<PathBuf>,
    /// Keep the worktree after the run.
    pub keep_worktree: bool,
    /// Candidate replies sampled per attempt.
    pub candidates: candidates::CandidateCount,
    /// Wall-clock budget of one subtask: no new candidate or attempt starts after it.
    pub subtask_budget: Duration,
    /// Wall-clock budget of the run: once spent, subtasks not about failing tests are skipped.
    pub run_budget: Option<Duration>,
    /// The model-backed gates to run (slugs of
    /// [`gates::MODEL_GATES`](crate::gates::MODEL_GATES)); none by default.
    pub model_gates: Vec<String>,
    /// Land a patch only with its own regression test, failing without the fix and passing
    /// with it (the `regression-proof` gate; `slopguard feedback fix`).
    pub regression_proof: bool,
    /// The critics to run after the subtasks landed (`run --critics`); `None`: as
    /// `slopguard.toml` `[critics]` says (off when it says nothing).
    pub critics: Option<Vec<String>>,
    /// The continuous critic (`gates::step_critic`): one reviewer call after each attempt; a
    /// confident finding is the next attempt's feedback. Off by default.
    pub step_critic: bool,
    /// Try repair templates (one-token changes at the statements the failing tests reach,
    /// `worker::templates`) before the model's first candidate. On by default.
    pub templates: bool,
    /// Ask a model trained to fill in the middle to write the suspect statements again without
    /// seeing them (`worker::infill`), judged like repair templates. `Auto` by default: for
    /// the model families whose format is known.
    pub infill: slopguard_worker::infill::InfillSetting,
    /// Land a fix that makes some of its failing tests pass but not all, at the last attempt
    /// (status `partial`, the run exits 1). Off by default: such a subtask fails.
    pub allow_partial: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            path: PathBuf::from("."),
            base: "HEAD".into(),
            branch: None,
            resume: None,
            dry_run: false,
            plan: PlanSource::Llm,
            scope: None,
            llm: LlmConfig::from_env(),
            db: None,
            no_store: false,
            max_attempts: 3,
            g9_threshold: slopguard_store::failure_memory::DEFAULT_THRESHOLD,
            config: None,
            dynamic: DynamicOptions::default(),
            analysis_toolchain: true,
            measure_after: true,
            file_budget_tokens: 6000,
            worktree: None,
            keep_worktree: false,
            candidates: candidates::CandidateCount::Auto,
            subtask_budget: Duration::from_secs(600),
            run_budget: None,
            model_gates: Vec::new(),
            regression_proof: false,
            critics: None,
            step_critic: false,
            templates: true,
            infill: slopguard_worker::infill::InfillSetting::Auto,
            allow_partial: false,
        }
    }
}
