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
use super::carry::{Pointer, Pointers};
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

    /// Puts `fixes` before the templates not yet tried, after the infills not yet tried (the
    /// model's answers of [`super::infill`], judged in the order they came).
    pub(super) fn put_first(&mut self, fixes: Vec<templates::TemplateFix>) {
        if fixes.is_empty() {
            return;
        }
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
mod tests {
    use super::places::{
        MAX_EXTENDED, MAX_INSERTIONS, add_unless_held, callees, enclosing_loop, interleave,
        one_hop, queue, sources, sweep,
    };
    use super::*;

    #[test]
    fn a_hang_is_looked_for_in_the_loop_it_hung_in() {
        let python = "def f(seq, n):\n    lo, hi = 0, n\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if seq[mid]:\n            hi = mid\n        else:\n            lo = mid\n    return lo\n";
        // Cut at the loop's header, or anywhere in its body: the whole loop.
        assert_eq!(enclosing_loop(python, 3), Some((3, 8)));
        assert_eq!(enclosing_loop(python, 5), Some((3, 8)));
        // Outside any loop.
        assert_eq!(enclosing_loop(python, 2), None);
        let go = "func f(xs []int) int {\n\ti := 0\n\tfor i < len(xs) {\n\t\tif xs[i] > 0 {\n\t\t\tbreak\n\t\t}\n\t}\n\treturn i\n}\n";
        assert_eq!(enclosing_loop(go, 4), Some((3, 6)));
        // A name that starts with a keyword is not a loop.
        assert_eq!(enclosing_loop("format = 1\nfor_each(x)\n    y\n", 2), None);
    }

    #[test]
    fn insertions_come_after_every_few_token_fixes_and_the_rest_at_the_end() {
        assert_eq!(
            interleave(vec![1, 2, 3, 4, 5, 6, 7], vec![10, 20, 30], 3),
            vec![1, 2, 3, 10, 4, 5, 6, 20, 7, 30]
        );
        assert_eq!(interleave(vec![1], Vec::new(), 3), vec![1]);
        assert_eq!(interleave(Vec::new(), vec![10, 20], 3), vec![10, 20]);
    }

    #[test]
    fn the_queue_starts_with_the_capped_sweep_and_goes_on_with_a_wider_one() {
        // A long function: more one-token fixes than the cap.
        let mut python = String::from("def f(xs, n, m):\n    total = 0\n");
        for i in 0..40 {
            python.push_str(&format!(
                "    if xs[{i}] < n + {i} and m > {i}:\n        total += xs[{i}] * 2\n"
            ));
        }
        python.push_str("    return total\n");
        let lines = python.lines().count();
        let tree = slopguard_change::MemTree::new(
            [("f.py".to_string(), python.into_bytes())]
                .into_iter()
                .collect(),
        );
        let places = vec![(
            "f.py".to_string(),
            templates::Places {
                lead: Some((1, lines)),
                regions: vec![(1, lines)],
                ..Default::default()
            },
        )];
        let capped = sweep(&sources(&places, &tree), MAX_TEMPLATES, MAX_INSERTIONS);
        let queued = queue(&places, &tree);
        let all = &queued.fixes;
        assert_eq!(queued.wider, all.len() - capped.len());
        // The capped sweep keeps room for insertions this function has none of: 64 token
        // fixes.
        assert_eq!(capped.len(), MAX_TEMPLATES - MAX_INSERTIONS);
        // What a slow suite reaches does not depend on the wider sweep, which goes on past the
        // room the capped one left.
        assert_eq!(all[..capped.len()], capped[..]);
        assert!(
            all.len() > MAX_TEMPLATES && all.len() <= MAX_EXTENDED,
            "{}",
            all.len()
        );
        // Each change once.
        let keys: std::collections::BTreeSet<_> =
            all.iter().map(|f| (f.line, f.after.clone())).collect();
        assert_eq!(keys.len(), all.len());
    }

    /// A queue of `fixes` over an empty tree, none tried yet.
    fn queue_of(fixes: Vec<templates::TemplateFix>) -> TemplateQueue {
        TemplateQueue {
            tree: Arc::new(slopguard_change::MemTree::default()),
            fixes,
            wider: 0,
            next: 0,
            spent: Duration::ZERO,
            limit: Duration::from_secs(60),
            refused_statically: 0,
            evaluated: 0,
            changed_behaviour: 0,
            alternatives_run: 0,
            reported: false,
            pointers: Pointers::default(),
        }
    }

    #[test]
    fn infills_go_before_the_untried_templates_in_the_order_they_came() {
        let fix = |operator, after: &str| templates::TemplateFix {
            path: "m.py".into(),
            line: 1,
            operator,
            before: "a".into(),
            after: after.into(),
            text: format!("{after}\n"),
        };
        let mut queue = queue_of(vec![
            fix(templates::Operator::Comparison, "tried"),
            fix(templates::Operator::Comparison, "t1"),
            fix(templates::Operator::OffByOne, "t2"),
        ]);
        queue.next = 1;
        queue.put_first(vec![fix(templates::Operator::Infill, "i1")]);
        queue.put_first(vec![fix(templates::Operator::Infill, "i2")]);
        let order: Vec<&str> = queue.fixes[queue.next..]
            .iter()
            .map(|f| f.after.as_str())
            .collect();
        assert_eq!(order, ["i1", "i2", "t1", "t2"]);
    }

    #[test]
    fn a_one_token_template_that_made_failing_tests_pass_points_at_its_statement() {
        let queue = queue_of(Vec::new());
        let fix = |line, operator| templates::TemplateFix {
            path: "m.py".into(),
            line,
            operator,
            before: "a".into(),
            after: "b".into(),
            text: "b\n".into(),
        };
        queue.point_at(2, &fix(3, templates::Operator::Comparison), 0, Some(0));
        queue.point_at(
            2,
            &fix(4, templates::Operator::InsertedStatement),
            2,
            Some(0),
        );
        queue.point_at(2, &fix(5, templates::Operator::Infill), 2, Some(0));
        queue.point_at(2, &fix(6, templates::Operator::OffByOne), 1, Some(3));
        let pointers = queue.pointers().lock().unwrap().clone();
        assert_eq!(
            pointers,
            [Pointer {
                path: "m.py".into(),
                line: 6,
                fixed_share: 0.5,
                broke: 3
            }]
        );
    }
    #[test]
    fn the_alternatives_of_a_win_change_its_statement_otherwise() {
        let fix = |line, after: &str| templates::TemplateFix {
            path: "a.py".into(),
            line,
            operator: templates::Operator::Comparison,
            before: "if age > 18:".into(),
            after: after.into(),
            text: format!("{line}: {after}\n"),
        };
        let winner = fix(2, "if age >= 18:");
        let untried = [
            // The same change again (an infill that wrote the template's line).
            fix(2, "if age >= 18:"),
            // The same meaning over integers.
            fix(2, "if age > 17:"),
            fix(2, "if age != 18:"),
            // Another statement.
            fix(3, "return 1"),
            fix(2, "if not (age > 18):"),
        ];
        let after: Vec<String> = alternatives(&untried, &winner)
            .into_iter()
            .map(|f| f.after)
            .collect();
        assert_eq!(after, ["if age != 18:", "if not (age > 18):"]);
    }

    #[test]
    fn an_infill_is_judged_after_the_templates_time_is_spent_and_a_template_is_not() {
        let fix = |operator| templates::TemplateFix {
            path: "m.py".into(),
            line: 1,
            operator,
            before: "a".into(),
            after: "b".into(),
            text: "b\n".into(),
        };
        let (infill, template) = (
            fix(templates::Operator::Infill),
            fix(templates::Operator::Comparison),
        );
        let (spent, limit) = (Duration::from_secs(181), Duration::from_secs(180));
        assert!(!out_of_time_or_fixes(Some(&infill), spent, limit));
        assert!(out_of_time_or_fixes(Some(&template), spent, limit));
        assert!(!out_of_time_or_fixes(
            Some(&template),
            Duration::ZERO,
            limit
        ));
        assert!(out_of_time_or_fixes(None, Duration::ZERO, limit));
    }

    #[test]
    fn the_phase_takes_a_third_of_the_budget_at_most_three_minutes() {
        assert_eq!(
            time_limit(Duration::from_secs(300)),
            Duration::from_secs(100)
        );
        assert_eq!(time_limit(Duration::from_secs(600)), MAX_TIME);
    }

    #[test]
    fn a_frames_statement_is_a_region_only_outside_every_definition() {
        let mut by_path = vec![
            ("a.py".to_string(), Vec::new()),
            ("b.py".to_string(), vec![(1, 10)]),
        ];
        // Inside a definition of its file: that definition is its region.
        add_unless_held(&mut by_path, "b.py", (4, 5));
        // Outside any (a helper no test calls): the statement alone.
        add_unless_held(&mut by_path, "a.py", (7, 7));
        add_unless_held(&mut by_path, "b.py", (12, 12));
        assert_eq!(
            by_path,
            [
                ("a.py".to_string(), vec![(7, 7)]),
                ("b.py".to_string(), vec![(1, 10), (12, 12)]),
            ]
        );
    }

    #[test]
    fn callees_are_the_definitions_an_exercised_one_mentions() {
        let src = "def helper(x):\n    return x\n\n\ndef other():\n    return 1\n\n\ndef f(x):\n    return helper(x) + 1\n";
        let tree = slopguard_change::MemTree::new(
            [("m.py".to_string(), src.as_bytes().to_vec())]
                .into_iter()
                .collect(),
        );
        let got = callees(&[("m.py".into(), "f".into(), 9, 10)], &tree);
        assert_eq!(got.get("m.py").map(Vec::as_slice), Some(&[(1, 2)][..]));
    }

    #[test]
    fn a_helper_a_target_calls_is_one_hop_away_too() {
        // unindent's shape: the tests call the trait method, which calls `unindent`; the
        // coverage's target `lines_of` calls the helper `split_lines` that holds the bug.
        let src = "fn split_lines(s: &[u8]) -> Vec<&[u8]> {\n    s.split(|b| *b == b'\\n').collect()\n}\n\nfn lines_of(s: &[u8]) -> usize {\n    split_lines(s).len()\n}\n\npub fn unindent(s: &str) -> usize {\n    lines_of(s.as_bytes())\n}\n";
        let tree = slopguard_change::MemTree::new(
            [("src/lib.rs".to_string(), src.as_bytes().to_vec())]
                .into_iter()
                .collect(),
        );
        let exercised = [("src/lib.rs".to_string(), "unindent".to_string(), 9, 11)];
        let target = worker::context::FunctionTarget {
            path: "src/lib.rs".into(),
            name: "lines_of".into(),
            start: 5,
            end: 7,
        };
        let ranges = |targets: &[worker::context::FunctionTarget]| {
            one_hop(&exercised, targets, &tree)
                .into_iter()
                .map(|(_, r)| r)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ranges(&[]),
            [(5, 7)],
            "what the tests call reaches the target"
        );
        assert_eq!(
            ranges(&[target]),
            [(5, 7), (1, 3)],
            "the target reaches the helper"
        );
    }
}
