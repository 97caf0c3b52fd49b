//! The steps of the loop on one stored item, as `slopguard feedback triage|fix|approve|reject|
//! refine|verify|resume|poll` run them: each reads the item, checks that its state takes the step,
//! does the step, and moves the item with a note and its new [`Detail`]. They print nothing:
//! each returns what happened, and the front end says it. A step that does not apply to the
//! item leaves it untouched and says why ([`StepError::Refused`]).

mod error;
pub mod fixing;
pub mod intake;
mod item;

pub use error::StepError;
pub use fixing::{CriticCost, FixHooks, FixRequest, Fixed, fix};
pub use intake::{PollRequest, Polled, poll};
pub use item::is_repo_file;

use slopguard_llm::LlmConfig;
use slopguard_store::{FeedbackRow, NewObservation, Outcome};

use self::item::{first_line, reviewer_client, stored_plan, triaged_item};
use super::detail::Detail;
use super::fix::{self as fix_plan, FixPlan, LandedFix, Verification};
use super::inbox::{Inbox, REMEMBER_AGENT};
use super::localise::{self, Localisation};
use super::refine::{self, RefineError, Round};
use super::triage::{self, Triage, TriageError};
use super::{Intake, State};
use slopguard_agent::git::short_id;

/// A triaged (or escalated) item.
#[derive(Debug, Clone)]
pub struct Triaged {
    /// Its new state: triaged, or escalated to a person.
    pub state: State,
    /// The model's verdict.
    pub triage: Triage,
    /// Where the feedback points.
    pub localisation: Localisation,
}

/// Triage of pending item `id`: localised in the repository (no model), then classified by
/// the reviewer model with the failure memory's earlier fixes; escalated when the model is
/// unsure. `wait` is told when the model call starts (`Some`) and ends (`None`).
pub fn triage_item(
    inbox: &Inbox,
    id: i64,
    llm: LlmConfig,
    wait: &dyn Fn(Option<&str>),
) -> Result<Triaged, StepError> {
    let row = inbox.get(id)?;
    if row.state != State::Pending.name() {
        return Err(StepError::Refused(format!(
            "feedback {} is {}, not pending: it was triaged already (`slopguard feedback show {}`)",
            row.id, row.state, row.id
        )));
    }
    let intake = Intake::from_row(&row).ok_or(StepError::NotReviewFeedback(row.id))?;
    let loc = localise::localise(inbox.root(), &intake.text, intake.on.as_deref());
    let (client, url) = reviewer_client(llm)?;
    let root = inbox.root().to_path_buf();
    let exists = move |p: &str| is_repo_file(&root, p);
    // Earlier verified fixes of the same files (the failure memory) inform the triage.
    let earlier = inbox.remembered_fixes(50).unwrap_or_default();
    wait(Some("triage (waiting for the reviewer model)"));
    let answered = triage::triage(&client, &intake, &loc, &earlier, &exists);
    wait(None);
    let t = answered.map_err(|e| match e {
        TriageError::Model(source) if source.is_unreachable() => {
            StepError::Unreachable { url, source }
        }
        e => StepError::Triage(e),
    })?;
    let state = if t.escalated {
        State::Escalated
    } else {
        State::Triaged
    };
    let detail = Detail::triaged(t.clone(), loc.clone());
    inbox.transition(&row, state, &triage_note(&t), detail.to_value())?;
    Ok(Triaged {
        state,
        triage: t,
        localisation: loc,
    })
}

/// The triage's one-line summary: `bug, confidence 85`, and whether it was escalated.
pub fn triage_note(t: &Triage) -> String {
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

/// The note of an approval or rejection: the operator's, else the decision's name.
pub fn decision_note(approve: bool, note: &str) -> String {
    match (approve, note.trim()) {
        (true, "") => "approved".to_string(),
        (false, "") => "rejected".to_string(),
        (_, n) => n.to_string(),
    }
}

/// `approve` (a plan waiting for approval goes to in-fix) or reject (any item the loop lets
/// be rejected); the item's new state.
pub fn decide(inbox: &Inbox, id: i64, approve: bool, note: &str) -> Result<State, StepError> {
    let row = inbox.get(id)?;
    let to = if approve {
        State::InFix
    } else {
        State::Rejected
    };
    if approve && row.state != State::AwaitingApproval.name() {
        return Err(StepError::Refused(format!(
            "feedback {} is {}; only items awaiting approval are approved",
            row.id, row.state
        )));
    }
    let note = decision_note(approve, note);
    inbox
        .transition(&row, to, &note, row.detail.clone())
        .map_err(StepError::NotMoved)?;
    Ok(to)
}

/// What `resume` does with an item, by its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resume {
    /// Pending: triage it.
    Triage,
    /// Triaged or in-fix: (go on with) its fix.
    Fix,
    /// Reopened by a red verify: triaged again, then fixed.
    ReopenAndFix,
    /// Waiting for `approve`: nothing to do until then.
    WaitsForApproval,
    /// Its fix exists: `verify` after the merge.
    HasFix,
    /// Nothing to resume in this state (named as stored).
    Nothing(String),
}

impl Resume {
    /// The resumption of an item in the stored state `state`.
    pub fn of(state: &str) -> Resume {
        match State::parse(state) {
            Some(State::Pending) => Resume::Triage,
            Some(State::Triaged | State::InFix) => Resume::Fix,
            Some(State::Reopened) => Resume::ReopenAndFix,
            Some(State::AwaitingApproval) => Resume::WaitsForApproval,
            Some(State::FixPrOpen) => Resume::HasFix,
            _ => Resume::Nothing(state.to_string()),
        }
    }
}

/// `resume`: what to do next with item `id`; a reopened item is moved back to triaged first,
/// so that the fix that follows plans again.
pub fn resume(inbox: &Inbox, id: i64) -> Result<Resume, StepError> {
    let row = inbox.get(id)?;
    let next = Resume::of(&row.state);
    if next == Resume::ReopenAndFix {
        inbox.transition(
            &row,
            State::Triaged,
            "resumed after a red verify",
            row.detail.clone(),
        )?;
    }
    Ok(next)
}

/// One refinement round done.
#[derive(Debug, Clone)]
pub struct Refined {
    /// Its number, 1-based.
    pub round: usize,
    /// The revised plan (still waiting for approval).
    pub plan: FixPlan,
    /// What was dropped from the model's answer.
    pub dropped: Vec<String>,
}

/// `refine`: the plan of item `id`, waiting for approval, revised by the reviewer model with
/// the operator's `note`; at most [`refine::MAX_ROUNDS`] rounds.
pub fn refine_plan(
    inbox: &Inbox,
    id: i64,
    note: &str,
    llm: LlmConfig,
) -> Result<Refined, StepError> {
    let row = inbox.get(id)?;
    if row.state != State::AwaitingApproval.name() {
        return Err(StepError::Refused(format!(
            "feedback {} is {}; only a plan waiting for approval is refined (`slopguard feedback \
             fix {}` plans a triaged item)",
            row.id, row.state, row.id
        )));
    }
    let mut detail = Detail::from_value(&row.detail);
    let mut rounds: Vec<Round> = detail.refinements.clone().unwrap_or_default();
    if rounds.len() >= refine::MAX_ROUNDS {
        return Err(StepError::Refused(format!(
            "feedback {id} has had {max} refinement rounds, the most a plan gets: approve it \
             (`slopguard feedback approve {id}`), reject it (`slopguard feedback reject {id} \
             --note ...`), or add the feedback again saying what you want",
            id = row.id,
            max = refine::MAX_ROUNDS
        )));
    }
    if note.trim().is_empty() {
        return Err(StepError::Refused(format!(
            "say what to change: `slopguard feedback refine {} \"<what to change>\"`",
            row.id
        )));
    }
    let t = triaged_item(&row, &detail)?;
    let plan = stored_plan(&detail)?;
    let (client, url) = reviewer_client(llm)?;
    let root = inbox.root().to_path_buf();
    let exists = move |p: &str| is_repo_file(&root, p);
    let (revised, dropped) = refine::refine(&client, &t.intake, &t.triage, &plan, note, &exists)
        .map_err(|e| match e {
            RefineError::Model(source) if source.is_unreachable() => {
                StepError::Unreachable { url, source }
            }
            e => StepError::Refine(e),
        })?;
    let round = rounds.len() + 1;
    rounds.push(Round {
        round,
        note: note.trim().to_string(),
        before: plan,
        dropped: dropped.clone(),
    });
    detail.plan = Some(revised.clone());
    detail.refinements = Some(rounds);
    let moved = format!(
        "refinement {round}/{}: {}",
        refine::MAX_ROUNDS,
        first_line(note)
    );
    inbox.transition(&row, State::AwaitingApproval, &moved, detail.to_value())?;
    Ok(Refined {
        round,
        plan: revised,
        dropped,
    })
}

/// The verdict of `verify`.
#[derive(Debug, Clone)]
pub enum Verified {
    /// The regression tests passed on the revision: the item is verified and remembered.
    Green {
        /// The verification.
        verification: Verification,
        /// The fix verified.
        fix: LandedFix,
    },
    /// They did not: the item is reopened.
    Red(Verification),
}

/// `verify`: the regression tests of item `id`'s fix run on the merged revision `rev`; green
/// verifies the item and remembers the fix in the failure memory, red reopens it. `wait` is
/// told when the test run starts (`Some`) and ends (`None`).
pub fn verify(
    inbox: &Inbox,
    id: i64,
    rev: &str,
    wait: &dyn Fn(Option<&str>),
) -> Result<Verified, StepError> {
    let row = inbox.get(id)?;
    if row.state != State::FixPrOpen.name() {
        return Err(StepError::Refused(format!(
            "feedback {} is {}; only items with a fix (fix-pr-open) are verified",
            row.id, row.state
        )));
    }
    let mut detail = Detail::from_value(&row.detail);
    let landed = detail.fix.clone().ok_or_else(|| StepError::Missing {
        what: "the item records no fix".into(),
        source: detail.field_error::<LandedFix>("fix"),
    })?;
    // The suite runs on the merged revision and can take minutes.
    wait(Some(&format!("verify (running the tests on {rev})")));
    let verified = fix_plan::verify(inbox.root(), rev, &landed);
    wait(None);
    let v = verified.map_err(|e| StepError::Refused(format!("cannot check out {rev}: {e}")))?;
    detail.verification = Some(v.clone());
    if !v.green {
        inbox.transition(
            &row,
            State::Reopened,
            &v.problems.join("; "),
            detail.to_value(),
        )?;
        return Ok(Verified::Red(v));
    }
    remember(inbox, &row, &detail, &landed)?;
    inbox.transition(
        &row,
        State::Verified,
        &format!("green on {}", short_id(&v.rev)),
        detail.to_value(),
    )?;
    Ok(Verified::Green {
        verification: v,
        fix: landed,
    })
}

/// The symptom, fix class and files of a verified fix, as an observation the failure memory
/// and the planner read.
fn remember(
    inbox: &Inbox,
    row: &FeedbackRow,
    detail: &Detail,
    landed: &LandedFix,
) -> Result<(), StepError> {
    let t = triaged_item(row, detail)?;
    let mut files = detail.plan.clone().map(|p| p.files).unwrap_or_default();
    files.extend(landed.test_files.iter().cloned());
    inbox.observe(&NewObservation {
        repo: inbox.repo().to_string(),
        run_id: format!("feedback-{}", row.id),
        agent: REMEMBER_AGENT.into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triage::FixClass;

    #[test]
    fn resume_goes_on_from_the_state_the_item_is_in() {
        assert_eq!(Resume::of("pending"), Resume::Triage);
        assert_eq!(Resume::of("triaged"), Resume::Fix);
        assert_eq!(Resume::of("in-fix"), Resume::Fix);
        assert_eq!(Resume::of("reopened"), Resume::ReopenAndFix);
        assert_eq!(Resume::of("awaiting-approval"), Resume::WaitsForApproval);
        assert_eq!(Resume::of("fix-pr-open"), Resume::HasFix);
        assert_eq!(Resume::of("verified"), Resume::Nothing("verified".into()));
        assert_eq!(Resume::of("escalated"), Resume::Nothing("escalated".into()));
        assert_eq!(Resume::of("bogus"), Resume::Nothing("bogus".into()));
        // A reopened item goes back to triaged before it is fixed: the loop allows that move.
        assert!(State::Reopened.may_move_to(State::Triaged));
    }

    #[test]
    fn a_decision_keeps_the_operators_note_else_names_itself() {
        assert_eq!(decision_note(true, "  "), "approved");
        assert_eq!(decision_note(false, ""), "rejected");
        assert_eq!(decision_note(false, " not ours "), "not ours");
    }

    #[test]
    fn the_triage_note_names_the_class_the_confidence_and_an_escalation() {
        let mut t = Triage {
            class: FixClass::Bug,
            proposed_class: None,
            root_cause: "r".into(),
            files: vec![],
            confidence: 85,
            escalated: false,
            notes: vec![],
        };
        assert_eq!(triage_note(&t), "bug, confidence 85");
        t.class = FixClass::OutOfScope;
        t.confidence = 40;
        t.escalated = true;
        assert_eq!(
            triage_note(&t),
            "out-of-scope, confidence 40: escalated to a person"
        );
    }
}
