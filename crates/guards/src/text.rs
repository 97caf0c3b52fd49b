//! Text helpers shared by guards: line diffs between before and after.

use similar::{ChangeTag, TextDiff};

/// The lines a change adds and removes, from one line diff of the before and after text (see
/// [`crate::FileView::line_changes`], which computes it once per file for every guard).
#[derive(Debug, Default)]
pub struct LineChanges<'a> {
    /// Lines of the after text that are new: 1-based line number and text (no line end).
    pub added: Vec<(u32, &'a str)>,
    /// Lines of the before text that do not survive: 1-based line number and text.
    pub removed: Vec<(u32, &'a str)>,
}

/// The lines added to and removed from `before` to make `after`. Lines outside both lists are
/// equal in both texts, so a count over whole lines changes by exactly what these lists hold.
pub fn line_changes<'a>(before: &'a str, after: &'a str) -> LineChanges<'a> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(before, after);
    let before_lines: Vec<&'a str> = before.lines().collect();
    let after_lines: Vec<&'a str> = after.lines().collect();
    let mut out = LineChanges::default();
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => {
                if let Some(idx) = change.new_index()
                    && let Some(line) = after_lines.get(idx)
                {
                    out.added.push((idx as u32 + 1, *line));
                }
            }
            ChangeTag::Delete => {
                if let Some(idx) = change.old_index()
                    && let Some(line) = before_lines.get(idx)
                {
                    out.removed.push((idx as u32 + 1, *line));
                }
            }
            ChangeTag::Equal => {}
        }
    }
    out
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
        let added = line_changes("a\nb\nc\n", "a\nX\nc\nY\n").added;
        assert_eq!(added, vec![(2, "X"), (4, "Y")]);
        let removed = line_changes("a\nb\nc\n", "a\nc\n").removed;
        assert_eq!(removed, vec![(2, "b")]);
    }
}
