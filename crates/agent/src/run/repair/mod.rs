//! The repair-template phase: candidates that need no model, judged while the model writes.
//!
//! For a subtask behind failing tests, [`slopguard_worker::templates`] writes one-token changes
//! (a comparison, a bound, a negation, swapped arguments, another variable in scope...) at the
//! statements the failing tests reach: the statement a frame of the failure names first, then
//! the definitions the failing tests call, then the definitions those call in the same file.
//! Each is judged like a model's candidate: every static guard on the change in memory, then
//! the whole test suite on the written worktree, and the build check once the tests pass (a
//! template that does not build fails its tests: every runner here compiles or loads the
//! code, so the build is paid by the few that pass them). The first that makes every
//! failing test pass, breaks no passing test and keeps the lines the passing tests run
//! ([`crate::gates::kept_behaviour`]: a template that passes the tests by sending a passing
//! one down another branch is probably wrong) lands; the others are reverted and leave no
//! trace in the subtask's findings. The phase is bounded by a candidate count and a share of
//! the subtask's budget. The templates are judged one at a time ([`TemplateQueue`]) while
//! the model writes a candidate, and give way when its reply comes: the model's survivor is
//! judged next, and the templates go on while the model writes the one after.
//!
//! In the pipeline: ... -> per subtask -> attempts -> **templates** (while the model writes) ->
//! candidates -> static judge -> ... -> land.

use crate::records::RunPhase;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use slopguard_change::{ChangeSet, FileChange, Tree, WorkTree};

use crate::dynamic;
use slopguard_worker::{self as worker, reply::ReplyFormat, templates};

use super::carry::AttemptWork;
use super::carry::SubtaskRun;
use super::carry::fixed_targets;
use super::carry::{NearMiss, NearMisses, Pointer, Pointers};
use super::context::Ctx;
use super::error::RunError;
use super::judge::{behaviour_changed, dynamic_activity};
use super::progress::ProgressEvent;

mod places;
use places::candidate_fixes;

/// Template fixes every run's queue starts with: within the phase's time in every language
/// (80 took 182 s on a loaded Go repository). The wider sweep's fixes follow them
/// ([`places::candidate_fixes`]), judged while the phase has time left.
pub(super) const MAX_TEMPLATES: usize = 80;

/// Most wall-clock time the phase may take.
pub(super) const MAX_TIME: Duration = Duration::from_secs(180);

/// A template fix that passed every gate, written in the worktree.
pub(super) struct TemplateWin {
    /// Where and what it changed (`calc.py:4 < -> <=`), for the trace and the progress line.
    pub(super) described: String,
    /// The template fix itself, so that the other fixes of its statement can be found (boxed:
    /// it holds the whole new text of the file).
    fix: Box<templates::TemplateFix>,
    pub(super) applied: worker::AppliedReply,
    pub(super) written: dynamic::Written,
    pub(super) report: dynamic::DynamicReport,
    /// Another fix of the same statement that the tests pass too (described like
    /// `described`): the tests cannot tell the two apart, so the landed one may be wrong.
    pub(super) also_passing: Option<String>,
}

/// The phase's templates, judged one at a time, so that the model's candidates can be judged
/// between them: a subtask no template fixes does not wait for every template before its
/// first model candidate meets the tests (80 templates took 182 s on a Go repository).
/// Kept by the subtask across attempts until every template is tried, the phase's share of
/// the budget ([`time_limit`]) is spent, or one wins.
pub(super) struct TemplateQueue {
    tree: Arc<dyn Tree>,
    fixes: Vec<templates::TemplateFix>,
    /// How many fixes at the end of `fixes` come from the wider sweep
    /// ([`places::candidate_fixes`]): speculative, their tests run at a low CPU priority
    /// ([`process::at_low_priority`]) so that they do not slow the model's answers on the same
    /// machine (a Rust template's test run compiles on every core). The model's infills go in
    /// before the untried fixes, never among these.
    ///
    /// [`process::at_low_priority`]: slopguard_toolchain::process::at_low_priority
    wider: usize,
    /// The next fix to try.
    next: usize,
    /// Time spent judging templates so far, and the most the phase may spend.
    spent: Duration,
    limit: Duration,
    refused_statically: usize,
    evaluated: usize,
    changed_behaviour: usize,
    /// Other fixes of a winner's statement run to learn whether the tests tell them apart.
    alternatives_run: usize,
    /// The phase's outcome was reported (it is, once, when it ends).
    reported: bool,
    /// The templates judged so far that made failing tests pass, for the infill phase to
    /// ask the model about their statements ([`Pointers`]).
    pointers: Pointers,
    /// The model's infills judged a step closer, for the infill calls to ask again
    /// ([`NearMiss`]), and how many infills wait to be judged.
    near_misses: Arc<NearMisses>,
}

impl TemplateQueue {
    /// The templates for `run`; `None` when the phase does not apply ([`applies`]).
    pub(super) fn new(cx: &Ctx<'_>, run: &SubtaskRun) -> Option<TemplateQueue> {
        if !applies(cx, run) {
            return None;
        }
        let tree: Arc<dyn Tree> = Arc::new(WorkTree::new(&cx.worktree));
        let places::Queued { fixes, wider } = candidate_fixes(run, tree.as_ref());
        // The queue in the trace, in order, so that where a fix stood can be read after the
        // run (`scripts/bench/localisation.py` reads it to rank the bug's fix).
        let queued: Vec<serde_json::Value> = fixes
            .iter()
            .map(|f| json!({"path": f.path, "line": f.line, "operator": f.operator.name(), "after": f.after}))
            .collect();
        cx.emit(
            RunPhase::Execution,
            "worker.templates.queued",
            json!({"subtask_id": run.id, "fixes": queued}),
        );
        Some(TemplateQueue {
            tree,
            fixes,
            wider,
            next: 0,
            spent: Duration::ZERO,
            limit: time_limit(run.budget),
            refused_statically: 0,
            evaluated: 0,
            changed_behaviour: 0,
            alternatives_run: 0,
            reported: false,
            pointers: Pointers::default(),
            near_misses: Arc::default(),
        })
    }

    /// Whether nothing is left to try: every template tried, the subtask's time spent, or the
    /// phase's time spent and the next is a template (the model's infills, put first, are
    /// judged whatever the templates spent: they cost the model's time already).
    pub(super) fn is_done(&self, run: &SubtaskRun) -> bool {
        out_of_time_or_fixes(self.fixes.get(self.next), self.spent, self.limit)
            || run.started.elapsed() >= run.budget
    }

    /// The files the templates change, each once.
    pub(super) fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = Vec::new();
        for fix in &self.fixes {
            if !paths.contains(&fix.path) {
                paths.push(fix.path.clone());
            }
        }
        paths
    }

    /// The statements the templates judged so far point at, shared with the infill calls.
    pub(super) fn pointers(&self) -> Pointers {
        Arc::clone(&self.pointers)
    }

    /// The near misses among the infills judged so far, shared with the infill calls.
    pub(super) fn near_misses(&self) -> Arc<NearMisses> {
        Arc::clone(&self.near_misses)
    }

    /// Puts `fixes` before the templates not yet tried, after the infills not yet tried (the
    /// model's answers of [`super::infill`], judged in the order they came). The infills
    /// among them count as still to judge ([`NearMisses`]) until [`TemplateQueue::try_next`]
    /// judges them.
    pub(super) fn put_first(&mut self, fixes: Vec<templates::TemplateFix>) {
        if fixes.is_empty() {
            return;
        }
        let infills = fixes
            .iter()
            .filter(|f| f.operator == templates::Operator::Infill)
            .count();
        self.near_misses.add(infills);
        let at = self.next
            + self.fixes[self.next..]
                .iter()
                .take_while(|f| f.operator == templates::Operator::Infill)
                .count();
        self.fixes.splice(at..at, fixes);
    }

    /// Reports the phase again when it next ends: fixes were added since it was reported
    /// ([`TemplateQueue::put_first`], once the infill phase is over, so that its answers
    /// arriving one by one do not each repeat the report).
    pub(super) fn report_again(&mut self) {
        self.reported = false;
    }

    /// Judges templates in turn until one wins, none is left, or `stop` says so (asked
    /// before each). Reports the phase when it ends. `Some` with the winner, written: it
    /// fixes every target; its static and dynamic verdicts go into `work.activity`.
    pub(super) fn run_until(
        &mut self,
        cx: &mut Ctx<'_>,
        run: &mut SubtaskRun,
        attempt: u32,
        work: &mut AttemptWork,
        stop: impl Fn() -> bool,
    ) -> Result<Option<TemplateWin>, RunError> {
        while !self.is_done(run) && !stop() {
            let started = Instant::now();
            let won = self.try_next(cx, run, attempt, work);
            self.spent += started.elapsed();
            if let Some(mut win) = won? {
                let started = Instant::now();
                let also = self.another_passing_fix(cx, run, work, &win);
                self.spent += started.elapsed();
                win.also_passing = also?;
                self.report(cx, work, &run.id, Some(&win));
                return Ok(Some(win));
            }
        }
        if self.is_done(run) {
            self.report(cx, work, &run.id, None);
        }
        Ok(None)
    }

    /// Tries the next template: refused statically (and the one after it tried), or written
    /// and judged by the tests and the build. `Some` when it fixes every target and keeps
    /// what the passing tests run.
    fn try_next(
        &mut self,
        cx: &mut Ctx<'_>,
        run: &mut SubtaskRun,
        attempt: u32,
        work: &mut AttemptWork,
    ) -> Result<Option<TemplateWin>, RunError> {
        while let Some(fix) = self.fixes.get(self.next).cloned() {
            let speculative = self.next >= self.fixes.len() - self.wider;
            self.next += 1;
            let judged = if speculative {
                slopguard_toolchain::process::at_low_priority(|| self.judge(cx, run, work, &fix))
            } else {
                self.judge(cx, run, work, &fix)
            };
            if fix.operator == templates::Operator::Infill {
                self.near_misses.done();
            }
            let passed = match judged? {
                Verdict::Unreadable => continue,
                Verdict::RefusedStatically => {
                    self.refused_statically += 1;
                    continue;
                }
                Verdict::Failed => {
                    self.evaluated += 1;
                    return Ok(None);
                }
                Verdict::ChangedBehaviour => {
                    // It passes the tests and is probably wrong: the next template may be right.
                    self.evaluated += 1;
                    self.changed_behaviour += 1;
                    return Ok(None);
                }
                Verdict::Passed(passed) => passed,
            };
            self.evaluated += 1;
            let Passed {
                change,
                guards,
                written,
                report,
            } = *passed;
            work.activity
                .extend(crate::records::GuardActivity::from_static_report(
                    &guards, attempt,
                ));
            work.activity.extend(dynamic_activity(attempt, &report));
            return Ok(Some(TemplateWin {
                described: described(&fix),
                applied: worker::AppliedReply {
                    change,
                    format: match fix.operator {
                        templates::Operator::Infill => ReplyFormat::Infill,
                        _ => ReplyFormat::Template,
                    },
                    matchers: vec![format!("{}: {} template", fix.path, fix.operator.name())],
                },
                written,
                report,
                also_passing: None,
                fix: Box::new(fix),
            }));
        }
        Ok(None)
    }

    /// Judges `fix`: every static guard on the change in memory, then, written, the tests,
    /// the build (only for a fix the tests pass: [`dynamic::run_dynamic_tests_first`]) and
    /// the kept-behaviour gate. Only a fix that passes them all stays written.
    fn judge(
        &self,
        cx: &Ctx<'_>,
        run: &SubtaskRun,
        work: &mut AttemptWork,
        fix: &templates::TemplateFix,
    ) -> Result<Verdict, RunError> {
        let Some(before) = self.tree.read(&fix.path).ok().flatten() else {
            return Ok(Verdict::Unreadable);
        };
        let change = ChangeSet::new(
            self.tree.clone(),
            vec![FileChange::modify(
                fix.path.as_str(),
                before,
                fix.text.as_str(),
            )],
            "repair template",
        );
        let guards = worker::static_guards(
            &change,
            &run.guard_task,
            &cx.config,
            run.fingerprint.as_ref(),
        );
        if guards.blocked() {
            return Ok(Verdict::RefusedStatically);
        }
        let written = dynamic::write_change(&cx.worktree, &change)?;
        // Nearly every template leaves a target failing: the build check is paid only by
        // one that fixes them all.
        let fixes_all = |r: &dynamic::DynamicReport| {
            fixed_targets(&run.targets, r.tests.as_ref()) == run.targets.len()
        };
        let report = dynamic::run_dynamic_tests_first(
            &cx.worktree,
            cx.state.baseline.as_ref(),
            &cx.opts.dynamic,
            fixes_all,
        );
        work.tool += report.elapsed;
        let fixed = fixed_targets(&run.targets, report.tests.as_ref());
        let broke = match (report.tests.as_ref(), cx.state.baseline.as_ref()) {
            (Some(now), Some(base)) => Some(base.newly_failing(now).count()),
            _ => None,
        };
        trace_outcome(cx, run, fix, &report, fixed, broke);
        self.point_at(run.targets.len(), fix, fixed, broke);
        if fix.operator == templates::Operator::Infill && broke == Some(0) {
            self.note_near_miss(run, fix, &report, fixed);
        }
        if report.blocked() || report.tests.is_none() || fixed < run.targets.len() {
            written.revert()?;
            return Ok(Verdict::Failed);
        }
        if behaviour_changed(cx, run, &change, &mut work.tool).is_some() {
            written.revert()?;
            return Ok(Verdict::ChangedBehaviour);
        }
        Ok(Verdict::Passed(Box::new(Passed {
            change,
            guards,
            written,
            report,
        })))
    }

    /// Another fix of the statement `win` changed that passes every gate too, described, or
    /// `None`. The untried fixes of the same line are judged in turn (at most
    /// [`MAX_ALTERNATIVES`], within the subtask's time) with the win taken out of the
    /// worktree, which is written back after. A fix that means the same over integers
    /// (`x >= 18` for the win's `x > 17`) is not another fix.
    fn another_passing_fix(
        &mut self,
        cx: &mut Ctx<'_>,
        run: &SubtaskRun,
        work: &mut AttemptWork,
        win: &TemplateWin,
    ) -> Result<Option<String>, RunError> {
        let alternatives = alternatives(&self.fixes[self.next..], &win.fix);
        if alternatives.is_empty() {
            return Ok(None);
        }
        win.written.revert()?;
        let mut found = None;
        for fix in alternatives {
            if run.started.elapsed() >= run.budget {
                break;
            }
            self.alternatives_run += 1;
            if let Verdict::Passed(passed) = self.judge(cx, run, work, &fix)? {
                passed.written.revert()?;
                found = Some(described(&fix));
                break;
            }
        }
        // The win goes back as it was judged: the same text, so the same verdicts.
        dynamic::write_change(&cx.worktree, &win.applied.change)?;
        Ok(found)
    }

    /// The phase's trace event, progress line and attempt-log line: once, and again for a win.
    fn report(
        &mut self,
        cx: &Ctx<'_>,
        work: &mut AttemptWork,
        id: &str,
        won: Option<&TemplateWin>,
    ) {
        if std::mem::replace(&mut self.reported, true) && won.is_none() {
            return;
        }
        let described = won.map(|w| w.described.clone());
        let evaluated = self.evaluated;
        cx.emit(
            RunPhase::Execution,
            "worker.templates",
            json!({"subtask_id": id, "offered": self.fixes.len(), "static_refused": self.refused_statically,
                   "evaluated": evaluated, "changed_behaviour": self.changed_behaviour,
                   "landed": described, "alternatives_run": self.alternatives_run,
                   "also_passing": won.and_then(|w| w.also_passing.clone()),
                   "ms": self.spent.as_millis() as u64}),
        );
        let secs = self.spent.as_secs_f64();
        let line = match &described {
            Some(d) => format!(
                "{id} repair templates: {d} fixes the failing tests ({evaluated} run, {secs:.0} s){}",
                match won.and_then(|w| w.also_passing.as_deref()) {
                    Some(other) => format!("; so does {other}: the tests cannot tell them apart"),
                    None => String::new(),
                }
            ),
            None => format!(
                "{id} repair templates: none of {evaluated} run fixes the failing tests{} ({secs:.0} s)",
                match self.changed_behaviour {
                    0 => String::new(),
                    n => format!(" and keeps what the passing tests run ({n} changed it)"),
                },
            ),
        };
        cx.progress.on(&ProgressEvent::Candidate(line.clone()));
        work.record.candidates.push(line);
    }
}

/// Whether the queue stops before `next` (`None`: every fix tried) after `spent` of its
/// `limit`: a template waits for time left; a model's infill does not.
fn out_of_time_or_fixes(
    next: Option<&templates::TemplateFix>,
    spent: Duration,
    limit: Duration,
) -> bool {
    next.is_none_or(|fix| spent >= limit && fix.operator != templates::Operator::Infill)
}

/// What the tests made of a template, in the trace (`worker.template.judged`): how many of the
/// failing tests it fixed, how many passing tests it broke, and the dynamic gates that
/// blocked it (`blocked_by`: `build`, `test-regression`, ...). A statement whose templates
/// change the failing tests' outcome is where the bug most likely is (mutation-based fault
/// localisation); the event is what a measurement of that reads after the run.
fn trace_outcome(
    cx: &Ctx<'_>,
    run: &SubtaskRun,
    fix: &templates::TemplateFix,
    report: &dynamic::DynamicReport,
    fixed: usize,
    broke: Option<usize>,
) {
    cx.emit(
        RunPhase::Execution,
        "worker.template.judged",
        json!({"subtask_id": run.id, "path": fix.path, "line": fix.line,
               "operator": fix.operator.name(), "ran": report.tests.is_some(),
               "targets": run.targets.len(), "targets_fixed": fixed, "newly_failing": broke,
               "blocked_by": report.verdicts.iter()
                   .filter(|(_, _, v)| matches!(v, dynamic::Verdict::Block(_)))
                   .map(|(guard, _, _)| *guard).collect::<Vec<_>>()}),
    );
}

impl TemplateQueue {
    /// Records that `fix` points at its statement when it made some of the `targets`
    /// failing tests pass: a one-token change there, not a statement inserted or the model's
    /// answer.
    fn point_at(
        &self,
        targets: usize,
        fix: &templates::TemplateFix,
        fixed: usize,
        broke: Option<usize>,
    ) {
        let one_token = templates::Operator::ALL.contains(&fix.operator);
        if fixed == 0 || !one_token {
            return;
        }
        if let Ok(mut pointers) = self.pointers.lock() {
            pointers.push(Pointer {
                path: fix.path.clone(),
                line: fix.line,
                fixed_share: fixed as f64 / targets.max(1) as f64,
                broke: broke.unwrap_or(0),
            });
        }
    }

    /// Records the infill `fix` as a near miss when its tests ran, some target still fails,
    /// and the failure now says something it did not say before (the message lines the
    /// failing tests' output at the baseline does not hold): the model's answer changed what
    /// the failing code does, and the new message may say what is still wrong. Its caller
    /// knows it broke no passing test.
    fn note_near_miss(
        &self,
        run: &SubtaskRun,
        fix: &templates::TemplateFix,
        report: &dynamic::DynamicReport,
        fixed: usize,
    ) {
        let (Some(tests), Some(failure)) = (report.tests.as_ref(), run.failure.as_ref()) else {
            return;
        };
        if !tests.ran || tests.broken || fixed >= run.targets.len() {
            return;
        }
        let message = new_message_lines(&tests.log, &failure.output);
        if message.is_empty() {
            return;
        }
        if let Ok(mut found) = self.near_misses.found.lock() {
            found.push(NearMiss {
                text: fix.text.clone(),
                fixed,
                message,
            });
        }
    }
}

/// The failure's message lines in `log` ([`worker::context::failure_message`]) that
/// `before`, what the failing tests printed at the baseline, does not hold.
fn new_message_lines(log: &str, before: &str) -> Vec<String> {
    worker::context::failure_message(log)
        .into_iter()
        .filter(|line| !before.contains(line.trim_end_matches("...")))
        .collect()
}

/// Most other fixes of a winner's statement run to learn whether the tests tell them apart.
const MAX_ALTERNATIVES: usize = 6;

/// What [`TemplateQueue::judge`] made of a fix.
enum Verdict {
    /// Its file could not be read.
    Unreadable,
    RefusedStatically,
    /// The build or the tests refused it, or a target still fails.
    Failed,
    /// It passes the tests but changes what a passing test runs.
    ChangedBehaviour,
    /// It passed every gate and stays written.
    Passed(Box<Passed>),
}

/// A fix that passed every gate, written, with its verdicts.
struct Passed {
    change: ChangeSet,
    guards: slopguard_guards::Report,
    written: dynamic::Written,
    report: dynamic::DynamicReport,
}

/// The fixes of `untried` that change the statement `winner` changed, differently (not the
/// same text, not the same meaning over integers), in their order, at most
/// [`MAX_ALTERNATIVES`].
fn alternatives(
    untried: &[templates::TemplateFix],
    winner: &templates::TemplateFix,
) -> Vec<templates::TemplateFix> {
    untried
        .iter()
        .filter(|f| f.path == winner.path && f.line == winner.line && f.text != winner.text)
        .filter(|f| !templates::same_over_integers(&f.path, &f.after, &winner.after))
        .take(MAX_ALTERNATIVES)
        .cloned()
        .collect()
}

/// A fix for the trace, the progress line and the summary: `calc.py:4 `a < b` -> `a <= b``.
fn described(fix: &templates::TemplateFix) -> String {
    format!("{}:{} {}", fix.path, fix.line, fix.describe())
}

/// Whether the phase runs for `run`: templates are on, the subtask is behind failing tests,
/// and the change need not bring its own regression test (a template writes none).
pub(super) fn applies(cx: &Ctx<'_>, run: &SubtaskRun) -> bool {
    cx.opts.templates && !cx.opts.regression_proof && !run.targets.is_empty()
}

/// The phase's share of a subtask's budget: a third, at most [`MAX_TIME`].
pub(super) fn time_limit(budget: Duration) -> Duration {
    (budget / 3).min(MAX_TIME)
}

#[cfg(test)]
mod tests;
