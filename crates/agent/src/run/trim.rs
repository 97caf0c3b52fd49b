//! A fix that passed, trimmed to what the tests need ([`trim_fix`]): each part of the change
//! ([`worker::trim::parts`]: a line replaced, a run of lines added or removed) is put back as
//! it was in turn, and the change without it kept when the static guards pass it and the
//! tests still say every target is fixed and nothing else broke. One greedy pass of delta
//! debugging. In the pipeline: ... -> survivors: review -> dynamic judge -> **trim** -> land.
//!
//! A small model's passing fix often carries an edit nobody asked for (`return dict(row)` made
//! `return row` beside the fixed query: the tests pass both ways, the caller gets another
//! type). Nothing is trimmed that the tests need; what the tests cannot tell apart is kept as
//! it was.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::json;
use slopguard_worker as worker;

use crate::dynamic;
use crate::records::RunPhase;

use super::carry::{AttemptWork, SubtaskRun, fixed_targets};
use super::context::Ctx;
use super::error::RunError;
use super::judge::{behaviour_changed, pipeline_static_gates};
use super::progress::ProgressEvent;

/// Changes with more parts than this are not trimmed: each part costs one run of the tests.
pub(super) const MAX_PARTS: usize = 6;

/// Whether a change of `parts` parts is worth trying without each, with `left` of the
/// subtask's budget and tests that took `tests` to run: at least two parts (one part is the
/// fix), at most [`MAX_PARTS`], and time for every try twice over.
pub(super) fn worth_trimming(parts: usize, left: Duration, tests: Duration) -> bool {
    (2..=MAX_PARTS).contains(&parts) && left > tests * (2 * parts as u32)
}

/// Survivor `i`, written in the worktree with its report `dynr` after it passed every gate
/// and fixed every target: the same change without the parts the tests do not need. The
/// survivor's change is replaced by the trimmed one, which is what is written on return.
pub(super) fn trim_fix(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
    i: usize,
    written: dynamic::Written,
    dynr: dynamic::DynamicReport,
) -> Result<(dynamic::Written, dynamic::DynamicReport), RunError> {
    // Only the failing tests can say a part is not needed: without them nothing is trimmed.
    if run.targets.is_empty() || dynr.tests.is_none() {
        return Ok((written, dynr));
    }
    let change = work.survivors[i].applied.change.clone();
    let parts = worker::trim::parts(&change);
    let left = run.budget.saturating_sub(run.started.elapsed());
    if !worth_trimming(parts.len(), left, dynr.elapsed) {
        return Ok((written, dynr));
    }
    let (mut written, mut dynr) = (written, dynr);
    let mut undone: BTreeSet<usize> = BTreeSet::new();
    let mut kept = change.clone();
    for k in 0..parts.len() {
        let mut trying = undone.clone();
        trying.insert(k);
        let Some(trial) = worker::trim::without(&change, &parts, &trying) else {
            continue;
        };
        let report = worker::static_guards(
            &trial,
            &run.guard_task,
            &cx.config,
            run.fingerprint.as_ref(),
        );
        if report.blocked() || pipeline_static_gates(run, &trial).is_some() {
            continue;
        }
        written.revert()?;
        let tried = dynamic::write_change(&cx.worktree, &trial)?;
        let result =
            dynamic::run_dynamic(&cx.worktree, cx.state.baseline.as_ref(), &cx.opts.dynamic);
        work.tool += result.elapsed;
        let fixes_all = fixed_targets(&run.targets, result.tests.as_ref()) == run.targets.len();
        let same_behaviour = fixes_all
            && !result.blocked()
            && (run.spectrum.is_none()
                || behaviour_changed(cx, run, &trial, &mut work.tool).is_none());
        if same_behaviour {
            undone = trying;
            kept = trial;
            written = tried;
            dynr = result;
        } else {
            tried.revert()?;
            written = dynamic::write_change(&cx.worktree, &kept)?;
        }
    }
    if !undone.is_empty() {
        let dropped = undone.len();
        cx.emit(
            RunPhase::Execution,
            "worker.candidate.trimmed",
            json!({"subtask_id": run.id, "attempt": attempt, "parts": parts.len(),
                   "undone": dropped}),
        );
        cx.progress.on(&ProgressEvent::Candidate(format!(
            "{} attempt {attempt}: {dropped} of the fix's {} changed parts were not needed by the tests; the fix lands without them",
            run.id,
            parts.len()
        )));
        work.survivors[i].applied.change = kept;
    }
    Ok((written, dynr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changes_of_a_few_parts_with_time_left_are_trimmed() {
        let s = Duration::from_secs;
        assert!(!worth_trimming(1, s(300), s(1)));
        assert!(worth_trimming(2, s(300), s(1)));
        assert!(worth_trimming(MAX_PARTS, s(300), s(1)));
        assert!(!worth_trimming(MAX_PARTS + 1, s(300), s(1)));
        // Two parts, 40 s tests: four runs of the tests must fit.
        assert!(!worth_trimming(2, s(150), s(40)));
        assert!(worth_trimming(2, s(170), s(40)));
    }
}
