//! The verdicts on one candidate: [`judge_statically`] (reply parsed and applied, static
//! guards, doc scope), [`review_candidate`] (the model-backed gates), [`judge_dynamically`]
//! (written, build and tests, reverted when blocked), [`prove_candidate`] (regression proof),
//! and the refusals ([`Refused`], [`record_rejections`], [`still_failing`], [`refuse_proof`]).
//! In the pipeline: ... -> candidates -> **static judge -> review -> dynamic judge -> proof**
//! -> land.

use crate::records::RunPhase;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::Tree;
use slopguard_llm::BlockingClient;

use crate::dynamic::{self, Verdict};
use crate::gates::{self, Phase, fail_event};
use crate::run::candidates::{self, Reached};
use crate::run::proof;
use crate::run::summary::*;
use slopguard_worker::{self as worker, context, prompt};

use super::carry::{FAILURE_OUTPUT_CHARS, Refused, SubtaskRun, push_mode};
use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::progress::ProgressEvent;

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
            RunPhase::Execution,
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
        unchanged: false,
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
        cx.state.run.usage.add_since(spent, tokens_spent(client));
        let (status, messages) = match &verdict {
            Ok(None) => (ActivityStatus::Passed, vec![]),
            Ok(Some(r)) => (ActivityStatus::Blocked, vec![r.text()]),
            Err(e) => (ActivityStatus::Skipped, vec![e.to_string()]),
        };
        activity.push(GuardActivity {
            attempt,
            phase: Phase::Review,
            guard: slug.into(),
            code: None,
            status,
            messages,
        });
        match verdict {
            Ok(None) => {}
            Ok(Some(rejection)) => {
                let text = record_rejections(cx, run, attempt, activity, &[rejection]);
                return Ok(Some(Refused {
                    unchanged: false,
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
                RunPhase::Execution,
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
    let failing: Vec<slopguard_planning::analysis::FailingTest> =
        now.map(|n| n.failing.clone()).unwrap_or_default();
    let printed = now.map_or_else(String::new, |n| {
        printed_by(n, failing.iter().map(|f| f.id.as_str()))
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
        unchanged: false,
        reached: Reached::Tests,
        feedback: format!(
            "- [tests] {} The build and the other tests pass, but the failing tests still fail. \
             What they printed after your change:\n{}",
            candidates::describe_change(&applied.change),
            printed.trim_end()
        ),
    }
}

/// What the runner printed about the tests `ids`: the lines after each mention of their
/// names, cut to [`FAILURE_OUTPUT_CHARS`].
fn printed_by<'a>(
    now: &slopguard_toolchain::TestRun,
    ids: impl Iterator<Item = &'a str>,
) -> String {
    let names: Vec<String> = ids.map(context::short_name).collect();
    context::excerpt(&now.log, &names, FAILURE_OUTPUT_CHARS)
}

/// What the tests that passed at the baseline and fail after a change printed, under a
/// heading, or nothing when none does: a model told only a test's name cannot see what its
/// change broke (after ChatRepair: the failing output goes back to the model).
fn broken_tests_output(cx: &Ctx<'_>, dynr: &dynamic::DynamicReport) -> String {
    let (Some(base), Some(now)) = (cx.state.baseline.as_ref(), dynr.tests.as_ref()) else {
        return String::new();
    };
    let printed = printed_by(now, base.newly_failing(now));
    if printed.trim().is_empty() {
        return String::new();
    }
    format!(
        "What the tests that passed before printed after your change:\n{}\n",
        printed.trim_end()
    )
}

/// The kept-behaviour gate ([`gates::kept_behaviour`]) on a change written in the worktree that
/// made every failing test pass: the suite is recorded again, and a test that passed at the
/// baseline must run the same lines. The refusal when one runs other lines; `None` when none
/// does or there is no baseline recording (the gate is skipped). The time spent is added to
/// `tool`.
pub(super) fn behaviour_changed(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    change: &slopguard_change::ChangeSet,
    tool: &mut Duration,
) -> Option<gates::Rejection> {
    let (Some(spectrum), Some(base)) = (&run.spectrum, cx.state.baseline.as_ref()) else {
        return None;
    };
    let started = Instant::now();
    let limits = super::localise::coverage_limits(cx, base);
    let again = || {
        run.spectrum_again
            .get_or_init(|| baseline_recorded_again(cx, change, &limits))
            .as_ref()
    };
    let rejection = gates::kept_behaviour::check(&cx.worktree, spectrum, change, &limits, again);
    *tool += started.elapsed();
    cx.time("kept-behaviour", started);
    rejection
}

/// The baseline's per-test coverage recorded again in the worktree, where `change` is
/// written: the change is undone for the recording and written back after it. `None` when
/// the recording fails or the change cannot be undone and written back.
fn baseline_recorded_again(
    cx: &Ctx<'_>,
    change: &slopguard_change::ChangeSet,
    limits: &slopguard_toolchain::TestLimits,
) -> Option<slopguard_toolchain::Spectrum> {
    let started = Instant::now();
    let recorded = dynamic::with_undone(&cx.worktree, &change.changes, || {
        let files = slopguard_toolchain::RepoFiles::walk(&cx.worktree);
        slopguard_toolchain::per_test_coverage(&files, limits)
    });
    cx.emit(
        RunPhase::Execution,
        "kept_behaviour.baseline_again",
        json!({"recorded": matches!(recorded, Ok(Some(_))),
               "restored": recorded.as_ref().err().is_none_or(|e| e.change_in_place()),
               "ms": started.elapsed().as_millis()}),
    );
    recorded.ok().flatten()
}

/// Records the kept-behaviour gate's verdict on a candidate (its guard activity, and when it
/// refused, its failure mode, trace events and the retry's feedback).
pub(super) fn record_behaviour(
    cx: &Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
    rejection: Option<gates::Rejection>,
    activity: &mut Vec<GuardActivity>,
) -> Option<Refused> {
    let status = if rejection.is_some() {
        ActivityStatus::Blocked
    } else {
        ActivityStatus::Passed
    };
    activity.push(GuardActivity {
        attempt,
        phase: Phase::Dynamic,
        guard: gates::kept_behaviour::SLUG.into(),
        code: None,
        status,
        messages: rejection.iter().map(gates::Rejection::text).collect(),
    });
    cx.progress.on(&ProgressEvent::Guard {
        id: run.id.clone(),
        guard: gates::kept_behaviour::SLUG.into(),
        status,
    });
    let rejection = rejection?;
    let text = record_rejections(cx, run, attempt, activity, std::slice::from_ref(&rejection));
    Some(Refused {
        unchanged: false,
        reached: Reached::DynamicGates,
        feedback: format!(
            "- [{}] {} The failing tests pass, but tests that passed before now run other \
             lines:\n{text}",
            gates::kept_behaviour::SLUG,
            candidates::describe_change(&applied.change),
        ),
    })
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
                RunPhase::Execution,
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
            unchanged: e.unchanged,
            reached: Reached::Apply,
            feedback: format!("- [{}] {msg}", if e.unreadable { "reply" } else { "apply" }),
        }
    })?;
    cx.emit(
        RunPhase::Execution,
        "worker.edits.applied",
        json!({"subtask_id": run.id, "attempt": attempt, "format": applied.format.name(), "matchers": applied.matchers}),
    );
    let report = worker::static_guards(
        &applied.change,
        &run.guard_task,
        &cx.config,
        run.fingerprint.as_ref(),
    );
    let act = GuardActivity::from_static_report(&report, attempt);
    for a in &act {
        cx.progress.on(&ProgressEvent::Guard {
            id: run.id.clone(),
            guard: a.guard.clone(),
            status: a.status,
        });
    }
    activity.extend(act);
    if let Some(psi) = report.metrics.get("psi") {
        cx.emit(
            RunPhase::Execution,
            "psi_lite.scored",
            json!({"subtask_id": run.id, "attempt": attempt, "psi": psi}),
        );
    }
    if !report.blocked() {
        return match pipeline_static_gates(run, &applied.change) {
            None => Ok(applied),
            Some(rejection) => {
                let gate = rejection.gate.clone();
                let msg = record_rejections(cx, run, attempt, activity, &[rejection]);
                Err(Refused {
                    unchanged: false,
                    reached: Reached::StaticGates,
                    feedback: format!("- [{gate}] {msg}"),
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
    if let Some(salvaged) = salvage(cx, run, attempt, &applied) {
        return Ok(salvaged);
    }
    Err(Refused {
        unchanged: false,
        reached: Reached::StaticGates,
        feedback: format!(
            "{}\n{}",
            candidates::describe_change(&applied.change),
            report.feedback()
        ),
    })
}

/// The pipeline's own static gates, after the static guards passed: doc-scope, then, on a
/// subtask behind failing tests, test-values and swallowed-error. The first refusal.
pub(super) fn pipeline_static_gates(
    run: &SubtaskRun,
    change: &slopguard_change::ChangeSet,
) -> Option<gates::Rejection> {
    gates::doc_scope::check(&run.subtask, change)
        .or_else(|| {
            let tests: Vec<&str> = run
                .failure
                .as_ref()
                .map(|f| f.tests.iter().map(|(_, _, src)| src.as_str()).collect())
                .unwrap_or_default();
            gates::test_values::check(change, &tests)
        })
        .or_else(|| {
            let output = run.failure.as_ref().map_or("", |f| f.output.as_str());
            gates::swallowed_error::check(change, output)
        })
}

/// A candidate the static guards refused, reduced to the definitions it changed
/// ([`worker::salvage`]): its collateral (a dropped docstring, an unrelated definition) is
/// restored from the file as it was. The reduced change must pass every static gate again;
/// `None` when nothing could be reduced or the reduced change is refused too.
fn salvage(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    attempt: u32,
    applied: &worker::AppliedReply,
) -> Option<worker::AppliedReply> {
    let (change, taken) = worker::salvage::salvage_change(&applied.change)?;
    let report = worker::static_guards(
        &change,
        &run.guard_task,
        &cx.config,
        run.fingerprint.as_ref(),
    );
    if report.blocked() || pipeline_static_gates(run, &change).is_some() {
        return None;
    }
    cx.emit(
        RunPhase::Execution,
        "worker.candidate.salvaged",
        json!({"subtask_id": run.id, "attempt": attempt, "definitions": taken,
               "format": applied.format.name()}),
    );
    Some(worker::AppliedReply {
        change,
        format: worker::reply::ReplyFormat::Salvaged,
        matchers: applied.matchers.clone(),
    })
}

/// The guard activity records of a dynamic report (one per gate that ran).
pub(super) fn dynamic_activity(attempt: u32, dynr: &dynamic::DynamicReport) -> Vec<GuardActivity> {
    dynr.verdicts
        .iter()
        .map(|(g, code, v)| GuardActivity {
            attempt,
            phase: Phase::Dynamic,
            guard: g.to_string(),
            code: code.map(str::to_string),
            status: v.status(),
            messages: match v {
                Verdict::Pass => vec![],
                Verdict::Block(m) | Verdict::Skipped(m) => vec![m.clone()],
            },
        })
        .collect()
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
    for (g, _, v) in &dynr.verdicts {
        cx.progress.on(&ProgressEvent::Guard {
            id: run.id.clone(),
            guard: g.to_string(),
            status: v.status(),
        });
    }
    activity.extend(dynamic_activity(attempt, &dynr));
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
        None => dynr.feedback() + &broken_tests_output(cx, &dynr),
    };
    cx.emit(
        RunPhase::Execution,
        "worker.revert",
        json!({"subtask_id": run.id, "attempt": attempt, "files": written.paths()}),
    );
    Ok(Err((
        Refused {
            unchanged: false,
            reached: Reached::DynamicGates,
            feedback: format!(
                "{}\n{findings}",
                candidates::describe_change(&applied.change)
            ),
        },
        dynr.elapsed,
    )))
}
