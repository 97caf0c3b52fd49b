//! C/C++ error triage. tree-sitter parses C without running the preprocessor, so it reports
//! errors on valid code when a macro stands before a declaration (`EXPORT int f();`,
//! `Q_OBJECT`), when a function-like macro expands to syntax, or when the branches of an
//! `#ifdef` each open a brace. Those errors are moved to
//! [`crate::SourceAnalysis::uncertain_syntax_errors`]; errors with no such explanation stay
//! certain.

use crate::SyntaxError;
use crate::analyze::RawError;

/// Splits tree-sitter's errors into (certain, uncertain).
pub(crate) fn classify(src: &str, errors: Vec<RawError>) -> (Vec<SyntaxError>, Vec<SyntaxError>) {
    if errors.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let lines: Vec<&str> = src.lines().collect();
    let unbalanced_branches = preproc_branches_unbalanced(&lines) || is_fragment(src);
    let mut certain = Vec::new();
    let mut uncertain = Vec::new();
    let mut derailed_tops: Vec<usize> = Vec::new();
    for e in errors {
        let explained = unbalanced_branches
            || derailed_tops.contains(&e.top_start)
            || e.in_preproc
            || unexpected_identifier(&e.error.message)
            || near_macro(&lines, e.error.line as usize)
            || near_macro(&lines, crate::ts::line_col(src, e.top_start).0 as usize + 2)
            || after_directive(&lines, e.error.line as usize)
            || inside_directive(src, e.start_byte);
        if explained {
            derailed_tops.push(e.top_start);
            uncertain.push(e.error);
        } else {
            certain.push(e.error);
        }
    }
    (certain, uncertain)
}

/// Whether C-labelled text (a `.h` file) is really C++: it uses C++-only syntax.
pub(crate) fn looks_like_cpp(src: &str) -> bool {
    let mut in_block_comment = false;
    for line in src.lines() {
        let mut t = line.trim();
        if in_block_comment {
            match t.find("*/") {
                Some(i) => {
                    in_block_comment = false;
                    t = t[i + 2..].trim();
                }
                None => continue,
            }
        }
        if t.starts_with("/*") && !t.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if t.starts_with("//") || t.starts_with('*') {
            continue;
        }
        if t.starts_with("template<")
            || t.starts_with("template <")
            || t.starts_with("namespace ")
            || t.starts_with("using namespace ")
            || t.starts_with("public:")
            || t.starts_with("private:")
            || t.starts_with("protected:")
            || (t.starts_with("class ") && !t.ends_with(';'))
            || t.starts_with("#include <iostream>")
            || t.contains("std::")
        {
            return true;
        }
    }
    false
}

/// "unexpected `name`": a lone identifier the parser could not place is almost always a macro
/// it cannot expand (`forceinline int f()`, `STACK_OF(X) *p`).
fn unexpected_identifier(message: &str) -> bool {
    message
        .strip_prefix("unexpected `")
        .and_then(|m| m.strip_suffix('`'))
        .is_some_and(|w| {
            !w.is_empty()
                && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                && !w.as_bytes()[0].is_ascii_digit()
        })
}

/// A file meant to be `#include`d into the middle of an expression (a table of numbers, an
/// initializer list): its first token cannot start a declaration.
fn is_fragment(src: &str) -> bool {
    let mut rest = src.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1).trim_start();
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1).trim_start();
        } else if rest.starts_with('#') {
            rest = rest.split_once('\n').map_or("", |x| x.1).trim_start();
        } else {
            break;
        }
    }
    rest.starts_with(|c: char| {
        c.is_ascii_digit() || matches!(c, '{' | '.' | ',' | '-' | '"' | '\'')
    })
}

/// Whether any `#if`/`#elif`/`#else` branch opens or closes more braces or parentheses than it
/// closes or opens: such code only parses per configuration.
fn preproc_branches_unbalanced(lines: &[&str]) -> bool {
    // Stack of per-branch (brace, paren) balances; depth 0 is the file itself.
    let mut stack: Vec<(i64, i64)> = Vec::new();
    let mut in_block_comment = false;
    for line in lines {
        let t = line.trim_start();
        if !in_block_comment && let Some(d) = t.strip_prefix('#') {
            let d = d.trim_start();
            let word: String = d.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => stack.push((0, 0)),
                "elif" | "else" | "elifdef" | "elifndef" => {
                    if let Some(top) = stack.last_mut() {
                        if *top != (0, 0) {
                            return true;
                        }
                        *top = (0, 0);
                    }
                }
                "endif" => {
                    if let Some(top) = stack.pop()
                        && top != (0, 0)
                    {
                        return true;
                    }
                }
                _ => {}
            }
            continue;
        }
        let (db, dp) = balance(line, &mut in_block_comment);
        if let Some(top) = stack.last_mut() {
            top.0 += db;
            top.1 += dp;
        }
    }
    false
}

/// Net braces and parentheses on a line, outside strings, chars and comments.
fn balance(line: &str, in_block_comment: &mut bool) -> (i64, i64) {
    let b = line.as_bytes();
    let (mut braces, mut parens) = (0i64, 0i64);
    let mut i = 0;
    while i < b.len() {
        if *in_block_comment {
            if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                *in_block_comment = false;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => break,
            b'/' if b.get(i + 1) == Some(&b'*') => {
                *in_block_comment = true;
                i += 2;
                continue;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'(' => parens += 1,
            b')' => parens -= 1,
            _ => {}
        }
        i += 1;
    }
    (braces, parens)
}

/// The precise C/C++ check: `{}`, `()` and `[]` must balance in the text outside comments,
/// string and char literals and preprocessor lines. Macros cannot explain an imbalance in the
/// text itself (a macro that expands to a brace has no brace in the text), so this holds for
/// any code whose `#if` branches balance, which is checked first. Catches truncated files and
/// deleted closing braces.
pub(crate) fn bracket_balance(src: &str) -> Option<SyntaxError> {
    let lines: Vec<&str> = src.lines().collect();
    if preproc_branches_unbalanced(&lines) || is_fragment(src) {
        return None;
    }
    let b = src.as_bytes();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start {
            // Skip preprocessor lines (with their continuations).
            let mut j = i;
            while j < b.len() && matches!(b[j], b' ' | b'\t') {
                j += 1;
            }
            if b.get(j) == Some(&b'#') {
                while j < b.len() {
                    if b[j] == b'\n'
                        && !(j > 0 && b[j - 1] == b'\\')
                        && !(j > 1 && b[j - 1] == b'\r' && b[j - 2] == b'\\')
                    {
                        break;
                    }
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        // A block comment starting on a directive line.
                        j += 2;
                        while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/')) {
                            j += 1;
                        }
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            line_start = false;
        }
        match c {
            b'\n' => line_start = true,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'R' if b.get(i + 1) == Some(&b'"') => {
                // C++ raw string R"delim( ... )delim".
                let open_end = src[i + 2..].find('(').map(|p| i + 2 + p);
                if let Some(oe) = open_end {
                    let delim = &src[i + 2..oe];
                    if delim.len() <= 16 && !delim.contains(['\n', ' ', '\\', ')']) {
                        let close = format!("){delim}\"");
                        if let Some(p) = src[oe..].find(&close) {
                            i = oe + p + close.len();
                            continue;
                        }
                        return None;
                    }
                }
            }
            b'"' | b'\'' => {
                // A quote after a digit is a C++14 digit separator (1'000'000).
                if c == b'\''
                    && i > 0
                    && b[i - 1].is_ascii_hexdigit()
                    && b.get(i + 1).is_some_and(|d| d.is_ascii_hexdigit())
                {
                    i += 1;
                    continue;
                }
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' | b'(' | b'[' => stack.push((c, i)),
            b'}' | b')' | b']' => {
                let open = match c {
                    b'}' => b'{',
                    b')' => b'(',
                    _ => b'[',
                };
                match stack.pop() {
                    Some((o, _)) if o == open => {}
                    Some((o, pos)) => {
                        let (l, col) = crate::ts::line_col(src, i);
                        let (ol, _) = crate::ts::line_col(src, pos);
                        return Some(SyntaxError::new(
                            l,
                            col,
                            format!(
                                "`{}` does not match `{}` opened on line {ol}",
                                c as char, o as char
                            ),
                        ));
                    }
                    None => {
                        let (l, col) = crate::ts::line_col(src, i);
                        return Some(SyntaxError::new(
                            l,
                            col,
                            format!("unmatched `{}`", c as char),
                        ));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (o, pos) = stack.last().copied()?;
    let (l, col) = crate::ts::line_col(src, pos);
    Some(SyntaxError::new(
        l,
        col,
        format!("`{}` opened here is never closed", o as char),
    ))
}

/// Whether the lines around a 1-based line use a macro the parser cannot see through: an
/// ALL_CAPS identifier called like a function or standing before another identifier or alone
/// on its line, or a compiler extension keyword (`__attribute__`, `__declspec`, ...).
fn near_macro(lines: &[&str], line: usize) -> bool {
    let lo = line.saturating_sub(9);
    let hi = (line + 1).min(lines.len());
    (lo..hi).any(|i| lines.get(i).is_some_and(|l| line_has_macro(l)))
}

fn line_has_macro(line: &str) -> bool {
    let code = match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    };
    let b = code.as_bytes();
    let trimmed = code.trim();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            // Skip string literals.
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &code[start..i];
            if word.starts_with("__") {
                return true;
            }
            if is_macro_name(word) || is_lower_macro_call(word, &code[i..]) {
                let rest = code[i..].trim_start();
                // Juxtaposed with the previous operand (`w LS 24`): an operator macro.
                let after_operand = code[..start]
                    .trim_end()
                    .ends_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_' || ch == ')');
                if rest.starts_with('(')
                    || after_operand
                    || rest.starts_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')
                    || trimmed == word
                    || rest.is_empty() && start == code.len() - code.trim_start().len()
                {
                    return true;
                }
            }
            continue;
        }
        i += 1;
    }
    false
}

/// Well-known lowercase function-like macros whose arguments are not expressions.
fn is_lower_macro_call(w: &str, rest: &str) -> bool {
    matches!(
        w,
        "va_arg" | "offsetof" | "container_of" | "typeof" | "alignof" | "_Generic"
    ) && rest.trim_start().starts_with('(')
}

/// Whether a preprocessor directive comes right before the 1-based line (blank and comment
/// lines skipped): tree-sitter handles directives inside enums, initializers and parameter
/// lists poorly.
fn after_directive(lines: &[&str], line: usize) -> bool {
    let mut i = line.min(lines.len());
    let mut seen = 0;
    while i > 0 && seen < 3 {
        i -= 1;
        let t = lines[i].trim_start();
        if t.starts_with('#') {
            return true;
        }
        if t.is_empty() || t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') {
            continue;
        }
        seen += 1;
    }
    false
}

fn is_macro_name(w: &str) -> bool {
    // `_Xconst`, `_GLIBCXX_NOEXCEPT`: reserved identifiers, in practice macros.
    if w.len() >= 3 && w.starts_with('_') && w.as_bytes()[1].is_ascii_uppercase() {
        return true;
    }
    w.len() >= 2
        && w.bytes().any(|c| c.is_ascii_uppercase())
        && w.bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && !matches!(w, "NULL" | "EOF" | "TRUE" | "FALSE")
}

/// Whether the byte sits on a preprocessor directive line (including continuation lines).
fn inside_directive(src: &str, byte: usize) -> bool {
    let before = src.get(..byte.min(src.len())).unwrap_or("");
    let mut lines = before.rsplit('\n');
    let Some(current) = lines.next() else {
        return false;
    };
    if current.trim_start().starts_with('#') {
        return true;
    }
    // Continuation of a multi-line directive.
    let mut prev_continued = lines.next().is_some_and(|l| l.trim_end().ends_with('\\'));
    if !prev_continued {
        return false;
    }
    for l in before.rsplit('\n').skip(1) {
        if l.trim_start().starts_with('#') {
            return true;
        }
        prev_continued = l.trim_end().ends_with('\\');
        if !prev_continued {
            break;
        }
    }
    let _ = prev_continued;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macro_lines() {
        assert!(line_has_macro("EXPORT int f(void);"));
        assert!(line_has_macro("  Q_OBJECT"));
        assert!(line_has_macro("DEFINE_THING(x)"));
        assert!(line_has_macro("int __attribute__((unused)) x;"));
        assert!(!line_has_macro("int x = MAX;"));
        assert!(!line_has_macro("return NULL;"));
        assert!(!line_has_macro("printf(\"FOO bar\");"));
    }

    #[test]
    fn branches() {
        let src = "#ifdef A\nint f() {\n#else\nint g() {\n#endif\n  return 1;\n}\n";
        let lines: Vec<&str> = src.lines().collect();
        assert!(preproc_branches_unbalanced(&lines));
        let src = "#ifndef H\n#define H\nint f() { return 1; }\n#endif\n";
        let lines: Vec<&str> = src.lines().collect();
        assert!(!preproc_branches_unbalanced(&lines));
    }
}
