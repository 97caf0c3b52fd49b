//! G1 manifest-block: build manifests and lockfiles change only when the task asks.

use crate::text::file_name;
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The manifest-block guard.
pub struct ManifestBlock;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "manifest-block",
    code: Some("G1"),
    summary: "edits to build manifests and lockfiles the task did not ask for (always in compile-fix mode)",
    doc: include_str!("../../docs/manifest-block.md"),
    default_enabled: true,
    failure_mode: "manifest_block",
    trace_event: "critic_manifest_block.fail",
};

/// Whether `path` is a build manifest or lockfile, and of which ecosystem.
pub fn manifest_ecosystem(path: &str) -> Option<&'static str> {
    let name = file_name(path);
    let lower = name.to_ascii_lowercase();
    Some(match name {
        "Cargo.toml" | "Cargo.lock" => "cargo",
        "package.json"
        | "package-lock.json"
        | "npm-shrinkwrap.json"
        | "yarn.lock"
        | "pnpm-lock.yaml"
        | "pnpm-workspace.yaml"
        | "bun.lockb"
        | "bun.lock" => "npm",
        "pyproject.toml" | "setup.py" | "setup.cfg" | "Pipfile" | "Pipfile.lock"
        | "poetry.lock" | "uv.lock" | "pdm.lock" => "python",
        "go.mod" | "go.sum" | "go.work" | "go.work.sum" => "go",
        "Gemfile" | "Gemfile.lock" => "bundler",
        "pom.xml" => "maven",
        "build.gradle"
        | "build.gradle.kts"
        | "settings.gradle"
        | "settings.gradle.kts"
        | "gradle.lockfile" => "gradle",
        _ if lower.starts_with("requirements")
            && (lower.ends_with(".txt") || lower.ends_with(".in")) =>
        {
            "python"
        }
        _ if lower.ends_with(".gemspec") => "bundler",
        _ if path.ends_with("gradle/libs.versions.toml") => "gradle",
        _ => return None,
    })
}

fn past_tense(kind: &slopguard_change::ChangeKind) -> &'static str {
    match kind {
        slopguard_change::ChangeKind::Create => "created",
        slopguard_change::ChangeKind::Modify => "modified",
        slopguard_change::ChangeKind::Delete => "deleted",
        slopguard_change::ChangeKind::Rename { .. } => "renamed",
    }
}

/// Words a commit message uses for a change to a manifest: dependencies, versions, packaging.
const MANIFEST_WORDS: &[&str] = &[
    "bump",
    "bumps",
    "bumped",
    "upgrade",
    "downgrade",
    "pin",
    "unpin",
    "dependency",
    "dependencies",
    "deps",
    "dep",
    "requirement",
    "requirements",
    "packaging",
    "release",
    "metadata",
    "classifiers",
    "classifier",
    "lockfile",
    "lock",
];

/// Whether `path` is a lockfile (written by the tool from the manifest, not by hand).
fn is_lockfile(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".lock")
        || name.ends_with(".lockb")
        || name.ends_with("-lock.json")
        || name.ends_with("-lock.yaml")
        || name == "go.sum"
        || name.ends_with(".lockfile")
}

/// Whether the change also edits a manifest of the same ecosystem that its commit message
/// announces (a task from a message only).
fn lock_follows_announced_manifest(
    cx: &Context<'_>,
    task: &slopguard_change::Task,
    eco: &str,
) -> bool {
    cx.files().iter().any(|f| {
        !is_lockfile(f.path())
            && manifest_ecosystem(f.path()) == Some(eco)
            && (task.allows_manifest(f.path())
                || crate::intent::announced_by_message(task, f, MANIFEST_WORDS))
    })
}

impl Guard for ManifestBlock {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            let path = file.path();
            let Some(eco) =
                manifest_ecosystem(path).or_else(|| manifest_ecosystem(file.change().old_path()))
            else {
                continue;
            };
            let (severity, why) = match cx.task() {
                Some(t) if t.compile_fix => {
                    (Severity::Block, "compile-fix mode never edits manifests")
                }
                Some(t) if t.allows_manifest(path) => continue,
                Some(t) if crate::intent::announced_by_message(t, file, MANIFEST_WORDS) => {
                    continue;
                }
                // A lockfile follows its manifest: announced with it.
                Some(t) if is_lockfile(path) && lock_follows_announced_manifest(cx, t, eco) => {
                    continue;
                }
                Some(_) => (Severity::Block, "the task's file hints do not name it"),
                None => (Severity::Warn, "no task names it (give --task to decide)"),
            };
            out.push(
                Finding::new(&INFO, severity, format!("{eco} manifest `{path}` was {}: {why}", past_tense(&file.change().kind)))
                    .at(path, None, None)
                    .feedback(format!(
                        "Do not touch `{path}`: build manifests and lockfiles are out of scope for this task. Revert your change to it and fix the code instead."
                    ))
                    .data(serde_json::json!({"ecosystem": eco})),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_manifests() {
        for p in [
            "Cargo.toml",
            "a/b/package.json",
            "requirements-dev.txt",
            "go.sum",
            "x.gemspec",
            "pom.xml",
            "build.gradle.kts",
            "uv.lock",
        ] {
            assert!(manifest_ecosystem(p).is_some(), "{p}");
        }
        for p in [
            "src/main.rs",
            "cargo.md",
            "requirements.md",
            "docs/package.json.md",
        ] {
            assert!(manifest_ecosystem(p).is_none(), "{p}");
        }
    }
}
