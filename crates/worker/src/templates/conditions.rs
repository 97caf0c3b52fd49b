//! Templates that change a condition or a call: negations (whole and per operand), swapped arguments, and the bracket-aware scans they need.

use super::*;

/// A negation dropped (`not x`, `!x`) or the condition of an `if`/`while` negated.
pub(super) fn negations(line: &str, toks: &[Token], lang: Lang) -> Vec<String> {
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
            out.push(without_negation(line, t.start, to));
        }
    }
    // The whole condition negated, where `condition_span` finds it (unless it is a negated
    // group already: dropping that is the loop's); Ruby's `if` and `unless` swap keywords
    // instead.
    if let Some((from, to)) = condition_span(line, lang) {
        let (head, cond, tail) = (&line[..from], &line[from..to], &line[to..]);
        let negated_group = ["!(", "not ("].iter().any(|n| {
            cond.strip_prefix(n)
                .is_some_and(|rest| matching_close(rest) == Some(rest.len() - 1))
        });
        if negated_group {
            return out;
        }
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

/// `line` without the negation at `start..to` (`!`, or `not` and its space). A group the
/// negation applied to loses its brackets too where they only held it: the whole condition
/// of a keyword (`if !(a > b) {` -> `if a > b {`) or inside other brackets (`if (!(i === 0))`
/// -> `if (i === 0)`), as a person would write the fix.
fn without_negation(line: &str, start: usize, to: usize) -> String {
    let (before, rest) = (&line[..start], &line[to..]);
    let group = rest
        .strip_prefix('(')
        .and_then(|inner| Some((inner, matching_close(inner)?)));
    if let Some((inner, close)) = group {
        let after = &inner[close + 1..];
        let head = before.trim_end();
        let in_brackets = head.ends_with('(') && after.starts_with(')');
        let whole_condition = ["if", "elif", "while", "unless", "until"].iter().any(|kw| {
            head.strip_suffix(kw)
                .is_some_and(|h| h.is_empty() || h.ends_with([' ', '\t', '}']))
        }) && ["", "{", ":", "then"].contains(&after.trim());
        if in_brackets || whole_condition {
            return format!("{before}{}{after}", &inner[..close]);
        }
    }
    format!("{before}{rest}")
}

/// The byte range of the condition of an `if`/`elif`/`while` (`unless` in Ruby) on `line`.
pub(super) fn condition_span(line: &str, lang: Lang) -> Option<(usize, usize)> {
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
pub(super) fn sub_condition_negations(line: &str, toks: &[Token], lang: Lang) -> Vec<String> {
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
pub(super) fn matching_close(rest: &str) -> Option<usize> {
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
pub(super) fn argument_swaps(line: &str, toks: &[Token]) -> Vec<String> {
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
pub(super) fn has_top_level_space(expr: &str) -> bool {
    !top_level(expr, char::is_whitespace).is_empty()
}

/// `a, f(b, c), d` -> `["a", " f(b, c)", " d"]`: split at commas outside brackets and strings.
pub(super) fn split_top_level(args: &str) -> Vec<&str> {
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
pub(super) fn top_level(text: &str, wanted: impl Fn(char) -> bool) -> Vec<usize> {
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
