//! The update a comparison's branch leaves out: `if x > best:` without `best = x`.
//!
//! A branch taken when one value passes another usually records it: a running maximum, a
//! range extended to the end of the next one it overlaps, a deadline moved later. Leaving that
//! assignment out is a common missing-statement bug, and the file holds no copy of the missing
//! line for [`super::insertions`] to find: it is made from the condition. So a candidate puts
//! `b = a` (then `a = b`) first in the body of a branch whose whole condition compares two
//! plain names or member paths (`a < b`, `>`, `<=`, `>=`), when the body assigns neither.

use std::collections::BTreeSet;

use super::lexer::*;
use super::{Edit, Operator, Places, TemplateFix, with_line};

/// Candidate updates for `text` (the file at `path`) at `places`, at most `max`, in the
/// places' order (the focus, then the regions), the right operand assigned first.
pub fn updates(path: &str, text: &str, places: &Places, max: usize) -> Vec<TemplateFix> {
    let lang = Lang::of(path);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let code = code_lines(&lines, lang);
    let semicolon = path.ends_with(".rs");
    let mut seen_lines = BTreeSet::new();
    let mut out = Vec::new();
    'places: for &(start, end) in places.focus.iter().chain(&places.regions) {
        for n in start.max(1)..=end.min(lines.len()) {
            if out.len() >= max {
                break 'places;
            }
            if !code[n - 1] || !seen_lines.insert(n) {
                continue;
            }
            let header = split_ending(lines[n - 1]).0;
            let Some((left, right)) = compared_paths(header, lang) else {
                continue;
            };
            let Some(body) = block_below(&lines, &code, n) else {
                continue;
            };
            let first = split_ending(lines[body.0 - 1]);
            let indent = leading_space(first.0);
            let ending = if first.1.is_empty() { "\n" } else { first.1 };
            let end_mark = if semicolon || first.0.trim_end().ends_with(';') {
                ";"
            } else {
                ""
            };
            let assigned = |target: &str| {
                (body.0..=body.1).any(|m| assigns(split_ending(lines[m - 1]).0, target, lang))
            };
            if assigned(&left) || assigned(&right) {
                continue;
            }
            for (target, value) in [(&right, &left), (&left, &right)] {
                let statement = format!("{target} = {value}{end_mark}");
                out.push(TemplateFix {
                    path: path.to_string(),
                    line: body.0,
                    operator: Operator::InsertedStatement,
                    before: String::new(),
                    text: with_line(
                        &lines,
                        body.0,
                        &format!("{indent}{statement}"),
                        ending,
                        Edit::InsertBefore,
                    ),
                    after: statement,
                });
            }
        }
    }
    out.truncate(max);
    out
}

/// The two operands of `line` when it opens a branch (`if`, `elif`, `elsif`, `else if`) whose
/// whole condition is one ordering comparison of two plain names or member paths
/// (`range.end > current.end`, `@count < limit`); `None` otherwise (a loop, a call, an index,
/// a literal, more than one comparison).
fn compared_paths(line: &str, lang: Lang) -> Option<(String, String)> {
    let mut words: Vec<&str> = words(line, lang).into_iter().map(|(_, w)| w).collect();
    // The header's frame: `} else if (`, `elif`, and the `{`, `:` or `then` that opens the body.
    if words.first() == Some(&"}") {
        words.remove(0);
    }
    if words.first() == Some(&"else") {
        words.remove(0);
    }
    if !matches!(words.first(), Some(&("if" | "elif" | "elsif"))) {
        return None;
    }
    words.remove(0);
    let opens = match lang {
        Lang::Python => words.pop() == Some(":"),
        Lang::Ruby => {
            if words.last() == Some(&"then") {
                words.pop();
            }
            true
        }
        Lang::CLike | Lang::Braces => words.pop() == Some("{"),
    };
    if !opens {
        return None;
    }
    if words.first() == Some(&"(") && words.last() == Some(&")") {
        words = words[1..words.len() - 1].to_vec();
    }
    let op = words
        .iter()
        .position(|w| matches!(*w, "<" | ">" | "<=" | ">="))?;
    let (left, right) = (&words[..op], &words[op + 1..]);
    Some((path_text(left)?, path_text(right)?))
}

/// `words` as one name or member path (`a`, `self.lo`, `range.end`, `@size`), else `None`.
fn path_text(words: &[&str]) -> Option<String> {
    let (first, rest) = words.split_first()?;
    let (lead, names) = if *first == "@" {
        ("@", rest)
    } else {
        ("", words)
    };
    let is_name = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && w.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    // A keyword alone is a literal or a built-in (`nil`, `len`); before a `.` it is a
    // variable of a language where it is no keyword (`range.end` in JavaScript).
    let single_keyword = names.len() == 1 && KEYWORDS.contains(&names[0]);
    let shaped = !single_keyword
        && names.len() % 2 == 1
        && names
            .iter()
            .enumerate()
            .all(|(i, w)| if i % 2 == 0 { is_name(w) } else { *w == "." });
    // A member path ends in a field, not in `self` or `this` alone.
    let last = *names.last()?;
    (shaped && !matches!(last, "self" | "this")).then(|| format!("{lead}{}", names.concat()))
}

/// The code lines of the block line `n` opens, as 1-based (first, last): the lines below it
/// indented deeper than it, up to the first that is not. `None` when the next code line is
/// not deeper (a one-line branch, `if x > y { y = x }`).
fn block_below(lines: &[&str], code: &[bool], n: usize) -> Option<(usize, usize)> {
    let depth = |m: usize| leading_space(split_ending(lines[m - 1]).0).len();
    let own = depth(n);
    let mut code_below = (n + 1..=lines.len()).filter(|&m| code[m - 1]);
    let first = code_below.next().filter(|&m| depth(m) > own)?;
    let last = code_below
        .take_while(|&m| depth(m) > own)
        .last()
        .unwrap_or(first);
    Some((first, last))
}

/// Whether `line` assigns `target` (`target = ...`, `target += ...`).
fn assigns(line: &str, target: &str, lang: Lang) -> bool {
    let words: Vec<&str> = words(line, lang).into_iter().map(|(_, w)| w).collect();
    (0..words.len()).any(|i| {
        let mut joined = String::new();
        let mut j = i;
        while j < words.len() && joined.len() < target.len() {
            joined.push_str(words[j]);
            j += 1;
        }
        joined == target
            && (i == 0 || words[i - 1] != ".")
            && words
                .get(j)
                .is_some_and(|w| matches!(*w, "=" | "+=" | "-=" | "*=" | "/=" | "||=" | ":="))
    })
}
