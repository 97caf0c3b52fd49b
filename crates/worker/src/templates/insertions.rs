//! Statements copied from elsewhere in the file: the repair for a missing call or assignment.
//!
//! A bug is often a statement left out (`c.ll.MoveToFront(el)` in one branch of two, the
//! `options = sorted(options)` that a sibling function does first). The program-repair
//! literature finds the missing statement in the same program most of the time (GenProg's
//! insertion, the "plastic surgery" hypothesis): the file already holds it, in another
//! definition doing the same kind of work. So a candidate inserts one simple statement of the
//! file (a call or an assignment on one line, no block, no new variable) before a statement of
//! the places the failing tests reach, when every variable it reads is in scope there. The
//! candidates are ranked by how much the donor's surroundings look like the place's (the lines
//! around each), so the statement that did the same job elsewhere comes first.

use std::collections::{BTreeMap, BTreeSet};

use super::lexer::*;
use super::{Edit, Operator, Places, TemplateFix, with_line};

/// Code lines on each side compared when ranking a donor for a place.
const CONTEXT_LINES: usize = 2;

/// What each later group of places (the focus, then the regions in order) loses in rank:
/// the places the failing tests point at first are tried first, unless a later place fits a
/// donor much better.
const GROUP_PENALTY: f64 = 0.1;

/// What a donor standing between the same two lines as the place gains in rank: more than
/// any other pair can score (a similarity and a relevance of at most 1 each).
const SIBLING_BONUS: f64 = 2.0;

/// Longest donor statement, in bytes.
const MAX_DONOR_LEN: usize = 120;

/// What an insertion into one definition must respect.
struct Definition<'a> {
    /// The line first mentioning each variable ([`first_mentions`]).
    mentioned: BTreeMap<String, usize>,
    /// Its statements, trimmed: a statement the definition already has is not the one
    /// missing from it.
    present: BTreeSet<&'a str>,
}

/// Candidate insertions for `text` (the file at `path`) at `places`, at most `max`, best
/// first. Each inserts one statement of the file, with the indentation of its new place,
/// before one code line of the places (never before the first line of a region: that is its
/// signature).
pub fn insertions(path: &str, text: &str, places: &Places, max: usize) -> Vec<TemplateFix> {
    if max == 0 {
        return Vec::new();
    }
    let lang = Lang::of(path);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let code = code_lines(&lines, lang);
    let donors = donors(path, &lines, &code, lang);
    if donors.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut seen_texts = BTreeSet::new();
    for (d, n) in ranked_pairs(&donors, places, &lines, &code, lang) {
        let donor = donors[d].text;
        let place = split_ending(lines[n - 1]);
        let ending = if place.1.is_empty() { "\n" } else { place.1 };
        let indent = leading_space(place.0);
        let new_text = with_line(
            &lines,
            n,
            &format!("{indent}{donor}"),
            ending,
            Edit::InsertBefore,
        );
        if !seen_texts.insert(new_text.clone()) {
            continue;
        }
        out.push(TemplateFix {
            path: path.to_string(),
            line: n,
            operator: Operator::InsertedStatement,
            before: String::new(),
            after: donor.to_string(),
            text: new_text,
        });
        if out.len() >= max {
            break;
        }
    }
    out
}

/// A statement of the file that may be copied, with what ranking it needs.
struct Donor<'a> {
    /// Its text, trimmed.
    text: &'a str,
    /// The variables it reads.
    reads: Vec<&'a str>,
    /// Its surroundings ([`context`]).
    context: BTreeSet<String>,
    /// Whether it stands at the top level of the file (not indented): a module's constant or
    /// export (`_missing = object()`, `module.exports = f`), never the statement a
    /// definition's body is missing.
    top_level: bool,
    /// The code lines just above and below it, trimmed ([`between`]).
    between: (Option<&'a str>, Option<&'a str>),
}

/// The file's statements worth copying ([`is_simple_statement`]), in file order.
fn donors<'a>(path: &str, lines: &[&'a str], code: &[bool], lang: Lang) -> Vec<Donor<'a>> {
    // A Rust line without `;` is a block's value, not a statement.
    let needs_semicolon = path.ends_with(".rs");
    (1..=lines.len())
        .filter_map(|n| {
            let text = split_ending(lines[n - 1]).0.trim();
            let worth = code[n - 1]
                && is_simple_statement(text, lang)
                && (!needs_semicolon || text.ends_with(';'))
                && !continues_a_statement(lines, code, n, lang);
            worth.then(|| Donor {
                text,
                top_level: leading_space(lines[n - 1]).is_empty(),
                reads: variables(text, lang).collect(),
                context: context(lines, code, n, n + 1, lang),
                between: between(lines, code, n, n + 1),
            })
        })
        .collect()
}

/// (donor index, line to insert before) pairs that may be tried, best first: every code line
/// of the places (each once, not a definition's first line, not a branch or the middle of a
/// statement) with every donor that reads only variables in scope there, is not already in
/// the place's definition, is not the line's neighbour and is not a top-level statement going
/// into a body; ranked by how alike the donor's
/// and the place's surroundings are ([`similarity`]) plus how many of its variables the place
/// mentions ([`relevance`]), the later groups of places a little lower ([`GROUP_PENALTY`]).
///
/// A donor that stands between the very lines the place stands between (the code line above
/// and the one below) is a copy the place left out: the same check and return in three
/// branches, one of them without the call that reports the error. It may go in even when its
/// definition has it (that is where such a copy is), and it comes first ([`SIBLING_BONUS`]).
fn ranked_pairs(
    donors: &[Donor<'_>],
    places: &Places,
    lines: &[&str],
    code: &[bool],
    lang: Lang,
) -> Vec<(usize, usize)> {
    let body = |n: usize| split_ending(lines[n - 1]).0;
    let mut scored: Vec<(f64, usize, usize)> = Vec::new();
    let mut seen_places = BTreeSet::new();
    let mut scopes: BTreeMap<(usize, usize), Definition> = BTreeMap::new();
    for (group, (start, end)) in places.focus.iter().chain(places.regions.iter()).enumerate() {
        for n in (*start).max(1)..=(*end).min(lines.len()) {
            // The place's own definition: the narrowest region around it.
            let region = places
                .regions
                .iter()
                .filter(|(a, b)| *a <= n && n <= *b)
                .min_by_key(|(a, b)| b - a)
                .copied()
                .unwrap_or((*start, *end));
            if n == region.0
                || !code[n - 1]
                || !seen_places.insert(n)
                || opens_a_branch(body(n).trim(), lang)
                || continues_a_statement(lines, code, n, lang)
            {
                continue;
            }
            let Definition { mentioned, present } =
                scopes.entry(region).or_insert_with(|| Definition {
                    mentioned: first_mentions(lines, region, lang),
                    present: (region.0.max(1)..=region.1.min(lines.len()))
                        .map(|m| body(m).trim())
                        .collect(),
                });
            let in_a_body = !leading_space(body(n)).is_empty();
            // The inserted line goes between line n - 1 and line n.
            let around = context(lines, code, n, n, lang);
            let near: BTreeSet<&str> = neighbours(code, n)
                .flat_map(|m| variables(body(m), lang))
                .collect();
            let neighbour = |m: usize| (1..=lines.len()).contains(&m).then(|| body(m).trim());
            let here = between(lines, code, n, n);
            for (d, donor) in donors.iter().enumerate() {
                let in_scope = donor
                    .reads
                    .iter()
                    .all(|v| mentioned.get(*v).is_some_and(|&m| m < n));
                let left_out = here.0.is_some() && donor.between == here;
                if !in_scope
                    || donor.top_level && in_a_body
                    || present.contains(donor.text) && !left_out
                    || neighbour(n) == Some(donor.text)
                    || neighbour(n - 1) == Some(donor.text)
                {
                    continue;
                }
                let score = similarity(&donor.context, &around) + relevance(&donor.reads, &near)
                    - GROUP_PENALTY * group as f64
                    + if left_out { SIBLING_BONUS } else { 0.0 };
                scored.push((score, d, n));
            }
        }
    }
    // Best first; a tie keeps the places' order (focus first) and the file's order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|(_, d, n)| (d, n)).collect()
}

/// Whether `line` (trimmed) is a statement worth copying: one line, a call or an assignment to
/// something that exists, no block, no control flow, no new variable.
fn is_simple_statement(line: &str, lang: Lang) -> bool {
    if line.len() > MAX_DONOR_LEN || line.len() < 4 {
        return false;
    }
    let toks = tokens(line, lang);
    let text = |t: &Token| &line[t.start..t.end];
    let words: Vec<&Token> = toks.iter().filter(|t| t.kind != Kind::Space).collect();
    let Some(first) = words.first() else {
        return false;
    };
    let starts_with_a_name = first.kind == Kind::Ident && !KEYWORDS.contains(&text(first))
        || matches!(text(first), "self" | "this" | "@");
    if !starts_with_a_name {
        return false;
    }
    // Opens or continues a block, or goes on to the next line.
    let last = line.trim_end_matches(';').trim_end();
    if last.ends_with(['{', ':', '(', '[', ',', '\\', '=', '+', '-', '|', '&', '.'])
        || last.ends_with(" do")
        || last.contains(" do |")
    {
        return false;
    }
    if !balanced(line) {
        return false;
    }
    // A new variable (`:=`) is not in scope where it would go; a Rust expression without `;`
    // is a block's value.
    if words.iter().any(|t| text(t) == ":=") || lang == Lang::Braces && line.ends_with('}') {
        return false;
    }
    let assigns = words.iter().any(|t| {
        t.kind == Kind::Op && matches!(text(t), "=" | "+=" | "-=" | "*=" | "/=" | "||=" | "&&=")
    });
    let calls = words.iter().any(|t| text(t) == "(");
    assigns || calls
}

/// The word `line` (trimmed) starts with; empty when it starts with punctuation (`} else {`).
fn first_word(line: &str) -> &str {
    line.split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
}

/// Whether `line` (trimmed) is where a statement cannot go before: a branch of the block
/// above (`else`, `elif`, `except`, `case`, `when`, `rescue`, `end`, a closing brace that
/// continues: `} else {`).
fn opens_a_branch(line: &str, lang: Lang) -> bool {
    let word = first_word(line);
    let branch = matches!(
        word,
        "else" | "elif" | "except" | "finally" | "case" | "default" | "when" | "rescue" | "ensure"
    ) || lang == Lang::Ruby && word == "end";
    branch || line.starts_with('}') && line.len() > 1
}

/// Whether code line `n` is the middle of a statement or follows a jump: it continues a chain
/// or closes a bracket, or the code line above it does not end its statement (an argument
/// list, an operator, a line continuation) or leaves the block (`return`, `break`, ...).
fn continues_a_statement(lines: &[&str], code: &[bool], n: usize, lang: Lang) -> bool {
    let own_line = split_ending(lines[n - 1]).0;
    let own = own_line.trim();
    if own.starts_with(['.', ')', ']', '?', '&', '|', '+']) {
        return true;
    }
    let above = (1..n)
        .rev()
        .find(|&m| code[m - 1])
        .map(|m| split_ending(lines[m - 1]).0.trim_end());
    above.is_some_and(|l| {
        l.ends_with([',', '(', '[', '\\', '+', '-', '*', '/', '=', '&', '|', '.'])
            // A Python line ending in `{` opens a literal, never a block.
            || lang == Lang::Python && l.ends_with('{')
            || l.ends_with(" and")
            || l.ends_with(" or")
            || after_a_jump(l.trim_start(), lang)
                && leading_space(own_line).len() >= leading_space(l).len()
    })
}

/// Whether a statement after `line` (trimmed) would never run: it leaves the block (Ruby's
/// `return nil if x.empty?` leaves it only sometimes).
pub(crate) fn after_a_jump(line: &str, lang: Lang) -> bool {
    let word = first_word(line);
    let modifier = lang == Lang::Ruby && (line.contains(" if ") || line.contains(" unless "));
    !modifier
        && matches!(
            word,
            "return" | "break" | "continue" | "raise" | "throw" | "panic"
        )
}

/// The names a statement in `region` may read, with the line that first mentions each: every
/// variable the region's code mentions (its parameters, its locals, the module names it uses;
/// not the fields and methods it reaches through them). A name is read only after that line
/// (`el` of `if el, ok := c.items[key]; ok {` exists below it, not above).
fn first_mentions(lines: &[&str], region: (usize, usize), lang: Lang) -> BTreeMap<String, usize> {
    let mut names = BTreeMap::new();
    for n in region.0.max(1)..=region.1.min(lines.len()) {
        for v in variables(split_ending(lines[n - 1]).0, lang) {
            names.entry(v.to_string()).or_insert(n);
        }
    }
    names
}

/// The names `line` reads as variables: identifiers that are not keywords (`self` and `this`
/// are), not reached through `.`/`::` (fields, methods), not called and not a keyword
/// argument's name (`key=value` in a call is the callee's).
fn variables(line: &str, lang: Lang) -> impl Iterator<Item = &str> {
    let toks: Vec<Token> = tokens(line, lang)
        .into_iter()
        .filter(|t| t.kind != Kind::Space)
        .collect();
    let text = move |t: &Token| &line[t.start..t.end];
    (0..toks.len()).filter_map(move |k| {
        let t = &toks[k];
        let prev = k.checked_sub(1).map(|p| text(&toks[p]));
        let next = toks.get(k + 1).map(text);
        let variable = t.kind == Kind::Ident
            && !KEYWORDS.contains(&text(t))
            && !matches!(prev, Some("." | "::" | "@" | "#" | "?."))
            && next != Some("(")
            && !(matches!(prev, Some("(" | ",")) && next == Some("="));
        variable.then(|| text(t))
    })
}

/// The identifiers and operators of the code lines around a line: up to [`CONTEXT_LINES`]
/// before line `above` and from line `below` on, each side tagged so that "above" only meets
/// "above".
fn context(
    lines: &[&str],
    code: &[bool],
    above: usize,
    below: usize,
    lang: Lang,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |m: usize, side: char| {
        let line = split_ending(lines[m - 1]).0;
        for t in tokens(line, lang) {
            if matches!(t.kind, Kind::Ident | Kind::Op) {
                out.insert(format!("{side}{}", &line[t.start..t.end]));
            }
        }
    };
    (1..above)
        .rev()
        .filter(|&m| code[m - 1])
        .take(CONTEXT_LINES)
        .for_each(|m| add(m, '<'));
    (below..=lines.len())
        .filter(|&m| code[m - 1])
        .take(CONTEXT_LINES)
        .for_each(|m| add(m, '>'));
    out
}

/// The code line just before line `above` and the one from line `below` on, trimmed: what a
/// statement on line `above` (`below` = `above + 1`) or one inserted before it (`below` =
/// `above`) stands between.
fn between<'a>(
    lines: &[&'a str],
    code: &[bool],
    above: usize,
    below: usize,
) -> (Option<&'a str>, Option<&'a str>) {
    let trimmed = |m: usize| split_ending(lines[m - 1]).0.trim();
    let before = (1..above).rev().find(|&m| code[m - 1]).map(trimmed);
    let after = (below..=lines.len()).find(|&m| code[m - 1]).map(trimmed);
    (before, after)
}

/// The code lines around a place before line `n`: up to [`CONTEXT_LINES`] above it and from
/// `n` on.
fn neighbours(code: &[bool], n: usize) -> impl Iterator<Item = usize> + '_ {
    let above = (1..n).rev().filter(|&m| code[m - 1]).take(CONTEXT_LINES);
    let below = (n..=code.len())
        .filter(|&m| code[m - 1])
        .take(CONTEXT_LINES);
    above.chain(below)
}

/// The share of the variables a donor reads (`reads`) that the lines around a place (`near`)
/// read too: a statement about the variables at hand (`c.ll.MoveToFront(el)` just after `el`
/// is found).
fn relevance(reads: &[&str], near: &BTreeSet<&str>) -> f64 {
    let names: BTreeSet<&str> = reads.iter().copied().collect();
    if names.is_empty() {
        return 0.0;
    }
    names.intersection(near).count() as f64 / names.len() as f64
}

/// Jaccard similarity of two contexts.
fn similarity(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Whether the brackets of `line` close in order (strings are not looked into by callers'
/// lines of code often enough to matter; a quote inside a string only costs a candidate).
fn balanced(line: &str) -> bool {
    let mut stack = Vec::new();
    for c in line.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.pop() != Some(open) {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty()
}
