//! The watch loop once its preconditions hold: poll, read the failing check's log, fix, push, poll again.

use super::*;

/// The watch once its preconditions hold.
pub(super) struct Watcher<'a> {
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
    pub(super) trace: Trace,
    watch_id: String,
}

impl<'a> Watcher<'a> {
    /// Checks the preconditions in order (URL, token, repository, remote, the PR readable,
    /// open, and not from a fork) without writing anything; then opens the trace.
    pub(super) fn start(
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
    pub(super) fn rounds(&mut self, report: &mut WatchReport) -> (WatchStatus, String) {
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
pub(super) enum Next {
    /// Watch this commit.
    Watch(String),
    /// Stop.
    Stop(WatchStatus, String),
}
