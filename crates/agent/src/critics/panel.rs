//! The critic panel: three personas read the branch's diff and list what they would change.
//! Advisory: its findings go to the summary and the pull request, never block.

use serde_json::{Value, json};
use slopguard_llm::Message;

use super::findings::{format_instruction, parse_findings};
use super::{Models, Workspace, task_and_diff};

/// The personas and what each looks for.
pub const PERSONAS: &[(&str, &str)] = &[
    (
        "developer",
        "a developer who will maintain this code: correctness, edge cases, error handling",
    ),
    (
        "architect",
        "a software architect: whether the change fits the code around it, duplication, naming",
    ),
    (
        "contributor",
        "a new contributor: whether the change is clear, tested and documented",
    ),
];

/// Most findings per persona.
const MAX_FINDINGS: usize = 3;

/// One call per persona; findings recorded as `panel:<persona>`.
pub fn review(ws: &Workspace<'_>, diff: &str, models: &mut Models<'_>, emit: &dyn Fn(&str, Value)) {
    for (persona, focus) in PERSONAS {
        let messages = [
            Message::system(format!(
                "You review a pull request as {focus}. {}",
                format_instruction(MAX_FINDINGS)
            )),
            Message::user(task_and_diff(ws, diff)),
        ];
        let Some(reply) = models.ask("panel", &messages, 300) else {
            continue;
        };
        let critic = format!("panel:{persona}");
        let found = parse_findings(&reply, &critic, MAX_FINDINGS);
        emit(
            "critic_panel.review.end",
            json!({"persona": persona, "findings": found}),
        );
        let report = models.report();
        report.findings.extend(found);
        if !report.ran.iter().any(|r| r == "panel") {
            report.ran.push("panel".into());
        }
    }
}
