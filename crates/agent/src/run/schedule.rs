//! Which subtask runs when: [`plan_phase`] (analysis and plan, shared with `slopguard plan`),
//! [`execution_phase`] (every unfinished subtask in plan order, after [`reconcile`] with the
//! branch's commits), and the skips (already fixed by an earlier subtask, run budget spent).
//! In the pipeline: **analyse -> plan -> per subtask** -> ... -> finish.

use crate::records::RunPhase;
use std::time::Instant;

use serde_json::json;
use slopguard_llm::BlockingClient;
use slopguard_store::{NewObservation, Outcome};

use crate::git;
use crate::records::Baseline;
use crate::run::summary::*;
use slopguard_planning::analysis::{AnalysisReport, AnalyzeOptions};
use slopguard_planning::plan::Plan;
use slopguard_planning::plan::pipeline::{self, PlanError, PlanRequest};
use slopguard_planning::plan::post::{is_about_failing_tests, tests_named_by};

use super::carry::find_subtask;
use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::progress::ProgressEvent;
use super::subtask::run_subtask;

/// The execution phase: every unfinished subtask in plan order; once the run budget is spent,
/// only the subtasks behind failing tests still run.
pub(super) fn execution_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
    cx.phase(RunPhase::Execution)?;
    reconcile(cx)?;
    let ids = cx.state.subtask_ids();
    let total = ids.len();
    cx.progress.on(&ProgressEvent::Planned { subtasks: total });
    let execution_started = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        let done = cx
            .state
            .run
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .any(|s| &s.id == id && s.status.is_final());
        if done {
            continue;
        }
        let fixed =
            fixed_by_earlier_subtask(cx.state.baseline.as_ref(), cx.state.plan.as_ref(), id);
        if !fixed.is_empty() {
            skip_already_fixed(cx, id, &fixed)?;
            continue;
        }
        if cx
            .opts
            .run_budget
            .is_some_and(|b| execution_started.elapsed() >= b)
            && !subtask_is_about_failing_tests(
                cx.state.baseline.as_ref(),
                cx.state.plan.as_ref(),
                id,
            )
        {
            skip_for_budget(cx, id)?;
            continue;
        }
        // A subtask not behind the failing tests also stops where the run budget ends.
        let budget = match cx.opts.run_budget {
            Some(b)
                if !subtask_is_about_failing_tests(
                    cx.state.baseline.as_ref(),
                    cx.state.plan.as_ref(),
                    id,
                ) =>
            {
                cx.opts
                    .subtask_budget
                    .min(b.saturating_sub(execution_started.elapsed()))
            }
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
    let repo_id = cx.state.run.repo_id.clone();
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
    cx.phase(RunPhase::Analysis)?;
    let report = pipeline::analyse(&req);
    adopt_analysis_baseline(cx, &report);
    cx.state.run.metrics_before = metric_values(&report);
    cx.state.run.overall_before = Some(report.overall);
    cx.emit(
        RunPhase::Analysis,
        "analysis.done",
        json!({"overall": report.overall, "failing_tests": report.failing_tests.len(), "elapsed_ms": report.elapsed_ms}),
    );
    cx.phase(RunPhase::Planning)?;
    let spent = tokens_spent(client);
    let planned = pipeline::plan(&req, &report, Some(client), &cx.trace);
    cx.state.run.usage.add_since(spent, tokens_spent(client));
    let plan = match planned {
        Ok(p) => p.plan,
        Err(PlanError::Unreachable(e)) => return Err(RunError::LlmUnreachable(e.to_string())),
        Err(e) => return Err(RunError::Llm(e.to_string())),
    };
    cx.emit(
        RunPhase::Planning,
        "plan.final",
        json!({"tasks": plan.tasks.len(), "subtasks": plan.subtask_count()}),
    );
    cx.state.set_plan(plan);
    cx.save()
}

/// The analysis ran the suite on the worktree as it is before any subtask: its run is the test
/// baseline, so the first subtask does not run the suite again (a second full run cost a
/// compile on Rust, and a hanging test's limit twice).
fn adopt_analysis_baseline(
    cx: &mut Ctx<'_>,
    report: &slopguard_planning::analysis::AnalysisReport,
) {
    let Some(run) = report.test_run.as_ref() else {
        return;
    };
    if cx.state.baseline.is_some() || !cx.opts.dynamic.tests || !(run.ran || run.broken) {
        return;
    }
    cx.set_baseline(RunPhase::Analysis, run, "analysis");
}

/// Marks subtasks whose commit is on the branch (a crash after the commit, before the state
/// was saved) as committed, so they are neither redone nor duplicated.
pub(super) fn reconcile(cx: &mut Ctx<'_>) -> Result<(), RunError> {
    if cx.state.run.dry_run {
        return Ok(());
    }
    let commits = git::subtask_commits(&cx.repo, &cx.state.run.base_commit, &cx.state.run.branch)?;
    let mut changed = false;
    for c in commits {
        if c.run.as_deref().is_some_and(|r| r != cx.state.run.run_id) {
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
                RunPhase::Execution,
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
        .run
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
            &cx.state.run.repo_id,
            &cx.state.run.run_id,
            "slopguard-worker",
            Outcome::Success,
        );
        obs.subtask_id = Some(id.clone());
        obs.model = (!cx.state.run.model.is_empty()).then(|| cx.state.run.model.clone());
        obs.branch = Some(cx.state.run.branch.clone());
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

/// The tests subtask `id` is about that an earlier landed subtask fixed, when none of the
/// tests it is about still fails: the planner often makes one subtask per failing test, and
/// one fix makes several pass. Such a subtask has nothing left to do; asked anyway, the model
/// rewrites working code. Empty when the subtask still has work (or is about no test).
pub(super) fn fixed_by_earlier_subtask(
    baseline: Option<&Baseline>,
    plan: Option<&Plan>,
    id: &str,
) -> Vec<String> {
    let (Some(base), Some((_, st))) = (baseline, plan.and_then(|p| find_subtask(p, id))) else {
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
    cx.emit(RunPhase::Execution, "worker.subtask.skipped", data);
    cx.progress.on(&ProgressEvent::SubtaskEnd {
        id: id.to_string(),
        status: SubtaskStatus::Skipped,
        commit: None,
    });
    cx.save()
}

/// Whether subtask `id` is behind the baseline's failing tests (those run whatever the budget).
pub(super) fn subtask_is_about_failing_tests(
    baseline: Option<&Baseline>,
    plan: Option<&Plan>,
    id: &str,
) -> bool {
    let failing = baseline.map(|b| b.failing.clone()).unwrap_or_default();
    plan.and_then(|p| find_subtask(p, id))
        .is_some_and(|(_, st)| is_about_failing_tests(&st, &failing) || st.id.starts_with("T000"))
}

/// Marks subtask `id` skipped because the run's time budget is spent.
pub(super) fn skip_for_budget(cx: &mut Ctx<'_>, id: &str) -> Result<(), RunError> {
    let budget = cx.opts.run_budget.unwrap_or_default().as_secs();
    let why = format!("skipped: the run's time budget ({budget} s) was spent");
    let data = json!({"subtask_id": id, "reason": "run budget spent", "budget_s": budget});
    skip_subtask(cx, id, why, data)
}

/// The analysis metrics as the run records them.
pub(super) fn metric_values(report: &AnalysisReport) -> Vec<MetricValue> {
    report
        .metrics
        .iter()
        .map(|m| MetricValue {
            name: m.name.clone(),
            title: m.title.clone(),
            score: m.score,
            status: m.status.as_str().to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use slopguard_planning::plan::{Subtask, Task};

    fn subtask(id: &str, title: &str) -> Subtask {
        Subtask {
            id: id.into(),
            title: title.into(),
            description: String::new(),
            file_hints: vec!["src/q.py".into()],
            action: Default::default(),
        }
    }

    fn plan() -> Plan {
        Plan {
            tasks: vec![Task {
                id: "T001".into(),
                title: "Quoting".into(),
                priority: 1,
                description: String::new(),
                subtasks: vec![
                    subtask("T001-S01", "Fix test_quote_escapes"),
                    subtask("T001-S02", "Fix the failing tests"),
                    subtask("T001-S03", "Document the quoting rules"),
                ],
            }],
        }
    }

    fn ids(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn baseline(failing: &[&str], fixed: &[&str]) -> Baseline {
        Baseline {
            failing: ids(failing),
            fixed: ids(fixed),
            ..Default::default()
        }
    }

    #[test]
    fn find_subtask_gives_its_task_title() {
        let (task, st) = find_subtask(&plan(), "T001-S02").unwrap();
        assert_eq!(task, "Quoting");
        assert_eq!(st.title, "Fix the failing tests");
        assert!(find_subtask(&plan(), "T009-S01").is_none());
    }

    #[test]
    fn a_subtask_whose_tests_an_earlier_one_fixed_is_done() {
        let plan = plan();
        let fixed = |b: &Baseline, id| fixed_by_earlier_subtask(Some(b), Some(&plan), id);
        let q = "tests/t.py::test_quote_escapes";
        let other = "tests/t.py::test_split_words";
        // Its test passes now, another still fails: named tests only.
        assert_eq!(
            fixed(&baseline(&[other], &[q]), "T001-S01"),
            vec![q.to_string()]
        );
        // "the failing tests", none fails any more: all the fixed ones.
        assert_eq!(
            fixed(&baseline(&[], &[q, other]), "T001-S02"),
            vec![q.to_string(), other.to_string()]
        );
        // Still failing: work left.
        assert!(fixed(&baseline(&[q], &[other]), "T001-S01").is_empty());
        // About no test, unknown subtask, no baseline or plan.
        assert!(fixed(&baseline(&[], &[q]), "T001-S03").is_empty());
        assert!(fixed(&baseline(&[], &[q]), "T009-S01").is_empty());
        assert!(fixed_by_earlier_subtask(None, Some(&plan), "T001-S01").is_empty());
        assert!(fixed_by_earlier_subtask(Some(&baseline(&[], &[q])), None, "T001-S01").is_empty());
    }

    #[test]
    fn subtasks_behind_failing_tests_run_whatever_the_budget() {
        let plan = plan();
        let b = baseline(&["tests/t.py::test_quote_escapes"], &[]);
        let about = |b: Option<&Baseline>, id| subtask_is_about_failing_tests(b, Some(&plan), id);
        assert!(about(Some(&b), "T001-S01"));
        assert!(about(Some(&b), "T001-S02"));
        assert!(!about(Some(&b), "T001-S03"));
        // Nothing fails: no subtask is behind failing tests.
        assert!(!about(Some(&baseline(&[], &[])), "T001-S01"));
        assert!(!about(None, "T001-S02"));
        assert!(!subtask_is_about_failing_tests(Some(&b), None, "T001-S01"));
    }
}
