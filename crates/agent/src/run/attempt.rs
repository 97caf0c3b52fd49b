//! One attempt of a subtask: [`run_attempt`] builds its prompts ([`attempt_prompts`]),
//! samples candidates (model call, then the static judge), judges each survivor by the
//! toolchain while the model writes the next candidate ([`judge_while_the_model_answers`]),
//! lands the first that fixes every target, else evaluates the rest and lands the winner or
//! returns the feedback of the furthest refusal ([`AttemptEnd`]). In the pipeline: ... -> per subtask: **attempts -> candidates** ->
//! static judge -> review -> dynamic judge -> proof -> land.

use crate::records::RunPhase;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{Tree, WorkTree};
use slopguard_llm::{BlockingClient, ChatResponse, LlmError, Role, Sampling};

use crate::dynamic;
use crate::gates::{self, Phase};
use crate::run::candidates::{self, Reached};
use crate::run::summary::*;
use slopguard_worker::{self as worker, prompt};

use super::carry::{AttemptEnd, AttemptWork, Refused, SubtaskRun};
use super::context::{Ctx, tokens_spent};
use super::error::RunError;
use super::infill;
use super::judge::{judge_statically, record_rejections};
use super::land::{finish_attempt, land};
use super::progress::ProgressEvent;
use super::repair::{TemplateQueue, TemplateWin};
use super::survivors::{evaluate_survivors, judge_survivor_now, keep_survivor};

/// Attempt `attempt` of `run`: prompts, candidates sampled and judged, with the repair
/// templates not yet tried (`untried_templates`: what this attempt leaves untried stays there
/// for the next one) judged while the model writes. The first full fix lands.
pub(super) fn run_attempt(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    feedback: &str,
    untried_templates: &mut Option<TemplateQueue>,
) -> Result<AttemptEnd, RunError> {
    let mut work = AttemptWork {
        start: Instant::now(),
        record: AttemptRecord {
            attempt,
            ..Default::default()
        },
        activity: Vec::new(),
        rejections: Vec::new(),
        survivors: run.carried.take().into_iter().collect(),
        llm: Duration::ZERO,
        tool: Duration::ZERO,
        refused_patches: Vec::new(),
    };
    cx.progress.on(&ProgressEvent::Attempt {
        id: run.id.clone(),
        attempt,
        max: cx.state.max_attempts.max(1),
    });
    cx.emit(
        RunPhase::Execution,
        "worker.attempt.begin",
        json!({"subtask_id": run.id, "attempt": attempt}),
    );
    if let Some(s) = cx.state.subtask_mut(&run.id) {
        s.attempts = attempt;
    }
    let tree: Arc<dyn Tree> = Arc::new(WorkTree::new(&cx.worktree));
    let prompts = attempt_prompts(cx, run, tree.as_ref(), attempt, feedback);
    let mut last_call = Duration::ZERO;
    // The newest survivor, judged by the toolchain while the next candidate is sampled. Only
    // with `--candidates auto`: a fixed count asks for that many replies to choose among
    // (votes, then size), so its survivors wait for the end of the attempt.
    let eager = cx.opts.candidates == candidates::CandidateCount::Auto;
    let mut pending: Option<usize> = None;
    // The conversation of a candidate that sent one definition or statement back unchanged,
    // continued with a request to change it: asked as the very next candidate, once. The
    // server still holds that conversation, so it reads only the new turn; asked later, after
    // other prompts, it was read whole again (13-16 s each on the 1.5B model). The rotation
    // over `prompts` goes on where it was. A whole file copied back is not continued: the
    // conversation would hold the file twice.
    let mut continued: Option<prompt::WorkerPrompt> = None;
    let mut rotation = 0usize;
    let mut templates = untried_templates.take();
    if let Some(queue) = templates.as_mut()
        && let Some(win) = infill::infill_phase(cx, client, run, attempt, &mut work, queue)?
    {
        return land_template(cx, run, attempt, win, work);
    }
    let share = candidates::attempt_share(
        run.budget,
        run.started.elapsed().saturating_sub(work.start.elapsed()),
        attempt,
        cx.state.max_attempts,
    );
    for index in 0..candidates::AUTO_MAX.max(fixed_count(cx.opts.candidates)) {
        let clock = candidates::AttemptClock {
            elapsed: work.start.elapsed(),
            share,
            subtask_left: run.budget.saturating_sub(run.started.elapsed()),
            last_call,
        };
        if !candidates::may_sample(cx.opts.candidates, index, clock) {
            break;
        }
        let asked: Cow<'_, prompt::WorkerPrompt> = match continued.take() {
            Some(conversation) => Cow::Owned(conversation),
            None => {
                let slot = rotation % prompts.len();
                rotation += 1;
                asked_again_with_refusals(cx, run, tree.as_ref(), attempt, feedback, &prompts[slot])
                    .map_or(Cow::Borrowed(&prompts[slot]), Cow::Owned)
            }
        };
        let pr = &*asked;
        if pr.is_continued() {
            cx.emit(
                RunPhase::Execution,
                "worker.candidate.continued",
                json!({"subtask_id": run.id, "attempt": attempt, "candidate": index + 1}),
            );
        }
        let judging = Judging {
            pending: pending.take(),
            templates: templates.as_mut(),
            eager,
        };
        let (won, called) =
            judge_while_the_model_answers(cx, client, run, attempt, index, pr, &mut work, judging)?;
        match won {
            Some(Won::Survivor(i, written, dynr)) => {
                return land_survivor(cx, run, attempt, i, written, dynr, work);
            }
            Some(Won::Template(win)) => return land_template(cx, run, attempt, win, work),
            None => {}
        }
        let Some(called) = called else {
            break;
        };
        last_call = called.took;
        let next = judge_and_follow(
            cx,
            client,
            run,
            attempt,
            index,
            pr,
            tree.clone(),
            &mut work,
            called,
        )?;
        run.remember_refusals(&mut work);
        pending = next.survivor.filter(|_| eager);
        continued = next.continued;
    }
    if let Some(i) = pending
        && let Some((written, dynr)) = judge_survivor_now(cx, client, run, attempt, &mut work, i)?
    {
        return land_survivor(cx, run, attempt, i, written, dynr, work);
    }
    if let Some((i, written, dynr)) = evaluate_survivors(cx, client, run, attempt, &mut work)? {
        return land_survivor(cx, run, attempt, i, written, dynr, work);
    }
    // The templates not yet tried go on beside the next attempt's candidates.
    *untried_templates = templates;
    run.remember_refusals(&mut work);
    run.llm_time += work.llm;
    run.tool_time += work.tool;
    let furthest = work.rejections.iter().max_by_key(|r| r.reached);
    let fb = furthest.map_or_else(
        || "- [apply] no candidate could be judged".to_string(),
        |r| r.feedback.clone(),
    );
    // The attempt's outcome is what stopped its furthest candidate: a reply that never became
    // a change is an apply error; one a guard, the build or the tests refused is blocked.
    work.record.outcome = match furthest.map(|r| r.reached) {
        None | Some(Reached::Model | Reached::Apply) if work.survivors.is_empty() => {
            AttemptOutcome::ApplyError
        }
        _ => AttemptOutcome::Blocked,
    };
    finish_attempt(
        cx,
        &run.id,
        work.record,
        work.activity,
        &fb,
        work.start,
        work.llm,
        work.tool,
    );
    Ok(AttemptEnd::Rejected(fb))
}

pub(super) fn fixed_count(count: candidates::CandidateCount) -> u32 {
    match count {
        candidates::CandidateCount::Fixed(k) => k,
        candidates::CandidateCount::Auto => 0,
    }
}

/// The attempt's prompts, one per answer format, used by the candidates in turn, the cheapest
/// to answer first. First the brief prompts ([`brief_prompts`]): one statement alone (the one
/// a frame of the failure names, else the target functions' most suspect statements,
/// [`fault_line::suspects`](slopguard_worker::fault_line::suspects)), or one function the
/// failing tests point at, alone. Then the files in the format their sizes call for (whole
/// files for small files), then SEARCH/REPLACE blocks when the files prompt rewrites them
/// whole. The formats fail differently, and the tests pick.
///
/// When there are brief prompts, the files prompt waits for the second attempt. Over the
/// 1.5B model's bench runs of sessions 19-21 it landed no fix (0 of 33 candidates) and cost
/// 75-95 s each, the time of eight to ten statement candidates, the only kind that landed
/// one; a fix that needs more than one definition still gets it, after the first round of
/// brief prompts.
///
/// The files prompt comes after every brief prompt because of what a prompt costs on a CPU:
/// the brief prompts share their opening (the failure, the tests, the definition), which the
/// model server reads once and keeps, while the files prompt holds whole files it must read
/// afresh. Measured with the 1.5B model on one thread: a 3,000-token files prompt took 98 s
/// to read before its first word, a 935-token brief prompt 43 s, and the brief prompts
/// after it, on the same opening, 8-15 s each with their replies (BENCHMARKS.md, session 20).
pub(super) fn attempt_prompts(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    tree: &dyn Tree,
    attempt: u32,
    feedback: &str,
) -> Vec<prompt::WorkerPrompt> {
    let t_prompt = Instant::now();
    let input = prompt_input(cx, run, tree, attempt, feedback);
    let mut prompts = brief_prompts(run, &input);
    if attempt > 1 || prompts.is_empty() {
        let files = prompt::build(&input);
        let rewrites_whole = files
            .files
            .iter()
            .any(|(_, p)| matches!(p, prompt::Presented::Full { whole: true }));
        prompts.push(files);
        if rewrites_whole {
            prompts.push(prompt::build(&prompt::PromptInput {
                policy: prompt::FormatPolicy {
                    blocks_only: true,
                    ..input.policy
                },
                ..input
            }));
        }
    }
    // What the model sent back unchanged in an earlier attempt is asked again only after
    // everything else: a fresh sample of the same request mostly copies again.
    if attempt > 1 {
        prompts = asked_first_what_was_not_copied_back(prompts, &run.copied_back);
    }
    // Every prompt knows a target definition, so an unreadable reply holding it is salvaged:
    // its own, or the most likely one.
    for p in &mut prompts {
        if p.target.is_none() {
            p.target = run.functions.first().cloned();
        }
    }
    cx.time("prompt", t_prompt);
    prompts
}

/// What every prompt of `attempt` is built from; a brief prompt adds its statement or
/// definition and the answers already refused ([`SubtaskRun::tried_for`]).
fn prompt_input<'a>(
    cx: &Ctx<'_>,
    run: &'a SubtaskRun,
    tree: &'a dyn Tree,
    attempt: u32,
    feedback: &'a str,
) -> prompt::PromptInput<'a> {
    let worker_cfg = cx.opts.llm.role(Role::Worker);
    prompt::PromptInput {
        subtask: &run.subtask,
        task_title: &run.task_title,
        tree,
        budget_tokens: cx.opts.file_budget_tokens,
        feedback,
        attempt,
        failure: run.failure.as_ref(),
        policy: prompt::FormatPolicy::for_model(&cx.state.run.model, worker_cfg.max_tokens),
        function: None,
        line: None,
        regression_test: cx
            .opts
            .regression_proof
            .then(|| {
                run.subtask
                    .file_hints
                    .iter()
                    .find(|h| slopguard_planning::analysis::is_test_file(h))
                    .map(String::as_str)
            })
            .flatten(),
        tried: &[],
    }
}

/// Brief prompt `pr` built again when answers were refused since it was built (earlier in
/// this attempt): a statement lists the refused answers to it, a definition every refused
/// answer, so a prompt later in an attempt hears what the first candidates got wrong (after
/// ChatRepair). `None` when nothing changed, or for a files prompt.
fn asked_again_with_refusals(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    tree: &dyn Tree,
    attempt: u32,
    feedback: &str,
    pr: &prompt::WorkerPrompt,
) -> Option<prompt::WorkerPrompt> {
    let asks = pr.asks_for()?;
    let tried = run.tried_for(pr.line.is_some().then_some(asks.as_str()));
    if tried.is_empty() || tried == pr.tried {
        return None;
    }
    let mut again = prompt::build(&prompt::PromptInput {
        line: pr.line.as_ref(),
        function: pr.function.as_ref(),
        tried: &tried,
        ..prompt_input(cx, run, tree, attempt, feedback)
    });
    again.target = pr.target.clone();
    Some(again)
}

/// The brief prompts of [`attempt_prompts`], in their order: two statements, then a
/// definition, and again, until both run out. The statements are the one a frame of the
/// failure names, else the suspect statements of the target functions; the definitions are
/// the target functions, the most likely first.
///
/// Statements come first because of what each kind returned. Over session 19's 88 runs with
/// the 1.5B model, a statement prompt's candidate took a median 8 s, sent the code back
/// unchanged in 20 of 102 cases and passed the static gates in 68; a definition prompt's took
/// 49 s, sent the code back in 37 of 60 and passed in 23 (BENCHMARKS.md, session 20). A
/// definition is still asked for early: a fix of several statements needs it.
///
/// From the second attempt on, each definition comes before its two statements. By then the
/// definition lists every answer the build or the tests refused, and in sessions 20-22 the
/// later attempts' statement candidates landed 1 fix in 308, their definitions 2 in 53
/// (BENCHMARKS.md, session 23).
fn brief_prompts(run: &SubtaskRun, input: &prompt::PromptInput<'_>) -> Vec<prompt::WorkerPrompt> {
    // A change that must bring its own regression test cannot be one function.
    let functions: &[prompt::FunctionTarget] = match input.regression_test {
        None => &run.functions,
        Some(_) => &[],
    };
    let refused = run.tried_for(None);
    let mut definitions = functions.iter().map(|f| {
        prompt::build(&prompt::PromptInput {
            function: Some(f),
            tried: &refused,
            ..*input
        })
    });
    let mut statements = run.fault_line.iter().chain(&run.suspects).map(|line| {
        let tried = run.tried_for(Some(&prompt::statement_key(line)));
        // A frame's statement inside a target definition is asked briefly, like a suspect.
        let holder = |f: &&prompt::FunctionTarget| f.holds(&line.path, line.start, line.end);
        prompt::build(&prompt::PromptInput {
            line: Some(line),
            function: run.functions.iter().find(holder),
            tried: &tried,
            ..*input
        })
    });
    let mut prompts = Vec::new();
    loop {
        let before = prompts.len();
        if input.attempt > 1 {
            prompts.extend(definitions.next());
        }
        prompts.extend(statements.by_ref().take(STATEMENTS_PER_DEFINITION));
        if input.attempt <= 1 {
            prompts.extend(definitions.next());
        }
        if prompts.len() == before {
            return prompts;
        }
    }
}

/// Statements asked for before each definition ([`brief_prompts`]).
const STATEMENTS_PER_DEFINITION: usize = 2;

/// `prompts` with those whose request is in `copied_back` moved to the end, each group in its
/// order.
fn asked_first_what_was_not_copied_back(
    prompts: Vec<prompt::WorkerPrompt>,
    copied_back: &BTreeSet<String>,
) -> Vec<prompt::WorkerPrompt> {
    let (again, fresh): (Vec<_>, Vec<_>) = prompts
        .into_iter()
        .partition(|p| p.asks_for().is_some_and(|k| copied_back.contains(&k)));
    fresh.into_iter().chain(again).collect()
}

/// A model call for one candidate: its reply and what it cost.
pub(super) struct Called {
    reply: Result<ChatResponse, LlmError>,
    sampling: Sampling,
    took: Duration,
    /// The client's (prompt, completion) token counters before the call.
    spent_before: (u64, u64),
}

/// The sampling of candidate `index` of `attempt` for prompt `pr`.
fn sampling_for(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    attempt: u32,
    index: u32,
    pr: &prompt::WorkerPrompt,
) -> Sampling {
    Sampling {
        temperature: Some(candidates::temperature_for(attempt, index, pr.is_focused())),
        seed: Some(candidates::seed(
            &cx.state.run.run_id,
            &run.id,
            attempt,
            index,
        )),
        max_tokens: pr.reply_tokens,
    }
}

/// What is judged while the model writes a candidate.
struct Judging<'q> {
    /// The previous candidate, when it passed the static gates (judged first).
    pending: Option<usize>,
    /// The repair templates not yet tried, judged after it until the reply comes.
    templates: Option<&'q mut TemplateQueue>,
    /// Whether a reply stops the templates (`--candidates auto`); with a fixed count every
    /// template is judged before the first reply is read, as the replies wait anyway.
    eager: bool,
}

/// What won while the model wrote.
enum Won {
    /// A survivor of the model's: its index, written, with its report.
    Survivor(usize, dynamic::Written, dynamic::DynamicReport),
    /// A repair template, written.
    Template(TemplateWin),
}

/// Samples candidate `index` while the toolchain judges what is waiting ([`Judging`]): the
/// previous candidate, when it passed the static gates, then repair templates until the
/// reply comes. The model (its own process) writes while the builds and the tests run. When
/// something wins, the model call is given up. A call that fails leaves the templates the
/// time they need: they need no model. Returns the winner, else the new reply (`None` only
/// when the call was given up).
#[allow(clippy::too_many_arguments)]
fn judge_while_the_model_answers(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    index: u32,
    pr: &prompt::WorkerPrompt,
    work: &mut AttemptWork,
    mut judging: Judging<'_>,
) -> Result<(Option<Won>, Option<Called>), RunError> {
    let sampling = sampling_for(cx, run, attempt, index, pr);
    let spent_before = tokens_spent(client);
    let give_up = AtomicBool::new(false);
    let (won, reply) = std::thread::scope(|s| {
        let call = s.spawn(|| {
            let t = Instant::now();
            let reply = client.chat_sampled_unless(Role::Worker, &pr.messages, sampling, &give_up);
            reply.map(|r| (r, t.elapsed()))
        });
        let mut won = match judging.pending {
            Some(i) => judge_survivor_now(cx, client, run, attempt, work, i)
                .map(|w| w.map(|(written, dynr)| Won::Survivor(i, written, dynr))),
            None => Ok(None),
        };
        if let (Ok(None), Some(queue)) = (&won, judging.templates.as_deref_mut()) {
            let replied = || judging.eager && call.is_finished();
            won = queue
                .run_until(cx, run, attempt, work, replied)
                .map(|w| w.map(Won::Template));
        }
        if !matches!(won, Ok(None)) {
            give_up.store(true, Ordering::Relaxed);
        }
        (won, call.join().ok().flatten())
    });
    let mut won = won?;
    if won.is_none()
        && !matches!(reply, Some((Ok(_), _)))
        && let Some(queue) = judging.templates
    {
        won = queue
            .run_until(cx, run, attempt, work, || false)?
            .map(Won::Template);
    }
    let called = reply.filter(|_| won.is_none()).map(|(reply, took)| Called {
        reply,
        sampling,
        took,
        spent_before,
    });
    Ok((won, called))
}

/// Lands the repair template `win`, written; the attempt's model and tool time go to the
/// subtask.
fn land_template(
    cx: &mut Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    win: TemplateWin,
    work: AttemptWork,
) -> Result<AttemptEnd, RunError> {
    run.llm_time += work.llm;
    run.tool_time += work.tool;
    let end = land(
        cx,
        run,
        attempt,
        &win.applied,
        win.written,
        win.report,
        work,
    )?;
    if let (AttemptEnd::Landed(..), Some(s)) = (&end, cx.state.subtask_mut(&run.id)) {
        s.also_passing = win.also_passing;
    }
    Ok(end)
}

/// Lands survivor `i`, written, with its report; the attempt's model and tool time go to the
/// subtask.
fn land_survivor(
    cx: &mut Ctx<'_>,
    run: &mut SubtaskRun,
    attempt: u32,
    i: usize,
    written: dynamic::Written,
    dynr: dynamic::DynamicReport,
    mut work: AttemptWork,
) -> Result<AttemptEnd, RunError> {
    run.llm_time += work.llm;
    run.tool_time += work.tool;
    let survivor = work.survivors.swap_remove(i);
    cx.emit(
        RunPhase::Execution,
        "worker.candidate.won",
        json!({"subtask_id": run.id, "attempt": attempt, "candidate": survivor.index + 1}),
    );
    land(cx, run, attempt, &survivor.applied, written, dynr, work)
}

/// What a judged reply leaves for the next candidates.
struct FollowUp {
    /// The survivor it added, to be judged by the toolchain while the next is written.
    survivor: Option<usize>,
    /// Its conversation continued, when it sent a definition or statement back unchanged
    /// (once per conversation).
    continued: Option<prompt::WorkerPrompt>,
}

/// [`judge_reply`], then what the reply leaves for the next candidates.
#[allow(clippy::too_many_arguments)]
fn judge_and_follow(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    index: u32,
    pr: &prompt::WorkerPrompt,
    tree: Arc<dyn Tree>,
    work: &mut AttemptWork,
    called: Called,
) -> Result<FollowUp, RunError> {
    let before = work.survivors.len();
    let same = judge_reply(cx, client, run, attempt, index, pr, tree, work, called)?;
    if let (Some(_), Some(key)) = (&same, pr.asks_for()) {
        run.copied_back.insert(key);
    }
    Ok(FollowUp {
        survivor: (work.survivors.len() > before).then_some(before),
        continued: same
            .filter(|_| pr.is_brief() && !pr.is_continued())
            .map(|reply| pr.after_unchanged_reply(&reply)),
    })
}

/// Judges candidate `index`'s reply statically: a survivor (or a vote for an identical one)
/// or a rejection, with its progress and attempt-log line. Returns the reply when it was the
/// code as it already was.
#[allow(clippy::too_many_arguments)]
fn judge_reply(
    cx: &mut Ctx<'_>,
    client: &BlockingClient,
    run: &mut SubtaskRun,
    attempt: u32,
    index: u32,
    pr: &prompt::WorkerPrompt,
    tree: Arc<dyn Tree>,
    work: &mut AttemptWork,
    called: Called,
) -> Result<Option<String>, RunError> {
    let Called {
        reply,
        sampling,
        took,
        spent_before: spent,
    } = called;
    let used = tokens_spent(client);
    cx.state.run.usage.add_since(spent, used);
    // The tokens are on disk at once: a run killed at a time limit still says what it spent.
    cx.save()?;
    work.llm += took;
    run.sampled += 1;
    let line = CandidateLine {
        attempt,
        index,
        sampling,
        took,
        completion_tokens: used.1 - spent.1,
        asks: pr.asks_for().unwrap_or_else(|| "files".to_string()),
    };
    let reply = match reply {
        Ok(r) => r,
        Err(e) if e.is_unreachable() => {
            cx.save()?;
            return Err(RunError::LlmUnreachable(format!(
                "{e}. The run state is kept: `slopguard run --resume` continues at {}.",
                run.id
            )));
        }
        Err(e) => {
            let r = record_rejections(
                cx,
                run,
                attempt,
                &mut work.activity,
                &[gates::Rejection::message(
                    "llm",
                    Phase::Apply,
                    e.to_string(),
                )],
            );
            candidate_line(
                cx,
                &mut work.record,
                run,
                &line,
                "model error",
                &e.to_string(),
            );
            work.rejections.push(Refused {
                unchanged: false,
                reached: Reached::Model,
                feedback: format!("- [llm] {r}"),
            });
            return Ok(None);
        }
    };
    let complete = reply.finish_reason.as_deref() != Some("length");
    let text = if complete {
        worker::reply::close_forgotten_fence(&reply.content)
    } else {
        reply.content.clone()
    };
    let t_apply = Instant::now();
    let judged = judge_statically(cx, run, attempt, pr, tree, &text, &mut work.activity);
    cx.time("apply_and_static", t_apply);
    let mut unchanged = false;
    let verdict = match judged {
        Ok(applied) => keep_survivor(
            &mut work.survivors,
            index,
            applied,
            pr.asks_for(),
            &run.refused,
        ),
        Err(r) => {
            let first = r.feedback.lines().next().unwrap_or("").to_string();
            unchanged = r.unchanged;
            work.rejections.push(r);
            first
        }
    };
    let what = if reply.finish_reason.as_deref() == Some("length") {
        "cut off at max_tokens"
    } else {
        "reply"
    };
    candidate_line(cx, &mut work.record, run, &line, what, &verdict);
    Ok(unchanged.then_some(text))
}

/// What the progress line of a sampled candidate says about its model call.
pub(super) struct CandidateLine {
    pub(super) attempt: u32,
    pub(super) index: u32,
    pub(super) sampling: Sampling,
    pub(super) took: Duration,
    pub(super) completion_tokens: u64,
    /// What the prompt asked for ([`prompt::WorkerPrompt::asks_for`]; `files` for a files
    /// prompt): which kinds of answer copy back and which land, read from the trace.
    pub(super) asks: String,
}

/// One progress line and one attempt-log line for a sampled candidate.
pub(super) fn candidate_line(
    cx: &Ctx<'_>,
    record: &mut AttemptRecord,
    run: &SubtaskRun,
    c: &CandidateLine,
    what: &str,
    verdict: &str,
) {
    let secs = c.took.as_secs_f64();
    let rate = if secs > 0.0 {
        c.completion_tokens as f64 / secs
    } else {
        0.0
    };
    let line = format!(
        "{} attempt {} candidate {} (t={:.1}): {what}, {} tokens in {secs:.1} s ({rate:.1} tok/s): {verdict}",
        run.id,
        c.attempt,
        c.index + 1,
        c.sampling.temperature.unwrap_or_default(),
        c.completion_tokens,
    );
    cx.progress.on(&ProgressEvent::Candidate(line.clone()));
    cx.emit(
        RunPhase::Execution,
        "worker.candidate",
        json!({"subtask_id": run.id, "attempt": c.attempt, "candidate": c.index + 1,
               "temperature": c.sampling.temperature, "seed": c.sampling.seed, "ms": c.took.as_millis() as u64,
               "completion_tokens": c.completion_tokens, "asks": c.asks, "verdict": verdict}),
    );
    record.candidates.push(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statement_prompt(start: usize) -> prompt::WorkerPrompt {
        prompt::WorkerPrompt {
            messages: Vec::new(),
            files: Vec::new(),
            function: None,
            target: None,
            line: Some(slopguard_worker::fault_line::FaultLine {
                path: "m.py".into(),
                start,
                end: start,
                text: "x = 1".into(),
                error: None,
                suspect_in: None,
            }),
            reply_tokens: None,
            tried: Vec::new(),
        }
    }

    #[test]
    fn what_was_copied_back_is_asked_after_everything_else() {
        let files_prompt = prompt::WorkerPrompt {
            line: None,
            ..statement_prompt(0)
        };
        let prompts = vec![statement_prompt(3), files_prompt, statement_prompt(7)];
        let copied = BTreeSet::from(["statement m.py:3-3".to_string()]);
        let order: Vec<Option<String>> = asked_first_what_was_not_copied_back(prompts, &copied)
            .iter()
            .map(prompt::WorkerPrompt::asks_for)
            .collect();
        assert_eq!(
            order,
            [
                None,
                Some("statement m.py:7-7".to_string()),
                Some("statement m.py:3-3".to_string())
            ]
        );
    }

    #[test]
    fn fixed_count_is_zero_for_auto() {
        assert_eq!(fixed_count(candidates::CandidateCount::Fixed(5)), 5);
        assert_eq!(fixed_count(candidates::CandidateCount::Auto), 0);
    }
}
