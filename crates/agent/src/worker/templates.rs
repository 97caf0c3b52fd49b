//! Repair templates: candidate fixes that need no model.
//!
//! Most one-line bugs are one token away from the fix: a comparison that should include its
//! bound, a bound off by one, `and` for `or`, a dropped or extra negation (of a whole condition
//! or of one of its operands), `min` for `max` or `trimEnd` for `trim`, two arguments swapped,
//! a value or a dividend one off, the wrong variable of the ones in scope, the wrong word
//! constant of the ones the definition uses. The program-repair literature
//! calls these repair templates (or mutation operators); tried at the statements the failing
//! tests reach, they are cheap candidates, and the same guards and tests that judge the model's
//! candidates select among them. A template that makes the tests pass can still be wrong (the
//! tests may not pin the behaviour down); the run reports where each landed fix came from.
//!
//! Pure text work: [`fixes`] takes a file's text and the places to try ([`Places`]: the
//! statement a frame names and the lines above it first, with every operator, then the
//! definitions the failing tests call) and returns whole new file texts, one token changed
//! each, in the order they are worth trying. Strings and comments are
//! never changed; binary operators are only changed where they stand between spaces (so that
//! generics, arrows and pointers are left alone).

use std::collections::BTreeSet;

/// What a template changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// `<` for `<=`, `>` for `<`, `==` for `!=`, ...
    Comparison,
    /// An integer literal one more or one less.
    OffByOne,
    /// `and` for `or`, `&&` for `||`.
    Logical,
    /// `True` for `False`.
    Boolean,
    /// A negation dropped or added (`not x` -> `x`, `if x:` -> `if not (x):`).
    Negation,
    /// One operand of a condition's `&&`/`||` negated (`a && f(b)` -> `a && !f(b)`).
    SubCondition,
    /// `+` for `-`, `*` for `/`.
    Arithmetic,
    /// A name's sibling (`min` for `max`, `trim` for `trimEnd`, `difference_update` for
    /// `intersection_update`).
    Counterpart,
    /// Two adjacent arguments of a call swapped.
    SwapArguments,
    /// A length one more or one less (`len(x)` -> `len(x) - 1`).
    LengthBound,
    /// A value one more or one less: an assigned or returned value (`lo = mid` -> `lo = mid +
    /// 1`), or the dividend of a division (`n / 3` -> `(n - 1) / 3`).
    ValueBound,
    /// A short string constant replaced by another of the definition (`missing = 'empty'` ->
    /// `missing = 'keep'` where the code compares `missing` with `'keep'`).
    OtherLiteral,
    /// Another variable of the definition in place of one.
    OtherVariable,
}

impl Operator {
    /// The name in traces and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Operator::Comparison => "comparison",
            Operator::OffByOne => "off-by-one",
            Operator::Logical => "logical",
            Operator::Boolean => "boolean",
            Operator::Negation => "negation",
            Operator::SubCondition => "sub-condition",
            Operator::Arithmetic => "arithmetic",
            Operator::Counterpart => "counterpart",
            Operator::SwapArguments => "swap-arguments",
            Operator::LengthBound => "length-bound",
            Operator::ValueBound => "value-bound",
            Operator::OtherLiteral => "other-literal",
            Operator::OtherVariable => "other-variable",
        }
    }

    /// Every operator, in the order they are tried.
    pub const ALL: [Operator; 13] = [
        Operator::Comparison,
        Operator::OffByOne,
        Operator::Logical,
        Operator::Boolean,
        Operator::Negation,
        Operator::SubCondition,
        Operator::Arithmetic,
        Operator::Counterpart,
        Operator::SwapArguments,
        Operator::LengthBound,
        Operator::ValueBound,
        Operator::OtherLiteral,
        Operator::OtherVariable,
    ];
}

/// One candidate fix: a whole new file text with one line changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFix {
    /// The file.
    pub path: String,
    /// 1-based line changed.
    pub line: usize,
    /// The template.
    pub operator: Operator,
    /// The line before (trimmed).
    pub before: String,
    /// The line after (trimmed).
    pub after: String,
    /// The whole file after the change.
    pub text: String,
}

impl TemplateFix {
    /// One line for traces, progress and the commit subject: `` `a < b` -> `a <= b` ``.
    pub fn describe(&self) -> String {
        format!("`{}` -> `{}`", self.before, self.after)
    }
}

/// Sibling names: each member of a group may stand for another (the wrong one of a family of
/// methods, or of a pair of opposites). A name is matched whole, or as one `_`-separated part
/// (`intersection_update` -> `difference_update`).
const SIBLINGS: &[&[&str]] = &[
    &["min", "max"],
    &["Min", "Max"],
    &["minimum", "maximum"],
    &["floor", "ceil"],
    &["lower", "upper"],
    &["toLowerCase", "toUpperCase"],
    &["downcase", "upcase"],
    &["to_lowercase", "to_uppercase"],
    &["ToLower", "ToUpper"],
    &["startswith", "endswith"],
    &["startsWith", "endsWith"],
    &["start_with", "end_with"],
    &["starts_with", "ends_with"],
    &["HasPrefix", "HasSuffix"],
    &["TrimPrefix", "TrimSuffix"],
    &["TrimLeft", "TrimRight", "TrimSpace"],
    &["strip", "lstrip", "rstrip"],
    &["trim", "trimStart", "trimEnd"],
    &["trim", "trim_start", "trim_end"],
    &["first", "last"],
    &["any", "all"],
    &["some", "every"],
    &["keys", "values", "items"],
    &["find", "rfind"],
    &["index", "rindex"],
    &["indexOf", "lastIndexOf"],
    &["Index", "LastIndex"],
    &["partition", "rpartition"],
    &["split", "rsplit"],
    &["union", "intersection", "difference"],
    &["push", "unshift"],
    &["pop", "shift"],
    &["sub", "gsub"],
    &["replace", "replaceAll"],
    &["select", "reject"],
    &["left", "right"],
    &["before", "after"],
];

/// The names that may stand for `word`: its siblings whole, else with one `_` part swapped.
fn siblings(word: &str) -> Vec<String> {
    let whole: Vec<String> = SIBLINGS
        .iter()
        .filter(|g| g.contains(&word))
        .flat_map(|g| g.iter().filter(|m| **m != word).map(|m| m.to_string()))
        .collect();
    if !whole.is_empty() || !word.contains('_') {
        return whole;
    }
    let parts: Vec<&str> = word.split('_').collect();
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        for group in SIBLINGS.iter().filter(|g| g.contains(part)) {
            for other in group.iter().filter(|m| *m != part) {
                let mut swapped = parts.clone();
                swapped[i] = other;
                out.push(swapped.join("_"));
            }
        }
    }
    out
}

/// Names that are never replaced as variables (keywords and literals of the languages).
const KEYWORDS: &[&str] = &[
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

/// Where to try the templates in one file: 1-based inclusive line ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// The statement a failure's frame names, with the lines just above it (the condition
    /// guarding a `raise` or `throw` is often the bug): every operator is tried here first.
    pub focus: Option<(usize, usize)>,
    /// The definitions to try after the focus, most suspicious first (overlaps are tried once).
    pub regions: Vec<(usize, usize)>,
}

impl Places {
    /// Only `regions`, no focus.
    pub fn regions(regions: &[(usize, usize)]) -> Self {
        Places {
            focus: None,
            regions: regions.to_vec(),
        }
    }
}

/// What a line may draw on from its definition: the variables bound there and its short
/// string constants.
#[derive(Debug, Default)]
struct Scope {
    names: Vec<String>,
    /// (name, constant) pairs: the constants each name is assigned or compared with.
    literals: Vec<(String, String)>,
}

/// Candidate fixes for `text` (the file at `path`) at `places`, at most `max`, each one token
/// away from the file as it is, in the order worth trying: the focus lines with every operator
/// first, then the regions operator by operator ([`Operator::ALL`]), and within one operator
/// region by region, line by line.
pub fn fixes(path: &str, text: &str, places: &Places, max: usize) -> Vec<TemplateFix> {
    let lang = Lang::of(path);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let code = code_lines(&lines, lang);
    let in_file = |n: usize| (1..=lines.len()).contains(&n) && code[n - 1];
    let mut seen_lines = BTreeSet::new();
    let focus: Vec<usize> = places
        .focus
        .map(|(start, end)| (start..=end).rev().filter(|n| in_file(*n)).collect())
        .unwrap_or_default();
    seen_lines.extend(focus.iter().copied());
    let mut order: Vec<usize> = Vec::new();
    for &(start, end) in &places.regions {
        for n in start.max(1)..=end.min(lines.len()) {
            if in_file(n) && seen_lines.insert(n) {
                order.push(n);
            }
        }
    }
    // A line draws on the widest region it is in (its definition), not on every region: a
    // name bound in another definition is not in scope there.
    let scopes: Vec<Scope> = places
        .regions
        .iter()
        .map(|r| Scope {
            names: local_names(&lines, &[*r], lang),
            literals: word_literals(&lines, &code, *r, lang),
        })
        .collect();
    let no_scope = Scope::default();
    let scope_of = |n: usize| {
        places
            .regions
            .iter()
            .enumerate()
            .filter(|(_, (a, b))| *a <= n && n <= *b)
            .max_by_key(|(_, (a, b))| b - a)
            .map_or(&no_scope, |(i, _)| &scopes[i])
    };
    let tries = focus
        .iter()
        .flat_map(|n| Operator::ALL.map(|op| (op, *n)))
        .chain(
            Operator::ALL
                .into_iter()
                .flat_map(|op| order.iter().map(move |n| (op, *n))),
        );
    let mut out = Vec::new();
    let mut seen_texts = BTreeSet::new();
    // Each line is tokenised once, however many operators try it.
    let mut tokenised: Vec<Option<Vec<Token>>> = vec![None; lines.len()];
    for (op, n) in tries {
        let (body, ending) = split_ending(lines[n - 1]);
        let toks = tokenised[n - 1].get_or_insert_with(|| tokens(body, lang));
        for after in mutate(body, toks, lang, op, scope_of(n)) {
            if after == body {
                continue;
            }
            let mut new_text = String::with_capacity(text.len() + 8);
            for (i, l) in lines.iter().enumerate() {
                if i + 1 == n {
                    new_text.push_str(&after);
                    new_text.push_str(ending);
                } else {
                    new_text.push_str(l);
                }
            }
            if !seen_texts.insert(new_text.clone()) {
                continue;
            }
            out.push(TemplateFix {
                path: path.to_string(),
                line: n,
                operator: op,
                before: body.trim().to_string(),
                after: after.trim().to_string(),
                text: new_text,
            });
            if out.len() >= max {
                return out;
            }
        }
    }
    out
}

/// The language family, for comments, strings and negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
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
    fn of(path: &str) -> Lang {
        match path.rsplit('.').next().unwrap_or("") {
            "py" | "pyi" => Lang::Python,
            "rb" => Lang::Ruby,
            "go" | "rs" => Lang::Braces,
            _ => Lang::CLike,
        }
    }

    fn hash_comments(self) -> bool {
        matches!(self, Lang::Python | Lang::Ruby)
    }
}

/// A line's text without its line ending, and the ending.
fn split_ending(line: &str) -> (&str, &str) {
    let body = line.trim_end_matches(['\n', '\r']);
    (body, &line[body.len()..])
}

/// Which lines hold code worth changing: not blank, not a comment alone, not inside a block
/// comment or a triple-quoted string.
fn code_lines(lines: &[&str], lang: Lang) -> Vec<bool> {
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
struct Token {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Op,
    Punct,
    Space,
    Str,
}

const OPERATORS: &[&str] = &[
    "===", "!==", "<=>", "<<=", ">>=", "**=", "//=", "...", "..=", "&&=", "||=", "->", "=>", "<-",
    "::", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", ":=", "//",
    "**", "..", "<", ">", "+", "-", "*", "/", "%", "!", "=", "&", "|", "^", "?",
];

/// The tokens of one line; strings are one token each and a comment ends the line.
fn tokens(line: &str, lang: Lang) -> Vec<Token> {
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

/// `'a` in `&'a str`: a lifetime, not a character literal.
fn is_rust_lifetime(b: &[u8], i: usize) -> bool {
    let next_ident = b
        .get(i + 1)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
    next_ident && b.get(i + 2) != Some(&b'\'')
}

/// The candidate lines `op` makes of `line`, whose tokens are `toks`.
fn mutate(line: &str, toks: &[Token], lang: Lang, op: Operator, scope: &Scope) -> Vec<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let replace = |t: &Token, with: &str| format!("{}{}{}", &line[..t.start], with, &line[t.end..]);
    let spaced = |i: usize| {
        i > 0
            && toks[i - 1].kind == Kind::Space
            && toks.get(i + 1).is_some_and(|t| t.kind == Kind::Space)
    };
    let mut out = Vec::new();
    match op {
        Operator::Comparison => {
            for (i, t) in toks.iter().enumerate().filter(|(_, t)| t.kind == Kind::Op) {
                let swaps: &[&str] = match text(t) {
                    "<" if spaced(i) => &["<=", ">"],
                    ">" if spaced(i) => &[">=", "<"],
                    "<=" => &["<", ">="],
                    ">=" => &[">", "<="],
                    "==" => &["!="],
                    "!=" => &["=="],
                    "===" => &["!=="],
                    "!==" => &["==="],
                    _ => &[],
                };
                out.extend(swaps.iter().map(|s| replace(t, s)));
            }
        }
        Operator::OffByOne => {
            for t in toks.iter().filter(|t| t.kind == Kind::Number) {
                let Ok(n) = text(t).parse::<i64>() else {
                    continue;
                };
                out.push(replace(t, &(n + 1).to_string()));
                if n > 0 {
                    out.push(replace(t, &(n - 1).to_string()));
                }
            }
        }
        Operator::Logical => {
            for t in toks {
                let with = match (t.kind, text(t)) {
                    (Kind::Op, "&&") => "||",
                    (Kind::Op, "||") => "&&",
                    (Kind::Ident, "and") if lang.hash_comments() => "or",
                    (Kind::Ident, "or") if lang.hash_comments() => "and",
                    _ => continue,
                };
                out.push(replace(t, with));
            }
        }
        Operator::Boolean => {
            for t in toks.iter().filter(|t| t.kind == Kind::Ident) {
                let with = match text(t) {
                    "True" => "False",
                    "False" => "True",
                    "true" => "false",
                    "false" => "true",
                    _ => continue,
                };
                out.push(replace(t, with));
            }
        }
        Operator::Negation => out.extend(negations(line, toks, lang)),
        Operator::Arithmetic => {
            for (i, t) in toks.iter().enumerate().filter(|(_, t)| t.kind == Kind::Op) {
                let with = match text(t) {
                    "+" if spaced(i) => "-",
                    "-" if spaced(i) => "+",
                    "*" if spaced(i) => "/",
                    "/" if spaced(i) => "*",
                    "+=" => "-=",
                    "-=" => "+=",
                    _ => continue,
                };
                out.push(replace(t, with));
            }
        }
        Operator::SubCondition => out.extend(sub_condition_negations(line, toks, lang)),
        Operator::Counterpart => {
            // Only names that are called or members: a local variable renamed in one place is
            // a name error, and another variable in scope is [`Operator::OtherVariable`].
            for (i, t) in toks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.kind == Kind::Ident)
            {
                let member = i > 0 && matches!(text(&toks[i - 1]), "." | "::");
                let called = toks.get(i + 1).is_some_and(|n| text(n) == "(");
                if !member && !called {
                    continue;
                }
                for other in siblings(text(t)) {
                    out.push(replace(t, &other));
                }
            }
        }
        Operator::SwapArguments => out.extend(argument_swaps(line, toks)),
        Operator::LengthBound => out.extend(length_bounds(line, toks)),
        Operator::ValueBound => out.extend(value_bounds(line, toks)),
        Operator::OtherLiteral => {
            const PER_LINE: usize = 8;
            for (i, t) in toks.iter().enumerate() {
                if t.kind != Kind::Str || !is_word_literal(text(t)) {
                    continue;
                }
                let Some(subject) = literal_subject(line, toks, i) else {
                    continue;
                };
                let quote = &text(t)[..1];
                let others = scope.literals.iter().filter(|(name, lit)| {
                    name == subject && lit != text(t) && lit.starts_with(quote)
                });
                for (_, other) in others {
                    out.push(replace(t, other));
                }
            }
            out.truncate(PER_LINE);
        }
        Operator::OtherVariable => {
            const PER_LINE: usize = 8;
            for (i, t) in toks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.kind == Kind::Ident)
            {
                let word = text(t);
                let member = i > 0 && matches!(text(&toks[i - 1]), "." | "::");
                let called = toks.get(i + 1).is_some_and(|n| text(n) == "(");
                if member || called || !scope.names.iter().any(|l| l == word) {
                    continue;
                }
                for other in scope.names.iter().filter(|l| *l != word) {
                    out.push(replace(t, other));
                }
            }
            out.truncate(PER_LINE);
        }
    }
    out
}

/// A negation dropped (`not x`, `!x`) or the condition of an `if`/`while` negated.
fn negations(line: &str, toks: &[Token], lang: Lang) -> Vec<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let dropped_to = match (t.kind, text(t)) {
            (Kind::Ident, "not") => toks.get(i + 1).map(|n| {
                if n.kind == Kind::Space {
                    n.end
                } else {
                    n.start
                }
            }),
            (Kind::Op, "!") => Some(t.end),
            _ => None,
        };
        if let Some(to) = dropped_to {
            out.push(format!("{}{}", &line[..t.start], &line[to..]));
        }
    }
    // The whole condition negated, where `condition_span` finds it; Ruby's `if` and `unless`
    // swap keywords instead.
    if let Some((from, to)) = condition_span(line, lang) {
        let (head, cond, tail) = (&line[..from], &line[from..to], &line[to..]);
        let indent = &head[..head.len() - head.trim_start().len()];
        let negated = match (lang, head.trim_start()) {
            (Lang::Ruby, "if ") => format!("{indent}unless {cond}{tail}"),
            (Lang::Ruby, "unless ") => format!("{indent}if {cond}{tail}"),
            (Lang::Python, _) => format!("{head}not ({cond}){tail}"),
            _ => format!("{head}!({cond}){tail}"),
        };
        out.push(negated);
    }
    out
}

/// The byte range of the condition of an `if`/`elif`/`while` (`unless` in Ruby) on `line`.
fn condition_span(line: &str, lang: Lang) -> Option<(usize, usize)> {
    let indent = line.len() - line.trim_start().len();
    let t = line.trim();
    let (from, to) = match lang {
        Lang::Python => ["if ", "elif ", "while "].iter().find_map(|kw| {
            t.strip_suffix(':')?;
            t.starts_with(kw).then(|| (kw.len(), t.len() - 1))
        })?,
        Lang::Ruby => ["if ", "unless ", "elsif ", "while "]
            .iter()
            .find_map(|kw| {
                let end = t.strip_suffix(" then").unwrap_or(t).len();
                t.starts_with(kw).then_some((kw.len(), end))
            })?,
        Lang::CLike => ["if (", "} else if (", "else if (", "while ("]
            .iter()
            .find_map(|kw| {
                let rest = t.strip_prefix(kw)?;
                Some((kw.len(), kw.len() + matching_close(rest)?))
            })?,
        Lang::Braces => ["if ", "} else if ", "else if ", "for "]
            .iter()
            .find_map(|kw| {
                let cond = t.strip_prefix(kw)?.strip_suffix('{')?.trim_end();
                (!cond.is_empty() && !cond.contains(';') && !cond.starts_with("let "))
                    .then(|| (kw.len(), kw.len() + cond.len()))
            })?,
    };
    (from < to).then_some((indent + from, indent + to))
}

/// Each operand of a condition joined by `&&`/`||` (`and`/`or`) negated in turn: `if a &&
/// f(b)` -> `if a && !f(b)`. Operands already negated are left to [`negations`], which drops
/// the negation.
fn sub_condition_negations(line: &str, toks: &[Token], lang: Lang) -> Vec<String> {
    let Some((from, to)) = condition_span(line, lang) else {
        return Vec::new();
    };
    let text = |t: &Token| &line[t.start..t.end];
    let mut operands: Vec<(usize, usize)> = Vec::new();
    let (mut depth, mut start) = (0i32, from);
    for t in toks.iter().filter(|t| t.start >= from && t.end <= to) {
        let joins = match (t.kind, text(t)) {
            (Kind::Punct, "(" | "[" | "{") => {
                depth += 1;
                false
            }
            (Kind::Punct, ")" | "]" | "}") => {
                depth -= 1;
                false
            }
            (Kind::Op, "&&" | "||") => depth == 0,
            (Kind::Ident, "and" | "or") => depth == 0 && lang.hash_comments(),
            _ => false,
        };
        if joins {
            operands.push((start, t.start));
            start = t.end;
        }
    }
    operands.push((start, to));
    if operands.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (a, b) in operands {
        let lead = line[a..b].len() - line[a..b].trim_start().len();
        let (a, b) = (a + lead, a + lead + line[a..b].trim().len());
        let operand = &line[a..b];
        if operand.is_empty() || operand.starts_with('!') || operand.starts_with("not ") {
            continue;
        }
        // `f(a, b)` and `(x > 0)` need no brackets of their own; `x > 0` does.
        let simple = !has_top_level_space(operand);
        let negated = match (lang, simple) {
            (Lang::Python, true) => format!("not {operand}"),
            (Lang::Python, false) => format!("not ({operand})"),
            (_, true) => format!("!{operand}"),
            (_, false) => format!("!({operand})"),
        };
        out.push(format!("{}{negated}{}", &line[..a], &line[b..]));
    }
    out
}

/// The index in `rest` (text just after an opening parenthesis) of its closing one.
fn matching_close(rest: &str) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// For each call on the line with two or three arguments, each adjacent pair swapped.
fn argument_swaps(line: &str, toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let is_call = t.kind == Kind::Ident
            && toks
                .get(i + 1)
                .is_some_and(|n| &line[n.start..n.end] == "(");
        if !is_call {
            continue;
        }
        let open = toks[i + 1].end;
        let Some(close) = matching_close(&line[open..]) else {
            continue;
        };
        let args = split_top_level(&line[open..open + close]);
        if !(2..=3).contains(&args.len()) || args.iter().any(|a| a.trim().is_empty()) {
            continue;
        }
        for k in 0..args.len() - 1 {
            let mut swapped: Vec<String> = args.iter().map(|a| a.trim().to_string()).collect();
            swapped.swap(k, k + 1);
            out.push(format!(
                "{}{}{}",
                &line[..open],
                swapped.join(", "),
                &line[open + close..]
            ));
        }
    }
    out
}

/// Whether `expr` has a space outside its brackets and strings (`a.f(b, c)` has none, `x > 0`
/// has).
fn has_top_level_space(expr: &str) -> bool {
    !top_level(expr, char::is_whitespace).is_empty()
}

/// `a, f(b, c), d` -> `["a", " f(b, c)", " d"]`: split at commas outside brackets and strings.
fn split_top_level(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut last = 0;
    for i in top_level(args, |c| c == ',') {
        out.push(&args[last..i]);
        last = i + 1;
    }
    out.push(&args[last..]);
    out
}

/// The byte offsets of the characters of `text` outside brackets and string quotes for which
/// `wanted` holds.
fn top_level(text: &str, wanted: impl Fn(char) -> bool) -> Vec<usize> {
    let mut found = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, c) if depth == 0 && wanted(c) => found.push(i),
            _ => {}
        }
    }
    found
}

/// `len(x)`, `x.length`, `x.len()`, `x.size()`, `x.count()` one more and one less.
fn length_bounds(line: &str, toks: &[Token]) -> Vec<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || !matches!(text(t), "len" | "length" | "size" | "count") {
            continue;
        }
        let end = match toks.get(i + 1) {
            Some(n) if text(n) == "(" => match matching_close(&line[n.end..]) {
                Some(c) => n.end + c + 1,
                None => continue,
            },
            _ if i > 0 && text(&toks[i - 1]) == "." => t.end,
            _ => continue,
        };
        for delta in [" - 1", " + 1"] {
            out.push(format!("{}{}{}", &line[..end], delta, &line[end..]));
        }
    }
    out
}

/// An assigned or returned value one more and one less (`lo = mid` -> `lo = mid + 1`), and the
/// dividend of a division (`n / 3` -> `(n - 1) / 3`). Only values made of names, numbers,
/// members, indexes and arithmetic: a call's result or a string is not a bound.
fn value_bounds(line: &str, toks: &[Token]) -> Vec<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let code: Vec<&Token> = toks.iter().filter(|t| t.kind != Kind::Space).collect();
    let mut out = Vec::new();
    let value_start = match code.first() {
        Some(t) if text(t) == "return" => Some(t.end),
        _ => code
            .iter()
            .position(|t| t.kind == Kind::Op && matches!(text(t), "=" | ":="))
            .filter(|&i| {
                code[..i]
                    .iter()
                    .all(|t| t.kind == Kind::Ident || matches!(text(t), "." | "[" | "]"))
            })
            .map(|i| code[i].end),
    };
    if let Some(start) = value_start {
        let value = line[start..].trim_end().trim_end_matches(';').trim_end();
        let end = start + value.len();
        let inner: Vec<&&Token> = code
            .iter()
            .filter(|t| t.start >= start && t.end <= end)
            .collect();
        let plain = inner.iter().all(|t| match t.kind {
            Kind::Ident => !KEYWORDS.contains(&text(t)) || matches!(text(t), "self" | "this"),
            Kind::Number => true,
            Kind::Op => matches!(text(t), "+" | "-" | "*" | "/" | "//" | "%" | "**"),
            Kind::Punct => matches!(text(t), "." | "[" | "]" | "(" | ")"),
            _ => false,
        });
        if plain && inner.iter().any(|t| t.kind == Kind::Ident) && !value.trim().is_empty() {
            for delta in [" + 1", " - 1"] {
                out.push(format!("{}{delta}{}", &line[..end], &line[end..]));
            }
        }
    }
    for (i, t) in toks.iter().enumerate() {
        let divides = t.kind == Kind::Op && matches!(text(t), "/" | "//" | "%");
        let spaced = i >= 2 && toks[i - 1].kind == Kind::Space;
        if !divides || !spaced {
            continue;
        }
        let dividend = &toks[i - 2];
        let member = i >= 3 && matches!(text(&toks[i - 3]), "." | "::");
        if dividend.kind != Kind::Ident || member || KEYWORDS.contains(&text(dividend)) {
            continue;
        }
        for delta in ["- 1", "+ 1"] {
            out.push(format!(
                "{}({} {delta}){}",
                &line[..dividend.start],
                text(dividend),
                &line[dividend.end..]
            ));
        }
    }
    out
}

/// A short string constant that reads as a word (`'keep'`, `"utf-8"`): the kind a wrong
/// default or a wrong mode is made of.
fn is_word_literal(token: &str) -> bool {
    let Some(quote) = token.chars().next().filter(|q| matches!(q, '"' | '\'')) else {
        return false;
    };
    let Some(inner) = token
        .strip_prefix(quote)
        .and_then(|t| t.strip_suffix(quote))
    else {
        return false;
    };
    (2..=24).contains(&inner.len())
        && inner.starts_with(|c: char| c.is_ascii_alphabetic())
        && inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The word constants of the code lines of `region` with the name each is assigned to or
/// compared with (`missing = 'empty'`, `missing === 'throw'`), for [`Operator::OtherLiteral`]:
/// at most 16, in order of first use. A constant with no such name (an argument, a message)
/// is not listed: swapped for an unrelated one (`typeof x !== 'string'`), it passes tests by
/// accident.
fn word_literals(
    lines: &[&str],
    code: &[bool],
    region: (usize, usize),
    lang: Lang,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for n in region.0.max(1)..=region.1.min(lines.len()) {
        if !code[n - 1] {
            continue;
        }
        let line = split_ending(lines[n - 1]).0;
        let toks = tokens(line, lang);
        for (i, t) in toks.iter().enumerate().filter(|(_, t)| t.kind == Kind::Str) {
            let lit = &line[t.start..t.end];
            let Some(subject) = literal_subject(line, &toks, i) else {
                continue;
            };
            let pair = (subject.to_string(), lit.to_string());
            if is_word_literal(lit) && !out.contains(&pair) && out.len() < 16 {
                out.push(pair);
            }
        }
    }
    out
}

/// The name the string token `toks[i]` is assigned to or compared with: `x` in `x = 'a'`,
/// `x === 'a'`, `self.x != "a"`.
fn literal_subject<'a>(line: &'a str, toks: &[Token], i: usize) -> Option<&'a str> {
    let text = |t: &Token| &line[t.start..t.end];
    let mut k = i.checked_sub(1)?;
    while toks[k].kind == Kind::Space {
        k = k.checked_sub(1)?;
    }
    if !matches!(text(&toks[k]), "=" | "==" | "===" | "!=" | "!==" | ":=") {
        return None;
    }
    k = k.checked_sub(1)?;
    while toks[k].kind == Kind::Space {
        k = k.checked_sub(1)?;
    }
    (toks[k].kind == Kind::Ident).then(|| text(&toks[k]))
}

/// Names bound in the regions (parameters, assignments, loop variables), for
/// [`Operator::OtherVariable`]: at most 12, in order of first binding.
fn local_names(lines: &[&str], regions: &[(usize, usize)], lang: Lang) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |w: &str| {
        if !KEYWORDS.contains(&w) && w.len() < 40 && !names.iter().any(|n| n == w) {
            names.push(w.to_string());
        }
    };
    for &(start, end) in regions {
        for n in start.max(1)..=end.min(lines.len()) {
            let line = split_ending(lines[n - 1]).0;
            let toks = tokens(line, lang);
            let text = |t: &Token| &line[t.start..t.end];
            let code: Vec<&Token> = toks.iter().filter(|t| t.kind != Kind::Space).collect();
            let is_signature = code.first().is_some_and(|t| {
                matches!(
                    text(t),
                    "def" | "fn" | "func" | "function" | "pub" | "async"
                )
            });
            for (k, t) in code.iter().enumerate() {
                if t.kind != Kind::Ident {
                    continue;
                }
                let next = code.get(k + 1).map(|t| text(t));
                let prev = k.checked_sub(1).map(|p| text(code[p]));
                let bound = matches!(next, Some("=" | ":=" | "+=" | "-=" | "*=" | "/=" | "in"))
                    || matches!(prev, Some("let" | "mut" | "const" | "var" | "for"))
                    || (is_signature
                        && matches!(prev, Some("(" | ","))
                        && matches!(next, Some("," | ")" | ":" | "=") | None)
                        || is_signature && lang == Lang::Braces && matches!(prev, Some("(" | ",")));
                if bound && prev != Some(".") {
                    add(text(t));
                }
            }
        }
    }
    // A name the regions call is a function, not a variable to swap in.
    let called: BTreeSet<String> = regions
        .iter()
        .flat_map(|&(start, end)| start.max(1)..=end.min(lines.len()))
        .flat_map(|n| {
            let line = split_ending(lines[n - 1]).0;
            let toks = tokens(line, lang);
            toks.windows(2)
                .filter(|w| w[0].kind == Kind::Ident && &line[w[1].start..w[1].end] == "(")
                .map(|w| line[w[0].start..w[0].end].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    names.retain(|n| !called.contains(n));
    names.truncate(12);
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn afters(path: &str, text: &str, op: Operator) -> Vec<String> {
        let n = text.lines().count();
        fixes(path, text, &Places::regions(&[(1, n)]), 200)
            .into_iter()
            .filter(|f| f.operator == op)
            .map(|f| f.after)
            .collect()
    }

    #[test]
    fn a_comparison_gets_its_bound_and_its_mirror_but_generics_and_arrows_stay() {
        let py = "def f(a, b):\n    return a < b\n";
        assert_eq!(
            afters("m.py", py, Operator::Comparison),
            ["return a <= b", "return a > b"]
        );
        let rs = "fn f(v: Vec<u8>) -> bool {\n    v.len() >= 2\n}\n";
        assert_eq!(
            afters("lib.rs", rs, Operator::Comparison),
            ["v.len() > 2", "v.len() <= 2"]
        );
    }

    #[test]
    fn strings_comments_and_docstrings_are_never_changed() {
        let py = "def f(x):\n    \"\"\"x < 2 is\n    1 < 2\"\"\"\n    s = \"a < b\"  # 1 < 2\n    return s\n";
        let all = fixes("m.py", py, &Places::regions(&[(1, 5)]), 200);
        assert!(
            all.iter()
                .all(|f| f.line == 4 || f.line == 5 || f.line == 1),
            "{all:?}"
        );
        assert!(all.iter().all(|f| !f.after.contains("<=")), "{all:?}");
        assert!(
            all.iter()
                .all(|f| f.after.ends_with("# 1 < 2") || f.line != 4)
        );
    }

    #[test]
    fn off_by_one_on_literals_and_lengths() {
        let js = "function last(xs) {\n  return xs[xs.length - 1];\n}\n";
        let got = afters("a.js", js, Operator::OffByOne);
        assert_eq!(
            got,
            ["return xs[xs.length - 2];", "return xs[xs.length - 0];"]
        );
        let got = afters("a.js", js, Operator::LengthBound);
        assert_eq!(
            got,
            [
                "return xs[xs.length - 1 - 1];",
                "return xs[xs.length + 1 - 1];"
            ]
        );
        let py = "def f(xs):\n    return range(len(xs))\n";
        assert_eq!(
            afters("m.py", py, Operator::LengthBound),
            ["return range(len(xs) - 1)", "return range(len(xs) + 1)"]
        );
    }

    #[test]
    fn negation_is_dropped_or_added_per_language() {
        let py = "def f(x):\n    if x > 0:\n        return not x\n";
        assert_eq!(
            afters("m.py", py, Operator::Negation),
            ["if not (x > 0):", "return x"]
        );
        let go = "func f(x int) bool {\n\tif x > 0 {\n\t\treturn !ok(x)\n\t}\n}\n";
        assert_eq!(
            afters("m.go", go, Operator::Negation),
            ["if !(x > 0) {", "return ok(x)"]
        );
        let js = "function f(x) {\n  if (x.ok && y) {\n  }\n}\n";
        assert_eq!(
            afters("m.js", js, Operator::Negation),
            ["if (!(x.ok && y)) {"]
        );
        let rb = "def f(x)\n  if x.empty?\n  end\nend\n";
        assert_eq!(afters("m.rb", rb, Operator::Negation), ["unless x.empty?"]);
    }

    #[test]
    fn swapped_arguments_counterparts_logical_and_arithmetic() {
        let py = "def f(a, b):\n    return max(a - b, 0) and g(a, b)\n";
        assert!(
            afters("m.py", py, Operator::SwapArguments)
                .contains(&"return max(a - b, 0) and g(b, a)".to_string())
        );
        assert!(
            afters("m.py", py, Operator::SwapArguments)
                .contains(&"return max(0, a - b) and g(a, b)".to_string())
        );
        assert_eq!(
            afters("m.py", py, Operator::Counterpart),
            ["return min(a - b, 0) and g(a, b)"]
        );
        assert_eq!(
            afters("m.py", py, Operator::Logical),
            ["return max(a - b, 0) or g(a, b)"]
        );
        assert_eq!(
            afters("m.py", py, Operator::Arithmetic),
            ["return max(a + b, 0) and g(a, b)"]
        );
    }

    #[test]
    fn another_variable_of_the_definition_replaces_one() {
        let py = "def f(lo, hi):\n    total = 0\n    return lo\n";
        let got = afters("m.py", py, Operator::OtherVariable);
        assert!(got.contains(&"return hi".to_string()), "{got:?}");
        assert!(got.contains(&"return total".to_string()), "{got:?}");
        let rs = "fn f(a: usize, b: usize) -> usize {\n    let c = a;\n    c\n}\n";
        let got = afters("lib.rs", rs, Operator::OtherVariable);
        assert!(got.contains(&"let c = b;".to_string()), "{got:?}");
    }

    #[test]
    fn regions_order_the_lines_and_max_and_duplicates_bound_the_list() {
        let py = "def f(a, b):\n    x = a < b\n    y = a > b\n    return x\n";
        let first = fixes("m.py", py, &Places::regions(&[(3, 3), (1, 4)]), 1);
        assert_eq!(first[0].line, 3);
        assert_eq!(first[0].describe(), "`y = a > b` -> `y = a >= b`");
        assert!(first[0].text.contains("y = a >= b\n"));
        let all = fixes("m.py", py, &Places::regions(&[(1, 4), (1, 4)]), 1000);
        let texts: BTreeSet<&String> = all.iter().map(|f| &f.text).collect();
        assert_eq!(texts.len(), all.len());
    }

    #[test]
    fn crlf_endings_and_rust_lifetimes_survive() {
        let rs = "fn f<'a>(s: &'a str) -> bool {\r\n    s.len() < 3\r\n}\r\n";
        let all = fixes("lib.rs", rs, &Places::regions(&[(1, 3)]), 100);
        let cmp: Vec<&TemplateFix> = all
            .iter()
            .filter(|f| f.operator == Operator::Comparison)
            .collect();
        assert_eq!(
            cmp[0].text,
            "fn f<'a>(s: &'a str) -> bool {\r\n    s.len() <= 3\r\n}\r\n"
        );
    }

    #[test]
    fn another_variable_comes_from_the_lines_own_definition_and_is_never_a_function() {
        let js = "const helper = (a, sep) => {\n  return a + sep;\n};\nfunction f(x, y) {\n  return helper(x, y);\n}\n";
        let all = fixes("m.js", js, &Places::regions(&[(4, 6), (1, 3)]), 500);
        let swaps: Vec<String> = all
            .iter()
            .filter(|f| f.operator == Operator::OtherVariable && f.line == 5)
            .map(|f| f.after.clone())
            .collect();
        assert_eq!(
            swaps,
            ["return helper(y, y);", "return helper(x, x);"],
            "{swaps:?}"
        );
    }

    #[test]
    fn one_operand_of_a_condition_is_negated_at_a_time() {
        let js = "function q(str) {\n  if (str.length > 0 && TEXT.test(str)) {\n  }\n}\n";
        assert_eq!(
            afters("a.js", js, Operator::SubCondition),
            [
                "if (!(str.length > 0) && TEXT.test(str)) {",
                "if (str.length > 0 && !TEXT.test(str)) {"
            ]
        );
        let py = "def f(a, b):\n    if a and not b.ok(1, 2):\n        pass\n";
        assert_eq!(
            afters("m.py", py, Operator::SubCondition),
            ["if not a and not b.ok(1, 2):"]
        );
        let go = "func f(x int, done bool) {\n\tif x > 0 || done {\n\t}\n}\n";
        assert_eq!(
            afters("m.go", go, Operator::SubCondition),
            ["if !(x > 0) || done {", "if x > 0 || !done {"]
        );
        let single = "def f(a):\n    if a > 0:\n        pass\n";
        assert!(afters("m.py", single, Operator::SubCondition).is_empty());
        assert!(has_top_level_space("a.b(c) > d"));
        assert!(!has_top_level_space("a.b(c, d)"));
    }

    #[test]
    fn a_name_stands_for_its_siblings_whole_or_by_part() {
        let js = "function f(value) {\n  value = value.trimEnd()\n}\n";
        assert_eq!(
            afters("a.js", js, Operator::Counterpart),
            ["value = value.trim()", "value = value.trimStart()"]
        );
        let py = "def f(remaining, keys):\n    remaining.intersection_update(keys)\n";
        assert_eq!(
            afters("m.py", py, Operator::Counterpart),
            [
                "remaining.union_update(keys)",
                "remaining.difference_update(keys)"
            ]
        );
        assert!(siblings("intersection").contains(&"difference".to_string()));
        assert!(siblings("update_value").is_empty());
    }

    #[test]
    fn an_assigned_value_or_a_dividend_is_one_more_or_one_less() {
        let py = "def f(lo, mid):\n    lo = mid\n    return None\n";
        assert_eq!(
            afters("m.py", py, Operator::ValueBound),
            ["lo = mid + 1", "lo = mid - 1"]
        );
        let go = "func f(count int) int {\n\tcount += count / 3\n\treturn count\n}\n";
        assert_eq!(
            afters("m.go", go, Operator::ValueBound),
            [
                "count += (count - 1) / 3",
                "count += (count + 1) / 3",
                "return count + 1",
                "return count - 1"
            ]
        );
        let js = "function f(a, b) {\n  const s = g(a, b);\n  name = 'x';\n  return s.total;\n}\n";
        assert_eq!(
            afters("a.js", js, Operator::ValueBound),
            ["return s.total + 1;", "return s.total - 1;"]
        );
    }

    #[test]
    fn a_word_constant_is_replaced_by_another_of_its_definition() {
        let js = "function r(t, { missing = 'empty' } = {}) {\n  if (typeof t !== 'string') return 0\n  if (missing === 'throw') return 1\n  if (missing === 'keep') return 2\n}\nconst other = 'far away';\n";
        let got = afters("a.js", js, Operator::OtherLiteral);
        assert!(
            got.contains(&"function r(t, { missing = 'keep' } = {}) {".to_string()),
            "{got:?}"
        );
        assert!(
            got.iter()
                .all(|a| !a.contains("far away") && !a.contains("missing = 'string'")),
            "{got:?}"
        );
        assert!(
            got.iter().all(|a| !a.starts_with("if (typeof t !==")),
            "a constant compared with another name is not swapped in: {got:?}"
        );
        assert!(is_word_literal("\"utf-8\""));
        assert!(!is_word_literal("'a'"));
        assert!(!is_word_literal("'hello world'"));
    }

    #[test]
    fn the_focus_gets_every_operator_before_the_regions_get_any() {
        let py = "def f(a, b):\n    if a < b:\n        raise ValueError(a)\n    return a < b\n";
        let places = Places {
            focus: Some((2, 3)),
            regions: vec![(1, 4)],
        };
        let all = fixes("m.py", py, &places, 1000);
        let lines: Vec<usize> = all.iter().map(|f| f.line).collect();
        let first_elsewhere = lines.iter().position(|l| *l == 4).unwrap();
        assert!(
            lines[..first_elsewhere].iter().all(|l| *l == 2 || *l == 3),
            "{lines:?}"
        );
        assert_eq!(lines[0], 3, "the frame's own line comes first: {lines:?}");
        assert!(
            all[..first_elsewhere]
                .iter()
                .any(|f| f.operator == Operator::Negation)
        );
    }
}
