//! Review feedback as the self-correction loop takes it in: one shape for every intake (the
//! CLI, stdin, a file, the gateway's `POST /feedback`), stored as a feedback row of kind
//! `review` whose body holds the text verbatim, the severity and the source.

use serde::{Deserialize, Serialize};

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
    pub fn to_row(&self, repo: &str) -> crate::NewFeedback {
        crate::NewFeedback {
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
    pub fn from_row(row: &crate::FeedbackRow) -> Option<Intake> {
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
