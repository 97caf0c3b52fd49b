//! The line-level lexer the templates work on: languages, code lines, tokens, keywords.

/// Names that are never replaced as variables (keywords and literals of the languages).
pub(crate) const KEYWORDS: &[&str] = &[
    "and",
    "as",
    "async",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "def",
    "default",
    "defer",
    "do",
    "elif",
    "else",
    "elsif",
    "end",
    "enum",
    "except",
    "false",
    "False",
    "finally",
    "fn",
    "for",
    "func",
    "function",
    "go",
    "if",
    "impl",
    "import",
    "in",
    "is",
    "let",
    "loop",
    "match",
    "mut",
    "new",
    "nil",
    "None",
    "not",
    "null",
    "or",
    "pass",
    "pub",
    "raise",
    "range",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "True",
    "try",
    "type",
    "undefined",
    "unless",
    "until",
    "var",
    "when",
    "where",
    "while",
    "with",
    "yield",
    "lambda",
    "nonlocal",
    "global",
    "ref",
    "move",
    "dyn",
    "crate",
    "use",
    "mod",
    "trait",
    "interface",
    "package",
    "export",
    "from",
    "require",
    "module",
    "begin",
    "rescue",
    "ensure",
    "then",
    "puts",
    "print",
    "len",
];

/// The language family, for comments, strings and negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// `#` comments, `not`, `if x:`.
    Python,
    /// `#` comments, `!`/`not`, `if x` / `unless x`.
    Ruby,
    /// `//` comments, `!`, `if (x)`.
    CLike,
    /// `//` comments, `!`, `if x {` (Go, Rust).
    Braces,
}

impl Lang {
    pub(crate) fn of(path: &str) -> Lang {
        match path.rsplit('.').next().unwrap_or("") {
            "py" | "pyi" => Lang::Python,
            "rb" => Lang::Ruby,
            "go" | "rs" => Lang::Braces,
            _ => Lang::CLike,
        }
    }

    pub(crate) fn hash_comments(self) -> bool {
        matches!(self, Lang::Python | Lang::Ruby)
    }

    /// What starts a line comment: `#` in Python and Ruby, `//` elsewhere.
    pub(crate) fn line_comment(self) -> &'static str {
        if self.hash_comments() { "#" } else { "//" }
    }
}

/// A line's text without its line ending, and the ending.
pub(super) fn split_ending(line: &str) -> (&str, &str) {
    let body = line.trim_end_matches(['\n', '\r']);
    (body, &line[body.len()..])
}

/// Which lines hold code worth changing: not blank, not a comment alone, not inside a block
/// comment or a triple-quoted string.
pub(super) fn code_lines(lines: &[&str], lang: Lang) -> Vec<bool> {
    let mut out = Vec::with_capacity(lines.len());
    let mut in_block: Option<&str> = None;
    for line in lines {
        let t = line.trim();
        if let Some(close) = in_block {
            if t.contains(close) {
                in_block = None;
            }
            out.push(false);
            continue;
        }
        let opener = if lang == Lang::Python {
            ["\"\"\"", "'''"].into_iter().find(|q| t.starts_with(q))
        } else {
            t.starts_with("/*").then_some("/*")
        };
        if let Some(open) = opener {
            let close = if open == "/*" { "*/" } else { open };
            if !t[open.len()..].contains(close) {
                in_block = Some(close);
            }
            out.push(false);
            continue;
        }
        let comment = if lang.hash_comments() {
            t.starts_with('#')
        } else {
            t.starts_with("//") || t.starts_with('*')
        };
        out.push(!t.is_empty() && !comment);
    }
    out
}

/// A token of a line: its byte range and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    Op,
    Punct,
    Space,
    Str,
}

pub(super) const OPERATORS: &[&str] = &[
    "===", "!==", "<=>", "<<=", ">>=", "**=", "//=", "...", "..=", "&&=", "||=", "->", "=>", "<-",
    "::", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", ":=", "//",
    "**", "..", "<", ">", "+", "-", "*", "/", "%", "!", "=", "&", "|", "^", "?",
];

/// `line` with the token `t` replaced by `with`.
pub(super) fn with_token(line: &str, t: &Token, with: &str) -> String {
    format!("{}{}{}", &line[..t.start], with, &line[t.end..])
}

/// The spaces and tabs a line starts with: its indentation.
pub(crate) fn leading_space(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The tokens of `line` but its spaces.
pub(crate) fn code_tokens(line: &str, lang: Lang) -> Vec<Token> {
    tokens(line, lang)
        .into_iter()
        .filter(|t| t.kind != Kind::Space)
        .collect()
}

/// The tokens of one line; strings are one token each and a comment ends the line.
pub(crate) fn tokens(line: &str, lang: Lang) -> Vec<Token> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c == b' ' || c == b'\t' {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            Kind::Space
        } else if (lang.hash_comments() && c == b'#')
            || line[i..].starts_with("//") && !lang.hash_comments()
        {
            break;
        } else if c == b'"' || c == b'\'' || c == b'`' {
            if lang == Lang::Braces && c == b'\'' && is_rust_lifetime(b, i) {
                i += 1;
                Kind::Punct
            } else {
                i += 1;
                while i < b.len() && b[i] != c {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                Kind::Str
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                if b[i] == b'.' && !b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    break;
                }
                i += 1;
            }
            Kind::Number
        } else if let Some(op) = OPERATORS.iter().find(|op| line[i..].starts_with(**op)) {
            i += op.len();
            Kind::Op
        } else {
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Punct
        };
        out.push(Token {
            start,
            end: i,
            kind,
        });
    }
    out
}

/// The line's tokens without spaces, each with its text.
pub(super) fn words(line: &str, lang: Lang) -> Vec<(Kind, &str)> {
    tokens(line, lang)
        .into_iter()
        .filter(|t| t.kind != Kind::Space)
        .map(|t| (t.kind, &line[t.start..t.end]))
        .collect()
}

/// `'a` in `&'a str`: a lifetime, not a character literal.
pub(super) fn is_rust_lifetime(b: &[u8], i: usize) -> bool {
    let next_ident = b
        .get(i + 1)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
    next_ident && b.get(i + 2) != Some(&b'\'')
}
