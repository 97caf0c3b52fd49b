//! A value computed and never used: where a statement that used it is most likely missing.
//!
//! A definition that assigns a local and never reads it again has lost the step that used
//! the value: the `return expanded if expanded else None` after a branch builds `expanded`,
//! the call that passes a result on. Compilers warn about such a store ("value assigned is
//! never read"); working code rarely keeps one. So the gap right after that statement is
//! where the model is asked to write first ([`after_unused_value`]).

use std::collections::HashMap;

use super::is_comment;
use crate::templates::lexer::{KEYWORDS, Kind, Lang, Token, code_tokens, leading_space, tokens};

/// The gap after the first statement of the definition on lines `definition` (1-based,
/// inclusive) of `text`, the file at `path`, that assigns a local variable no later line of
/// the definition reads: the line after the statement's last line, and the statement's
/// indentation. Not a store in a loop to a name read before it in the definition (the next
/// turn may read it), not a name starting with `_` (unused on purpose), not a Python
/// `global` or `nonlocal`, and not Ruby's last expression of a block (its value is the
/// block's). A closure defined above the store that reads it is not seen: the gap then costs
/// the model three answers.
pub fn after_unused_value(
    path: &str,
    text: &str,
    definition: (usize, usize),
) -> Option<(usize, String)> {
    let lang = Lang::of(path);
    let lines: Vec<&str> = text.lines().collect();
    let last = definition.1.min(lines.len());
    let code = |n: usize| {
        let t = lines[n - 1].trim();
        !t.is_empty() && !is_comment(t)
    };
    let mentions = Mentions::of(&lines, definition.0..=last, lang);
    let mut n = definition.0 + 1;
    while n <= last {
        if !code(n) || continued_from_above(&lines, n, definition.0, &code) {
            n += 1;
            continue;
        }
        let end = statement_end(&lines, n, last, lang);
        if let Some(name) = assigned_local(lines[n - 1], lang)
            && !mentions.after(name, end)
            && !carried_by_a_loop(&lines, n, definition.0, mentions.before(name, n))
            && !declared_outside(&lines, definition.0..=last, name)
            && !(lang == Lang::Ruby && is_block_value(&lines, end, last, &code))
            && end < lines.len()
        {
            return Some((end + 1, leading_space(lines[n - 1]).to_string()));
        }
        n = end + 1;
    }
    None
}

/// The local `line` assigns as a whole statement (`name = ...`, `name := ...`, `let mut
/// name = ...`, `const name = ...`, `name: T = ...`), else `None`: not a field, an element,
/// a destructuring or a compound assignment (`total += x` accumulates).
fn assigned_local(line: &str, lang: Lang) -> Option<&str> {
    let toks = code_tokens(line, lang);
    let text = |t: &Token| &line[t.start..t.end];
    let mut k = 0;
    while toks
        .get(k)
        .is_some_and(|t| matches!(text(t), "let" | "mut" | "var" | "const"))
    {
        k += 1;
    }
    let name = toks.get(k)?;
    let before = &line[..name.start];
    if name.kind != Kind::Ident
        || KEYWORDS.contains(&text(name))
        || text(name).starts_with('_')
        || before.ends_with(['@', '$'])
    {
        return None;
    }
    let op = toks.get(k + 1).map(text)?;
    let annotated = op == ":" && toks[k + 2..].iter().any(|t| text(t) == "=");
    (op == "=" || op == ":=" || annotated).then(|| text(name))
}

/// The first and the last line (1-based) each name is mentioned on, over a definition's lines:
/// each line tokenized once, so that asking after any local costs a lookup.
struct Mentions<'a> {
    first: HashMap<&'a str, usize>,
    last: HashMap<&'a str, usize>,
}

impl<'a> Mentions<'a> {
    /// The mentions on `range` of `lines` ([`names_on`]).
    fn of(lines: &[&'a str], range: std::ops::RangeInclusive<usize>, lang: Lang) -> Self {
        let mut mentions = Mentions {
            first: HashMap::new(),
            last: HashMap::new(),
        };
        for m in range {
            for name in names_on(lines[m - 1], lang) {
                mentions.first.entry(name).or_insert(m);
                mentions.last.insert(name, m);
            }
        }
        mentions
    }

    /// Whether `name` is mentioned on a line after line `n`.
    fn after(&self, name: &str, n: usize) -> bool {
        self.last.get(name).is_some_and(|&m| m > n)
    }

    /// Whether `name` is mentioned on a line before line `n`.
    fn before(&self, name: &str, n: usize) -> bool {
        self.first.get(name).is_some_and(|&m| m < n)
    }
}

/// The names `line` reads: in the code, each name itself (read, called, passed), not a field
/// or method of that name reached through `.` or `::`; in a string, each whole identifier
/// (an interpolation's code, `f"{x}"`, `"#{x}"`, `${x}`, which the lexer keeps inside the
/// string's token).
fn names_on(line: &str, lang: Lang) -> Vec<&str> {
    let toks = code_tokens(line, lang);
    let text = |t: &Token| &line[t.start..t.end];
    let mut names = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        match t.kind {
            Kind::Str => names.extend(
                text(t)
                    .split(|c: char| !is_ident_char(c))
                    .filter(|w| !w.is_empty()),
            ),
            Kind::Ident
                if !matches!(
                    k.checked_sub(1).map(|p| text(&toks[p])),
                    Some("." | "::" | "?.")
                ) =>
            {
                names.push(text(t))
            }
            _ => {}
        }
    }
    names
}

/// Whether `c` may be part of an identifier.
fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether a Python `global` or `nonlocal` statement of the definition names `name`: a store
/// to it is read outside the definition.
fn declared_outside(lines: &[&str], range: std::ops::RangeInclusive<usize>, name: &str) -> bool {
    range.into_iter().any(|m| {
        let t = lines[m - 1].trim();
        ["global ", "nonlocal "].iter().any(|k| {
            t.strip_prefix(k)
                .is_some_and(|rest| rest.split(',').any(|n| n.trim() == name))
        })
    })
}

/// Whether line `n` is in a loop (a header above it, indented less, inside the definition
/// starting on line `start`) and its name is `read_before` it in the definition: the next turn
/// may read the value.
fn carried_by_a_loop(lines: &[&str], n: usize, start: usize, read_before: bool) -> bool {
    if !read_before {
        return false;
    }
    let depth = |m: usize| leading_space(lines[m - 1]).len();
    let mut level = depth(n);
    let mut in_a_loop = false;
    for m in (start + 1..n).rev() {
        let t = lines[m - 1].trim();
        if t.is_empty() || depth(m) >= level {
            continue;
        }
        level = depth(m);
        let word = t.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        in_a_loop |= matches!(word, "for" | "while" | "loop" | "until")
            || t.ends_with(" do")
            || t.contains(" do |")
            || t.contains(".each");
    }
    in_a_loop
}

/// Whether the statement ending on line `end` is the last of its Ruby block, whose value the
/// block (a method, a branch, an iterator's block) gives back: only closing lines follow it
/// before the next statement at its level or the definition's end.
fn is_block_value(lines: &[&str], end: usize, last: usize, code: &impl Fn(usize) -> bool) -> bool {
    (end + 1..=last).find(|&m| code(m)).is_none_or(|m| {
        matches!(lines[m - 1].trim(), "end" | "}" | "else") || {
            let t = lines[m - 1].trim();
            t.starts_with("elsif") || t.starts_with("when") || t.starts_with("end ")
        }
    })
}

/// The last line of the statement that starts on line `n`: its brackets (outside strings and
/// comments) closed and nothing left open at the end of a line ([`goes_on`]); at most
/// `last`.
fn statement_end(lines: &[&str], n: usize, last: usize, lang: Lang) -> usize {
    let mut depth = 0i32;
    for (m, line) in lines.iter().enumerate().take(last).skip(n - 1) {
        for t in tokens(line, lang).iter().filter(|t| t.kind == Kind::Punct) {
            match &line[t.start..t.end] {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 && !goes_on(line) {
            return m + 1;
        }
    }
    last
}

/// Whether line `n` goes on from the code line above it (an argument on a line of its own:
/// `x = 1,` in a call), so no statement starts on it.
fn continued_from_above(
    lines: &[&str],
    n: usize,
    start: usize,
    code: &impl Fn(usize) -> bool,
) -> bool {
    let Some(above) = (start..n).rev().find(|&m| m >= 1 && code(m)) else {
        return false;
    };
    goes_on(lines[above - 1])
}

/// Whether the statement on `line` goes on to the next line: it ends with a comma, an open
/// bracket, an operator, a backslash or Python's `and`/`or`. A block's header (`if x {`,
/// `def f():`) ends its line.
fn goes_on(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with([',', '(', '[', '\\', '=', '+', '-', '*', '/', '.'])
        || t.ends_with(" and")
        || t.ends_with(" or")
}

#[cfg(test)]
mod tests {
    use super::*;

    const URITEMPLATE: &str = "\
def expand(self, value, explode):
    join_str = '/'
    if isinstance(value, list):
        fragments = [quote(v) for v in value if v is not None]
        return join_str.join(fragments) if fragments else None

    if isinstance(value, dict):
        items = sorted(value.items())
        expanded = join_str.join(
            '%s=%s' % (k, v)
            for k, v in items
        )

    value = str(value)
    return quote(value)
";

    #[test]
    fn a_branch_that_builds_a_value_and_drops_it_gets_a_gap_after_the_statement() {
        assert_eq!(
            after_unused_value("a.py", URITEMPLATE, (1, 15)),
            Some((13, "        ".to_string()))
        );
    }

    #[test]
    fn a_value_read_later_or_in_an_interpolation_is_used() {
        let used = URITEMPLATE.replace("return quote(value)", "return quote(value, expanded)");
        assert_eq!(after_unused_value("a.py", &used, (1, 15)), None);
        let f = URITEMPLATE.replace("return quote(value)", "return f'{value}{expanded}'");
        assert_eq!(after_unused_value("a.py", &f, (1, 15)), None);
        // A bracket in a string opens nothing: the statement ends on its line.
        let text = "def f(name):\n    label = '(' + name\n    return label\n";
        assert_eq!(after_unused_value("a.py", text, (1, 3)), None);
    }

    #[test]
    fn fields_accumulators_keyword_arguments_and_underscores_are_not_locals() {
        for line in [
            "self.total = n",
            "total += n",
            "a, b = pair",
            "_ignored = f()",
            "@count = 1",
        ] {
            let text = format!("def f(n):\n    {line}\n    return n\n");
            assert_eq!(after_unused_value("a.py", &text, (1, 3)), None, "{line}");
        }
        let call = "def f(n):\n    g(\n        x = n,\n    )\n    return n\n";
        assert_eq!(after_unused_value("a.py", call, (1, 5)), None);
    }

    #[test]
    fn a_global_or_nonlocal_store_is_read_elsewhere() {
        let text = "def f(n):\n    global count, seen\n    count = n\n    return n\n";
        assert_eq!(after_unused_value("a.py", text, (1, 4)), None);
        let local = text.replace("global count, seen", "print(n)");
        assert_eq!(
            after_unused_value("a.py", &local, (1, 4)),
            Some((4, "    ".to_string()))
        );
    }

    #[test]
    fn a_store_a_loop_reads_on_its_next_turn_is_used() {
        let text = "def f(xs):\n    prev = 0\n    for x in xs:\n        g(prev)\n        prev = x\n    return 1\n";
        assert_eq!(after_unused_value("a.py", text, (1, 6)), None);
    }

    #[test]
    fn declarations_of_other_languages_are_locals_too() {
        let js = "function f(a) {\n  const out = a * 2;\n  return a;\n}\n";
        assert_eq!(
            after_unused_value("a.js", js, (1, 4)),
            Some((3, "  ".to_string()))
        );
        let rs = "fn f(a: u32) -> u32 {\n    let mut out: u32 = a * 2;\n    a\n}\n";
        assert_eq!(
            after_unused_value("a.rs", rs, (1, 4)),
            Some((3, "    ".to_string()))
        );
    }

    #[test]
    fn a_ruby_blocks_last_assignment_is_its_value() {
        let rb = "def f(a)\n  if a\n    out = a * 2\n  end\nend\n";
        assert_eq!(after_unused_value("a.rb", rb, (1, 5)), None);
        let dropped = "def f(a)\n  out = a * 2\n  log(a)\n  a\nend\n";
        assert_eq!(
            after_unused_value("a.rb", dropped, (1, 5)),
            Some((3, "  ".to_string()))
        );
    }
}
