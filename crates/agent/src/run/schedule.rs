//! Which subtask runs when: [`plan_phase`] (analysis and plan, shared with `slopguard plan`),
//! [`execution_phase`] (every unfinished subtask in plan order, after [`reconcile`] with the
//! branch's commits), and the skips (already fixed by an earlier subtask, run budget spent).
//! In the pipeline: **analyse -> plan -> per subtask** -> ... -> finish.

use std::time::Instant;

use serde_json::json;
use slopguard_llm::BlockingClient;
use slopguard_store::{NewObservation, Outcome};

use crate::analysis::AnalyzeOptions;
use crate::git;
use crate::plan::pipeline::{self, PlanError, PlanRequest};
use crate::plan::post::{is_about_failing_tests, tests_named_by};
use crate::plan::{Plan, Subtask};
use crate::run::summary::*;
use crate::state::Baseline;

use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::lifecycle::metric_values;
use super::progress::ProgressEvent;
use super::subtask::run_subtask;

/// The execution phase: every unfinished subtask in plan order; once the run budget is spent,
/// only the subtasks behind failing tests still run.
pub(super) fn execution_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
    cx.phase("execution")?;
    reconcile(cx)?;
    let ids = cx.state.subtask_ids();
    let total = ids.len();
    cx.progress.on(&ProgressEvent::Planned { subtasks: total });
    let execution_started = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        let done = cx
            .state
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .any(|s| &s.id == id && s.status.is_final());
        if done {
            continue;
        }
        let fixed = fixed_by_earlier_subtask(cx, id);
        if !fixed.is_empty() {
            skip_already_fixed(cx, id, &fixed)?;
            continue;
        }
        if cx
            .opts
            .run_budget
            .is_some_and(|b| execution_started.elapsed() >= b)
            && !subtask_is_about_failing_tests(cx, id)
        {
            skip_for_budget(cx, id)?;
            continue;
        }
        // A subtask not behind the failing tests also stops where the run budget ends.
        let budget = match cx.opts.run_budget {
            Some(b) if !subtask_is_about_failing_tests(cx, id) => cx
                .opts
                .subtask_budget
                .min(b.saturating_sub(execution_started.elapsed())),
            _ => cx.opts.subtask_budget,
        };
        run_subtask(cx, client, (i, total), id, budget)?;
    }
    Ok(())
}

/// The analysis and planning phases: the plan pipeline shared with `slopguard plan`, with the
/// metrics, tokens and plan kept in the run state.
pub(super) fn plan_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
    let opts = cx.opts;
    let worktree = cx.worktree.clone();
    let repo_id = cx.state.repo_id.clone();
    let req = PlanRequest {
        root: &worktree,
        analysis: AnalyzeOptions {
            run_toolchain: opts.analysis_toolchain,
            build_timeout: opts.dynamic.build_timeout,
            test_timeout: opts.dynamic.test_timeout,
        },
        operator_plan: cx.state.operator_plan.clone(),
        scope: opts.scope,
        db: opts.db.as_deref(),
        repo_id: &repo_id,
        g9_threshold: opts.g9_threshold,
    };
    cx.phase("analysis")?;
    let report = pipeline::analyse(&req);
    cx.state.metrics_before = metric_values(&report);
    cx.state.overall_before = Some(report.overall);
    cx.emit(
        "analysis",
        "analysis.done",
        json!({"overall": report.overall, "failing_tests": report.failing_tests.len(), "elapsed_ms": report.elapsed_ms}),
    );
    cx.phase("planning")?;
    let spent = tokens_spent(client);
    let planned = pipeline::plan(&req, &report, Some(client), &cx.trace);
    cx.state.usage.add_since(spent, tokens_spent(client));
    let plan = match planned {
        Ok(p) => p.plan,
        Err(PlanError::Unreachable(e)) => return Err(RunError::LlmUnreachable(e.to_string())),
        Err(e) => return Err(RunError::Llm(e.to_string())),
    };
    cx.emit(
        "planning",
        "plan.final",
        json!({"tasks": plan.tasks.len(), "subtasks": plan.subtask_count()}),
    );
    cx.state.set_plan(plan);
    cx.save()
}

/// Marks subtasks whose commit is on the branch (a crash after the commit, before the state
/// was saved) as committed, so they are neither redone nor duplicated.
pub(super) fn reconcile(cx: &mut Ctx<'_>) -> Result<(), RunError> {
    if cx.state.dry_run {
        return Ok(());
    }
    let commits = git::subtask_commits(&cx.repo, &cx.state.base_commit, &cx.state.branch)?;
    let mut changed = false;
    for c in commits {
        if c.run.as_deref().is_some_and(|r| r != cx.state.run_id) {
            continue;
        }
        let Some(st) = cx.state.subtask_mut(&c.subtask) else {
            continue;
        };
        if st.status != SubtaskStatus::Committed || st.commit.as_deref() != Some(&c.commit) {
            st.status = SubtaskStatus::Committed;
            st.commit = Some(c.commit.clone());
            st.commit_title = Some(c.title.clone());
            st.error = None;
            changed = true;
            let id = st.id.clone();
            cx.emit(
                "execution",
                "run.reconciled",
                json!({"subtask_id": id, "commit": c.commit}),
            );
        }
    }
    if changed {
        // The baseline may predate the reconciled commit: capture it again from the branch.
        cx.state.baseline = None;
        cx.save()?;
    }
    // A run killed between a commit and its observation records it now (at least once).
    let pending: Vec<(String, Option<String>, Vec<String>, u32)> = cx
        .state
        .tasks
        .iter()
        .flat_map(|t| t.subtasks.iter())
        .filter(|s| s.status == SubtaskStatus::Committed && !s.observed)
        .map(|s| {
            let files = if s.touched_files.is_empty() {
                s.file_hints.clone()
            } else {
                s.touched_files.clone()
            };
            (s.id.clone(), s.commit.clone(), files, s.attempts)
        })
        .collect();
    for (id, commit, files, attempts) in pending {
        let mut obs = NewObservation::new(
            &cx.state.repo_id,
            &cx.state.run_id,
            "slopguard-worker",
            Outcome::Success,
        );
        obs.subtask_id = Some(id.clone());
        obs.model = (!cx.state.model.is_empty()).then(|| cx.state.model.clone());
        obs.branch = Some(cx.state.branch.clone());
        obs.commit_sha = commit;
        obs.touched_files = files;
        obs.extra = Some(json!({"attempts": attempts, "reconciled": true}));
        if cx.obs.record(&obs).is_some()
            && let Some(s) = cx.state.subtask_mut(&id)
        {
            s.observed = true;
        }
    }
    cx.save()?;
    Ok(())
}

/// The test baseline after something landed, remembering the tests it fixed.
pub(super) fn advance_baseline(cx: &mut Ctx<'_>, next: Baseline) {
    cx.state.baseline = Some(match cx.state.baseline.as_ref() {
        Some(old) => old.advanced_to(next),
        None => next,
    });
}

/// The tests subtask `id` is about that an earlier landed subtask fixed, when none of the
/// tests it is about still fails: the planner often makes one subtask per failing test, and
/// one fix makes several pass. Such a subtask has nothing left to do; asked anyway, the model
/// rewrites working code. Empty when the subtask still has work (or is about no test).
pub(super) fn fixed_by_earlier_subtask(cx: &Ctx<'_>, id: &str) -> Vec<String> {
    let (Some(base), Some((_, st))) = (
        cx.state.baseline.as_ref(),
        cx.state.plan.as_ref().and_then(|p| find_subtask(p, id)),
    ) else {
        return Vec::new();
    };
    if is_about_failing_tests(&st, &base.failing) || !is_about_failing_tests(&st, &base.fixed) {
        return Vec::new();
    }
    let named = tests_named_by(&st, &base.fixed);
    if named.is_empty() {
        // "Fix the failing tests" and no test fails any more: all of them were fixed.
        base.fixed.iter().cloned().collect()
    } else {
        named
    }
}

/// Marks subtask `id` skipped: the tests it is about pass since an earlier subtask landed.
pub(super) fn skip_already_fixed(
    cx: &mut Ctx<'_>,
    id: &str,
    tests: &[String],
) -> Result<(), RunError> {
    let why = format!(
        "skipped: the tests it is about pass since an earlier subtask landed ({})",
        tests.join(", ")
    );
    let data = json!({"subtask_id": id, "reason": "its tests already pass", "tests": tests});
    skip_subtask(cx, id, why, data)
}

/// Marks subtask `id` skipped with `why` (its error line) and the trace event's `data`.
pub(super) fn skip_subtask(
    cx: &mut Ctx<'_>,
    id: &str,
    why: String,
    data: serde_json::Value,
) -> Result<(), RunError> {
    if let Some(s) = cx.state.subtask_mut(id) {
        s.status = SubtaskStatus::Skipped;
        s.error = Some(why);
    }
    cx.emit("execution", "worker.subtask.skipped", data);
    cx.progress.on(&ProgressEvent::SubtaskEnd {
        id: id.to_string(),
        status: SubtaskStatus::Skipped,
        commit: None,
    });
    cx.save()
}

/// Whether subtask `id` is behind the baseline's failing tests (those run whatever the budget).
pub(super) fn subtask_is_about_failing_tests(cx: &Ctx<'_>, id: &str) -> bool {
    let failing = cx
        .state
        .baseline
        .as_ref()
        .map(|b| b.failing.clone())
        .unwrap_or_default();
    cx.state
        .plan
        .as_ref()
        .and_then(|p| find_subtask(p, id))
        .is_some_and(|(_, st)| is_about_failing_tests(&st, &failing) || st.id.starts_with("T000"))
}

/// Marks subtask `id` skipped because the run's time budget is spent.
pub(super) fn skip_for_budget(cx: &mut Ctx<'_>, id: &str) -> Result<(), RunError> {
    let budget = cx.opts.run_budget.unwrap_or_default().as_secs();
    let why = format!("skipped: the run's time budget ({budget} s) was spent");
    let data = json!({"subtask_id": id, "reason": "run budget spent", "budget_s": budget});
    skip_subtask(cx, id, why, data)
}

pub(super) fn find_subtask(plan: &Plan, id: &str) -> Option<(String, Subtask)> {
    plan.tasks.iter().find_map(|t| {
        t.subtasks
            .iter()
            .find(|s| s.id == id)
            .map(|s| (t.title.clone(), s.clone()))
    })
}
