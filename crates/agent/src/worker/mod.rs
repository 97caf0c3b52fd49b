//! The worker: one subtask attempt from prompt to a judged change.
//!
//! [`prompt::build`] writes the prompt; [`reply_schema`] is passed to the model as
//! `response_format`; [`change_from_reply`] turns the reply into a [`ChangeSet`] over the
//! worktree (exact-match search/replace, ambiguous matches rejected, whole-file content only
//! where the prompt allowed it); [`static_guards`] judges the overlay before anything is
//! written. Every rejection becomes feedback text for the next attempt.

pub mod prompt;

use std::sync::Arc;

use serde_json::{Value, json};
use slopguard_change::{ChangeSet, LlmPatchList, PatchAction, Tree, from_patch_list};
use slopguard_fingerprint::Fingerprint;
use slopguard_guards::{Config, GuardStatus, Report, run_static_with};

use crate::plan::Subtask;
use crate::run::summary::GuardActivity;

/// Most patches in one reply.
pub const MAX_PATCHES: usize = 12;
/// Longest string in a reply (characters).
pub const MAX_STRING: usize = 60_000;

/// The JSON schema of a worker reply, with bounds so a small model cannot loop forever.
pub fn reply_schema() -> Value {
    json!({
        "type": "object",
        "required": ["commit_message", "patches"],
        "properties": {
            "commit_message": {"type": "string", "maxLength": 200},
            "patches": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_PATCHES,
                "items": {
                    "type": "object",
                    "required": ["action", "path"],
                    "properties": {
                        "action": {"type": "string", "enum": ["create", "modify", "delete"]},
                        "path": {"type": "string", "maxLength": 300},
                        "content": {"type": "string", "maxLength": MAX_STRING},
                        "edits": {
                            "type": "array",
                            "maxItems": 20,
                            "items": {
                                "type": "object",
                                "required": ["search", "replace"],
                                "properties": {
                                    "search": {"type": "string", "maxLength": 8000},
                                    "replace": {"type": "string", "maxLength": 16000}
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// Why a reply could not become a change. The text is written for the model's retry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ApplyError(pub String);

/// Turns a worker reply (already valid JSON) into a change set over `base`.
pub fn change_from_reply(
    base: Arc<dyn Tree>,
    value: &Value,
    prompt: &prompt::WorkerPrompt,
) -> Result<ChangeSet, ApplyError> {
    let list: LlmPatchList = serde_json::from_value(value.clone())
        .map_err(|e| ApplyError(format!("the reply does not have the patch shape: {e}")))?;
    if list.patches.is_empty() {
        return Err(ApplyError(
            "the reply contains no patches; send at least one change that does the subtask".into(),
        ));
    }
    for p in &list.patches {
        let path = p.path.trim_start_matches("./");
        match p.action {
            PatchAction::Create if p.content.is_none() => {
                return Err(ApplyError(format!("create of `{path}` has no `content`")));
            }
            PatchAction::Modify if p.content.is_none() && p.all_edits().is_empty() => {
                return Err(ApplyError(format!(
                    "modify of `{path}` has neither `edits` nor `content`"
                )));
            }
            PatchAction::Modify | PatchAction::Create
                if p.content.is_some()
                    && base.read(path).ok().flatten().is_some()
                    && !prompt.content_allowed(path) =>
            {
                return Err(ApplyError(format!(
                    "`{path}` is too large to rewrite whole (you were not shown all of it): \
                     send search/replace `edits` for it instead of `content`"
                )));
            }
            _ => {}
        }
        for e in p.all_edits() {
            if e.search.is_empty() {
                return Err(ApplyError(format!(
                    "an edit of `{path}` has an empty `search`; copy the exact text to replace"
                )));
            }
        }
    }
    let mut set = from_patch_list(base, &list).map_err(|e| {
        ApplyError(format!(
            "{e}. Copy each `search` exactly from the file as shown (whitespace included) and \
             include enough lines to make it occur exactly once."
        ))
    })?;
    if set.is_empty() {
        return Err(ApplyError(
            "the patches change nothing (the result equals the current files); make the change \
             the subtask asks for"
                .into(),
        ));
    }
    if set.message.as_deref().is_none_or(|m| m.trim().is_empty()) {
        set.message = None;
    }
    Ok(set)
}

/// The subtask as the guards' intent.
pub fn guard_task(subtask: &Subtask, task_title: &str) -> slopguard_change::Task {
    slopguard_change::Task {
        title: format!("{task_title}: {}", subtask.title),
        description: subtask.description.clone(),
        file_hints: subtask.file_hints.clone(),
        allowed_manifests: Vec::new(),
        compile_fix: false,
    }
}

/// Runs the static guard stack on the overlay (nothing is written).
pub fn static_guards(
    change: &ChangeSet,
    task: &slopguard_change::Task,
    config: &Config,
    fingerprint: Option<&Fingerprint>,
) -> Report {
    run_static_with(change, Some(task), config, |cx| {
        if let Some(fp) = fingerprint {
            cx.set_fingerprint(fp.clone());
        }
    })
}

/// The report as guard activity records of `attempt`.
pub fn activity(report: &Report, attempt: u32) -> Vec<GuardActivity> {
    report
        .guards
        .iter()
        .filter(|g| g.status != GuardStatus::Disabled)
        .map(|g| GuardActivity {
            attempt,
            phase: "static".into(),
            guard: g.guard.to_string(),
            code: g.code.map(str::to_string),
            status: match g.status {
                GuardStatus::Passed => "passed",
                GuardStatus::Warned => "warned",
                GuardStatus::Blocked => "blocked",
                GuardStatus::Disabled => "disabled",
            }
            .into(),
            messages: report
                .findings
                .iter()
                .filter(|f| f.guard == g.guard)
                .map(|f| {
                    let loc = f.location();
                    if loc.is_empty() {
                        f.message.clone()
                    } else {
                        format!("{loc}: {}", f.message)
                    }
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::collections::BTreeMap;

    fn tree() -> Arc<dyn Tree> {
        let mut m = BTreeMap::new();
        m.insert(
            "calc.py".to_string(),
            b"def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n".to_vec(),
        );
        Arc::new(MemTree::new(m))
    }

    fn prompt_for(t: &dyn Tree) -> prompt::WorkerPrompt {
        let st = Subtask {
            id: "T001-S01".into(),
            title: "fix add".into(),
            description: String::new(),
            file_hints: vec!["calc.py".into()],
            action: crate::plan::Action::Modify,
        };
        prompt::build(&st, "t", t, 4000, "", 1)
    }

    #[test]
    fn edits_apply_and_errors_are_feedback() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let ok = json!({"commit_message": "fix add", "patches": [{"action": "modify", "path": "calc.py",
            "edits": [{"search": "def add(a, b):\n    return a - b", "replace": "def add(a, b):\n    return a + b"}]}]});
        let set = change_from_reply(t.clone(), &ok, &p).unwrap();
        assert_eq!(set.changes.len(), 1);
        assert_eq!(set.message.as_deref(), Some("fix add"));
        let ambiguous = json!({"commit_message": "x", "patches": [{"action": "modify", "path": "calc.py",
            "edits": [{"search": "return a - b", "replace": "return a + b"}]}]});
        let e = change_from_reply(t.clone(), &ambiguous, &p).unwrap_err();
        assert!(e.0.contains("exactly once"), "{e}");
        let missing = json!({"commit_message": "x", "patches": [{"action": "modify", "path": "calc.py",
            "edits": [{"search": "return a * b", "replace": "x"}]}]});
        assert!(change_from_reply(t.clone(), &missing, &p).is_err());
        let noop = json!({"commit_message": "x", "patches": [{"action": "modify", "path": "calc.py",
            "edits": [{"search": "def add(a, b):", "replace": "def add(a, b):"}]}]});
        assert!(
            change_from_reply(t.clone(), &noop, &p)
                .unwrap_err()
                .0
                .contains("change nothing")
        );
        assert!(slopguard_llm::schema::validate(&reply_schema(), &ok).is_empty());
    }

    #[test]
    fn static_guards_block_dropped_function() {
        let t = tree();
        let p = prompt_for(t.as_ref());
        let bad = json!({"commit_message": "fix add", "patches": [{"action": "modify", "path": "calc.py",
            "content": "def add(a, b):\n    return a + b\n"}]});
        let set = change_from_reply(t.clone(), &bad, &p).unwrap();
        let st = guard_task(
            &Subtask {
                id: "T001-S01".into(),
                title: "fix add".into(),
                description: String::new(),
                file_hints: vec!["calc.py".into()],
                action: crate::plan::Action::Modify,
            },
            "t",
        );
        let r = static_guards(&set, &st, &Config::default(), None);
        assert!(r.blocked(), "{}", r.feedback());
        let act = activity(&r, 1);
        assert!(
            act.iter()
                .any(|a| a.guard == "symbol-preservation" && a.status == "blocked")
        );
    }
}
