//! `slopguard ci-watch <PR url>`: watch a pull request's GitHub checks and fix failures with
//! guarded fix runs pushed to its branch; also called by `slopguard run --ci-watch` once the
//! run opened its pull request.

use std::path::{Path, PathBuf};
use std::time::Duration;

use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::run::RunOptions;
use slopguard_forge::ci::{self, Hooks, LogBudget, WatchOptions, WatchReport, WatchStatus};
use slopguard_forge::{ForgeConfig, PrOutcome};

use super::common::{LlmArgs, ReportFormat, StoreArgs};

/// How long and how often the CI watch polls, and how many fixes it tries (shared by
/// `ci-watch` and `run --ci-watch`).
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "CI watch")]
pub(crate) struct WatchTuning {
    /// Wall-clock limit of the watch in seconds: no poll and no fix starts after it.
    #[arg(long, env = "SLOPGUARD_CI_DEADLINE", default_value_t = 1800)]
    pub ci_deadline: u64,

    /// Seconds between the first two polls of the checks; doubled after each poll that found
    /// them still running.
    #[arg(long, env = "SLOPGUARD_CI_POLL", default_value_t = 15)]
    pub ci_poll: u64,

    /// The longest wait between two polls, in seconds.
    #[arg(long, env = "SLOPGUARD_CI_MAX_POLL", default_value_t = 120)]
    pub ci_max_poll: u64,

    /// Fix rounds at most (0: watch only, never fix).
    #[arg(long, env = "SLOPGUARD_CI_ROUNDS", default_value_t = 3)]
    pub ci_rounds: u32,

    /// Lines of the failing step's log the fix is shown, at most.
    #[arg(long, default_value_t = 60)]
    pub ci_log_lines: usize,
}

impl WatchTuning {
    fn options(&self) -> WatchOptions {
        WatchOptions {
            deadline: Duration::from_secs(self.ci_deadline),
            poll_interval: Duration::from_secs(self.ci_poll.max(1)),
            max_interval: Duration::from_secs(self.ci_max_poll.max(1)),
            rounds: self.ci_rounds,
            log_budget: LogBudget {
                max_lines: self.ci_log_lines.max(5),
                ..LogBudget::default()
            },
        }
    }
}

/// Watch a pull request's GitHub checks; on a failure, fix it with a guarded run on its branch
/// (every patch passes the same guards, build and tests as in `run`), push, and watch again.
#[derive(Debug, clap::Args)]
pub(crate) struct CiWatchArgs {
    /// The pull request, as https://github.com/OWNER/REPO/pull/NUMBER.
    pub pr_url: String,

    /// A local clone of the pull request's repository (any path inside it); it needs a remote
    /// pointing at the repository on GitHub.
    #[arg(long, short = 'C', default_value = ".")]
    pub repo: PathBuf,

    #[command(flatten)]
    pub tuning: WatchTuning,

    #[command(flatten)]
    pub llm: LlmArgs,

    #[command(flatten)]
    pub store: StoreArgs,

    /// Attempts of each fix subtask before it fails.
    #[arg(long, env = "SLOPGUARD_MAX_ATTEMPTS", default_value_t = 3)]
    pub max_attempts: u32,

    /// Timeout in seconds of each build and test command of a fix.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,

    /// Candidate replies sampled per attempt (as for `run`).
    #[arg(long, env = "SLOPGUARD_CANDIDATES", default_value = "auto")]
    pub candidates: slopguard_agent::run::candidates::CandidateCount,

    /// Wall-clock budget of one fix subtask in seconds.
    #[arg(long, env = "SLOPGUARD_SUBTASK_BUDGET", default_value_t = 600)]
    pub subtask_budget: u64,

    /// No progress output.
    #[arg(long, short)]
    pub quiet: bool,

    /// Output format of the summary.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Runs `slopguard ci-watch`. Exit 0 green, 1 checks still failing / the fix did not pass the
/// guards / the deadline came first, 2 no token, no matching remote, an unreadable PR, a
/// network, git or model error.
pub(crate) fn run(args: CiWatchArgs, global: &crate::Global) -> anyhow::Result<u8> {
    slopguard_llm::install_crypto_provider();
    let template = RunOptions {
        llm: args.llm.config(),
        db: args.store.db.clone(),
        no_store: args.store.no_store,
        max_attempts: args.max_attempts.max(1),
        config: global.config.clone(),
        dynamic: DynamicOptions {
            build_timeout: Duration::from_secs(args.timeout),
            test_timeout: Duration::from_secs(args.timeout),
            ..DynamicOptions::default()
        },
        candidates: args.candidates,
        subtask_budget: Duration::from_secs(args.subtask_budget.max(1)),
        ..RunOptions::default()
    };
    let json = args.format == ReportFormat::Json;
    let report = watch(
        &args.pr_url,
        &args.repo,
        &template,
        &args.tuning,
        args.quiet,
        json,
    );
    if report.status == WatchStatus::Error {
        eprintln!("slopguard: error: {}", report.message);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if report.status != WatchStatus::Error || !report.rounds.is_empty() {
        // An error before the first poll is the one line on stderr.
        print!("{}", report.to_text());
    }
    Ok(exit_code(report.status))
}

/// The exit code of a watch's ending.
fn exit_code(status: WatchStatus) -> u8 {
    match status {
        WatchStatus::Green => crate::EXIT_OK,
        WatchStatus::Failing | WatchStatus::FixFailed | WatchStatus::Deadline => {
            crate::EXIT_BLOCKED
        }
        WatchStatus::Error => crate::EXIT_ERROR,
    }
}

/// The watch with the terminal view: fix runs show `run`'s progress, notes go to stderr.
fn watch(
    pr_url: &str,
    repo: &Path,
    template: &RunOptions,
    tuning: &WatchTuning,
    quiet: bool,
    json: bool,
) -> WatchReport {
    let forge = ForgeConfig::from_env();
    let fix = |o: &RunOptions| crate::run_view::execute_with_progress(o, quiet, json);
    let note = |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    ci::watch(
        &ci::WatchRequest {
            pr_url,
            repo_dir: repo,
            forge: &forge,
            fix_template: template,
        },
        &tuning.options(),
        &Hooks {
            fix: &fix,
            note: &note,
        },
    )
}

/// `run --ci-watch`: the watch of the pull request the run opened, with the run's options for
/// the fixes; `Err(reason)` when no pull request was opened.
pub(crate) fn after_run(
    pr: Option<&Result<PrOutcome, String>>,
    template: &RunOptions,
    tuning: &WatchTuning,
    quiet: bool,
    json: bool,
) -> Result<WatchReport, String> {
    let url = ci::pr_to_watch(pr)?;
    Ok(watch(url, &template.path, template, tuning, quiet, json))
}

/// The `ci_watch` member of `run --format json`: the report, or `{"skipped": reason}`.
pub(crate) fn after_run_json(ci: &Result<WatchReport, String>) -> serde_json::Value {
    match ci {
        Ok(report) => serde_json::to_value(report).unwrap_or_default(),
        Err(reason) => serde_json::json!({ "skipped": reason }),
    }
}

/// The CI watch's lines after `run`'s text summary.
pub(crate) fn after_run_text(ci: &Result<WatchReport, String>) -> String {
    match ci {
        Ok(report) => report.to_text(),
        Err(reason) => format!("CI watch skipped: {reason}\n"),
    }
}
