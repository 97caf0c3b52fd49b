//! The infill phase: the model writes the suspect statements again without being shown them
//! ([`slopguard_worker::infill`]), and each answer that changes one is judged like a repair
//! template.
//!
//! Once per subtask, at the start of its first attempt, for a model trained to fill in the
//! middle: the statement a frame of the failure names and the suspect statements of the
//! definitions the failing tests call, the first [`STATEMENTS`], each asked
//! [`TEMPERATURES`]`.len()` times, with the failing tests as another file of the prompt. The
//! answers are short (one statement) and a statement's prompts differ only in their sampling,
//! so a caching server reads each prompt once: on the 1.5B model under load, about 25 s for
//! the first and 1-3 s for each after it. The repair templates are judged meanwhile. The
//! changes go to the front of the template queue, before the templates not yet tried, and
//! meet the same static guards, build, tests and kept-behaviour check.
//!
//! In the pipeline: ... -> per subtask -> attempt 1 -> **infill** (while the templates run)
//! -> candidates -> ...

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_llm::{BlockingClient, ChatResponse, LlmError, Role, Sampling};
use slopguard_worker::context;
use slopguard_worker::fault_line::FaultLine;
use slopguard_worker::infill::{self, FimFormat, InfillRequest};
use slopguard_worker::templates::TemplateFix;

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
/// two others.
pub(super) const TEMPERATURES: [f32; 3] = [0.2, 0.8, 1.0];

/// Failing tests shown as files of the prompt, at most.
const TESTS_SHOWN: usize = 2;

/// One infill asked for, and what came back.
struct Asked {
    request: usize,
    temperature: f32,
    took: Duration,
    reply: Result<ChatResponse, LlmError>,
}

/// Asks for the infills of `run` while the repair templates of `queue` are judged. Returns a
/// template that won meanwhile; otherwise the infills' changes are at the front of `queue`.
/// Nothing is asked when the model has no fill-in-the-middle format or no statement is known.
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
    let seeds: Vec<u64> = (0..requests.len() * TEMPERATURES.len())
        .map(|i| candidates::seed(&cx.state.run.run_id, &run.id, attempt, 1000 + i as u32))
        .collect();
    let (won, asked) = std::thread::scope(|s| {
        let calls = s.spawn(|| ask_all(client, &requests, &seeds, &give_up));
        let won = queue.run_until(cx, run, attempt, work, || calls.is_finished());
        if !matches!(won, Ok(None)) {
            give_up.store(true, Ordering::Relaxed);
        }
        (won, calls.join().unwrap_or_default())
    });
    cx.state.run.usage.add_since(spent, tokens_spent(client));
    let took: Duration = asked.iter().map(|a| a.took).sum();
    work.llm += took;
    let fixes = fixes(cx, run, &requests, &asked);
    let line = report(run, &asked, &fixes, started.elapsed());
    cx.progress.on(&ProgressEvent::Candidate(line.clone()));
    work.record.candidates.push(line);
    if let Some(win) = won? {
        return Ok(Some(win));
    }
    queue.put_first(fixes);
    Ok(None)
}

/// The requests for `run`'s statements: the frame's, then the suspects, at most
/// [`STATEMENTS`], each in the definition it is in, with the failing tests.
fn requests(format: FimFormat, run: &SubtaskRun, tree: &dyn Tree) -> Vec<InfillRequest> {
    let tests: Vec<(String, String)> = run
        .failure
        .as_ref()
        .map(|f| {
            f.tests
                .iter()
                .take(TESTS_SHOWN)
                .map(|(path, _, src)| (path.clone(), src.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut seen = BTreeSet::new();
    let mut lines: Vec<&FaultLine> = run
        .fault_line
        .iter()
        .chain(&run.suspects)
        .filter(|l| seen.insert((l.path.clone(), l.start, l.end)))
        .take(STATEMENTS)
        .collect();
    // In file order: each prompt then repeats the one before up to that one's hole, which a
    // caching server does not read again (the answers are all judged after the phase, so
    // the order costs no time to a fix).
    lines.sort_by_key(|l| (l.path.clone(), l.start));
    lines
        .into_iter()
        .filter_map(|line| {
            let text = context::source_text(tree, &line.path)?;
            infill::request(
                format,
                &line.path,
                &text,
                (line.start, line.end),
                definition_of(run, line),
                &tests,
            )
        })
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

/// Asks every request at every temperature, statement by statement (so a caching server
/// reads each prompt once), until `give_up`.
fn ask_all(
    client: &BlockingClient,
    requests: &[InfillRequest],
    seeds: &[u64],
    give_up: &AtomicBool,
) -> Vec<Asked> {
    let mut asked = Vec::new();
    for (r, req) in requests.iter().enumerate() {
        for (k, &temperature) in TEMPERATURES.iter().enumerate() {
            if give_up.load(Ordering::Relaxed) {
                return asked;
            }
            let sampling = Sampling {
                temperature: Some(temperature),
                seed: seeds.get(r * TEMPERATURES.len() + k).copied(),
                max_tokens: Some(req.max_tokens),
            };
            let t = Instant::now();
            let Some(reply) = client.complete_sampled_unless(
                Role::Worker,
                &req.prompt,
                &req.stop,
                sampling,
                give_up,
            ) else {
                return asked;
            };
            let failed = reply.is_err();
            asked.push(Asked {
                request: r,
                temperature,
                took: t.elapsed(),
                reply,
            });
            // A server without the endpoint, or down: the chat candidates will say so.
            if failed {
                return asked;
            }
        }
    }
    asked
}

/// The distinct changes the answers make, in the order they came; each answer is in the
/// trace.
fn fixes(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    requests: &[InfillRequest],
    asked: &[Asked],
) -> Vec<TemplateFix> {
    let mut out: Vec<TemplateFix> = Vec::new();
    for a in asked {
        let req = &requests[a.request];
        let (middle, verdict) = match &a.reply {
            Ok(reply) => {
                let verdict = match req.fix(&reply.content) {
                    None => "no change",
                    Some(f) if out.iter().any(|o| o.text == f.text) => "same as an earlier one",
                    Some(f) => {
                        out.push(f);
                        "queued"
                    }
                };
                (reply.content.clone(), verdict.to_string())
            }
            Err(e) => (String::new(), format!("model error: {e}")),
        };
        cx.emit(
            RunPhase::Execution,
            "worker.infill",
            json!({"subtask_id": run.id, "path": req.path, "line": req.start,
                   "temperature": a.temperature, "ms": a.took.as_millis() as u64,
                   "middle": middle, "verdict": verdict}),
        );
    }
    out
}

/// The phase's progress line (and attempt-log line).
fn report(run: &SubtaskRun, asked: &[Asked], fixes: &[TemplateFix], took: Duration) -> String {
    match asked.iter().find_map(|a| a.reply.as_ref().err()) {
        Some(e) if asked.len() == 1 => format!(
            "{} infill: the model could not be asked ({e}); going on without it",
            run.id
        ),
        _ => format!(
            "{} infill: {} statements written by the model without seeing them, {} new changes to judge ({:.0} s)",
            run.id,
            asked.len(),
            fixes.len(),
            took.as_secs_f64()
        ),
    }
}
