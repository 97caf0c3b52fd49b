//! The arguments of `slopguard feedback`'s subcommands, and what its two modules (`feedback`:
//! intake, list, show, triage, resume; `feedback_fix`: fix, approve, reject, refine, verify)
//! share: opening the inbox, reporting a step's error, the progress of a long wait.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use slopguard_agent::gates::step_critic::CriticMode;
use slopguard_feedback::Severity;
use slopguard_feedback::github;
use slopguard_feedback::inbox::Inbox;
use slopguard_feedback::steps::{FixRequest, StepError};

use super::common::{LlmArgs, ReportFormat};
use super::plan::endpoint_help;
use crate::progress::StepProgress;

/// `slopguard feedback fix`.
#[derive(Debug, clap::Args)]
pub(crate) struct FixArgs {
    /// The item's id.
    pub id: i64,

    #[command(flatten)]
    pub llm: LlmArgs,

    /// Attempts of the fix subtask.
    #[arg(long, default_value_t = 3)]
    pub max_attempts: u32,

    /// Candidates per attempt: a number, or `auto`.
    #[arg(long, default_value = "auto")]
    pub candidates: slopguard_agent::run::candidates::CandidateCount,

    /// Build and test timeout in seconds.
    #[arg(long, default_value_t = 300)]
    pub timeout: u64,

    /// Wall budget of the fix in seconds.
    #[arg(long, default_value_t = 600)]
    pub budget: u64,

    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// The continuous critic: one reviewer-model call after each step (the plan, each attempt,
    /// the landing) that may name one problem; 80+ is fed to the next attempt, 60-79 goes to
    /// the PR body's self-review. auto (the default, unless slopguard.toml's `[feedback] critic`
    /// says otherwise): on for reviewer models of 3B parameters or more.
    #[arg(long, value_name = "auto|on|off")]
    pub critic: Option<CriticMode>,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback approve|reject`.
#[derive(Debug, clap::Args)]
pub(crate) struct DecideArgs {
    /// The item's id.
    pub id: i64,

    /// Why (kept with the transition).
    #[arg(long, default_value = "")]
    pub note: String,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback refine`.
#[derive(Debug, clap::Args)]
pub(crate) struct RefineArgs {
    /// The item's id.
    pub id: i64,

    /// What to change in the plan, in plain words.
    pub note: String,

    #[command(flatten)]
    pub llm: LlmArgs,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The item's id.
    pub id: i64,

    /// The merged revision to check (default: HEAD of the repository).
    #[arg(long, default_value = "HEAD")]
    pub rev: String,

    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// Where the items are kept.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct StoreArgs {
    /// The repository the feedback is about, any directory inside it (its `origin` URL, else
    /// its work tree's top directory, is the key; the gateway's `POST /feedback` uses the same).
    #[arg(long, short = 'C', default_value = ".")]
    pub repo: PathBuf,

    /// Store URL (`sqlite://...` or `postgres://...`; default: SLOPGUARD_DB, else the user
    /// store).
    #[arg(long, env = "SLOPGUARD_DB")]
    pub db: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// `slopguard feedback add`.
#[derive(Debug, clap::Args)]
pub(crate) struct AddArgs {
    /// The feedback; `-` reads stdin.
    pub text: Option<String>,

    /// Read the feedback from this file.
    #[arg(long, value_name = "FILE", conflicts_with = "text")]
    pub file: Option<PathBuf>,

    /// What it is about: a pull request URL, `path:line`, `path:start-end`, or a run id.
    #[arg(long, value_name = "TARGET")]
    pub on: Option<String>,

    /// How much it matters: low, medium or high.
    #[arg(long, default_value = "medium")]
    pub severity: Severity,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback poll`.
#[derive(Debug, clap::Args)]
pub(crate) struct PollArgs {
    /// Only comments updated at or after this time (ISO 8601, `2026-11-01T00:00:00Z`).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,

    /// The name the bot answers to in comments, without `@`.
    #[arg(long, default_value = github::DEFAULT_MENTION)]
    pub mention: String,

    /// The git remote of the GitHub repository.
    #[arg(long, default_value = "origin")]
    pub remote: String,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback list`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// Only items in this state (`pending`, `triaged`, `escalated`, ...).
    #[arg(long)]
    pub state: Option<String>,

    /// At most this many items.
    #[arg(long, default_value_t = 50)]
    pub limit: u32,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback show`.
#[derive(Debug, clap::Args)]
pub(crate) struct ShowArgs {
    /// The item's id.
    pub id: i64,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback triage`.
#[derive(Debug, clap::Args)]
pub(crate) struct TriageArgs {
    /// The item's id.
    pub id: i64,

    #[command(flatten)]
    pub llm: LlmArgs,

    /// No progress output on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    #[command(flatten)]
    pub store: StoreArgs,
}

impl FixArgs {
    /// The agent's fix request of these arguments.
    pub(crate) fn request(&self) -> FixRequest {
        FixRequest {
            id: self.id,
            llm: self.llm.config(),
            db: self.store.db.clone(),
            max_attempts: self.max_attempts,
            candidates: self.candidates,
            timeout: Duration::from_secs(self.timeout),
            budget: Duration::from_secs(self.budget),
            critic: self.critic,
        }
    }
}

/// The inbox of the repository `args` names, in the store they name.
pub(crate) fn open(args: &StoreArgs) -> anyhow::Result<Inbox> {
    Ok(Inbox::open(args.db.as_deref(), &args.repo)?)
}

/// Prints a usage error (the command does not apply); exit 2.
pub(crate) fn usage_error(e: anyhow::Error) -> anyhow::Result<u8> {
    eprintln!("slopguard: error: {e:#}");
    Ok(crate::EXIT_ERROR)
}

/// A step's error: a refusal is a usage error (exit 2); an unreachable reviewer model gets the
/// endpoint's help (exit 2); a model answer that was refused says what became of the item
/// (`kept`) (exit 1); anything else is the command's error.
pub(crate) fn step_failed(e: StepError, kept: &str) -> anyhow::Result<u8> {
    match e {
        e if e.is_refusal() => usage_error(e.into()),
        StepError::Unreachable { url, source } => {
            eprintln!(
                "slopguard: error: {}",
                endpoint_help(&url, &source.to_string())
            );
            Ok(crate::EXIT_ERROR)
        }
        e @ (StepError::Triage(_) | StepError::Refine(_)) => {
            eprintln!("slopguard: error: {e}\n{kept}");
            Ok(crate::EXIT_BLOCKED)
        }
        e => Err(e.into()),
    }
}

/// The progress of a step's long wait (a model call, a test run): a spinner or plain lines
/// from `Some(what)` to `None`; nothing when `quiet`.
pub(crate) struct Waiting {
    quiet: bool,
    progress: RefCell<Option<StepProgress>>,
}

impl Waiting {
    pub(crate) fn new(quiet: bool) -> Waiting {
        Waiting {
            quiet,
            progress: RefCell::new(None),
        }
    }

    /// The hook the agent's steps call.
    pub(crate) fn on(&self, what: Option<&str>) {
        let mut progress = self.progress.borrow_mut();
        match what {
            Some(doing) => {
                let p = progress.get_or_insert_with(|| StepProgress::start(self.quiet));
                p.step(doing);
            }
            None => {
                if let Some(p) = progress.take() {
                    p.finish();
                }
            }
        }
    }
}
