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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use super::push;
use super::remote::{GitHubRepo, parse_github_remote};
use super::{ForgeConfig, ForgeError};
use crate::git::{self, short_id};
use crate::plan::{Action, Plan, Subtask, Task};
use crate::run::{PlanSource, RunError, RunOptions, RunSummary, SubtaskStatus};
use crate::state;
use crate::trace::{Trace, TraceEvent};
pub use api::{CheckRun, CiApi, PullInfo};
pub use log::{LogBudget, LogExcerpt};
pub use pr_url::{PullRef, parse_pr_url};

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
    /// Executes a run ([`crate::run::execute`] with some progress view).
    pub fix: &'a dyn Fn(&RunOptions) -> Result<RunSummary, RunError>,
    /// Receives one line per poll verdict, fix and push.
    pub note: &'a dyn Fn(&str),
}

/// How the watch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WatchStatus {
    /// Every check passed.
    Green,
    /// Checks failed and no fix round is left (or there was nothing to work from).
    Failing,
    /// The fix did not pass the guards: nothing was pushed.
    FixFailed,
    /// The deadline came before the checks finished.
    Deadline,
    /// No token, no matching remote, an unreadable PR, a network, git or model error.
    Error,
}

impl WatchStatus {
    /// `green`, `failing`, `fix_failed`, `deadline`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            WatchStatus::Green => "green",
            WatchStatus::Failing => "failing",
            WatchStatus::FixFailed => "fix_failed",
            WatchStatus::Deadline => "deadline",
            WatchStatus::Error => "error",
        }
    }
}

/// One check run's verdict, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckBrief {
    /// The check's name.
    pub name: String,
    /// `queued`, `in_progress`, `completed`.
    pub status: String,
    /// `success`, `failure`, ... when completed.
    pub conclusion: Option<String>,
}

/// The log a fix worked from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogInfo {
    /// The failed check.
    pub check: String,
    /// The failing step.
    pub step: String,
    /// The excerpt's lines.
    pub lines: Vec<String>,
    /// Lines of the step left out.
    pub omitted: usize,
}

/// One fix run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FixOutcome {
    /// The run's id (its files are under `.slopguard/runs/<id>/`).
    pub run_id: String,
    /// The run's status (`completed`, `failed`, ...).
    pub status: String,
    /// The local branch of the fix ("" when nothing landed).
    pub branch: String,
    /// The fix commit, when one landed.
    pub commit: Option<String>,
    /// Pushed to the PR's branch.
    pub pushed: bool,
    /// The gates that refused a candidate (`containment`, `symbol-preservation`, ...).
    pub blocked_by: Vec<String>,
    /// Why nothing landed, when nothing did.
    pub error: Option<String>,
}

/// One round: a watched commit, its verdict, and the fix when it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Round {
    /// 1-based.
    pub round: u32,
    /// The commit whose checks were watched.
    pub sha: String,
    /// `green`, `failed`, `pending` (the deadline came first).
    pub verdict: String,
    /// Every check run of the commit at the last poll.
    pub checks: Vec<CheckBrief>,
    /// The log the fix worked from.
    pub log: Option<LogInfo>,
    /// Repository files the log names (the fix's file hints).
    pub hints: Vec<String>,
    /// The fix run.
    pub fix: Option<FixOutcome>,
}

/// What the watch did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WatchReport {
    /// Id of this watch (its trace is under `.slopguard/ci-watch/<id>/`).
    pub watch_id: String,
    /// The PR's URL as given.
    pub pr_url: String,
    /// `owner/name` ("" when the URL did not parse).
    pub repo: String,
    /// The PR's number (0 when the URL did not parse).
    pub number: u64,
    /// The PR's head branch ("" before the PR was read).
    pub branch: String,
    /// How it ended.
    pub status: WatchStatus,
    /// One sentence saying how it ended (and, for an error, how to fix it).
    pub message: String,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// Check polls made.
    pub polls: u32,
    /// Wall-clock time.
    pub elapsed_ms: u64,
    /// The trace file (none when the watch stopped before it started).
    pub trace_path: Option<String>,
}

impl WatchReport {
    /// The text summary: a headline, one line per round (and its fix), the trace.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "CI watch of {} ({}): {}\n",
            self.pr_url,
            if self.branch.is_empty() {
                "branch unknown".to_string()
            } else {
                format!("branch {}", self.branch)
            },
            self.status.as_str()
        );
        out.push_str(&format!("{}\n", self.message));
        for r in &self.rounds {
            out.push_str(&round_text(r));
        }
        if let Some(t) = &self.trace_path {
            out.push_str(&format!("Trace: {t}\n"));
        }
        out
    }
}

/// `round N: <sha> <verdict> (checks)` and the log and fix lines under it.
fn round_text(r: &Round) -> String {
    let checks = r
        .checks
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c.name,
                c.conclusion.as_deref().unwrap_or(&c.status)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = format!(
        "round {}: {} {} ({})\n",
        r.round,
        short_id(&r.sha),
        r.verdict,
        if checks.is_empty() {
            "no checks"
        } else {
            &checks
        }
    );
    if let Some(log) = &r.log {
        out.push_str(&format!(
            "  log: {} / {}: {} line(s) kept, {} left out; hints: {}\n",
            log.check,
            log.step,
            log.lines.len(),
            log.omitted,
            if r.hints.is_empty() {
                "none".to_string()
            } else {
                r.hints.join(", ")
            }
        ));
    }
    if let Some(fix) = &r.fix {
        out.push_str(&format!("  fix: {}\n", fix_text(fix)));
    }
    out
}

fn fix_text(fix: &FixOutcome) -> String {
    match (&fix.commit, fix.pushed) {
        (Some(c), true) => format!(
            "run {} committed {} on {}, pushed",
            fix.run_id,
            short_id(c),
            fix.branch
        ),
        (Some(c), false) => format!(
            "run {} committed {} on {}, not pushed",
            fix.run_id,
            short_id(c),
            fix.branch
        ),
        (None, _) => format!(
            "run {} landed nothing{}{}",
            fix.run_id,
            if fix.blocked_by.is_empty() {
                String::new()
            } else {
                format!(" (blocked by: {})", fix.blocked_by.join(", "))
            },
            fix.error
                .as_deref()
                .map(|e| format!(": {}", e.lines().next().unwrap_or("")))
                .unwrap_or_default()
        ),
    }
}

/// `1800 s`, or `0.7 s` below ten seconds.
fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(10) && d.subsec_millis() != 0 {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} s", d.as_secs())
    }
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

/// The watch once its preconditions hold.
struct Watcher<'a> {
    opts: &'a WatchOptions,
    hooks: &'a Hooks<'a>,
    template: &'a RunOptions,
    api: CiApi,
    repo: GitHubRepo,
    root: PathBuf,
    remote: String,
    token: String,
    pull: PullInfo,
    deadline: Instant,
    trace: Trace,
    watch_id: String,
}

impl<'a> Watcher<'a> {
    /// Checks the preconditions in order (URL, token, repository, remote, the PR readable,
    /// open, and not from a fork) without writing anything; then opens the trace.
    fn start(
        req: &WatchRequest<'a>,
        opts: &'a WatchOptions,
        hooks: &'a Hooks<'a>,
        report: &mut WatchReport,
    ) -> Result<Self, String> {
        let deadline = Instant::now() + opts.deadline;
        let pr = parse_pr_url(req.pr_url)?;
        report.repo = pr.repo.full_name();
        report.number = pr.number;
        let token = req.forge.token.clone().ok_or_else(|| {
            "GITHUB_TOKEN (or GH_TOKEN) is not set: the CI watch reads the pull request's checks \
             and job logs through GitHub's API and pushes fixes to its branch. Set it to a token \
             that can read checks and Actions logs and write contents; nothing was changed."
                .to_string()
        })?;
        let root = git::toplevel(req.repo_dir).map_err(|e| e.to_string())?;
        let remote = matching_remote(&root, &pr.repo, &req.forge.remote)?;
        let api = CiApi::new(&req.forge.api_base, &token).map_err(|e| e.to_string())?;
        let pull = api.pull(&pr.repo, pr.number).map_err(|e| {
            format!(
                "cannot read pull request #{} of {} at {}: {}{}",
                pr.number,
                pr.repo.full_name(),
                req.forge.api_base,
                e,
                api_hint(&e)
            )
        })?;
        check_pull(&pull, &pr)?;
        report.branch = pull.head_ref.clone();
        git::exclude_slopguard_dir(&root).map_err(|e| e.to_string())?;
        let trace_path = root
            .join(".slopguard/ci-watch")
            .join(&report.watch_id)
            .join("trace.jsonl");
        report.trace_path = Some(trace_path.display().to_string());
        let trace = Trace::new(&report.watch_id).with_file(&trace_path);
        trace.emit(TraceEvent::new(
            "ci",
            "ci.watch.begin",
            json!({"pr": report.pr_url, "repo": report.repo, "branch": pull.head_ref,
                   "sha": pull.head_sha, "remote": remote, "deadline_s": opts.deadline.as_secs(),
                   "rounds": opts.rounds}),
        ));
        Ok(Self {
            opts,
            hooks,
            template: req.fix_template,
            api,
            repo: pr.repo,
            root,
            remote,
            token,
            pull,
            deadline,
            trace,
            watch_id: report.watch_id.clone(),
        })
    }

    /// Watch, fix, push, watch again; the ending's status and message.
    fn rounds(&mut self, report: &mut WatchReport) -> (WatchStatus, String) {
        let mut sha = self.pull.head_sha.clone();
        for round in 1..=self.opts.rounds + 1 {
            match self.round(round, &sha, report) {
                Ok(Next::Watch(new_sha)) => sha = new_sha,
                Ok(Next::Stop(status, message)) => return (status, message),
                Err(message) => return (WatchStatus::Error, message),
            }
        }
        unreachable!("the last round stops: no fix round is left after it")
    }

    /// One round: wait for the checks of `sha`; on a failure with rounds left, fix and push.
    fn round(&mut self, round: u32, sha: &str, report: &mut WatchReport) -> Result<Next, String> {
        let (verdict, runs) = self.wait(round, sha, report)?;
        report.rounds.push(Round {
            round,
            sha: sha.to_string(),
            verdict: verdict.as_str().to_string(),
            checks: runs.iter().map(brief).collect(),
            log: None,
            hints: Vec::new(),
            fix: None,
        });
        let failed = match verdict {
            Verdict::Green => {
                return Ok(Next::Stop(
                    WatchStatus::Green,
                    format!("every check passed on {}", short_id(sha)),
                ));
            }
            Verdict::Pending => {
                return Ok(Next::Stop(
                    WatchStatus::Deadline,
                    self.deadline_message(&runs),
                ));
            }
            Verdict::Failed => failed_checks(&runs),
        };
        let names = failed
            .iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        if round > self.opts.rounds {
            return Ok(Next::Stop(
                WatchStatus::Failing,
                format!(
                    "{names} still failing on {} after {} fix round(s)",
                    short_id(sha),
                    self.opts.rounds
                ),
            ));
        }
        if Instant::now() >= self.deadline {
            return Ok(Next::Stop(
                WatchStatus::Deadline,
                format!(
                    "the deadline ({}) came before a fix could start; {names} failing on {}",
                    seconds(self.opts.deadline),
                    short_id(sha)
                ),
            ));
        }
        let Some((check, excerpt)) = self.failing_log(&failed) else {
            return Ok(Next::Stop(
                WatchStatus::Failing,
                format!(
                    "{names} failed on {}, but neither a job log nor a check report could be read to work from",
                    short_id(sha)
                ),
            ));
        };
        let hints = log::paths_named(&excerpt, &self.root);
        self.trace.emit(TraceEvent::new(
            "ci",
            "ci.log",
            json!({"round": round, "check": check.name, "job_id": check.id, "step": excerpt.step,
                   "lines": excerpt.lines.len(), "omitted": excerpt.omitted, "hints": hints}),
        ));
        let current = report.rounds.last_mut().expect("pushed above");
        current.log = Some(LogInfo {
            check: check.name.clone(),
            step: excerpt.step.clone(),
            lines: excerpt.lines.clone(),
            omitted: excerpt.omitted,
        });
        current.hints = hints.clone();
        let fix = self.fix(round, sha, &check, &excerpt, &hints);
        let current = report.rounds.last_mut().expect("pushed above");
        current.fix = Some(fix.clone());
        self.after_fix(round, fix, current)
    }

    /// Pushes a landed fix and watches its commit next; a fix that landed nothing stops.
    fn after_fix(&self, round: u32, fix: FixOutcome, current: &mut Round) -> Result<Next, String> {
        let Some(commit) = fix.commit.clone() else {
            if fix.status == "error" {
                return Err(format!(
                    "the fix run could not run: {}",
                    fix.error.as_deref().unwrap_or("unknown error")
                ));
            }
            return Ok(Next::Stop(
                WatchStatus::FixFailed,
                format!(
                    "the fix did not pass the guards{}; nothing was pushed",
                    if fix.blocked_by.is_empty() {
                        String::new()
                    } else {
                        format!(" (blocked by: {})", fix.blocked_by.join(", "))
                    }
                ),
            ));
        };
        push::push_to(
            &self.root,
            &self.remote,
            &fix.branch,
            &self.pull.head_ref,
            Some(&self.token),
        )
        .map_err(|e| {
            format!(
                "the fix {} is on the local branch {}, but pushing it to {} failed: {e}",
                short_id(&commit),
                fix.branch,
                self.pull.head_ref
            )
        })?;
        if let Some(f) = current.fix.as_mut() {
            f.pushed = true;
        }
        self.trace.emit(TraceEvent::new(
            "ci",
            "ci.push",
            json!({"round": round, "commit": commit, "from": fix.branch,
                   "to": self.pull.head_ref, "remote": self.remote}),
        ));
        (self.hooks.note)(&format!(
            "ci: pushed {} to {} ({}); watching its checks",
            short_id(&commit),
            self.pull.head_ref,
            self.remote
        ));
        Ok(Next::Watch(commit))
    }

    /// Polls the checks of `sha` until none is running or the deadline comes, waiting
    /// `poll_interval` after the first poll and twice as long after each later one (at most
    /// `max_interval`). A transport error is retried twice before it stops the watch.
    fn wait(
        &self,
        round: u32,
        sha: &str,
        report: &mut WatchReport,
    ) -> Result<(Verdict, Vec<CheckRun>), String> {
        let mut interval = self.opts.poll_interval;
        let mut errors = 0;
        let mut last = Vec::new();
        loop {
            match self.api.check_runs(&self.repo, sha) {
                Ok(runs) => {
                    errors = 0;
                    report.polls += 1;
                    let verdict = verdict_of(&runs);
                    self.trace_poll(round, sha, verdict, &runs);
                    if verdict != Verdict::Pending {
                        return Ok((verdict, runs));
                    }
                    last = runs;
                }
                Err(e @ ForgeError::Http(_)) if errors < POLL_RETRIES => {
                    errors += 1;
                    self.trace.emit(TraceEvent::new(
                        "ci",
                        "ci.poll.error",
                        json!({"round": round, "sha": sha, "error": e.to_string(), "retry": errors}),
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "cannot read the checks of {} from {}: {e}{}",
                        short_id(sha),
                        self.repo.full_name(),
                        api_hint(&e)
                    ));
                }
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok((Verdict::Pending, last));
            }
            std::thread::sleep(interval.min(left));
            interval = (interval * 2).min(self.opts.max_interval.max(self.opts.poll_interval));
        }
    }

    fn trace_poll(&self, round: u32, sha: &str, verdict: Verdict, runs: &[CheckRun]) {
        self.trace.emit(TraceEvent::new(
            "ci",
            "ci.poll",
            json!({"round": round, "sha": sha, "verdict": verdict.as_str(),
                   "checks": runs.iter().map(brief).collect::<Vec<_>>()}),
        ));
        let running = runs.iter().filter(|r| r.status != "completed").count();
        (self.hooks.note)(&match verdict {
            Verdict::Pending if runs.is_empty() => {
                format!("ci: {} has no checks yet; waiting", short_id(sha))
            }
            Verdict::Pending => format!(
                "ci: {} {running} of {} check(s) still running",
                short_id(sha),
                runs.len()
            ),
            Verdict::Green => format!("ci: {} green ({} check(s))", short_id(sha), runs.len()),
            Verdict::Failed => format!(
                "ci: {} failed: {}",
                short_id(sha),
                failed_checks(runs)
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }

    fn deadline_message(&self, runs: &[CheckRun]) -> String {
        let running: Vec<&str> = runs
            .iter()
            .filter(|r| r.status != "completed")
            .map(|r| r.name.as_str())
            .collect();
        format!(
            "the deadline ({}) came while {}; stopped cleanly, nothing left running",
            seconds(self.opts.deadline),
            if running.is_empty() {
                "no check had reported yet".to_string()
            } else {
                format!("{} was still running", running.join(", "))
            }
        )
    }

    /// The first failed check (by name) with something to work from: an Actions job's log cut
    /// to its failing step, else the check's own report.
    fn failing_log(&self, failed: &[CheckRun]) -> Option<(CheckRun, LogExcerpt)> {
        for check in failed {
            if check.app == "github-actions" {
                match self.api.job_log(&self.repo, check.id) {
                    Ok(text) => {
                        let ex = log::excerpt(&text, self.opts.log_budget);
                        if !ex.lines.is_empty() {
                            return Some((check.clone(), ex));
                        }
                    }
                    Err(e) => (self.hooks.note)(&format!(
                        "ci: the log of {} could not be read ({e}); using its report",
                        check.name
                    )),
                }
            }
            let mut ex = log::excerpt(&check.output, self.opts.log_budget);
            if !ex.lines.is_empty() {
                ex.step = "check report".into();
                return Some((check.clone(), ex));
            }
        }
        None
    }

    /// One guarded fix subtask through the run loop, on a new local branch at `sha`.
    fn fix(
        &self,
        round: u32,
        sha: &str,
        check: &CheckRun,
        excerpt: &LogExcerpt,
        hints: &[String],
    ) -> FixOutcome {
        let branch = format!("slopguard/{}-{round}", self.watch_id);
        self.trace.emit(TraceEvent::new(
            "ci",
            "ci.fix.begin",
            json!({"round": round, "sha": sha, "check": check.name, "branch": branch,
                   "hints": hints}),
        ));
        (self.hooks.note)(&format!(
            "ci: fixing {} (round {round}/{}) on {branch}",
            check.name, self.opts.rounds
        ));
        if let Err(e) = self.fetch_head(sha) {
            return self.fix_end(round, fix_error(e));
        }
        let plan = fix_plan(check, sha, excerpt, hints);
        let opts = fix_options(self.template, &self.root, sha, &branch, plan);
        let outcome = match (self.hooks.fix)(&opts) {
            Ok(summary) => outcome_of(&summary),
            Err(e) => fix_error(e.to_string()),
        };
        self.fix_end(round, outcome)
    }

    fn fix_end(&self, round: u32, outcome: FixOutcome) -> FixOutcome {
        self.trace.emit(TraceEvent::new(
            "ci",
            "ci.fix.end",
            json!({"round": round, "run_id": outcome.run_id, "status": outcome.status,
                   "commit": outcome.commit, "branch": outcome.branch,
                   "blocked_by": outcome.blocked_by, "error": outcome.error}),
        ));
        outcome
    }

    /// Makes the PR's head commit available locally (fetched into `FETCH_HEAD` only).
    fn fetch_head(&self, sha: &str) -> Result<(), String> {
        if git::resolve(&self.root, &format!("{sha}^{{commit}}")).is_ok() {
            return Ok(());
        }
        let refspec = format!("refs/heads/{}", self.pull.head_ref);
        push::fetch(&self.root, &self.remote, &refspec, Some(&self.token)).map_err(|e| {
            format!(
                "cannot fetch {} from {}: {e}",
                self.pull.head_ref, self.remote
            )
        })?;
        git::resolve(&self.root, &format!("{sha}^{{commit}}"))
            .map(|_| ())
            .map_err(|_| {
                format!(
                    "{} is not on {} of {} (the branch moved since): run ci-watch again",
                    short_id(sha),
                    self.pull.head_ref,
                    self.remote
                )
            })
    }
}

/// What follows a round.
enum Next {
    /// Watch this commit.
    Watch(String),
    /// Stop.
    Stop(WatchStatus, String),
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
        .filter(|g| g.status == "blocked")
        .map(|g| g.guard.clone())
        .collect();
    blocked_by.sort();
    blocked_by.dedup();
    FixOutcome {
        run_id: summary.run_id.clone(),
        status: serde_json::to_value(summary.status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        branch: if landed {
            summary.branch.clone()
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

#[cfg(test)]
mod tests {
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
