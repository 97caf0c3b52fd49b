//! The line where a failing test breaks inside the code to fix, and the "fix this line" answer.
//!
//! When a test fails with an exception raised in the code under test (`sqlite3.OperationalError`
//! at `src/db.py:48`, a Rust panic at `src/lib.rs:12:5`, a Go or Node stack frame), the
//! runner's output names the line. A small model asked for the whole file or the whole function
//! often copies it back unchanged; asked for that one statement, fixed, it has nothing to copy
//! but the bug. The reply is spliced in place of the statement (re-indented), and every gate
//! still judges the result: a wrong guess fails the tests like any other candidate.
//!
//! Found without a model: the frames of the log that point into the files to change (not into
//! tests), the innermost one (last in a Python traceback, first in Rust, Go and Node traces),
//! widened to the whole statement when its brackets span several lines.

use slopguard_change::{Tree, matcher};
use slopguard_lang::mentions_word;

use crate::context::FunctionTarget;

use super::ApplyError;
use super::context::{frame_regex, repo_path};
use slopguard_toolchain::is_test_file;

/// A statement (one line, or a few when its brackets span them) named by the failure's frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultLine {
    /// The file.
    pub path: String,
    /// 1-based first line of the statement (the frame's line).
    pub start: usize,
    /// 1-based last line (inclusive).
    pub end: usize,
    /// The statement's text as it is in the file.
    pub text: String,
    /// The error the failure printed next to the frame (`sqlite3.OperationalError: near
    /// "brien": syntax error`), when there is one.
    pub error: Option<String>,
    /// Set when no frame named this statement: it is one of the statements of this definition
    /// (the one the failing tests call), offered in turn ([`suspects`]).
    pub suspect_in: Option<FunctionTarget>,
}

/// Longest statement offered for a line fix (lines).
const MAX_STATEMENT_LINES: usize = 8;
/// Longest reply taken as a fixed statement (lines); longer ones are not a line fix.
const MAX_REPLY_LINES: usize = 12;

/// The innermost frame of `log` inside one of `sources` (the files to change, not tests), as
/// the statement that starts there. A frame inside one of the failing `tests` (path, first
/// line, source) is no fault line even in a source file: a Rust unit test's panic names its
/// own `assert_eq!` in `src/lib.rs`. A frame at a definition's first line names no statement
/// ([`opens_a_definition`]).
pub fn fault_line(
    log: &str,
    tree: &dyn Tree,
    sources: &[String],
    tests: &[(String, usize, String)],
) -> Option<FaultLine> {
    let in_a_test = |path: &str, line: usize| {
        tests.iter().any(|(p, start, source)| {
            p == path && (*start..*start + source.lines().count().max(1)).contains(&line)
        })
    };
    let mut frames: Vec<(String, usize, usize)> = Vec::new();
    for cap in frame_regex().captures_iter(log) {
        let at = cap.get(0).map_or(0, |m| m.start());
        let raw = cap.get(1).or_else(|| cap.get(3)).map_or("", |m| m.as_str());
        let line = cap.get(2).or_else(|| cap.get(4)).map_or("", |m| m.as_str());
        let (Some(path), Ok(line)) = (repo_path(raw, tree), line.parse::<usize>()) else {
            continue;
        };
        if line > 0 && !is_test_file(&path) && sources.contains(&path) && !in_a_test(&path, line) {
            frames.push((path, line, at));
        }
    }
    // Python prints the innermost frame last; Rust, Go and Node print it first.
    let innermost_last = frames.first().is_some_and(|(p, _, _)| p.ends_with(".py"));
    let (path, line, at) = if innermost_last {
        frames.pop()?
    } else {
        frames.into_iter().next()?
    };
    let text = String::from_utf8(tree.read(&path).ok().flatten()?).ok()?;
    let mut fault = statement_at(&path, &text, line)?;
    if opens_a_definition(&fault.text) {
        return None;
    }
    fault.error = error_near(log, at);
    Some(fault)
}

/// Whether `statement` is the first line of a definition (`def`, `fn`, `func`, `function`,
/// `class`, ...). A frame there names the definition, not one of its statements: a failing
/// doctest is reported at the line of the function that holds it
/// (`<DocTest m.f from m.py:94>`), and asking the model to write that signature again (it
/// reads no value the tests vary) spends the first answers on a line that is rarely the bug.
fn opens_a_definition(statement: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"^(?:export\s+(?:default\s+)?)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:(?:const|unsafe)\s+)*(?:def|class|module|fn|func|function\*?|impl|struct|enum|trait)\b",
        )
        .expect("definition regex")
    });
    re.is_match(statement.trim_start())
}

/// The error message printed within a few lines of byte offset `at` of `log`: pytest's `E   `
/// lines, a Python `SomeError: ...` line, a Rust panic's message, Node's `Error: ...`.
fn error_near(log: &str, at: usize) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"^(?:E\s+)?([A-Za-z_][\w.]*(?:Error|Exception|Panic)\b:?.*)$")
            .expect("error regex")
    });
    let line_no = log[..at.min(log.len())].matches('\n').count();
    let lines: Vec<&str> = log.lines().collect();
    let near = line_no.saturating_sub(4)..(line_no + 4).min(lines.len());
    let found = lines[near.clone()]
        .iter()
        .filter_map(|l| re.captures(l.trim()))
        .map(|c| c[1].trim().to_string())
        .find(|m| m.contains(':') && m.len() > 8);
    found.map(|m| m.chars().take(200).collect())
}

/// The statement starting at `line` of `text`: that line, and the following ones while its
/// brackets are open or a method chain goes on (at most [`MAX_STATEMENT_LINES`]). `None` for a blank line, a line past
/// the end, or a statement too long to be a line fix.
fn statement_at(path: &str, text: &str, line: usize) -> Option<FaultLine> {
    let lines: Vec<&str> = text.lines().collect();
    let first = *lines.get(line.checked_sub(1)?)?;
    if first.trim().is_empty() {
        return None;
    }
    let mut depth: i32 = 0;
    let mut end = line;
    for (i, l) in lines.iter().enumerate().skip(line - 1) {
        depth += bracket_balance(l);
        end = i + 1;
        // A method chain written one call a line (`.replace(...)`) is one statement.
        let chain_goes_on = lines.get(end).is_some_and(|next| {
            let next = next.trim_start();
            next.starts_with('.') && !next.starts_with("..")
        });
        if depth <= 0 && !chain_goes_on {
            break;
        }
        if end - line + 1 >= MAX_STATEMENT_LINES {
            return None;
        }
    }
    Some(FaultLine {
        path: path.to_string(),
        start: line,
        end,
        text: lines[line - 1..end].join("\n"),
        error: None,
        suspect_in: None,
    })
}

/// The statements of the definition the failing tests call, when no frame names one (a Go or
/// JavaScript assertion fails in the test, not in the code): each is offered to the model
/// alone, as "this code is wrong", one candidate each, and the tests pick. Small models that
/// copy a whole function back unchanged fix a statement they are pointed at (BENCHMARKS.md,
/// the model probe). At most `max`, statements with a call first and those that only raise
/// last; the signature, comments, docstrings and bare control words (`}`, `continue`,
/// `return x`, `else:`) are not offered.
pub fn suspects(function: &FunctionTarget, tree: &dyn Tree, max: usize) -> Vec<FaultLine> {
    let Some(text) = super::context::source_text(tree, &function.path) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let body_end = function.end.min(lines.len());
    let mut found: Vec<FaultLine> = Vec::new();
    let mut in_docstring = false;
    let mut line = signature_end(function, &text).unwrap_or(function.start) + 1;
    while line <= body_end {
        let trimmed = lines[line - 1].trim();
        let docstring_line =
            in_docstring || DOCSTRING_QUOTES.iter().any(|q| trimmed.starts_with(q));
        if DOCSTRING_QUOTES
            .iter()
            .any(|q| trimmed.matches(q).count() == 1)
        {
            in_docstring = !in_docstring;
        }
        let statement = if docstring_line || !worth_offering(trimmed) {
            None
        } else if trimmed.ends_with('{') || trimmed.ends_with(':') {
            // A block header alone: the block's body is offered line by line.
            Some(FaultLine {
                path: function.path.clone(),
                start: line,
                end: line,
                text: lines[line - 1].to_string(),
                error: None,
                suspect_in: None,
            })
        } else {
            statement_at(&function.path, &text, line).filter(|f| f.end <= body_end)
        };
        match statement {
            Some(mut f) => {
                line = f.end + 1;
                f.suspect_in = Some(function.clone());
                found.push(f);
            }
            None => line += 1,
        }
    }
    // Statements that read a parameter first (the tests vary the input, so the wrong value is
    // most likely made from it), then those with a call (where most one-line bugs are); those
    // that only raise an error last (a wrong value is rarely made there); each group in file
    // order.
    let params = lines
        .get(function.start.saturating_sub(1)..body_end)
        .map(parameter_names)
        .unwrap_or_default();
    found.sort_by_key(|f| {
        let raises = ["raise ", "throw ", "panic!("]
            .iter()
            .any(|r| f.text.trim_start().starts_with(r));
        let reads_a_parameter = params.iter().any(|p| mentions_word(&f.text, p));
        (raises, !reads_a_parameter, !f.text.contains('('))
    });
    found.truncate(max);
    found
}

/// The last line of `function`'s signature: its first line, or the line that closes the
/// brackets a signature over several lines opens (`def page(items,` ... `per_page=20):`).
/// `None` when that takes more than [`MAX_STATEMENT_LINES`].
fn signature_end(function: &FunctionTarget, text: &str) -> Option<usize> {
    let first = text
        .lines()
        .nth(function.start.saturating_sub(1))
        .unwrap_or("");
    let trimmed = first.trim_end();
    if trimmed.ends_with('{') || trimmed.ends_with(':') {
        return Some(function.start);
    }
    statement_at(&function.path, text, function.start).map(|s| s.end.min(function.end))
}

/// The signature of `function` when a parameter of it has a default value (`per_page=20`,
/// `{ missing = 'keep' } = {}`, Ruby's `strict: false`), as a statement to offer alone: a
/// wrong default is a bug of its own kind, and one no coverage ranks, since a default is read
/// where the function is defined or called, not on a line of its body. `None` for a signature
/// without one (Rust and Go have none) or one too long to be a line fix.
pub fn signature_with_defaults(function: &FunctionTarget, tree: &dyn Tree) -> Option<FaultLine> {
    let text = super::context::source_text(tree, &function.path)?;
    let end = signature_end(function, &text)?;
    let lines: Vec<&str> = text.lines().collect();
    let signature = lines.get(function.start.checked_sub(1)?..end)?.join("\n");
    let ruby = function.path.ends_with(".rb");
    if !parameter_list(&signature).is_some_and(|p| gives_a_default(p, ruby)) {
        return None;
    }
    Some(FaultLine {
        path: function.path.clone(),
        start: function.start,
        end,
        text: signature,
        error: None,
        suspect_in: Some(function.clone()),
    })
}

/// The text between the first `(` of `signature` and the `)` that closes it, or to the end
/// when it does not close there.
fn parameter_list(signature: &str) -> Option<&str> {
    let open = signature.find('(')?;
    let mut depth = 0;
    for (i, c) in signature[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&signature[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    Some(&signature[open + 1..])
}

/// Whether a parameter list gives a default value: an `=` that is not part of `==`, `=>`,
/// `!=`, `<=` or `>=`; in Ruby also a keyword parameter with a value (`strict: false`).
fn gives_a_default(params: &str, ruby: bool) -> bool {
    let bytes = params.as_bytes();
    let assigns = bytes.iter().enumerate().any(|(i, &b)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + 1).copied();
        b == b'='
            && !matches!(before, Some(b'=' | b'!' | b'<' | b'>'))
            && !matches!(after, Some(b'=' | b'>'))
    });
    let ruby_keyword_value = ruby
        && params.split(',').any(|part| {
            part.split_once(':').is_some_and(|(name, value)| {
                let name = name.trim();
                !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && !value.trim().is_empty()
                    && !value.starts_with(':')
            })
        });
    assigns || ruby_keyword_value
}

/// The parameter names of the definition whose first lines are `lines`: the identifiers that
/// start each comma-separated part of the signature's parameter list (`text string` -> `text`,
/// `values=None` -> `values`, `&mut self` -> `self`, `...rest` -> `rest`). A rough reading,
/// enough to rank statements; empty when no list is found in the first lines.
fn parameter_names(lines: &[&str]) -> Vec<String> {
    let head: String = lines.iter().take(6).copied().collect::<Vec<_>>().join(" ");
    let Some(open) = head.find('(') else {
        return Vec::new();
    };
    let mut depth = 0;
    let mut list = String::new();
    for c in head[open..].chars() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 1 => {
                list.push('\u{0}');
                continue;
            }
            _ => {}
        }
        if depth == 0 {
            break;
        }
        if depth == 1 && c != '(' {
            list.push(c);
        } else if depth > 1 {
            list.push(' ');
        }
    }
    list.split('\u{0}')
        .filter_map(|part| {
            let part = part
                .trim_start()
                .trim_start_matches(['&', '*', '.'])
                .trim_start_matches("mut ")
                .trim_start();
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty() && !name.chars().next().is_some_and(|c| c.is_ascii_digit()))
                .then_some(name)
        })
        .collect()
}

/// The quotes that open and close a Python docstring.
const DOCSTRING_QUOTES: [&str; 2] = ["\"\"\"", "'''"];

/// Whether a trimmed line of a body is worth offering as the wrong statement: not blank, not a
/// comment, not a bare closing bracket or control word.
fn worth_offering(trimmed: &str) -> bool {
    const BARE: [&str; 9] = [
        "continue",
        "continue;",
        "break",
        "break;",
        "else:",
        "pass",
        "return",
        "return;",
        "try:",
    ];
    let comment = ["//", "#", "/*", "*"]
        .iter()
        .any(|c| trimmed.starts_with(c));
    let closing = trimmed.chars().all(|c| "}]);, ".contains(c));
    let else_line = trimmed.trim_start_matches('}').trim() == "else {";
    let returns_a_name = trimmed
        .strip_prefix("return ")
        .map(|r| r.trim_end_matches(';'))
        .is_some_and(|r| r.chars().all(|c| c.is_alphanumeric() || c == '_'));
    !(trimmed.is_empty()
        || comment
        || closing
        || else_line
        || returns_a_name
        || BARE.contains(&trimmed))
}

/// Opening minus closing brackets on a line, outside string literals (a rough count: enough to
/// know whether a call continues on the next line).
fn bracket_balance(line: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        if let Some(q) = quote {
            match c {
                '\\' if !escaped => {
                    escaped = true;
                    continue;
                }
                c if c == q && !escaped => quote = None,
                _ => {}
            }
            escaped = false;
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '#' if line.trim_start().starts_with('#') => break,
            _ => {}
        }
    }
    depth
}

/// The file with the statement replaced by `reply` (the fixed statement, re-indented to where
/// it sits). `None` when the reply is not a statement fix (longer than a statement can be), so
/// the caller reads it another way.
pub fn splice_statement(
    f: &FaultLine,
    current: &[u8],
    reply: &str,
) -> Option<Result<String, ApplyError>> {
    let body: Vec<&str> = reply
        .trim_matches('\n')
        .lines()
        .map(str::trim_end)
        .collect();
    if body.len() > MAX_REPLY_LINES {
        return None;
    }
    let text = String::from_utf8_lossy(current);
    let lines: Vec<&str> = text.lines().collect();
    if f.end > lines.len() {
        return Some(Err(ApplyError::apply(format!(
            "{} has no line {} any more",
            f.path, f.end
        ))));
    }
    let body = without_copied_neighbours(body, &lines[..f.start - 1], &lines[f.end..]);
    let Some(first) = body.iter().find(|l| !l.trim().is_empty()) else {
        return Some(Err(ApplyError::apply("the answer is empty".into())));
    };
    let indent = matcher::indent_of(lines[f.start - 1]);
    let body = with_block_opener_kept(body.join("\n"), &f.text);
    let fixed = matcher::reindent(&body, matcher::indent_of(first), indent);
    let mut out: Vec<&str> = lines[..f.start - 1].to_vec();
    out.extend(fixed.lines());
    out.extend(&lines[f.end..]);
    let mut whole = out.join("\n");
    if text.ends_with('\n') {
        whole.push('\n');
    }
    Some(Ok(whole))
}

/// A block header answered as one line without the bracket or colon that opens its block
/// (`for _, w := range strings.Fields(text)` for `for ... {`, `if x > 0` for `if x >= 0:`): the
/// opener is put back, since the block's body and its closing line stay in the file. Small
/// models drop it often; without it the splice only makes a syntax error. Any other answer is
/// left as it is.
fn with_block_opener_kept(body: String, statement: &str) -> String {
    let old = statement.trim_end();
    let new = body.trim_end();
    if new.contains('\n') || new.trim().is_empty() {
        return body;
    }
    if old.ends_with('{') && !new.ends_with('{') && bracket_balance(new) == bracket_balance(old) - 1
    {
        return format!("{new} {{");
    }
    const PYTHON_BLOCKS: [&str; 8] = [
        "if ", "elif ", "for ", "while ", "with ", "def ", "except", "else",
    ];
    let keyword = PYTHON_BLOCKS
        .iter()
        .find(|k| old.trim_start().starts_with(**k));
    if old.ends_with(':')
        && !new.ends_with(':')
        && keyword.is_some_and(|k| new.trim_start().starts_with(k))
        && bracket_balance(new) == 0
    {
        return format!("{new}:");
    }
    body
}

/// Lines a model copied from around the statement (the line above it, the `return` below),
/// dropped from the ends of its answer so the splice does not write them twice.
fn without_copied_neighbours<'a>(
    mut body: Vec<&'a str>,
    before: &[&str],
    after: &[&str],
) -> Vec<&'a str> {
    const NEAR: usize = 6;
    let near_before: Vec<&str> = before.iter().rev().take(NEAR).map(|l| l.trim()).collect();
    let near_after: Vec<&str> = after.iter().take(NEAR).map(|l| l.trim()).collect();
    let copied = |l: &str, near: &[&str]| !l.trim().is_empty() && near.contains(&l.trim());
    while body.len() > 1 && copied(body[0], &near_before) {
        body.remove(0);
    }
    while body.len() > 1 && copied(body[body.len() - 1], &near_after) {
        body.pop();
    }
    body
}

#[cfg(test)]
mod tests;
