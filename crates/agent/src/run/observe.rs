//! What the run records in the observation store (`store`'s adapter): after each subtask its
//! outcome ([`record_outcome`]: state, trace, progress, then [`observe_subtask`]) and, after
//! the critics, their report ([`observe_critics`]). In the pipeline: ... -> land ->
//! **observe** -> critics -> finish.

use crate::records::RunPhase;
use std::time::Instant;

use serde_json::json;
use slopguard_store::{NewObservation, Outcome};

use crate::run::summary::*;

use super::carry::SubtaskRun;
use super::context::Ctx;
use super::error::RunError;
use super::progress::ProgressEvent;

/// The critics' report as one observation in the store (agent `slopguard-critics`): the files
/// their findings name, and the findings and revisions as data, for later runs to read.
pub(super) fn observe_critics(cx: &Ctx<'_>, report: &crate::critics::CriticsReport) {
    let mut obs = NewObservation::new(
        &cx.state.run.repo_id,
        &cx.state.run.run_id,
        "slopguard-critics",
        Outcome::Success,
    );
    obs.model = (!cx.state.run.model.is_empty()).then(|| cx.state.run.model.clone());
    obs.branch = (!cx.state.run.branch.is_empty()).then(|| cx.state.run.branch.clone());
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

/// Writes the subtask's outcome into the state, the trace, the progress view and the store.
pub(super) fn record_outcome(
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
            RunPhase::Execution,
            "worker.subtask.failed",
            json!({"task_id": id.split('-').next().unwrap_or(""), "subtask_id": id, "title": run.subtask.title,
                   "file_hints": run.subtask.file_hints, "error": feedback.chars().take(2000).collect::<String>(),
                   "failure_modes": run.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>()}),
        );
    } else {
        cx.emit(
            RunPhase::Execution,
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
        RunPhase::Execution,
        "worker.subtask.timing",
        json!({"subtask_id": id, "total_ms": run.started.elapsed().as_secs_f64() * 1000.0,
               "llm_ms": run.llm_time.as_secs_f64() * 1000.0, "toolchain_ms": run.tool_time.as_secs_f64() * 1000.0,
               "overhead_ms": overhead.as_secs_f64() * 1000.0, "candidates": run.sampled,
               "parts_ms": cx.timers.borrow().iter().map(|(k, v)| (k.to_string(), json!(v.as_secs_f64() * 1000.0))).collect::<serde_json::Map<_, _>>()}),
    );
    Ok(())
}

/// One observation per subtask.
pub(super) fn observe_subtask(
    cx: &mut Ctx<'_>,
    run: &SubtaskRun,
    status: SubtaskStatus,
    commit: Option<String>,
) {
    let id = run.id.as_str();
    let mut obs = NewObservation::new(
        &cx.state.run.repo_id,
        &cx.state.run.run_id,
        "slopguard-worker",
        if status == SubtaskStatus::Failed {
            Outcome::Fail
        } else {
            Outcome::Success
        },
    );
    obs.subtask_id = Some(id.to_string());
    obs.model = (!cx.state.run.model.is_empty()).then(|| cx.state.run.model.clone());
    obs.branch = (!cx.state.run.branch.is_empty()).then(|| cx.state.run.branch.clone());
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
