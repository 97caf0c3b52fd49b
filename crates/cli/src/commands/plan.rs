//! `slopguard plan PATH`: analysis + planner LLM call + the deterministic post-processors,
//! printed. Nothing is written to the repository.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use serde_json::json;
use slopguard_llm::{BlockingClient, Role};
use slopguard_planning::analysis::AnalyzeOptions;
use slopguard_planning::plan::load_plan_file;
use slopguard_planning::plan::pipeline::{self, PlanError, PlanRequest};
use slopguard_planning::plan::post::Scope;
use slopguard_planning::trace::Trace;

use super::common::{LlmArgs, ReportFormat};
use crate::progress::StepProgress;

/// Audit a repository and print the task plan the agent would execute.
#[derive(Debug, clap::Args)]
pub(crate) struct PlanArgs {
    #[command(flatten)]
    pub repo: super::common::RepoArg,

    /// Load an operator plan (JSON in the plan schema) instead of asking the LLM.
    #[arg(long, value_name = "FILE")]
    pub plan_from_file: Option<PathBuf>,

    /// Narrow the plan to a vertical (`docs`: documentation files only).
    #[arg(long)]
    pub scope: Option<Scope>,

    #[command(flatten)]
    pub llm: LlmArgs,

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

    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// The help text for a dead or misconfigured endpoint.
pub(crate) fn endpoint_help(url: &str, err: &str) -> String {
    format!(
        "cannot reach the LLM endpoint at {url}: {err}\n\
         Start an OpenAI-compatible server there (for a local model: scripts/llm-setup.sh), or \
         point slopguard at one with --llm-url URL or SLOPGUARD_LLM_URL=URL (the base URL \
         including /v1, e.g. http://127.0.0.1:8080/v1), and choose the model with --model or \
         SLOPGUARD_LLM_MODEL. `slopguard doctor` checks the setup."
    )
}

/// Runs analysis and planning. Exit 0 with a plan; 2 when the LLM endpoint is unreachable or
/// the input is bad; 1 when the model gave no usable plan.
pub(crate) fn run(args: PlanArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    let root = args
        .repo
        .path()
        .canonicalize()
        .with_context(|| format!("cannot open {}", args.repo.path().display()))?;
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
            let cfg = args.llm.config();
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
    let repo = slopguard_store::repo_key_of_dir(&root);
    let req = PlanRequest {
        root: &root,
        analysis: AnalyzeOptions {
            run_toolchain: !args.no_run,
            ..AnalyzeOptions::default()
        },
        operator_plan,
        scope: args.scope,
        db: args.db.as_deref(),
        repo_id: &repo,
        g9_threshold: args.g9_threshold,
    };
    let progress = StepProgress::start(args.quiet);
    progress.step(if args.no_run {
        "analysis (metrics only)"
    } else {
        "analysis (running the build and the tests)"
    });
    let started = Instant::now();
    let report = pipeline::analyse(&req);
    let analysis_ms = started.elapsed().as_millis() as u64;
    progress.step(if llm.is_some() {
        "planning (waiting for the model)"
    } else {
        "planning (the operator's plan)"
    });
    let planned = pipeline::plan(&req, &report, llm.as_ref().map(|l| &l.0), &trace);
    progress.finish();
    let planned = match planned {
        Ok(p) => p,
        Err(PlanError::Unreachable(e)) => {
            let url = llm.as_ref().map(|l| l.1.as_str()).unwrap_or_default();
            eprintln!("slopguard: error: {}", endpoint_help(url, &e.to_string()));
            return Ok(crate::EXIT_ERROR);
        }
        Err(e @ PlanError::NoUsablePlan(_)) => {
            eprintln!("slopguard: {e}");
            return Ok(crate::EXIT_BLOCKED);
        }
        Err(e) => return Err(anyhow::anyhow!(e)),
    };
    let source = if planned.planner.is_some() {
        "llm"
    } else {
        "file"
    };
    let llm_info = match (&planned.planner, &llm) {
        (Some(call), Some((client, url, model, health))) => json!({
            "url": url,
            "model": if model.is_empty() { health.models.first().cloned().unwrap_or_default() } else { model.clone() },
            "context_size": health.context_size,
            "elapsed_ms": call.elapsed.as_millis() as u64,
            "repairs": call.repairs,
            "corrections": call.corrections,
            "usage": client.usage(),
        }),
        _ => serde_json::Value::Null,
    };
    let (plan, raw_plan) = (planned.plan, planned.raw_plan);
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
                let repairs: Vec<&str> = llm_info["repairs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.as_str())
                    .collect();
                println!(
                    "Planner: {} in {} ms (repairs: {}, correction turns: {})",
                    llm_info["model"].as_str().unwrap_or(""),
                    llm_info["elapsed_ms"],
                    if repairs.is_empty() {
                        "none".to_string()
                    } else {
                        repairs.join(", ")
                    },
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
