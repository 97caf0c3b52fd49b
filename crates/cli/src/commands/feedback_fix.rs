//! `slopguard feedback fix|approve|reject|refine|verify`: the steps after triage. The steps
//! themselves are the feedback crate's (`slopguard_feedback::steps`); this module calls them
//! and prints what they did.

use slopguard_agent::git::short_id;
use slopguard_feedback::State;
use slopguard_feedback::fix::FixPlan;
use slopguard_feedback::refine::MAX_ROUNDS;
use slopguard_feedback::steps::{self, FixHooks, Fixed, Verified};

use super::common::ReportFormat;
use super::feedback_args::{
    DecideArgs, FixArgs, RefineArgs, VerifyArgs, Waiting, open, step_failed,
};

/// `slopguard feedback fix`.
pub(crate) fn fix(a: FixArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let json = a.store.format == ReportFormat::Json;
    let run = |o: &_| crate::run_view::execute_with_progress(o, a.quiet, json);
    let warn = |w: &str| eprintln!("slopguard: warning: {w}");
    let fixed = match steps::fix(
        &inbox,
        &a.request(),
        &FixHooks {
            run: &run,
            warn: &warn,
        },
    ) {
        Ok(f) => f,
        Err(e) => return step_failed(e, ""),
    };
    let (landed, critic) = match fixed {
        Fixed::AwaitingApproval { why } => {
            println!(
                "feedback {id}: awaiting-approval ({why}); approve it with `slopguard feedback approve {id}` (or revise it first: `slopguard feedback refine {id} \"<what to change>\"`), then run `slopguard feedback fix {id}` again",
                id = a.id
            );
            return Ok(crate::EXIT_OK);
        }
        Fixed::RunStopped(e) => {
            eprintln!("slopguard: error: the fix run stopped: {e}");
            return Ok(crate::EXIT_ERROR);
        }
        Fixed::NotLanded { why } => {
            eprintln!(
                "feedback {}: no fix landed; it is triaged again.\n{why}",
                a.id
            );
            return Ok(crate::EXIT_BLOCKED);
        }
        Fixed::Landed { fix, critic } => (fix, critic),
    };
    let cost = serde_json::to_value(&critic)?;
    match a.store.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"id": a.id, "state": State::FixPrOpen.name(), "fix": landed,
                               "critic": cost})
        ),
        ReportFormat::Text => {
            println!(
                "feedback {}: fix-pr-open: {} on {}",
                a.id,
                short_id(&landed.commit),
                landed.branch
            );
            for t in &landed.fails_without_fix {
                println!("regression test: {t} (fails without the fix, passes with it)");
            }
            for f in &landed.self_review {
                println!(
                    "self-review: {} (on {}, confidence {})",
                    f.message, f.step, f.confidence
                );
            }
            if critic.on {
                println!("critic: {cost}");
            }
            println!("PR body: {}", landed.pr_body);
            println!("after the merge: slopguard feedback verify {}", a.id);
        }
    }
    Ok(crate::EXIT_OK)
}

/// `slopguard feedback approve|reject`.
pub(crate) fn decide(a: DecideArgs, approve: bool) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let to = match steps::decide(&inbox, a.id, approve, &a.note) {
        Ok(to) => to,
        Err(e) => return step_failed(e, ""),
    };
    println!("feedback {}: {}", a.id, to.name());
    if approve {
        println!("next: slopguard feedback fix {}", a.id);
    }
    Ok(crate::EXIT_OK)
}

/// `slopguard feedback refine`: one refinement round of a plan waiting for approval.
pub(crate) fn refine(a: RefineArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let kept = format!(
        "feedback {} keeps its plan and still waits for approval; refine it again, or with \
         another model (--model)",
        a.id
    );
    let refined = match steps::refine_plan(&inbox, a.id, &a.note, a.llm.config()) {
        Ok(r) => r,
        Err(e) => return step_failed(e, &kept),
    };
    report_refined(
        &a.store.format,
        a.id,
        refined.round,
        &refined.plan,
        &refined.dropped,
    );
    Ok(crate::EXIT_OK)
}

fn report_refined(
    format: &ReportFormat,
    id: i64,
    round: usize,
    plan: &FixPlan,
    dropped: &[String],
) {
    let left = MAX_ROUNDS - round;
    match format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"id": id, "state": State::AwaitingApproval.name(), "round": round,
                               "rounds_left": left, "plan": plan, "dropped": dropped})
        ),
        ReportFormat::Text => {
            println!("feedback {id}: plan refined (round {round} of {MAX_ROUNDS})");
            println!("root cause: {}", plan.root_cause);
            println!("change: {}", plan.proposed_change);
            println!(
                "files: {}; test in {}",
                plan.files.join(", "),
                plan.test_file
            );
            println!("about {} lines", plan.estimated_lines);
            for d in dropped {
                println!("note: {d}");
            }
            println!(
                "next: slopguard feedback approve {id} (or reject it; {left} refinement round{} left)",
                if left == 1 { "" } else { "s" }
            );
        }
    }
}

/// `slopguard feedback verify`.
pub(crate) fn verify(a: VerifyArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let waiting = Waiting::new(a.quiet);
    let verified = match steps::verify(&inbox, a.id, &a.rev, &|w| waiting.on(w)) {
        Ok(v) => v,
        Err(e) => return step_failed(e, ""),
    };
    match verified {
        Verified::Red(v) => {
            eprintln!(
                "slopguard: REOPENED feedback {}: its regression test is red on {}:",
                a.id,
                short_id(&v.rev)
            );
            for p in &v.problems {
                eprintln!("  - {p}");
            }
            Ok(crate::EXIT_BLOCKED)
        }
        Verified::Green { verification, fix } => {
            println!(
                "feedback {}: verified on {} ({} green); remembered in the failure memory",
                a.id,
                short_id(&verification.rev),
                fix.test_files.join(", ")
            );
            Ok(crate::EXIT_OK)
        }
    }
}
