//! The self-critic: a short review comment of the whole pull request, written beside its body
//! (`REVIEW.md` in the run directory, and a section of the body), with its findings.

use serde_json::{Value, json};
use slopguard_llm::Message;

use super::findings::{format_instruction, parse_findings};
use super::{Models, Workspace, task_and_diff};

/// Most findings in the review.
const MAX_FINDINGS: usize = 3;

/// One call; the comment and its findings recorded.
pub fn review(ws: &Workspace<'_>, diff: &str, models: &mut Models<'_>, emit: &dyn Fn(&str, Value)) {
    let messages = [
        Message::system(format!(
            "You wrote this pull request and now review it honestly, as a comment for the \
             person who will merge it: at most 6 lines on what it does, what to check and what \
             could go wrong. Then, under a line `Findings:`, the problems you see. {}",
            format_instruction(MAX_FINDINGS)
        )),
        Message::user(task_and_diff(ws, diff)),
    ];
    let Some(reply) = models.ask("self-critic", &messages, 400) else {
        return;
    };
    let (comment, findings) = match reply.split_once("Findings:") {
        Some((comment, rest)) => (
            comment.trim().to_string(),
            parse_findings(rest, "self-critic", MAX_FINDINGS),
        ),
        None => (reply.trim().to_string(), Vec::new()),
    };
    emit(
        "critic_self.review",
        json!({"comment": comment, "findings": findings}),
    );
    let report = models.report();
    report.ran.push("self-critic".into());
    report.findings.extend(findings);
    report.self_review = (!comment.is_empty()).then_some(comment);
}
