//! The infill phase: the model writes the suspect statements again without being shown them
//! ([`slopguard_worker::infill`]), and each answer that changes one is judged like a repair
//! template.
//!
//! At the start of each attempt of a subtask, for a model trained to fill in the middle:
//! statements, each asked [`TEMPERATURES`]`.len()` times, [`STATEMENTS`] statements'
//! worth of answers in all (a statement whose answers bring nothing new [`STALE_IN_A_ROW`]
//! times in a row is left early, for another). The first is
//! the statement a frame of the failure names, else the most suspect statement of the
//! definitions the failing tests call; each next one is chosen when its turn comes
//! ([`holes`]): the statement the repair templates judged meanwhile point at most (one whose
//! one-token change made failing tests pass), else the next suspect. Every prompt has the
//! failing tests as another file (the
//! first with the failure's message under it as comments). The answers are short (one
//! statement) and a statement's prompts differ only in their sampling, so a caching server
//! reads each prompt once: on the 1.5B model under load, about 25 s for the first and 1-3 s
//! for each after it. The repair templates are judged meanwhile; each change an answer makes
//! goes to the front of the template queue as it comes, so it waits at most for the template
//! being judged, and meets the same static guards, build, tests and kept-behaviour check. A
//! change that wins ends the phase: the calls left are given up.
//!
//! Before the statements, when the failure says a test expected an error that did not come
//! (`DID NOT RAISE`, `Missing expected exception`, `got <nil>`:
//! [`context::expects_an_error`]), the gaps before and after each check of the first
//! statement's definition that refuses input ([`slopguard_worker::infill::guard_gaps`]): a
//! validation missing among the others, which no rewrite of a statement that is there puts
//! back. Then, when the first statement's definition assigns a value no later line
//! reads, the gap right after that assignment: the step that used the value is missing
//! ([`slopguard_worker::infill::after_unused_value`]).
//!
//! A gap's answer too long to be one statement is cut into its statements, each judged alone
//! ([`InfillRequest::parts`]): the model often writes the missing step among others.
//!
//! An answer the judge finds a near miss (no passing test broken, and the failing tests print
//! a message they did not before: the missing check written, its error message wrong) has its
//! hole asked again before the next hole, with the answer and the new message as comments
//! above the definition ([`InfillRequest::refined`]; ChatRepair feeds a candidate's test
//! output back to the model the same way). After the last hole the calls wait a while for the
//! verdicts still to come ([`LAST_VERDICTS`]), since the last answers' near misses come last.
//!
//! After the statements, empty holes where a statement may be missing: at the end of the
//! block the first statement is in, when that block is a branch or a loop rather than its
//! definition's body (a branch only the failing tests take, which computes its result and
//! never returns it), then before the last statement of its definition (a step missing
//! before the result is returned). No rewrite of a statement that is there can put back one
//! that is not. A gap before the most suspect statement fixed no task in session 30's runs
//! and cost each failed run another prompt to read (BENCHMARKS.md), so it is not asked.
//!
//! A later attempt's phase asks only statements, none asked before, its first the next of
//! the default order ([`holes::HolePicker::after`]); its gaps were asked in the first. In
//! session 61's development runs the chat candidates that followed the first phase landed
//! none of 41 replies (1,315 s of the model's time), several of which sent the code back
//! unchanged, while the first phase had not reached the suspect the coverage ranked second
//! (go-ini-parse: the bug's line). Showing each statement's own code above the definition
//! as the answer tried, with the tests' message (ChatRepair's first prompt), was tried in
//! session 62 and dropped: the 1.5B model wrote the code it was shown back unchanged (all
//! ten of go-ini-parse's later answers, the bug's line among them).
//!
//! In the pipeline: ... -> per subtask -> each attempt -> **infill** (while the templates run)
//! -> candidates -> ...

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_llm::{BlockingClient, ChatResponse, LlmError};
use slopguard_worker::context;
use slopguard_worker::fault_line::FaultLine;
use slopguard_worker::infill::{self, FimFormat, Hole, InfillRequest};

use super::candidates;
use super::carry::{AttemptWork, SubtaskRun};

mod calls;
mod holes;
use super::carry::Statement;
use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::progress::ProgressEvent;
use super::repair::{TemplateQueue, TemplateWin};
use crate::records::RunPhase;
use calls::ask_all;
use holes::HolePicker;

/// Statements asked for: the frame's or the most suspect, then those the templates point at
/// or the next most suspect. The right statement was among the first two offered in most of
/// the development half's runs (sessions 23-24).
pub(super) const STATEMENTS: usize = 3;

/// The sampling temperatures of each statement's infills: the likeliest middle first, then
/// hotter ones. With the right statement given, 3 of the development half's 7 one-line bugs
/// no template fixes were fixed within 8 answers, 1 within the first 3 (the 1.5B model,
/// session 26): the later answers find what the first miss. They cost time: under bench
/// load the phase took 77-82 s (median) with 18 answers, 51-56 s with 9. A statement's
/// answers are asked one after another, so a caching server reads its prompt once.
pub(super) const TEMPERATURES: [f32; 6] = [0.2, 0.8, 1.0, 1.0, 1.0, 1.0];

/// The sampling temperatures of each gap's infills: fewer than a statement's, since a gap
/// is a guess at where a statement is missing, not a line the tests point at.
pub(super) const GAP_TEMPERATURES: [f32; 3] = [0.2, 0.8, 1.0];

/// Gaps asked at most: after a value computed and never used
/// ([`HolePicker::unused_value_gap`]), the end of the first statement's block, the last
/// statement of its definition ([`HolePicker::gap_requests`]).
const GAPS: usize = 3;

/// Gaps around the checks that refuse input asked at most, when a test expected an error
/// that did not come ([`HolePicker::guard_gap_requests`]): before and after each check of a
/// run of three, each at [`GUARD_GAP_TEMPERATURES`].
const GUARD_GAPS: usize = 4;

/// The sampling temperatures of those gaps: fewer than a statement's or another gap's, since
/// each is one of several guesses at the same missing check.
const GUARD_GAP_TEMPERATURES: [f32; 2] = [0.2, 0.8];

/// A statement whose answers bring nothing new this many times in a row (each writes it back
/// as it was, or makes a change an earlier answer made) is left for the next one: the model
/// keeps to what it has already said there, and the answers left are spent where it may say
/// something else. In the traces of the 51 bench runs of sessions 41-47 (1,250 statements
/// asked), every landed infill came from a statement whose first answer changed it, and the
/// 165 statements whose first two answers did not took up to four more each, none of which
/// landed. Repeats are as stale: in session 61's seven development runs (96 statements
/// asked), a rule counting them too would have left 53 statements early and saved 51
/// answers; 10 of those statements gave a new change later, none of which fixed its task
/// (go-ini-parse asked the line after the bug six times, for the same change five times,
/// and never reached the bug's line). The answers saved ask further statements (the phase's
/// answers stay [`STATEMENTS`] times [`TEMPERATURES`]).
const STALE_IN_A_ROW: usize = 2;

/// Failing tests shown as files of the prompt, at most.
const TESTS_SHOWN: usize = 2;

/// Lines of a failing test shown in the prompt, at most: a longer one by its first and last
/// lines ([`context::shortened_test`]). The prompt is read at 10-20 tokens/s on this machine's
/// 1.5B model under load, and a long test was half of it (in the tuning pools' first prompts,
/// tests of 31-48 lines took 360-590 of 760-1,180 tokens); the failure's message under the
/// test names the values that failed, which the cut middle (more cases of the same call)
/// does not add to.
const TEST_LINES_SHOWN: usize = 20;

/// Near misses asked again per phase, at most ([`NearMiss`]): each costs a new prompt to
/// read (20-25 s on the 1.5B model under load).
const REFINEMENTS: usize = 2;

/// The sampling temperatures of a near miss asked again.
const REFINED_TEMPERATURES: [f32; 2] = [0.2, 0.8];

/// How long the calls wait, after the last hole, for the verdicts on the answers still to
/// judge (a near miss among them is asked again). The templates are judged meanwhile.
const LAST_VERDICTS: Duration = Duration::from_secs(30);

/// One infill asked for, and what came back.
struct Asked {
    request: Arc<InfillRequest>,
    temperature: f32,
    took: Duration,
    reply: Result<ChatResponse, LlmError>,
}

/// The answers taken from the model so far, and the changes queued from them.
#[derive(Default)]
struct Taken {
    answers: usize,
    /// The model's time over the answers.
    took: Duration,
    /// The texts of the changes queued, to queue each once.
    queued: Vec<String>,
    /// The answers to a near miss asked again.
    refined: usize,
    /// The first call that failed.
    error: Option<String>,
}

/// Asks for the infills of `run` while the repair templates of `queue` are judged; each
/// change an answer makes is judged as soon as the template being judged is done, before
/// the templates not yet tried. Returns what won (a template or an infill); the calls still
/// to make are then given up. The changes not judged when the calls end stay at the front of
/// `queue`. Nothing is asked when the model has no fill-in-the-middle format or no statement
/// is known.
pub(super) fn infill_phase(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
    queue: &mut TemplateQueue,
) -> Result<Option<TemplateWin>, RunError> {
    let Some(format) = cx.opts.infill.format_for(&cx.state.run.model) else {
        return Ok(None);
    };
    if run.infill_unavailable {
        return Ok(None);
    }
    let tree = WorkTree::new(&cx.worktree);
    let asked_before = std::mem::take(&mut run.infill_asked);
    let mut picker = picker(format, run, &tree, queue).after(asked_before);
    if picker.is_empty() {
        return Ok(None);
    }
    let started = Instant::now();
    let spent = tokens_spent(client);
    let give_up = AtomicBool::new(false);
    let sent = AtomicUsize::new(0);
    let most = STATEMENTS * TEMPERATURES.len()
        + GAPS * GAP_TEMPERATURES.len()
        + GUARD_GAPS * GUARD_GAP_TEMPERATURES.len()
        + REFINEMENTS * REFINED_TEMPERATURES.len();
    let seeds: Vec<u64> = (0..most)
        .map(|i| candidates::seed(&cx.state.run.run_id, &run.id, attempt, 1000 + i as u32))
        .collect();
    let (tx, rx) = mpsc::channel();
    let mut taken = Taken::default();
    let near_misses = queue.near_misses();
    let won = std::thread::scope(|s| {
        let (seeds, give_up, sent, near_misses) = (&seeds, &give_up, &sent, &*near_misses);
        let calls = s.spawn(move || {
            ask_all(client, &mut picker, seeds, (give_up, sent), near_misses, tx);
            picker.into_asked()
        });
        let won = judge_as_they_come(cx, run, attempt, work, queue, &rx, sent, &mut taken, || {
            calls.is_finished()
        });
        give_up.store(true, Ordering::Relaxed);
        run.infill_asked = calls.join().unwrap_or_default();
        won
    });
    // The answers that came while the last change was judged.
    for asked in rx.try_iter() {
        taken.take(cx, run, queue, asked);
    }
    if !taken.queued.is_empty() {
        queue.report_again();
    }
    cx.state.run.usage.add_since(spent, tokens_spent(client));
    work.llm += taken.took;
    // A server that failed the phase's first call (one without `/v1/completions`) is not
    // asked again by the later attempts.
    run.infill_unavailable = taken.first_call_failed();
    let line = report(run, &taken, started.elapsed());
    cx.progress.on(&ProgressEvent::Candidate(line.clone()));
    work.record.candidates.push(line);
    won
}

/// Judges the queue's fixes until one wins or the calls end: the changes the answers of
/// `rx` make go first as they come (`sent` counts the answers sent), the templates between
/// them. `finished` says whether the calls have ended.
#[allow(clippy::too_many_arguments)]
fn judge_as_they_come(
    cx: &mut Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    work: &mut AttemptWork,
    queue: &mut TemplateQueue,
    rx: &mpsc::Receiver<Asked>,
    sent: &AtomicUsize,
    taken: &mut Taken,
    finished: impl Fn() -> bool,
) -> Result<Option<TemplateWin>, RunError> {
    loop {
        for asked in rx.try_iter() {
            taken.take(cx, run, queue, asked);
        }
        let seen = taken.answers;
        let news = || sent.load(Ordering::Relaxed) > seen;
        if let Some(win) = queue.run_until(cx, run, attempt, work, || finished() || news())? {
            return Ok(Some(win));
        }
        if finished() || run.started.elapsed() >= run.budget {
            return Ok(None);
        }
        if !news() {
            // Nothing left to judge until the next answer.
            if let Ok(asked) = rx.recv_timeout(Duration::from_millis(100)) {
                taken.take(cx, run, queue, asked);
            }
        }
    }
}

impl Taken {
    /// Whether the phase's first call failed (and so was its only one).
    fn first_call_failed(&self) -> bool {
        self.error.is_some() && self.answers == 1
    }

    /// Takes one answer: traces it with its verdict and queues the change it makes, when it
    /// makes a new one.
    fn take(&mut self, cx: &Ctx<'_>, run: &SubtaskRun, queue: &mut TemplateQueue, asked: Asked) {
        self.answers += 1;
        self.took += asked.took;
        let req = asked.request.as_ref();
        self.refined += usize::from(req.refined);
        let (middle, verdict) = match &asked.reply {
            Ok(reply) => (
                reply.content.clone(),
                self.queue_changes(req, &reply.content, queue),
            ),
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                (String::new(), format!("model error: {e}"))
            }
        };
        // The answer is judged (the changes it queued count on their own: `put_first`).
        queue.near_misses().done();
        cx.emit(
            RunPhase::Execution,
            "worker.infill",
            json!({"subtask_id": run.id, "path": req.path, "line": req.start,
                   "hole": match req.hole { Hole::Gap => "gap", Hole::Statement => "statement" },
                   "refined": req.refined,
                   "temperature": asked.temperature, "ms": asked.took.as_millis() as u64,
                   "middle": middle, "verdict": verdict}),
        );
    }
}

impl Taken {
    /// Queues the changes the answer `middle` to `req` makes, first in `queue`, each once;
    /// returns the verdict for the trace. The change is the middle written in place; before an
    /// exit, the middle inserted before it too ([`InfillRequest::fix_before_exit`]: it may be
    /// the missing step); for a gap's middle too long to be one statement, each of its
    /// statements alone ([`InfillRequest::parts`]). A middle that calls a function of the file
    /// through a qualifier the file never names is also tried without it, first
    /// ([`InfillRequest::fix_without_unknown_qualifiers`]).
    fn queue_changes(
        &mut self,
        req: &InfillRequest,
        middle: &str,
        queue: &mut TemplateQueue,
    ) -> String {
        let (fixes, parts): (Vec<_>, bool) = match req.fix(middle) {
            Ok(f) if self.queued.contains(&f.text) => return "same as an earlier one".into(),
            // Before an exit the answer may be the missing step: that first.
            Ok(f) => (
                req.fix_before_exit(middle).into_iter().chain([f]).collect(),
                false,
            ),
            Err(not) => match req.parts(middle) {
                parts if parts.is_empty() => return not.to_string(),
                parts => (parts, true),
            },
        };
        let fixes: Vec<_> = fixes
            .into_iter()
            .filter(|f| !self.queued.contains(&f.text))
            .collect();
        // A call through a qualifier the file never names, without it, goes first.
        let grounded = req
            .fix_without_unknown_qualifiers(middle)
            .filter(|g| !self.queued.contains(&g.text) && !fixes.iter().any(|f| f.text == g.text));
        let verdict = match (parts, fixes.len(), &grounded) {
            (_, 0, None) => "same as an earlier one",
            (_, 0, Some(_)) => "queued without the qualifier the file never names",
            (true, _, _) => "too long; its statements queued one by one",
            (false, 1, None) => "queued",
            (false, 1, Some(_)) => "queued, and without the qualifier the file never names",
            (false, _, _) => "queued, and before the exit",
        };
        let fixes: Vec<_> = grounded.into_iter().chain(fixes).collect();
        self.queued.extend(fixes.iter().map(|f| f.text.clone()));
        if !fixes.is_empty() {
            queue.put_first(fixes);
        }
        verdict.into()
    }
}

/// The statements `run` may ask, from the code as it is before any template is written: the
/// frame's, then the suspects, then those the judged templates of `queue` point at
/// ([`holes`]), each in the definition it is in, with the failing tests; then a gap.
fn picker(
    format: FimFormat,
    run: &SubtaskRun,
    tree: &dyn Tree,
    queue: &TemplateQueue,
) -> HolePicker {
    let defaults: Vec<Statement> = statements_to_ask(run.fault_line.as_ref(), &run.suspects)
        .into_iter()
        .map(|line| Statement {
            path: line.path.clone(),
            lines: (line.start, line.end),
            definition: definition_of(run, line),
        })
        .collect();
    // Each file read once: the statements' and the templates'.
    let mut texts = BTreeMap::new();
    let paths = defaults.iter().map(|s| s.path.clone()).chain(queue.paths());
    for path in paths {
        if !texts.contains_key(&path)
            && let Some(text) = context::source_text(tree, &path)
        {
            texts.insert(path, text);
        }
    }
    let definitions = run
        .functions
        .iter()
        .map(|f| (f.path.clone(), f.start, f.end))
        .collect();
    HolePicker::new(
        format,
        tests_shown(run),
        texts,
        defaults,
        definitions,
        queue.pointers(),
        run.failure
            .as_ref()
            .is_some_and(|f| context::expects_an_error(&f.output)),
    )
}

/// The line a missing statement may go before: the last statement of the definition on
/// lines `definition` of `text` (a step missing before the result is returned). `None` when
/// the definition is not known (it is the statement itself).
fn gap_to_ask(text: &str, definition: (usize, usize)) -> Option<usize> {
    (definition.0 < definition.1)
        .then(|| infill::last_statement(text, definition))
        .flatten()
}

/// The failing tests shown in the prompts, at most [`TESTS_SHOWN`] of at most
/// [`TEST_LINES_SHOWN`] lines each: (path, source), the first
/// with the failure's message under it as comments (what the runner said went wrong: the
/// values expected and got, which a test over a table of cases does not spell out). The
/// message is the first failure's, so it goes under the first test, which the first failure
/// names. The tests come first in every prompt, so a caching server reads them once.
fn tests_shown(run: &SubtaskRun) -> Vec<(String, String)> {
    let Some(failure) = run.failure.as_ref() else {
        return Vec::new();
    };
    let message = context::failure_message(&failure.output);
    failure
        .tests
        .iter()
        .take(TESTS_SHOWN)
        .enumerate()
        .map(|(i, (path, _, src))| {
            let src = context::shortened_test(path, src, TEST_LINES_SHOWN);
            let src = match i {
                0 => infill::test_with_failure(path, &src, &message),
                _ => src,
            };
            (path.clone(), src)
        })
        .collect()
}

/// The statements to ask for by default: the frame's, then the suspects, each once, most
/// suspect first (as many are asked as [`ask_all`]'s answers reach). Each answer is judged as it comes, so this is the order the
/// likeliest fixes are tried in. File order would save no prompt reading: two statements'
/// prompts share the code only up to the earlier hole, whichever is asked first, and the code
/// after it (7-75 s per statement under bench load, session 27) is read either way; in file
/// order the most suspect statement was asked second or third in 5 of 8 held-out runs of
/// session 27.
fn statements_to_ask<'a>(
    fault_line: Option<&'a FaultLine>,
    suspects: &'a [FaultLine],
) -> Vec<&'a FaultLine> {
    let mut seen = BTreeSet::new();
    fault_line
        .into_iter()
        .chain(suspects)
        .filter(|l| seen.insert((l.path.as_str(), l.start, l.end)))
        .collect()
}

/// The lines of the definition `line` is in: the one it was offered from, else a target
/// function holding it, else the statement itself.
fn definition_of(run: &SubtaskRun, line: &FaultLine) -> (usize, usize) {
    if let Some(f) = &line.suspect_in {
        return (f.start, f.end);
    }
    run.functions
        .iter()
        .find(|f| f.path == line.path && f.start <= line.start && line.end <= f.end)
        .map_or((line.start, line.end), |f| (f.start, f.end))
}

/// The phase's progress line (and attempt-log line).
fn report(run: &SubtaskRun, taken: &Taken, took: Duration) -> String {
    match &taken.error {
        Some(e) if taken.first_call_failed() => format!(
            "{} infill: the model could not be asked ({e}); going on without it",
            run.id
        ),
        _ => format!(
            "{} infill: the model wrote {} without seeing the statements{}, {} to judge ({:.0} s)",
            run.id,
            count(taken.answers, "answer"),
            match taken.refined {
                0 => String::new(),
                n => format!(" ({n} after a near miss)"),
            },
            count(taken.queued.len(), "new change"),
            took.as_secs_f64()
        ),
    }
}

/// `n` and `noun`, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests;
