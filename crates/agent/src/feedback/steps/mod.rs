//! The steps of the loop on one stored item, as `slopguard feedback triage|fix|approve|reject|
//! refine|verify|resume|poll` run them: each reads the item, checks that its state takes the step,
//! does the step, and moves the item with a note and its new [`Detail`]. They print nothing:
//! each returns what happened, and the front end says it. A step that does not apply to the
//! item leaves it untouched and says why ([`StepError::Refused`]).

pub mod fixing;
pub mod intake;

pub use fixing::{CriticCost, FixHooks, FixRequest, Fixed, fix};
pub use intake::{PollRequest, Polled, poll};

use std::path::Path;

use slopguard_llm::{BlockingClient, LlmConfig, LlmError, Role};
use slopguard_store::{FeedbackRow, NewObservation, Outcome};

use super::detail::Detail;
use super::fix::{self as fix_plan, FixPlan, LandedFix, Verification};
use super::inbox::{Inbox, InboxError, REMEMBER_AGENT};
use super::localise::{self, Localisation};
use super::refine::{self, RefineError, Round};
use super::triage::{self, Triage, TriageError};
use super::{Intake, State};
use crate::git::short_id;

/// Why a step stopped.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The step does not apply to the item as it is (its state, an empty note, a setting it
    /// cannot read): nothing changed. The message says what to do instead.
    #[error("{0}")]
    Refused(String),
    /// The store failed, or the item does not exist.
    #[error(transparent)]
    Inbox(#[from] InboxError),
    /// `approve`/`reject`: the store refused the move (the loop does not make it, or another
    /// process moved the item first).
    #[error(transparent)]
    NotMoved(InboxError),
    /// The item's row holds no review feedback.
    #[error("feedback {0} is not review feedback")]
    NotReviewFeedback(i64),
    /// What an earlier step should have left on the item is not there.
    #[error("{what}")]
    Missing {
        /// What is missing and what to do.
        what: String,
        /// Why the stored value did not read.
        #[source]
        source: serde_json::Error,
    },
    /// The model client could not be built.
    #[error(transparent)]
    Client(LlmError),
    /// The reviewer model is not reachable.
    #[error("cannot reach the reviewer model at {url}: {source}")]
    Unreachable {
        /// The reviewer's base URL.
        url: String,
        /// The client's error.
        #[source]
        source: LlmError,
    },
    /// The triage answer was refused (the item stays pending).
    #[error(transparent)]
    Triage(TriageError),
    /// The revised plan was refused (the plan stays as it was, still waiting).
    #[error(transparent)]
    Refine(RefineError),
    /// A file of the fix could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: String,
        /// The write's error.
        #[source]
        source: std::io::Error,
    },
}

impl StepError {
    /// Whether the step refused the item as it is (or the command's input) rather than failed:
    /// a usage error to the front end.
    pub fn is_refusal(&self) -> bool {
        matches!(self, StepError::Refused(_) | StepError::NotMoved(_))
    }
}

/// A model client for the reviewer role that sends a malformed answer back once, then
/// refuses it; and the reviewer's base URL, for the unreachable-endpoint message.
fn reviewer_client(mut llm: LlmConfig) -> Result<(BlockingClient, String), StepError> {
    llm.correction_turns = 1;
    let url = llm.role(Role::Reviewer).base_url.clone();
    let client = BlockingClient::new(llm).map_err(StepError::Client)?;
    Ok((client, url))
}

/// Whether `p` names a file inside `root`: relative, no `..`, and a file there.
pub fn is_repo_file(root: &Path, p: &str) -> bool {
    let rel = Path::new(p);
    !rel.is_absolute() && !p.split('/').any(|c| c == "..") && root.join(rel).is_file()
}

/// The first non-blank line of `s`, trimmed: a transition's note quotes one line.
fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

/// What the triage left on an item: the feedback, the model's verdict and the localisation.
struct TriagedItem {
    intake: Intake,
    triage: Triage,
    loc: Localisation,
}

/// The triage's findings on `row`; refused when it was not triaged.
fn triaged_item(row: &FeedbackRow, detail: &Detail) -> Result<TriagedItem, StepError> {
    let intake = Intake::from_row(row).ok_or(StepError::NotReviewFeedback(row.id))?;
    let triage = detail.triage.clone().ok_or_else(|| StepError::Missing {
        what: format!(
            "feedback {} has no triage: run `slopguard feedback triage {}` first",
            row.id, row.id
        ),
        source: detail.field_error::<Triage>("triage"),
    })?;
    Ok(TriagedItem {
        intake,
        triage,
        loc: detail.localisation.clone().unwrap_or_default(),
    })
}

/// The stored fix plan; an item past planning without one cannot go on.
fn stored_plan(detail: &Detail) -> Result<FixPlan, StepError> {
    detail.plan.clone().ok_or_else(|| StepError::Missing {
        what: "the item has no fix plan; reject it and add the feedback again".into(),
        source: detail.field_error::<FixPlan>("plan"),
    })
}

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
    use crate::feedback::triage::FixClass;

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

    #[test]
    fn a_step_reads_the_triage_it_needs_and_says_how_to_get_it() {
        let row = FeedbackRow {
            id: 4,
            ts_ms: 0,
            feedback: Intake::new(
                "mean() is off by one",
                None,
                super::super::Severity::Low,
                "cli",
            )
            .unwrap()
            .to_row("repo"),
            state: "triaged".into(),
            detail: serde_json::json!({}),
            updated_ms: 0,
        };
        let err = triaged_item(&row, &Detail::from_value(&row.detail))
            .err()
            .expect("no triage stored");
        assert_eq!(
            err.to_string(),
            "feedback 4 has no triage: run `slopguard feedback triage 4` first"
        );
        assert!(!err.is_refusal());
        let detail = Detail::triaged(
            Triage {
                class: FixClass::Bug,
                proposed_class: None,
                root_cause: "r".into(),
                files: vec!["a.py".into()],
                confidence: 70,
                escalated: false,
                notes: vec![],
            },
            Localisation::default(),
        );
        let t = triaged_item(&row, &detail).expect("triaged");
        assert_eq!(t.intake.text, "mean() is off by one");
        assert_eq!(t.triage.files, ["a.py"]);
        assert!(stored_plan(&detail).is_err(), "no plan before `fix` plans");
    }

    #[test]
    fn repo_files_are_relative_inside_the_root_and_exist() {
        let dir = std::env::temp_dir().join(format!("sg-steps-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.py"), "x = 1\n").unwrap();
        assert!(is_repo_file(&dir, "src/a.py"));
        assert!(!is_repo_file(&dir, "src/b.py"));
        assert!(!is_repo_file(&dir, "src/../src/a.py"));
        assert!(!is_repo_file(&dir, &dir.join("src/a.py").to_string_lossy()));
        assert!(!is_repo_file(&dir, "src"), "a directory is not a file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn first_line_skips_blank_lines_and_trims() {
        assert_eq!(
            first_line("\n  \n  make it faster \nand more"),
            "make it faster"
        );
        assert_eq!(first_line(""), "");
    }
}
