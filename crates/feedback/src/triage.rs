//! Triage: the reviewer model classifies a feedback item into a fix class that fits a code
//! repository, with a root-cause hypothesis, candidate files and a confidence 0-100.
//!
//! The model answers in JSON against [`schema`]: an unknown class, malformed JSON or a
//! confidence outside 0-100 is sent back once with what was wrong (the client's correction
//! turn), then refused with a clear error. Below [`MIN_CONFIDENCE`] the class becomes
//! out-of-scope and the item is escalated to a person: never guessed at. Candidate files the
//! model names that do not exist are dropped with a note, like localisation's.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use slopguard_llm::{BlockingClient, LlmError, Message, Role};

use super::Intake;
use super::inbox::RememberedFix;
use super::localise::Localisation;

/// Below this confidence the item is escalated as out-of-scope.
pub const MIN_CONFIDENCE: u8 = 60;

/// What kind of change would address the feedback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FixClass {
    /// Wrong behaviour in the code.
    Bug,
    /// A missing or wrong test.
    Test,
    /// Documentation.
    Docs,
    /// Configuration or build files.
    Config,
    /// A dependency to add, remove or change.
    Dependency,
    /// Too slow or too big.
    Performance,
    /// A design change across modules (always waits for approval).
    Architectural,
    /// Not something to change in this repository.
    OutOfScope,
}

impl FixClass {
    /// Every class, as the model must spell it.
    pub const NAMES: [&'static str; 8] = [
        "bug",
        "test",
        "docs",
        "config",
        "dependency",
        "performance",
        "architectural",
        "out-of-scope",
    ];
}

/// The triage of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triage {
    /// The fix class (out-of-scope when the confidence was too low).
    pub class: FixClass,
    /// What the model said the class was, when escalation overrode it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposed_class: Option<FixClass>,
    /// The root-cause hypothesis, one or two sentences.
    pub root_cause: String,
    /// Candidate files that exist, most likely first.
    pub files: Vec<String>,
    /// How sure the model is, 0-100.
    pub confidence: u8,
    /// Whether a person must look (low confidence or out of scope).
    pub escalated: bool,
    /// Notes: files dropped, why escalated.
    pub notes: Vec<String>,
}

/// Why triage failed.
#[derive(Debug, thiserror::Error)]
pub enum TriageError {
    /// The model did not answer in the expected shape even after one correction.
    #[error("the reviewer model's triage was refused after one correction: {0}")]
    Refused(String),
    /// The model could not be reached or failed.
    #[error("the reviewer model failed: {0}")]
    Model(LlmError),
}

/// The JSON schema of a triage answer.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["class", "root_cause", "files", "confidence"],
        "properties": {
            "class": {"type": "string", "enum": FixClass::NAMES},
            "root_cause": {"type": "string", "minLength": 1},
            "files": {"type": "array", "items": {"type": "string"}},
            "confidence": {"type": "integer", "minimum": 0, "maximum": 100}
        }
    })
}

/// The triage messages: the feedback verbatim, what localisation found, earlier verified fixes
/// of the same files (the failure memory), the classes.
pub fn messages(intake: &Intake, loc: &Localisation, earlier: &[RememberedFix]) -> Vec<Message> {
    let mut user = format!(
        "FEEDBACK (severity {:?}):\n{}\n",
        intake.severity, intake.text
    );
    if let Some(on) = &intake.on {
        user.push_str(&format!("It is about: {on}\n"));
    }
    if loc.files.is_empty() {
        user.push_str("\nNo file of the repository was found from the feedback's words.\n");
    } else {
        user.push_str("\nFiles the feedback points at (found by searching the repository):\n");
        for f in &loc.files {
            user.push_str(&format!("- {} ({})\n", f.path, f.why.join("; ")));
        }
    }
    let related: Vec<&RememberedFix> = earlier
        .iter()
        .filter(|e| loc.files.iter().any(|f| e.files.contains(&f.path)))
        .take(3)
        .collect();
    if !related.is_empty() {
        user.push_str("\nEarlier feedback on these files, fixed and verified:\n");
        for e in related {
            user.push_str(&format!(
                "- \"{}\" ({}; {})\n",
                e.symptom.lines().next().unwrap_or(""),
                e.class,
                e.files.join(", ")
            ));
        }
    }
    user.push_str(&format!(
        "\nClassify the feedback. Answer with one JSON object: {{\"class\": one of {}, \
         \"root_cause\": what is most likely wrong, in one or two sentences, \"files\": the \
         repository files to change, \"confidence\": 0-100, how sure you are that this class \
         and these files are right}}. Use out-of-scope for anything that is not a change to \
         this repository.",
        FixClass::NAMES.join(", ")
    ));
    vec![
        Message::system(
            "You triage code-review feedback for a software repository. You are precise and \
             say when you are unsure.",
        ),
        Message::user(user),
    ]
}

/// Asks the reviewer model to triage `intake`. The client's correction turns decide how often
/// a malformed answer is sent back (the command sets one).
pub fn triage(
    client: &BlockingClient,
    intake: &Intake,
    loc: &Localisation,
    earlier: &[RememberedFix],
    exists: &dyn Fn(&str) -> bool,
) -> Result<Triage, TriageError> {
    let reply = client
        .chat_json_value(Role::Reviewer, &messages(intake, loc, earlier), &schema())
        .map_err(|e| match e {
            LlmError::InvalidJson {
                last_error,
                last_content,
                ..
            } => TriageError::Refused(format!("{last_error} (its last answer: {last_content})")),
            other => TriageError::Model(other),
        })?;
    from_value(&reply.value, exists).map_err(TriageError::Refused)
}

/// The triage in a schema-valid answer, checked again (class, confidence range), with files
/// that do not exist dropped and low confidence escalated.
pub fn from_value(v: &Value, exists: &dyn Fn(&str) -> bool) -> Result<Triage, String> {
    let class_name = v["class"].as_str().unwrap_or("");
    let proposed: FixClass = serde_json::from_value(json!(class_name)).map_err(|_| {
        format!(
            "`{class_name}` is not a fix class (one of {})",
            FixClass::NAMES.join(", ")
        )
    })?;
    let confidence = v["confidence"]
        .as_i64()
        .filter(|c| (0..=100).contains(c))
        .ok_or_else(|| format!("confidence {} is not an integer 0-100", v["confidence"]))?
        as u8;
    let mut notes = Vec::new();
    let mut files = Vec::new();
    for f in v["files"].as_array().into_iter().flatten() {
        let Some(path) = f.as_str().map(|p| p.trim().trim_start_matches("./")) else {
            continue;
        };
        if exists(path) {
            if !files.iter().any(|x| x == path) {
                files.push(path.to_string());
            }
        } else {
            notes.push(format!(
                "`{path}` named by the model does not exist (dropped)"
            ));
        }
    }
    let low = confidence < MIN_CONFIDENCE;
    if low {
        notes.push(format!(
            "confidence {confidence} is below {MIN_CONFIDENCE}: escalated to a person as \
             out-of-scope"
        ));
    }
    let class = if low { FixClass::OutOfScope } else { proposed };
    Ok(Triage {
        class,
        proposed_class: (class != proposed).then_some(proposed),
        root_cause: v["root_cause"].as_str().unwrap_or("").trim().to_string(),
        files,
        confidence,
        escalated: class == FixClass::OutOfScope,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exists(p: &str) -> bool {
        p == "calc/stats.py"
    }

    #[test]
    fn a_confident_bug_keeps_its_class_and_existing_files() {
        let t = from_value(
            &json!({"class": "bug", "root_cause": "divides by n-1", "files": ["calc/stats.py", "calc/gone.py"], "confidence": 85}),
            &exists,
        )
        .unwrap();
        assert_eq!(t.class, FixClass::Bug);
        assert_eq!(t.files, vec!["calc/stats.py".to_string()]);
        assert!(!t.escalated);
        assert_eq!(
            t.notes,
            vec!["`calc/gone.py` named by the model does not exist (dropped)".to_string()]
        );
    }

    #[test]
    fn low_confidence_is_escalated_as_out_of_scope() {
        let t = from_value(
            &json!({"class": "bug", "root_cause": "maybe", "files": [], "confidence": 59}),
            &exists,
        )
        .unwrap();
        assert_eq!(t.class, FixClass::OutOfScope);
        assert_eq!(t.proposed_class, Some(FixClass::Bug));
        assert!(t.escalated);
    }

    #[test]
    fn unknown_classes_and_out_of_range_confidence_are_errors() {
        let e = from_value(
            &json!({"class": "refactor", "root_cause": "x", "files": [], "confidence": 90}),
            &exists,
        )
        .unwrap_err();
        assert!(e.contains("`refactor` is not a fix class"), "{e}");
        let e = from_value(
            &json!({"class": "bug", "root_cause": "x", "files": [], "confidence": 150}),
            &exists,
        )
        .unwrap_err();
        assert!(e.contains("confidence 150"), "{e}");
        // The schema says the same, so the client's correction turn names it to the model.
        let bad = json!({"class": "refactor", "root_cause": "x", "files": [], "confidence": 150});
        assert_eq!(slopguard_llm::schema::validate(&schema(), &bad).len(), 2);
    }
}
