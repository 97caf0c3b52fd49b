//! The run's life from start to end: [`execute`] (pre-flight: repository, lock, config,
//! endpoint, new or resumed state, worktree; then the phases in order), the state of a new
//! or resumed run, [`finish`] (status, metrics after, worktree and empty branch removed) and
//! [`summarize`]. The pipeline it drives: analyse -> plan -> per subtask: attempts ->
//! candidates -> static judge -> review -> dynamic judge -> proof -> land -> observe ->
//! critics -> finish.

use crate::records::RunPhase;
use std::path::{Path, PathBuf};

use serde_json::json;
use slopguard_guards::Config;
use slopguard_llm::{BlockingClient, Role};

use crate::git;
use crate::records::Baseline;
use crate::run::summary::*;
use crate::state::{self, RepoLock, RunState, STATE_VERSION};
use slopguard_planning::analysis::{AnalyzeOptions, analyze};
use slopguard_planning::plan::post::is_about_failing_tests;
use slopguard_planning::plan::{Plan, load_plan_file};
use slopguard_planning::trace::{Trace, TraceEvent, now_ms};

use super::context::Ctx;
use super::critique::critique_phase;
use super::error::RunError;
use super::options::{PlanSource, RunOptions};
use super::progress::{Progress, ProgressEvent};
use super::schedule::{execution_phase, metric_values, plan_phase};
use super::store::Observations;

/// The summary of a state.
pub fn summarize(st: &RunState, trace_path: &Path, state_path: &Path) -> RunSummary {
    RunSummary {
        run: st.run.clone(),
        head_commit: st
            .run
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .filter_map(|s| s.commit.clone())
            .next_back()
            .unwrap_or_else(|| st.run.base_commit.clone()),
        metrics_after: Vec::new(),
        overall_after: None,
        finished_ms: now_ms(),
        trace_path: trace_path.display().to_string(),
        state_path: state_path.display().to_string(),
    }
}

/// Runs (or resumes) `slopguard run` and returns its summary. The user's working tree and
/// index are never touched; all work happens in a separate worktree on the run branch.
pub fn execute(opts: &RunOptions, progress: &dyn Progress) -> Result<RunSummary, RunError> {
    let repo = git::toplevel(&opts.path)?;
    let repo = repo.canonicalize().unwrap_or(repo);
    let resumed = run_to_resume(&repo, opts)?;
    let run_id = resumed
        .as_ref()
        .map(|s| s.run.run_id.clone())
        .unwrap_or_else(state::new_run_id);
    let (_lock, stale) = RepoLock::acquire(&repo, &run_id)?;
    // Resuming a run that already finished (killed during its clean-up): finish the clean-up
    // and report it.
    if let Some(st) = resumed.as_ref().filter(|s| s.phase == RunPhase::Done) {
        return Ok(finish_cleanup(&repo, st, opts));
    }
    git::exclude_slopguard_dir(&repo)?;
    let state_path = state::state_path(&repo, &run_id);
    let trace_path = state::run_dir(&repo, &run_id).join("trace.jsonl");
    let trace = Trace::new(&run_id).with_file(&trace_path);
    if let Some(pid) = stale {
        trace.emit(TraceEvent::new(
            RunPhase::Preflight.as_str(),
            "run.lock.stale_removed",
            json!({"pid": pid}),
        ));
    }
    let config = Config::discover(&repo, opts.config.as_deref())
        .map_err(|e| RunError::Input(e.to_string()))?;
    // The model is needed for every unfinished subtask (and for planning without a file); a
    // dead endpoint fails before anything (branch, worktree, state) is created.
    let client = BlockingClient::new(opts.llm.clone()).map_err(|e| RunError::Llm(e.to_string()))?;
    let listed_model = check_endpoint(&client, resumed.as_ref())?;
    let state = match resumed {
        Some(st) => resume_state(st, &trace),
        None => new_state(opts, &repo, &run_id, &trace)?,
    };
    let worktree = PathBuf::from(&state.run.worktree);
    let mut cx = Ctx {
        opts,
        progress,
        trace,
        state,
        state_path,
        trace_path,
        repo: repo.clone(),
        worktree: worktree.clone(),
        config,
        obs: Observations::open(opts.db.as_deref(), opts.no_store || opts.dry_run),
        timers: Default::default(),
        fingerprint: None,
    };
    cx.save()?;
    let exchanges = state::run_dir(&repo, &run_id).join("exchanges.jsonl");
    if let Err(e) = client.set_transcript(&exchanges) {
        tracing::warn!(%e, path = %exchanges.display(), "model exchanges not kept");
    }
    progress.on(&ProgressEvent::Phase(RunPhase::Preflight));
    let branch = (!cx.state.run.dry_run).then(|| cx.state.run.branch.clone());
    git::ensure_worktree(
        &repo,
        &worktree,
        branch.as_deref(),
        &cx.state.run.base_commit,
    )?;
    if cx.state.run.model.is_empty()
        && let Some(m) = listed_model
    {
        cx.state.run.model = m;
    }
    if cx.state.plan.is_none() {
        plan_phase(&mut cx, &client)?;
    }
    execution_phase(&mut cx, &client)?;
    critique_phase(&mut cx, &client)?;
    finish(cx)
}

/// The run `--resume` names (empty: the latest unfinished, else the latest), or `None` for a
/// new run.
pub(super) fn run_to_resume(repo: &Path, opts: &RunOptions) -> Result<Option<RunState>, RunError> {
    Ok(match &opts.resume {
        None => None,
        Some(id) if id.trim().is_empty() => Some(
            state::latest_unfinished(repo)
                .or_else(|| state::latest_run(repo))
                .ok_or_else(|| RunError::NothingToResume(repo.display().to_string()))?,
        ),
        Some(id) => Some(state::load(&state::state_path(repo, id.trim()))?),
    })
}

/// A resumed run that had already finished: its worktree is removed (when not kept) and its
/// summary returned.
pub(super) fn finish_cleanup(repo: &Path, st: &RunState, opts: &RunOptions) -> RunSummary {
    let wt = PathBuf::from(&st.run.worktree);
    if !opts.keep_worktree && wt.exists() {
        let _ = git::remove_worktree(repo, &wt);
    }
    let state_path = state::state_path(repo, &st.run.run_id);
    let trace_path = state::run_dir(repo, &st.run.run_id).join("trace.jsonl");
    let mut summary = summarize(st, &trace_path, &state_path);
    if !st.run.dry_run {
        summary.head_commit =
            git::resolve(repo, &st.run.branch).unwrap_or_else(|_| summary.head_commit.clone());
    }
    summary
}

/// Checks that the model endpoint answers when the run still needs it; returns the first model
/// it lists.
pub(super) fn check_endpoint(
    client: &BlockingClient,
    resumed: Option<&RunState>,
) -> Result<Option<String>, RunError> {
    let needs_llm = resumed.is_none_or(|st| st.plan.is_none() || st.first_unfinished().is_some());
    if !needs_llm {
        return Ok(None);
    }
    let health = client.health(Role::Worker);
    if !health.reachable {
        return Err(RunError::LlmUnreachable(format!(
            "cannot reach the LLM endpoint at {}: {}. Start an OpenAI-compatible server there, or pass --llm-url / SLOPGUARD_LLM_URL (base URL including /v1) and --model; `slopguard doctor` checks the setup.{}",
            health.url,
            health.error.unwrap_or_else(|| "no answer".into()),
            if resumed.is_some() {
                " The run state is kept: `slopguard run --resume` continues."
            } else {
                " Nothing was created."
            }
        )));
    }
    Ok(health.models.first().cloned())
}

/// The state of a resumed run, its resume counted.
pub(super) fn resume_state(mut st: RunState, trace: &Trace) -> RunState {
    st.run.resumes += 1;
    trace.emit(TraceEvent::new(
        RunPhase::Preflight.as_str(),
        "run.resume",
        json!({"resumes": st.run.resumes, "phase": st.phase, "next": st.first_unfinished()}),
    ));
    st
}

/// The state of a new run: base commit, branch (checked free and valid), worktree, and the
/// operator plan when one is given (read before anything else is created).
pub(super) fn new_state(
    opts: &RunOptions,
    repo: &Path,
    run_id: &str,
    trace: &Trace,
) -> Result<RunState, RunError> {
    let base_commit = git::resolve(repo, &opts.base)?;
    let branch = if opts.dry_run {
        String::new()
    } else {
        let b = opts
            .branch
            .clone()
            .unwrap_or_else(|| format!("slopguard/{run_id}"));
        if git::branch_exists(repo, &b) {
            return Err(RunError::Input(format!(
                "branch {b} already exists; choose another with --branch, or --resume the run that made it"
            )));
        }
        git::git(repo, &["check-ref-format", "--branch", &b])
            .map_err(|_| RunError::Input(format!("`{b}` is not a valid branch name")))?;
        b
    };
    let worktree = opts
        .worktree
        .clone()
        .unwrap_or_else(|| git::default_worktree_path(run_id));
    let operator_plan = match &opts.plan {
        PlanSource::File(p) => Some(load_plan_file(p).map_err(|e| RunError::Input(e.to_string()))?),
        PlanSource::Given(p) => Some(p.clone().normalize()),
        PlanSource::Llm => None,
    };
    let worker_cfg = opts.llm.role(Role::Worker);
    let st = RunState {
        version: STATE_VERSION,
        run: RunRecord {
            run_id: run_id.to_string(),
            repo: repo.display().to_string(),
            repo_id: slopguard_store::repo_key_of_dir(repo),
            branch,
            base: opts.base.clone(),
            base_commit,
            worktree: worktree.display().to_string(),
            dry_run: opts.dry_run,
            model: worker_cfg.model.clone(),
            llm_url: worker_cfg.base_url.clone(),
            started_ms: now_ms(),
            ..Default::default()
        },
        operator_plan,
        phase: RunPhase::Preflight,
        max_attempts: opts.max_attempts.max(1),
        ..Default::default()
    };
    trace.emit(TraceEvent::new(
        RunPhase::Preflight.as_str(),
        "run.begin",
        json!({"repo": st.run.repo, "repo_id": st.run.repo_id, "branch": st.run.branch, "base": st.run.base,
               "base_commit": st.run.base_commit, "dry_run": st.run.dry_run, "worktree": st.run.worktree}),
    ));
    Ok(st)
}

/// The end of a run: its status, the metrics after (when something landed), the worktree
/// removed, the branch deleted when nothing was committed, and the summary.
pub(super) fn finish(mut cx: Ctx<'_>) -> Result<RunSummary, RunError> {
    let opts = cx.opts;
    let count = |cx: &Ctx<'_>, wanted: &dyn Fn(SubtaskStatus) -> bool| {
        cx.state
            .run
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .filter(|s| wanted(s.status))
            .count()
    };
    let partial = count(&cx, &|s| s == SubtaskStatus::Partial);
    let landed = partial
        + count(&cx, &|s| {
            matches!(s, SubtaskStatus::Committed | SubtaskStatus::Passed)
        });
    let failed = count(&cx, &|s| s == SubtaskStatus::Failed);
    cx.state.run.unaddressed_failing_tests = unaddressed_failing_tests(
        matches!(opts.plan, PlanSource::Llm),
        cx.state.baseline.as_ref(),
        cx.state.plan.as_ref(),
    );
    let unaddressed = usize::from(!cx.state.run.unaddressed_failing_tests.is_empty());
    cx.state.run.status = run_status(landed, partial, failed + unaddressed);
    if unaddressed > 0 {
        cx.emit(
            RunPhase::Done,
            "run.failing_tests_unaddressed",
            json!({"tests": cx.state.run.unaddressed_failing_tests}),
        );
    }
    let mut metrics_after = Vec::new();
    let mut overall_after = None;
    if opts.measure_after && landed > 0 && !cx.state.run.dry_run {
        cx.progress.on(&ProgressEvent::Phase(RunPhase::Measure));
        let report = analyze(
            &cx.worktree,
            &AnalyzeOptions {
                run_toolchain: opts.analysis_toolchain,
                build_timeout: opts.dynamic.build_timeout,
                test_timeout: opts.dynamic.test_timeout,
            },
        );
        metrics_after = metric_values(&report);
        overall_after = Some(report.overall);
    }
    cx.state.phase = RunPhase::Done;
    cx.save()?;
    cx.emit(
        RunPhase::Done,
        "run.exit_clean",
        json!({"status": cx.state.run.status, "landed": landed, "failed": failed}),
    );
    cx.obs.close();
    let worktree_removed = !opts.keep_worktree && {
        let removed = git::remove_worktree(&cx.repo, &cx.worktree);
        if let Err(e) = &removed {
            tracing::warn!(%e, "worktree not removed");
        }
        removed.is_ok()
    };
    // A run that committed nothing leaves no branch behind (an empty branch says nothing).
    let branch_deleted = landed == 0
        && !cx.state.run.dry_run
        && worktree_removed
        && git::git(&cx.repo, &["branch", "-D", &cx.state.run.branch]).is_ok();
    if branch_deleted {
        cx.emit(
            RunPhase::Done,
            "run.branch_deleted",
            json!({"branch": cx.state.run.branch, "reason": "nothing was committed"}),
        );
    }
    let mut summary = summarize(&cx.state, &cx.trace_path, &cx.state_path);
    if branch_deleted {
        summary.run.branch.clear();
    }
    summary.metrics_after = metrics_after;
    summary.overall_after = overall_after;
    if !cx.state.run.dry_run && !branch_deleted {
        summary.head_commit = git::resolve(&cx.repo, &cx.state.run.branch)
            .unwrap_or_else(|_| summary.head_commit.clone());
    }
    Ok(summary)
}

/// Tests of a planned run's baseline that still fail while no subtask of the plan is about
/// them: a run that leaves its repository's failing tests alone did not finish its job, even
/// with every planned subtask landed. Empty for an operator's plan (`planned` false: it says
/// what the run is for) and a baseline whose tests could not run.
pub(super) fn unaddressed_failing_tests(
    planned: bool,
    baseline: Option<&Baseline>,
    plan: Option<&Plan>,
) -> Vec<String> {
    let Some(baseline) = baseline.filter(|b| planned && b.ran && !b.broken) else {
        return Vec::new();
    };
    let addressed = plan.is_some_and(|plan| {
        plan.tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .any(|st| is_about_failing_tests(st, &baseline.failing))
    });
    if addressed {
        return Vec::new();
    }
    baseline.failing.iter().cloned().collect()
}

/// The run's status from its subtasks: completed when none failed and none landed partly
/// (skipped ones asked nothing of the run), partial when something landed but not everything,
/// failed when nothing landed. `landed` counts the partial ones too.
pub(super) fn run_status(landed: usize, partial: usize, failed: usize) -> RunStatus {
    if failed == 0 && partial == 0 {
        RunStatus::Completed
    } else if landed > 0 {
        RunStatus::Partial
    } else {
        RunStatus::Failed
    }
}

#[cfg(test)]
mod status_tests {
    use super::*;

    #[test]
    fn a_partly_fixed_subtask_never_makes_a_completed_run() {
        assert_eq!(run_status(2, 0, 0), RunStatus::Completed);
        assert_eq!(
            run_status(0, 0, 0),
            RunStatus::Completed,
            "everything skipped"
        );
        assert_eq!(run_status(1, 1, 0), RunStatus::Partial);
        assert_eq!(run_status(1, 0, 1), RunStatus::Partial);
        assert_eq!(run_status(0, 0, 1), RunStatus::Failed);
    }

    fn plan_of(subtasks: &[(&str, &str)]) -> Plan {
        serde_json::from_value(json!({"tasks": [{"id": "T001", "title": "t", "subtasks":
            subtasks.iter().map(|(id, title)| json!({"id": id, "title": title})).collect::<Vec<_>>()}]}))
        .expect("a plan")
    }

    #[test]
    fn failing_tests_no_subtask_was_about_are_named() {
        let baseline = Baseline {
            ran: true,
            failing: ["tests/test_a.py::test_sum".to_string()].into(),
            ..Default::default()
        };
        let docs = plan_of(&[("T001-S01", "Document the parser")]);
        assert_eq!(
            unaddressed_failing_tests(true, Some(&baseline), Some(&docs)),
            vec!["tests/test_a.py::test_sum".to_string()]
        );
        assert_eq!(
            unaddressed_failing_tests(true, Some(&baseline), None),
            vec!["tests/test_a.py::test_sum".to_string()],
            "an empty plan left them too"
        );
        let about = plan_of(&[("T001-S01", "Fix test_sum in tests/test_a.py")]);
        assert!(unaddressed_failing_tests(true, Some(&baseline), Some(&about)).is_empty());
        let synthesized = plan_of(&[("T000-S01", "Fix the bug behind the failing tests")]);
        assert!(unaddressed_failing_tests(true, Some(&baseline), Some(&synthesized)).is_empty());
        assert!(
            unaddressed_failing_tests(false, Some(&baseline), Some(&docs)).is_empty(),
            "an operator's plan says what the run is for"
        );
        let broken = Baseline {
            broken: true,
            ..baseline.clone()
        };
        assert!(unaddressed_failing_tests(true, Some(&broken), Some(&docs)).is_empty());
        let all_pass = Baseline {
            failing: Default::default(),
            ..baseline
        };
        assert!(unaddressed_failing_tests(true, Some(&all_pass), Some(&docs)).is_empty());
    }
}
