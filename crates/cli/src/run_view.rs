//! The terminal view of a run (`run`, the fixes of `ci-watch` and `feedback fix`): a bar on a
//! terminal, plain lines and a heartbeat otherwise. Its own module so the commands that run
//! fixes share it without importing one another.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use slopguard_agent::run::summary::ActivityStatus;
use slopguard_agent::run::{Progress, ProgressEvent, RunError, RunOptions, RunSummary, execute};

use crate::progress::PlainLines;

/// Executes a run with the terminal view (a bar on a terminal, plain lines and a heartbeat
/// otherwise; nothing when `quiet`; no bar when `json` is printed on stdout).
pub(crate) fn execute_with_progress(
    opts: &RunOptions,
    quiet: bool,
    json: bool,
) -> Result<RunSummary, RunError> {
    let mut view = TermView::new(quiet || json);
    view.lines = !quiet;
    let heartbeat = (view.lines && view.bar.is_hidden()).then(|| view.plain.heartbeat());
    let result = execute(opts, &view);
    drop(heartbeat);
    view.bar.finish_and_clear();
    result
}

/// Terminal view: phase, subtask i/n, attempt, guards passed/failed.
struct TermView {
    bar: ProgressBar,
    guards: Mutex<(u32, u32)>,
    /// Print candidate lines (not quiet).
    lines: bool,
    /// Plain progress lines, used when the bar is hidden (stderr is not a terminal).
    plain: PlainLines,
}

impl TermView {
    fn new(hidden: bool) -> Self {
        let bar = ProgressBar::new(0);
        if hidden {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {prefix:.bold} {bar:20} {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Self {
            bar,
            guards: Mutex::new((0, 0)),
            lines: true,
            plain: PlainLines::new(),
        }
    }

    /// Progress as plain lines on stderr when it is not a terminal (a log, a pipe), as cargo
    /// does: phases, subtasks, attempts and their ends, with the elapsed time; candidate lines
    /// as the event wrote them.
    fn plain_line(&self, ev: &ProgressEvent) {
        let p = &self.plain;
        match ev {
            ProgressEvent::Phase(phase) => {
                p.say(&format!("phase {phase}"), Some(&format!("phase {phase}")))
            }
            ProgressEvent::Planned { subtasks } => {
                p.say(&format!("plan: {subtasks} subtask(s)"), None)
            }
            ProgressEvent::SubtaskStart {
                index,
                total,
                id,
                title,
            } => p.say(
                &format!("subtask {index}/{total} {id}: {title}"),
                Some(&format!("{id}: {title}")),
            ),
            ProgressEvent::Attempt { id, attempt, max } => p.say(
                &format!("{id} attempt {attempt}/{max}"),
                Some(&format!(
                    "{id} attempt {attempt}/{max} (waiting for the model or the tests)"
                )),
            ),
            ProgressEvent::SubtaskEnd { id, status, commit } => p.say(
                &format!(
                    "{id} {}{}",
                    status.as_str(),
                    commit
                        .as_deref()
                        .map(|c| format!(" {}", &c[..c.len().min(10)]))
                        .unwrap_or_default()
                ),
                None,
            ),
            ProgressEvent::Note(n) => p.say(n, None),
            // A candidate's verdict is past: the heartbeat keeps repeating the attempt.
            ProgressEvent::Candidate(line) => p.raw(line, None),
            ProgressEvent::Guard { .. } => {}
        }
    }
}

impl Progress for TermView {
    fn on(&self, ev: &ProgressEvent) {
        if self.lines && self.bar.is_hidden() {
            self.plain_line(ev);
        }
        match ev {
            ProgressEvent::Phase(p) => self.bar.set_prefix(p.to_string()),
            ProgressEvent::Planned { subtasks } => self.bar.set_length(*subtasks as u64),
            ProgressEvent::SubtaskStart {
                index,
                total,
                id,
                title,
                ..
            } => {
                if let Ok(mut g) = self.guards.lock() {
                    *g = (0, 0);
                }
                self.bar.set_length(*total as u64);
                self.bar.set_position(index.saturating_sub(1) as u64);
                self.bar.set_message(format!("{id} {title}"));
            }
            ProgressEvent::Attempt { id, attempt, max } => {
                self.bar
                    .set_message(format!("{id} attempt {attempt}/{max}"));
            }
            ProgressEvent::Guard { id, guard, status } => {
                if let Ok(mut g) = self.guards.lock() {
                    match status {
                        ActivityStatus::Passed | ActivityStatus::Warned => g.0 += 1,
                        ActivityStatus::Blocked => g.1 += 1,
                        ActivityStatus::Skipped | ActivityStatus::Unknown => {}
                    }
                    self.bar.set_message(format!(
                        "{id} guards {} passed, {} blocked (last: {guard} {status})",
                        g.0, g.1
                    ));
                }
            }
            ProgressEvent::SubtaskEnd { id, status, commit } => {
                self.bar.inc(1);
                let c = commit
                    .as_deref()
                    .map(|c| &c[..c.len().min(10)])
                    .unwrap_or("");
                self.bar.println(format!("  {id}: {} {c}", status.as_str()));
            }
            ProgressEvent::Candidate(line) if self.lines && !self.bar.is_hidden() => {
                self.bar.println(format!("  {line}"));
            }
            ProgressEvent::Candidate(_) => {}
            ProgressEvent::Note(n) => self.bar.println(n.clone()),
        }
    }
}
