//! A second, precise check for Python breakage that tree-sitter recovers from silently.
//!
//! A small tokenizer that follows CPython's rules for what it checks: strings (all prefixes,
//! triple quotes, escapes), comments, brackets, line continuations and the indentation stack.
//! It reports:
//!
//! - a block header (`def f():`, `class C:`, `if x:` ...) with no indented body, including one
//!   cut off at end of file ("expected an indented block");
//! - a dedent to a column that matches no enclosing level ("unindent does not match any outer
//!   indentation level") and an indent where no block opens ("unexpected indent");
//! - unmatched, mismatched and never-closed brackets;
//! - unterminated string literals.
//!
//! Every message mirrors CPython's, so an LLM retry understands it.

use crate::{MAX_ERRORS, SyntaxError};

struct Header {
    /// Byte offset where the header's logical line starts.
    start: usize,
    line: u32,
}

/// Runs the check; returns at most [`MAX_ERRORS`] errors.
pub(crate) fn check(src: &str) -> Vec<SyntaxError> {
    let b = src.as_bytes();
    let mut errors: Vec<SyntaxError> = Vec::new();
    let mut indents: Vec<usize> = vec![0];
    let mut brackets: Vec<(u8, usize)> = Vec::new();
    let mut line: u32 = 1;
    let mut line_start = 0usize;
    // At the start of a physical line that begins a logical line.
    let mut logical_start = true;
    let mut logical_line_start = 0usize;
    let mut logical_line_no: u32 = 1;
    let mut last_sig: u8 = 0;
    let mut pending: Option<Header> = None;
    let mut i = 0usize;
    let col = |pos: usize, ls: usize| -> u32 {
        let c = src.get(ls..pos).map_or(pos - ls, |s| s.chars().count());
        u32::try_from(c + 1).unwrap_or(u32::MAX)
    };

    while i < b.len() && errors.len() < MAX_ERRORS {
        if logical_start {
            logical_start = false;
            // Measure indentation.
            let mut width = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b' ' => width += 1,
                    b'\t' => width = (width / 8 + 1) * 8,
                    0x0c => width = 0,
                    _ => break,
                }
                j += 1;
            }
            let blank = j >= b.len() || matches!(b[j], b'\n' | b'#' | b'\r');
            let blank = blank || (b[j] == b'\\' && b.get(j + 1).is_some_and(|&c| c == b'\n'));
            if !blank {
                logical_line_start = j;
                logical_line_no = line;
                let top = indents.last().copied().unwrap_or(0);
                if let Some(h) = pending.take() {
                    if width > top {
                        indents.push(width);
                    } else {
                        errors.push(SyntaxError::new(
                            line,
                            col(j, line_start),
                            expected_block(src, &h),
                        ));
                    }
                } else if width > top {
                    errors.push(SyntaxError::new(
                        line,
                        col(j, line_start),
                        "unexpected indent",
                    ));
                    indents.push(width);
                } else if width < top {
                    while indents.last().is_some_and(|&t| t > width) {
                        indents.pop();
                    }
                    if indents.last().copied().unwrap_or(0) != width {
                        errors.push(SyntaxError::new(
                            line,
                            col(j, line_start),
                            "unindent does not match any outer indentation level",
                        ));
                        indents.push(width);
                    }
                }
                last_sig = 0;
            }
            i = j;
            continue;
        }
        let c = b[i];
        match c {
            b'\n' => {
                if brackets.is_empty() {
                    if last_sig == b':' && pending.is_none() {
                        pending = Some(Header {
                            start: logical_line_start,
                            line: logical_line_no,
                        });
                    }
                    logical_start = true;
                    last_sig = 0;
                }
                line += 1;
                i += 1;
                line_start = i;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'\\' => {
                // Line continuation (or a stray backslash, which tree-sitter reports).
                if b.get(i + 1) == Some(&b'\n') {
                    line += 1;
                    i += 2;
                    line_start = i;
                } else if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                    line += 1;
                    i += 3;
                    line_start = i;
                } else {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let start = i;
                let start_line = line;
                let start_col = col(i, line_start);
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                // f-string (PEP 701): inside `{ }` replacement fields, newlines and nested
                // strings with the same quote are allowed.
                let is_f = src
                    .get(start.saturating_sub(3)..start)
                    .unwrap_or("")
                    .trim_start_matches(|ch: char| !ch.is_ascii_alphabetic())
                    .chars()
                    .rev()
                    .take_while(|ch| ch.is_ascii_alphabetic())
                    .any(|ch| matches!(ch, 'f' | 'F' | 't' | 'T'));
                let mut field_depth = 0usize;
                i += if triple { 3 } else { 1 };
                let mut closed = false;
                while i < b.len() {
                    let d = b[i];
                    if is_f {
                        if d == b'{' {
                            if field_depth == 0 && b.get(i + 1) == Some(&b'{') {
                                i += 2;
                                continue;
                            }
                            field_depth += 1;
                            i += 1;
                            continue;
                        }
                        if d == b'}' && field_depth > 0 {
                            field_depth -= 1;
                            i += 1;
                            continue;
                        }
                        if field_depth > 0 {
                            if d == b'\n' {
                                line += 1;
                                line_start = i + 1;
                                i += 1;
                                continue;
                            }
                            if d == b'"' || d == b'\'' {
                                // A nested string inside the replacement field.
                                i += 1;
                                while i < b.len() && b[i] != d && b[i] != b'\n' {
                                    if b[i] == b'\\' {
                                        i += 1;
                                    }
                                    i += 1;
                                }
                                i += 1;
                                continue;
                            }
                        }
                    }
                    if d == b'\\' {
                        if b.get(i + 1) == Some(&b'\n') {
                            line += 1;
                            line_start = i + 2;
                        } else if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                            line += 1;
                            i += 3;
                            line_start = i;
                            continue;
                        }
                        i += 2;
                        continue;
                    }
                    if d == b'\n' {
                        if !triple {
                            break;
                        }
                        line += 1;
                        line_start = i + 1;
                    }
                    if d == c && (!triple || (b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c)))
                    {
                        i += if triple { 3 } else { 1 };
                        closed = true;
                        break;
                    }
                    i += 1;
                }
                if !closed {
                    let msg = if triple {
                        "unterminated triple-quoted string literal"
                    } else {
                        "unterminated string literal"
                    };
                    errors.push(SyntaxError::new(start_line, start_col, msg));
                    if triple {
                        return errors;
                    }
                }
                last_sig = c;
            }
            b'(' | b'[' | b'{' => {
                brackets.push((c, i));
                last_sig = c;
                i += 1;
            }
            b')' | b']' | b'}' => {
                let open = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match brackets.pop() {
                    None => {
                        errors.push(SyntaxError::new(
                            line,
                            col(i, line_start),
                            format!("unmatched `{}`", c as char),
                        ));
                    }
                    Some((o, _)) if o != open => {
                        errors.push(SyntaxError::new(
                            line,
                            col(i, line_start),
                            format!(
                                "closing bracket `{}` does not match opening bracket `{}`",
                                c as char, o as char
                            ),
                        ));
                    }
                    Some(_) => {}
                }
                last_sig = c;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0c => i += 1,
            _ => {
                last_sig = c;
                i += 1;
            }
        }
    }
    if errors.len() < MAX_ERRORS {
        if let Some(&(o, pos)) = brackets.last() {
            let (l, c) = crate::ts::line_col(src, pos);
            errors.push(SyntaxError::new(
                l,
                c,
                format!("`{}` was never closed", o as char),
            ));
        } else if last_sig == b':' && pending.is_none() {
            // The file ends right after a block header with no newline.
            pending = Some(Header {
                start: logical_line_start,
                line: logical_line_no,
            });
        }
    }
    if let Some(h) = pending
        && errors.len() < MAX_ERRORS
    {
        errors.push(SyntaxError::new(
            h.line,
            1 + src
                .get(..h.start)
                .map_or(0, |s| s.rsplit('\n').next().unwrap_or("").chars().count())
                as u32,
            format!("{} at end of file", expected_block(src, &h)),
        ));
    }
    errors
}

fn expected_block(src: &str, h: &Header) -> String {
    let header = src.get(h.start..).unwrap_or("");
    let first = header.lines().next().unwrap_or("").trim();
    let snippet: String = first.chars().take(60).collect();
    format!(
        "expected an indented block after `{snippet}` on line {}",
        h.line
    )
}

#[cfg(test)]
mod tests {
    use super::check;

    fn msgs(src: &str) -> Vec<String> {
        check(src).into_iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn valid_code_is_clean() {
        let src = "x = f\"{(\n  1 +\n  2)} {d[\"k\"]} {{literal}}\"\nimport os\n\n\nclass A:\n    '''doc\n  with odd indent'''\n    def f(self, x=[1,\n  2]):\n        if x:  # c\n            return {'a': (1, 2)}\n        return \\\n  3\n\n\n# trailing comment\ndef g(): return 1\nx = f'{1}' r'\\'' b\"\\\"\"\n";
        assert!(msgs(src).is_empty(), "{:?}", msgs(src));
    }

    #[test]
    fn blind_spots() {
        assert_eq!(
            msgs("def f():\n    return 1\n\ndef g():\n"),
            vec!["4:1: expected an indented block after `def g():` on line 4 at end of file"]
        );
        assert_eq!(msgs("class C:").len(), 1);
        assert_eq!(
            msgs("if x:\n    a = 1\n  b = 2\n"),
            vec!["3:3: unindent does not match any outer indentation level"]
        );
        assert_eq!(msgs("x = (1,\n"), vec!["1:5: `(` was never closed"]);
        assert_eq!(msgs("x = 1)\n"), vec!["1:6: unmatched `)`"]);
        assert_eq!(msgs("x = 'abc\n"), vec!["1:5: unterminated string literal"]);
        assert_eq!(
            msgs("x = '''abc\n"),
            vec!["1:5: unterminated triple-quoted string literal"]
        );
        assert_eq!(msgs("x = 1\n    y = 2\n"), vec!["2:5: unexpected indent"]);
    }
}
