//! The code an infill prompt shows around its hole: the definition the hole is in and a few
//! lines on each side ([`shown_lines`]), with long documentation cut short ([`condensed`]).
//!
//! Reading the prompt is most of an infill's cost on a CPU: under bench load the 1.5B model
//! read 4-7 prompt tokens a second, so a 1,000-token prompt took 150-220 s before its first
//! answer (session 36's held-out runs), and the documentation around the hole was often the
//! largest part of it: a docstring of doctests, the doc comment of the next definition. A
//! block of comment lines, a docstring or a `/* */` comment keeps [`DOC_LINES_INSIDE`] lines
//! in the hole's own definition or right above it (what the code is for) and its first line
//! elsewhere (what the neighbour is); a docstring or block comment cut short is
//! closed again, so the code still reads as code. Strings that hold data (`x = """...`) are
//! code and never cut. Only the prompt changes: the fix is made on the file's own lines.

use std::ops::Range;

/// Lines of code before the statement shown at most (the definition it is in, and what is
/// above it up to this many).
const MAX_PREFIX_LINES: usize = 60;
/// Lines of code after the statement shown at most.
const MAX_SUFFIX_LINES: usize = 30;
/// Lines shown beyond the definition on each side, when the caps allow: the helpers and
/// constants just above it, the start of the next definition below.
const AROUND_DEFINITION: usize = 12;
/// When a hole lies more than [`MAX_PREFIX_LINES`] below where its definition's prompt would
/// start, the prompt starts this many lines further down, as many times as needed: the holes
/// of one band share their first line, so a caching server reads the code above the earlier
/// hole once for all of them.
const PREFIX_BAND: usize = 30;
/// Lines a documentation block in the hole's own definition keeps.
const DOC_LINES_INSIDE: usize = 8;
/// Lines a documentation block outside the hole's definition keeps.
const DOC_LINES_OUTSIDE: usize = 1;

/// The lines of a file of `len` lines shown around a hole at `start..=end` (1-based) in the
/// definition on lines `definition`: from [`AROUND_DEFINITION`] lines above the definition
/// (at most [`MAX_PREFIX_LINES`] above the hole, moved down in steps of [`PREFIX_BAND`]
/// lines, so that nearby holes show the same first line) to as many below it (at most
/// [`MAX_SUFFIX_LINES`] below the hole).
pub(super) fn shown_lines(
    definition: (usize, usize),
    (start, end): (usize, usize),
    len: usize,
) -> (usize, usize) {
    let top = definition
        .0
        .min(start)
        .saturating_sub(AROUND_DEFINITION)
        .max(1);
    let over = start.saturating_sub(top).saturating_sub(MAX_PREFIX_LINES);
    let lo = top + over.div_ceil(PREFIX_BAND) * PREFIX_BAND;
    let hi = (definition.1.max(end) + AROUND_DEFINITION)
        .min(end + MAX_SUFFIX_LINES)
        .min(len);
    (lo, hi)
}

/// The first line of `definition` (1-based lines of `lines`) when a prompt showing lines
/// `lo..` above line `hole` shows it above the hole.
pub(super) fn shown_definition_line(
    lines: &[&str],
    definition: (usize, usize),
    lo: usize,
    hole: usize,
) -> Option<String> {
    let shown = definition.0 >= lo.max(1) && definition.0 < hole;
    shown.then(|| lines[definition.0 - 1].to_string())
}

/// A run of documentation lines: `lines[range]`, closed by `closer` when it is a docstring or
/// a block comment (`"""`, `*/`), `None` for line comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DocBlock {
    range: Range<usize>,
    closer: Option<&'static str>,
}

/// `lines[shown]` (0-based indices of the file's lines, each with its line ending) as the
/// prompt shows them: each documentation block of `definition` (1-based, inclusive: one in
/// it, or the doc comment right above it) cut to the first [`DOC_LINES_INSIDE`] of its lines
/// shown, any other to its first [`DOC_LINES_OUTSIDE`]. `blocks` are the file's
/// ([`doc_blocks`]), found once for the code on both sides of a hole.
pub(super) fn condensed(
    lines: &[&str],
    blocks: &[DocBlock],
    shown: Range<usize>,
    definition: (usize, usize),
) -> String {
    let inside = definition.0.saturating_sub(1)..definition.1;
    let documents = documented_from(lines, inside.start);
    let mut out = String::new();
    let mut i = shown.start;
    while i < shown.end {
        // The blocks are in order and apart: the one holding `i`, if any, is the first that
        // ends after it.
        let holding = blocks.get(blocks.partition_point(|b| b.range.end <= i));
        let Some(block) = holding.filter(|b| b.range.start <= i) else {
            out.push_str(lines[i]);
            i += 1;
            continue;
        };
        // The definition's own documentation keeps its first lines of those shown; a
        // neighbour's its first line, if shown.
        let kept_end = if inside.contains(&block.range.start) || block.range.end == documents {
            block.range.start.max(shown.start) + DOC_LINES_INSIDE
        } else {
            (block.range.start + DOC_LINES_OUTSIDE).max(i)
        };
        let until = block.range.end.min(shown.end);
        for line in &lines[i..until.min(kept_end)] {
            out.push_str(line);
        }
        if kept_end < until {
            out.push_str(&closing(lines, block));
        }
        i = until;
    }
    out
}

/// Where a documentation block of the definition starting on line `first` (0-based) ends: the
/// line above it, or above its attributes and decorators (`#[test]`, `@property`), which come
/// between a definition and its doc comment.
fn documented_from(lines: &[&str], first: usize) -> usize {
    let mut i = first;
    while i > 0 && {
        let t = lines[i - 1].trim_start();
        t.starts_with("#[") || t.starts_with('@')
    } {
        i -= 1;
    }
    i
}

/// The line that closes `block` once it is cut short: its own last line when that holds only
/// the closer, else the closer at the block's indentation; nothing for line comments.
fn closing(lines: &[&str], block: &DocBlock) -> String {
    let Some(closer) = block.closer else {
        return String::new();
    };
    let last = lines[block.range.end - 1];
    if last.trim() == closer {
        return ensure_newline(last);
    }
    let first = lines[block.range.start];
    let indent = &first[..first.len() - first.trim_start().len()];
    format!("{indent}{closer}\n")
}

fn ensure_newline(line: &str) -> String {
    match line.ends_with('\n') {
        true => line.to_string(),
        false => format!("{line}\n"),
    }
}

/// The documentation blocks of a file, in order: runs of line comments (`//`, `#`),
/// docstrings (a statement that is only a triple-quoted string) and block comments (`/*` to
/// `*/`). Scanned from the file's first line, so that a shown range starting inside a string
/// or a block reads it as what it is.
pub(super) fn doc_blocks(lines: &[&str]) -> Vec<DocBlock> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if let Some(quote) = docstring_opening(t) {
            let end = closing_line(lines, i, quote, quote);
            blocks.push(DocBlock {
                range: i..end + 1,
                closer: Some(quote),
            });
            i = end + 1;
        } else if let Some(quote) = data_string_opening(t) {
            // A string that holds data: code, whatever its lines look like.
            i = closing_line(lines, i, quote, quote) + 1;
        } else if t.starts_with("/*") {
            let end = closing_line(lines, i, "/*", "*/");
            blocks.push(DocBlock {
                range: i..end + 1,
                closer: Some("*/"),
            });
            i = end + 1;
        } else if super::is_comment(t) {
            let start = i;
            while i < lines.len() && super::is_comment(lines[i].trim()) {
                i += 1;
            }
            blocks.push(DocBlock {
                range: start..i,
                closer: None,
            });
        } else {
            i += 1;
        }
    }
    blocks
}

/// The triple quote a line opens a docstring with: the line (trimmed) is a string statement,
/// optionally prefixed (`r"""`, `b'''`).
fn docstring_opening(trimmed: &str) -> Option<&'static str> {
    let unprefixed = trimmed.trim_start_matches(['r', 'R', 'b', 'B', 'u', 'U', 'f', 'F']);
    if trimmed.len() - unprefixed.len() > 2 {
        return None;
    }
    ["\"\"\"", "'''"]
        .into_iter()
        .find(|q| unprefixed.starts_with(q))
}

/// The triple quote of a string that a line of code opens and does not close (`x = """`).
fn data_string_opening(trimmed: &str) -> Option<&'static str> {
    ["\"\"\"", "'''"]
        .into_iter()
        .find(|q| trimmed.matches(q).count() % 2 == 1)
}

/// The index of the line where the block `opener` opens on line `start` ends: the first line
/// holding `closer` (on the opening line, after the opener); the file's last line when none
/// does.
fn closing_line(lines: &[&str], start: usize, opener: &str, closer: &str) -> usize {
    let opening = lines[start];
    let after = opening.find(opener).map_or(0, |p| p + opener.len());
    if opening[after..].contains(closer) {
        return start;
    }
    (start + 1..lines.len())
        .find(|&j| lines[j].contains(closer))
        .unwrap_or(lines.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.split_inclusive('\n').collect()
    }

    const PY: &str = "\
def helper(x):
    \"\"\"Helps.

    >>> helper(1)
    2
    \"\"\"
    return x + 1


def target(doc, pointer):
    \"\"\"Resolves a pointer.

    1
    2
    3
    4
    5
    6
    7
    8
    \"\"\"
    # one
    # two
    query = \"\"\"
    # not a comment
    \"\"\"
    return helper(pointer)
";

    #[test]
    fn a_neighbours_docstring_keeps_its_first_line_and_the_holes_its_first_lines() {
        let l = lines(PY);
        let shown = condensed(&l, &doc_blocks(&l), 0..l.len(), (10, 27));
        assert!(shown.contains("def helper(x):\n    \"\"\"Helps.\n    \"\"\"\n    return x + 1\n"));
        assert!(!shown.contains(">>> helper(1)"));
        assert!(shown.contains(
            "\"\"\"Resolves a pointer.\n\n    1\n    2\n    3\n    4\n    5\n    6\n    \"\"\"\n"
        ));
        assert!(!shown.contains("    7\n"));
        // Short blocks and data strings stay whole.
        assert!(shown.contains("    # one\n    # two\n"));
        assert!(shown.contains("    query = \"\"\"\n    # not a comment\n    \"\"\"\n"));
        assert!(shown.ends_with("    return helper(pointer)\n"));
    }

    #[test]
    fn a_doc_comment_above_attributes_belongs_to_the_definition_below_them() {
        let rs = "/// Parses.\n/// More.\n#[inline]\nfn parse() {\n    body();\n}\n";
        let l = lines(rs);
        assert_eq!(condensed(&l, &doc_blocks(&l), 0..l.len(), (4, 6)), rs);
        assert!(
            condensed(&l, &doc_blocks(&l), 0..l.len(), (5, 5))
                .starts_with("/// Parses.\n#[inline]\n")
        );
    }

    #[test]
    fn a_range_starting_inside_a_block_reads_it_as_documentation() {
        let l = lines(PY);
        // From ">>> helper(1)" on: the docstring's lines after its first are cut.
        let shown = condensed(&l, &doc_blocks(&l), 3..8, (10, 27));
        assert_eq!(shown, "    \"\"\"\n    return x + 1\n\n");
    }

    #[test]
    fn a_definitions_doc_comment_is_its_own_and_a_neighbours_keeps_its_first_line() {
        let go = "\
// Clean returns the shortest path.
// It applies the rules
// iteratively.
func Clean(p string) string {
\t/* a block
\t   comment
\t*/
\treturn p
}
";
        let l = lines(go);
        // The doc comment above the definition is the definition's own: whole.
        assert_eq!(condensed(&l, &doc_blocks(&l), 0..l.len(), (4, 9)), go);
        // Seen from a hole whose definition is not known (the statement alone), the comment
        // right above the statement is its own, the function's doc comment a neighbour's.
        assert_eq!(
            condensed(&l, &doc_blocks(&l), 0..l.len(), (8, 8)),
            "// Clean returns the shortest path.\nfunc Clean(p string) string {\n\t/* a block\n\t   comment\n\t*/\n\treturn p\n}\n"
        );
    }
}
