//! `slopguard run PATH`: analysis, planning and guarded execution on a branch in a separate
//! worktree; ends with a run summary (branch, commits, failed subtasks and why).

use std::path::{Path, PathBuf};
use std::time::Duration;

use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::gates::step_critic::CriticMode;
use slopguard_agent::run::{PlanSource, RunError, RunOptions, RunStatus, RunSummary};
use slopguard_forge::{self as forge, ForgeConfig, PrOutcome};
use slopguard_planning::plan::post::Scope;

use super::common::{LlmArgs, StoreArgs};
use crate::run_view::execute_with_progress;

/// Output format of `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RunFormat {
    /// Progress on the terminal and a summary for humans.
    Text,
    /// The run summary as one JSON document on stdout.
    Json,
}

/// Audit, plan and fix a repository: every patch passes the guard stack before it is committed
/// on a branch (in a separate worktree; your working tree and index are never touched).
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub repo: super::common::RepoArg,

    /// Continue an interrupted run at its first unfinished subtask (the latest unfinished run,
    /// or the run id given).
    #[arg(long, value_name = "RUN_ID", num_args = 0..=1, default_missing_value = "")]
    pub resume: Option<String>,

    /// Plan and guard verdicts only: nothing is committed, no branch is created.
    #[arg(long)]
    pub dry_run: bool,

    /// Use an operator plan (JSON in the plan schema) instead of asking the planner.
    #[arg(long, value_name = "FILE")]
    pub plan_from_file: Option<PathBuf>,

    /// Narrow the plan to a vertical (`docs`).
    #[arg(long)]
    pub scope: Option<Scope>,

    /// The base ref the branch starts from.
    #[arg(long, default_value = "HEAD")]
    pub base: String,

    /// Branch name (default `slopguard/<run-id>`).
    #[arg(long)]
    pub branch: Option<String>,

    #[command(flatten)]
    pub llm: LlmArgs,

    #[command(flatten)]
    pub store: StoreArgs,

    /// Attempts per subtask before it fails.
    #[arg(long, env = "SLOPGUARD_MAX_ATTEMPTS", default_value_t = 3)]
    pub max_attempts: u32,

    /// G9 drop threshold.
    #[arg(long, env = "SLOPGUARD_G9_THRESHOLD", default_value_t = 2)]
    pub g9_threshold: u32,

    /// Timeout in seconds of each build and test command.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,

    /// Do not run the build guard.
    #[arg(long)]
    pub no_build: bool,

    /// Do not run the tests (G8 and the test count are then skipped, and reported so).
    #[arg(long)]
    pub no_tests: bool,

    /// Do not run the toolchain during analysis (metrics before/after without build/tests).
    #[arg(long)]
    pub no_analysis_run: bool,

    /// Token budget for file contents in the worker prompt.
    #[arg(long, default_value_t = 6000)]
    pub file_budget: usize,

    /// Where to put the run's worktree (default: under the temp dir).
    #[arg(long, value_name = "DIR")]
    pub worktree: Option<PathBuf>,

    /// Keep the worktree after the run.
    #[arg(long)]
    pub keep_worktree: bool,

    /// Candidate replies sampled per attempt, or `auto`: as many as the model's speed fits in
    /// the attempt's share of the subtask budget (2 to 12), each tested while the next is
    /// written, the first that makes the failing tests pass landing at once. With a number,
    /// all are sampled first and the toolchain picks (most votes, then smallest).
    #[arg(long, env = "SLOPGUARD_CANDIDATES", default_value = "auto")]
    pub candidates: slopguard_agent::run::candidates::CandidateCount,

    /// Wall-clock budget of one subtask in seconds: no candidate or attempt starts after it.
    #[arg(long, env = "SLOPGUARD_SUBTASK_BUDGET", default_value_t = 600)]
    pub subtask_budget: u64,

    /// Wall-clock budget of the run's execution in seconds: subtasks not behind the failing
    /// tests stop where it ends (and are skipped once it is spent); those behind them still run.
    #[arg(long, env = "SLOPGUARD_RUN_BUDGET")]
    pub run_budget: Option<u64>,

    /// Do not try repair templates (one-token changes at the statements the failing tests
    /// reach: a comparison, a bound, a negation, swapped arguments...) before asking the model.
    #[arg(long)]
    pub no_templates: bool,

    /// Ask the model to fill in the suspect statements without seeing them (fill-in-the-middle
    /// completions at `/completions`), judged like repair templates: `auto` for the model
    /// families trained for it (Qwen coder, StarCoder, DeepSeek-Coder, Code Llama, told by the
    /// model id), `off`, or a family's format for a model served under another name (`qwen`,
    /// `starcoder`, `deepseek`, `codellama`).
    #[arg(long, env = "SLOPGUARD_INFILL", default_value = "auto")]
    pub infill: slopguard_agent::run::InfillSetting,

    /// Land a fix that makes some but not all of its failing tests pass, at the last attempt:
    /// the subtask is then `partial`, the summary names the tests that still fail, and the run
    /// exits 1. Without it such a fix does not land.
    #[arg(long)]
    pub allow_partial: bool,

    /// Show each candidate that passed the static guards to the reviewer model, which may
    /// refuse it (the intent-review gate; one model call per candidate that reaches the tests).
    #[arg(long)]
    pub intent_review: bool,

    /// Critics to run over the branch once its subtasks landed, comma-separated: panel, devil,
    /// refiner, judge, qa, self-critic, `all` or `none` (default: `[critics] enabled` in
    /// slopguard.toml, else none). A revision they propose ships only after every guard, the
    /// build and the tests passed on it.
    #[arg(long, value_delimiter = ',')]
    pub critics: Option<Vec<String>>,

    /// The step critic: one reviewer-model call after each attempt of a subtask, which may
    /// name one problem; confidence 80+ is fed to the next attempt, 60-79 goes to the PR body's
    /// self-review. auto (the default, unless slopguard.toml's `[feedback] critic` says
    /// otherwise): on for reviewer models of 3B parameters or more.
    #[arg(long, value_name = "auto|on|off")]
    pub step_critic: Option<CriticMode>,

    /// Once the pull request is opened, watch its GitHub checks and fix failures on its branch
    /// (as `slopguard ci-watch` does; tuned by the `--ci-*` options).
    #[arg(long)]
    pub ci_watch: bool,

    #[command(flatten)]
    pub ci: super::ci_watch::WatchTuning,

    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,

    /// Output format of the final summary.
    #[arg(long, value_enum, default_value = "text")]
    pub format: RunFormat,
}

/// Runs `slopguard run`. Exit 0 when every subtask landed, 1 when some failed, 2 on usage or
/// environment errors (the state is kept; `--resume` continues).
pub(crate) fn run(args: RunArgs, global: &crate::Global) -> anyhow::Result<u8> {
    slopguard_llm::install_crypto_provider();
    // A git URL is cloned into the cache first; a local path is used as it is.
    let target = match forge::prepare_target(&args.repo.path().to_string_lossy()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("slopguard: error: {e}");
            return Ok(crate::EXIT_ERROR);
        }
    };
    let step_critic = match step_critic_setting(&args, &target.path, global) {
        Ok(on) => on,
        Err(e) => {
            eprintln!("slopguard: error: {e}");
            return Ok(crate::EXIT_ERROR);
        }
    };
    let opts = RunOptions {
        path: target.path.clone(),
        base: args.base.clone(),
        branch: args.branch.clone(),
        resume: args.resume.clone(),
        dry_run: args.dry_run,
        plan: match &args.plan_from_file {
            Some(p) => PlanSource::File(p.clone()),
            None => PlanSource::Llm,
        },
        scope: args.scope,
        llm: args.llm.config(),
        db: args.store.db.clone(),
        no_store: args.store.no_store,
        max_attempts: args.max_attempts.max(1),
        g9_threshold: args.g9_threshold,
        config: global.config.clone(),
        dynamic: DynamicOptions {
            build_timeout: Duration::from_secs(args.timeout),
            test_timeout: Duration::from_secs(args.timeout),
            build: !args.no_build,
            tests: !args.no_tests,
        },
        analysis_toolchain: !args.no_analysis_run,
        measure_after: true,
        file_budget_tokens: args.file_budget,
        worktree: args.worktree.clone(),
        keep_worktree: args.keep_worktree,
        candidates: args.candidates,
        subtask_budget: Duration::from_secs(args.subtask_budget.max(1)),
        run_budget: args.run_budget.map(Duration::from_secs),
        model_gates: if args.intent_review {
            vec!["intent-review".to_string()]
        } else {
            Vec::new()
        },
        regression_proof: false,
        critics: args.critics.clone(),
        step_critic,
        templates: !args.no_templates,
        infill: args.infill,
        allow_partial: args.allow_partial,
    };
    let result = execute_with_progress(&opts, args.quiet, args.format == RunFormat::Json);
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("slopguard: error: {e}");
            return Ok(match e {
                RunError::Llm(_) => crate::EXIT_BLOCKED,
                _ => crate::EXIT_ERROR,
            });
        }
    };
    let pr = (!summary.run.dry_run).then(|| publish_pr(&summary));
    let json = args.format == RunFormat::Json;
    let ci = args
        .ci_watch
        .then(|| super::ci_watch::after_run(pr.as_ref(), &opts, &args.ci, args.quiet, json));
    print_summary(&summary, pr.as_ref(), ci.as_ref(), args.format)?;
    Ok(match summary.run.status {
        RunStatus::Completed => crate::EXIT_OK,
        _ => crate::EXIT_BLOCKED,
    })
}

/// Whether the step critic runs: `--step-critic`, else `[feedback] critic` of the
/// repository's slopguard.toml, else auto (by the reviewer model's size). Says so on stderr
/// when it is on, since it costs one model call per attempt.
fn step_critic_setting(
    args: &RunArgs,
    repo: &Path,
    global: &crate::Global,
) -> anyhow::Result<bool> {
    let model = args
        .llm
        .config()
        .role(slopguard_llm::Role::Reviewer)
        .model
        .clone();
    let (on, why) =
        CriticMode::for_repository(args.step_critic, repo, global.config.as_deref(), &model)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    if on && !args.quiet {
        eprintln!("slopguard: step critic {why}");
    }
    Ok(on)
}

/// The PR phase: push and open a PR when the repository has a GitHub remote and a token, else
/// write the PR body to `.slopguard/runs/<id>/PR.md`. Never fails the run.
fn publish_pr(summary: &RunSummary) -> Result<PrOutcome, String> {
    forge::publish_run(summary, &ForgeConfig::from_env()).map_err(|e| e.to_string())
}

fn print_summary(
    summary: &RunSummary,
    pr: Option<&Result<PrOutcome, String>>,
    ci: Option<&Result<slopguard_forge::ci::WatchReport, String>>,
    format: RunFormat,
) -> anyhow::Result<()> {
    match format {
        RunFormat::Json => {
            let mut v = serde_json::to_value(summary)?;
            if let (Some(pr), Some(obj)) = (pr, v.as_object_mut()) {
                let pr_json = match pr {
                    Ok(PrOutcome::Opened {
                        number,
                        url,
                        body_path,
                    }) => serde_json::json!({
                        "opened": true, "number": number, "url": url, "body_path": body_path,
                    }),
                    Ok(PrOutcome::Local { body_path, reason }) => serde_json::json!({
                        "opened": false, "body_path": body_path, "reason": reason,
                    }),
                    Err(e) => serde_json::json!({"opened": false, "error": e}),
                };
                obj.insert("pr".into(), pr_json);
            }
            if let (Some(ci), Some(obj)) = (ci, v.as_object_mut()) {
                obj.insert("ci_watch".into(), super::ci_watch::after_run_json(ci));
            }
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        RunFormat::Text => {
            print!("{}", summary.to_text());
            match pr {
                Some(Ok(outcome)) => println!("{}", outcome.describe()),
                Some(Err(e)) => println!("PR body not written: {e}"),
                None => {}
            }
            if let Some(ci) = ci {
                print!("{}", super::ci_watch::after_run_text(ci));
            }
        }
    }
    Ok(())
}
