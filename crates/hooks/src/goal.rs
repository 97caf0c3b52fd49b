//! Goal files: acceptance criteria, each with the command or test pattern that proves it.
//!
//! The file is `.slopguard/goal.toml` at the repository root (another path with
//! `hooks.goal_file` in `slopguard.toml`):
//!
//! ```toml
//! goal = "The parser accepts empty input"
//!
//! [[criteria]]
//! id = "empty-input"
//! description = "parse(\"\") returns an empty document"
//! test = "parser::tests::empty_input"   # a passing test whose name contains this
//!
//! [[criteria]]
//! id = "lints"
//! command = "cargo clippy"              # a successful validation whose command contains this
//! ```
//!
//! A criterion is covered by an evidence entry that succeeded on the current tree and matches:
//! with `command`, the entry's command line contains the text (whitespace-normalised); with
//! `test`, a test whose name contains the pattern is reported as passed, or the entry's command
//! names the pattern (a filtered run) and passed at least one test. With both, both must hold.

use std::path::Path;

use crate::state::Evidence;

/// The default goal file, relative to the repository root.
pub const DEFAULT_GOAL_FILE: &str = ".slopguard/goal.toml";

/// The session's task, relative to the repository root: the same TOML as `slopguard check
/// --task-file` (title, description, file_hints, allowed_manifests). When it exists, every edit
/// is judged against it, so the intent-dependent guards (manifest edits, scratch files, large
/// deletions, test files touched) block instead of warning.
pub const TASK_FILE: &str = ".slopguard/task.toml";

/// A parsed goal file.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub struct Goal {
    /// What the session is for (free text).
    #[serde(default)]
    pub goal: Option<String>,
    /// The acceptance criteria.
    #[serde(default, alias = "criterion")]
    pub criteria: Vec<Criterion>,
}

/// One acceptance criterion.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Criterion {
    /// Short stable name, used in messages.
    pub id: String,
    /// What it means, for the model.
    #[serde(default)]
    pub description: Option<String>,
    /// A command (or part of one) whose success proves the criterion.
    #[serde(default)]
    pub command: Option<String>,
    /// A test name pattern (substring) whose passing proves the criterion.
    #[serde(default)]
    pub test: Option<String>,
}

/// Why a goal file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum GoalError {
    /// Reading failed.
    #[error("cannot read goal file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not valid TOML or wrong shape.
    #[error("invalid goal file {path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// The parser's message.
        message: String,
    },
}

impl Goal {
    /// Parses goal TOML; every criterion needs an id and a `command` or a `test`.
    pub fn parse(text: &str, path: &str) -> Result<Goal, GoalError> {
        let goal: Goal = toml::from_str(text).map_err(|e| GoalError::Invalid {
            path: path.to_string(),
            message: e.to_string(),
        })?;
        // A goal file without criteria would let every stop through while looking like a
        // goal was set: say so instead.
        if goal.criteria.is_empty() {
            return Err(GoalError::Invalid {
                path: path.to_string(),
                message: "no acceptance criteria: expected `[[criteria]]` tables, each with an \
                          `id` and a `command` or a `test` that proves it"
                    .into(),
            });
        }
        for c in &goal.criteria {
            if c.id.trim().is_empty() {
                return Err(GoalError::Invalid {
                    path: path.to_string(),
                    message: "a criterion has an empty id".into(),
                });
            }
            let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
            if blank(&c.command) && blank(&c.test) {
                return Err(GoalError::Invalid {
                    path: path.to_string(),
                    message: format!(
                        "criterion '{}' needs a `command` or a `test` that proves it",
                        c.id
                    ),
                });
            }
        }
        Ok(goal)
    }

    /// Loads the goal file; `Ok(None)` when it does not exist.
    pub fn load(path: &Path) -> Result<Option<Goal>, GoalError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Goal::parse(&text, &path.display().to_string()).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(GoalError::Read {
                path: path.display().to_string(),
                source,
            }),
        }
    }
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Criterion {
    /// Does this (successful, fresh) evidence entry prove the criterion?
    pub fn covered_by(&self, e: &Evidence) -> bool {
        let command = normalise(&e.command);
        let command_ok = self
            .command
            .as_deref()
            .is_none_or(|c| command.contains(&normalise(c)));
        let test_ok = self.test.as_deref().is_none_or(|pat| {
            let pat = pat.trim();
            e.passed_tests.iter().any(|t| t.contains(pat))
                || (command.contains(pat) && e.counts.is_some_and(|c| c.passed > 0))
        });
        command_ok && test_ok
    }

    /// One line for a message: id, description and what proves it.
    pub fn describe(&self) -> String {
        let mut s = format!("`{}`", self.id);
        if let Some(d) = &self.description {
            s.push_str(&format!(" ({d})"));
        }
        match (&self.command, &self.test) {
            (Some(c), Some(t)) => s.push_str(&format!(": run `{c}` with test `{t}` passing")),
            (Some(c), None) => s.push_str(&format!(": run `{c}` successfully")),
            (None, Some(t)) => s.push_str(&format!(": a passing test matching `{t}`")),
            (None, None) => {}
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_goal_needs_criteria() {
        for text in ["", "goal = \"Ship it\"\n"] {
            let e = Goal::parse(text, ".slopguard/goal.toml").unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains(".slopguard/goal.toml"), "{msg}");
            assert!(
                msg.contains("no acceptance criteria: expected `[[criteria]]`"),
                "{msg}"
            );
        }
        let g = Goal::parse("[[criteria]]\nid = \"t\"\ncommand = \"cargo test\"\n", "g").unwrap();
        assert_eq!(g.criteria.len(), 1);
    }
}
