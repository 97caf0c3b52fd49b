//! Text helpers shared by guards: line diffs between before and after.

use similar::{ChangeTag, TextDiff};

/// Lines present in `after` but not in `before`, with their 1-based line numbers in `after`.
pub fn added_lines<'a>(before: &str, after: &'a str) -> Vec<(u32, &'a str)> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(before, after);
    let after_lines: Vec<&'a str> = after.lines().collect();
    let mut out = Vec::new();
    for change in diff.iter_all_changes() {
        if change.tag() == ChangeTag::Insert
            && let Some(idx) = change.new_index()
            && let Some(line) = after_lines.get(idx)
        {
            out.push((idx as u32 + 1, *line));
        }
    }
    out
}

/// Number of lines of `before` that do not survive into `after`.
pub fn removed_line_count(before: &str, after: &str) -> usize {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(before, after);
    diff.iter_all_changes()
        .filter(|c| c.tag() == ChangeTag::Delete)
        .count()
}

/// The last path component.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_and_removed() {
        let added = added_lines("a\nb\nc\n", "a\nX\nc\nY\n");
        assert_eq!(added, vec![(2, "X"), (4, "Y")]);
        assert_eq!(removed_line_count("a\nb\nc\n", "a\nc\n"), 1);
    }
}
