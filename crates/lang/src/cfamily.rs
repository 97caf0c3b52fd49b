//! C/C++ error triage. tree-sitter parses C without running the preprocessor, so it reports
//! errors on valid code when a macro stands before a declaration (`EXPORT int f();`,
//! `Q_OBJECT`), when a function-like macro expands to syntax, or when the branches of an
//! `#ifdef` each open a brace. Those errors are moved to
//! [`crate::SourceAnalysis::uncertain_syntax_errors`]; errors with no such explanation stay
//! certain.

use crate::SyntaxError;
use crate::analyze::RawError;

/// Splits tree-sitter's errors into (certain, uncertain).
pub fn classify(src: &str, errors: Vec<RawError>) -> (Vec<SyntaxError>, Vec<SyntaxError>) {
    if errors.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let lines: Vec<&str> = src.lines().collect();
    let unbalanced_branches = preproc_branches_unbalanced(&lines);
    let mut certain = Vec::new();
    let mut uncertain = Vec::new();
    for e in errors {
        let explained = unbalanced_branches
            || e.in_preproc
            || near_macro(&lines, e.error.line as usize)
            || inside_directive(src, e.start_byte);
        if explained {
            uncertain.push(e.error);
        } else {
            certain.push(e.error);
        }
    }
    (certain, uncertain)
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

/// Whether the lines around a 1-based line use a macro the parser cannot see through: an
/// ALL_CAPS identifier called like a function or standing before another identifier or alone
/// on its line, or a compiler extension keyword (`__attribute__`, `__declspec`, ...).
fn near_macro(lines: &[&str], line: usize) -> bool {
    let lo = line.saturating_sub(3);
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
            if is_macro_name(word) {
                let rest = code[i..].trim_start();
                if rest.starts_with('(')
                    || rest.starts_with(|ch: char| ch.is_ascii_alphabetic() || ch == '_')
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

fn is_macro_name(w: &str) -> bool {
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
