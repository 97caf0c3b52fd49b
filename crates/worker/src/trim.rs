//! Trimming a fix to what the tests need: the parts of a change (one line replaced by one line,
//! or one run of added or removed lines) that can each be put back as they were, so that the
//! run can try the change without each in turn and keep the smallest that still fixes the
//! failing tests (delta debugging, one greedy pass).
//!
//! A small model's fix often carries a second edit nobody asked for: the query made safe and
//! `return dict(row)` turned into `return row` on the next line. The tests pass either way;
//! the commit should hold only the first. This module is pure: it splits a change into
//! [`Part`]s and writes the change without some of them; the run loop judges each try.

use std::collections::BTreeSet;

use similar::{DiffOp, TextDiff};
use slopguard_change::{ChangeKind, ChangeSet, FileChange};

/// One part of a change that can be undone alone: in file `file` (index into the change's
/// files), the lines `old` of the text before replaced by the lines `new` of the text after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Index of the file in [`ChangeSet::changes`].
    pub file: usize,
    /// Line range (0-based, end exclusive) in the file before the change.
    pub old: (usize, usize),
    /// Line range (0-based, end exclusive) in the file after the change.
    pub new: (usize, usize),
}

/// The parts of `change` that can each be undone: for every modified text file, each run of
/// changed lines, split line by line where as many lines were replaced as written (line `k`
/// of the run replaced by line `k`). Created, deleted and binary files are not split.
///
/// The diff has no deadline, so the same candidate is split the same way on a busy machine
/// (`similar`'s Myers bounds its own work by the input's size).
pub fn parts(change: &ChangeSet) -> Vec<Part> {
    let mut out = Vec::new();
    for (file, c) in change.changes.iter().enumerate() {
        let (ChangeKind::Modify, Some(before), Some(after)) =
            (&c.kind, c.before_text(), c.after_text())
        else {
            continue;
        };
        let diff = TextDiff::configure().diff_lines(before, after);
        for op in diff.ops() {
            let (old, new) = match *op {
                DiffOp::Equal { .. } => continue,
                DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                } => ((old_index, old_index + old_len), (new_index, new_index)),
                DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                } => ((old_index, old_index), (new_index, new_index + new_len)),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => (
                    (old_index, old_index + old_len),
                    (new_index, new_index + new_len),
                ),
            };
            let (old_len, new_len) = (old.1 - old.0, new.1 - new.0);
            if old_len == new_len && old_len > 1 {
                out.extend((0..old_len).map(|k| Part {
                    file,
                    old: (old.0 + k, old.0 + k + 1),
                    new: (new.0 + k, new.0 + k + 1),
                }));
            } else {
                out.push(Part { file, old, new });
            }
        }
    }
    out
}

/// `change` with the parts at `undone` (indexes into `parts`, which [`parts`] made from
/// `change`) put back as they were before. A file left with no change is dropped; `None`
/// when nothing of the change is left.
pub fn without(change: &ChangeSet, parts: &[Part], undone: &BTreeSet<usize>) -> Option<ChangeSet> {
    let mut files = Vec::with_capacity(change.changes.len());
    for (file, c) in change.changes.iter().enumerate() {
        let undo: Vec<&Part> = undone
            .iter()
            .filter_map(|&i| parts.get(i))
            .filter(|p| p.file == file)
            .collect();
        if undo.is_empty() {
            files.push(c.clone());
            continue;
        }
        let (Some(before), Some(after)) = (c.before_text(), c.after_text()) else {
            files.push(c.clone());
            continue;
        };
        let text = undo_parts(before, after, &undo);
        if text != before {
            files.push(FileChange::modify(
                c.path.as_str(),
                c.before.clone().unwrap_or_default(),
                text,
            ));
        }
    }
    if files.is_empty() {
        return None;
    }
    let mut trimmed = ChangeSet::new(change.base.clone(), files, &change.source);
    trimmed.message = change.message.clone();
    Some(trimmed)
}

/// `after` with each part of `undo` (of the same file) replaced by its lines of `before`.
fn undo_parts(before: &str, after: &str, undo: &[&Part]) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let mut out = String::with_capacity(after.len());
    let mut at = 0;
    let mut sorted: Vec<&&Part> = undo.iter().collect();
    sorted.sort_by_key(|p| p.new.0);
    for p in sorted {
        out.extend(
            new[at.min(new.len())..p.new.0.min(new.len())]
                .iter()
                .copied(),
        );
        out.extend(
            old[p.old.0.min(old.len())..p.old.1.min(old.len())]
                .iter()
                .copied(),
        );
        at = p.new.1;
    }
    out.extend(new[at.min(new.len())..].iter().copied());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_change::MemTree;
    use std::sync::Arc;

    const BEFORE: &str = "def find_user(conn, name):\n    \"\"\"Returns the user as a dict.\"\"\"\n    row = conn.execute(f\"... '{name}'\").fetchone()\n    return dict(row) if row is not None else None\n";
    const AFTER: &str = "def find_user(conn, name):\n    \"\"\"Returns the user as a dict.\"\"\"\n    row = conn.execute(\"... ?\", (name,)).fetchone()\n    return row\n";

    fn change(files: &[(&str, &str, &str)]) -> ChangeSet {
        ChangeSet::new(
            Arc::new(MemTree::default()),
            files
                .iter()
                .map(|(p, b, a)| FileChange::modify(*p, *b, *a))
                .collect(),
            "t",
        )
    }

    #[test]
    fn adjacent_replaced_lines_are_parts_of_their_own() {
        let c = change(&[("db.py", BEFORE, AFTER)]);
        let p = parts(&c);
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].old, p[0].new), ((2, 3), (2, 3)));
        // Without the second part: the query fix alone, the return kept.
        let only_query = without(&c, &p, &BTreeSet::from([1])).expect("a change is left");
        assert_eq!(
            only_query.changes[0].after_text(),
            Some(
                "def find_user(conn, name):\n    \"\"\"Returns the user as a dict.\"\"\"\n    row = conn.execute(\"... ?\", (name,)).fetchone()\n    return dict(row) if row is not None else None\n"
            )
        );
        // Without both: nothing is left.
        assert!(without(&c, &p, &BTreeSet::from([0, 1])).is_none());
    }

    #[test]
    fn insertions_and_deletions_are_one_part_each_and_files_stay_apart() {
        let before = "a\nb\nc\nd\n";
        let after = "a\nx\ny\nb\nd\n";
        let c = change(&[("m.py", before, after), ("n.py", "1\n2\n", "1\n3\n")]);
        let p = parts(&c);
        let part = |file, old, new| Part { file, old, new };
        assert_eq!(
            p,
            [
                part(0, (1, 1), (1, 3)),
                part(0, (2, 3), (4, 4)),
                part(1, (1, 2), (1, 2))
            ]
        );
        // Undo the insertion only: the deletion of `c` stays; the other file is untouched.
        let t = without(&c, &p, &BTreeSet::from([0])).expect("a change is left");
        assert_eq!(t.changes[0].after_text(), Some("a\nb\nd\n"));
        assert_eq!(t.changes[1].after_text(), Some("1\n3\n"));
        // Undo every part of one file: that file leaves the change.
        let t = without(&c, &p, &BTreeSet::from([0, 1])).expect("a change is left");
        assert_eq!(t.changes.len(), 1);
        assert_eq!(t.changes[0].path, "n.py");
    }

    #[test]
    fn an_unequal_replacement_is_one_part() {
        let c = change(&[("m.py", "a\nb\nc\n", "a\nx\ny\nz\nc\n")]);
        let p = parts(&c);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].old, p[0].new), ((1, 2), (1, 4)));
    }
}
