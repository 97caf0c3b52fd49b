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
///
/// The whole lines both texts begin and end with are set aside before the diff, as the diff
/// itself would first do: an edit of a few lines in a large file then splits and compares only
/// the region around it (the whole-file diff was the largest part of a warm check's guards).
pub fn line_changes<'a>(before: &'a str, after: &'a str) -> LineChanges<'a> {
    let (head, tail) = shared_lines(before, after);
    let first_line = before[..head].matches('\n').count() as u32;
    let mut out = middle_line_changes(
        &before[head..before.len() - tail],
        &after[head..after.len() - tail],
    );
    for (n, _) in out.added.iter_mut().chain(out.removed.iter_mut()) {
        *n += first_line;
    }
    out
}

/// [`line_changes`] of two whole texts, line numbers counted from their first line.
///
/// The diff has no time limit: a verdict (a deletion budget, a dropped assertion) must not
/// depend on how busy the machine is. With a 200 ms deadline, a replay under load counted a
/// regenerated lockfile as 99 % removed where the diff finds 71 %. `similar`'s Myers bounds its
/// own work by the input's size, as git's xdiff does, so the cost stays bounded without a clock
/// (release build: 0.6 s for 100,000 lines drawn from 1,000 values and 1.4 s for 200,000 drawn
/// from 3, the worst inputs tried; real lockfiles take 1-23 ms).
fn middle_line_changes<'a>(before: &'a str, after: &'a str) -> LineChanges<'a> {
    let diff = TextDiff::configure().diff_lines(before, after);
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

/// The byte lengths of the whole lines `a` and `b` both begin with and both end with, not
/// overlapping: each ends after a `\n` (or is empty), and the tail starts a line in both.
fn shared_lines(a: &str, b: &str) -> (usize, usize) {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let head = a[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let room = a.len().min(b.len()) - head;
    let same_end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let starts_line = |text: &[u8], at: usize| at == head || text[at - 1] == b'\n';
    let (sa, sb) = (a.len() - same_end, b.len() - same_end);
    if starts_line(a, sa) && starts_line(b, sb) {
        return (head, same_end);
    }
    // The shared end starts inside a line: it keeps what follows that line's end.
    let tail = a[sa..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(0, |i| same_end - i - 1);
    (head, tail)
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

    /// Numbered lines, owned.
    type Lines = Vec<(u32, String)>;

    /// The diff of the whole texts, as [`line_changes`] computed it before it set the shared
    /// lines aside.
    fn whole(before: &str, after: &str) -> (Lines, Lines) {
        let c = middle_line_changes(before, after);
        let own = |v: Vec<(u32, &str)>| v.into_iter().map(|(n, l)| (n, l.to_string())).collect();
        (own(c.added), own(c.removed))
    }

    #[test]
    fn shared_lines_set_aside_change_nothing() {
        let cases = [
            ("a\nb\nc\n", "a\nX\nc\nY\n"),
            ("a\nb\nc\n", "a\nc\n"),
            ("x\n", "yx\n"),
            ("yx\n", "x\n"),
            ("a\nb", "a\nb\n"),
            ("a\nb\n", "a\nb"),
            ("same\n", "same\n"),
            ("", "new\nlines\n"),
            ("old\n", ""),
            ("a\nb\nc\nd\n", "a\nb\nb\nc\nd\n"),
            ("p\nq\r\nr\n", "p\nq\nr\n"),
            ("ab\ncd\nef\n", "ab\nXd\nef\n"),
            ("one\ntwo\nthree", "one\ntwo\nthree!"),
        ];
        for (before, after) in cases {
            let c = line_changes(before, after);
            let own = |v: &[(u32, &str)]| v.iter().map(|(n, l)| (*n, l.to_string())).collect();
            assert_eq!(
                (own(&c.added), own(&c.removed)),
                whole(before, after),
                "{before:?} -> {after:?}"
            );
        }
    }

    /// `n` lines drawn from `distinct` values by a fixed xorshift sequence starting at `seed`.
    fn drawn_lines(n: usize, distinct: u64, seed: u64) -> String {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                format!("line {}\n", s % distinct)
            })
            .collect()
    }

    #[test]
    fn a_hard_diff_is_counted_whole_however_long_it_takes() {
        // Many repeated lines and a large edit distance: with a 200 ms deadline the diff gave up
        // here and counted nearly every line as changed (99,899 of 100,000).
        let before = drawn_lines(100_000, 1_000, 12_345);
        let after = drawn_lines(100_000, 1_000, 67_890);
        let c = line_changes(&before, &after);
        assert_eq!((c.added.len(), c.removed.len()), (95_168, 95_168));
    }

    #[test]
    fn shared_lines_are_whole_lines_of_both() {
        assert_eq!(shared_lines("a\nb\nc\n", "a\nX\nc\n"), (2, 2));
        assert_eq!(shared_lines("x\n", "yx\n"), (0, 0));
        assert_eq!(shared_lines("abc\n", "abd\n"), (0, 0));
        assert_eq!(shared_lines("s\n", "s\n"), (2, 0));
    }
}
