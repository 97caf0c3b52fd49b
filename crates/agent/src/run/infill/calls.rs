//! The infill calls of one phase, made one after another on their own thread while the
//! judge takes their answers ([`super::infill_phase`]).

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use slopguard_llm::{BlockingClient, Role, Sampling};
use slopguard_worker::infill::{self, InfillRequest};

use super::super::carry::{NearMiss, NearMisses};
use super::holes::HolePicker;
use super::{
    Asked, GAP_TEMPERATURES, GUARD_GAP_TEMPERATURES, GUARD_GAPS, LAST_VERDICTS,
    REFINED_TEMPERATURES, REFINEMENTS, STALE_IN_A_ROW, STATEMENTS, TEMPERATURES,
};

/// Asks the gap after a value never used, when there is one; then statements, each chosen by
/// `picker` when its turn comes (so that the templates judged meanwhile can point at it), each
/// at every one of [`TEMPERATURES`], the likeliest middle first (a statement's prompts differ
/// only in their sampling, so a caching server reads each once), until [`STATEMENTS`] times
/// [`TEMPERATURES`] answers are spent: a statement whose answers bring nothing new
/// [`STALE_IN_A_ROW`] times in a row is left early for the next one. Then the other gaps.
/// Each gap is asked at [`GAP_TEMPERATURES`] (a later attempt's picker gives none). Before each hole, and for a while after the last one, the near
/// misses the judge has found among the answers (`near_misses`) are asked again
/// ([`Asker::refine`]). Stops when `give_up` says so or at the first call that fails (a
/// server without the endpoint, or down: the chat candidates will say so). Sends each answer
/// as it comes and counts it in `sent`.
pub(super) fn ask_all(
    client: &BlockingClient,
    picker: &mut HolePicker,
    seeds: &[u64],
    (give_up, sent): (&AtomicBool, &AtomicUsize),
    near_misses: &NearMisses,
    answers: mpsc::Sender<Asked>,
) {
    let mut asker = Asker {
        client,
        seeds: seeds.iter(),
        give_up,
        sent,
        answers,
        near_misses,
        changes: HashMap::new(),
        refined: BTreeSet::new(),
    };
    for gap in picker.guard_gap_requests(GUARD_GAPS) {
        if asker.ask_at(gap, &GUARD_GAP_TEMPERATURES, false) == Asking::Stop {
            return;
        }
    }
    if let Some(gap) = picker.unused_value_gap()
        && asker.ask_at(gap, &GAP_TEMPERATURES, false) == Asking::Stop
    {
        return;
    }
    let mut left = STATEMENTS * TEMPERATURES.len();
    while left > 0 {
        let Some(request) = picker.next_request() else {
            break;
        };
        let temperatures = &TEMPERATURES[..left.min(TEMPERATURES.len())];
        match asker.ask_at(request, temperatures, true) {
            Asking::Stop => return,
            Asking::Left(asked) => left -= asked,
        }
    }
    for gap in picker.gap_requests() {
        if asker.ask_at(gap, &GAP_TEMPERATURES, false) == Asking::Stop {
            return;
        }
    }
    asker.refine_last_verdicts();
}

/// How asking one hole ended.
#[derive(Debug, PartialEq, Eq)]
enum Asking {
    /// The calls should stop.
    Stop,
    /// The hole was left after this many answers.
    Left(usize),
}

/// What one call came to.
enum Call {
    /// Given up, the judge gone, or the call failed: the calls should stop.
    Stop,
    /// An answer was sent; `news` when it changes the statement in a way no earlier answer to
    /// the same request did (not written back as it was, not a change asked already).
    Answered { news: bool },
}

/// The calls of one infill phase, made one after another on their own thread.
struct Asker<'a> {
    client: &'a BlockingClient,
    seeds: std::slice::Iter<'a, u64>,
    give_up: &'a AtomicBool,
    /// Counts the answers sent.
    sent: &'a AtomicUsize,
    answers: mpsc::Sender<Asked>,
    near_misses: &'a NearMisses,
    /// The request and the answer of each change asked so far, by the file's text with the
    /// change: what a near miss ([`NearMiss::text`]) is asked again from.
    changes: HashMap<String, (Arc<InfillRequest>, String)>,
    /// The near misses asked again, by text.
    refined: BTreeSet<String>,
}

impl Asker<'_> {
    /// Asks `request` at each of `temperatures`, after the near misses found so far (unless
    /// it is a near miss's own request). With `leave_stale`, a hole whose last
    /// [`STALE_IN_A_ROW`] answers in a row brought nothing new (each wrote it back unchanged or
    /// repeated an earlier answer's change) is left early.
    fn ask_at(
        &mut self,
        request: InfillRequest,
        temperatures: &[f32],
        leave_stale: bool,
    ) -> Asking {
        if !request.refined && self.refine() == Asking::Stop {
            return Asking::Stop;
        }
        let request = Arc::new(request);
        let mut stale = 0;
        for (i, &temperature) in temperatures.iter().enumerate() {
            let Some(&seed) = self.seeds.next() else {
                return Asking::Stop;
            };
            match self.ask(&request, temperature, seed) {
                Call::Stop => return Asking::Stop,
                Call::Answered { news: true } => stale = 0,
                Call::Answered { news: false } => stale += 1,
            }
            if leave_stale && stale == STALE_IN_A_ROW {
                return Asking::Left(i + 1);
            }
        }
        Asking::Left(temperatures.len())
    }

    /// Asks the holes of the near misses found so far again, the one that made most failing
    /// tests pass first, each at [`REFINED_TEMPERATURES`] with its answer and the tests' new
    /// message shown above the definition ([`InfillRequest::refined`]); [`REFINEMENTS`] near
    /// misses in all.
    fn refine(&mut self) -> Asking {
        while self.refined.len() < REFINEMENTS {
            let Some(miss) = self.next_near_miss() else {
                break;
            };
            self.refined.insert(miss.text.clone());
            let (request, middle) = &self.changes[&miss.text];
            let Some(again) = request.refined(middle, &miss.message) else {
                continue;
            };
            if self.ask_at(again, &REFINED_TEMPERATURES, false) == Asking::Stop {
                return Asking::Stop;
            }
        }
        Asking::Left(0)
    }

    /// The near miss not yet asked again that made most failing tests pass (the first found
    /// among equals), when its answer was asked here.
    fn next_near_miss(&self) -> Option<NearMiss> {
        let found = self.near_misses.found.lock().ok()?;
        let mut best: Option<&NearMiss> = None;
        for miss in found.iter() {
            let new = self.changes.contains_key(&miss.text) && !self.refined.contains(&miss.text);
            if new && best.is_none_or(|b| miss.fixed > b.fixed) {
                best = Some(miss);
            }
        }
        best.cloned()
    }

    /// After the last hole, waits up to [`LAST_VERDICTS`] while answers are still to judge,
    /// asking again each near miss their verdicts find.
    fn refine_last_verdicts(&mut self) {
        let started = Instant::now();
        while self.refine() == Asking::Left(0)
            && !self.give_up.load(Ordering::Relaxed)
            && self.near_misses.any_unjudged()
            && started.elapsed() < LAST_VERDICTS
        {
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Asks `request` once and sends the answer.
    fn ask(&mut self, request: &Arc<InfillRequest>, temperature: f32, seed: u64) -> Call {
        if self.give_up.load(Ordering::Relaxed) {
            return Call::Stop;
        }
        let sampling = Sampling {
            temperature: Some(temperature),
            seed: Some(seed),
            max_tokens: Some(request.max_tokens),
        };
        let t = Instant::now();
        let Some(reply) = self.client.complete_sampled_unless(
            Role::Worker,
            &request.prompt,
            &request.stop,
            sampling,
            self.give_up,
        ) else {
            return Call::Stop;
        };
        let fix = reply.as_ref().ok().map(|r| request.fix(&r.content));
        let mut news = !matches!(fix, Some(Err(infill::NotAFix::Unchanged)));
        if let (Some(Ok(fix)), Ok(r)) = (fix, &reply) {
            match self.changes.entry(fix.text) {
                Entry::Occupied(_) => news = false,
                Entry::Vacant(new) => {
                    new.insert((Arc::clone(request), r.content.clone()));
                }
            }
        }
        let failed = reply.is_err();
        let asked = Asked {
            request: Arc::clone(request),
            temperature,
            took: t.elapsed(),
            reply,
        };
        self.near_misses.add(1);
        if self.answers.send(asked).is_err() {
            return Call::Stop;
        }
        self.sent.fetch_add(1, Ordering::Relaxed);
        match failed {
            true => Call::Stop,
            false => Call::Answered { news },
        }
    }
}
