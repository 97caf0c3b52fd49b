//! The task a change was made for: intent-dependent guards (manifest edits, scratch files,
//! large deletions) judge a change against it.

use std::path::Path;

use serde::Deserialize;

use crate::ChangeError;

/// What the change was asked to do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Task {
    pub title: String,
    pub description: String,
    /// Files the task names; a manifest named here may be edited.
    pub file_hints: Vec<String>,
    /// Manifest file names (or paths) the task explicitly allows editing.
    pub allowed_manifests: Vec<String>,
    /// Compile-fix mode: manifests are never allowed, whatever the hints say.
    pub compile_fix: bool,
    /// The task is a commit's message (`replay --task-from-message`): its author made the
    /// change and said what it is for in words, not file hints. What such a message announces
    /// ([`Task::announces`]: a CI change, a dependency bump, a tool's settings) is the task's.
    #[serde(skip)]
    pub from_commit_message: bool,
}

impl Task {
    /// A task from free text (`--task "..."`): the text is the title; file hints are the
    /// path-like words it contains (`src/db.py`, `Cargo.toml`).
    pub fn from_text(text: &str) -> Task {
        Task {
            title: text.trim().to_string(),
            file_hints: path_like_words(text),
            ..Task::default()
        }
    }

    /// The task a commit's message states (`replay --task-from-message`).
    pub fn from_commit_message(message: &str) -> Task {
        Task {
            from_commit_message: true,
            ..Task::from_text(message)
        }
    }

    /// Whether the task's text announces a change whose changed lines are `changed`: it
    /// names, as a whole word, a distinctive word of those lines (a package, an action, a
    /// tool, a setting, a version: `Bump actions/checkout from 6.0.2 to 7.0.0` announces
    /// `uses: actions/checkout@v7.0.0`), or one of `words` (the kind of change: `CI`,
    /// `workflow`, `bump`, `dependency`).
    pub fn announces(&self, changed: &[&str], words: &[&str]) -> bool {
        let said: std::collections::BTreeSet<String> = distinctive_words(&self.text()).collect();
        words.iter().any(|w| said.contains(&w.to_ascii_lowercase()))
            || changed
                .iter()
                .flat_map(|line| distinctive_words(line))
                .any(|w| said.contains(&w))
    }

    /// A task from a file: TOML or JSON with the fields of [`Task`], or any other text, read
    /// as free text (first line the title, the rest the description).
    pub fn from_file(path: &Path) -> Result<Task, ChangeError> {
        let text = std::fs::read_to_string(path).map_err(|e| ChangeError::io(path, e))?;
        let invalid = |reason: String| ChangeError::InvalidTask {
            path: path.to_path_buf(),
            reason,
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let mut task = match ext {
            "toml" => toml::from_str::<Task>(&text).map_err(|e| invalid(e.to_string()))?,
            "json" => serde_json::from_str::<Task>(&text).map_err(|e| invalid(e.to_string()))?,
            _ => {
                let mut lines = text.lines();
                let title = lines.next().unwrap_or("").trim_start_matches('#').trim();
                let description = lines.collect::<Vec<_>>().join("\n");
                Task {
                    title: title.to_string(),
                    description: description.trim().to_string(),
                    file_hints: path_like_words(&text),
                    ..Task::default()
                }
            }
        };
        // An empty task would make every intent-dependent guard block (nothing was asked
        // for), so it is refused rather than judged against.
        if task.title.trim().is_empty() && task.description.trim().is_empty() {
            return Err(invalid(format!(
                "{}: expected {}",
                if text.trim().is_empty() {
                    "the file is empty"
                } else {
                    "no `title` or `description`"
                },
                match ext {
                    "toml" | "json" =>
                        "`title` (and optionally `description`, `file_hints`, \
                        `allowed_manifests`, `compile_fix`)",
                    _ =>
                        "plain text whose first line is the title (or a .toml / .json file \
                        with `title`, `description`, `file_hints`, `allowed_manifests`)",
                }
            )));
        }
        if task.file_hints.is_empty() {
            task.file_hints = path_like_words(&format!("{} {}", task.title, task.description));
        }
        Ok(task)
    }

    /// The task's whole text, lower-cased, for "does the task mention X" questions.
    pub fn text(&self) -> String {
        format!("{}\n{}", self.title, self.description)
    }

    /// Whether the task names `path` (exactly, by file name, or as a directory prefix).
    pub fn hints_path(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        self.file_hints.iter().any(|hint| {
            let hint = hint.trim_start_matches("./");
            hint == path
                || hint == name
                || (hint.ends_with('/') && path.starts_with(hint))
                || path.starts_with(&format!("{hint}/"))
        })
    }

    /// Whether the task allows editing the manifest at `path`.
    pub fn allows_manifest(&self, path: &str) -> bool {
        if self.compile_fix {
            return false;
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        self.allowed_manifests
            .iter()
            .any(|m| m == path || m == name)
            || self.hints_path(path)
    }

    /// Whether the task's text mentions `word` as a whole word (case-sensitive).
    pub fn mentions(&self, word: &str) -> bool {
        let text = self.text();
        text.match_indices(word).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
        })
    }
}

/// The lower-cased words of `text` that can tell one change from another: runs of letters,
/// digits, `.`, `-` and `_` (so `6.0.2`, `setup-python` and `pre-commit` stay whole, and a
/// path or an action splits at `/` and `@`), and their `-`/`_` parts (`ignore-0.4.33` also
/// gives `ignore` and `0.4.33`), without surrounding dots and dashes, of two characters or
/// more and not a common word of English or of configuration files.
fn distinctive_words(text: &str) -> impl Iterator<Item = String> + '_ {
    const COMMON: &[&str] = &[
        "the",
        "and",
        "for",
        "from",
        "with",
        "into",
        "this",
        "that",
        "not",
        "are",
        "was",
        "all",
        "any",
        "add",
        "use",
        "fix",
        "set",
        "get",
        "new",
        "old",
        "now",
        "via",
        "its",
        "has",
        "but",
        "can",
        "one",
        "two",
        "more",
        "some",
        "when",
        "then",
        "than",
        "also",
        "true",
        "false",
        "none",
        "null",
        "yes",
        "off",
        "name",
        "version",
        "description",
        "default",
        "type",
        "value",
        "key",
        "run",
        "runs",
        "uses",
        "steps",
        "step",
        "on",
        "if",
        "in",
        "to",
        "of",
        "or",
        "is",
        "it",
        "be",
        "by",
        "as",
        "at",
        "an",
        "no",
        "latest",
        "main",
        "master",
        "file",
        "files",
        "update",
        "updates",
        "change",
        "changes",
    ];
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_')))
        .flat_map(|whole| {
            // `pre-commit` and `ignore-0.4.33` split at `-` and `_`; `node.js` and
            // `tool.codespell` at dots too; a version keeps its dots but loses a trailing tag
            // (`8.4.2.dev` also gives `8.4.2`).
            let mut words = vec![whole];
            for part in whole.split(['-', '_']) {
                if part != whole {
                    words.push(part);
                }
                // `v14.0.0` names the version `14.0.0`, `py3.14` the version `3.14`.
                let bare = part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                if bare.len() < part.len()
                    && bare.starts_with(|c: char| c.is_ascii_digit())
                    && bare.contains('.')
                {
                    words.push(bare);
                }
                if part.contains('.') && part.chars().any(char::is_alphabetic) {
                    words.extend(part.split('.'));
                    if let Some((head, tag)) = part.rsplit_once('.')
                        && tag.chars().all(char::is_alphabetic)
                        && head.starts_with(|c: char| c.is_ascii_digit())
                    {
                        words.push(head);
                    }
                }
            }
            words
        })
        .map(|w| {
            w.trim_matches(|c| matches!(c, '.' | '-' | '_'))
                .to_lowercase()
        })
        .filter(|w| w.chars().count() >= 2 && !COMMON.contains(&w.as_str()))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Words that look like file paths: contain a `/` or end in a dotted extension of 1-5
/// alphanumerics, or are a well-known extension-less file name.
fn path_like_words(text: &str) -> Vec<String> {
    const BARE_NAMES: [&str; 6] = [
        "Makefile",
        "Dockerfile",
        "Gemfile",
        "Rakefile",
        "README",
        "LICENSE",
    ];
    let mut out: Vec<String> = Vec::new();
    for raw in text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\''))
    {
        let word = raw.trim_end_matches([':', '.', '!', '?']);
        if word.is_empty() || word.contains("://") || word.starts_with('-') {
            continue;
        }
        let name = word.rsplit('/').next().unwrap_or(word);
        let has_ext = name.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (stem.len() > 1 || ext.len() > 1)
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        });
        let looks_like_path = (word.contains('/') && word.len() > 1) || has_ext;
        if (looks_like_path || BARE_NAMES.contains(&word)) && !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_message_announces_what_the_changed_lines_name() {
        let bump = Task::from_commit_message("Bump actions/checkout from 6.0.2 to 7.0.0");
        assert!(bump.from_commit_message);
        assert!(bump.announces(&["      - uses: actions/checkout@v7.0.0"], &[]));
        let release = Task::from_commit_message("ignore-0.4.33");
        assert!(release.announces(&["version = \"0.4.33\""], &[]));
        let prepare = Task::from_commit_message("Preparing for Commander v14.0.0 (#2366)");
        assert!(prepare.announces(&["  \"version\": \"14.0.0\","], &[]));
        let py = Task::from_commit_message("Add python 3.14 to test suite.");
        assert!(py.announces(&["    \"py3.14\", \"py3.13\", \"py3.12\","], &[]));
        let start = Task::from_commit_message("start version 3.1.3");
        assert!(start.announces(&["version = \"3.1.3.dev\""], &[]));
        let codespell = Task::from_commit_message("pre-commit: Add codespell");
        assert!(codespell.announces(&["[tool.codespell]"], &[]));
        // Common words of English and of config files announce nothing.
        let fix = Task::from_commit_message("Fix the name of the default value");
        assert!(!fix.announces(&["name = \"shop\"", "default = true", "version = 2"], &[]));
        assert!(!fix.announces(&["requests>=2.32"], &["bump"]));
        // The kind of change, named in the message.
        assert!(Task::from_commit_message("Add 3.14t support to CI").announces(&[], &["ci"]));
        // A task that is not a commit message is not one.
        assert!(!Task::from_text("Bump requests").from_commit_message);
    }

    #[test]
    fn text_task_extracts_hints() {
        let t = Task::from_text("Fix the SQL injection in src/db.py; also bump Cargo.toml.");
        assert_eq!(t.file_hints, vec!["src/db.py", "Cargo.toml"]);
        assert!(t.allows_manifest("Cargo.toml"));
        assert!(!t.allows_manifest("package.json"));
        assert!(t.hints_path("src/db.py"));
        assert!(!t.hints_path("src/other.py"));
    }

    #[test]
    fn prose_is_not_a_path() {
        let t = Task::from_text("Refactor e.g. the parser, v1.2 is out. See https://x.io/a.md");
        assert!(t.file_hints.is_empty(), "{:?}", t.file_hints);
    }

    #[test]
    fn compile_fix_never_allows_manifests() {
        let t = Task {
            allowed_manifests: vec!["Cargo.toml".into()],
            compile_fix: true,
            ..Task::default()
        };
        assert!(!t.allows_manifest("Cargo.toml"));
    }

    #[test]
    fn mentions_whole_words_only() {
        let t = Task::from_text("Remove the legacy_parse helper");
        assert!(t.mentions("legacy_parse"));
        assert!(!t.mentions("parse"));
    }
}
