//! The commit subject of a landed change, written from the change itself.
//!
//! A model's reply starts with whatever it likes (`files changed`, `Here is the fixed code:`,
//! a path, a diagnosis), and the subtask's title names the failing tests rather than the fix.
//! The model's line is kept only when it has a subject's form (`scope: what` or an imperative
//! verb first, within 72 characters) and names the change (four words or more, one of them a
//! name or word of the changed lines, the changed definitions or the file);
//! otherwise the subject says what changed, from the diff: the definition that holds the
//! change and, when one line was replaced, the line before and after
//! (`` Fix `average`: `/ (n - 1)` -> `/ n` ``; of a line too long for that, the tokens
//! that changed in it), or the one line added or removed
//! (`` Add `xs = sorted(xs)` to `median` ``).

use slopguard_change::ChangeSet;

use super::context;

/// Longest subject, in characters (git's conventional limit).
const MAX_SUBJECT: usize = 72;

/// The subject line for `change`: `model_line` (the reply's first line) when it names the
/// change, else one written from the diff; `None` when the change touches no text file.
pub fn commit_subject(change: &ChangeSet, model_line: Option<&str>) -> Option<String> {
    let parts: Vec<FilePart> = change.changes.iter().filter_map(file_part).collect();
    if parts.is_empty() {
        return None;
    }
    if let Some(line) = model_line
        .map(str::trim)
        .filter(|l| reads_as_a_subject(l) && names_the_change(l, &parts))
    {
        return Some(line.to_string());
    }
    derived_subject(parts)
}

/// Verbs a subject in the imperative starts with (`Use a placeholder in find_user`).
const SUBJECT_VERBS: &[&str] = &[
    "add",
    "adjust",
    "allow",
    "apply",
    "avoid",
    "bound",
    "call",
    "cap",
    "change",
    "check",
    "clamp",
    "compare",
    "compute",
    "convert",
    "correct",
    "count",
    "decode",
    "divide",
    "drop",
    "encode",
    "ensure",
    "escape",
    "exclude",
    "fix",
    "guard",
    "handle",
    "ignore",
    "include",
    "keep",
    "limit",
    "make",
    "merge",
    "move",
    "negate",
    "normalize",
    "pass",
    "parse",
    "prevent",
    "quote",
    "read",
    "reject",
    "remove",
    "rename",
    "replace",
    "reset",
    "restore",
    "return",
    "reverse",
    "round",
    "skip",
    "sort",
    "split",
    "stop",
    "strip",
    "swap",
    "treat",
    "trim",
    "update",
    "use",
    "validate",
    "write",
];

/// Whether a model's line has the form of a commit subject: it fits the subject's length
/// without clipping, and it is either `scope: what` / `type(scope): what` or starts with a
/// verb in the imperative. A diagnosis ("The tests fail because the query ...") or a
/// greeting is not a subject, whatever names it mentions.
fn reads_as_a_subject(line: &str) -> bool {
    if line.chars().count() > MAX_SUBJECT || line.ends_with("...") || line.ends_with(':') {
        return false;
    }
    let first = line.split_whitespace().next().unwrap_or("");
    let scoped = first.len() > 1
        && first.ends_with(':')
        && first[..first.len() - 1]
            .chars()
            .all(|c| c.is_alphanumeric() || "()-_/.!".contains(c));
    let verb = first
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    scoped || SUBJECT_VERBS.contains(&verb.as_str())
}

/// Whether a model's line reads as a subject naming the change: four words or more, not a
/// fence or a path, and one of its words (three letters or more) a word of the changed lines,
/// a changed definition's name or the file's stem.
fn names_the_change(line: &str, parts: &[FilePart]) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_lowercase)
            .collect()
    };
    if line.split_whitespace().count() < 4 || line.starts_with("```") || line.contains("```") {
        return false;
    }
    let mut known: Vec<String> = Vec::new();
    for p in parts {
        known.extend(p.words.iter().cloned());
        known.extend(p.definition.iter().flat_map(|d| words(d)));
        let stem = p.path.rsplit('/').next().unwrap_or(&p.path);
        known.extend(words(stem.split('.').next().unwrap_or(stem)));
    }
    words(line).iter().any(|w| known.contains(w))
}

/// The subject written from the diff.
fn derived_subject(mut parts: Vec<FilePart>) -> Option<String> {
    match parts.len() {
        0 => None,
        1 => {
            let p = parts.remove(0);
            let place = match &p.definition {
                Some(d) => format!("`{d}`"),
                None => p.path.clone(),
            };
            let short = match &p.one_line {
                Some(OneLine::Replaced(old, new)) => format!("Fix {place}: `{old}` -> `{new}`"),
                Some(OneLine::Added(new)) => format!("Add `{new}` to {place}"),
                Some(OneLine::Removed(old)) => format!("Remove `{old}` from {place}"),
                None => String::new(),
            };
            if !short.is_empty() && short.chars().count() <= MAX_SUBJECT {
                return Some(short);
            }
            // A long line replaced: the tokens that changed in it, when they fit.
            if let Some(OneLine::Replaced(old, new)) = &p.one_line
                && let Some((old, new)) = changed_tokens(old, new)
            {
                let short = format!("Fix {place}: `{old}` -> `{new}`");
                if short.chars().count() <= MAX_SUBJECT {
                    return Some(short);
                }
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
    /// The one line replaced, added or removed (blank lines aside), when there is one.
    one_line: Option<OneLine>,
    /// Lines changed (the larger of removed and added).
    changed: usize,
    /// The words (three letters or more, lowercased) of the removed and added lines.
    words: Vec<String>,
}

/// A change of one line (trimmed).
enum OneLine {
    /// The line before and after.
    Replaced(String, String),
    /// A line added, none removed.
    Added(String),
    /// A line removed, none added.
    Removed(String),
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
    let text_of = |lines: &[String]| -> Vec<String> {
        lines.iter().filter(|l| !l.is_empty()).cloned().collect()
    };
    let one_line = match (text_of(&removed).as_slice(), text_of(&added).as_slice()) {
        ([old], [new]) => Some(OneLine::Replaced(old.clone(), new.clone())),
        ([], [new]) => Some(OneLine::Added(new.clone())),
        ([old], []) => Some(OneLine::Removed(old.clone())),
        _ => None,
    };
    let words = removed
        .iter()
        .chain(&added)
        .flat_map(|l| {
            l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| w.chars().count() >= 3)
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    Some(FilePart {
        path: c.path.clone(),
        definition,
        one_line,
        changed: removed.len().max(added.len()),
        words,
    })
}

/// The part of line `old` that `new` changed, cut at token edges (a name, a run of spaces, a
/// run of other characters such as `<=` or `')`): what differs once the tokens both lines
/// start and end with are set aside. When one side is empty (tokens only added or removed),
/// the last token before the change (not a space) is kept on both sides, so neither reads
/// as nothing. `None` when the lines are equal or a side is still empty (a change at the
/// line's start).
fn changed_tokens(old: &str, new: &str) -> Option<(String, String)> {
    let (a, b) = (tokens(old), tokens(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let most = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    if prefix == a.len() && prefix == b.len() {
        return None;
    }
    let mut start = prefix;
    if prefix == a.len() - suffix || prefix == b.len() - suffix {
        // Back to the last token before the change that is not a space.
        while start > 0 {
            start -= 1;
            if !a[start].trim().is_empty() {
                break;
            }
        }
    }
    let span = |t: &[&str], end: usize| t[start..end].concat().trim().to_string();
    let (old, new) = (span(&a, a.len() - suffix), span(&b, b.len() - suffix));
    (!old.is_empty() && !new.is_empty()).then_some((old, new))
}

/// `line` cut into tokens: runs of name characters, of whitespace, and of anything else.
fn tokens(line: &str) -> Vec<&str> {
    let class = |c: char| match c {
        c if c.is_alphanumeric() || c == '_' => 0,
        c if c.is_whitespace() => 1,
        _ => 2,
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut last = None;
    for (i, c) in line.char_indices() {
        if last.is_some_and(|l| l != class(c)) {
            out.push(&line[start..i]);
            start = i;
        }
        last = Some(class(c));
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
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
            commit_subject(&c, None).unwrap(),
            "Fix `average`: `return sum(xs) / (n - 1)` -> `return sum(xs) / n`"
        );
    }

    #[test]
    fn one_line_added_or_removed_is_named_with_the_line() {
        let after = STATS.replace("    n = len(xs)\n", "    xs = list(xs)\n    n = len(xs)\n");
        let c = change(&[("stats.py", STATS, &after)]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Add `xs = list(xs)` to `average`"
        );
        let c = change(&[("stats.py", &after, STATS)]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Remove `xs = list(xs)` from `average`"
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
            commit_subject(&c, None).unwrap(),
            "Fix `average` in stats.py (2 lines changed)"
        );
        let c = change(&[("stats.py", STATS, &after), ("b.py", "x = 1\n", "x = 2\n")]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Fix `average` in stats.py, b.py"
        );
    }

    #[test]
    fn a_long_line_falls_back_to_the_count_and_nothing_changed_is_none() {
        let long = format!("def f():\n    return {}\n", "x".repeat(80));
        let c = change(&[("m.py", &long, &long.replace("return x", "return y"))]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Fix `f` in m.py (1 line changed)"
        );
        let c = change(&[("m.py", STATS, STATS)]);
        assert_eq!(commit_subject(&c, None), None);
    }

    #[test]
    fn a_long_line_is_named_by_the_tokens_that_changed_in_it() {
        let line =
            "if (missing === 'keep') return `{{${name}}}` // the placeholder is kept as it was";
        let text = format!("function render(name, missing) {{\n  {line}\n}}\n");
        let c = change(&[("t.js", &text, &text.replace("'keep'", "'empty'"))]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Fix `render`: `keep` -> `empty`"
        );
        let c = change(&[("t.js", &text, &text.replace("===", "!=="))]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Fix `render`: `===` -> `!==`"
        );
        // Tokens only added: the token before them is kept on both sides.
        let c = change(&[("t.js", &text, &text.replace("return `", "return name + `"))]);
        assert_eq!(
            commit_subject(&c, None).unwrap(),
            "Fix `render`: `return` -> `return name +`"
        );
    }

    #[test]
    fn a_model_line_is_kept_only_when_it_names_the_change() {
        let c = change(&[("stats.py", STATS, &STATS.replace("(n - 1)", "n"))]);
        let derived = "Fix `average`: `return sum(xs) / (n - 1)` -> `return sum(xs) / n`";
        for stray in [
            "files changed",
            "Here is the fixed code:",
            "Fix the bug in the code",
            "```python",
            "The tests fail because `average` divides the sum of xs by n - 1 instead of n",
            "The bug is in `average`: it divides by n - 1",
        ] {
            assert_eq!(commit_subject(&c, Some(stray)).unwrap(), derived, "{stray}");
        }
        for subject in [
            "stats: average divides by n, not n - 1",
            "fix(stats): average divides by n",
            "Divide the sum by n in average",
        ] {
            assert_eq!(commit_subject(&c, Some(subject)).unwrap(), subject);
        }
    }
}
