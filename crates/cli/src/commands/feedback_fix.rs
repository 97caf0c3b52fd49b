//! `slopguard feedback fix|approve|reject|verify`: the steps after triage.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::feedback::fix::{self, FixPlan, LandedFix};
use slopguard_agent::feedback::inbox::Inbox;
use slopguard_agent::feedback::localise::Localisation;
use slopguard_agent::feedback::refine;
use slopguard_agent::feedback::triage::Triage;
use slopguard_agent::feedback::{Intake, State};
use slopguard_agent::gates::step_critic::{self as critic, CriticMode, Finding};
use slopguard_agent::git::short_id;
use slopguard_agent::run::{PlanSource, RunOptions, RunSummary};
use slopguard_llm::BlockingClient;
use slopguard_store::{FeedbackRow, NewObservation, Outcome};

use super::common::ReportFormat;
use super::feedback::{
    DecideArgs, FixArgs, RefineArgs, VerifyArgs, is_repo_file, open, usage_error,
};
use crate::progress::StepProgress;

/// What the triage step left on the item.
struct Triaged {
    intake: Intake,
    triage: Triage,
    loc: Localisation,
}

fn triaged(row: &FeedbackRow) -> anyhow::Result<Triaged> {
    let intake = Intake::from_row(row).context("not review feedback")?;
    let triage: Triage =
        serde_json::from_value(row.detail["triage"].clone()).with_context(|| {
            format!(
                "feedback {} has no triage: run `slopguard feedback triage {}` first",
                row.id, row.id
            )
        })?;
    let loc = serde_json::from_value(row.detail["localisation"].clone()).unwrap_or_default();
    Ok(Triaged {
        intake,
        triage,
        loc,
    })
}

fn with(detail: &serde_json::Value, key: &str, value: serde_json::Value) -> serde_json::Value {
    let mut d = detail.clone();
    if !d.is_object() {
        d = serde_json::json!({});
    }
    d[key] = value;
    d
}

/// `slopguard feedback fix`.
pub fn fix(a: FixArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    let t = triaged(&row)?;
    let critic = match critic_setting(&a, inbox.root()) {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let plan: FixPlan = match State::parse(&row.state) {
        Some(State::Triaged) => {
            let mut plan = fix::plan_fix(inbox.root(), &t.intake, &t.triage, &t.loc);
            let mut detail = with(&row.detail, "critic", serde_json::json!(critic.why));
            if critic.on {
                let review = critique_plan(&a, &t.intake, &mut plan)?;
                detail = with(&detail, "plan_critique", review);
            }
            let detail = with(&detail, "plan", serde_json::to_value(&plan)?);
            if let Some(why) = &plan.needs_approval {
                inbox.transition(&row, State::AwaitingApproval, why, detail)?;
                println!(
                    "feedback {id}: awaiting-approval ({why}); approve it with `slopguard feedback approve {id}` (or revise it first: `slopguard feedback refine {id} \"<what to change>\"`), then run `slopguard feedback fix {id}` again",
                    id = row.id
                );
                return Ok(crate::EXIT_OK);
            }
            inbox.transition(
                &row,
                State::InFix,
                &format!("fixing on {}", branch(a.id)),
                detail,
            )?;
            plan
        }
        // Approved, or a fix that was interrupted: go on with the stored plan.
        Some(State::InFix) => serde_json::from_value(row.detail["plan"].clone())
            .context("the item has no fix plan; reject it and add the feedback again")?,
        Some(State::AwaitingApproval) => {
            return usage_error(anyhow::anyhow!(
                "feedback {} is waiting for approval: `slopguard feedback approve {}`",
                row.id,
                row.id
            ));
        }
        _ => {
            return usage_error(anyhow::anyhow!(
                "feedback {} is {}; only triaged items are fixed",
                row.id,
                row.state
            ));
        }
    };
    let row = inbox.get(a.id)?;
    discard_interrupted_branch(inbox.root(), a.id);
    let mut opts = run_options(&a, &inbox, &t.intake, &plan);
    opts.step_critic = critic.on;
    let summary = crate::run_view::execute_with_progress(
        &opts,
        a.quiet,
        a.store.format == ReportFormat::Json,
    );
    let summary = match summary {
        Ok(s) => s,
        Err(e) => {
            inbox.transition(
                &row,
                State::Triaged,
                &format!("fix run stopped: {e}"),
                row.detail.clone(),
            )?;
            eprintln!("slopguard: error: the fix run stopped: {e}");
            return Ok(crate::EXIT_ERROR);
        }
    };
    let reviews = CriticReviews::gather(&row.detail, Path::new(&summary.trace_path));
    reviews.warn();
    let Some(landed) = landed_fix(a.id, &t.intake, &plan, &summary, reviews.kept.clone())? else {
        let why = summary
            .failed()
            .first()
            .and_then(|s| s.error.clone())
            .unwrap_or_else(|| {
                "no candidate passed the guards and the regression proof".to_string()
            });
        inbox.transition(
            &row,
            State::Triaged,
            &format!("no fix landed: {}", first_line(&why)),
            row.detail.clone(),
        )?;
        eprintln!(
            "feedback {}: no fix landed; it is triaged again.\n{why}",
            a.id
        );
        return Ok(crate::EXIT_BLOCKED);
    };
    let detail = with(&row.detail, "fix", serde_json::to_value(&landed)?);
    inbox.transition(
        &row,
        State::FixPrOpen,
        &format!("fix {} on {}", short_id(&landed.commit), landed.branch),
        detail,
    )?;
    match a.store.format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"id": a.id, "state": State::FixPrOpen.name(), "fix": landed,
                               "critic": reviews.cost(critic.on)})
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
                println!("critic: {}", reviews.cost(true));
            }
            println!("PR body: {}", landed.pr_body);
            println!("after the merge: slopguard feedback verify {}", a.id);
        }
    }
    Ok(crate::EXIT_OK)
}

fn branch(id: i64) -> String {
    format!("slopguard/fix/{id}")
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// A killed fix can leave its branch and worktree behind: they are ours (the item is in-fix),
/// so they go before the fix starts again.
fn discard_interrupted_branch(root: &Path, id: i64) {
    let name = branch(id);
    if !slopguard_agent::git::branch_exists(root, &name) {
        return;
    }
    let listing =
        slopguard_agent::git::git(root, &["worktree", "list", "--porcelain"]).unwrap_or_default();
    let mut path = None;
    for line in listing.lines() {
        if let Some(p) = line.strip_prefix("worktree ") {
            path = Some(p.to_string());
        } else if line == format!("branch refs/heads/{name}")
            && let Some(p) = path.take()
        {
            let _ = slopguard_agent::git::git(root, &["worktree", "remove", "--force", &p]);
        }
    }
    let _ = slopguard_agent::git::git(root, &["worktree", "prune"]);
    let _ = slopguard_agent::git::git(root, &["branch", "-D", &name]);
}

fn run_options(a: &FixArgs, inbox: &Inbox, intake: &Intake, plan: &FixPlan) -> RunOptions {
    RunOptions {
        path: inbox.root().to_path_buf(),
        branch: Some(branch(a.id)),
        plan: PlanSource::Given(fix::run_plan(a.id, intake, plan)),
        llm: a.llm.config(),
        db: a.store.db.clone(),
        max_attempts: a.max_attempts.max(1),
        dynamic: DynamicOptions {
            build_timeout: Duration::from_secs(a.timeout),
            test_timeout: Duration::from_secs(a.timeout),
            ..DynamicOptions::default()
        },
        analysis_toolchain: false,
        measure_after: false,
        candidates: a.candidates,
        subtask_budget: Duration::from_secs(a.budget.max(1)),
        regression_proof: true,
        ..RunOptions::default()
    }
}

/// The landed fix of a run, with its PR body (and the critic's `self_review`) written beside
/// the run's files.
fn landed_fix(
    id: i64,
    intake: &Intake,
    plan: &FixPlan,
    summary: &RunSummary,
    self_review: Vec<Finding>,
) -> anyhow::Result<Option<LandedFix>> {
    let Some(st) = summary.subtasks().find(|s| s.commit.is_some()) else {
        return Ok(None);
    };
    let test_files: Vec<String> = st
        .touched_files
        .iter()
        .filter(|f| slopguard_agent::analysis::is_test_file(f))
        .cloned()
        .collect();
    let trace = Path::new(&summary.trace_path);
    let run_dir = trace.parent().unwrap_or(Path::new("."));
    let mut landed = LandedFix {
        branch: summary.branch.clone(),
        commit: st.commit.clone().unwrap_or_default(),
        test_files,
        fails_without_fix: proven_tests(trace),
        pr_body: run_dir.join("FIX-PR.md").display().to_string(),
        self_review,
    };
    let body = fix::pr_body(id, intake, plan, &landed);
    std::fs::write(&landed.pr_body, body)
        .with_context(|| format!("cannot write {}", landed.pr_body))?;
    landed.pr_body = run_dir.join("FIX-PR.md").display().to_string();
    Ok(Some(landed))
}

/// The tests the regression proof saw fail without the fix (its last event in the trace).
fn proven_tests(trace: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(trace).unwrap_or_default();
    text.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["event"] == "worker.regression_proof.proven")
        .and_then(|e| serde_json::from_value(e["data"]["fails_without_fix"].clone()).ok())
        .unwrap_or_default()
}

/// Whether the critic runs for a fix, and why.
struct CriticSetting {
    on: bool,
    why: String,
}

/// `--critic`, else `[feedback] critic` in the repository's slopguard.toml, else auto; auto
/// decides by the reviewer model's size.
fn critic_setting(a: &FixArgs, root: &Path) -> anyhow::Result<CriticSetting> {
    let config =
        slopguard_guards::Config::discover(root, None).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mode = CriticMode::chosen(a.critic, &config)
        .map_err(|e| anyhow::anyhow!("slopguard.toml: {e}"))?;
    let cfg = a.llm.config();
    let (on, why) = mode.resolve(&cfg.role(slopguard_llm::Role::Reviewer).model);
    Ok(CriticSetting { on, why })
}

/// The critic on the fix plan: a confident finding joins the plan's notes (the worker hears
/// it in its first attempt); the critique's trace data is returned for the item's detail.
fn critique_plan(
    a: &FixArgs,
    intake: &Intake,
    plan: &mut FixPlan,
) -> anyhow::Result<serde_json::Value> {
    let client = BlockingClient::new(a.llm.config())?;
    let shown = format!(
        "The fix plan:\nroot cause: {}\nchange: {}\nfiles: {}\nregression test: {}",
        plan.root_cause,
        plan.proposed_change,
        plan.files.join(", "),
        plan.test_sketch
    );
    let review = critic::review(
        &client,
        &critic::Step {
            name: "plan",
            task: &intake.text,
            outcome: &shown,
        },
    );
    if let Some(line) = review.feedback_line() {
        plan.notes
            .push(line.trim_start_matches("- [critic] ").to_string());
    }
    Ok(review.trace_data(true))
}

/// The critic's reviews of one fix: the plan's (in the item's detail) and the run's (its
/// trace's `critic.review` events).
struct CriticReviews {
    all: Vec<serde_json::Value>,
    kept: Vec<Finding>,
}

impl CriticReviews {
    fn gather(detail: &serde_json::Value, trace: &Path) -> CriticReviews {
        let text = std::fs::read_to_string(trace).unwrap_or_default();
        let mut all: Vec<serde_json::Value> =
            detail.get("plan_critique").cloned().into_iter().collect();
        all.extend(
            text.lines()
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                .filter(|e| e["event"] == "critic.review")
                .map(|e| e["data"].clone()),
        );
        let kept = all
            .iter()
            .filter(|d| d["action"] == "kept")
            .filter_map(|d| serde_json::from_value(d["finding"].clone()).ok())
            .collect();
        CriticReviews { all, kept }
    }

    /// Warns about answers the critic could not give (never fatal).
    fn warn(&self) {
        for w in self.all.iter().filter_map(|d| d["warning"].as_str()) {
            eprintln!("slopguard: warning: {w}");
        }
    }

    /// What the critic cost: calls, tokens, wall time.
    fn cost(&self, on: bool) -> serde_json::Value {
        let sum = |k: &str| self.all.iter().filter_map(|d| d[k].as_u64()).sum::<u64>();
        serde_json::json!({"on": on, "reviews": self.all.len(), "calls": sum("calls"),
                           "tokens": sum("tokens"), "ms": sum("ms")})
    }
}

/// `slopguard feedback approve|reject`.
pub fn decide(a: DecideArgs, approve: bool) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    let to = if approve {
        State::InFix
    } else {
        State::Rejected
    };
    let note = match (approve, a.note.trim()) {
        (true, "") => "approved".to_string(),
        (false, "") => "rejected".to_string(),
        (_, n) => n.to_string(),
    };
    if approve && row.state != State::AwaitingApproval.name() {
        return usage_error(anyhow::anyhow!(
            "feedback {} is {}; only items awaiting approval are approved",
            row.id,
            row.state
        ));
    }
    if let Err(e) = inbox.transition(&row, to, &note, row.detail.clone()) {
        return usage_error(e.into());
    }
    println!("feedback {}: {}", a.id, to.name());
    if approve {
        println!("next: slopguard feedback fix {}", a.id);
    }
    Ok(crate::EXIT_OK)
}

/// `slopguard feedback refine`: one refinement round of a plan waiting for approval.
pub fn refine(a: RefineArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    if row.state != State::AwaitingApproval.name() {
        return usage_error(anyhow::anyhow!(
            "feedback {} is {}; only a plan waiting for approval is refined (`slopguard feedback \
             fix {}` plans a triaged item)",
            row.id,
            row.state,
            row.id
        ));
    }
    let mut rounds: Vec<refine::Round> =
        serde_json::from_value(row.detail["refinements"].clone()).unwrap_or_default();
    if rounds.len() >= refine::MAX_ROUNDS {
        return usage_error(anyhow::anyhow!(
            "feedback {id} has had {max} refinement rounds, the most a plan gets: approve it \
             (`slopguard feedback approve {id}`), reject it (`slopguard feedback reject {id} \
             --note ...`), or add the feedback again saying what you want",
            id = row.id,
            max = refine::MAX_ROUNDS
        ));
    }
    if a.note.trim().is_empty() {
        return usage_error(anyhow::anyhow!(
            "say what to change: `slopguard feedback refine {} \"<what to change>\"`",
            row.id
        ));
    }
    let t = triaged(&row)?;
    let plan: FixPlan = serde_json::from_value(row.detail["plan"].clone())
        .context("the item has no fix plan; reject it and add the feedback again")?;
    let mut cfg = a.llm.config();
    // A malformed plan is sent back once, then refused.
    cfg.correction_turns = 1;
    let url = cfg.role(slopguard_llm::Role::Reviewer).base_url.clone();
    let client = BlockingClient::new(cfg)?;
    let root = inbox.root().to_path_buf();
    let exists = move |p: &str| is_repo_file(&root, p);
    let (revised, dropped) =
        match refine::refine(&client, &t.intake, &t.triage, &plan, &a.note, &exists) {
            Ok(r) => r,
            Err(refine::RefineError::Model(e)) if e.is_unreachable() => {
                eprintln!(
                    "slopguard: error: {}",
                    super::plan::endpoint_help(&url, &e.to_string())
                );
                return Ok(crate::EXIT_ERROR);
            }
            Err(e) => {
                eprintln!(
                    "slopguard: error: {e}\nfeedback {} keeps its plan and still waits for \
                     approval; refine it again, or with another model (--model)",
                    row.id
                );
                return Ok(crate::EXIT_BLOCKED);
            }
        };
    let round = rounds.len() + 1;
    rounds.push(refine::Round {
        round,
        note: a.note.trim().to_string(),
        before: plan,
        dropped: dropped.clone(),
    });
    let detail = with(&row.detail, "plan", serde_json::to_value(&revised)?);
    let detail = with(&detail, "refinements", serde_json::to_value(&rounds)?);
    let note = format!(
        "refinement {round}/{}: {}",
        refine::MAX_ROUNDS,
        first_line(&a.note)
    );
    inbox.transition(&row, State::AwaitingApproval, &note, detail)?;
    report_refined(&a.store.format, a.id, round, &revised, &dropped)?;
    Ok(crate::EXIT_OK)
}

fn report_refined(
    format: &ReportFormat,
    id: i64,
    round: usize,
    plan: &FixPlan,
    dropped: &[String],
) -> anyhow::Result<()> {
    let left = refine::MAX_ROUNDS - round;
    match format {
        ReportFormat::Json => println!(
            "{}",
            serde_json::json!({"id": id, "state": State::AwaitingApproval.name(), "round": round,
                               "rounds_left": left, "plan": plan, "dropped": dropped})
        ),
        ReportFormat::Text => {
            println!(
                "feedback {id}: plan refined (round {round} of {})",
                refine::MAX_ROUNDS
            );
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
    Ok(())
}

/// `slopguard feedback verify`.
pub fn verify(a: VerifyArgs) -> anyhow::Result<u8> {
    let inbox = open(&a.store)?;
    let row = inbox.get(a.id)?;
    if row.state != State::FixPrOpen.name() {
        return usage_error(anyhow::anyhow!(
            "feedback {} is {}; only items with a fix (fix-pr-open) are verified",
            row.id,
            row.state
        ));
    }
    let landed: LandedFix =
        serde_json::from_value(row.detail["fix"].clone()).context("the item records no fix")?;
    // The suite runs on the merged revision and can take minutes: say so meanwhile.
    let progress = StepProgress::start(a.quiet);
    progress.step(&format!("verify (running the tests on {})", a.rev));
    let verified = fix::verify(inbox.root(), &a.rev, &landed);
    progress.finish();
    let v = match verified {
        Ok(v) => v,
        Err(e) => return usage_error(anyhow::anyhow!("cannot check out {}: {e}", a.rev)),
    };
    let detail = with(&row.detail, "verification", serde_json::to_value(&v)?);
    if !v.green {
        inbox.transition(&row, State::Reopened, &v.problems.join("; "), detail)?;
        eprintln!(
            "slopguard: REOPENED feedback {}: its regression test is red on {}:",
            a.id,
            short_id(&v.rev)
        );
        for p in &v.problems {
            eprintln!("  - {p}");
        }
        return Ok(crate::EXIT_BLOCKED);
    }
    remember(&inbox, &row, &landed)?;
    inbox.transition(
        &row,
        State::Verified,
        &format!("green on {}", short_id(&v.rev)),
        detail,
    )?;
    println!(
        "feedback {}: verified on {} ({} green); remembered in the failure memory",
        a.id,
        short_id(&v.rev),
        landed.test_files.join(", ")
    );
    Ok(crate::EXIT_OK)
}

/// The symptom, fix class and files of a verified fix, as an observation the failure memory
/// and the planner read.
fn remember(inbox: &Inbox, row: &FeedbackRow, landed: &LandedFix) -> anyhow::Result<()> {
    let t = triaged(row)?;
    let plan: Option<FixPlan> = serde_json::from_value(row.detail["plan"].clone()).ok();
    let mut files = plan.map(|p| p.files).unwrap_or_default();
    files.extend(landed.test_files.iter().cloned());
    inbox.observe(&NewObservation {
        repo: inbox.repo().to_string(),
        run_id: format!("feedback-{}", row.id),
        agent: slopguard_agent::feedback::inbox::REMEMBER_AGENT.into(),
        subtask_id: None,
        model: None,
        branch: Some(landed.branch.clone()),
        commit_sha: Some(landed.commit.clone()),
        outcome: Outcome::Success,
        touched_files: files,
        failure_modes: Vec::new(),
        confidence: Some(f64::from(t.triage.confidence) / 100.0),
        extra: Some(serde_json::json!({
            "feedback_id": row.id,
            "symptom": t.intake.text,
            "fix_class": t.triage.class,
            "regression_tests": landed.fails_without_fix,
        })),
        ts_ms: None,
    })?;
    Ok(())
}
