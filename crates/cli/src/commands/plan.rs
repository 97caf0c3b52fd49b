//! `slopguard plan PATH`: analysis + planner LLM call + the deterministic post-processors,
//! printed. Nothing is written to the repository.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::json;
use slopguard_agent::analysis::{AnalyzeOptions, RepoFiles, analyze};
use slopguard_agent::plan::post::{PostContext, Scope, run_all, scope_metrics};
use slopguard_agent::plan::{PlannerInput, load_plan_file, memory, request_plan_blocking};
use slopguard_agent::trace::Trace;
use slopguard_llm::{BlockingClient, LlmConfig, LlmError, Role};

use super::analyze::ReportFormat;

/// Audit a repository and print the task plan the agent would execute.
#[derive(Debug, clap::Args)]
pub struct PlanArgs {
    /// The repository to plan for.
    #[arg(default_value = ".")]
    pub path: PathBuf,

    /// Load an operator plan (JSON in the plan schema) instead of asking the LLM.
    #[arg(long, value_name = "FILE")]
    pub plan_from_file: Option<PathBuf>,

    /// Narrow the plan to a vertical (`docs`: documentation files only).
    #[arg(long)]
    pub scope: Option<Scope>,

    /// LLM base URL including /v1 (default: SLOPGUARD_LLM_URL, else http://127.0.0.1:8080/v1).
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,

    /// Model id (default: SLOPGUARD_LLM_MODEL / SLOPGUARD_PLANNER_MODEL, else the server's).
    #[arg(long)]
    pub model: Option<String>,

    /// LLM request timeout in seconds (clamped to 1..600).
    #[arg(long)]
    pub llm_timeout: Option<u64>,

    /// Store with the failure memory for G9 (default: SLOPGUARD_DB, else the user store if it
    /// exists).
    #[arg(long, env = "SLOPGUARD_DB")]
    pub db: Option<String>,

    /// G9 drop threshold: failures of a file before its subtasks are dropped.
    #[arg(long, env = "SLOPGUARD_G9_THRESHOLD", default_value_t = 2)]
    pub g9_threshold: u32,

    /// Also append the trace events (JSON lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,

    /// Do not run the project's toolchain during analysis.
    #[arg(long)]
    pub no_run: bool,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// The help text for a dead or misconfigured endpoint.
pub fn endpoint_help(url: &str, err: &str) -> String {
    format!(
        "cannot reach the LLM endpoint at {url}: {err}\n\
         Start an OpenAI-compatible server there (for a local model: scripts/llm-setup.sh), or \
         point slopguard at one with --llm-url URL or SLOPGUARD_LLM_URL=URL (the base URL \
         including /v1, e.g. http://127.0.0.1:8080/v1), and choose the model with --model or \
         SLOPGUARD_LLM_MODEL. `slopguard doctor` checks the setup."
    )
}

/// Builds the LLM configuration from the environment and the flags.
pub fn llm_config(url: Option<&str>, model: Option<&str>, timeout: Option<u64>) -> LlmConfig {
    let mut cfg = LlmConfig::from_env();
    if let Some(u) = url {
        cfg = cfg.with_url(u);
    }
    if let Some(m) = model {
        cfg = cfg.with_model(m);
    }
    if let Some(t) = timeout {
        cfg = cfg.with_timeout(Duration::from_secs(t));
    }
    cfg
}

/// Runs analysis and planning. Exit 0 with a plan; 2 when the LLM endpoint is unreachable or
/// the input is bad; 1 when the model gave no usable plan.
pub fn run(args: PlanArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    let root = args
        .path
        .canonicalize()
        .with_context(|| format!("cannot open {}", args.path.display()))?;
    anyhow::ensure!(root.is_dir(), "{} is not a directory", root.display());
    let trace = match &args.trace {
        Some(p) => Trace::new("plan").with_file(p),
        None => Trace::new("plan"),
    };
    // An operator plan is checked before the (slow) analysis.
    let operator_plan = match &args.plan_from_file {
        Some(p) => Some(load_plan_file(p)?),
        None => None,
    };
    // The LLM endpoint is checked before the (slow) analysis, so a dead one fails fast.
    let llm = match &operator_plan {
        Some(_) => None,
        None => {
            let cfg = llm_config(
                args.llm_url.as_deref(),
                args.model.as_deref(),
                args.llm_timeout,
            );
            let url = cfg.role(Role::Planner).base_url.clone();
            let model = cfg.role(Role::Planner).model.clone();
            let client = BlockingClient::new(cfg)?;
            let health = client.health(Role::Planner);
            if !health.reachable {
                eprintln!(
                    "slopguard: error: {}",
                    endpoint_help(&url, health.error.as_deref().unwrap_or("no answer"))
                );
                return Ok(crate::EXIT_ERROR);
            }
            if health.model_listed == Some(false) {
                eprintln!(
                    "slopguard: warning: model {model:?} is not listed by {url} (it serves: {}); \
                     trying anyway",
                    health.models.join(", ")
                );
            }
            Some((client, url, model, health))
        }
    };
    let started = Instant::now();
    let report = analyze(
        &root,
        &AnalyzeOptions {
            run_toolchain: !args.no_run,
            ..AnalyzeOptions::default()
        },
    );
    let analysis_ms = started.elapsed().as_millis() as u64;
    let (planner_report, ev) = scope_metrics(report.clone(), args.scope);
    if let Some(e) = ev {
        trace.emit(e);
    }
    let repo = memory::repo_id(&root);
    let prior = memory::load(args.db.as_deref(), &repo);
    let files = RepoFiles::walk(&root);

    let mut llm_info = serde_json::Value::Null;
    let (source, raw_plan) = match (operator_plan, llm) {
        (Some(p), _) => ("file", p),
        (None, None) => anyhow::bail!("no plan source"),
        (None, Some((client, url, model, health))) => {
            let input = PlannerInput {
                fingerprint: Some(&report.fingerprint),
                prior_failures: prior
                    .as_ref()
                    .map(|p| p.prompt_lines.clone())
                    .unwrap_or_default(),
                scope: args.scope,
                files: files.files.clone(),
            };
            let t0 = Instant::now();
            match request_plan_blocking(&client, &planner_report, &input) {
                Ok(p) => {
                    llm_info = json!({
                        "url": url,
                        "model": if model.is_empty() { health.models.first().cloned().unwrap_or_default() } else { model },
                        "context_size": health.context_size,
                        "elapsed_ms": t0.elapsed().as_millis() as u64,
                        "repairs": p.reply.repairs,
                        "corrections": p.reply.corrections,
                        "usage": client.usage(),
                    });
                    ("llm", p.plan)
                }
                Err(e) if e.is_unreachable() => {
                    eprintln!("slopguard: error: {}", endpoint_help(&url, &e.to_string()));
                    return Ok(crate::EXIT_ERROR);
                }
                Err(e @ (LlmError::InvalidJson { .. } | LlmError::Truncated { .. })) => {
                    eprintln!("slopguard: the planner gave no usable plan: {e}");
                    return Ok(crate::EXIT_BLOCKED);
                }
                Err(e) => return Err(anyhow::anyhow!(e)).context("planner call failed"),
            }
        }
    };
    let ctx = PostContext {
        report: &report,
        view: &files,
        memory: prior.as_ref().map(|p| &p.wide),
        threshold: args.g9_threshold,
        scope: args.scope,
    };
    let plan = run_all(raw_plan.clone(), &ctx, &trace);
    let events = trace.events();
    match args.format {
        ReportFormat::Json => {
            let out = json!({
                "root": root.display().to_string(),
                "repo": repo,
                "source": source,
                "plan": plan,
                "raw_plan": raw_plan,
                "events": events,
                "llm": llm_info,
                "analysis": {
                    "overall": report.overall,
                    "elapsed_ms": analysis_ms,
                    "failing_tests": report.failing_tests,
                    "metrics": report.metrics.iter().map(|m| json!({"name": m.name, "status": m.status, "score": m.score})).collect::<Vec<_>>(),
                },
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        ReportFormat::Text => {
            println!(
                "Analysis: overall {:.2}, {} failing tests ({} ms)",
                report.overall,
                report.failing_tests.len(),
                analysis_ms
            );
            if source == "llm" {
                println!(
                    "Planner: {} in {} ms (repairs: {}, correction turns: {})",
                    llm_info["model"].as_str().unwrap_or(""),
                    llm_info["elapsed_ms"],
                    llm_info["repairs"],
                    llm_info["corrections"]
                );
            } else {
                println!("Plan loaded from file");
            }
            for e in &events {
                println!("post-processor: {} {}", e.event, e.data);
            }
            println!(
                "\nPlan ({} tasks, {} subtasks):",
                plan.tasks.len(),
                plan.subtask_count()
            );
            print!("{}", plan.to_text());
        }
    }
    Ok(crate::EXIT_OK)
}
