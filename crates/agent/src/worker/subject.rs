//! The commit subject of a landed change, written from the change itself.
//!
//! A model's reply starts with whatever it likes (`files changed`, `Here is the fixed code:`,
//! a path), and the subtask's title names the failing tests rather than the fix. The subject
//! here says what changed, from the diff: the definition that holds the change and, when one
//! line was replaced, the line before and after (`` Fix `average`: `/ (n - 1)` -> `/ n` ``).

use slopguard_change::ChangeSet;

use super::context;

/// Longest subject, in characters (git's conventional limit).
const MAX_SUBJECT: usize = 72;

/// The subject line for `change`, or `None` when it changes no text file.
pub fn commit_subject(change: &ChangeSet) -> Option<String> {
    let mut parts: Vec<FilePart> = change.changes.iter().filter_map(file_part).collect();
    match parts.len() {
        0 => None,
        1 => {
            let p = parts.remove(0);
            let short = match (&p.definition, &p.one_line) {
                (Some(d), Some((old, new))) => format!("Fix `{d}`: `{old}` -> `{new}`"),
                (None, Some((old, new))) => format!("Fix {}: `{old}` -> `{new}`", p.path),
                _ => String::new(),
            };
            if !short.is_empty() && short.chars().count() <= MAX_SUBJECT {
                return Some(short);
            }
            Some(clip(&match &p.definition {
                Some(d) => format!("Fix `{d}` in {} ({})", p.path, lines(p.changed)),
                None => format!("Change {} ({})", p.path, lines(p.changed)),
            }))
        }
        _ => {
            let named: Vec<String> = parts
                .iter()
                .map(|p| match &p.definition {
                    Some(d) => format!("`{d}` in {}", p.path),
                    None => p.path.clone(),
                })
                .collect();
            Some(clip(&format!("Fix {}", named.join(", "))))
        }
    }
}

/// What one file's change is.
struct FilePart {
    path: String,
    /// The innermost definition holding every changed line, when one does.
    definition: Option<String>,
    /// The line before and after, when exactly one line was replaced.
    one_line: Option<(String, String)>,
    /// Lines removed plus lines added.
    changed: usize,
}

fn file_part(c: &slopguard_change::FileChange) -> Option<FilePart> {
    let after = c.after_text()?;
    let before = c.before_text().unwrap_or("");
    let diff = similar::TextDiff::from_lines(before, after);
    let mut removed = Vec::new();
    let mut added = Vec::new();
    // 1-based lines of the after text that changed (or where a removal happened).
    let mut touched: Vec<usize> = Vec::new();
    for op in diff.ops() {
        for change in diff.iter_changes(op) {
            match change.tag() {
                similar::ChangeTag::Delete => {
                    removed.push(change.value().trim().to_string());
                    touched.push(op.new_range().start + 1);
                }
                similar::ChangeTag::Insert => {
                    added.push(change.value().trim().to_string());
                    touched.push(change.new_index().map_or(op.new_range().start, |i| i) + 1);
                }
                similar::ChangeTag::Equal => {}
            }
        }
    }
    if touched.is_empty() {
        return None;
    }
    let (lo, hi) = (
        *touched.iter().min().unwrap_or(&1),
        *touched.iter().max().unwrap_or(&1),
    );
    let definition = context::definitions(&c.path, after)
        .into_iter()
        .filter(|d| (d.start_line as usize) <= lo && hi <= d.end_line as usize)
        .min_by_key(|d| d.end_line - d.start_line)
        .map(|d| d.name);
    let one_line = match (removed.as_slice(), added.as_slice()) {
        ([old], [new]) => Some((old.clone(), new.clone())),
        _ => None,
    };
    Some(FilePart {
        path: c.path.clone(),
        definition,
        one_line,
        changed: removed.len() + added.len(),
    })
}

fn lines(n: usize) -> String {
    format!("{n} line{} changed", if n == 1 { "" } else { "s" })
}

fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_SUBJECT {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_SUBJECT - 3).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use slopguard_change::FileChange;

    use super::*;

    fn change(files: &[(&str, &str, &str)]) -> ChangeSet {
        ChangeSet::new(
            std::sync::Arc::new(slopguard_change::MemTree::new(Default::default())),
            files
                .iter()
                .map(|(p, b, a)| FileChange::modify(*p, *b, *a))
                .collect(),
            "test",
        )
    }

    const STATS: &str = "def average(xs):\n    n = len(xs)\n    return sum(xs) / (n - 1)\n\n\ndef total(xs):\n    return sum(xs)\n";

    #[test]
    fn one_line_in_one_definition_is_named_with_the_line_before_and_after() {
        let c = change(&[("stats.py", STATS, &STATS.replace("(n - 1)", "n"))]);
        assert_eq!(
            commit_subject(&c).unwrap(),
            "Fix `average`: `return sum(xs) / (n - 1)` -> `return sum(xs) / n`"
        );
    }

    #[test]
    fn several_lines_or_files_are_counted_and_named() {
        let after = STATS.replace(
            "    n = len(xs)\n",
            "    n = len(xs)\n    if n == 0:\n        return 0.0\n",
        );
        let c = change(&[("stats.py", STATS, &after)]);
        assert_eq!(
            commit_subject(&c).unwrap(),
            "Fix `average` in stats.py (2 lines changed)"
        );
        let c = change(&[("stats.py", STATS, &after), ("b.py", "x = 1\n", "x = 2\n")]);
        assert_eq!(
            commit_subject(&c).unwrap(),
            "Fix `average` in stats.py, b.py"
        );
    }

    #[test]
    fn a_long_line_falls_back_to_the_count_and_nothing_changed_is_none() {
        let long = format!("def f():\n    return {}\n", "x".repeat(80));
        let c = change(&[("m.py", &long, &long.replace("return x", "return y"))]);
        assert_eq!(
            commit_subject(&c).unwrap(),
            "Fix `f` in m.py (2 lines changed)"
        );
        let c = change(&[("m.py", STATS, STATS)]);
        assert_eq!(commit_subject(&c), None);
    }
}
