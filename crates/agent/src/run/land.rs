//! Landing the winning candidate ([`land`]: commit, or revert in a dry run; the baseline
//! advances), whether a path is a manifest ([`is_manifest`]: the fingerprint is computed
//! again), and the attempt's record ([`finish_attempt`]). In the pipeline: ... -> proof ->
//! **land** -> observe -> critics -> finish.

use crate::records::RunPhase;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_store::FailureMode;

use crate::dynamic;
use crate::git;
use crate::run::summary::*;
use slopguard_worker as worker;

use super::carry::still_failing_targets;
use super::carry::{AttemptEnd, AttemptWork};
use super::carry::{SubtaskRun, push_mode};
use super::context::Ctx;
use super::context::advance_baseline;
use super::error::RunError;

/// Where the landed fix came from, for the commit's body: a repair template and an infill
/// are found before (or between) the model's chat candidates, so "chosen among 0
/// candidates" would misreport them.
fn chosen_from(format: worker::reply::ReplyFormat, considered: u32) -> String {
    match format {
        worker::reply::ReplyFormat::Template => {
            "Found by a repair template (no model reply).".into()
        }
        worker::reply::ReplyFormat::Infill => {
            "Written by the model filling in the statement (infill).".into()
        }
        _ => format!("Chosen among {considered} candidate(s)."),
    }
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
            RunPhase::Execution,
            "critic_build_retry.success",
            json!({"subtask_id": id, "attempt": attempt}),
        );
    }
    cx.emit(
        RunPhase::Execution,
        "worker.candidate.chosen",
        json!({"subtask_id": id, "attempt": attempt, "format": applied.format.name(),
               "matchers": applied.matchers, "beat": considered.saturating_sub(1)}),
    );
    let paths = written.paths();
    // The subject says what changed, from the diff: a model's first line is often stray
    // (`files changed`), and the subtask's title names the failing tests, not the fix.
    let commit_title =
        worker::subject::commit_subject(&applied.change, applied.change.message.as_deref())
            .unwrap_or_else(|| run.subtask.title.clone());
    let still_failing = still_failing_targets(&run.targets, dynr.tests.as_ref());
    let status = if cx.state.run.dry_run {
        written.revert()?;
        record.outcome = AttemptOutcome::Passed;
        (SubtaskStatus::Passed, None)
    } else {
        let why = format!(
            "Subtask {id} of task \"{}\": {}{}\nGuards passed: {}.\n{}",
            run.task_title,
            run.subtask.title,
            if run.subtask.description.trim().is_empty() {
                String::new()
            } else {
                format!("\n{}", run.subtask.description.trim())
            },
            activity
                .iter()
                .filter(|a| a.attempt == attempt && a.status == ActivityStatus::Passed)
                .map(|a| a.guard.as_str())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", "),
            chosen_from(applied.format, considered)
        );
        let msg = git::commit_message(&commit_title, &why, &paths, &id, &cx.state.run.run_id);
        let t_git = Instant::now();
        let committed = git::commit_paths(&cx.worktree, &paths, &msg);
        cx.time("git_commit", t_git);
        match committed {
            Ok(c) => {
                if paths.iter().any(|p| is_manifest(p)) {
                    cx.fingerprint = None;
                }
                record.outcome = AttemptOutcome::Committed;
                if still_failing.is_empty() {
                    (SubtaskStatus::Committed, Some(c))
                } else {
                    (SubtaskStatus::Partial, Some(c))
                }
            }
            Err(e) => {
                written.revert()?;
                push_mode(&mut run.modes, FailureMode::GitRefused);
                let feedback = format!("- [git] the commit failed: {e}");
                activity.push(GuardActivity::apply_blocked(attempt, "git", e.to_string()));
                record.outcome = AttemptOutcome::GitError;
                finish_attempt(
                    cx, &id, record, activity, &feedback, att_start, att_llm, att_tool,
                );
                return Ok(AttemptEnd::Rejected(feedback));
            }
        }
    };
    // The baseline advances with what landed: fixed tests leave the failing set. A dry run
    // reverted the change, so the tree (and its failing tests) are as before.
    if let Some(t) = dynr.tests.as_ref().filter(|_| !cx.state.run.dry_run) {
        advance_baseline(cx, dynamic::baseline_of(t));
    }
    if let Some(s) = cx.state.subtask_mut(&id) {
        s.candidates_beaten = Some(considered.saturating_sub(1));
        s.fix_source = Some(applied.format.name().to_string());
        s.still_failing = still_failing;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_by_file_name() {
        for p in [
            "Cargo.toml",
            "crates/a/Cargo.toml",
            "web/package.json",
            "pyproject.toml",
            "go.mod",
            "setup.py",
            "setup.cfg",
            "Pipfile",
            "Gemfile",
            "requirements.txt",
            "deps/requirements-dev.in",
        ] {
            assert!(is_manifest(p), "{p}");
        }
        for p in [
            "src/lib.rs",
            "Cargo.lock",
            "go.sum",
            "docs/Cargo.toml.md",
            "my_requirements.txt",
        ] {
            assert!(!is_manifest(p), "{p}");
        }
    }
}
