//! The self-correction loop: a reviewer's feedback taken in, triaged, localised, and (next)
//! fixed with a regression test that fails before and passes after.
//!
//! An item moves through [`State`]s; every move is a compare-and-set in the store
//! (`Store::transition_feedback`) with a note, so a killed process leaves the item in a state
//! the next command resumes from. The steps built so far:
//!
//! - intake: [`Intake`] (text, what it is about, severity) stored as a `pending` item;
//! - triage: [`triage::triage`] asks the reviewer model for a fix class, a root-cause
//!   hypothesis, candidate files and a confidence; below [`triage::MIN_CONFIDENCE`] the item is
//!   escalated as out-of-scope, never guessed at;
//! - localisation: [`localise::localise`], no model: explicit `path:line` ranges, stack frames
//!   pasted into the text, identifiers and quoted strings searched in the repository; files
//!   that do not exist are dropped with a note.

pub mod fix;
pub mod inbox;
pub mod localise;
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
                | (AwaitingApproval, InFix | Rejected | Triaged)
                | (InFix, FixPrOpen | Triaged | Escalated)
                | (FixPrOpen, Verified | Reopened | Rejected)
                | (Reopened, Triaged | InFix | Closed)
                | (Escalated, Triaged | Rejected | Closed)
                | (Verified | Rejected, Closed)
        )
    }
}

/// How much a feedback item matters, as its author said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Cosmetic.
    Low,
    /// The default.
    #[default]
    Medium,
    /// Breaks something users rely on.
    High,
}

impl std::str::FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "low" => Ok(Severity::Low),
            "medium" => Ok(Severity::Medium),
            "high" => Ok(Severity::High),
            other => Err(format!(
                "`{other}` is not a severity: use low, medium or high"
            )),
        }
    }
}

/// Feedback as it comes in (command line, stdin, a file, the gateway).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Intake {
    /// The feedback, verbatim.
    pub text: String,
    /// What it is about: a pull request URL, `path:line`, or a run id.
    #[serde(default)]
    pub on: Option<String>,
    /// How much it matters.
    #[serde(default)]
    pub severity: Severity,
    /// Where it came from (`cli`, `stdin`, `file`, `gateway`).
    pub source: String,
}

/// Why feedback was refused at intake.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntakeError {
    /// Nothing but whitespace.
    #[error("the feedback is empty: say what is wrong, e.g. \"average() divides by n-1\"")]
    Empty,
    /// Longer than anyone reviews in one item.
    #[error(
        "the feedback is {0} characters long; at most {MAX_FEEDBACK_CHARS} are taken (split it into several items)"
    )]
    TooLong(usize),
}

/// Longest feedback text taken in one item.
pub const MAX_FEEDBACK_CHARS: usize = 20_000;

impl Intake {
    /// Feedback from `text`, checked: not empty, not huge. The text is kept verbatim (it is
    /// quoted in the pull request), only its ends trimmed.
    pub fn new(
        text: &str,
        on: Option<String>,
        severity: Severity,
        source: &str,
    ) -> Result<Intake, IntakeError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(IntakeError::Empty);
        }
        let chars = text.chars().count();
        if chars > MAX_FEEDBACK_CHARS {
            return Err(IntakeError::TooLong(chars));
        }
        Ok(Intake {
            text: text.to_string(),
            on: on.map(|o| o.trim().to_string()).filter(|o| !o.is_empty()),
            severity,
            source: source.to_string(),
        })
    }

    /// The store row of this item (kind `review`; `target` is what it is about).
    pub fn to_row(&self, repo: &str) -> slopguard_store::NewFeedback {
        slopguard_store::NewFeedback {
            repo: repo.to_string(),
            run_id: None,
            kind: "review".into(),
            target: self.on.clone(),
            body: serde_json::json!({
                "text": self.text,
                "severity": self.severity,
                "source": self.source,
            }),
        }
    }

    /// The intake of a stored row (`None` for rows of other kinds).
    pub fn from_row(row: &slopguard_store::FeedbackRow) -> Option<Intake> {
        if row.feedback.kind != "review" {
            return None;
        }
        let body = &row.feedback.body;
        Some(Intake {
            text: body["text"].as_str()?.to_string(),
            on: row.feedback.target.clone(),
            severity: serde_json::from_value(body["severity"].clone()).unwrap_or_default(),
            source: body["source"].as_str().unwrap_or("").to_string(),
        })
    }
}

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
