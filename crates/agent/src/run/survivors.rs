//! The candidates that passed the static judge ([`Survivor`]): identical patches counted as
//! votes ([`keep_survivor`]), then [`evaluate_survivors`] (most votes first, then the
//! smallest: review, dynamic judge, proof), the partial fix carried to the next attempt
//! ([`carries_to_next_attempt`]) and the targets a candidate fixed ([`fixed_targets`]). In
//! the pipeline: ... -> candidates -> static judge -> **survivors: review -> dynamic judge ->
//! trim or proof** -> land.

use crate::records::RunPhase;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_llm::BlockingClient;

use crate::dynamic;
use crate::run::candidates;
use crate::run::proof;
use slopguard_worker::{self as worker, prompt};

use super::carry::{AttemptWork, Refused, RefusedPatch, SubtaskRun, Survivor, fixed_targets};
use super::context::Ctx;
use super::error::RunError;
use super::judge::{
    behaviour_changed, judge_dynamically, prove_candidate, record_behaviour, refuse_proof,
    review_candidate, still_failing,
};
use super::trim::trim_fix;

/// Adds a candidate that passed the static gates, or counts it as a vote for an identical
/// one (same normalised diff); returns the verdict line.
pub(super) fn keep_survivor(
    survivors: &mut Vec<Survivor>,
    index: u32,
    applied: worker::AppliedReply,
    asks: Option<String>,
    refused_before: &BTreeSet<String>,
) -> String {
    let key = candidates::normalised_key(&applied.change);
    if refused_before.contains(&key) {
        // The same patch fails the same way: the toolchain does not run on it again.
        return "same patch as one refused in an earlier attempt".to_string();
    }
    if let Some(same) = survivors.iter_mut().find(|s| s.key == key) {
        same.votes += 1;
        let refused = if same.refused {
            " (already refused)"
        } else {
            ""
        };
        return format!("same patch as candidate {}{refused}", same.index + 1);
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
        asks,
        votes: 1,
        size,
        refused: false,
    });
    line
}

/// What the review, the toolchain and (when on) the regression proof made of one survivor.
enum Judged {
    /// It passed every gate and fixed every target (or the run has no targets, or no runner
    /// ran): written in the worktree.
    Full(dynamic::Written, dynamic::DynamicReport),
    /// It passed the gates and fixed `fixed` targets, not all; reverted.
    Partial(usize, dynamic::DynamicReport),
    /// Refused (the reason is in `work.rejections`); nothing written.
    Refused,
}

/// Judges survivor `i`: the review, the proof's test (when on), the build and tests, then the
/// proof (when on). A refusal goes into `work.rejections` and marks the survivor refused; a
/// survivor that fixed no target is refused with its tests' output as the feedback.
fn judge_one(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
    i: usize,
) -> Result<Judged, RunError> {
    let applied = &work.survivors[i].applied;
    let refused = match review_candidate(cx, client, run, attempt, applied, &mut work.activity)? {
        Some(r) => Some(r),
        None if cx.opts.regression_proof && proof::test_files(&applied.change).is_empty() => {
            let no_test = proof::Proof::NoTest;
            Some(refuse_proof(
                cx,
                run,
                attempt,
                applied,
                &no_test,
                &mut work.activity,
            ))
        }
        None => None,
    };
    if let Some(r) = refused {
        return Ok(refuse(work, i, r));
    }
    let (written, dynr) = match judge_dynamically(cx, run, attempt, applied, &mut work.activity)? {
        Ok(v) => v,
        Err((rejection, spent)) => {
            work.tool += spent;
            return Ok(refuse(work, i, rejection));
        }
    };
    work.tool += dynr.elapsed;
    let fixed = fixed_targets(&run.targets, dynr.tests.as_ref());
    if run.targets.is_empty() || dynr.tests.is_none() || fixed == run.targets.len() {
        if run.spectrum.is_some() {
            let changed = behaviour_changed(cx, run, &applied.change, &mut work.tool);
            if let Some(r) =
                record_behaviour(cx, run, attempt, applied, changed, &mut work.activity)
            {
                written.revert()?;
                return Ok(refuse(work, i, r));
            }
        }
        if cx.opts.regression_proof {
            let t = Instant::now();
            let found = prove_candidate(cx, run, applied)?;
            work.tool += t.elapsed();
            if !matches!(found, proof::Proof::Proven(_)) {
                written.revert()?;
                let r = refuse_proof(cx, run, attempt, applied, &found, &mut work.activity);
                return Ok(refuse(work, i, r));
            }
            return Ok(Judged::Full(written, dynr));
        }
        let (written, dynr) = trim_fix(cx, run, attempt, work, i, written, dynr)?;
        return Ok(Judged::Full(written, dynr));
    }
    written.revert()?;
    if fixed > 0 {
        return Ok(Judged::Partial(fixed, dynr));
    }
    let r = still_failing(
        cx,
        run,
        attempt,
        applied,
        dynr.tests.as_ref(),
        &mut work.activity,
    );
    Ok(refuse(work, i, r))
}

/// Records survivor `i`'s refusal.
fn refuse(work: &mut AttemptWork, i: usize, why: Refused) -> Judged {
    let survivor = &work.survivors[i];
    work.refused_patches.push(RefusedPatch {
        key: survivor.key.clone(),
        asks: survivor.asks.clone(),
        written: prompt::written_lines(&survivor.applied.change),
        findings: why.feedback.clone(),
        reached: why.reached,
    });
    work.rejections.push(why);
    work.survivors[i].refused = true;
    Judged::Refused
}

/// Judges survivor `i` by the review and the toolchain as soon as it arrives, instead of at
/// the end of the attempt: a fix the model wrote in its first minute lands then, not after
/// every other candidate of the attempt has been sampled. Returns it, written, when it passes
/// every gate and fixes every target. A survivor that fixed no target is refused at once (its
/// tests' output joins the feedback); a partial one stays for [`evaluate_survivors`], where
/// it competes as before. Subtasks that must bring their own regression test, or that are not
/// behind failing tests, keep the end-of-attempt path (their winner needs a proof or a vote).
pub(super) fn judge_survivor_now(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
    i: usize,
) -> Result<Option<(dynamic::Written, dynamic::DynamicReport)>, RunError> {
    if cx.opts.regression_proof || run.targets.is_empty() {
        return Ok(None);
    }
    Ok(match judge_one(cx, client, run, attempt, work, i)? {
        Judged::Full(written, dynr) => Some((written, dynr)),
        Judged::Partial(..) | Judged::Refused => None,
    })
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
    // The partial winner keeps the report of its run: its bytes are written again unchanged,
    // so build and tests need not run twice.
    let mut best_partial: Option<(usize, usize, dynamic::DynamicReport)> = None;
    for i in evaluation_order(&work.survivors) {
        match judge_one(cx, client, run, attempt, work, i)? {
            Judged::Full(written, dynr) => return Ok(Some((i, written, dynr))),
            Judged::Partial(fixed, dynr)
                if best_partial.as_ref().is_none_or(|(_, f, _)| fixed > *f) =>
            {
                best_partial = Some((i, fixed, dynr));
            }
            Judged::Partial(..) | Judged::Refused => {}
        }
    }
    let Some((i, fixed, dynr)) = best_partial else {
        return Ok(None);
    };
    let left = run.budget.saturating_sub(run.started.elapsed());
    let carried = carries_to_next_attempt(attempt, cx.state.max_attempts, left);
    if carried || !cx.opts.allow_partial {
        // The partial fix waits for the next attempt, or, at the last, does not land: the
        // subtask then fails saying which tests still fail (`--allow-partial` lands it as
        // `partial`). Either way its tests' output is the feedback.
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
            RunPhase::Execution,
            if carried {
                "worker.partial.carried"
            } else {
                "worker.partial.refused"
            },
            json!({"subtask_id": run.id, "attempt": attempt, "fixed": fixed,
                   "targets": run.targets.len()}),
        );
        if carried {
            run.carried = Some(work.survivors.swap_remove(i));
        }
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
/// answers that satisfy one test and nothing else. `left`: the subtask's budget not yet spent.
pub(super) fn carries_to_next_attempt(attempt: u32, max_attempts: u32, left: Duration) -> bool {
    attempt < max_attempts.max(1) && left >= CARRY_MARGIN
}

/// The order the survivors are evaluated in (indices): most votes first, then the smallest;
/// those already refused are left out.
pub(super) fn evaluation_order(survivors: &[Survivor]) -> Vec<usize> {
    candidates::evaluation_order(
        &survivors
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.refused)
            .map(|(i, s)| (i, s.votes, s.size))
            .collect::<Vec<_>>(),
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use slopguard_change::{ChangeSet, FileChange, MemTree};
    use slopguard_toolchain::{FailingTest, TestRun};

    use super::*;
    use slopguard_worker::reply::ReplyFormat;

    #[test]
    fn targets_are_not_fixed_when_the_output_lost_failure_names() {
        let targets: BTreeSet<String> = ["a".to_string()].into();
        let named_none = TestRun {
            ran: true,
            passed: 3,
            failed: 3,
            ..TestRun::default()
        };
        assert_eq!(fixed_targets(&targets, Some(&named_none)), 0);
        let clean = TestRun {
            ran: true,
            passed: 6,
            ..TestRun::default()
        };
        assert_eq!(fixed_targets(&targets, Some(&clean)), 1);
    }

    fn applied(after: &str) -> worker::AppliedReply {
        worker::AppliedReply {
            change: ChangeSet::new(
                Arc::new(MemTree::default()),
                vec![FileChange::modify("a.py", "x = 1\n", after)],
                "t",
            ),
            format: ReplyFormat::WholeFile,
            matchers: vec!["a.py: whole-file".into()],
        }
    }

    #[test]
    fn fixed_targets_counts_targets_that_no_longer_fail() {
        let targets: BTreeSet<String> = ["t::a", "t::b", "t::c"].map(String::from).into();
        assert_eq!(fixed_targets(&targets, None), 0);
        let now = TestRun {
            ran: true,
            failing: vec![FailingTest {
                id: "t::b".into(),
                file: None,
            }],
            ..Default::default()
        };
        assert_eq!(fixed_targets(&targets, Some(&now)), 2);
        assert_eq!(fixed_targets(&BTreeSet::new(), Some(&now)), 0);
        // A change that does not compile names no failing test: it fixes none.
        let broken = TestRun {
            ran: false,
            broken: true,
            ..Default::default()
        };
        assert_eq!(fixed_targets(&targets, Some(&broken)), 0);
    }

    #[test]
    fn a_partial_fix_waits_only_with_an_attempt_and_time_left() {
        let s = Duration::from_secs;
        assert!(carries_to_next_attempt(1, 3, s(600)));
        assert!(carries_to_next_attempt(2, 3, CARRY_MARGIN));
        assert!(!carries_to_next_attempt(3, 3, s(600)));
        assert!(!carries_to_next_attempt(1, 3, CARRY_MARGIN - s(1)));
        // No attempt budget counts as one attempt.
        assert!(!carries_to_next_attempt(1, 0, s(600)));
    }

    #[test]
    fn identical_patches_vote_and_the_majority_is_evaluated_first() {
        let none = BTreeSet::new();
        let mut survivors = Vec::new();
        let first = keep_survivor(&mut survivors, 0, applied("x = 2\n"), None, &none);
        assert!(first.starts_with("passed static gates"), "{first}");
        keep_survivor(&mut survivors, 1, applied("x = 3\ny = 4\n"), None, &none);
        let vote = keep_survivor(&mut survivors, 2, applied("x = 3\ny = 4   \n"), None, &none);
        assert_eq!(vote, "same patch as candidate 2");
        assert_eq!(survivors.len(), 2);
        assert_eq!(survivors[1].votes, 2);
        assert_eq!(evaluation_order(&survivors), vec![1, 0]);
        // Equal votes: the smallest first.
        survivors[1].votes = 1;
        assert_eq!(evaluation_order(&survivors), vec![0, 1]);
        // A patch refused in an earlier attempt is not kept for the toolchain again.
        let refused: BTreeSet<String> = survivors.iter().map(|s| s.key.clone()).collect();
        let mut next = Vec::new();
        let again = keep_survivor(&mut next, 0, applied("x = 3\ny = 4\n"), None, &refused);
        assert_eq!(again, "same patch as one refused in an earlier attempt");
        assert!(next.is_empty());
        let fresh = keep_survivor(&mut next, 1, applied("x = 5\n"), None, &refused);
        assert!(fresh.starts_with("passed static gates"), "{fresh}");
    }
}
