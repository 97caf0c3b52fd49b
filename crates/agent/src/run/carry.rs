//! What a subtask carries from attempt to attempt, and what an attempt collects: the data
//! every step of the run loop reads and writes ([`SubtaskRun`], [`AttemptWork`],
//! [`Survivor`], [`Refused`], [`AttemptEnd`]) with the small pure helpers over it. A leaf of
//! `run/`: the steps depend on it, it depends on none of them, so the steps' modules do not
//! import each other for their types.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use slopguard_planning::plan::{Plan, Subtask};
use slopguard_store::FailureMode;
use slopguard_worker::fault_line::FaultLine;
use slopguard_worker::{self as worker, context::FailureContext, prompt};

use crate::run::candidates::Reached;
use crate::run::summary::{AttemptRecord, GuardActivity, SubtaskStatus};

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
    /// The functions they call, most likely first
    /// ([`function_targets`](super::localise::function_targets)): each is offered
    /// alone to the model, and the first is the target a reply is salvaged into.
    pub(super) functions: Vec<prompt::FunctionTarget>,
    /// The statement of the files to change where they break, when a frame names one.
    pub(super) fault_line: Option<FaultLine>,
    /// When no frame names a statement: the statements of `function`, each offered alone.
    pub(super) suspects: Vec<FaultLine>,
    /// When no frame names a statement: the most suspect statements the failing tests'
    /// coverage sets apart ([`set_apart`](super::localise::set_apart)), which the repair
    /// templates try with every operator first.
    pub(super) set_apart: Vec<FaultLine>,
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
    /// them fixes every target ([`evaluate_survivors`](super::survivors::evaluate_survivors)).
    pub(super) carried: Option<Survivor>,
    /// Which lines each test ran at the baseline, when the suite could record it: the
    /// kept-behaviour gate compares a fix's recording with it.
    pub(super) spectrum: Option<slopguard_toolchain::Spectrum>,
    /// The baseline recorded once more, at the kept-behaviour gate's first confirmed shift
    /// (`None` inside when that recording failed): a test whose two baseline recordings differ
    /// is noise, not a shift.
    pub(super) spectrum_again: std::sync::OnceLock<Option<slopguard_toolchain::Spectrum>>,
    /// The brief requests ([`prompt::WorkerPrompt::asks_for`]) the model answered with the
    /// code as it was: later attempts ask the others first.
    pub(super) copied_back: BTreeSet<String>,
    /// The answers to brief requests that were refused ([`SubtaskRun::remember_refusals`]),
    /// oldest first, each with the request it answered: a statement asked again lists its
    /// own, a definition every one ([`prompt::PromptInput::tried`]).
    pub(super) tried: Vec<(String, prompt::TriedAnswer)>,
    /// The patches ([`normalised_key`](super::candidates::normalised_key)) the build or the
    /// tests refused in an earlier attempt: the same patch again is not judged again.
    pub(super) refused: BTreeSet<String>,
    /// The statements the infill phases asked the model to write, in order: a later
    /// attempt's phase asks others ([`super::infill`]).
    pub(super) infill_asked: Vec<Statement>,
    /// The model server failed an infill phase's first call (a server without raw
    /// completions): later attempts do not ask it again.
    pub(super) infill_unavailable: bool,
}

/// A statement the infill phases may ask the model to write again ([`super::infill`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Statement {
    pub path: String,
    /// 1-based first and last line.
    pub lines: (usize, usize),
    /// The lines of the definition it is in (the statement's own when none is known).
    pub definition: (usize, usize),
}

impl SubtaskRun {
    /// Moves `work`'s refused patches into what later prompts and candidates know: the patches
    /// the build or the tests refused are not judged again (a reviewer, a model, may agree next
    /// time), and every refused answer to a brief request is listed when a brief prompt is
    /// asked again. Called after each candidate, so a prompt later in the same attempt hears
    /// what the first ones got wrong.
    pub(super) fn remember_refusals(&mut self, work: &mut AttemptWork) {
        let shown = self.failure.as_ref().map_or("", |f| f.output.as_str());
        for r in work.refused_patches.drain(..) {
            if r.reached >= Reached::DynamicGates {
                self.refused.insert(r.key);
            }
            if let Some(asks) = r.asks {
                let why = prompt::refusal_in_brief(&r.findings, shown);
                let answer = prompt::TriedAnswer {
                    written: r.written,
                    why,
                };
                self.tried.push((asks, answer));
            }
        }
    }

    /// The refused answers a brief prompt lists, oldest first: for a statement, those to its
    /// request (`Some(asks)`); for a definition (`None`), every one (its statements' answers
    /// tell it what the one-line changes got wrong).
    pub(super) fn tried_for(&self, statement: Option<&str>) -> Vec<prompt::TriedAnswer> {
        self.tried
            .iter()
            .filter(|(a, _)| statement.is_none_or(|s| a == s))
            .map(|(_, t)| t.clone())
            .collect()
    }
}

/// How an attempt ended.
pub(super) enum AttemptEnd {
    /// A candidate landed: (status, commit, touched paths, commit title).
    Landed(SubtaskStatus, Option<String>, Vec<String>, String),
    /// Every candidate was rejected; the feedback for the next attempt.
    Rejected(String),
}

/// What one attempt collects while its candidates are sampled and judged.
pub(super) struct AttemptWork {
    pub(super) start: Instant,
    pub(super) record: AttemptRecord,
    pub(super) activity: Vec<GuardActivity>,
    pub(super) rejections: Vec<Refused>,
    pub(super) survivors: Vec<Survivor>,
    pub(super) llm: Duration,
    pub(super) tool: Duration,
    /// The survivors the review or the toolchain refused since the last candidate, moved into
    /// [`SubtaskRun::refused`] and [`SubtaskRun::tried`] by
    /// [`SubtaskRun::remember_refusals`].
    pub(super) refused_patches: Vec<RefusedPatch>,
}

/// A survivor the review or the toolchain refused: its patch, what it answered and why.
pub(super) struct RefusedPatch {
    /// Its [`normalised_key`](super::candidates::normalised_key).
    pub(super) key: String,
    /// The brief request it answered, when it was one.
    pub(super) asks: Option<String>,
    /// The lines it wrote ([`prompt::written_lines`]).
    pub(super) written: String,
    /// The findings of its refusal, and how far it got.
    pub(super) findings: String,
    pub(super) reached: Reached,
}

/// A candidate that passed the static gates, waiting for the toolchain.
pub(super) struct Survivor {
    pub(super) index: u32,
    pub(super) applied: worker::AppliedReply,
    pub(super) key: String,
    /// The brief request it answered ([`prompt::WorkerPrompt::asks_for`]), when it was one.
    pub(super) asks: Option<String>,
    pub(super) votes: u32,
    pub(super) size: usize,
    /// Already refused by the toolchain or the review as soon as it arrived
    /// ([`judge_survivor_now`]): never evaluated again, and an identical later candidate only
    /// counts as a vote for it.
    pub(super) refused: bool,
}

/// Why a candidate was turned down: how far it got, the gates that refused it, and the
/// feedback its attempt's retry hears.
pub(super) struct Refused {
    pub(super) reached: Reached,
    pub(super) feedback: String,
    /// The reply was the code as it already was (the next candidate may continue the
    /// conversation: [`slopguard_worker::prompt::WorkerPrompt::after_unchanged_reply`]).
    pub(super) unchanged: bool,
}

/// Characters of failing-test output shown to the worker.
pub(super) const FAILURE_OUTPUT_CHARS: usize = 1800;

/// Records failure mode `m` once.
pub(super) fn push_mode(modes: &mut Vec<FailureMode>, m: FailureMode) {
    if !modes.contains(&m) {
        modes.push(m);
    }
}

/// Targets (baseline failing tests) that pass in `now`. None when the tests did not run or
/// the suite is broken (a change that does not compile fails no test by name), or when the
/// runner counted more failures than its output names (output too long to keep whole): a
/// target missing from the names may then still fail, and only a run with no failure at all
/// fixes them.
pub(super) fn fixed_targets(
    targets: &BTreeSet<String>,
    now: Option<&slopguard_toolchain::TestRun>,
) -> usize {
    match now {
        Some(now) if now.ran && !now.broken && now.failed as usize <= now.failing.len() => {
            targets.len() - still_failing_targets(targets, Some(now)).len()
        }
        _ => 0,
    }
}

/// The targets that still fail in `now` (by name), sorted; none when the tests did not run.
pub(super) fn still_failing_targets(
    targets: &BTreeSet<String>,
    now: Option<&slopguard_toolchain::TestRun>,
) -> Vec<String> {
    let Some(now) = now else {
        return Vec::new();
    };
    let failing: BTreeSet<&str> = now.failing.iter().map(|f| f.id.as_str()).collect();
    targets
        .iter()
        .filter(|t| failing.contains(t.as_str()))
        .cloned()
        .collect()
}

/// The task title and the subtask with id `id` in `plan`.
pub(super) fn find_subtask(plan: &Plan, id: &str) -> Option<(String, Subtask)> {
    plan.tasks.iter().find_map(|t| {
        t.subtasks
            .iter()
            .find(|s| s.id == id)
            .map(|s| (t.title.clone(), s.clone()))
    })
}

/// A judged repair template that made failing tests pass: it points at its statement
/// (mutation-based fault localisation; `infill::holes` asks the model about it).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pointer {
    pub path: String,
    /// 1-based line the template changed.
    pub line: usize,
    /// The share of the failing tests it made pass, in (0, 1].
    pub fixed_share: f64,
    /// Tests that passed before and failed with it.
    pub broke: usize,
}

/// The pointers of the templates judged so far, in the order they were judged: written by
/// the template judge (`repair`), read by the infill calls on another thread (`infill`).
pub(super) type Pointers = Arc<Mutex<Vec<Pointer>>>;

/// A model's infill that the tests judged a step closer: it broke no passing test and the
/// failing tests, still failing, now print something they did not before (the error a
/// missing check now raises, with the wrong message; another wrong value). The infill
/// calls ask its hole again with the attempt and the new message shown above it
/// (ChatRepair feeds a candidate's test output back to the model the same way).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct NearMiss {
    /// The file's whole text as the infill wrote it (what identifies its answer).
    pub text: String,
    /// The failing tests it made pass (fewer than all of them).
    pub fixed: usize,
    /// The failure's message lines the tests did not print before.
    pub message: Vec<String>,
}

/// The near misses found so far and the infills still to judge, shared between the
/// template judge (`repair`, which writes them) and the infill calls on another thread
/// (`infill`, which asks their holes again, and waits for the last answers' verdicts).
#[derive(Debug, Default)]
pub(super) struct NearMisses {
    pub found: Mutex<Vec<NearMiss>>,
    /// The model's answers sent and not yet queued, and the changes queued from them and not
    /// yet judged: while any is left, a near miss may still come.
    pub unjudged: AtomicUsize,
}

impl NearMisses {
    /// Counts `n` more answers or changes to judge.
    pub(super) fn add(&self, n: usize) {
        self.unjudged.fetch_add(n, Ordering::Relaxed);
    }

    /// Counts one answer or change judged (never below zero).
    pub(super) fn done(&self) {
        let _ = self
            .unjudged
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
    }

    /// Whether answers or changes are still to judge.
    pub(super) fn any_unjudged(&self) -> bool {
        self.unjudged.load(Ordering::Relaxed) > 0
    }
}
