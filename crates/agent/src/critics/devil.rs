//! The devil's advocate: one adversarial pass that argues the change is wrong. Its findings
//! are what the refiner works on.

use serde_json::{Value, json};
use slopguard_llm::Message;

use super::findings::{format_instruction, parse_findings};
use super::{Models, Workspace, task_and_diff};

/// Most findings of the pass.
const MAX_FINDINGS: usize = 3;

/// One call; each finding traced as `critic_devil.finding`.
pub fn attack(ws: &Workspace<'_>, diff: &str, models: &mut Models<'_>, emit: &dyn Fn(&str, Value)) {
    let messages = [
        Message::system(format!(
            "You are the devil's advocate. Find the strongest reasons this change is wrong, \
             incomplete or breaks something: a case it gets wrong, a caller it breaks, a test it \
             does not run. Only real problems, no style. {}",
            format_instruction(MAX_FINDINGS)
        )),
        Message::user(task_and_diff(ws, diff)),
    ];
    let Some(reply) = models.ask("devil", &messages, 300) else {
        return;
    };
    let found = parse_findings(&reply, "devil", MAX_FINDINGS);
    for f in &found {
        emit("critic_devil.finding", json!(f));
    }
    let report = models.report();
    report.ran.push("devil".into());
    report.findings.extend(found);
}
