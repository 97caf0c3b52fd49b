//! The execution loop of `slopguard run`: pre-flight, analysis, planning, and per subtask the
//! guarded worker (prompt, model, change, static guards, write, dynamic guards, commit or
//! revert and retry), with the state persisted after every step so `--resume` continues at the
//! first unfinished subtask.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_guards::Config;
use slopguard_llm::{BlockingClient, Role, Sampling};
use slopguard_store::{FailureMode, NewObservation, Outcome, Store};

use crate::analysis::{AnalysisReport, AnalyzeOptions, analyze};
use crate::dynamic::{self, Verdict};
use crate::git;
use crate::plan::pipeline::{self, PlanError, PlanRequest};
use crate::plan::post::{is_about_failing_tests, tests_named_by};
use crate::plan::{Plan, Subtask, load_plan_file, memory};
use crate::run::candidates::{self, Reached};
use crate::run::proof;
use crate::run::summary::*;
use crate::state::{self, Baseline, RepoLock, RunState, STATE_VERSION};
use crate::trace::{Trace, TraceEvent, now_ms};
use crate::worker::fault_line::{self, FaultLine};
use crate::worker::{self, context, context::FailureContext, prompt};

use super::error::RunError;
use super::options::{PlanSource, RunOptions};
use super::progress::{Progress, ProgressEvent};

use crate::gates::{self, Phase};
pub use crate::gates::{fail_event, failure_mode};

/// Records observations in the store, fail-open.
struct Observations {
    rt: Option<tokio::runtime::Runtime>,
    store: Option<Store>,
}

impl Observations {
    fn open(db: Option<&str>, disabled: bool) -> Self {
        if disabled {
            return Self {
                rt: None,
                store: None,
            };
        }
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return Self {
                rt: None,
                store: None,
            };
        };
        let store = rt.block_on(async {
            let r = match db {
                Some(u) if !u.trim().is_empty() => Store::open(u.trim()).await,
                _ => Store::open_default().await,
            };
            match r {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::warn!(%e, "store unavailable; observations not recorded");
                    None
                }
            }
        });
        Self {
            rt: Some(rt),
            store,
        }
    }

    fn record(&self, obs: &NewObservation) -> Option<i64> {
        let (Some(rt), Some(store)) = (&self.rt, &self.store) else {
            return None;
        };
        rt.block_on(store.record_observation(obs))
            .map_err(|e| tracing::warn!(%e, "observation not recorded"))
            .ok()
    }

    fn close(&self) {
        if let (Some(rt), Some(store)) = (&self.rt, &self.store) {
            rt.block_on(store.close());
        }
    }
}

fn metric_values(report: &AnalysisReport) -> Vec<MetricValue> {
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

/// The summary of a state.
pub fn summarize(st: &RunState, trace_path: &Path, state_path: &Path) -> RunSummary {
    RunSummary {
        run: st.run.clone(),
        head_commit: st
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .filter_map(|s| s.commit.clone())
            .next_back()
            .unwrap_or_else(|| st.base_commit.clone()),
        metrics_after: Vec::new(),
        overall_after: None,
        finished_ms: now_ms(),
        trace_path: trace_path.display().to_string(),
        state_path: state_path.display().to_string(),
    }
}

struct Ctx<'a> {
    opts: &'a RunOptions,
    progress: &'a dyn Progress,
    trace: Trace,
    state: RunState,
    state_path: PathBuf,
    trace_path: PathBuf,
    repo: PathBuf,
    worktree: PathBuf,
    config: Config,
    obs: Observations,
    /// Time per pipeline part (for the overhead breakdown).
    timers: std::cell::RefCell<std::collections::BTreeMap<&'static str, Duration>>,
    /// The fingerprint, computed once and refreshed when a landed change touches a manifest.
    fingerprint: Option<slopguard_fingerprint::Fingerprint>,
}

impl Ctx<'_> {
    fn save(&self) -> Result<(), RunError> {
        let t = Instant::now();
        state::save(&self.state_path, &self.state)?;
        self.time("state", t);
        Ok(())
    }

    fn time(&self, part: &'static str, since: Instant) {
        if let Ok(mut m) = self.timers.try_borrow_mut() {
            *m.entry(part).or_default() += since.elapsed();
        }
    }

    fn emit(&self, phase: &str, event: &str, data: serde_json::Value) {
        self.trace.emit(TraceEvent::new(phase, event, data));
    }

    fn phase(&mut self, phase: &'static str) -> Result<(), RunError> {
        self.progress.on(&ProgressEvent::Phase(phase));
        self.state.phase = phase.to_string();
        self.emit(phase, "run.phase", json!({"phase": phase}));
        self.save()
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
        .map(|s| s.run_id.clone())
        .unwrap_or_else(state::new_run_id);
    let (_lock, stale) = RepoLock::acquire(&repo, &run_id)?;
    // Resuming a run that already finished (killed during its clean-up): finish the clean-up
    // and report it.
    if let Some(st) = resumed.as_ref().filter(|s| s.phase == "done") {
        return Ok(finish_cleanup(&repo, st, opts));
    }
    git::exclude_slopguard_dir(&repo)?;
    let state_path = state::state_path(&repo, &run_id);
    let trace_path = state::run_dir(&repo, &run_id).join("trace.jsonl");
    let trace = Trace::new(&run_id).with_file(&trace_path);
    if let Some(pid) = stale {
        trace.emit(TraceEvent::new(
            "preflight",
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
    let worktree = PathBuf::from(&state.worktree);
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
    progress.on(&ProgressEvent::Phase("preflight"));
    let branch = (!cx.state.dry_run).then(|| cx.state.branch.clone());
    git::ensure_worktree(&repo, &worktree, branch.as_deref(), &cx.state.base_commit)?;
    if cx.state.model.is_empty()
        && let Some(m) = listed_model
    {
        cx.state.model = m;
    }
    if cx.state.plan.is_none() {
        plan_phase(&mut cx, &client)?;
    }
    execution_phase(&mut cx, &client)?;
    critique_phase(&mut cx, &client)?;
    finish(cx)
}

/// The critics (`crate::critics`) over the branch, once every subtask is final: when one is
/// on, something landed, and this is not a dry run. A revision they keep is a commit on the
/// branch; the test baseline follows it. Skipped on resume when it already ran.
fn critique_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
    let mut cfg =
        crate::critics::CriticsConfig::from_toml(&cx.config.raw).map_err(RunError::Input)?;
    if let Some(list) = &cx.opts.critics {
        cfg.enable(list).map_err(RunError::Input)?;
    }
    let landed = cx
        .state
        .tasks
        .iter()
        .flat_map(|t| t.subtasks.iter())
        .filter(|s| s.status == SubtaskStatus::Committed)
        .map(|s| s.title.clone())
        .collect::<Vec<_>>();
    if !cfg.any() || landed.is_empty() || cx.state.dry_run || cx.state.critics.is_some() {
        return Ok(());
    }
    cx.phase("critique")?;
    let mut report = crate::critics::CriticsReport::default();
    let baseline = cx.state.baseline.clone();
    let ws = crate::critics::Workspace {
        worktree: &cx.worktree,
        base_commit: &cx.state.base_commit,
        baseline: baseline.as_ref(),
        dynamic: &cx.opts.dynamic,
        guards: &cx.config,
        fingerprint: cx.fingerprint.as_ref(),
        task: landed.join("; "),
    };
    let mut models = crate::critics::Models::new(client, &cx.opts.llm, &cfg, &mut report)
        .map_err(RunError::Input)?;
    let emit = |event: &str, data: serde_json::Value| cx.emit("critique", event, data);
    crate::critics::critique(&ws, &cfg, &mut models, &emit)?;
    // A kept revision's tests are the branch head's: the baseline follows them.
    if let Some(tests) = models.take_kept_tests() {
        advance_baseline(cx, dynamic::baseline_of(&tests));
    }
    drop(models);
    observe_critics(cx, &report);
    cx.state.critics = Some(report);
    cx.save()
}

/// The critics' report as one observation in the store (agent `slopguard-critics`): the files
/// their findings name, and the findings and revisions as data, for later runs to read.
fn observe_critics(cx: &Ctx<'_>, report: &crate::critics::CriticsReport) {
    let mut obs = NewObservation::new(
        &cx.state.repo_id,
        &cx.state.run_id,
        "slopguard-critics",
        Outcome::Success,
    );
    obs.model = (!cx.state.model.is_empty()).then(|| cx.state.model.clone());
    obs.branch = (!cx.state.branch.is_empty()).then(|| cx.state.branch.clone());
    let mut files: Vec<String> = report
        .findings
        .iter()
        .filter_map(|f| f.file.clone())
        .collect();
    files.sort();
    files.dedup();
    obs.touched_files = files;
    obs.extra = serde_json::to_value(report).ok();
    cx.obs.record(&obs);
}

/// The run `--resume` names (empty: the latest unfinished, else the latest), or `None` for a
/// new run.
fn run_to_resume(repo: &Path, opts: &RunOptions) -> Result<Option<RunState>, RunError> {
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
fn finish_cleanup(repo: &Path, st: &RunState, opts: &RunOptions) -> RunSummary {
    let wt = PathBuf::from(&st.worktree);
    if !opts.keep_worktree && wt.exists() {
        let _ = git::remove_worktree(repo, &wt);
    }
    let state_path = state::state_path(repo, &st.run_id);
    let trace_path = state::run_dir(repo, &st.run_id).join("trace.jsonl");
    let mut summary = summarize(st, &trace_path, &state_path);
    if !st.dry_run {
        summary.head_commit =
            git::resolve(repo, &st.branch).unwrap_or_else(|_| summary.head_commit.clone());
    }
    summary
}

/// Checks that the model endpoint answers when the run still needs it; returns the first model
/// it lists.
fn check_endpoint(
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
fn resume_state(mut st: RunState, trace: &Trace) -> RunState {
    st.resumes += 1;
    trace.emit(TraceEvent::new(
        "preflight",
        "run.resume",
        json!({"resumes": st.resumes, "phase": st.phase, "next": st.first_unfinished()}),
    ));
    st
}

/// The state of a new run: base commit, branch (checked free and valid), worktree, and the
/// operator plan when one is given (read before anything else is created).
fn new_state(
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
            repo_id: memory::repo_id(repo),
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
        phase: "preflight".into(),
        max_attempts: opts.max_attempts.max(1),
        ..Default::default()
    };
    trace.emit(TraceEvent::new(
        "preflight",
        "run.begin",
        json!({"repo": st.repo, "repo_id": st.repo_id, "branch": st.branch, "base": st.base,
               "base_commit": st.base_commit, "dry_run": st.dry_run, "worktree": st.worktree}),
    ));
    Ok(st)
}

/// The execution phase: every unfinished subtask in plan order; once the run budget is spent,
/// only the subtasks behind failing tests still run.
fn execution_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
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

/// The end of a run: its status, the metrics after (when something landed), the worktree
/// removed, the branch deleted when nothing was committed, and the summary.
fn finish(mut cx: Ctx<'_>) -> Result<RunSummary, RunError> {
    let opts = cx.opts;
    let count = |cx: &Ctx<'_>, wanted: &dyn Fn(SubtaskStatus) -> bool| {
        cx.state
            .tasks
            .iter()
            .flat_map(|t| t.subtasks.iter())
            .filter(|s| wanted(s.status))
            .count()
    };
    let landed = count(&cx, &|s| {
        matches!(s, SubtaskStatus::Committed | SubtaskStatus::Passed)
    });
    let failed = count(&cx, &|s| s == SubtaskStatus::Failed);
    cx.state.status = if failed == 0 {
        RunStatus::Completed
    } else if landed > 0 {
        RunStatus::Partial
    } else {
        RunStatus::Failed
    };
    let mut metrics_after = Vec::new();
    let mut overall_after = None;
    if opts.measure_after && landed > 0 && !cx.state.dry_run {
        cx.progress.on(&ProgressEvent::Phase("measure"));
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
    cx.state.phase = "done".into();
    cx.save()?;
    cx.emit(
        "done",
        "run.exit_clean",
        json!({"status": cx.state.status, "landed": landed, "failed": failed}),
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
        && !cx.state.dry_run
        && worktree_removed
        && git::git(&cx.repo, &["branch", "-D", &cx.state.branch]).is_ok();
    if branch_deleted {
        cx.emit(
            "done",
            "run.branch_deleted",
            json!({"branch": cx.state.branch, "reason": "nothing was committed"}),
        );
    }
    let mut summary = summarize(&cx.state, &cx.trace_path, &cx.state_path);
    if branch_deleted {
        summary.branch.clear();
    }
    summary.metrics_after = metrics_after;
    summary.overall_after = overall_after;
    if !cx.state.dry_run && !branch_deleted {
        summary.head_commit = git::resolve(&cx.repo, &cx.state.branch)
            .unwrap_or_else(|_| summary.head_commit.clone());
    }
    Ok(summary)
}

/// The client's running token totals over all roles (prompt, completion). The run's tally
/// takes the difference around each call, so replies that were cut off, unusable or followed
/// by correction turns count as well as the one that was used.
fn tokens_spent(client: &BlockingClient) -> (u64, u64) {
    client.usage().values().fold((0, 0), |(p, c), u| {
        (p + u.prompt_tokens, c + u.completion_tokens)
    })
}

/// The analysis and planning phases: the plan pipeline shared with `slopguard plan`, with the
/// metrics, tokens and plan kept in the run state.
fn plan_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
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
fn reconcile(cx: &mut Ctx<'_>) -> Result<(), RunError> {
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
fn advance_baseline(cx: &mut Ctx<'_>, next: Baseline) {
    cx.state.baseline = Some(match cx.state.baseline.as_ref() {
        Some(old) => old.advanced_to(next),
        None => next,
    });
}

/// The tests subtask `id` is about that an earlier landed subtask fixed, when none of the
/// tests it is about still fails: the planner often makes one subtask per failing test, and
/// one fix makes several pass. Such a subtask has nothing left to do; asked anyway, the model
/// rewrites working code. Empty when the subtask still has work (or is about no test).
fn fixed_by_earlier_subtask(cx: &Ctx<'_>, id: &str) -> Vec<String> {
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
fn skip_already_fixed(cx: &mut Ctx<'_>, id: &str, tests: &[String]) -> Result<(), RunError> {
    let why = format!(
        "skipped: the tests it is about pass since an earlier subtask landed ({})",
        tests.join(", ")
    );
    let data = json!({"subtask_id": id, "reason": "its tests already pass", "tests": tests});
    skip_subtask(cx, id, why, data)
}

/// Marks subtask `id` skipped with `why` (its error line) and the trace event's `data`.
fn skip_subtask(
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
fn subtask_is_about_failing_tests(cx: &Ctx<'_>, id: &str) -> bool {
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
fn skip_for_budget(cx: &mut Ctx<'_>, id: &str) -> Result<(), RunError> {
    let budget = cx.opts.run_budget.unwrap_or_default().as_secs();
    let why = format!("skipped: the run's time budget ({budget} s) was spent");
    let data = json!({"subtask_id": id, "reason": "run budget spent", "budget_s": budget});
    skip_subtask(cx, id, why, data)
}

fn find_subtask(plan: &Plan, id: &str) -> Option<(String, Subtask)> {
    plan.tasks.iter().find_map(|t| {
        t.subtasks
            .iter()
            .find(|s| s.id == id)
            .map(|s| (t.title.clone(), s.clone()))
    })
}

/// What one subtask carries from attempt to attempt.
struct SubtaskRun {
    id: String,
    task_title: String,
    subtask: Subtask,
    guard_task: slopguard_change::Task,
    fingerprint: Option<slopguard_fingerprint::Fingerprint>,
    /// Baseline failing tests this subtask is behind (empty: only "no regression" counts).
    targets: BTreeSet<String>,
    /// Their output and source, for the prompt.
    failure: Option<FailureContext>,
    /// The one definition they point at, when there is one.
    function: Option<prompt::FunctionTarget>,
    /// The statement of the files to change where they break, when a frame names one.
    fault_line: Option<FaultLine>,
    /// When no frame names a statement: the statements of `function`, each offered alone.
    suspects: Vec<FaultLine>,
    modes: Vec<FailureMode>,
    started: Instant,
    /// Wall-clock budget: no attempt or candidate starts after it.
    budget: Duration,
    llm_time: Duration,
    tool_time: Duration,
    /// Candidates sampled so far, over all attempts.
    sampled: u32,
    dynamic_failed_before: bool,
    /// The candidate that fixed the most targets (not all) in an earlier attempt: it competes
    /// again with the next attempt's candidates, and lands at the last attempt if none of
    /// them fixes every target ([`evaluate_survivors`]).
    carried: Option<Survivor>,
}

/// How an attempt ended.
enum AttemptEnd {
    /// A candidate landed: (status, commit, touched paths, commit title).
    Landed(SubtaskStatus, Option<String>, Vec<String>, String),
    /// Every candidate was rejected; the feedback for the next attempt.
    Rejected(String),
}

/// A candidate that passed the static gates, waiting for the toolchain.
struct Survivor {
    index: u32,
    applied: worker::AppliedReply,
    key: String,
    votes: u32,
    size: usize,
}

/// A rejected candidate: how far it got and what the next attempt should hear about it.
/// Why a candidate was turned down: how far it got, the gates that refused it, and the
/// feedback its attempt's retry hears.
struct Refused {
    reached: Reached,
    feedback: String,
}

/// Runs one subtask: attempts until a candidate lands, the attempts run out or `budget` (its
/// wall-clock time) is spent. `position` is (index, total) in the plan.
fn run_subtask(
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

/// The continuous critic on one attempt, when it is on (`gates::step_critic::review_attempt`):
/// emits its trace event, keeps a 60-79 finding for the self-review and returns the line the
/// next attempt hears (often empty).
fn critique_attempt(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &SubtaskRun,
    attempt: u32,
    end: &AttemptEnd,
    next_step: bool,
) -> String {
    if !cx.opts.step_critic {
        return String::new();
    }
    let outcome = match end {
        AttemptEnd::Landed(_, commit, ..) => gates::step_critic::Attempt::Landed {
            worktree: &cx.worktree,
            commit: commit.as_deref(),
        },
        AttemptEnd::Rejected(f) => gates::step_critic::Attempt::Refused(f),
    };
    let review = gates::step_critic::review_attempt(
        client,
        &run.id,
        &run.subtask,
        attempt,
        outcome,
        next_step,
    );
    cx.emit("execution", "critic.review", review.data);
    cx.state.run.self_review.extend(review.kept);
    review.note
}

fn announce_subtask(cx: &mut Ctx<'_>, index: usize, total: usize, id: &str, subtask: &Subtask) {
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
fn ensure_baseline(cx: &mut Ctx<'_>) -> Result<Duration, RunError> {
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
fn attach_failure_context(cx: &Ctx<'_>, run: &mut SubtaskRun) {
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
const MAX_SUSPECTS: usize = 4;

/// Characters of failing-test output shown to the worker.
const FAILURE_OUTPUT_CHARS: usize = 1800;

/// What one attempt collects while its candidates are sampled and judged.
struct AttemptWork {
    start: Instant,
    record: AttemptRecord,
    activity: Vec<GuardActivity>,
    rejections: Vec<Refused>,
    survivors: Vec<Survivor>,
    llm: Duration,
    tool: Duration,
}

fn run_attempt(
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

fn fixed_count(count: candidates::CandidateCount) -> u32 {
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
fn attempt_prompts(
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
fn function_target(
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
fn sample_candidate(
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
fn keep_survivor(
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
fn evaluate_survivors(
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
const CARRY_MARGIN: Duration = Duration::from_secs(30);

/// Whether a partial fix waits for the next attempt instead of landing now: an attempt is left
/// and the budget leaves room for it. A partial fix that lands ends the subtask; the run's
/// other failing tests then rest on later subtasks, and small models fill that gap with
/// answers that satisfy one test and nothing else.
fn carries_to_next_attempt(cx: &Ctx<'_>, run: &SubtaskRun, attempt: u32) -> bool {
    attempt < cx.state.max_attempts.max(1)
        && run.budget.saturating_sub(run.started.elapsed()) >= CARRY_MARGIN
}

/// Targets (baseline failing tests) that pass in `now`.
fn fixed_targets(targets: &BTreeSet<String>, now: Option<&slopguard_toolchain::TestRun>) -> usize {
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
fn prove_candidate(
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
fn refuse_proof(
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

fn review_candidate(
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
fn still_failing(
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
fn record_rejections(
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
fn judge_statically(
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
fn judge_dynamically(
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
struct CandidateLine {
    attempt: u32,
    index: u32,
    sampling: Sampling,
    took: Duration,
    completion_tokens: u64,
}

/// One progress line and one attempt-log line for a sampled candidate.
fn candidate_line(
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
fn land(
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
fn is_manifest(p: &str) -> bool {
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

/// Writes the subtask's outcome into the state, the trace, the progress view and the store.
fn record_outcome(
    cx: &mut Ctx<'_>,
    run: &SubtaskRun,
    outcome: Option<(SubtaskStatus, Option<String>, Vec<String>, String)>,
    feedback: &str,
    max: u32,
) -> Result<(), RunError> {
    let id = run.id.as_str();
    let (status, commit, touched, title) =
        outcome.unwrap_or((SubtaskStatus::Failed, None, Vec::new(), String::new()));
    if let Some(s) = cx.state.subtask_mut(id) {
        s.status = status;
        s.commit = commit.clone();
        s.candidates = run.sampled;
        if !title.is_empty() {
            s.commit_title = Some(title.lines().next().unwrap_or("").to_string());
        }
        if !touched.is_empty() {
            s.touched_files = touched.clone();
        } else if let Some(last) = s.attempt_log.last() {
            s.touched_files = last.touched.clone();
        }
        if status == SubtaskStatus::Failed {
            s.failure_modes = run.modes.iter().map(|m| m.as_str().to_string()).collect();
            s.error = Some(format!(
                "failed after {} attempt(s); last findings:\n{}",
                s.attempts.clamp(1, max),
                if feedback.trim().is_empty() {
                    "(none recorded)"
                } else {
                    feedback.trim()
                }
            ));
        }
    }
    cx.save()?;
    if status == SubtaskStatus::Failed {
        cx.emit(
            "execution",
            "worker.subtask.failed",
            json!({"task_id": id.split('-').next().unwrap_or(""), "subtask_id": id, "title": run.subtask.title,
                   "file_hints": run.subtask.file_hints, "error": feedback.chars().take(2000).collect::<String>(),
                   "failure_modes": run.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>()}),
        );
    } else {
        cx.emit(
            "execution",
            if commit.is_some() {
                "worker.subtask.committed"
            } else {
                "worker.subtask.passed"
            },
            json!({"subtask_id": id, "commit": commit, "files": touched}),
        );
    }
    cx.progress.on(&ProgressEvent::SubtaskEnd {
        id: id.to_string(),
        status,
        commit: commit.clone(),
    });
    observe_subtask(cx, run, status, commit);
    let overhead = run
        .started
        .elapsed()
        .saturating_sub(run.llm_time)
        .saturating_sub(run.tool_time);
    cx.emit(
        "execution",
        "worker.subtask.timing",
        json!({"subtask_id": id, "total_ms": run.started.elapsed().as_secs_f64() * 1000.0,
               "llm_ms": run.llm_time.as_secs_f64() * 1000.0, "toolchain_ms": run.tool_time.as_secs_f64() * 1000.0,
               "overhead_ms": overhead.as_secs_f64() * 1000.0, "candidates": run.sampled,
               "parts_ms": cx.timers.borrow().iter().map(|(k, v)| (k.to_string(), json!(v.as_secs_f64() * 1000.0))).collect::<serde_json::Map<_, _>>()}),
    );
    Ok(())
}

/// One observation per subtask.
fn observe_subtask(
    cx: &mut Ctx<'_>,
    run: &SubtaskRun,
    status: SubtaskStatus,
    commit: Option<String>,
) {
    let id = run.id.as_str();
    let mut obs = NewObservation::new(
        &cx.state.repo_id,
        &cx.state.run_id,
        "slopguard-worker",
        if status == SubtaskStatus::Failed {
            Outcome::Fail
        } else {
            Outcome::Success
        },
    );
    obs.subtask_id = Some(id.to_string());
    obs.model = (!cx.state.model.is_empty()).then(|| cx.state.model.clone());
    obs.branch = (!cx.state.branch.is_empty()).then(|| cx.state.branch.clone());
    obs.commit_sha = commit;
    obs.touched_files = cx
        .state
        .subtask_mut(id)
        .map(|s| s.touched_files.clone())
        .unwrap_or_default();
    if obs.touched_files.is_empty() {
        obs.touched_files = run.subtask.file_hints.clone();
    }
    obs.failure_modes = if status == SubtaskStatus::Failed {
        run.modes.clone()
    } else {
        Vec::new()
    };
    obs.extra = Some(
        json!({"attempts": cx.state.subtask_mut(id).map(|s| s.attempts), "candidates": run.sampled}),
    );
    let t_store = Instant::now();
    if cx.obs.record(&obs).is_some()
        && let Some(s) = cx.state.subtask_mut(id)
    {
        // Persisted with the next state write; a crash before it records the observation
        // again on resume (at least once, never lost).
        s.observed = true;
    }
    cx.time("store", t_store);
}

fn push_mode(modes: &mut Vec<FailureMode>, m: FailureMode) {
    if !modes.contains(&m) {
        modes.push(m);
    }
}

#[allow(clippy::too_many_arguments)]
fn finish_attempt(
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

/// Reads a baseline (for tests and tools).
pub fn baseline_of_state(st: &RunState) -> Option<&Baseline> {
    st.baseline.as_ref()
}
