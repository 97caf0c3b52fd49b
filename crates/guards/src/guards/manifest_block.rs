//! G1 manifest-block: build manifests and lockfiles change only when the task asks.

use crate::text::file_name;
use slopguard_lang::word_positions;

use crate::{Context, FileView, Finding, Guard, GuardInfo, Severity};

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
    "prerelease",
    // pre-commit.ci's `pre-commit autoupdate`.
    "autoupdate",
    // A security fix in a manifest or lockfile is a dependency update (`fix RUSTSEC-2026-0190`,
    // `update vendor to fix CVE`).
    "security",
    "advisory",
    "advisories",
    "cve",
    "rustsec",
    "vulnerability",
    "vulnerabilities",
    "audit",
];

/// Keys of manifests that name no package: a changed line that starts with one of them is
/// not a dependency the change's code could use.
const SETTING_KEYS: &[&str] = &[
    "version",
    "name",
    "edition",
    "rust-version",
    "description",
    "license",
    "authors",
    "features",
    "default",
    "dependencies",
    "require",
    "requires",
    "files",
    "include",
    "exclude",
    "readme",
    "homepage",
    "repository",
    "keywords",
    "categories",
    "resolver",
    "members",
    "scripts",
    "main",
    "type",
    "module",
    "engines",
    "node",
    "toolchain",
    "python",
    "dynamic",
    "classifiers",
    "optional",
    "path",
    "workspace",
];

/// The package a manifest or lockfile line names, if it names one: its leading token
/// (`tempfile = "3.23.0"`, `"depd": "^2.0.0"`, `github.com/modern-go/reflect2 v1.0.2`,
/// `"pytest>=3",`).
fn package_of_line(line: &str) -> Option<&str> {
    let t = line.trim().trim_start_matches(['"', '\'']);
    let end = t
        .find(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '=' | ':' | '"' | '\'' | '>' | '<' | '~' | '!' | '[' | ';' | ',' | '@' | '^'
                )
        })
        .unwrap_or(t.len());
    let name = &t[..end];
    (name.len() >= 3
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !SETTING_KEYS.contains(&name.to_ascii_lowercase().as_str()))
    .then_some(name)
}

/// Whether the change's own code uses a package the manifest's changed lines name (a commit
/// message as the task only): the dependency `depd` added where `lib/response.js` starts to
/// `require('depd')`, or dropped with the example that imported it. A reviewer reads the new
/// import and the line that declares it as one edit.
fn used_by_the_change(
    cx: &Context<'_>,
    task: &slopguard_change::Task,
    file: &FileView<'_>,
) -> bool {
    if !task.from_commit_message {
        return false;
    }
    let changes = file.line_changes();
    let packages: Vec<&str> = changes
        .added
        .iter()
        .chain(&changes.removed)
        .filter_map(|(_, l)| package_of_line(l))
        .collect();
    if packages.is_empty() {
        return false;
    }
    cx.files().iter().any(|f| {
        if manifest_ecosystem(f.path()).is_some()
            || !matches!(f.kind(), slopguard_lang::FileKind::Code(_))
        {
            return false;
        }
        let code = f.line_changes();
        code.added.iter().chain(&code.removed).any(|(_, l)| {
            packages.iter().any(|p| {
                word_positions(l, p).next().is_some()
                    || (p.contains('-') && word_positions(l, &p.replace('-', "_")).next().is_some())
            })
        })
    })
}

/// Whether every changed line of the manifest sets its own version (`version = "8.4.1.dev"`,
/// `"version": "15.0.0-0"`) and the commit message says it changes the version: a release or a
/// version fix, whatever the new string is.
fn version_only_edit_announced(task: &slopguard_change::Task, file: &FileView<'_>) -> bool {
    if !task.from_commit_message {
        return false;
    }
    let changes = file.line_changes();
    let is_version_line = |l: &str| {
        let t = l.trim().trim_start_matches('"');
        ["version\"", "version ", "version=", "__version__"]
            .iter()
            .any(|k| t.starts_with(k))
    };
    let lines: Vec<&str> = changes
        .added
        .iter()
        .chain(&changes.removed)
        .map(|(_, l)| *l)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let said = task.text().to_lowercase();
    !lines.is_empty()
        && lines.iter().all(|l| is_version_line(l))
        && ["version", "versions", "release", "prerelease"]
            .iter()
            .any(|w| word_positions(&said, w).next().is_some())
}

/// Whether the task explains this manifest edit: it names the file, its message announces the
/// edit, the change's code uses what the edit declares, or the edit only sets a version the
/// message says it changes.
fn explained(cx: &Context<'_>, task: &slopguard_change::Task, file: &FileView<'_>) -> bool {
    task.allows_manifest(file.path())
        || crate::intent::announced_by_message(task, file, MANIFEST_WORDS)
        || used_by_the_change(cx, task, file)
        || version_only_edit_announced(task, file)
        || removal_announced(task, file)
}

/// Whether the edit only removes (lines, or the whole manifest) and the message says the
/// commit removes, drops or migrates something (`remove unused config` over a deleted
/// `ignore-init-module-imports = true`; `Migrate build system to PEP 517` deleting setup.cfg).
fn removal_announced(task: &slopguard_change::Task, file: &FileView<'_>) -> bool {
    let changes = file.line_changes();
    task.from_commit_message
        && changes.added.iter().all(|(_, l)| l.trim().is_empty())
        && !changes.removed.is_empty()
        && task.announces(
            &[],
            &[
                "remove", "removed", "delete", "deleted", "drop", "unused", "migrate", "cleanup",
            ],
        )
}

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
            && explained(cx, task, f)
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
                Some(t) if explained(cx, t, file) => continue,
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
