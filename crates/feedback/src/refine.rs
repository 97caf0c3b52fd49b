//! Refinement rounds: a fix plan waiting for approval is revised by the reviewer model with the
//! operator's note (`slopguard feedback refine ID "<what to change>"`), at most
//! [`MAX_ROUNDS`] times; then the operator approves, rejects, or files the feedback again.
//!
//! The revised plan is JSON checked against [`schema`] (sent back once when malformed, like
//! triage). Files the model names that do not exist are dropped with a note, a test file that
//! is not one keeps the old test file, and the approval reason is computed again from the new
//! size and files. The operator's notes and the revised change join the plan's notes, so the
//! worker hears them when the approved plan is fixed.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use slopguard_llm::{BlockingClient, LlmError, Message, Role};

use super::Intake;
use super::fix::{FixPlan, approval_reason};
use super::triage::Triage;
use slopguard_planning::analysis::is_test_file;

/// Refinement rounds one plan may have.
pub const MAX_ROUNDS: usize = 3;

/// The prefix of the plan note carrying the revised change (replaced at each round).
const REVISED: &str = "the revised plan: ";

/// One round, as the item's detail keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based.
    pub round: usize,
    /// What the operator asked.
    pub note: String,
    /// The plan before this round.
    pub before: FixPlan,
    /// What was dropped from the model's answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

/// Why a plan was not refined.
#[derive(Debug, thiserror::Error)]
pub enum RefineError {
    /// The model did not answer in the expected shape even after one correction.
    #[error("the reviewer model's revised plan was refused after one correction: {0}")]
    Refused(String),
    /// The model could not be reached or failed.
    #[error("the reviewer model failed: {0}")]
    Model(LlmError),
}

/// The JSON schema of a revised plan.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "required": ["root_cause", "proposed_change", "test_sketch", "files", "test_file", "estimated_lines"],
        "properties": {
            "root_cause": {"type": "string", "minLength": 1},
            "proposed_change": {"type": "string", "minLength": 1},
            "test_sketch": {"type": "string", "minLength": 1},
            "files": {"type": "array", "items": {"type": "string"}},
            "test_file": {"type": "string", "minLength": 1},
            "estimated_lines": {"type": "integer", "minimum": 1, "maximum": 100000}
        }
    })
}

/// The refinement messages: the feedback, the triage, the current plan, the operator's note.
pub fn messages(intake: &Intake, triage: &Triage, plan: &FixPlan, note: &str) -> Vec<Message> {
    let current = json!({
        "root_cause": plan.root_cause,
        "proposed_change": plan.proposed_change,
        "test_sketch": plan.test_sketch,
        "files": plan.files,
        "test_file": plan.test_file,
        "estimated_lines": plan.estimated_lines,
    });
    vec![
        Message::system(
            "You revise the plan of a code fix as the operator asks, and keep what the operator \
             did not ask to change. Every fix comes with a regression test that fails before \
             the fix and passes after it.",
        ),
        Message::user(format!(
            "FEEDBACK:\n{}\n\nTRIAGE: {:?}, confidence {}; root cause: {}\n\nCURRENT PLAN:\n{}\n\n\
             THE OPERATOR ASKS:\n{}\n\nAnswer with the revised plan as one JSON object with the \
             same keys: root_cause, proposed_change, test_sketch, files (repository files to \
             change), test_file (where the regression test goes), estimated_lines (lines \
             touched).",
            intake.text,
            triage.class,
            triage.confidence,
            triage.root_cause,
            serde_json::to_string_pretty(&current).unwrap_or_default(),
            note.trim()
        )),
    ]
}

/// Asks the reviewer model to revise `plan` with the operator's `note`; the revised plan and
/// what was dropped from the answer. The client's correction turns decide how often a
/// malformed answer is sent back (the command sets one).
pub fn refine(
    client: &BlockingClient,
    intake: &Intake,
    triage: &Triage,
    plan: &FixPlan,
    note: &str,
    exists: &dyn Fn(&str) -> bool,
) -> Result<(FixPlan, Vec<String>), RefineError> {
    let reply = client
        .chat_json_value(
            Role::Reviewer,
            &messages(intake, triage, plan, note),
            &schema(),
        )
        .map_err(|e| match e {
            LlmError::InvalidJson {
                last_error,
                last_content,
                ..
            } => RefineError::Refused(format!("{last_error} (its last answer: {last_content})")),
            other => RefineError::Model(other),
        })?;
    Ok(revised(&reply.value, plan, triage, note, exists))
}

/// The revised plan in a schema-valid answer: files that do not exist dropped (the old files
/// kept when none is left), a test file that is not one replaced by the old one, the approval
/// reason computed again, and the operator's note and the new change added to the notes.
pub fn revised(
    v: &Value,
    old: &FixPlan,
    triage: &Triage,
    note: &str,
    exists: &dyn Fn(&str) -> bool,
) -> (FixPlan, Vec<String>) {
    let text = |k: &str| v[k].as_str().unwrap_or("").trim().to_string();
    let mut dropped = Vec::new();
    let mut files: Vec<String> = Vec::new();
    for f in v["files"].as_array().into_iter().flatten() {
        let Some(path) = f.as_str().map(|p| p.trim().trim_start_matches("./")) else {
            continue;
        };
        if !exists(path) {
            dropped.push(format!("`{path}` does not exist (dropped)"));
        } else if !is_test_file(path) && !files.iter().any(|x| x == path) {
            files.push(path.to_string());
        }
    }
    if files.is_empty() {
        dropped.push("no existing code file was named: the plan keeps its files".into());
        files = old.files.clone();
    }
    let mut test_file = text("test_file").trim_start_matches("./").to_string();
    if !is_test_file(&test_file) {
        dropped.push(format!(
            "`{test_file}` is not a test file: the regression test stays in {}",
            old.test_file
        ));
        test_file = old.test_file.clone();
    }
    let estimated_lines = v["estimated_lines"]
        .as_u64()
        .map_or(old.estimated_lines, |n| n as usize);
    let proposed_change = text("proposed_change");
    let mut notes: Vec<String> = old
        .notes
        .iter()
        .filter(|n| !n.starts_with(REVISED))
        .cloned()
        .collect();
    notes.push(format!("the operator's note on the plan: {}", note.trim()));
    notes.push(format!("{REVISED}{proposed_change}"));
    let plan = FixPlan {
        root_cause: text("root_cause"),
        proposed_change,
        test_sketch: text("test_sketch"),
        needs_approval: approval_reason(triage.class, estimated_lines, &files),
        files,
        test_file,
        estimated_lines,
        notes,
    };
    (plan, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triage::FixClass;

    fn old() -> FixPlan {
        FixPlan {
            root_cause: "statistics belong in a service".into(),
            proposed_change: "move calc/ into a service layer".into(),
            test_sketch: "a service test".into(),
            files: vec!["calc/stats.py".into(), "web/app.py".into()],
            test_file: "tests/test_stats.py".into(),
            estimated_lines: 400,
            needs_approval: Some("about 400 lines".into()),
            notes: vec![],
        }
    }

    fn triage(class: FixClass) -> Triage {
        Triage {
            class,
            proposed_class: None,
            root_cause: "n-1".into(),
            files: vec![],
            confidence: 85,
            escalated: false,
            notes: vec![],
        }
    }

    fn exists(p: &str) -> bool {
        matches!(p, "calc/stats.py" | "web/app.py" | "tests/test_stats.py")
    }

    #[test]
    fn a_revised_plan_keeps_existing_files_and_carries_the_note() {
        let answer = json!({"root_cause": "n-1", "proposed_change": "divide by len(values) in average()",
            "test_sketch": "assert average([1, 2, 3]) == 2", "files": ["calc/stats.py", "calc/gone.py"],
            "test_file": "tests/test_stats.py", "estimated_lines": 3});
        let (plan, dropped) = revised(
            &answer,
            &old(),
            &triage(FixClass::Bug),
            " only average() ",
            &exists,
        );
        assert_eq!(plan.files, vec!["calc/stats.py".to_string()]);
        assert_eq!(plan.estimated_lines, 3);
        assert_eq!(plan.needs_approval, None);
        assert_eq!(dropped, vec!["`calc/gone.py` does not exist (dropped)"]);
        assert_eq!(
            plan.notes,
            vec![
                "the operator's note on the plan: only average()".to_string(),
                "the revised plan: divide by len(values) in average()".to_string()
            ]
        );
        // A second round replaces the revised change and keeps both notes.
        let (again, _) = revised(
            &answer,
            &plan,
            &triage(FixClass::Bug),
            "and keep total()",
            &exists,
        );
        assert_eq!(again.notes.len(), 3);
        assert_eq!(
            again
                .notes
                .iter()
                .filter(|n| n.starts_with(REVISED))
                .count(),
            1
        );
    }

    #[test]
    fn bad_files_fall_back_to_the_old_plan() {
        let answer = json!({"root_cause": "r", "proposed_change": "c", "test_sketch": "t",
            "files": ["nowhere.py"], "test_file": "calc/stats.py", "estimated_lines": 10});
        let (plan, dropped) = revised(
            &answer,
            &old(),
            &triage(FixClass::Architectural),
            "n",
            &exists,
        );
        assert_eq!(plan.files, old().files);
        assert_eq!(plan.test_file, "tests/test_stats.py");
        assert_eq!(dropped.len(), 3, "{dropped:?}");
        assert_eq!(
            plan.needs_approval.as_deref(),
            Some("an architectural change")
        );
        let bad = json!({"root_cause": "", "files": "x", "estimated_lines": 0});
        assert!(slopguard_llm::schema::validate(&schema(), &bad).len() >= 4);
    }
}
