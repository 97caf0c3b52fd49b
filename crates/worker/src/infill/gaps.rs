//! Gaps: where a statement may be missing, and the requests that ask the model to write one.
//!
//! No rewrite of a statement that is there can put back one that is not. Two places are
//! asked: the end of the block around the most suspect statement ([`block_end`]: a block only
//! the failing tests run, which stops one step short, such as a branch that computes its
//! result and never returns it) and the last statement of its definition ([`last_statement`]:
//! a step missing before the result is returned).

use super::shown::{condensed, doc_blocks, shown_definition_line, shown_lines};
use super::{FimFormat, Hole, InfillRequest, TOKENS_PER_LINE, is_comment};
use crate::templates::lexer::leading_space;

/// The request for the gap before line `before` (1-based) of `text`, the file at `path`: the
/// code before it, then a hole at that line's indentation, then the line and the code after
/// it; else as [`super::request`]. `None` when the line is not in the file, is blank, or is
/// the file's first.
pub fn gap(
    format: FimFormat,
    path: &str,
    text: &str,
    before: usize,
    definition: (usize, usize),
    tests: &[(String, String)],
) -> Option<InfillRequest> {
    let line = text.lines().nth(before.checked_sub(1)?)?;
    if line.trim().is_empty() {
        return None;
    }
    let indent = leading_space(line).to_string();
    gap_ending_block(format, path, text, (before, indent), definition, tests)
}

/// The request for the gap before line `before` (which may be blank), its middle written at
/// `indent`: the end of a block as [`block_end`] gives it (the line after the block's last
/// code line, the indentation of the block's body); else as [`gap`].
pub fn gap_ending_block(
    format: FimFormat,
    path: &str,
    text: &str,
    (before, indent): (usize, String),
    definition: (usize, usize),
    tests: &[(String, String)],
) -> Option<InfillRequest> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if before < 2 || before > lines.len() {
        return None;
    }
    let (lo, hi) = shown_lines(definition, (before, before), lines.len());
    let docs = doc_blocks(&lines);
    let mut prefix = condensed(&lines, &docs, lo - 1..before - 1, definition);
    prefix.push_str(&indent);
    let suffix = format!("\n{}", condensed(&lines, &docs, before - 1..hi, definition));
    let mut stop: Vec<String> = format.stops().iter().map(|s| s.to_string()).collect();
    // A blank line ends what belongs in the gap (the OpenAI API takes four stops).
    stop.truncate(3);
    stop.push("\n\n".into());
    Some(InfillRequest {
        path: path.to_string(),
        start: before,
        end: before,
        hole: Hole::Gap,
        prompt: format.prompt(path, &prefix, &suffix, tests),
        stop,
        max_tokens: TOKENS_PER_LINE * 2,
        indent,
        head: String::new(),
        text: text.to_string(),
        format,
        definition_line: shown_definition_line(&lines, definition, lo, before),
        refined: false,
    })
}

/// Words a block's header starts with (`if x:`, `} else {`, Ruby's `unless x`).
const BLOCK_WORDS: [&str; 20] = [
    "if", "elif", "else", "} else", "for", "while", "loop", "match", "switch", "select", "case",
    "when", "with", "try", "except", "catch", "} catch", "unless", "until", "elsif",
];

/// The end of the innermost block around line `line` (1-based) of `text`, inside the
/// definition on lines `definition`: the line after the block's last code line, and the
/// indentation of the block's body. The block is found by indentation: its header is the
/// nearest code line above `line` indented less (a branch, a loop: [`BLOCK_WORDS`], or a line
/// ending in `:`, `{` or `do`), it ends before the next code line indented no more than the
/// header (the next statement, `}`, `else:`, `end`). `None` when the block is the
/// definition's own body ([`last_statement`] is that gap) or reaches past the definition.
pub fn block_end(text: &str, line: usize, definition: (usize, usize)) -> Option<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let code = |n: usize| {
        let t = lines[n - 1].trim();
        !t.is_empty() && !is_comment(t)
    };
    let depth = |n: usize| leading_space(lines[n - 1]).len();
    let last = definition.1.min(lines.len());
    if line <= definition.0 || line > last || !code(line) {
        return None;
    }
    let header = (definition.0 + 1..line)
        .rev()
        .find(|&n| code(n) && depth(n) < depth(line))?;
    let h = lines[header - 1].trim();
    let opens = BLOCK_WORDS.iter().any(|w| {
        h.strip_prefix(w).is_some_and(|r| {
            r.is_empty() || !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    }) || h.ends_with(':')
        || h.ends_with('{')
        || h.ends_with(" do")
        || h.ends_with('|');
    if !opens {
        return None;
    }
    let end = (line + 1..=last).find(|&n| code(n) && depth(n) <= depth(header))?;
    let body: Vec<usize> = (header + 1..end).filter(|&n| code(n)).collect();
    let least = body.iter().map(|&n| depth(n)).min()?;
    let indent = body
        .iter()
        .rev()
        .find(|&&n| depth(n) == least)
        .map(|&n| leading_space(lines[n - 1]).to_string())?;
    Some((body.last()? + 1, indent))
}

/// The first line of the last statement of the definition on lines `start..=end` (1-based)
/// of `text` at the level of its body: where a step missing before the result is returned
/// would go. The body's level is the least indentation of its code lines deeper than the
/// definition's first line; closing lines (`}`, `end`, `)`), comments and a line that goes
/// on from the one above it (after `,`, `(`, an operator or `\`) start no statement, and
/// nested blocks (a `match`'s arms, a struct literal's fields) are deeper. `None` for a
/// definition of one line.
pub fn last_statement(text: &str, (start, end): (usize, usize)) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let end = end.min(lines.len());
    let outer = leading_space(lines.get(start.checked_sub(1)?)?).len();
    let code: Vec<usize> = (start + 1..=end)
        .filter(|&n| {
            let t = lines[n - 1].trim();
            !t.is_empty() && !is_comment(t) && !is_closing(t)
        })
        .collect();
    let depth = |n: usize| leading_space(lines[n - 1]).len();
    let body = code
        .iter()
        .map(|&n| depth(n))
        .filter(|&d| d > outer)
        .min()?;
    let mut starts = code
        .iter()
        .enumerate()
        .filter(|&(i, &n)| depth(n) == body && (i == 0 || !continues(lines[code[i - 1] - 1])));
    starts.next_back().map(|(_, &n)| n)
}

/// A line that only closes blocks or brackets: `}`, `});`, `end`, `)`.
fn is_closing(line: &str) -> bool {
    let closers = |s: &str| {
        s.chars()
            .all(|c| matches!(c, '}' | ')' | ']' | ';' | ',' | ' '))
    };
    closers(line) || line.strip_prefix("end").is_some_and(closers)
}

/// Whether the statement on `line` goes on to the next line: it ends with an operator, a
/// comma or an open bracket. A block's header (`if x {`, `for y in z:`, `} else {`) opens
/// a block instead, whose first line is a statement of its own.
fn continues(line: &str) -> bool {
    const OPEN: [&str; 18] = [
        ",", "(", "[", "{", ":", "\\", "+", "-", "*", "/", "%", "=", ".", "&&", "||", " and",
        " or", "?",
    ];
    const BLOCKS: [&str; 25] = [
        ")", // the end of a signature on lines of its own: `) -> T {`, `):`
        "if ",
        "elif ",
        "else",
        "} else",
        "for ",
        "while ",
        "loop",
        "match ",
        "switch ",
        "select ",
        "case ",
        "when ",
        "with ",
        "try",
        "except",
        "finally",
        "catch",
        "} catch",
        "def ",
        "fn ",
        "func ",
        "function ",
        "unless ",
        "do",
    ];
    let t = line.trim();
    let header = (t.ends_with('{') || t.ends_with(':')) && BLOCKS.iter().any(|k| t.starts_with(k));
    let step = t.ends_with("++") || t.ends_with("--"); // `n++`: a statement of its own
    !header && !step && OPEN.iter().any(|o| t.ends_with(o))
}

/// Words an exit that refuses bad input is written with, lower-cased: an exception raised or
/// thrown, a panic, an error returned or made (`Err(`, `fmt.Errorf(`, `errors.New(`, `new
/// TypeError(`), Ruby's `fail`.
const ERROR_EXITS: [&str; 8] = [
    "raise",
    "throw",
    "panic",
    "err(",
    "errorf(",
    "errors.new(",
    "error(",
    "fail ",
];

/// Where a check that refuses bad input may be missing in the definition on lines
/// `definition` (1-based) of `text`: before and after each of its guards, in file order, each
/// once, as (the line the middle goes before, the guard's indentation). A guard is an `if` or
/// `unless` block with no `else` that refuses its input ([`ERROR_EXITS`]), or such an exit
/// under a Ruby modifier on one line (`raise ArgumentError unless ok`). A validation is
/// written among the others: a run of guards is where one more is missing, and where in the
/// run it goes rarely matters, since each refuses an input the others let through.
pub fn guard_gaps(text: &str, definition: (usize, usize)) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let last = definition.1.min(lines.len());
    let mut gaps: Vec<(usize, String)> = Vec::new();
    let mut n = definition.0 + 1;
    while n <= last {
        let Some(end) = guard_at(&lines, n, last) else {
            n += 1;
            continue;
        };
        let indent = leading_space(lines[n - 1]).to_string();
        let after = (end + 1..=last).find(|&m| !lines[m - 1].trim().is_empty());
        for at in std::iter::once(n).chain(after) {
            if !gaps.iter().any(|(line, _)| *line == at) {
                gaps.push((at, indent.clone()));
            }
        }
        n = end + 1;
    }
    gaps
}

/// The last line of the guard that starts on line `n` (1-based) of `lines`, within `last`;
/// `None` when no guard starts there ([`guard_gaps`]).
fn guard_at(lines: &[&str], n: usize, last: usize) -> Option<usize> {
    let t = lines[n - 1].trim();
    let refuses = |from: usize, to: usize| {
        lines[from - 1..to].iter().any(|l| {
            let l = l.to_ascii_lowercase();
            ERROR_EXITS.iter().any(|e| l.contains(e))
        })
    };
    let word = |w: &str| {
        t.strip_prefix(w)
            .is_some_and(|r| r.starts_with([' ', '(', '!']))
    };
    if !word("if") && !word("unless") {
        let modifier = t.contains(" if ") || t.contains(" unless ");
        return (modifier && refuses(n, n)).then_some(n);
    }
    let depth = leading_space(lines[n - 1]).len();
    let next = (n + 1..=last).find(|&m| {
        let l = lines[m - 1];
        !l.trim().is_empty() && !is_comment(l.trim()) && leading_space(l).len() <= depth
    });
    let end = match next {
        Some(m) => {
            let closer = lines[m - 1].trim();
            let alternative = ["else", "} else", "elif", "elsif", "}else"]
                .iter()
                .any(|w| closer.starts_with(w));
            if alternative {
                return None;
            }
            if is_closing(closer) { m } else { m - 1 }
        }
        // The definition's last statement.
        None => last,
    };
    refuses(n, end).then_some(end)
}

/// Statements of a gap's long middle tried alone, at most ([`InfillRequest::parts`]).
pub(super) const PARTS: usize = 3;

/// Most lines one of them may take: a check with its block and an alternative (`if n > 0 {`,
/// a line, `} else {`, a line, `}`).
pub(super) const PART_LINES: usize = 5;

/// Words that go on with the statement above at its own indentation: a closing bracket or
/// `end`, an alternative or a handler (`} else {`, `else:`, `elif`, `except`, `rescue`).
const GOES_ON: [&str; 11] = [
    "}", ")", "]", "end", "else", "elif", "elsif", "except", "rescue", "ensure", "finally",
];

/// The top-level statements of lines written into a gap (the first at the gap's
/// indentation), in order: a line at that indentation starts one, unless it goes on with
/// the one above ([`GOES_ON`], or that one ends in `,`, an operator or an open bracket).
pub(super) fn statements_of(written: &[String]) -> Vec<Vec<String>> {
    let Some(first) = written.iter().find(|l| !l.trim().is_empty()) else {
        return Vec::new();
    };
    let level = leading_space(first).len();
    let mut statements: Vec<Vec<String>> = Vec::new();
    for line in written {
        let t = line.trim();
        let starts = !t.is_empty()
            && leading_space(line).len() == level
            && !GOES_ON.iter().any(|w| {
                t.strip_prefix(w).is_some_and(|r| {
                    r.is_empty() || !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
            && !statements
                .last()
                .and_then(|s| s.iter().rev().find(|l| !l.trim().is_empty()))
                .is_some_and(|above| continues(above));
        match statements.last_mut() {
            Some(current) if !starts => current.push(line.clone()),
            _ => statements.push(vec![line.clone()]),
        }
    }
    statements
}
