//! One subtask: [`SubtaskRun`] (what it carries from attempt to attempt), [`run_subtask`]
//! (announce, test baseline, fingerprint, failure context, then attempts until one lands or
//! the attempts or the budget run out), and the failure context of a subtask behind failing
//! tests (targets, the function and statement they point at). In the pipeline: ... -> **per
//! subtask** -> attempts -> ... -> land -> observe.

use crate::records::RunPhase;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::WorkTree;
use slopguard_llm::BlockingClient;

use crate::dynamic;
use slopguard_planning::plan::Subtask;
use slopguard_planning::plan::post::is_about_failing_tests;
use slopguard_worker::fault_line::{self, FaultLine};
use slopguard_worker::{self as worker, context};

use super::attempt::run_attempt;
use super::carry::{AttemptEnd, FAILURE_OUTPUT_CHARS, SubtaskRun, find_subtask};
use super::context::Ctx;
use super::critique::critique_attempt;
use super::error::RunError;
use super::localise;
use super::observe::record_outcome;
use super::progress::ProgressEvent;
use super::repair::TemplateQueue;

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
        functions: Vec::new(),
        fault_line: None,
        suspects: Vec::new(),
        set_apart: Vec::new(),
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
        spectrum: None,
        spectrum_again: std::sync::OnceLock::new(),
        copied_back: BTreeSet::new(),
        tried: Default::default(),
        refused: BTreeSet::new(),
        infill_asked: Vec::new(),
        infill_unavailable: false,
    };
    attach_failure_context(cx, &mut run);
    let max = cx.state.max_attempts.max(1);
    let mut feedback = String::new();
    let mut outcome = None;
    // The repair templates not yet tried, judged while the model writes, from the first
    // attempt on until every one is tried (`None` when none is left or the phase does not
    // apply).
    let mut templates = TemplateQueue::new(cx, &run);
    for attempt in 1..=max {
        if attempt > 1 && run.started.elapsed() >= run.budget {
            cx.emit(
                RunPhase::Execution,
                "worker.budget.exhausted",
                json!({"subtask_id": id, "attempt": attempt, "budget_s": run.budget.as_secs()}),
            );
            feedback.push_str(&format!(
                "\n- [budget] the subtask's time budget ({} s) ran out before attempt {attempt}",
                run.budget.as_secs()
            ));
            break;
        }
        let end = run_attempt(cx, client, &mut run, attempt, &feedback, &mut templates)?;
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
        RunPhase::Execution,
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

/// Captures the test baseline once per run (lazily, before the first gate), then the build
/// checks' failures on the same tree ([`capture_build_failures`]); returns the toolchain time
/// spent. The state is saved only when something was captured.
pub(super) fn ensure_baseline(cx: &mut Ctx<'_>) -> Result<Duration, RunError> {
    if !cx.opts.dynamic.tests {
        return Ok(Duration::ZERO);
    }
    let t = Instant::now();
    let tests_captured = cx.state.baseline.is_none();
    if tests_captured {
        let out = dynamic::run_tests(&cx.worktree, cx.opts.dynamic.test_timeout);
        cx.set_baseline(RunPhase::Execution, &out, "tests");
    }
    if !(capture_build_failures(cx) || tests_captured) {
        return Ok(Duration::ZERO);
    }
    cx.save()?;
    Ok(t.elapsed())
}

/// Records which build checks already fail on the worktree before any change of this run, so
/// that the build gate blocks a candidate only for what it adds (a `go vet` finding nobody
/// fixed would refuse every fix). Once per run: each landing carries them forward. `false`
/// when there was nothing to capture (no build gate, or captured already).
fn capture_build_failures(cx: &mut Ctx<'_>) -> bool {
    let build = cx.opts.dynamic.build;
    let Some(base) = cx
        .state
        .baseline
        .as_mut()
        .filter(|b| build && b.build_failures.is_none())
    else {
        return false;
    };
    let t = Instant::now();
    let files = slopguard_toolchain::RepoFiles::walk(&cx.worktree);
    let failures = dynamic::build_failures(&files, cx.opts.dynamic.build_timeout);
    let data = json!({"failing": failures.keys().collect::<Vec<_>>(),
                      "ms": t.elapsed().as_millis() as u64});
    base.build_failures = Some(failures);
    cx.emit(RunPhase::Execution, "build_baseline.captured", data);
    true
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
        RunPhase::Execution,
        "worker.failure_context",
        json!({"subtask_id": run.id, "targets": run.targets, "output_chars": fc.output.len(),
               "tests": fc.tests.iter().map(|(p, l, _)| format!("{p}:{l}")).collect::<Vec<_>>(),
               "frame_files": fc.frame_files}),
    );
    let coverage = localise::localise_by_coverage(cx, run, base);
    run.functions = localise::function_targets(&fc, &run.targets, &tree, coverage.as_ref());
    if !run.functions.is_empty() {
        cx.emit(
            RunPhase::Execution,
            "worker.function_target",
            json!({"subtask_id": run.id,
                   "functions": run.functions.iter().map(|f| json!({"path": f.path, "name": f.name, "lines": [f.start, f.end]})).collect::<Vec<_>>()}),
        );
    }
    run.fault_line = fault_line::fault_line(&base.log, &tree, &run.subtask.file_hints, &fc.tests);
    if let Some(l) = &run.fault_line {
        cx.emit(
            RunPhase::Execution,
            "worker.fault_line",
            json!({"subtask_id": run.id, "path": l.path, "lines": [l.start, l.end]}),
        );
    }
    if let (None, Some(f)) = (&run.fault_line, run.functions.first()) {
        // With coverage, the statements of every target function compete by their lines'
        // suspicion: a tie between functions is not decided by the first one alone.
        // Statements that assign a value the failure shows wrong go first among equals.
        let differing = context::differing_names(&context::failure_message(&fc.output));
        let writes_differing =
            |l: &FaultLine| context::assigns_one_of(&l.text, &l.path, &differing);
        run.suspects = match &coverage {
            Some(cov) => localise::most_suspect_first(
                preferred_first(
                    run.functions
                        .iter()
                        .flat_map(|f| fault_line::suspects(f, &tree, usize::MAX))
                        .collect(),
                    writes_differing,
                ),
                cov,
                MAX_SUSPECTS,
            ),
            None => preferred_first(
                fault_line::suspects(f, &tree, MAX_SUSPECTS),
                writes_differing,
            ),
        };
        run.set_apart = coverage.as_ref().map_or_else(Vec::new, |cov| {
            localise::set_apart(cov, &run.suspects, MAX_SET_APART)
        });
        if let Some(signature) = fault_line::signature_with_defaults(f, &tree) {
            offer_second(&mut run.suspects, signature);
        }
        if !run.suspects.is_empty() {
            cx.emit(
                RunPhase::Execution,
                "worker.suspect_lines",
                json!({"subtask_id": run.id, "path": f.path,
                       "lines": run.suspects.iter().map(|l| [l.start, l.end]).collect::<Vec<_>>(),
                       "differing": differing,
                       "set_apart": run.set_apart.iter().map(|l| [l.start, l.end]).collect::<Vec<_>>()}),
            );
        }
    }
    run.failure = Some(fc);
    run.spectrum = coverage.map(localise::Localisation::into_spectrum);
}

/// `statements` with those `preferred` says first, each group in its order. Ranked by
/// suspicion afterwards (a stable sort), the preferred go first among equally suspect ones:
/// a statement that assigns a value the failure shows wrong ([`context::differing_names`])
/// is the likelier bug where every test runs them all.
fn preferred_first(
    statements: Vec<FaultLine>,
    preferred: impl Fn(&FaultLine) -> bool,
) -> Vec<FaultLine> {
    let (mut first, rest): (Vec<_>, Vec<_>) = statements.into_iter().partition(|l| preferred(l));
    first.extend(rest);
    first
}

/// `signature` put second among `suspects` (first when there is none), the last one dropped
/// when that makes more than [`MAX_SUSPECTS`]. The signature of the most likely definition,
/// offered when it gives a default value: no coverage can rank a default (it is read where
/// the function is defined or called), so it gets a place of its own, after the statement
/// the coverage ranks first.
fn offer_second(suspects: &mut Vec<FaultLine>, signature: FaultLine) {
    suspects.insert(suspects.len().min(1), signature);
    suspects.truncate(MAX_SUSPECTS);
}

/// Most statements of the target definitions offered alone when no frame names one.
///
/// Eight, not four: a statement is the cheapest prompt (it shares its opening with the
/// others; median 9 s with its reply) and the only kind that landed a model's fix in
/// sessions 19 and 20 (6 of 215 statement candidates over 48 run traces; 0 of 80 whole
/// definitions, 0 of 31 files prompts at 75 s each). The buggy statement is often one every
/// test runs (`last = max(1, total // per_page)`), which the coverage ranks below those
/// only the failing tests reach: four left it out.
pub(super) const MAX_SUSPECTS: usize = 8;

/// Most statements the coverage sets apart that the repair templates try with every operator
/// before going operator by operator over the lead: the repair literature's order (TBar,
/// SimFix: every template at the most suspect statement, then the next), kept to the first
/// few so that the sweep over the lead still comes within the cap.
const MAX_SET_APART: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    fn statement(start: usize) -> FaultLine {
        FaultLine {
            path: "m.py".into(),
            start,
            end: start,
            text: format!("x = {start}"),
            error: None,
            suspect_in: None,
        }
    }

    fn starts(suspects: &[FaultLine]) -> Vec<usize> {
        suspects.iter().map(|s| s.start).collect()
    }

    #[test]
    fn a_signature_with_a_default_is_offered_second_and_the_list_stays_bounded() {
        let mut none = Vec::new();
        offer_second(&mut none, statement(1));
        assert_eq!(starts(&none), [1]);
        let mut full: Vec<FaultLine> = (10..10 + MAX_SUSPECTS).map(statement).collect();
        offer_second(&mut full, statement(1));
        assert_eq!(full.len(), MAX_SUSPECTS);
        assert_eq!(starts(&full[..3]), [10, 1, 11]);
        assert_eq!(full.last().map(|s| s.start), Some(10 + MAX_SUSPECTS - 2));
    }

    #[test]
    fn statements_writing_a_value_the_failure_shows_wrong_go_first_in_their_order() {
        let mut lines: Vec<FaultLine> = (1..=4).map(statement).collect();
        lines[1].text = "day = self.day".into();
        lines[3].text = "self.day += 1".into();
        let names = vec!["day".to_string()];
        let ordered = preferred_first(lines, |l| context::assigns_one_of(&l.text, &l.path, &names));
        assert_eq!(starts(&ordered), [2, 4, 1, 3]);
    }
}
