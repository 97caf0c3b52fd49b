//! The critics of a run: [`critique_phase`], the critique phase over the branch once every
//! subtask is final (`crate::critics`), and [`critique_attempt`], the continuous critic after
//! each attempt (`gates::step_critic`), whose note the next attempt hears. In the pipeline:
//! ... -> land -> observe -> **critics** -> finish.

use crate::records::RunPhase;
use slopguard_llm::BlockingClient;

use crate::dynamic;
use crate::gates::{self};
use crate::run::summary::*;

use super::carry::AttemptEnd;
use super::carry::SubtaskRun;
use super::context::Ctx;
use super::context::advance_baseline;
use super::error::RunError;
use super::observe::observe_critics;

/// The critics (`crate::critics`) over the branch, once every subtask is final: when one is
/// on, something landed, and this is not a dry run. A revision they keep is a commit on the
/// branch; the test baseline follows it. Skipped on resume when it already ran.
pub(super) fn critique_phase(cx: &mut Ctx<'_>, client: &BlockingClient) -> Result<(), RunError> {
    let mut cfg =
        crate::critics::CriticsConfig::from_toml(&cx.config.raw).map_err(RunError::Input)?;
    if let Some(list) = &cx.opts.critics {
        cfg.enable(list).map_err(RunError::Input)?;
    }
    let landed = cx
        .state
        .run
        .tasks
        .iter()
        .flat_map(|t| t.subtasks.iter())
        .filter(|s| s.status == SubtaskStatus::Committed)
        .map(|s| s.title.clone())
        .collect::<Vec<_>>();
    if !cfg.any() || landed.is_empty() || cx.state.run.dry_run || cx.state.run.critics.is_some() {
        return Ok(());
    }
    cx.phase(RunPhase::Critique)?;
    let mut report = crate::critics::CriticsReport::default();
    let baseline = cx.state.baseline.clone();
    let ws = crate::critics::Workspace {
        worktree: &cx.worktree,
        base_commit: &cx.state.run.base_commit,
        baseline: baseline.as_ref(),
        dynamic: &cx.opts.dynamic,
        guards: &cx.config,
        fingerprint: cx.fingerprint.as_ref(),
        task: landed.join("; "),
    };
    let mut models = crate::critics::Models::new(client, &cx.opts.llm, &cfg, &mut report)
        .map_err(RunError::Input)?;
    let emit = |event: &str, data: serde_json::Value| cx.emit(RunPhase::Critique, event, data);
    crate::critics::critique(&ws, &cfg, &mut models, &emit)?;
    // A kept revision's tests are the branch head's: the baseline follows them.
    if let Some(tests) = models.take_kept_tests() {
        advance_baseline(cx, dynamic::baseline_of(&tests));
    }
    drop(models);
    observe_critics(cx, &report);
    cx.state.run.critics = Some(report);
    cx.save()
}

/// The continuous critic on one attempt, when it is on (`gates::step_critic::review_attempt`):
/// emits its trace event, keeps a 60-79 finding for the self-review and returns the line the
/// next attempt hears (often empty).
pub(super) fn critique_attempt(
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
    cx.emit(RunPhase::Execution, "critic.review", review.data);
    cx.state.run.self_review.extend(review.kept);
    review.note
}
