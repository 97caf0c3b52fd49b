//! A critic's revision meets exactly the checks a worker patch meets: the reply becomes a
//! change over the branch head (the worker's reply formats and matcher chain), every static
//! guard judges it in memory, then it is written and the dynamic gates (build, test
//! regression, test count) run on it. A refusal reverts it byte for byte; a revision that
//! passed is committed only when `accept` agrees (the judge, for the refiner).

use std::sync::Arc;

use slopguard_change::{Tree, WorkTree};
use slopguard_toolchain::TestRun;

use super::CriticsError;
use super::{RevisionOutcome, Workspace};
use crate::dynamic;
use slopguard_worker::{self as worker, prompt};

/// What a revision did, and the tests it left behind when it was kept (the run's baseline
/// advances to them).
pub struct Revised {
    /// Kept or reverted, with the reason.
    pub outcome: RevisionOutcome,
    /// The test run on the kept revision.
    pub tests: Option<TestRun>,
}

impl Revised {
    fn reverted(reason: impl Into<String>) -> Self {
        Self {
            outcome: RevisionOutcome::Reverted {
                reason: reason.into(),
            },
            tests: None,
        }
    }
}

/// Whether a file change keeps every non-whitespace character in order (re-indented,
/// re-wrapped): measured live, the 1.5B refiner re-indented a function and the judge preferred
/// it; such a revision is refused before any gate runs.
fn same_without_whitespace(c: &slopguard_change::FileChange) -> bool {
    let squeeze = |b: Option<&[u8]>| -> Option<Vec<u8>> {
        b.map(|b| {
            b.iter()
                .copied()
                .filter(|c| !c.is_ascii_whitespace())
                .collect()
        })
    };
    match (squeeze(c.before.as_deref()), squeeze(c.after.as_deref())) {
        (Some(before), Some(after)) => before == after,
        _ => false,
    }
}

/// The revision's commit title: the reply's first line when it reads like one (not a diff
/// header, a fence or a file path), else a plain default.
fn commit_title(message: Option<&str>, files: &[String]) -> String {
    let line = message.unwrap_or("").lines().next().unwrap_or("").trim();
    let looks_like_code = ["diff ", "--- ", "+++ ", "@@", "```", "<<<<<<<"]
        .iter()
        .any(|p| line.starts_with(p))
        || files.iter().any(|f| line == f)
        || !line.contains(' ');
    if line.is_empty() || looks_like_code {
        "revise the change".into()
    } else {
        line.chars().take(100).collect()
    }
}

/// The worker prompt a revision is read against: the files of the branch's change, each
/// shown in full and rewritable whole or by SEARCH/REPLACE blocks.
pub fn prompt_for(files: &[String]) -> prompt::WorkerPrompt {
    prompt::WorkerPrompt {
        messages: Vec::new(),
        files: files
            .iter()
            .map(|f| (f.clone(), prompt::Presented::Full { whole: true }))
            .collect(),
        function: None,
        target: None,
        line: None,
        reply_tokens: None,
        tried: Vec::new(),
    }
}

/// Tries `reply` as a revision of `files` by `critic`: static guards, then write, build and
/// tests, then `accept` on the revision's diff; committed when all agree, reverted otherwise.
pub fn try_revision(
    ws: &Workspace<'_>,
    critic: &str,
    reply: &str,
    files: &[String],
    accept: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<Revised, CriticsError> {
    let tree: Arc<dyn Tree> = Arc::new(WorkTree::new(ws.worktree));
    let applied = match worker::change_from_reply(tree, reply, &prompt_for(files)) {
        Ok(a) if !a.change.changes.is_empty() => a,
        Ok(_) => return Ok(Revised::reverted("the revision changes nothing")),
        Err(e) => {
            return Ok(Revised::reverted(format!(
                "the revision cannot be applied: {e}"
            )));
        }
    };
    if applied.change.changes.iter().all(same_without_whitespace) {
        return Ok(Revised::reverted(
            "the revision changes only whitespace or indentation: nothing worth a commit",
        ));
    }
    let task = slopguard_change::Task {
        title: format!("{critic}: revise the change for: {}", ws.task),
        description: String::new(),
        file_hints: files.to_vec(),
        allowed_manifests: Vec::new(),
        compile_fix: false,
        from_commit_message: false,
    };
    let report = worker::static_guards(&applied.change, &task, ws.guards, ws.fingerprint);
    if report.blocked() {
        return Ok(Revised::reverted(format!(
            "the static guards blocked it:\n{}",
            report.feedback().trim()
        )));
    }
    let written = dynamic::write_change(ws.worktree, &applied.change)?;
    let dynr = dynamic::run_dynamic(ws.worktree, ws.baseline, ws.dynamic);
    if dynr.blocked() {
        written.revert()?;
        return Ok(Revised::reverted(format!(
            "the dynamic gates blocked it:\n{}",
            dynr.feedback().trim()
        )));
    }
    let diff = crate::git::git(ws.worktree, &["diff", "--no-color", "HEAD"]).unwrap_or_default();
    if let Err(reason) = accept(&diff) {
        written.revert()?;
        return Ok(Revised::reverted(reason));
    }
    let paths = written.paths();
    let message = format!(
        "{critic}: {}\n\nA critic's revision of this branch; it passed every static guard, the \
         build and the tests.\nSlopguard-Critic: {critic}",
        commit_title(applied.change.message.as_deref(), files)
    );
    match crate::git::commit_paths(ws.worktree, &paths, &message) {
        Ok(commit) => Ok(Revised {
            outcome: RevisionOutcome::Kept {
                commit,
                files: paths,
            },
            tests: dynr.tests,
        }),
        Err(e) => {
            written.revert()?;
            Ok(Revised::reverted(format!("the commit failed: {e}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::FileChange;

    #[test]
    fn re_indentation_is_no_revision_and_titles_are_prose() {
        let reindent = FileChange::modify(
            "a.py",
            "def f():\n    return 1\n",
            "def f():\n   return 1\n",
        );
        assert!(same_without_whitespace(&reindent));
        let real = FileChange::modify(
            "a.py",
            "def f():\n    return 1\n",
            "def f():\n    return 2\n",
        );
        assert!(!same_without_whitespace(&real));
        let files = ["calc/stats.py".to_string()];
        assert_eq!(
            commit_title(Some("diff --git a/calc/stats.py b/calc/stats.py"), &files),
            "revise the change"
        );
        assert_eq!(
            commit_title(Some("calc/stats.py"), &files),
            "revise the change"
        );
        assert_eq!(
            commit_title(Some("Guard spread against NaN"), &files),
            "Guard spread against NaN"
        );
    }
}
