//! The plan pipeline shared by `slopguard plan` and `slopguard run`: the analysis, then the
//! plan (the operator's, or the planner model's), then the deterministic post-processors (drop
//! what exists, layers A/2/B, G9 on the failure memory). Each caller reports its own progress
//! between the two steps; the steps themselves are the same for both.

use std::path::Path;
use std::time::{Duration, Instant};

use slopguard_llm::repair::RepairPass;
use slopguard_llm::{BlockingClient, LlmError};

use crate::analysis::{AnalysisReport, AnalyzeOptions, RepoFiles, analyze};
use crate::plan::post::{PostContext, Scope, run_all, scope_metrics};
use crate::plan::{Plan, PlannerInput, memory, request_plan_blocking};
use crate::trace::{Trace, TraceEvent};

/// What the pipeline needs to know about the repository and the run.
#[derive(Debug, Clone)]
pub struct PlanRequest<'a> {
    /// The tree to analyse and plan for (the repository or the run's worktree).
    pub root: &'a Path,
    /// Whether and how long the analysis runs the build and the tests.
    pub analysis: AnalyzeOptions,
    /// An operator plan (`--plan-from-file`): no model call.
    pub operator_plan: Option<Plan>,
    /// The vertical the plan is narrowed to (`--scope docs`).
    pub scope: Option<Scope>,
    /// The store holding the failure memory (`None`: the user store when it exists).
    pub db: Option<&'a str>,
    /// The repository's id in the store.
    pub repo_id: &'a str,
    /// Failures of a file before G9 drops its subtasks.
    pub g9_threshold: u32,
}

/// How the planner model was asked (absent for an operator plan).
#[derive(Debug, Clone)]
pub struct PlannerCall {
    /// Wall-clock time of the call, correction turns included.
    pub elapsed: Duration,
    /// Repair passes the accepted reply needed.
    pub repairs: Vec<RepairPass>,
    /// Correction turns used (0: the first reply was accepted).
    pub corrections: u32,
}

/// The pipeline's result.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The plan as the model (or the operator) gave it, normalised.
    pub raw_plan: Plan,
    /// The plan after the post-processors: what runs.
    pub plan: Plan,
    /// The planner call, or `None` for an operator plan.
    pub planner: Option<PlannerCall>,
}

/// Why no plan came out.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The model endpoint did not answer.
    #[error("{0}")]
    Unreachable(LlmError),
    /// The model answered, but with nothing that reads as a plan (invalid or cut-off JSON).
    #[error("the planner gave no usable plan: {0}")]
    NoUsablePlan(LlmError),
    /// Any other failure of the call.
    #[error("planner call failed: {0}")]
    Failed(LlmError),
    /// Neither an operator plan nor a model to ask.
    #[error("no plan source: give an operator plan or a model endpoint")]
    NoSource,
}

/// Step 1: the analysis (metrics, and the build and tests when `analysis.run_toolchain`).
pub fn analyse(req: &PlanRequest<'_>) -> AnalysisReport {
    analyze(req.root, &req.analysis)
}

/// Step 2: the plan for `report`, from the operator's file or the planner model (`client`),
/// then the post-processors; their decisions go to `trace`.
pub fn plan(
    req: &PlanRequest<'_>,
    report: &AnalysisReport,
    client: Option<&BlockingClient>,
    trace: &Trace,
) -> Result<Planned, PlanError> {
    let files = RepoFiles::walk(req.root);
    let prior = memory::load(req.db, req.repo_id);
    let ctx = PostContext {
        report,
        view: &files,
        memory: prior.as_ref().map(|p| &p.wide),
        threshold: req.g9_threshold,
        scope: req.scope,
    };
    if req.operator_plan.is_none()
        && let Some(plan) = failing_tests_plan(&ctx, trace)
    {
        return Ok(Planned {
            raw_plan: Plan::default(),
            plan,
            planner: None,
        });
    }
    let (raw_plan, planner) = match (&req.operator_plan, client) {
        (Some(p), _) => (p.clone(), None),
        (None, None) => return Err(PlanError::NoSource),
        (None, Some(client)) => {
            let (planner_report, ev) = scope_metrics(report.clone(), req.scope);
            if let Some(e) = ev {
                trace.emit(e);
            }
            let input = PlannerInput {
                fingerprint: Some(&report.fingerprint),
                prior_failures: prior
                    .as_ref()
                    .map(|p| p.prompt_lines.clone())
                    .unwrap_or_default(),
                scope: req.scope,
                files: files.files.clone(),
            };
            let started = Instant::now();
            let answer = request_plan_blocking(client, &planner_report, &input).map_err(|e| {
                if e.is_unreachable() {
                    PlanError::Unreachable(e)
                } else if matches!(e, LlmError::InvalidJson { .. } | LlmError::Truncated { .. }) {
                    PlanError::NoUsablePlan(e)
                } else {
                    PlanError::Failed(e)
                }
            })?;
            let call = PlannerCall {
                elapsed: started.elapsed(),
                repairs: answer.reply.repairs,
                corrections: answer.reply.corrections,
            };
            (answer.plan, Some(call))
        }
    };
    let plan = run_all(raw_plan.clone(), &ctx, trace);
    Ok(Planned {
        raw_plan,
        plan,
        planner,
    })
}

/// The plan when the repository's tests fail: the failing tests already say what to do, so the
/// planner model is not asked (its call costs a small local model 40-70 s before the first
/// candidate). The post-processors write the one task about them (`T000`, a subtask per source
/// file the failing tests exercise). `None` when no tests fail, when the run is scoped to the
/// docs, or when no source behind the failing tests is known: then the planner is asked.
fn failing_tests_plan(ctx: &PostContext<'_>, trace: &Trace) -> Option<Plan> {
    if ctx.scope == Some(Scope::Docs) || ctx.report.failing_tests.is_empty() {
        return None;
    }
    let plan = run_all(Plan::default(), ctx, trace);
    if plan.subtask_count() == 0 {
        return None;
    }
    trace.emit(TraceEvent::new(
        "planning",
        "plan.planner_skipped",
        serde_json::json!({
            "reason": "the failing tests define the task",
            "failing_tests": ctx.report.failing_tests.len(),
            "subtasks": plan.subtask_count(),
        }),
    ));
    Some(plan)
}
