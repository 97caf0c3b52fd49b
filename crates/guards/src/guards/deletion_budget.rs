//! deletion-budget: a modify must not remove most of a file unless the task asks.

use serde::Deserialize;

use crate::{Context, FileView, Finding, Guard, GuardInfo};

/// The deletion-budget guard.
pub struct DeletionBudget;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "deletion-budget",
    code: None,
    summary: "modifies that remove more than a set share of a file's lines without the task asking",
    doc: include_str!("../../docs/deletion-budget.md"),
    default_enabled: true,
    failure_mode: "patcher_reject",
    trace_event: "critic_deletion_budget.fail",
};

/// `[guards.deletion-budget]` settings.
#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Largest share (0..1) of the original lines a modify may remove.
    pub max_removed_share: f64,
    /// Files shorter than this many lines are exempt.
    pub min_lines: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_removed_share: 0.6,
            min_lines: 20,
        }
    }
}

/// Words in a task that ask for large removals.
const REMOVAL_WORDS: [&str; 10] = [
    "remove", "delete", "rewrite", "replace", "refactor", "simplify", "trim", "drop", "clean",
    "shorten",
];

/// Whether the deletion budget judges this modification: the guard is on, the file had at
/// least `min_lines` lines and the change removed more than `max_removed_share` of them.
/// Other guards leave such a mostly deleted file to it (G13 does not also call a README cut
/// to a stub "code destroyed").
pub fn judges(cx: &Context<'_>, file: &FileView<'_>) -> bool {
    cx.config().enabled(INFO.slug) && over_budget(file, &cx.settings(INFO.slug)).is_some()
}

/// Lines removed, lines before and their share, when a modification removed more than the
/// budget allows of a file of at least `min_lines` lines.
fn over_budget(file: &FileView<'_>, s: &Settings) -> Option<(usize, usize, f64)> {
    if !file.is_modify() || file.after_text().is_none() {
        return None;
    }
    let total = file.before_text()?.lines().count();
    if total < s.min_lines {
        return None;
    }
    let removed = file.line_changes().removed.len();
    let share = removed as f64 / total as f64;
    (share > s.max_removed_share).then_some((removed, total, share))
}

impl Guard for DeletionBudget {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let s: Settings = cx.settings(INFO.slug);
        for file in cx.files() {
            let Some((removed, total, share)) = over_budget(file, &s) else {
                continue;
            };
            let path = file.path();
            if let Some(t) = cx.task() {
                let text = t.text().to_lowercase();
                if t.hints_path(path) && REMOVAL_WORDS.iter().any(|w| text.contains(w)) {
                    continue;
                }
                // A commit whose message announces the rewrite: its author meant it.
                if crate::intent::announced_by_message(t, file, crate::intent::RESTRUCTURE_WORDS) {
                    continue;
                }
            }
            let pct = (share * 100.0).round();
            out.push(
                Finding::new(
                    &INFO,
                    cx.intent_severity(),
                    format!("{removed} of {total} lines ({pct}%) removed, over the {}% budget", (s.max_removed_share * 100.0).round()),
                )
                .at(path, None, None)
                .feedback(format!(
                    "Your change to `{path}` removed {removed} of its {total} lines. Keep the rest of the file exactly as it was and change only what the task needs; never replace code with \"rest unchanged\" placeholders."
                ))
                .data(serde_json::json!({"removed": removed, "total": total, "share": share})),
            );
        }
    }
}
