//! The CI watch: after a pull request is opened (`run --ci-watch`) or on any pull request of
//! the repository (`slopguard ci-watch <PR url>`), poll the GitHub checks of its head commit
//! with exponential backoff until a deadline; on a failure, cut the failing job's log to the
//! failing step's error lines ([`log::excerpt`]), run one guarded fix subtask through the run
//! loop on the PR's head commit (in a separate worktree, every static and dynamic gate as for
//! any run), push the fix to the PR's branch and watch again, at most `rounds` times.
//!
//! Nothing is written before the preconditions hold (a token, a remote pointing at the PR's
//! repository, the PR readable and open): a missing one is a [`WatchStatus::Error`] report
//! whose message says how to fix it, and the local repository is as it was.
//!
//! * [`watch`] — the whole watch; returns a [`WatchReport`] (also on errors).
//! * [`api::CiApi`] — the pull request, its check runs, an Actions job's log.
//! * [`log`] — the deterministic log excerpt and the repository files it names.
//! * [`pr_url`] — `https://github.com/OWNER/REPO/pull/N`.

pub mod api;
pub mod log;
pub mod pr_url;
mod report;
mod watcher;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use super::push;
use super::remote::{GitHubRepo, parse_github_remote};
use super::{ForgeConfig, ForgeError};
use slopguard_agent::git::{self, short_id};
use slopguard_agent::run::{PlanSource, RunError, RunOptions, RunSummary, SubtaskStatus};
use slopguard_agent::state;
use slopguard_planning::plan::{Action, Plan, Subtask, Task};
use slopguard_planning::trace::{Trace, TraceEvent};

pub use api::{CheckRun, CiApi, PullInfo};
pub use log::{LogBudget, LogExcerpt};
pub use pr_url::{PullRef, parse_pr_url};
pub use report::*;
use watcher::*;

/// Consecutive transport errors of the check poll that are retried before the watch stops.
const POLL_RETRIES: u32 = 2;

/// How long and how often to watch, and how many fixes to try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchOptions {
    /// Wall-clock limit of the whole watch; no poll and no fix starts after it.
    pub deadline: Duration,
    /// The first wait between two polls; doubled after each poll that found the checks running.
    pub poll_interval: Duration,
    /// The longest wait between two polls.
    pub max_interval: Duration,
    /// Fix rounds at most (0: watch only).
    pub rounds: u32,
    /// How much of a failing log the fix subtask is shown.
    pub log_budget: LogBudget,
}

impl Default for WatchOptions {
    fn default() -> Self {
        Self {
            deadline: Duration::from_secs(30 * 60),
            poll_interval: Duration::from_secs(15),
            max_interval: Duration::from_secs(120),
            rounds: 3,
            log_budget: LogBudget::default(),
        }
    }
}

/// What to watch.
#[derive(Debug, Clone, Copy)]
pub struct WatchRequest<'a> {
    /// The pull request's web URL.
    pub pr_url: &'a str,
    /// Any path inside a local clone of the PR's repository.
    pub repo_dir: &'a Path,
    /// Token, API base, preferred remote.
    pub forge: &'a ForgeConfig,
    /// The options of the fix runs (model, gates, budgets); path, base, branch and plan are
    /// set by the watch.
    pub fix_template: &'a RunOptions,
}

/// The caller's side of the watch: how a fix run is executed (the CLI shows its progress) and
/// where one-line notes go.
pub struct Hooks<'a> {
    /// Executes a run ([`slopguard_agent::run::execute`] with some progress view).
    pub fix: &'a dyn Fn(&RunOptions) -> Result<RunSummary, RunError>,
    /// Receives one line per poll verdict, fix and push.
    pub note: &'a dyn Fn(&str),
}

/// Watches the pull request's checks and fixes failures, as the module doc says. Never
/// panics on bad input; every ending, errors included, is a report.
pub fn watch(req: &WatchRequest<'_>, opts: &WatchOptions, hooks: &Hooks<'_>) -> WatchReport {
    let started = Instant::now();
    let mut report = WatchReport {
        watch_id: format!("ci-{}", state::new_run_id()),
        pr_url: req.pr_url.trim().to_string(),
        repo: String::new(),
        number: 0,
        branch: String::new(),
        status: WatchStatus::Error,
        message: String::new(),
        rounds: Vec::new(),
        polls: 0,
        elapsed_ms: 0,
        trace_path: None,
    };
    let (status, message) = match Watcher::start(req, opts, hooks, &mut report) {
        Ok(mut w) => {
            let (status, message) = w.rounds(&mut report);
            w.trace.emit(TraceEvent::new(
                "ci",
                "ci.watch.end",
                json!({"status": status, "message": message, "rounds": report.rounds.len(),
                       "polls": report.polls}),
            ));
            (status, message)
        }
        Err(message) => (WatchStatus::Error, message),
    };
    report.status = status;
    report.message = message;
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    report
}

/// The checks' combined verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A check is still queued or running, or none reported yet.
    Pending,
    /// Every check completed with `success`, `neutral` or `skipped`.
    Green,
    /// Every check completed, some with another conclusion.
    Failed,
}

impl Verdict {
    /// `pending`, `green`, `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pending => "pending",
            Verdict::Green => "green",
            Verdict::Failed => "failed",
        }
    }
}

/// The verdict of a commit's check runs: pending until every one completed (and while none
/// has reported), then green or failed.
pub fn verdict_of(runs: &[CheckRun]) -> Verdict {
    if runs.is_empty() || runs.iter().any(|r| r.status != "completed") {
        Verdict::Pending
    } else if runs.iter().all(passed) {
        Verdict::Green
    } else {
        Verdict::Failed
    }
}

fn passed(run: &CheckRun) -> bool {
    matches!(
        run.conclusion.as_deref(),
        Some("success" | "neutral" | "skipped")
    )
}

/// The failed check runs, by name.
fn failed_checks(runs: &[CheckRun]) -> Vec<CheckRun> {
    let mut failed: Vec<CheckRun> = runs
        .iter()
        .filter(|r| r.status == "completed" && !passed(r))
        .cloned()
        .collect();
    failed.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    failed
}

fn brief(r: &CheckRun) -> CheckBrief {
    CheckBrief {
        name: r.name.clone(),
        status: r.status.clone(),
        conclusion: r.conclusion.clone(),
    }
}

/// The remote of `root` pointing at `repo`: `preferred` when it does, else the first that
/// does. The error says how to add one.
fn matching_remote(root: &Path, repo: &GitHubRepo, preferred: &str) -> Result<String, String> {
    let listed = git::git(root, &["remote"]).unwrap_or_default();
    let mut names: Vec<&str> = listed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    names.sort_by_key(|n| *n != preferred);
    names
        .into_iter()
        .find(|name| {
            push::remote_url(root, name)
                .and_then(|u| parse_github_remote(&u))
                .is_some_and(|r| {
                    r.owner.eq_ignore_ascii_case(&repo.owner)
                        && r.name.eq_ignore_ascii_case(&repo.name)
                })
        })
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "no remote of {} points at GitHub's {}: the fix is pushed to the pull request's \
                 branch through it. Add one (`git remote add origin https://github.com/{}.git`) \
                 or run in a clone of {}; nothing was changed.",
                root.display(),
                repo.full_name(),
                repo.full_name(),
                repo.full_name()
            )
        })
}

/// The PR must be open and its branch in the same repository (a fork's branch cannot be
/// pushed through the base repository's remote).
fn check_pull(pull: &PullInfo, pr: &PullRef) -> Result<(), String> {
    if pull.state != "open" {
        return Err(format!(
            "pull request #{} of {} is {}: there is nothing to watch",
            pr.number,
            pr.repo.full_name(),
            if pull.state.is_empty() {
                "not open"
            } else {
                &pull.state
            }
        ));
    }
    if !pull.head_repo.is_empty() && !pull.head_repo.eq_ignore_ascii_case(&pr.repo.full_name()) {
        return Err(format!(
            "pull request #{}'s branch {} lives in the fork {}: the CI watch pushes fixes only to \
             branches of {} itself",
            pr.number,
            pull.head_ref,
            pull.head_repo,
            pr.repo.full_name()
        ));
    }
    Ok(())
}

/// A hint for the API errors a user can fix.
fn api_hint(e: &ForgeError) -> &'static str {
    match e {
        ForgeError::Api { status: 401, .. } => " (check GITHUB_TOKEN: GitHub did not accept it)",
        ForgeError::Api { status: 403, .. } => {
            " (the token lacks a permission: it needs to read checks and Actions logs)"
        }
        ForgeError::Api { status: 404, .. } => {
            " (no such pull request, or the token cannot see the repository)"
        }
        ForgeError::Http(_) => " (check the network and SLOPGUARD_GITHUB_API)",
        _ => "",
    }
}

/// The one-subtask plan of a fix: the log excerpt in the description, the files the log names
/// as hints.
pub fn fix_plan(check: &CheckRun, sha: &str, excerpt: &LogExcerpt, hints: &[String]) -> Plan {
    let description = format!(
        "The CI check `{}` failed on commit {} of this pull request's branch. Its failing step \
         `{}` printed (cut to the error lines):\n\n```text\n{}\n```\n\nChange the code so that \
         this check passes. Keep every existing test and do not edit the CI configuration.",
        check.name,
        short_id(sha),
        excerpt.step,
        excerpt.text()
    );
    Plan {
        tasks: vec![Task {
            id: "T001".into(),
            title: format!("Fix the failing CI check {}", check.name),
            priority: 1,
            description: description.clone(),
            subtasks: vec![Subtask {
                id: String::new(),
                title: format!("Make the CI check {} pass", check.name),
                description,
                file_hints: hints.to_vec(),
                action: Action::Modify,
            }],
        }],
    }
}

/// The fix run's options: the template's model, gates and budgets, on a new branch at `sha`
/// in a fresh worktree, with the given plan; critics and the after-measurement off.
pub fn fix_options(
    template: &RunOptions,
    root: &Path,
    sha: &str,
    branch: &str,
    plan: Plan,
) -> RunOptions {
    RunOptions {
        path: root.to_path_buf(),
        base: sha.to_string(),
        branch: Some(branch.to_string()),
        resume: None,
        dry_run: false,
        plan: PlanSource::Given(plan),
        scope: None,
        worktree: None,
        keep_worktree: false,
        analysis_toolchain: false,
        measure_after: false,
        regression_proof: false,
        critics: Some(vec!["none".into()]),
        ..template.clone()
    }
}

/// A fix run's outcome from its summary.
fn outcome_of(summary: &RunSummary) -> FixOutcome {
    let subtasks: Vec<_> = summary.subtasks().collect();
    let landed = subtasks
        .iter()
        .any(|s| s.status == SubtaskStatus::Committed);
    let mut blocked_by: Vec<String> = subtasks
        .iter()
        .flat_map(|s| s.guard_activity.iter())
        .filter(|g| g.status == slopguard_agent::run::summary::ActivityStatus::Blocked)
        .map(|g| g.guard.clone())
        .collect();
    blocked_by.sort();
    blocked_by.dedup();
    FixOutcome {
        run_id: summary.run.run_id.clone(),
        status: serde_json::to_value(summary.run.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        branch: if landed {
            summary.run.branch.clone()
        } else {
            String::new()
        },
        commit: landed.then(|| summary.head_commit.clone()),
        pushed: false,
        blocked_by,
        error: if landed {
            None
        } else {
            subtasks.iter().find_map(|s| s.error.clone())
        },
    }
}

fn fix_error(e: impl ToString) -> FixOutcome {
    FixOutcome {
        status: "error".into(),
        error: Some(e.to_string()),
        ..Default::default()
    }
}

/// The pull request a `run --ci-watch` watches: the one the run opened; `Err(reason)` when it
/// opened none (the branch stayed local, the PR phase failed, or it was a dry run).
pub fn pr_to_watch(pr: Option<&Result<crate::PrOutcome, String>>) -> Result<&str, String> {
    match pr {
        Some(Ok(crate::PrOutcome::Opened { url, .. })) => Ok(url),
        Some(Ok(crate::PrOutcome::Local { reason, .. })) => {
            Err(format!("no pull request ({reason})"))
        }
        Some(Err(e)) => Err(format!("no pull request ({e})")),
        None => Err("no pull request (dry run)".into()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_run_is_watched_only_through_the_pull_request_it_opened() {
        use crate::PrOutcome;
        use std::path::PathBuf;
        let opened = Ok(PrOutcome::Opened {
            number: 3,
            url: "https://github.com/o/r/pull/3".into(),
            body_path: PathBuf::from("PR.md"),
        });
        assert_eq!(
            super::pr_to_watch(Some(&opened)),
            Ok("https://github.com/o/r/pull/3")
        );
        let local = Ok(PrOutcome::Local {
            body_path: PathBuf::from("PR.md"),
            reason: "no token".into(),
        });
        assert_eq!(
            super::pr_to_watch(Some(&local)),
            Err("no pull request (no token)".to_string())
        );
        assert_eq!(
            super::pr_to_watch(Some(&Err("push failed".into()))),
            Err("no pull request (push failed)".to_string())
        );
        assert_eq!(
            super::pr_to_watch(None),
            Err("no pull request (dry run)".to_string())
        );
    }

    use super::*;

    fn run(name: &str, status: &str, conclusion: Option<&str>) -> CheckRun {
        CheckRun {
            id: 1,
            name: name.into(),
            status: status.into(),
            conclusion: conclusion.map(str::to_string),
            app: "github-actions".into(),
            output: String::new(),
        }
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict_of(&[]), Verdict::Pending);
        assert_eq!(
            verdict_of(&[
                run("a", "completed", Some("failure")),
                run("b", "in_progress", None)
            ]),
            Verdict::Pending
        );
        assert_eq!(
            verdict_of(&[
                run("a", "completed", Some("success")),
                run("b", "completed", Some("skipped")),
                run("c", "completed", Some("neutral"))
            ]),
            Verdict::Green
        );
        for bad in ["failure", "timed_out", "cancelled", "action_required"] {
            assert_eq!(
                verdict_of(&[
                    run("a", "completed", Some("success")),
                    run("b", "completed", Some(bad))
                ]),
                Verdict::Failed,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_fix_plan_carries_the_excerpt_and_hints() {
        let ex = LogExcerpt {
            step: "Run pytest".into(),
            lines: vec!["E   assert 1 == 2".into()],
            omitted: 3,
        };
        let plan = fix_plan(
            &run("test", "completed", Some("failure")),
            "abcdef0123456",
            &ex,
            &["calc.py".into()],
        );
        let s = &plan.tasks[0].subtasks[0];
        assert!(s.description.contains("E   assert 1 == 2"));
        assert!(s.description.contains("`Run pytest`"));
        assert!(s.description.contains("abcdef0123"));
        assert_eq!(s.file_hints, vec!["calc.py"]);
    }
}
