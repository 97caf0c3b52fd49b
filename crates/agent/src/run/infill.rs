//! The infill phase: the model writes the suspect statements again without being shown them
//! ([`slopguard_worker::infill`]), and each answer that changes one is judged like a repair
//! template.
//!
//! Once per subtask, at the start of its first attempt, for a model trained to fill in the
//! middle: the statement a frame of the failure names and the suspect statements of the
//! definitions the failing tests call, the first [`STATEMENTS`], each asked
//! [`TEMPERATURES`]`.len()` times, with the failing tests as another file of the prompt (the
//! first with the failure's message under it as comments). The answers are short (one
//! statement) and a statement's prompts differ only in their sampling, so a caching server
//! reads each prompt once: on the 1.5B model under load, about 25 s for the first and 1-3 s
//! for each after it. The repair templates are judged meanwhile; each change an answer makes
//! goes to the front of the template queue as it comes, so it waits at most for the template
//! being judged, and meets the same static guards, build, tests and kept-behaviour check. A
//! change that wins ends the phase: the calls left are given up.
//!
//! After the statements, one empty hole where a statement may be missing: before the last
//! statement of the most suspect statement's definition (a step missing before the result
//! is returned). No rewrite of a statement that is there can put back one that is not. A
//! second gap, before the most suspect statement, fixed no task in session 30's runs and
//! cost each failed run another prompt to read (BENCHMARKS.md), so it is not asked.
//!
//! In the pipeline: ... -> per subtask -> attempt 1 -> **infill** (while the templates run)
//! -> candidates -> ...

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_llm::{BlockingClient, ChatResponse, LlmError, Role, Sampling};
use slopguard_worker::context;
use slopguard_worker::fault_line::FaultLine;
use slopguard_worker::infill::{self, FimFormat, Hole, InfillRequest};

use super::candidates;
use super::carry::{AttemptWork, SubtaskRun};
use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::progress::ProgressEvent;
use super::repair::{TemplateQueue, TemplateWin};
use crate::records::RunPhase;

/// Statements asked for: the frame's, then the most suspect. The right statement was among
/// the first two offered in most of the development half's runs (sessions 23-24).
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

/// Failing tests shown as files of the prompt, at most.
const TESTS_SHOWN: usize = 2;

/// One infill asked for, and what came back.
struct Asked {
    request: usize,
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
    let tree = WorkTree::new(&cx.worktree);
    let requests = requests(format, run, &tree);
    if requests.is_empty() {
        return Ok(None);
    }
    let started = Instant::now();
    let spent = tokens_spent(client);
    let give_up = AtomicBool::new(false);
    let sent = AtomicUsize::new(0);
    let asks: Vec<Ask> = schedule(&requests)
        .into_iter()
        .enumerate()
        .map(|(i, (request, temperature))| Ask {
            request,
            temperature,
            seed: candidates::seed(&cx.state.run.run_id, &run.id, attempt, 1000 + i as u32),
        })
        .collect();
    let (tx, rx) = mpsc::channel();
    let mut taken = Taken::default();
    let won = std::thread::scope(|s| {
        let (requests, asks, give_up, sent) = (&requests, &asks, &give_up, &sent);
        let calls = s.spawn(move || ask_all(client, requests, asks, give_up, sent, tx));
        let won = judge_as_they_come(
            cx,
            run,
            attempt,
            work,
            queue,
            requests,
            &rx,
            sent,
            &mut taken,
            || calls.is_finished(),
        );
        give_up.store(true, Ordering::Relaxed);
        let _ = calls.join();
        won
    });
    // The answers that came while the last change was judged.
    for asked in rx.try_iter() {
        taken.take(cx, run, &requests, queue, asked);
    }
    if !taken.queued.is_empty() {
        queue.report_again();
    }
    cx.state.run.usage.add_since(spent, tokens_spent(client));
    work.llm += taken.took;
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
    requests: &[InfillRequest],
    rx: &mpsc::Receiver<Asked>,
    sent: &AtomicUsize,
    taken: &mut Taken,
    finished: impl Fn() -> bool,
) -> Result<Option<TemplateWin>, RunError> {
    loop {
        for asked in rx.try_iter() {
            taken.take(cx, run, requests, queue, asked);
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
                taken.take(cx, run, requests, queue, asked);
            }
        }
    }
}

impl Taken {
    /// Takes one answer: traces it with its verdict and queues the change it makes, when it
    /// makes a new one.
    fn take(
        &mut self,
        cx: &Ctx<'_>,
        run: &SubtaskRun,
        requests: &[InfillRequest],
        queue: &mut TemplateQueue,
        asked: Asked,
    ) {
        self.answers += 1;
        self.took += asked.took;
        let req = &requests[asked.request];
        let (middle, verdict) = match &asked.reply {
            Ok(reply) => {
                let verdict = match req.fix(&reply.content) {
                    Err(not) => not.to_string(),
                    Ok(f) if self.queued.contains(&f.text) => "same as an earlier one".into(),
                    Ok(f) => {
                        self.queued.push(f.text.clone());
                        queue.put_first(vec![f]);
                        "queued".into()
                    }
                };
                (reply.content.clone(), verdict)
            }
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                (String::new(), format!("model error: {e}"))
            }
        };
        cx.emit(
            RunPhase::Execution,
            "worker.infill",
            json!({"subtask_id": run.id, "path": req.path, "line": req.start,
                   "hole": match req.hole { Hole::Gap => "gap", Hole::Statement => "statement" },
                   "temperature": asked.temperature, "ms": asked.took.as_millis() as u64,
                   "middle": middle, "verdict": verdict}),
        );
    }
}

/// The requests for `run`'s statements: the frame's, then the suspects, at most
/// [`STATEMENTS`], each in the definition it is in, with the failing tests; then the gap
/// ([`gap_to_ask`]).
fn requests(format: FimFormat, run: &SubtaskRun, tree: &dyn Tree) -> Vec<InfillRequest> {
    let tests = tests_shown(run);
    let statements = statements_to_ask(run.fault_line.as_ref(), &run.suspects);
    // Each file read once: the statements are mostly in one file, the gap in the first's.
    let mut texts: BTreeMap<&str, Option<String>> = BTreeMap::new();
    for line in &statements {
        texts
            .entry(line.path.as_str())
            .or_insert_with(|| context::source_text(tree, &line.path));
    }
    let text_of = |path: &str| texts.get(path).and_then(|t| t.as_deref());
    let mut requests: Vec<InfillRequest> = statements
        .iter()
        .filter_map(|line| {
            infill::request(
                format,
                &line.path,
                text_of(&line.path)?,
                (line.start, line.end),
                definition_of(run, line),
                &tests,
            )
        })
        .collect();
    if let Some(&first) = statements.first()
        && let Some(text) = text_of(&first.path)
    {
        let definition = definition_of(run, first);
        if let Some(before) = gap_to_ask(text, definition) {
            requests.extend(infill::gap(
                format,
                &first.path,
                text,
                before,
                definition,
                &tests,
            ));
        }
    }
    requests
}

/// The line a missing statement may go before: the last statement of the definition on
/// lines `definition` of `text` (a step missing before the result is returned). `None` when
/// the definition is not known (it is the statement itself).
fn gap_to_ask(text: &str, definition: (usize, usize)) -> Option<usize> {
    (definition.0 < definition.1)
        .then(|| infill::last_statement(text, definition))
        .flatten()
}

/// The failing tests shown in the prompts, at most [`TESTS_SHOWN`]: (path, source), the first
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
            let src = match i {
                0 => infill::test_with_failure(path, src, &message),
                _ => src.clone(),
            };
            (path.clone(), src)
        })
        .collect()
}

/// The statements to ask for: the frame's, then the suspects, at most [`STATEMENTS`], each
/// once, most suspect first. Each answer is judged as it comes, so this is the order the
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
        .take(STATEMENTS)
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

/// One infill to ask for: which request, and how to sample it.
struct Ask {
    request: usize,
    temperature: f32,
    seed: u64,
}

/// The order the infills of `requests` are asked in: hole by hole, each at every one of its
/// temperatures ([`TEMPERATURES`] for a statement, [`GAP_TEMPERATURES`] for a gap; its
/// prompts then differ only in their sampling, so a caching server reads each once).
fn schedule(requests: &[InfillRequest]) -> Vec<(usize, f32)> {
    requests
        .iter()
        .enumerate()
        .flat_map(|(r, req)| {
            let temperatures: &[f32] = match req.hole {
                Hole::Statement => &TEMPERATURES,
                Hole::Gap => &GAP_TEMPERATURES,
            };
            temperatures.iter().map(move |&t| (r, t))
        })
        .collect()
}

/// Asks `asks` in order until `give_up`; sends each answer as it comes and counts it in
/// `sent`. Stops at the first call that fails (a server without the endpoint, or down: the
/// chat candidates will say so).
fn ask_all(
    client: &BlockingClient,
    requests: &[InfillRequest],
    asks: &[Ask],
    give_up: &AtomicBool,
    sent: &AtomicUsize,
    answers: mpsc::Sender<Asked>,
) {
    for ask in asks {
        if give_up.load(Ordering::Relaxed) {
            return;
        }
        let req = &requests[ask.request];
        let sampling = Sampling {
            temperature: Some(ask.temperature),
            seed: Some(ask.seed),
            max_tokens: Some(req.max_tokens),
        };
        let t = Instant::now();
        let Some(reply) =
            client.complete_sampled_unless(Role::Worker, &req.prompt, &req.stop, sampling, give_up)
        else {
            return;
        };
        let failed = reply.is_err();
        let asked = Asked {
            request: ask.request,
            temperature: ask.temperature,
            took: t.elapsed(),
            reply,
        };
        if answers.send(asked).is_err() {
            return;
        }
        sent.fetch_add(1, Ordering::Relaxed);
        if failed {
            return;
        }
    }
}

/// The phase's progress line (and attempt-log line).
fn report(run: &SubtaskRun, taken: &Taken, took: Duration) -> String {
    match &taken.error {
        Some(e) if taken.answers == 1 => format!(
            "{} infill: the model could not be asked ({e}); going on without it",
            run.id
        ),
        _ => format!(
            "{} infill: the model wrote {} without seeing the statements, {} to judge ({:.0} s)",
            run.id,
            count(taken.answers, "answer"),
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
mod tests {
    use super::*;

    fn line(start: usize) -> FaultLine {
        FaultLine {
            path: "a.py".into(),
            start,
            end: start,
            text: format!("line {start}"),
            error: None,
            suspect_in: None,
        }
    }

    #[test]
    fn the_frames_statement_then_the_suspects_are_asked_most_suspect_first_each_once() {
        let frame = line(40);
        let suspects = [line(30), line(40), line(12), line(20)];
        let starts: Vec<usize> = statements_to_ask(Some(&frame), &suspects)
            .iter()
            .map(|l| l.start)
            .collect();
        assert_eq!(starts, [40, 30, 12]);
        let starts: Vec<usize> = statements_to_ask(None, &suspects)
            .iter()
            .map(|l| l.start)
            .collect();
        assert_eq!(starts, [30, 40, 12]);
    }

    const PY: &str =
        "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n";

    #[test]
    fn each_hole_is_asked_in_turn_the_likeliest_middle_first_and_a_gap_fewer_times() {
        let requests = [
            infill::request(FimFormat::Qwen, "a.py", PY, (4, 4), (1, 5), &[]).unwrap(),
            infill::request(FimFormat::Qwen, "a.py", PY, (2, 2), (1, 5), &[]).unwrap(),
            infill::gap(FimFormat::Qwen, "a.py", PY, 5, (1, 5), &[]).unwrap(),
        ];
        let order = schedule(&requests);
        assert_eq!(order.len(), 15);
        assert_eq!(
            &order[..6],
            &[(0, 0.2), (0, 0.8), (0, 1.0), (0, 1.0), (0, 1.0), (0, 1.0)]
        );
        assert!(order[6..12].iter().all(|&(r, _)| r == 1));
        assert_eq!(&order[12..], &[(2, 0.2), (2, 0.8), (2, 1.0)]);
    }

    #[test]
    fn the_gap_is_before_the_last_statement_of_a_known_definition() {
        assert_eq!(gap_to_ask(PY, (1, 5)), Some(5));
        assert_eq!(gap_to_ask(PY, (4, 4)), None, "no definition known");
    }
}
