//! G11 content-grounding: docs that name frameworks the repository does not use.
//!
//! Also home of the grounding guards' shared glue: the fingerprint of the tree after the change
//! and a [`TreeView`] over it.

use std::hash::{DefaultHasher, Hash, Hasher};

use slopguard_fingerprint::{FileSource, Fingerprint};
use slopguard_grounding::{TreeView, content};

use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The content-grounding guard.
pub struct ContentGrounding;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "content-grounding",
    code: Some("G11"),
    summary: "docs that newly name frameworks (React, Django, Clap, ...) the repository's manifests do not declare",
    doc: include_str!("../../docs/content-grounding.md"),
    default_enabled: true,
    failure_mode: "grounding",
    trace_event: "critic_content_grounding.fail",
};

/// The tree after the change, as a fingerprint source.
pub(crate) struct AfterTree<'c, 'a>(pub(crate) &'c Context<'a>);

impl FileSource for AfterTree<'_, '_> {
    fn files(&self) -> Vec<String> {
        self.0.files_after()
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        self.0.read_after(path)
    }

    /// A commit-based base plus the change's manifest edits identifies the tree; working trees
    /// and in-memory bases are not cached (they change under us).
    fn cache_key(&self) -> Option<String> {
        let id = self.0.base().id();
        if id.starts_with("worktree:") || id == "memory" || id.is_empty() {
            return None;
        }
        let mut h = DefaultHasher::new();
        for c in &self.0.change().changes {
            c.path.hash(&mut h);
            c.old_path().hash(&mut h);
            c.after.is_some().hash(&mut h);
            if slopguard_fingerprint::is_manifest(&c.path) {
                c.after.hash(&mut h);
            }
        }
        Some(format!("{id}+{:016x}", h.finish()))
    }
}

impl TreeView for AfterTree<'_, '_> {
    fn exists(&self, path: &str) -> bool {
        self.0.exists_after(path)
    }

    fn read_text(&self, path: &str) -> Option<String> {
        self.0
            .read_after(path)
            .and_then(|b| String::from_utf8(b).ok())
    }

    fn files_containing(&self, word: &str) -> Vec<String> {
        self.0
            .files_mentioning(&[word.to_string()])
            .into_iter()
            .collect()
    }
}

/// The fingerprint of the tree after the change: the context's, except over in-memory bases
/// (every such base has the id `memory`, so a cache keyed by base id could hand one tree's
/// fingerprint to another): those are computed here, uncached.
pub(crate) fn fingerprint(cx: &Context<'_>) -> Option<Fingerprint> {
    let id = cx.base().id();
    if id != "memory"
        && !id.is_empty()
        && let Some(fp) = cx.fingerprint()
    {
        return Some(fp.clone());
    }
    Some(slopguard_fingerprint::compute_from(&AfterTree(cx)))
}

/// "rust: clap, serde; npm: vitepress" (shortened), for feedback.
pub(crate) fn stack_summary(fp: &Fingerprint) -> String {
    let mut parts = Vec::new();
    for (eco, deps) in &fp.declared_deps {
        let mut list: Vec<&str> = deps.iter().map(String::as_str).take(12).collect();
        if deps.len() > 12 {
            list.push("...");
        }
        parts.push(format!("{eco}: {}", list.join(", ")));
    }
    if parts.is_empty() {
        "no declared dependencies".to_string()
    } else {
        parts.join("; ")
    }
}

impl Guard for ContentGrounding {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let docs: Vec<_> = cx
            .files()
            .iter()
            .filter(|f| {
                f.after_text().is_some() && slopguard_grounding::markdown::is_doc_path(f.path())
            })
            .collect();
        if docs.is_empty() {
            return;
        }
        let Some(fp) = fingerprint(cx) else { return };
        if fp.is_greenfield() {
            return;
        }
        for file in docs {
            let Some(after) = file.after_text() else {
                continue;
            };
            // A translation carries over what its original names, as a file carries over
            // what it named before.
            let original = content::translated_from(file.path())
                .and_then(|p| cx.read_after(&p))
                .and_then(|b| String::from_utf8(b).ok());
            let carried = match (file.before_text(), original) {
                (before, None) => before.map(str::to_owned),
                (None, Some(o)) => Some(o),
                (Some(b), Some(o)) => Some(format!("{b}\n\n{o}")),
            };
            for m in content::check(file.path(), carried.as_deref(), after, &fp) {
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("names {} (\"{}\"), which no manifest of this repository declares", m.name, m.matched),
                    )
                    .at(file.path(), Some(m.line), None)
                    .feedback(format!(
                        "{} line {}: the text claims the project uses {}, but the repository does not depend on it. \
                         Declared dependencies: {}. Describe only the stack the code actually uses; remove or \
                         correct the statements about {}.",
                        file.path(),
                        m.line,
                        m.name,
                        stack_summary(&fp),
                        m.name
                    ))
                    .data(serde_json::json!({"framework": m.framework, "matched": m.matched})),
                );
            }
        }
    }
}
