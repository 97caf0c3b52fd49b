//! The execution loop of `slopguard run`: pre-flight, analysis, planning, and per subtask the
//! guarded worker (prompt, model, change, static guards, write, dynamic guards, commit or
//! revert and retry), with the state persisted after every step so `--resume` continues at the
//! first unfinished subtask.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_llm::{BlockingClient, Role, Sampling};
use slopguard_store::{FailureMode, NewObservation, Outcome};

use crate::analysis::AnalyzeOptions;
use crate::dynamic::{self, Verdict};
use crate::gates::fail_event;
use crate::gates::{self, Phase};
use crate::git;
use crate::plan::pipeline::{self, PlanError, PlanRequest};
use crate::plan::post::{is_about_failing_tests, tests_named_by};
use crate::plan::{Plan, Subtask};
use crate::run::candidates::{self, Reached};
use crate::run::proof;
use crate::run::summary::*;
use crate::state::Baseline;
use crate::worker::fault_line::{self, FaultLine};
use crate::worker::{self, context, context::FailureContext, prompt};

use super::context::{Ctx, tokens_spent};
use super::critique::critique_attempt;
use super::error::RunError;
use super::lifecycle::metric_values;
use super::observe::record_outcome;
use super::progress::ProgressEvent;

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

/// What one subtask carries from attempt to attempt.
pub(super) struct SubtaskRun {
    pub(super) id: String,
    pub(super) task_title: String,
    pub(super) subtask: Subtask,
    pub(super) guard_task: slopguard_change::Task,
    pub(super) fingerprint: Option<slopguard_fingerprint::Fingerprint>,
    /// Baseline failing tests this subtask is behind (empty: only "no regression" counts).
    pub(super) targets: BTreeSet<String>,
    /// Their output and source, for the prompt.
    pub(super) failure: Option<FailureContext>,
    /// The one definition they point at, when there is one.
    pub(super) function: Option<prompt::FunctionTarget>,
    /// The statement of the files to change where they break, when a frame names one.
    pub(super) fault_line: Option<FaultLine>,
    /// When no frame names a statement: the statements of `function`, each offered alone.
    pub(super) suspects: Vec<FaultLine>,
    pub(super) modes: Vec<FailureMode>,
    pub(super) started: Instant,
    /// Wall-clock budget: no attempt or candidate starts after it.
    pub(super) budget: Duration,
    pub(super) llm_time: Duration,
    pub(super) tool_time: Duration,
    /// Candidates sampled so far, over all attempts.
    pub(super) sampled: u32,
    pub(super) dynamic_failed_before: bool,
    /// The candidate that fixed the most targets (not all) in an earlier attempt: it competes
    /// again with the next attempt's candidates, and lands at the last attempt if none of
    /// them fixes every target ([`evaluate_survivors`]).
    pub(super) carried: Option<Survivor>,
}

/// How an attempt ended.
pub(super) enum AttemptEnd {
    /// A candidate landed: (status, commit, touched paths, commit title).
    Landed(SubtaskStatus, Option<String>, Vec<String>, String),
    /// Every candidate was rejected; the feedback for the next attempt.
    Rejected(String),
}

/// A candidate that passed the static gates, waiting for the toolchain.
pub(super) struct Survivor {
    pub(super) index: u32,
    pub(super) applied: worker::AppliedReply,
    pub(super) key: String,
    pub(super) votes: u32,
    pub(super) size: usize,
}

/// A rejected candidate: how far it got and what the next attempt should hear about it.
/// Why a candidate was turned down: how far it got, the gates that refused it, and the
/// feedback its attempt's retry hears.
pub(super) struct Refused {
    pub(super) reached: Reached,
    pub(super) feedback: String,
}

/// Runs one subtask: attempts until a candidate lands, the attempts run out or `budget` (its
/// wall-clock time) is spent. `position` is (index, total) in the plan.
pub(super) fn run_subtask(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    (index, total): (usize, usize),
    id: &str,
    budget: Duration,
) -> Result<(), RunError> {
    let Some((task_title, subtask)) = cx.state.plan.as_ref().and_then(|p| find_subtask(p, id))
    else {
        return Ok(());
    };
    let started = Instant::now();
    announce_subtask(cx, index, total, id, &subtask);
    let tool_time = ensure_baseline(cx)?;
    cx.timers.borrow_mut().clear();
    if cx.fingerprint.is_none() {
        let t = Instant::now();
        cx.fingerprint = slopguard_fingerprint::compute(&cx.worktree).ok();
        cx.time("fingerprint", t);
    }
    let mut run = SubtaskRun {
        id: id.to_string(),
        guard_task: worker::guard_task(&subtask, &task_title),
        fingerprint: cx.fingerprint.clone(),
        targets: BTreeSet::new(),
        failure: None,
        function: None,
        fault_line: None,
        suspects: Vec::new(),
        task_title,
        subtask,
        modes: Vec::new(),
        started,
        budget,
        llm_time: Duration::ZERO,
        tool_time,
        sampled: 0,
        dynamic_failed_before: false,
        carried: None,
    };
    attach_failure_context(cx, &mut run);
    let max = cx.state.max_attempts.max(1);
    let mut feedback = String::new();
    let mut outcome = None;
    for attempt in 1..=max {
        if attempt > 1 && run.started.elapsed() >= run.budget {
            cx.emit(
                "execution",
                "worker.budget.exhausted",
                json!({"subtask_id": id, "attempt": attempt, "budget_s": run.budget.as_secs()}),
            );
            feedback.push_str(&format!(
                "\n- [budget] the subtask's time budget ({} s) ran out before attempt {attempt}",
                run.budget.as_secs()
            ));
            break;
        }
        let end = run_attempt(cx, client, &mut run, attempt, &feedback)?;
        let critic_note = critique_attempt(cx, client, &run, attempt, &end, attempt < max);
        match end {
            AttemptEnd::Landed(status, commit, paths, title) => {
                outcome = Some((status, commit, paths, title));
                break;
            }
            AttemptEnd::Rejected(f) => feedback = f + &critic_note,
        }
    }
    record_outcome(cx, &run, outcome, &feedback, max)
}

pub(super) fn announce_subtask(
    cx: &mut Ctx<'_>,
    index: usize,
    total: usize,
    id: &str,
    subtask: &Subtask,
) {
    cx.progress.on(&ProgressEvent::SubtaskStart {
        index: index + 1,
        total,
        id: id.to_string(),
        title: subtask.title.clone(),
    });
    cx.emit(
        "execution",
        "worker.subtask.begin",
        json!({"subtask_id": id, "title": subtask.title, "file_hints": subtask.file_hints, "index": index + 1, "total": total}),
    );
    // Fresh start for this subtask (a resumed one starts over: its partial work was discarded).
    if let Some(s) = cx.state.subtask_mut(id) {
        s.attempts = 0;
        s.guard_activity.clear();
        s.attempt_log.clear();
        s.failure_modes.clear();
        s.error = None;
    }
}

/// Captures the test baseline once per run (lazily, before the first gate); returns the
/// toolchain time spent.
pub(super) fn ensure_baseline(cx: &mut Ctx<'_>) -> Result<Duration, RunError> {
    if cx.state.baseline.is_some() || !cx.opts.dynamic.tests {
        return Ok(Duration::ZERO);
    }
    let t = Instant::now();
    let out = dynamic::run_tests(&cx.worktree, cx.opts.dynamic.test_timeout);
    let spent = t.elapsed();
    let b = dynamic::baseline_of(&out);
    cx.emit(
        "execution",
        "test_baseline.captured",
        json!({"ran": b.ran, "total": b.total, "failing": b.failing, "broken": b.broken, "reason": b.reason}),
    );
    cx.state.baseline = Some(b);
    cx.save()?;
    Ok(spent)
}

/// Targets and failure context for a subtask behind the baseline's failing tests.
pub(super) fn attach_failure_context(cx: &Ctx<'_>, run: &mut SubtaskRun) {
    let Some(base) = cx.state.baseline.as_ref() else {
        return;
    };
    if !is_about_failing_tests(&run.subtask, &base.failing) {
        return;
    }
    run.targets = base.failing.clone();
    let tree = WorkTree::new(&cx.worktree);
    let fc = context::failure_context(
        &tree,
        &base.failing_tests,
        &base.log,
        &run.subtask.file_hints,
        FAILURE_OUTPUT_CHARS,
    );
    cx.emit(
        "execution",
        "worker.failure_context",
        json!({"subtask_id": run.id, "targets": run.targets, "output_chars": fc.output.len(),
               "tests": fc.tests.iter().map(|(p, l, _)| format!("{p}:{l}")).collect::<Vec<_>>(),
               "frame_files": fc.frame_files}),
    );
    run.function = function_target(&fc, &run.targets);
    if let Some(f) = &run.function {
        cx.emit(
            "execution",
            "worker.function_target",
            json!({"subtask_id": run.id, "path": f.path, "name": f.name, "lines": [f.start, f.end]}),
        );
    }
    run.fault_line = fault_line::fault_line(&base.log, &tree, &run.subtask.file_hints);
    if let Some(l) = &run.fault_line {
        cx.emit(
            "execution",
            "worker.fault_line",
            json!({"subtask_id": run.id, "path": l.path, "lines": [l.start, l.end]}),
        );
    }
    if let (None, Some(f)) = (&run.fault_line, &run.function) {
        run.suspects = fault_line::suspects(f, &tree, MAX_SUSPECTS);
        if !run.suspects.is_empty() {
            cx.emit(
                "execution",
                "worker.suspect_lines",
                json!({"subtask_id": run.id, "path": f.path,
                       "lines": run.suspects.iter().map(|l| [l.start, l.end]).collect::<Vec<_>>()}),
            );
        }
    }
    run.failure = Some(fc);
}

/// Most statements of the target definition offered alone when no frame names one.
pub(super) const MAX_SUSPECTS: usize = 4;

/// Characters of failing-test output shown to the worker.
pub(super) const FAILURE_OUTPUT_CHARS: usize = 1800;

/// What one attempt collects while its candidates are sampled and judged.
pub(super) struct AttemptWork {
    pub(super) start: Instant,
    pub(super) record: AttemptRecord,
    pub(super) activity: Vec<GuardActivity>,
    pub(super) rejections: Vec<Refused>,
    pub(super) survivors: Vec<Survivor>,
    pub(super) llm: Duration,
    pub(super) tool: Duration,
}

pub(super) fn run_attempt(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    feedback: &str,
) -> Result<AttemptEnd, RunError> {
    let mut work = AttemptWork {
        start: Instant::now(),
        record: AttemptRecord {
            attempt,
            ..Default::default()
        },
        activity: Vec::new(),
        rejections: Vec::new(),
        survivors: run.carried.take().into_iter().collect(),
        llm: Duration::ZERO,
        tool: Duration::ZERO,
    };
    cx.progress.on(&ProgressEvent::Attempt {
        id: run.id.clone(),
        attempt,
        max: cx.state.max_attempts.max(1),
    });
    cx.emit(
        "execution",
        "worker.attempt.begin",
        json!({"subtask_id": run.id, "attempt": attempt}),
    );
    if let Some(s) = cx.state.subtask_mut(&run.id) {
        s.attempts = attempt;
    }
    let tree: Arc<dyn Tree> = Arc::new(WorkTree::new(&cx.worktree));
    let prompts = attempt_prompts(cx, run, tree.as_ref(), attempt, feedback);
    let mut last_call = Duration::ZERO;
    let share = run.budget / cx.state.max_attempts.max(1);
    for index in 0..candidates::AUTO_MAX.max(fixed_count(cx.opts.candidates)) {
        let clock = candidates::AttemptClock {
            elapsed: work.start.elapsed(),
            share,
            subtask_left: run.budget.saturating_sub(run.started.elapsed()),
            last_call,
        };
        if !candidates::may_sample(cx.opts.candidates, index, clock) {
            break;
        }
        let pr = &prompts[index as usize % prompts.len()];
        last_call = sample_candidate(cx, client, run, attempt, index, pr, tree.clone(), &mut work)?;
    }
    run.llm_time += work.llm;
    if let Some((i, written, dynr)) = evaluate_survivors(cx, client, run, attempt, &mut work)? {
        run.tool_time += work.tool;
        let applied = work.survivors.swap_remove(i).applied;
        return land(cx, run, attempt, &applied, written, dynr, work);
    }
    run.tool_time += work.tool;
    let furthest = work.rejections.iter().max_by_key(|r| r.reached);
    let fb = furthest.map_or_else(
        || "- [apply] no candidate could be judged".to_string(),
        |r| r.feedback.clone(),
    );
    // The attempt's outcome is what stopped its furthest candidate: a reply that never became
    // a change is an apply error; one a guard, the build or the tests refused is blocked.
    work.record.outcome = match furthest.map(|r| r.reached) {
        None | Some(Reached::Model | Reached::Apply) if work.survivors.is_empty() => "apply_error",
        _ => "blocked",
    }
    .into();
    finish_attempt(
        cx,
        &run.id,
        work.record,
        work.activity,
        &fb,
        work.start,
        work.llm,
        work.tool,
    );
    Ok(AttemptEnd::Rejected(fb))
}

pub(super) fn fixed_count(count: candidates::CandidateCount) -> u32 {
    match count {
        candidates::CandidateCount::Fixed(k) => k,
        candidates::CandidateCount::Auto => 0,
    }
}

/// The attempt's prompts, one per answer format, used by the candidates in turn: the format
/// the file sizes call for (whole files for small files), then, when a frame of the failure
/// names a statement of the files to change, that statement alone, then, when the failing
/// tests point at one definition, that definition alone, then SEARCH/REPLACE blocks when the
/// first prompt rewrites files whole; when no frame names a statement, the definition's
/// statements one by one ([`fault_line::suspects`]), interleaved. The formats fail
/// differently, and the tests pick.
pub(super) fn attempt_prompts(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    tree: &dyn Tree,
    attempt: u32,
    feedback: &str,
) -> Vec<prompt::WorkerPrompt> {
    let t_prompt = Instant::now();
    let worker_cfg = cx.opts.llm.role(Role::Worker);
    let policy = prompt::FormatPolicy::for_model(&cx.state.model, worker_cfg.max_tokens);
    let input = prompt::PromptInput {
        subtask: &run.subtask,
        task_title: &run.task_title,
        tree,
        budget_tokens: cx.opts.file_budget_tokens,
        feedback,
        attempt,
        failure: run.failure.as_ref(),
        policy,
        function: None,
        line: None,
        regression_test: cx
            .opts
            .regression_proof
            .then(|| {
                run.subtask
                    .file_hints
                    .iter()
                    .find(|h| crate::analysis::is_test_file(h))
                    .map(String::as_str)
            })
            .flatten(),
    };
    let first = prompt::build(&input);
    let rewrites_whole = first
        .files
        .iter()
        .any(|(_, p)| matches!(p, prompt::Presented::Full { whole: true }));
    let mut prompts = vec![first];
    if let Some(line) = run.fault_line.as_ref() {
        prompts.push(prompt::build(&prompt::PromptInput {
            line: Some(line),
            ..input
        }));
    }
    if let Some(target) = run.function.as_ref().filter(|_| rewrites_whole) {
        prompts.push(prompt::build(&prompt::PromptInput {
            function: Some(target),
            ..input
        }));
    }
    if rewrites_whole {
        prompts.push(prompt::build(&prompt::PromptInput {
            policy: prompt::FormatPolicy {
                blocks_only: true,
                ..policy
            },
            ..input
        }));
    }
    // One statement of the target definition per prompt, interleaved after the first so the
    // first candidates try both kinds of answer.
    for (i, line) in run.suspects.iter().enumerate() {
        let at = (2 * i + 1).min(prompts.len());
        prompts.insert(
            at,
            prompt::build(&prompt::PromptInput {
                line: Some(line),
                ..input
            }),
        );
    }
    // Every prompt knows the target definition, so an unreadable reply holding it is salvaged.
    for p in &mut prompts {
        p.target = run.function.clone();
    }
    cx.time("prompt", t_prompt);
    prompts
}

/// The one definition the failing tests point at, in the files to change: the only one their
/// source calls, or the only one of those a failing test is named after.
pub(super) fn function_target(
    fc: &FailureContext,
    targets: &BTreeSet<String>,
) -> Option<prompt::FunctionTarget> {
    let named_after = |name: &str| {
        let simple = name
            .rsplit([':', '.', '#'])
            .next()
            .unwrap_or(name)
            .to_lowercase();
        targets.iter().any(|t| {
            context::short_name(t)
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == simple)
        })
    };
    let pick = match fc.exercised.as_slice() {
        [one] => one,
        many => {
            let named: Vec<_> = many.iter().filter(|(_, n, _, _)| named_after(n)).collect();
            match named.as_slice() {
                [one] => *one,
                _ => return None,
            }
        }
    };
    let (path, name, start, end) = pick.clone();
    Some(prompt::FunctionTarget {
        path,
        name,
        start,
        end,
    })
}

/// Samples one candidate and judges it statically: a survivor (or a vote for an identical
/// one) or a rejection. Returns the model call's duration.
#[allow(clippy::too_many_arguments)]
pub(super) fn sample_candidate(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    index: u32,
    pr: &prompt::WorkerPrompt,
    tree: Arc<dyn Tree>,
    work: &mut AttemptWork,
) -> Result<Duration, RunError> {
    let t = Instant::now();
    let spent = tokens_spent(client);
    let sampling = Sampling {
        temperature: Some(candidates::temperature_for(attempt, index, pr.is_focused())),
        seed: Some(candidates::seed(&cx.state.run_id, &run.id, attempt, index)),
        max_tokens: pr.reply_tokens,
    };
    let reply = client.chat_sampled(Role::Worker, &pr.messages, sampling);
    let used = tokens_spent(client);
    cx.state.usage.add_since(spent, used);
    let took = t.elapsed();
    work.llm += took;
    run.sampled += 1;
    let line = CandidateLine {
        attempt,
        index,
        sampling,
        took,
        completion_tokens: used.1 - spent.1,
    };
    let reply = match reply {
        Ok(r) => r,
        Err(e) if e.is_unreachable() => {
            cx.save()?;
            return Err(RunError::LlmUnreachable(format!(
                "{e}. The run state is kept: `slopguard run --resume` continues at {}.",
                run.id
            )));
        }
        Err(e) => {
            let r = record_rejections(
                cx,
                run,
                attempt,
                &mut work.activity,
                &[gates::Rejection::message(
                    "llm",
                    Phase::Apply,
                    e.to_string(),
                )],
            );
            candidate_line(
                cx,
                &mut work.record,
                run,
                &line,
                "model error",
                &e.to_string(),
            );
            work.rejections.push(Refused {
                reached: Reached::Model,
                feedback: format!("- [llm] {r}"),
            });
            return Ok(took);
        }
    };
    let complete = reply.finish_reason.as_deref() != Some("length");
    let text = if complete {
        worker::reply::close_forgotten_fence(&reply.content)
    } else {
        reply.content.clone()
    };
    let t_apply = Instant::now();
    let judged = judge_statically(cx, run, attempt, pr, tree, &text, &mut work.activity);
    cx.time("apply_and_static", t_apply);
    let verdict = match judged {
        Ok(applied) => keep_survivor(&mut work.survivors, index, applied),
        Err(r) => {
            let first = r.feedback.lines().next().unwrap_or("").to_string();
            work.rejections.push(r);
            first
        }
    };
    let what = if reply.finish_reason.as_deref() == Some("length") {
        "cut off at max_tokens"
    } else {
        "reply"
    };
    candidate_line(cx, &mut work.record, run, &line, what, &verdict);
    Ok(took)
}

/// Adds a candidate that passed the static gates, or counts it as a vote for an identical
/// one (same normalised diff); returns the verdict line.
pub(super) fn keep_survivor(
    survivors: &mut Vec<Survivor>,
    index: u32,
    applied: worker::AppliedReply,
) -> String {
    let key = candidates::normalised_key(&applied.change);
    if let Some(same) = survivors.iter_mut().find(|s| s.key == key) {
        same.votes += 1;
        return format!("same patch as candidate {}", same.index + 1);
    }
    let size = candidates::changed_lines(&applied.change);
    let line = format!(
        "passed static gates ({}, {size} lines; {})",
        applied.format.name(),
        applied.matchers.join(", ")
    );
    survivors.push(Survivor {
        index,
        applied,
        key,
        votes: 1,
        size,
    });
    line
}

/// Runs the toolchain on the survivors, most votes first, then the smallest. The first that
/// passes every gate and fixes every target wins at once. Otherwise the one that fixed the
/// most targets (at least one) is carried to the next attempt while one remains (its tests'
/// output is the feedback), and wins at the last, written again. Returns the winner, written,
/// with its report.
#[allow(clippy::type_complexity)]
pub(super) fn evaluate_survivors(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
) -> Result<Option<(usize, dynamic::Written, dynamic::DynamicReport)>, RunError> {
    let order = candidates::evaluation_order(
        &work
            .survivors
            .iter()
            .enumerate()
            .map(|(i, s)| (i, s.votes, s.size))
            .collect::<Vec<_>>(),
    );
    // The partial winner keeps the report of its run: its bytes are written again unchanged,
    // so build and tests need not run twice.
    let mut best_partial: Option<(usize, usize, dynamic::DynamicReport)> = None;
    for i in order {
        let applied = &work.survivors[i].applied;
        if let Some(refused) =
            review_candidate(cx, client, run, attempt, applied, &mut work.activity)?
        {
            work.rejections.push(refused);
            continue;
        }
        if cx.opts.regression_proof && proof::test_files(&applied.change).is_empty() {
            let r = refuse_proof(
                cx,
                run,
                attempt,
                applied,
                &proof::Proof::NoTest,
                &mut work.activity,
            );
            work.rejections.push(r);
            continue;
        }
        let (written, dynr) =
            match judge_dynamically(cx, run, attempt, applied, &mut work.activity)? {
                Ok(v) => v,
                Err((rejection, spent)) => {
                    work.tool += spent;
                    work.rejections.push(rejection);
                    continue;
                }
            };
        work.tool += dynr.elapsed;
        let fixed = fixed_targets(&run.targets, dynr.tests.as_ref());
        if run.targets.is_empty() || dynr.tests.is_none() || fixed == run.targets.len() {
            if cx.opts.regression_proof {
                let t = Instant::now();
                let found = prove_candidate(cx, run, applied)?;
                work.tool += t.elapsed();
                if !matches!(found, proof::Proof::Proven(_)) {
                    written.revert()?;
                    let r = refuse_proof(cx, run, attempt, applied, &found, &mut work.activity);
                    work.rejections.push(r);
                    continue;
                }
            }
            return Ok(Some((i, written, dynr)));
        }
        written.revert()?;
        if fixed > 0 && best_partial.as_ref().is_none_or(|(_, f, _)| fixed > *f) {
            best_partial = Some((i, fixed, dynr));
        } else if fixed == 0 {
            let r = still_failing(
                cx,
                run,
                attempt,
                applied,
                dynr.tests.as_ref(),
                &mut work.activity,
            );
            work.rejections.push(r);
        }
    }
    let Some((i, fixed, dynr)) = best_partial else {
        return Ok(None);
    };
    if carries_to_next_attempt(cx, run, attempt) {
        let r = still_failing(
            cx,
            run,
            attempt,
            &work.survivors[i].applied,
            dynr.tests.as_ref(),
            &mut work.activity,
        );
        work.rejections.push(r);
        cx.emit(
            "execution",
            "worker.partial.carried",
            json!({"subtask_id": run.id, "attempt": attempt, "fixed": fixed,
                   "targets": run.targets.len()}),
        );
        run.carried = Some(work.survivors.swap_remove(i));
        return Ok(None);
    }
    let written = dynamic::write_change(&cx.worktree, &work.survivors[i].applied.change)?;
    Ok(Some((i, written, dynr)))
}

/// Time a subtask must have left for a partial fix to wait for the next attempt (which always
/// samples at least one candidate and judges the carried one again).
pub(super) const CARRY_MARGIN: Duration = Duration::from_secs(30);

/// Whether a partial fix waits for the next attempt instead of landing now: an attempt is left
/// and the budget leaves room for it. A partial fix that lands ends the subtask; the run's
/// other failing tests then rest on later subtasks, and small models fill that gap with
/// answers that satisfy one test and nothing else.
pub(super) fn carries_to_next_attempt(cx: &Ctx<'_>, run: &SubtaskRun, attempt: u32) -> bool {
    attempt < cx.state.max_attempts.max(1)
        && run.budget.saturating_sub(run.started.elapsed()) >= CARRY_MARGIN
}

/// Targets (baseline failing tests) that pass in `now`.
pub(super) fn fixed_targets(
    targets: &BTreeSet<String>,
    now: Option<&slopguard_toolchain::TestRun>,
) -> usize {
    let Some(now) = now else {
        return 0;
    };
    let failing: BTreeSet<&str> = now.failing.iter().map(|f| f.id.as_str()).collect();
    targets
        .iter()
        .filter(|t| !failing.contains(t.as_str()))
        .count()
}

/// Runs the enabled model-backed gates on a candidate the static guards passed; the first that
/// refuses it rejects it. A critic whose call fails lets the candidate through (the trace says
/// so); an endpoint that does not answer stops the run, resumable, as for the worker.
/// Runs the regression proof of a candidate written in the worktree (its tests passed).
pub(super) fn prove_candidate(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    applied: &worker::AppliedReply,
) -> Result<proof::Proof, RunError> {
    let base = cx.state.baseline.clone().unwrap_or_default();
    let found = proof::prove(
        &cx.worktree,
        &applied.change,
        &base,
        cx.opts.dynamic.test_timeout,
    )?;
    if let proof::Proof::Proven(ids) = &found {
        cx.emit(
            "execution",
            "worker.regression_proof.proven",
            json!({"subtask_id": run.id, "fails_without_fix": ids,
                   "test_files": proof::test_files(&applied.change)}),
        );
    }
    Ok(found)
}

/// Records a refused regression proof and returns its feedback.
pub(super) fn refuse_proof(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    found: &proof::Proof,
    activity: &mut Vec<GuardActivity>,
) -> Refused {
    let message = proof::feedback(found, &applied.change).unwrap_or_default();
    let rejection = gates::Rejection::message(proof::SLUG, Phase::Dynamic, message.clone());
    record_rejections(cx, run, attempt, activity, &[rejection]);
    Refused {
        reached: Reached::Tests,
        feedback: format!(
            "{}\n- [{}] {message}",
            candidates::describe_change(&applied.change),
            proof::SLUG
        ),
    }
}

pub(super) fn review_candidate(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    activity: &mut Vec<GuardActivity>,
) -> Result<Option<Refused>, RunError> {
    let enabled = gates::MODEL_GATES
        .iter()
        .filter(|g| cx.opts.model_gates.iter().any(|s| s == g.gate().slug));
    for gate in enabled {
        let slug = gate.gate().slug;
        let input = gates::ReviewInput {
            title: &run.subtask.title,
            description: &run.subtask.description,
            change: &applied.change,
        };
        let spent = tokens_spent(client);
        let verdict = gate.review(&input, client);
        cx.state.usage.add_since(spent, tokens_spent(client));
        let (status, messages) = match &verdict {
            Ok(None) => ("passed", vec![]),
            Ok(Some(r)) => ("blocked", vec![r.text()]),
            Err(e) => ("skipped", vec![e.to_string()]),
        };
        activity.push(GuardActivity {
            attempt,
            phase: "review".into(),
            guard: slug.into(),
            code: None,
            status: status.into(),
            messages,
        });
        match verdict {
            Ok(None) => {}
            Ok(Some(rejection)) => {
                let text = record_rejections(cx, run, attempt, activity, &[rejection]);
                return Ok(Some(Refused {
                    reached: Reached::Review,
                    feedback: format!(
                        "{}\n- [{slug}] {text}",
                        candidates::describe_change(&applied.change)
                    ),
                }));
            }
            Err(e) if e.is_unreachable() => {
                cx.save()?;
                return Err(RunError::LlmUnreachable(format!(
                    "{e}. The run state is kept: `slopguard run --resume` continues at {}.",
                    run.id
                )));
            }
            Err(e) => cx.emit(
                "execution",
                "critic.error",
                json!({"subtask_id": run.id, "attempt": attempt, "gate": slug, "error": e.to_string()}),
            ),
        }
    }
    Ok(None)
}

/// The rejection of a candidate that passed every gate but left the failing tests failing.
pub(super) fn still_failing(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    now: Option<&slopguard_toolchain::TestRun>,
    activity: &mut Vec<GuardActivity>,
) -> Refused {
    let failing: Vec<crate::analysis::FailingTest> =
        now.map(|n| n.failing.clone()).unwrap_or_default();
    let names: Vec<String> = failing.iter().map(|f| context::short_name(&f.id)).collect();
    let printed = now.map_or_else(String::new, |n| {
        context::excerpt(&n.log, &names, FAILURE_OUTPUT_CHARS)
    });
    let rejection = gates::Rejection::new(
        "tests",
        Phase::Dynamic,
        vec![gates::RejectionFinding {
            path: None,
            message: format!("{} failing test(s) still fail", failing.len()),
            data: json!({"failing": failing.iter().map(|f| &f.id).collect::<Vec<_>>()}),
        }],
    );
    record_rejections(cx, run, attempt, activity, &[rejection]);
    Refused {
        reached: Reached::Tests,
        feedback: format!(
            "- [tests] {} The build and the other tests pass, but the failing tests still fail. \
             What they printed after your change:\n{}",
            candidates::describe_change(&applied.change),
            printed.trim_end()
        ),
    }
}

/// The one handler of gate refusals: each rejection's failure mode joins the subtask's, one
/// trace event per finding is emitted, and a refusal before any guard ran (the model call, the
/// reply) is added to the guard activity (the guards' own activity is recorded as they run).
/// Returns the findings' text, one per line.
pub(super) fn record_rejections(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    activity: &mut Vec<GuardActivity>,
    rejections: &[gates::Rejection],
) -> String {
    let mut texts = Vec::new();
    for r in rejections {
        push_mode(&mut run.modes, r.mode);
        let event = fail_event(&r.gate);
        for f in &r.findings {
            cx.emit(
                "execution",
                &event,
                json!({"subtask_id": run.id, "attempt": attempt, "phase": r.phase.trace_name(),
                       "path": f.path, "error": f.message, "data": f.data}),
            );
        }
        let text = r.text();
        if r.phase == Phase::Apply {
            activity.push(GuardActivity::apply_blocked(attempt, &r.gate, text.clone()));
        }
        texts.push(text);
    }
    texts.join("\n")
}

/// Parse, apply and run the static gates on one reply.
pub(super) fn judge_statically(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    pr: &prompt::WorkerPrompt,
    tree: Arc<dyn Tree>,
    text: &str,
    activity: &mut Vec<GuardActivity>,
) -> Result<worker::AppliedReply, Refused> {
    let applied = worker::change_from_reply(tree, text, pr).map_err(|e| {
        // An unreadable reply counts as unparseable model output, like bad JSON did.
        let gate = if e.unreadable { "json" } else { "apply" };
        let msg = record_rejections(
            cx,
            run,
            attempt,
            activity,
            &[gates::Rejection::message(gate, Phase::Apply, e.to_string())],
        );
        Refused {
            reached: Reached::Apply,
            feedback: format!("- [{}] {msg}", if e.unreadable { "reply" } else { "apply" }),
        }
    })?;
    cx.emit(
        "execution",
        "worker.edits.applied",
        json!({"subtask_id": run.id, "attempt": attempt, "format": applied.format.name(), "matchers": applied.matchers}),
    );
    let report = worker::static_guards(
        &applied.change,
        &run.guard_task,
        &cx.config,
        run.fingerprint.as_ref(),
    );
    let act = worker::activity(&report, attempt);
    for a in &act {
        cx.progress.on(&ProgressEvent::Guard {
            id: run.id.clone(),
            guard: a.guard.clone(),
            status: a.status.clone(),
        });
    }
    activity.extend(act);
    if let Some(psi) = report.metrics.get("psi") {
        cx.emit(
            "execution",
            "psi_lite.scored",
            json!({"subtask_id": run.id, "attempt": attempt, "psi": psi}),
        );
    }
    if !report.blocked() {
        return match gates::doc_scope::check(&run.subtask, &applied.change) {
            None => Ok(applied),
            Some(rejection) => {
                let msg = record_rejections(cx, run, attempt, activity, &[rejection]);
                Err(Refused {
                    reached: Reached::StaticGates,
                    feedback: format!("- [{}] {msg}", gates::doc_scope::SLUG),
                })
            }
        };
    }
    let mut by_guard: Vec<gates::Rejection> = Vec::new();
    for f in report.blocking() {
        let finding = gates::RejectionFinding {
            path: f.path.clone(),
            message: f.message.clone(),
            data: f.data.clone(),
        };
        match by_guard.iter_mut().find(|r| r.gate == f.guard) {
            Some(r) => r.findings.push(finding),
            None => by_guard.push(gates::Rejection::new(f.guard, Phase::Static, vec![finding])),
        }
    }
    record_rejections(cx, run, attempt, activity, &by_guard);
    Err(Refused {
        reached: Reached::StaticGates,
        feedback: format!(
            "{}\n{}",
            candidates::describe_change(&applied.change),
            report.feedback()
        ),
    })
}

/// Writes one survivor and runs the dynamic gates on it. A blocked candidate is reverted.
#[allow(clippy::type_complexity)]
pub(super) fn judge_dynamically(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    activity: &mut Vec<GuardActivity>,
) -> Result<Result<(dynamic::Written, dynamic::DynamicReport), (Refused, Duration)>, RunError> {
    let t_write = Instant::now();
    let written = dynamic::write_change(&cx.worktree, &applied.change)?;
    cx.time("write", t_write);
    let dynr = dynamic::run_dynamic(&cx.worktree, cx.state.baseline.as_ref(), &cx.opts.dynamic);
    for (g, code, v) in &dynr.verdicts {
        cx.progress.on(&ProgressEvent::Guard {
            id: run.id.clone(),
            guard: g.to_string(),
            status: v.status().into(),
        });
        activity.push(GuardActivity {
            attempt,
            phase: "dynamic".into(),
            guard: g.to_string(),
            code: code.map(str::to_string),
            status: v.status().into(),
            messages: match v {
                Verdict::Pass => vec![],
                Verdict::Block(m) | Verdict::Skipped(m) => vec![m.clone()],
            },
        });
    }
    let fail_on_both = cx
        .opts
        .regression_proof
        .then(|| {
            let base = cx.state.baseline.as_ref()?;
            proof::fail_on_both(&applied.change, base, dynr.tests.as_ref()?)
        })
        .flatten();
    let blocks: Vec<gates::Rejection> = dynr
        .verdicts
        .iter()
        .filter_map(|(g, _, v)| match (v, &fail_on_both) {
            (Verdict::Block(_), Some(m)) if *g == "test-regression" => Some(
                gates::Rejection::message(proof::SLUG, Phase::Dynamic, m.clone()),
            ),
            (Verdict::Block(m), _) => Some(gates::Rejection::message(g, Phase::Dynamic, m.clone())),
            _ => None,
        })
        .collect();
    record_rejections(cx, run, attempt, activity, &blocks);
    if !dynr.blocked() {
        return Ok(Ok((written, dynr)));
    }
    written.revert()?;
    run.dynamic_failed_before = true;
    let findings = match &fail_on_both {
        // The gate that names the problem speaks, not G8's "you broke a passing test".
        Some(m) => format!("- [{}] {m}\n", proof::SLUG),
        None => dynr.feedback(),
    };
    cx.emit(
        "execution",
        "worker.revert",
        json!({"subtask_id": run.id, "attempt": attempt, "files": written.paths()}),
    );
    Ok(Err((
        Refused {
            reached: Reached::DynamicGates,
            feedback: format!(
                "{}\n{findings}",
                candidates::describe_change(&applied.change)
            ),
        },
        dynr.elapsed,
    )))
}

/// What the progress line of a sampled candidate says about its model call.
pub(super) struct CandidateLine {
    pub(super) attempt: u32,
    pub(super) index: u32,
    pub(super) sampling: Sampling,
    pub(super) took: Duration,
    pub(super) completion_tokens: u64,
}

/// One progress line and one attempt-log line for a sampled candidate.
pub(super) fn candidate_line(
    cx: &Ctx<'_>,
    record: &mut AttemptRecord,
    run: &SubtaskRun,
    c: &CandidateLine,
    what: &str,
    verdict: &str,
) {
    let secs = c.took.as_secs_f64();
    let rate = if secs > 0.0 {
        c.completion_tokens as f64 / secs
    } else {
        0.0
    };
    let line = format!(
        "{} attempt {} candidate {} (t={:.1}): {what}, {} tokens in {secs:.1} s ({rate:.1} tok/s): {verdict}",
        run.id,
        c.attempt,
        c.index + 1,
        c.sampling.temperature.unwrap_or_default(),
        c.completion_tokens,
    );
    cx.progress.on(&ProgressEvent::Candidate(line.clone()));
    cx.emit(
        "execution",
        "worker.candidate",
        json!({"subtask_id": run.id, "attempt": c.attempt, "candidate": c.index + 1,
               "temperature": c.sampling.temperature, "seed": c.sampling.seed, "ms": c.took.as_millis() as u64,
               "completion_tokens": c.completion_tokens, "verdict": verdict}),
    );
    record.candidates.push(line);
}

/// Commits the winning candidate (already written, every gate passed).
pub(super) fn land(
    cx: &mut Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    written: dynamic::Written,
    dynr: dynamic::DynamicReport,
    work: AttemptWork,
) -> Result<AttemptEnd, RunError> {
    let considered = run.sampled;
    let AttemptWork {
        start: att_start,
        mut record,
        mut activity,
        llm: att_llm,
        tool: att_tool,
        ..
    } = work;
    let id = run.id.clone();
    record.touched = applied
        .change
        .changes
        .iter()
        .map(|c| c.path.clone())
        .collect();
    if run.dynamic_failed_before {
        cx.emit(
            "execution",
            "critic_build_retry.success",
            json!({"subtask_id": id, "attempt": attempt}),
        );
    }
    cx.emit(
        "execution",
        "worker.candidate.chosen",
        json!({"subtask_id": id, "attempt": attempt, "format": applied.format.name(),
               "matchers": applied.matchers, "beat": considered.saturating_sub(1)}),
    );
    let paths = written.paths();
    let commit_title = applied
        .change
        .message
        .clone()
        .unwrap_or_else(|| run.subtask.title.clone());
    let status = if cx.state.dry_run {
        written.revert()?;
        record.outcome = "passed".into();
        (SubtaskStatus::Passed, None)
    } else {
        let why = format!(
            "Subtask {id} of task \"{}\": {}{}\nGuards passed: {}.\nChosen among {considered} candidate(s).",
            run.task_title,
            run.subtask.title,
            if run.subtask.description.trim().is_empty() {
                String::new()
            } else {
                format!("\n{}", run.subtask.description.trim())
            },
            activity
                .iter()
                .filter(|a| a.attempt == attempt && a.status == "passed")
                .map(|a| a.guard.as_str())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        );
        let msg = git::commit_message(&commit_title, &why, &paths, &id, &cx.state.run_id);
        let t_git = Instant::now();
        let committed = git::commit_paths(&cx.worktree, &paths, &msg);
        cx.time("git_commit", t_git);
        match committed {
            Ok(c) => {
                if paths.iter().any(|p| is_manifest(p)) {
                    cx.fingerprint = None;
                }
                record.outcome = "committed".into();
                (SubtaskStatus::Committed, Some(c))
            }
            Err(e) => {
                written.revert()?;
                push_mode(&mut run.modes, FailureMode::GitRefused);
                let feedback = format!("- [git] the commit failed: {e}");
                activity.push(GuardActivity::apply_blocked(attempt, "git", e.to_string()));
                record.outcome = "git_error".into();
                finish_attempt(
                    cx, &id, record, activity, &feedback, att_start, att_llm, att_tool,
                );
                return Ok(AttemptEnd::Rejected(feedback));
            }
        }
    };
    // The baseline advances with what landed: fixed tests leave the failing set. A dry run
    // reverted the change, so the tree (and its failing tests) are as before.
    if let Some(t) = dynr.tests.as_ref().filter(|_| !cx.state.dry_run) {
        advance_baseline(cx, dynamic::baseline_of(t));
    }
    if let Some(s) = cx.state.subtask_mut(&id) {
        s.candidates_beaten = Some(considered.saturating_sub(1));
    }
    finish_attempt(cx, &id, record, activity, "", att_start, att_llm, att_tool);
    Ok(AttemptEnd::Landed(status.0, status.1, paths, commit_title))
}

/// Whether a landed path is a manifest (the fingerprint is computed again after it).
pub(super) fn is_manifest(p: &str) -> bool {
    let name = p.rsplit('/').next().unwrap_or(p);
    matches!(
        name,
        "Cargo.toml"
            | "package.json"
            | "pyproject.toml"
            | "go.mod"
            | "setup.py"
            | "setup.cfg"
            | "Pipfile"
            | "Gemfile"
    ) || name.starts_with("requirements")
}

pub(super) fn push_mode(modes: &mut Vec<FailureMode>, m: FailureMode) {
    if !modes.contains(&m) {
        modes.push(m);
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn finish_attempt(
    cx: &mut Ctx<'_>,
    id: &str,
    mut record: AttemptRecord,
    activity: Vec<GuardActivity>,
    feedback: &str,
    start: Instant,
    llm: Duration,
    tool: Duration,
) {
    record.feedback = feedback.to_string();
    record.llm_ms = llm.as_millis() as u64;
    record.toolchain_ms = tool.as_millis() as u64;
    record.overhead_ms = start
        .elapsed()
        .saturating_sub(llm)
        .saturating_sub(tool)
        .as_secs_f64()
        * 1000.0;
    let landed = feedback.is_empty();
    if let Some(s) = cx.state.subtask_mut(id) {
        s.guard_activity.extend(activity);
        s.attempt_log.push(record);
    }
    // A landed attempt is saved with the subtask's outcome right after (one write, not two);
    // a crash in between is repaired by reconciling the branch's commits.
    if !landed && let Err(e) = cx.save() {
        tracing::warn!(%e, "state not saved");
    }
}
