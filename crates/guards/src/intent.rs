//! Intent read from a commit's message, for the guards that judge a change against its task
//! (`replay --task-from-message`): what the message announces is the task's. An agent's task
//! never takes this path; it names the files it may touch.

use slopguard_change::Task;

use crate::FileView;

/// Words a commit message uses for a change that removes or rewrites most of a file.
pub(crate) const RESTRUCTURE_WORDS: &[&str] = &[
    "remove",
    "removed",
    "delete",
    "deleted",
    "rewrite",
    "replace",
    "refactor",
    "simplify",
    "trim",
    "drop",
    "clean",
    "cleanup",
    "shorten",
    "migrate",
    "split",
    "merge",
    "move",
    "rename",
    "reorganize",
    "revert",
    "regenerate",
    "consolidate",
    "prepare",
    "document",
];

/// Whether `file`'s change is one its commit message announces (a task from a message only:
/// an agent's task names the files it may touch). The message names one of `words`, a
/// distinctive word of the changed lines, or a word of the file's path (`lint.yml`: `lint`;
/// `crates/ignore/Cargo.toml`: `ignore`).
pub(crate) fn announced_by_message(task: &Task, file: &FileView<'_>, words: &[&str]) -> bool {
    if !task.from_commit_message {
        return false;
    }
    let changes = file.line_changes();
    let path_words = file.path().replace(['/', '.'], " ");
    let mut lines: Vec<&str> = changes
        .added
        .iter()
        .chain(&changes.removed)
        .map(|(_, l)| *l)
        .chain([path_words.as_str()])
        .collect();
    // The `[section]` a changed setting is in names its tool (`[tool.ruff.lint]`).
    lines.extend(sections_of(file.after_text().unwrap_or(""), &changes.added));
    lines.extend(sections_of(
        file.before_text().unwrap_or(""),
        &changes.removed,
    ));
    task.announces(&lines, words) || typo_fix_announced(task, file)
}

/// Words a commit message uses for a spelling fix.
const TYPO_WORDS: &[&str] = &[
    "typo",
    "typos",
    "spelling",
    "misspelling",
    "misspellings",
    "misspelled",
    "codespell",
    "wording",
    "grammar",
];

/// Whether the message says the commit fixes typos and the file's change only respells words
/// within lines: each changed line is replaced by one line of as many words, at most two of
/// them different, each by a spelling change (`worklow` -> `workflow` in a workflow's
/// comment): the same digits, at most two letters edited. A changed number or version is no
/// typo.
fn typo_fix_announced(task: &Task, file: &FileView<'_>) -> bool {
    let changes = file.line_changes();
    !changes.added.is_empty()
        && changes.added.len() == changes.removed.len()
        && task.announces(&[], TYPO_WORDS)
        && changes
            .removed
            .iter()
            .zip(&changes.added)
            .all(|((_, old), (_, new))| {
                let (a, b): (Vec<&str>, Vec<&str>) = (
                    old.split_whitespace().collect(),
                    new.split_whitespace().collect(),
                );
                let differ: Vec<(&&str, &&str)> =
                    a.iter().zip(&b).filter(|(x, y)| x != y).collect();
                a.len() == b.len()
                    && differ.len() <= 2
                    && differ.iter().all(|(x, y)| respelled(x, y))
            })
}

/// Whether `new` is `old` respelled: the same digits in the same order, and at most two
/// characters inserted, deleted or replaced.
fn respelled(old: &str, new: &str) -> bool {
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    if digits(old) != digits(new) {
        return false;
    }
    let (a, b): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    a.len().abs_diff(b.len()) <= 2 && slopguard_change::matcher::edit_distance(&a, &b) <= 2
}

/// The `[section]` headers (INI, TOML) the lines `at` (1-based, ascending) are under, in one
/// pass over `text`.
fn sections_of<'a>(text: &'a str, at: &[(u32, &str)]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut wanted = at.iter().map(|(n, _)| *n).peekable();
    let mut header = None;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        while wanted.next_if(|w| *w <= n).is_some() {
            out.extend(header);
        }
        if wanted.peek().is_none() {
            break;
        }
        if line.trim_start().starts_with('[') {
            header = Some(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::respelled;

    #[test]
    fn a_typo_fix_respells_words_and_keeps_numbers() {
        assert!(respelled("worklow", "workflow"));
        assert!(respelled("Deperecated", "Deprecated"));
        assert!(!respelled("8.4.dev", "8.4.1.dev"));
        assert!(!respelled("requests>=2.31", "requests>=2.32"));
        assert!(!respelled("test", "skip"));
    }
}
