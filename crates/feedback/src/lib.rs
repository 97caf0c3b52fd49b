//! The self-correction loop: a reviewer's feedback taken in, triaged, localised, and (next)
//! fixed with a regression test that fails before and passes after.
//!
//! An item moves through [`State`]s; every move is a compare-and-set in the store
//! (`Store::transition_feedback`) with a note, so a killed process leaves the item in a state
//! the next command resumes from (a waiting plan's refinement rounds are moves from
//! awaiting-approval to itself, each with its note). The steps:
//!
//! - intake: [`Intake`] (text, what it is about, severity) stored as a `pending` item;
//! - triage: [`triage::triage`] asks the reviewer model for a fix class, a root-cause
//!   hypothesis, candidate files and a confidence; below [`triage::MIN_CONFIDENCE`] the item is
//!   escalated as out-of-scope, never guessed at;
//! - localisation: [`localise::localise`], no model: explicit `path:line` ranges, stack frames
//!   pasted into the text, identifiers and quoted strings searched in the repository; files
//!   that do not exist are dropped with a note;
//! - the fix plan, its approval rule and the fix with proof: [`fix`]; a waiting plan's
//!   refinement rounds: [`refine`];
//! - the continuous critic between the steps: `slopguard_agent::gates::step_critic`;
//! - the steps on a stored item as the CLI runs them (state checks, the moves, resume):
//!   [`steps`]; what they keep on the item between them: [`detail::Detail`].

pub mod detail;
pub mod fix;
pub mod github;
pub mod inbox;
pub mod localise;
pub mod refine;
pub mod steps;
pub mod triage;

use serde::{Deserialize, Serialize};

/// Where a feedback item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Taken in, not looked at yet.
    Pending,
    /// Classified and localised; a fix can be planned.
    Triaged,
    /// Out of scope or too uncertain to act on: a person must look.
    Escalated,
    /// A large job waiting for `feedback approve`.
    AwaitingApproval,
    /// The fix is being written.
    InFix,
    /// A fix branch and its pull request (or local PR body) exist.
    FixPrOpen,
    /// The regression test passed on the merged revision.
    Verified,
    /// The regression test failed on the merged revision.
    Reopened,
    /// Refused by a person.
    Rejected,
    /// Done with.
    Closed,
}

impl State {
    /// Every state, in loop order.
    pub const ALL: [State; 10] = [
        State::Pending,
        State::Triaged,
        State::Escalated,
        State::AwaitingApproval,
        State::InFix,
        State::FixPrOpen,
        State::Verified,
        State::Reopened,
        State::Rejected,
        State::Closed,
    ];

    /// The name stored and shown (`awaiting-approval`).
    pub fn name(self) -> &'static str {
        match self {
            State::Pending => "pending",
            State::Triaged => "triaged",
            State::Escalated => "escalated",
            State::AwaitingApproval => "awaiting-approval",
            State::InFix => "in-fix",
            State::FixPrOpen => "fix-pr-open",
            State::Verified => "verified",
            State::Reopened => "reopened",
            State::Rejected => "rejected",
            State::Closed => "closed",
        }
    }

    /// The state of a stored name.
    pub fn parse(name: &str) -> Option<State> {
        State::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the loop may move an item from `self` to `to`.
    pub fn may_move_to(self, to: State) -> bool {
        use State::*;
        matches!(
            (self, to),
            (Pending, Triaged | Escalated | Rejected)
                | (Triaged, AwaitingApproval | InFix | Escalated | Rejected)
                | (
                    AwaitingApproval,
                    InFix | Rejected | Triaged | AwaitingApproval
                )
                | (InFix, FixPrOpen | Triaged | Escalated)
                | (FixPrOpen, Verified | Reopened | Rejected)
                | (Reopened, Triaged | InFix | Closed)
                | (Escalated, Triaged | Rejected | Closed)
                | (Verified | Rejected, Closed)
        )
    }
}

pub use slopguard_store::review::{Intake, IntakeError, MAX_FEEDBACK_CHARS, Severity};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_and_the_loop_moves_forward_only_where_allowed() {
        for s in State::ALL {
            assert_eq!(State::parse(s.name()), Some(s));
        }
        assert_eq!(State::parse("done"), None);
        assert!(State::Pending.may_move_to(State::Triaged));
        assert!(State::Triaged.may_move_to(State::AwaitingApproval));
        // A refinement round keeps the plan waiting.
        assert!(State::AwaitingApproval.may_move_to(State::AwaitingApproval));
        assert!(!State::Triaged.may_move_to(State::Triaged));
        assert!(State::FixPrOpen.may_move_to(State::Reopened));
        assert!(!State::Pending.may_move_to(State::Verified));
        assert!(!State::Closed.may_move_to(State::Pending));
        assert!(!State::Escalated.may_move_to(State::InFix));
    }

    #[test]
    fn intake_refuses_empty_and_huge_text_and_keeps_the_rest_verbatim() {
        assert_eq!(
            Intake::new("  \n", None, Severity::Low, "cli"),
            Err(IntakeError::Empty)
        );
        let huge = "x".repeat(MAX_FEEDBACK_CHARS + 1);
        assert!(matches!(
            Intake::new(&huge, None, Severity::Low, "cli"),
            Err(IntakeError::TooLong(_))
        ));
        let i = Intake::new(
            " average() divides by n-1 \n",
            Some(" calc/stats.py:12 ".into()),
            Severity::High,
            "stdin",
        )
        .unwrap();
        assert_eq!(i.text, "average() divides by n-1");
        assert_eq!(i.on.as_deref(), Some("calc/stats.py:12"));
        let row = slopguard_store::FeedbackRow {
            id: 1,
            ts_ms: 0,
            feedback: i.to_row("repo"),
            state: "pending".into(),
            detail: serde_json::json!({}),
            updated_ms: 0,
        };
        assert_eq!(Intake::from_row(&row), Some(i));
        assert_eq!("HIGH".parse::<Severity>(), Ok(Severity::High));
        assert!("urgent".parse::<Severity>().is_err());
    }
}
