//! What the steps read from a stored item (the triage's findings, the fix plan) and the
//! helpers they share.

use std::path::Path;

use slopguard_llm::{BlockingClient, LlmConfig, Role};
use slopguard_store::FeedbackRow;

use super::error::StepError;
use crate::Intake;
use crate::detail::Detail;
use crate::fix::FixPlan;
use crate::localise::Localisation;
use crate::triage::Triage;

/// A model client for the reviewer role that sends a malformed answer back once, then
/// refuses it; and the reviewer's base URL, for the unreachable-endpoint message.
pub(super) fn reviewer_client(mut llm: LlmConfig) -> Result<(BlockingClient, String), StepError> {
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

pub(super) use crate::fix::first_line;

/// What the triage left on an item: the feedback, the model's verdict and the localisation.
pub(super) struct TriagedItem {
    pub(super) intake: Intake,
    pub(super) triage: Triage,
    pub(super) loc: Localisation,
}

/// The triage's findings on `row`; refused when it was not triaged.
pub(super) fn triaged_item(row: &FeedbackRow, detail: &Detail) -> Result<TriagedItem, StepError> {
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
pub(super) fn stored_plan(detail: &Detail) -> Result<FixPlan, StepError> {
    detail.plan.clone().ok_or_else(|| StepError::Missing {
        what: "the item has no fix plan; reject it and add the feedback again".into(),
        source: detail.field_error::<FixPlan>("plan"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triage::FixClass;

    #[test]
    fn a_step_reads_the_triage_it_needs_and_says_how_to_get_it() {
        let row = FeedbackRow {
            id: 4,
            ts_ms: 0,
            feedback: Intake::new("mean() is off by one", None, crate::Severity::Low, "cli")
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
