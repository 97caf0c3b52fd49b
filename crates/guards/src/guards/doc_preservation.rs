//! G13 doc-preservation: doc modifications that destroy fenced code blocks or write literal
//! `\n` corruption.

use slopguard_grounding::doc_preservation::{self as dp, DocDamage};

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The doc-preservation guard.
pub struct DocPreservation;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "doc-preservation",
    code: Some("G13"),
    summary: "doc modifies that keep < 30% of the fenced code (of >= 50 chars) or write literal \\n sequences into code blocks",
    doc: include_str!("../../docs/doc-preservation.md"),
    default_enabled: true,
    failure_mode: "doc_destroyed",
    trace_event: "critic_doc_preservation.fail",
};

/// For every file of the change, the lines its new version has that its old one did not.
fn added_lines<'c>(cx: &'c Context<'_>) -> Vec<(&'c str, String)> {
    cx.files()
        .iter()
        .filter_map(|f| {
            let after = f.after_text()?;
            let old: std::collections::BTreeSet<&str> =
                f.before_text().unwrap_or_default().lines().collect();
            let new: Vec<&str> = after.lines().filter(|l| !old.contains(l)).collect();
            Some((f.path(), new.join("\n")))
        })
        .collect()
}

impl Guard for DocPreservation {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        // What each file of the change newly wrote: doc content that moved there is not lost.
        let mut added: Option<Vec<(&str, String)>> = None;
        for file in cx.files() {
            if !file.is_modify() {
                continue;
            }
            let (Some(before), Some(after)) = (file.before_text(), file.after_text()) else {
                continue;
            };
            if !slopguard_grounding::markdown::is_markdown_path(file.path()) {
                continue;
            }
            let added = added.get_or_insert_with(|| added_lines(cx));
            let elsewhere: Vec<&str> = added
                .iter()
                .filter(|(p, _)| *p != file.path())
                .map(|(_, t)| t.as_str())
                .collect();
            // A doc mostly deleted (prose and code alike: "index: remove incorrect README"
            // leaving `WIP`, a README cut to a link where the docs moved) is the deletion
            // budget's call; literal `\n` corruption is still judged here.
            let deleted = std::cell::OnceCell::new();
            for d in dp::check_in_change(file.path(), before, after, &elsewhere) {
                if matches!(d, DocDamage::CodeBlocksDestroyed { .. })
                    && *deleted.get_or_init(|| crate::guards::deletion_budget::judges(cx, file))
                {
                    continue;
                }
                let (line, feedback) = match &d {
                    DocDamage::CodeBlocksDestroyed { original, kept, .. } => (
                        None,
                        format!(
                            "{}: the edit removed the document's code examples ({kept} of {original} characters of fenced \
                             code remain). Keep every existing ``` block (commands, examples) verbatim unless the task \
                             asks to change them; edit only the prose you were asked to change.",
                            file.path()
                        ),
                    ),
                    DocDamage::LiteralNewlines { line, .. } => (
                        Some(*line),
                        format!(
                            "{} line {line}: a code block contains the two-character sequence \\n instead of real line \
                             breaks (the content was double-escaped). Write each command on its own line.",
                            file.path()
                        ),
                    ),
                };
                out.push(
                    Finding::new(&INFO, Severity::Block, dp::describe(&d))
                        .at(file.path(), line, None)
                        .feedback(feedback)
                        .data(serde_json::to_value(&d).unwrap_or_default()),
                );
            }
        }
    }
}
