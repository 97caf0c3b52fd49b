//! `slopguard feedback`: take a reviewer's feedback in, list and show it, triage it.
//!
//! Items live in the store (`--db`, else SLOPGUARD_DB, else the user store) under the
//! repository's id, and move through the self-correction loop's states
//! (`slopguard_agent::feedback::State`); every move is recorded with a note.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use slopguard_agent::feedback::github;
use slopguard_agent::feedback::inbox::Inbox;
use slopguard_agent::feedback::localise::{self, Localisation};
use slopguard_agent::feedback::triage::{self, Triage};
use slopguard_agent::feedback::{Intake, Severity, State};
use slopguard_agent::gates::step_critic::CriticMode;
use slopguard_llm::{BlockingClient, Role};

use super::common::{LlmArgs, ReportFormat};
use super::plan::endpoint_help;
use crate::progress::StepProgress;

/// `slopguard feedback`.
#[derive(Debug, clap::Args)]
pub struct FeedbackArgs {
    #[command(subcommand)]
    pub command: FeedbackCommand,
}

/// The feedback subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum FeedbackCommand {
    /// Take feedback in: the text as an argument, `-` (or nothing, with a pipe) for stdin, or
    /// --file. Prints the new item's id.
    Add(AddArgs),
    /// Take in pull-request review comments that address the bot (`@slopguard ...`), read
    /// from the GitHub API for the repository's GitHub remote (needs GITHUB_TOKEN); each
    /// comment is taken once.
    Poll(PollArgs),
    /// List the repository's feedback items, newest first.
    List(ListArgs),
    /// Show one item: its text, state, what the steps found, and every transition.
    Show(ShowArgs),
    /// Triage a pending item: localise it in the repository (no model), then ask the reviewer
    /// model for a fix class, root cause, files and confidence; below 60 it is escalated.
    Triage(TriageArgs),
    /// Plan and write the fix of a triaged item on `slopguard/fix/<id>`, with a regression
    /// test that must fail without the fix and pass with it (large jobs wait for `approve`).
    Fix(FixArgs),
    /// Approve a large fix waiting for approval (then run `feedback fix` again).
    Approve(DecideArgs),
    /// Reject an item (waiting for approval, triaged or escalated).
    Reject(DecideArgs),
    /// Revise a plan waiting for approval: the reviewer model rewrites it with your note
    /// (at most three rounds; then approve, reject, or add the feedback again).
    Refine(RefineArgs),
    /// Run the item's regression test on a merged revision: green -> verified (and remembered
    /// in the failure memory), red -> reopened, exit 1.
    Verify(VerifyArgs),
    /// Continue an item from the state it is in (after a crash, a kill or a reopen): triage a
    /// pending item, fix a triaged or in-fix one, say what a waiting one waits for.
    Resume(FixArgs),
}

/// `slopguard feedback fix`.
#[derive(Debug, clap::Args)]
pub struct FixArgs {
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
pub struct DecideArgs {
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
pub struct RefineArgs {
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
pub struct VerifyArgs {
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
pub struct StoreArgs {
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
pub struct AddArgs {
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
pub struct PollArgs {
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
pub struct ListArgs {
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
pub struct ShowArgs {
    /// The item's id.
    pub id: i64,

    #[command(flatten)]
    pub store: StoreArgs,
}

/// `slopguard feedback triage`.
#[derive(Debug, clap::Args)]
pub struct TriageArgs {
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

/// Runs `slopguard feedback`.
pub fn run(args: FeedbackArgs, _global: &crate::Global) -> anyhow::Result<u8> {
    match args.command {
        FeedbackCommand::Add(a) => add(a),
        FeedbackCommand::Poll(a) => poll(a),
        FeedbackCommand::List(a) => list(a),
        FeedbackCommand::Show(a) => show(a),
        FeedbackCommand::Triage(a) => triage_item(a),
        FeedbackCommand::Fix(a) => super::feedback_fix::fix(a),
        FeedbackCommand::Approve(a) => super::feedback_fix::decide(a, true),
        FeedbackCommand::Reject(a) => super::feedback_fix::decide(a, false),
        FeedbackCommand::Refine(a) => super::feedback_fix::refine(a),
        FeedbackCommand::Verify(a) => super::feedback_fix::verify(a),
        FeedbackCommand::Resume(a) => resume(a),
    }
}

pub(crate) fn open(args: &StoreArgs) -> anyhow::Result<Inbox> {
    Ok(Inbox::open(args.db.as_deref(), &args.repo)?)
}

fn read_text(a: &AddArgs) -> anyhow::Result<(String, &'static str)> {
    if let Some(f) = &a.file {
        let text = std::fs::read_to_string(f)
            .with_context(|| format!("cannot read the feedback file {}", f.display()))?;
        return Ok((text, "file"));
    }
    match a.text.as_deref() {
        Some("-") | None => {
            if a.text.is_none() && std::io::stdin().is_terminal() {
                bail!(
                    "no feedback given: write it as an argument, pipe it in (`-`), or use --file FILE"
                );
            }
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the feedback from stdin")?;
            Ok((text, "stdin"))
        }
        Some(t) => Ok((t.to_string(), "cli")),
    }
}

fn add(a: AddArgs) -> anyhow::Result<u8> {
    let (text, source) = match read_text(&a) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let intake = match Intake::new(&text, a.on.clone(), a.severity, source) {
        Ok(i) => i,
        Err(e) => return usage_error(e.into()),
    };
    let inbox = open(&a.store)?;
    let id = inbox.add(&intake)?;
    match a.store.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"id": id, "state": State::Pending.name(), "repo": inbox.repo()})
        ),
        ReportFormat::Text => {
            println!("feedback {id} recorded (pending) for {}", inbox.repo());
            println!("next: slopguard feedback triage {id}");
        }
    }
    Ok(crate::EXIT_OK)
}

/// `slopguard feedback poll`: review comments addressed to the bot, each taken in once.
fn poll(a: PollArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let repo = match github_repo(inbox.root(), &a.remote) {
        Ok(r) => r,
        Err(e) => return usage_error(e),
    };
    let forge = slopguard_agent::forge::ForgeConfig::from_env();
    let Some(token) = forge.token.as_deref() else {
        return usage_error(anyhow::anyhow!(
            "no GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the pull \
             requests of {}",
            repo.full_name()
        ));
    };
    let request = github::PollRequest {
        api_base: &forge.api_base,
        token,
        repo: &repo,
        since: a.since.as_deref(),
        mention: a.mention.trim_start_matches('@'),
    };
    let comments = match github::poll(&request) {
        Ok(c) => c,
        Err(e) => {
            return usage_error(anyhow::anyhow!(
                "cannot read the review comments of {}: {e}",
                repo.full_name()
            ));
        }
    };
    let taken: std::collections::BTreeSet<String> = inbox
        .list(None, u32::MAX)?
        .iter()
        .filter_map(|r| Intake::from_row(r).map(|i| i.source))
        .collect();
    let mut added = Vec::new();
    for c in comments
        .iter()
        .filter(|c| !taken.contains(&c.intake.source))
    {
        let id = inbox.add(&c.intake)?;
        added.push(serde_json::json!({"id": id, "comment_id": c.id, "on": c.intake.on}));
        if a.store.format == ReportFormat::Text {
            let first = c.intake.text.lines().next().unwrap_or("");
            println!(
                "feedback {id} recorded (pending) from review comment {}: {first}",
                c.id
            );
        }
    }
    let skipped = comments.len() - added.len();
    match a.store.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"repo": repo.full_name(), "added": added, "already_taken": skipped})
        ),
        ReportFormat::Text => println!(
            "{} new review comment(s) for @{} in {}; {skipped} taken in before",
            added.len(),
            request.mention,
            repo.full_name()
        ),
    }
    Ok(crate::EXIT_OK)
}

/// The GitHub repository behind `remote` of the repository at `root`.
fn github_repo(root: &Path, remote: &str) -> anyhow::Result<slopguard_agent::forge::GitHubRepo> {
    let url = slopguard_agent::git::git(root, &["remote", "get-url", remote]).map_err(|_| {
        anyhow::anyhow!(
            "the repository has no remote `{remote}`: polling needs its GitHub remote \
                 (--remote NAME)"
        )
    })?;
    slopguard_agent::forge::parse_github_remote(url.trim()).ok_or_else(|| {
        anyhow::anyhow!(
            "remote `{remote}` ({}) is not a GitHub repository; name another with --remote",
            url.trim()
        )
    })
}

pub(crate) fn usage_error(e: anyhow::Error) -> anyhow::Result<u8> {
    eprintln!("slopguard: error: {e:#}");
    Ok(crate::EXIT_ERROR)
}

fn list(a: ListArgs) -> anyhow::Result<u8> {
    let state = match a.state.as_deref().map(|s| (s, State::parse(s))) {
        Some((s, None)) => {
            let names: Vec<&str> = State::ALL.iter().map(|s| s.name()).collect();
            return usage_error(anyhow::anyhow!(
                "`{s}` is not a state: use one of {}",
                names.join(", ")
            ));
        }
        Some((_, state)) => state,
        None => None,
    };
    let inbox = open(&a.store)?;
    let rows = inbox.list(state, a.limit)?;
    match a.store.format {
        ReportFormat::Json => println!("{}", serde_json::to_string_pretty(&rows)?),
        ReportFormat::Text => {
            if rows.is_empty() {
                println!("no feedback for {}", inbox.repo());
            }
            for r in &rows {
                let text = Intake::from_row(r).map(|i| i.text).unwrap_or_default();
                let first = text.lines().next().unwrap_or("");
                println!("{:>5}  {:<17}  {}", r.id, r.state, first);
            }
        }
    }
    Ok(crate::EXIT_OK)
}

fn show(a: ShowArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    let history = inbox.history(a.id)?;
    match a.store.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"item": row, "history": history}))?
        ),
        ReportFormat::Text => {
            let intake = Intake::from_row(&row);
            println!("feedback {} ({})", row.id, row.state);
            if let Some(i) = &intake {
                println!("severity: {:?}; from: {}", i.severity, i.source);
                if let Some(on) = &i.on {
                    println!("on: {on}");
                }
                println!();
                for l in i.text.lines() {
                    println!("> {l}");
                }
            }
            if let Some(t) = row.detail.get("triage") {
                println!();
                println!("triage: {}", serde_json::to_string(t)?);
            }
            if let Some(l) = row.detail.get("localisation") {
                println!("localisation: {}", serde_json::to_string(l)?);
            }
            if let Some(p) = row.detail.get("plan") {
                println!("plan: {}", serde_json::to_string(p)?);
            }
            println!();
            for h in &history {
                println!("{} -> {}: {}", h.from, h.to, h.note);
            }
        }
    }
    Ok(crate::EXIT_OK)
}

fn resume(a: FixArgs) -> anyhow::Result<u8> {
    let row = open(&a.store)?.get(a.id)?;
    match State::parse(&row.state) {
        Some(State::Pending) => triage_item(TriageArgs {
            id: a.id,
            llm: a.llm,
            quiet: a.quiet,
            store: a.store,
        }),
        Some(State::Triaged | State::InFix) => super::feedback_fix::fix(a),
        Some(State::Reopened) => {
            let inbox = open(&a.store)?;
            inbox.transition(
                &row,
                State::Triaged,
                "resumed after a red verify",
                row.detail.clone(),
            )?;
            super::feedback_fix::fix(a)
        }
        Some(State::AwaitingApproval) => {
            println!(
                "feedback {} waits for approval: `slopguard feedback approve {}`",
                a.id, a.id
            );
            Ok(crate::EXIT_OK)
        }
        Some(State::FixPrOpen) => {
            println!(
                "feedback {} has its fix; after the merge: `slopguard feedback verify {}`",
                a.id, a.id
            );
            Ok(crate::EXIT_OK)
        }
        _ => {
            println!("feedback {} is {}: nothing to resume", a.id, row.state);
            Ok(crate::EXIT_OK)
        }
    }
}

fn triage_item(a: TriageArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    if row.state != State::Pending.name() {
        return usage_error(anyhow::anyhow!(
            "feedback {} is {}, not pending: it was triaged already (`slopguard feedback show {}`)",
            row.id,
            row.state,
            row.id
        ));
    }
    let Some(intake) = Intake::from_row(&row) else {
        bail!("feedback {} is not review feedback", row.id);
    };
    let loc = localise::localise(inbox.root(), &intake.text, intake.on.as_deref());
    let mut cfg = a.llm.config();
    // A malformed triage is sent back once, then refused.
    cfg.correction_turns = 1;
    let url = cfg.role(Role::Reviewer).base_url.clone();
    let client = BlockingClient::new(cfg)?;
    let root = inbox.root().to_path_buf();
    let exists = move |p: &str| is_repo_file(&root, p);
    // Earlier verified fixes of the same files (the failure memory) inform the triage.
    let earlier = inbox.remembered_fixes(50).unwrap_or_default();
    // A small local model can take minutes to answer: say what is awaited meanwhile.
    let progress = StepProgress::start(a.quiet);
    progress.step("triage (waiting for the reviewer model)");
    let triaged = triage::triage(&client, &intake, &loc, &earlier, &exists);
    progress.finish();
    let t = match triaged {
        Ok(t) => t,
        Err(triage::TriageError::Model(e)) if e.is_unreachable() => {
            eprintln!("slopguard: error: {}", endpoint_help(&url, &e.to_string()));
            return Ok(crate::EXIT_ERROR);
        }
        Err(e) => {
            eprintln!(
                "slopguard: error: {e}\nfeedback {} stays pending; run the triage again, or with another model (--model)",
                row.id
            );
            return Ok(crate::EXIT_BLOCKED);
        }
    };
    let to = if t.escalated {
        State::Escalated
    } else {
        State::Triaged
    };
    let note = triage_note(&t);
    let detail = serde_json::json!({"triage": t, "localisation": loc});
    inbox.transition(&row, to, &note, detail)?;
    report_triage(&a.store.format, row.id, to, &t, &loc)?;
    Ok(crate::EXIT_OK)
}

fn triage_note(t: &Triage) -> String {
    let class = serde_json::to_value(t.class)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut note = format!("{class}, confidence {}", t.confidence);
    if t.escalated {
        note.push_str(": escalated to a person");
    }
    note
}

fn report_triage(
    format: &ReportFormat,
    id: i64,
    to: State,
    t: &Triage,
    loc: &Localisation,
) -> anyhow::Result<()> {
    match format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"id": id, "state": to.name(), "triage": t, "localisation": loc})
            )?
        ),
        ReportFormat::Text => {
            println!("feedback {id}: {} ({})", to.name(), triage_note(t));
            println!("root cause: {}", t.root_cause);
            if !t.files.is_empty() {
                println!("files (model): {}", t.files.join(", "));
            }
            for f in &loc.files {
                println!("located: {} ({})", f.path, f.why.join("; "));
            }
            for n in t.notes.iter().chain(&loc.dropped) {
                println!("note: {n}");
            }
        }
    }
    Ok(())
}

pub(crate) fn is_repo_file(root: &Path, p: &str) -> bool {
    let rel = Path::new(p);
    !rel.is_absolute() && !p.split('/').any(|c| c == "..") && root.join(rel).is_file()
}
