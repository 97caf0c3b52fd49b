//! `slopguard feedback`: take a reviewer's feedback in, list and show it, triage it.
//!
//! Items live in the store (`--db`, else SLOPGUARD_DB, else the user store) under the
//! repository's id, and move through the self-correction loop's states
//! (`slopguard_feedback::State`); every move is recorded with a note.

use std::io::{IsTerminal, Read};

use anyhow::{Context, bail};
use slopguard_feedback::github;
use slopguard_feedback::localise::Localisation;
use slopguard_feedback::steps::{self, Resume};
use slopguard_feedback::triage::Triage;
use slopguard_feedback::{Intake, State};

use super::common::ReportFormat;
use super::feedback_args::{
    AddArgs, DecideArgs, FixArgs, ListArgs, PollArgs, RefineArgs, ShowArgs, TriageArgs, VerifyArgs,
    Waiting, open, step_failed, usage_error,
};

/// `slopguard feedback`.
#[derive(Debug, clap::Args)]
pub(crate) struct FeedbackArgs {
    #[command(subcommand)]
    pub command: FeedbackCommand,
}

/// The feedback subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum FeedbackCommand {
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

/// Runs `slopguard feedback`.
pub(crate) fn run(args: FeedbackArgs, _global: &crate::Global) -> anyhow::Result<u8> {
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
    let forge = slopguard_forge::ForgeConfig::from_env();
    let request = steps::PollRequest {
        remote: &a.remote,
        since: a.since.as_deref(),
        mention: &a.mention,
    };
    let text = a.store.format == ReportFormat::Text;
    let mut say_added = |id: i64, c: &github::BotComment| {
        if text {
            let first = c.intake.text.lines().next().unwrap_or("");
            println!(
                "feedback {id} recorded (pending) from review comment {}: {first}",
                c.id
            );
        }
    };
    let polled = match steps::poll(&inbox, &forge, &request, &mut say_added) {
        Ok(p) => p,
        Err(e) => return step_failed(e, ""),
    };
    match a.store.format {
        ReportFormat::Json => {
            let added: Vec<serde_json::Value> = polled
                .added
                .iter()
                .map(|(id, c)| serde_json::json!({"id": id, "comment_id": c.id, "on": c.intake.on}))
                .collect();
            println!(
                "{}",
                serde_json::json!({"repo": polled.repo.full_name(), "added": added,
                                   "already_taken": polled.already_taken})
            )
        }
        ReportFormat::Text => println!(
            "{} new review comment(s) for @{} in {}; {} taken in before",
            polled.added.len(),
            polled.mention,
            polled.repo.full_name(),
            polled.already_taken
        ),
    }
    Ok(crate::EXIT_OK)
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

/// `slopguard feedback resume`: the step the item's state calls for.
fn resume(a: FixArgs) -> anyhow::Result<u8> {
    let next = match steps::resume(&open(&a.store)?, a.id) {
        Ok(next) => next,
        Err(e) => return step_failed(e, ""),
    };
    match next {
        Resume::Triage => triage_item(TriageArgs {
            id: a.id,
            llm: a.llm,
            quiet: a.quiet,
            store: a.store,
        }),
        Resume::Fix | Resume::ReopenAndFix => super::feedback_fix::fix(a),
        Resume::WaitsForApproval => {
            println!(
                "feedback {} waits for approval: `slopguard feedback approve {}`",
                a.id, a.id
            );
            Ok(crate::EXIT_OK)
        }
        Resume::HasFix => {
            println!(
                "feedback {} has its fix; after the merge: `slopguard feedback verify {}`",
                a.id, a.id
            );
            Ok(crate::EXIT_OK)
        }
        Resume::Nothing(state) => {
            println!("feedback {} is {state}: nothing to resume", a.id);
            Ok(crate::EXIT_OK)
        }
    }
}

/// `slopguard feedback triage`.
fn triage_item(a: TriageArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let waiting = Waiting::new(a.quiet);
    let kept = format!(
        "feedback {} stays pending; run the triage again, or with another model (--model)",
        a.id
    );
    let t = match steps::triage_item(&inbox, a.id, a.llm.config(), &|w| waiting.on(w)) {
        Ok(t) => t,
        Err(e) => return step_failed(e, &kept),
    };
    report_triage(&a.store.format, a.id, t.state, &t.triage, &t.localisation)?;
    Ok(crate::EXIT_OK)
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
            println!("feedback {id}: {} ({})", to.name(), steps::triage_note(t));
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
