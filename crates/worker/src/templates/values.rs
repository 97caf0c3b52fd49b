//! Templates that change a value: sibling names, lengths and bounds one off, word constants,
//! other variables in scope, other members of a receiver, other numbers of the definition.

use super::*;

/// Sibling names: each member of a group may stand for another (the wrong one of a family of
/// methods, or of a pair of opposites). A name is matched whole, or as one `_`-separated part
/// (`intersection_update` -> `difference_update`).
pub(super) const SIBLINGS: &[&[&str]] = &[
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
pub(super) fn siblings(word: &str) -> Vec<String> {
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

/// `len(x)`, `x.length`, `x.len()`, `x.size()`, `x.count()` one more and one less.
pub(super) fn length_bounds(line: &str, toks: &[Token]) -> Vec<String> {
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
pub(super) fn value_bounds(line: &str, toks: &[Token]) -> Vec<String> {
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
    for (_, dividend) in plain_dividends(line, toks, &["/", "//", "%"]) {
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

/// The operators among `ops` (`/`, `//`, `%`) spaced from a dividend that is a plain name (not
/// a member, not a keyword): (the operator's token index, the dividend).
fn plain_dividends<'t>(
    line: &'t str,
    toks: &'t [Token],
    ops: &'t [&str],
) -> impl Iterator<Item = (usize, &'t Token)> + 't {
    let text = move |t: &Token| &line[t.start..t.end];
    toks.iter().enumerate().filter_map(move |(i, t)| {
        let divides = t.kind == Kind::Op && ops.contains(&text(t));
        if !divides || i < 2 || toks[i - 1].kind != Kind::Space {
            return None;
        }
        let dividend = &toks[i - 2];
        let member = i >= 3 && matches!(text(&toks[i - 3]), "." | "::");
        let plain = dividend.kind == Kind::Ident && !member && !KEYWORDS.contains(&text(dividend));
        plain.then_some((i, dividend))
    })
}

/// Each division of the line whose divisor is a plain name or integer, rounded up
/// ([`rounded_up`]).
pub(super) fn rounded_up_divisions(line: &str, toks: &[Token]) -> Vec<String> {
    plain_dividends(line, toks, &["/", "//"])
        .filter_map(|(i, dividend)| rounded_up(line, toks, i, dividend))
        .collect()
}

/// The division at operator token `op` (dividend `dividend`) rounded up instead of down, when
/// the divisor is a plain name or integer: `-(-n // k)` for Python's `//`, `(n + k - 1) / k`
/// for `/` (`(n + 2) / 3` for a literal). A page, chunk or bucket count that drops the last
/// partial one is the classic off-by-one of a division, and no one-token change fixes it.
fn rounded_up(line: &str, toks: &[Token], op: usize, dividend: &Token) -> Option<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let operator = text(&toks[op]);
    let mut rest = toks[op + 1..].iter().filter(|t| t.kind != Kind::Space);
    let divisor = rest.next()?;
    let plain = match divisor.kind {
        Kind::Ident => !KEYWORDS.contains(&text(divisor)),
        Kind::Number => text(divisor).bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    };
    // `k.size`, `k(...)`, `k[i]`, `k ** 2`: the divisor is more than one token.
    let alone = rest
        .next()
        .is_none_or(|t| !matches!(text(t), "." | "(" | "[" | "::" | "**" | "*"));
    if !plain || !alone {
        return None;
    }
    let (n, k) = (text(dividend), text(divisor));
    let before = &line[..dividend.start];
    let after = &line[divisor.end..];
    if operator == "//" {
        return Some(format!("{before}-(-{n} // {k}){after}"));
    }
    let up = match k.parse::<u64>() {
        // `/ 1` rounds nothing, and `(n + 1) / 2` is already a value bound of the dividend.
        Ok(0..=2) => return None,
        Ok(k) => format!("{n} + {}", k - 1),
        Err(_) => format!("{n} + {k} - 1"),
    };
    Some(format!("{before}({up}) / {k}{after}"))
}

/// A short string constant that reads as a word (`'keep'`, `"utf-8"`): the kind a wrong
/// default or a wrong mode is made of.
pub(super) fn is_word_literal(token: &str) -> bool {
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

/// The word constants of a region's code lines with the name each is assigned to or
/// compared with (`missing = 'empty'`, `missing === 'throw'`), for [`Operator::OtherLiteral`]:
/// at most 16, in order of first use. A constant with no such name (an argument, a message)
/// is not listed: swapped for an unrelated one (`typeof x !== 'string'`), it passes tests by
/// accident.
pub(super) fn word_literals(code_lines: &[(&str, Vec<Token>)]) -> Vec<(String, String)> {
    let lines = code_lines
        .iter()
        .map(|(line, toks)| (*line, toks.as_slice()));
    named_word_constants(lines, literal_subject, 16)
}

/// The word constants of `lines` (each with its tokens) that `subject` names, as (name,
/// constant) pairs: at most `most`, each once, in order.
fn named_word_constants<'a>(
    lines: impl IntoIterator<Item = (&'a str, &'a [Token])>,
    subject: for<'b> fn(&'b str, &[Token], usize) -> Option<&'b str>,
    most: usize,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (line, toks) in lines {
        for (i, t) in toks.iter().enumerate().filter(|(_, t)| t.kind == Kind::Str) {
            let lit = &line[t.start..t.end];
            let Some(name) = subject(line, toks, i) else {
                continue;
            };
            let pair = (name.to_string(), lit.to_string());
            if is_word_literal(lit) && !out.contains(&pair) && out.len() < most {
                out.push(pair);
            }
        }
    }
    out
}

/// The word constants the documentation of `region` gives a name (`missing: 'keep'`,
/// `missing='keep'`, JSDoc's `[options.missing='keep']`), for [`Operator::OtherLiteral`]: the
/// comment lines right above the definition, its lines that are not code (a docstring, a
/// comment) and the file's header (`header`, [`header_comment`]). A wrong default is often one the
/// documentation contradicts, and the right value may appear nowhere in the code
/// (`missing === 'keep'` is never written where keeping is what happens when no other mode
/// matches). At most 8, in order.
pub(super) fn documented_literals(
    lines: &[&str],
    code: &[bool],
    region: (usize, usize),
    header: &[usize],
    lang: Lang,
) -> Vec<(String, String)> {
    let (start, end) = (region.0.max(1), region.1.min(lines.len()));
    let above = (1..start)
        .rev()
        .take_while(|n| !code[n - 1] && !lines[n - 1].trim().is_empty());
    let inside = (start..=end).filter(|n| !code[n - 1]);
    // Each line's text as code: its comment markers and the backticks that quote code in it
    // dropped, so that the lexer reads `missing: 'keep'` as a name and a string.
    let docs: Vec<(String, Vec<Token>)> = above
        .chain(inside)
        .chain(header.iter().copied())
        .map(|n| {
            let text = split_ending(lines[n - 1])
                .0
                .trim_start()
                .trim_start_matches(['/', '*', '#', '"', '\''])
                .replace('`', " ");
            let toks = tokens(&text, lang);
            (text, toks)
        })
        .collect();
    let docs = docs
        .iter()
        .map(|(text, toks)| (text.as_str(), toks.as_slice()));
    named_word_constants(docs, documented_subject, 8)
}

/// The 1-based lines of the comment a file opens with (a module docstring, a header, Go's
/// package comment, Rust's `//!`), read up to the first code line that is not a prologue
/// (`'use strict'`, `package`, an import), within the first 60 lines.
pub(super) fn header_comment(lines: &[&str], code: &[bool]) -> Vec<usize> {
    let prologue = |line: &str| {
        let t = line.trim().trim_end_matches(';');
        let lone_string = t.len() >= 2
            && (t.starts_with('\'') && t.ends_with('\'') || t.starts_with('"') && t.ends_with('"'));
        lone_string
            || ["package ", "import ", "require", "use ", "from ", "#!"]
                .iter()
                .any(|p| t.starts_with(p))
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate().take(60) {
        if code[i] && !prologue(line) {
            break;
        }
        if !code[i] && !line.trim().is_empty() {
            out.push(i + 1);
        }
    }
    out
}

/// The name documentation gives the string token `toks[i]`: `x` in `x: 'a'` or `x='a'`
/// (`[opts.x='a']`).
fn documented_subject<'a>(text: &'a str, toks: &[Token], i: usize) -> Option<&'a str> {
    let mut before = toks[..i].iter().rev().filter(|t| t.kind != Kind::Space);
    let sign = before.next()?;
    if !matches!(&text[sign.start..sign.end], ":" | "=") {
        return None;
    }
    before
        .next()
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| &text[t.start..t.end])
}

/// The code lines of `region` (comments, strings and blank lines left out), each with its
/// tokens: what [`word_literals`], [`members`] and [`numbers`] read, tokenised once.
pub(super) fn code_lines_of<'a>(
    lines: &[&'a str],
    code: &[bool],
    region: (usize, usize),
    lang: Lang,
) -> Vec<(&'a str, Vec<Token>)> {
    (region.0.max(1)..=region.1.min(lines.len()))
        .filter(|n| code[n - 1])
        .map(|n| {
            let line = split_ending(lines[n - 1]).0;
            (line, tokens(line, lang))
        })
        .collect()
}

/// The name the string token `toks[i]` is assigned to or compared with: `x` in `x = 'a'`,
/// `x === 'a'`, `self.x != "a"`.
pub(super) fn literal_subject<'a>(line: &'a str, toks: &[Token], i: usize) -> Option<&'a str> {
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

/// Whether `line` (tokenised as `toks`) opens a definition: its first word is `def`, `fn`,
/// `func`, `function`, `pub` or `async`.
pub(super) fn is_signature(line: &str, toks: &[Token]) -> bool {
    toks.iter()
        .find(|t| t.kind != Kind::Space)
        .is_some_and(|t| {
            matches!(
                &line[t.start..t.end],
                "def" | "fn" | "func" | "function" | "pub" | "async"
            )
        })
}

/// Most names [`local_names`] lists.
const MAX_NAMES: usize = 40;

/// Names bound in the regions (parameters, assignments, loop variables), for
/// [`Operator::OtherVariable`]: at most [`MAX_NAMES`], in order of first binding, each with
/// the 1-based line of that binding.
pub(super) fn local_names(
    lines: &[&str],
    regions: &[(usize, usize)],
    lang: Lang,
) -> Vec<(String, usize)> {
    let mut names: Vec<(String, usize)> = Vec::new();
    let mut add = |w: &str, n: usize| {
        if !KEYWORDS.contains(&w) && w.len() < 40 && !names.iter().any(|(name, _)| name == w) {
            names.push((w.to_string(), n));
        }
    };
    for &(start, end) in regions {
        for n in start.max(1)..=end.min(lines.len()) {
            let line = split_ending(lines[n - 1]).0;
            let toks = tokens(line, lang);
            let text = |t: &Token| &line[t.start..t.end];
            let code: Vec<&Token> = toks.iter().filter(|t| t.kind != Kind::Space).collect();
            let is_signature = is_signature(line, &toks);
            // Open parentheses, each `true` when it opens a list of result types (Go's
            // `(int, error)` after the parameters' `)`), which binds no name.
            let mut groups: Vec<bool> = Vec::new();
            for (k, t) in code.iter().enumerate() {
                let prev = k.checked_sub(1).map(|p| text(code[p]));
                match text(t) {
                    "(" => groups.push(prev == Some(")")),
                    ")" => {
                        groups.pop();
                    }
                    _ => {}
                }
                if t.kind != Kind::Ident {
                    continue;
                }
                let next = code.get(k + 1).map(|t| text(t));
                let in_parameters = is_signature && groups.last() == Some(&false);
                let bound = matches!(next, Some("=" | ":=" | "+=" | "-=" | "*=" | "/=" | "in"))
                    || matches!(prev, Some("let" | "mut" | "const" | "var" | "for"))
                    || (in_parameters
                        && matches!(prev, Some("(" | ","))
                        && matches!(next, Some("," | ")" | ":" | "=") | None)
                        || in_parameters
                            && lang == Lang::Braces
                            && matches!(prev, Some("(" | ",")));
                if bound && prev != Some(".") {
                    add(text(t), n);
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
    names.retain(|(n, _)| !called.contains(n));
    names.truncate(MAX_NAMES);
    names
}

/// A member used on a receiver in a definition: `end` of `range.end`, `strip` of `s.strip()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    receiver: String,
    name: String,
    /// Called (`s.strip()`), or read (`range.end`).
    called: bool,
}

/// Most members listed per definition.
const MAX_MEMBERS: usize = 24;

/// The members used on each plain receiver (a name: `self`, `this`, `range`, `entry`) in a
/// region's code lines, in order of first use, for [`Operator::OtherMember`]. A member of a
/// call's result or of an index (`f().x`, `a[i].x`) is not listed: its receiver is not a name
/// whose other members the definition shows.
pub(super) fn members(code_lines: &[(&str, Vec<Token>)]) -> Vec<Member> {
    let mut out: Vec<Member> = Vec::new();
    for (line, toks) in code_lines {
        for i in 0..toks.len() {
            if let Some(m) = member_at(line, toks, i)
                && !out.contains(&m)
                && out.len() < MAX_MEMBERS
            {
                out.push(m);
            }
        }
    }
    out
}

/// The member `toks[i]` names, when it is `receiver.name` with a plain name as receiver.
fn member_at(line: &str, toks: &[Token], i: usize) -> Option<Member> {
    let text = |t: &Token| &line[t.start..t.end];
    let t = &toks[i];
    if t.kind != Kind::Ident || i < 2 || text(&toks[i - 1]) != "." {
        return None;
    }
    let receiver = &toks[i - 2];
    let plain = receiver.kind == Kind::Ident
        && (!KEYWORDS.contains(&text(receiver)) || matches!(text(receiver), "self" | "this"))
        && (i < 3 || !matches!(text(&toks[i - 3]), "." | "::"));
    plain.then(|| Member {
        receiver: text(receiver).to_string(),
        name: text(t).to_string(),
        called: toks.get(i + 1).is_some_and(|n| text(n) == "("),
    })
}

/// Each member of the line in place of another the definition uses on the same receiver, read
/// for read and called for called (`range.start` -> `range.end`), at most eight.
pub(super) fn other_members(line: &str, toks: &[Token], members: &[Member]) -> Vec<String> {
    const PER_LINE: usize = 8;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Some(here) = member_at(line, toks, i) else {
            continue;
        };
        let others = members.iter().filter(|m| {
            m.receiver == here.receiver && m.called == here.called && m.name != here.name
        });
        out.extend(others.map(|other| with_token(line, t, &other.name)));
    }
    out.truncate(PER_LINE);
    out
}

/// Most numbers listed per definition.
const MAX_NUMBERS: usize = 12;

/// The integer literals of a region's code lines, in order of first use, for
/// [`Operator::OtherNumber`].
pub(super) fn numbers(code_lines: &[(&str, Vec<Token>)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (line, toks) in code_lines {
        for t in toks.iter().filter(|t| is_integer(line, t)) {
            let number = &line[t.start..t.end];
            if !out.iter().any(|o| o == number) && out.len() < MAX_NUMBERS {
                out.push(number.to_string());
            }
        }
    }
    out
}

/// Whether `t` is a plain decimal integer literal.
fn is_integer(line: &str, t: &Token) -> bool {
    t.kind == Kind::Number && line[t.start..t.end].bytes().all(|b| b.is_ascii_digit())
}

/// Each integer the line uses once, in place of one it uses at least twice, when the line
/// has both ([`Operator::OddNumber`]): `a < 10 && b < 10 && c < 10 && d < 0` -> `d < 10`.
/// At most four.
pub(super) fn odd_numbers(line: &str, toks: &[Token]) -> Vec<String> {
    const PER_LINE: usize = 4;
    let integers: Vec<&Token> = toks.iter().filter(|t| is_integer(line, t)).collect();
    let count = |n: &str| {
        integers
            .iter()
            .filter(|t| &line[t.start..t.end] == n)
            .count()
    };
    let mut repeated: Vec<&str> = Vec::new();
    for t in &integers {
        let n = &line[t.start..t.end];
        if count(n) > 1 && !repeated.contains(&n) {
            repeated.push(n);
        }
    }
    let mut out = Vec::new();
    for t in integers
        .iter()
        .filter(|t| count(&line[t.start..t.end]) == 1)
    {
        out.extend(repeated.iter().map(|n| with_token(line, t, n)));
    }
    out.truncate(PER_LINE);
    out
}

/// Each integer of the line in place of another of the definition's that is not one off
/// ([`Operator::OffByOne`] writes those), at most eight.
pub(super) fn other_numbers(line: &str, toks: &[Token], numbers: &[String]) -> Vec<String> {
    const PER_LINE: usize = 8;
    let mut out = Vec::new();
    for t in toks.iter().filter(|t| is_integer(line, t)) {
        let here = &line[t.start..t.end];
        let Ok(value) = here.parse::<u64>() else {
            continue;
        };
        let others = numbers
            .iter()
            .filter(|o| o.parse::<u64>().is_ok_and(|v| v.abs_diff(value) > 1));
        out.extend(others.map(|other| with_token(line, t, other)));
    }
    out.truncate(PER_LINE);
    out
}

/// Each difference of two terms on the line (`a - b`, the `-` spaced) the other way round
/// (`b - a`): a difference taken backwards, an age written `born - now`, a sort key or
/// comparator that orders ascending where it should order descending. Program repair's
/// template catalogues list it as an operand swap (TBar's "mutate operators"); no one-token
/// change writes it. A term is one unspaced operand (`x`, `a.b`, `f(x)`, `v[i]`, not a
/// number alone: `n - 1` the other way round is no one's bug), and the difference must stand
/// alone between delimiters of lower precedence (a bracket, a comma, `=`, a comparison,
/// `&&`, `return`...): in `c + a - b` or `a - b * c` the two terms are not one difference,
/// and swapping them would not negate it.
pub(super) fn reversed_differences(line: &str, toks: &[Token]) -> Vec<String> {
    let text = |t: &Token| &line[t.start..t.end];
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let spaced = i >= 2
            && toks[i - 1].kind == Kind::Space
            && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Space);
        if !(spaced && t.kind == Kind::Op && text(t) == "-") {
            continue;
        }
        let (Some(left), Some(right)) =
            (term_start(line, toks, i - 2), term_end(line, toks, i + 2))
        else {
            continue;
        };
        let (a, b) = (
            &line[toks[left].start..toks[i - 2].end],
            &line[toks[i + 2].start..toks[right].end],
        );
        let number = |s: &str| s.bytes().all(|c| c.is_ascii_digit() || c == b'.');
        if a == b || number(a) || number(b) {
            continue;
        }
        let before = delimiter_before(line, toks, left);
        let after = delimiter_after(line, toks, right);
        if before && after {
            out.push(format!(
                "{}{b} - {a}{}",
                &line[..toks[left].start],
                &line[toks[right].end..]
            ));
        }
    }
    out
}

/// Whether token `t` may be part of a term: a name (not a keyword that starts or joins
/// expressions), a number, a member access.
fn in_term(line: &str, t: &Token) -> bool {
    let s = &line[t.start..t.end];
    match t.kind {
        Kind::Ident => !KEYWORDS.contains(&s) || matches!(s, "self" | "this" | "Self" | "len"),
        Kind::Number => true,
        Kind::Punct => s == ".",
        Kind::Op => s == "::",
        Kind::Space | Kind::Str => false,
    }
}

/// The index of the first token of the term that ends at token `last`, when it is one.
fn term_start(line: &str, toks: &[Token], last: usize) -> Option<usize> {
    let text = |t: &Token| &line[t.start..t.end];
    let mut j = last;
    loop {
        let t = &toks[j];
        if matches!(text(t), ")" | "]") {
            // Back to the bracket that opens it: a call's arguments or an index.
            j = partner(line, toks, j)?;
        } else if !in_term(line, t) {
            return (j < last).then_some(j + 1);
        }
        match j.checked_sub(1) {
            Some(prev) if in_term(line, &toks[prev]) || matches!(text(&toks[prev]), ")" | "]") => {
                j = prev;
            }
            _ => return Some(j),
        }
    }
}

/// The index of the last token of the term that starts at token `first`, when it is one.
fn term_end(line: &str, toks: &[Token], first: usize) -> Option<usize> {
    let text = |t: &Token| &line[t.start..t.end];
    if !in_term(line, toks.get(first)?) {
        return None;
    }
    let mut j = first;
    while let Some(next) = toks.get(j + 1) {
        if matches!(text(next), "(" | "[") {
            // On to the bracket that closes it.
            j = partner(line, toks, j + 1)?;
        } else if in_term(line, next) {
            j += 1;
        } else {
            break;
        }
    }
    Some(j)
}

/// The index of the bracket that pairs with the one at `toks[at]`: forward from `(` or `[`,
/// back from `)` or `]`.
fn partner(line: &str, toks: &[Token], at: usize) -> Option<usize> {
    let text = |j: usize| &line[toks[j].start..toks[j].end];
    let forward = matches!(text(at), "(" | "[");
    let mut depth = 0i32;
    let mut j = at;
    loop {
        match text(j) {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return Some(j);
        }
        j = if forward { j + 1 } else { j.checked_sub(1)? };
        if j >= toks.len() {
            return None;
        }
    }
}

/// Operators that bind less tightly than `-`: a difference beside one of them stands alone.
const LOOSER_THAN_MINUS: &[&str] = &[
    "=", "==", "!=", "===", "!==", "<", ">", "<=", ">=", "<=>", "&&", "||", "=>", ":=", "+=", "-=",
    "?", "|", "..", "..=", "...",
];

/// Words that start or join expressions around a difference that stands alone.
const LOOSER_WORDS: &[&str] = &[
    "return", "and", "or", "if", "elif", "while", "unless", "until", "then", "do", "in", "yield",
    "else",
];

/// Whether what comes before token `first` (a space apart or not) leaves the term that
/// starts there to the difference alone.
fn delimiter_before(line: &str, toks: &[Token], first: usize) -> bool {
    let Some(prev) = toks[..first].iter().rev().find(|t| t.kind != Kind::Space) else {
        return true;
    };
    let s = &line[prev.start..prev.end];
    match prev.kind {
        Kind::Op => LOOSER_THAN_MINUS.contains(&s),
        Kind::Punct => matches!(s, "(" | "[" | "{" | "," | ":" | ";"),
        Kind::Ident => LOOSER_WORDS.contains(&s),
        _ => false,
    }
}

/// Whether what comes after token `last` leaves the term that ends there to the difference
/// alone.
fn delimiter_after(line: &str, toks: &[Token], last: usize) -> bool {
    let Some(next) = toks[last + 1..].iter().find(|t| t.kind != Kind::Space) else {
        return true;
    };
    let s = &line[next.start..next.end];
    match next.kind {
        // Not `?`: in Rust it ends the term (`f()?`).
        Kind::Op => LOOSER_THAN_MINUS.contains(&s) && !matches!(s, "=" | "?"),
        Kind::Punct => matches!(s, ")" | "]" | "}" | "," | ":" | ";" | "{"),
        // Not Rust's `as`: it binds tighter than `-`.
        Kind::Ident => LOOSER_WORDS.contains(&s),
        _ => false,
    }
}
