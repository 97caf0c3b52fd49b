//! The run context [`Ctx`] every step of the pipeline works on (options, progress sink,
//! trace, state and its file, repository and worktree, guard config, the observation store,
//! the part timers, the fingerprint) with its small helpers (save, time, emit, phase), and
//! [`tokens_spent`], the client's running token tally.

use crate::records::RunPhase;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_guards::Config;
use slopguard_llm::BlockingClient;

use crate::state::{self, RunState};
use slopguard_planning::trace::{Trace, TraceEvent};

use crate::records::Baseline;

use super::error::RunError;
use super::options::RunOptions;
use super::progress::{Progress, ProgressEvent};
use super::store::Observations;

pub(super) struct Ctx<'a> {
    pub(super) opts: &'a RunOptions,
    pub(super) progress: &'a dyn Progress,
    pub(super) trace: Trace,
    pub(super) state: RunState,
    pub(super) state_path: PathBuf,
    pub(super) trace_path: PathBuf,
    pub(super) repo: PathBuf,
    pub(super) worktree: PathBuf,
    pub(super) config: Config,
    pub(super) obs: Observations,
    /// Time per pipeline part (for the overhead breakdown).
    pub(super) timers: std::cell::RefCell<std::collections::BTreeMap<&'static str, Duration>>,
    /// The fingerprint, computed once and refreshed when a landed change touches a manifest.
    pub(super) fingerprint: Option<slopguard_fingerprint::Fingerprint>,
}

impl Ctx<'_> {
    pub(super) fn save(&self) -> Result<(), RunError> {
        let t = Instant::now();
        state::save(&self.state_path, &self.state)?;
        self.time("state", t);
        Ok(())
    }

    pub(super) fn time(&self, part: &'static str, since: Instant) {
        if let Ok(mut m) = self.timers.try_borrow_mut() {
            *m.entry(part).or_default() += since.elapsed();
        }
    }

    pub(super) fn emit(&self, phase: RunPhase, event: &str, data: serde_json::Value) {
        self.trace
            .emit(TraceEvent::new(phase.as_str(), event, data));
    }

    /// Takes the test run `run` as the run's test baseline and says so in the trace (`phase`;
    /// `from`: the analysis' run or one of its own).
    pub(super) fn set_baseline(
        &mut self,
        phase: RunPhase,
        run: &slopguard_toolchain::TestRun,
        from: &str,
    ) {
        let b = crate::dynamic::baseline_of(run);
        self.emit(
            phase,
            "test_baseline.captured",
            json!({"ran": b.ran, "total": b.total, "failing": b.failing, "broken": b.broken,
                   "reason": b.reason, "from": from}),
        );
        self.state.baseline = Some(b);
    }

    pub(super) fn phase(&mut self, phase: RunPhase) -> Result<(), RunError> {
        self.progress.on(&ProgressEvent::Phase(phase));
        self.state.phase = phase;
        self.emit(phase, "run.phase", json!({"phase": phase}));
        self.save()
    }
}

/// The client's running token totals over all roles (prompt, completion). The run's tally
/// takes the difference around each call, so replies that were cut off, unusable or followed
/// by correction turns count as well as the one that was used.
pub(super) fn tokens_spent(client: &BlockingClient) -> (u64, u64) {
    client.usage().values().fold((0, 0), |(p, c), u| {
        (p + u.prompt_tokens, c + u.completion_tokens)
    })
}

/// The test baseline after something landed, remembering the tests it fixed.
pub(super) fn advance_baseline(cx: &mut Ctx<'_>, next: Baseline) {
    cx.state.baseline = Some(match cx.state.baseline.as_ref() {
        Some(old) => old.advanced_to(next),
        None => next,
    });
}
