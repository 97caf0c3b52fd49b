//! Whether two fixed lines mean the same over integers: `age >= 18` and `age > 17`,
//! `not (i < n)` and `i >= n`.
//!
//! When two template fixes of one statement both pass the tests, the tests cannot tell them
//! apart and the landed one may be wrong. A comparison made inclusive and its bound moved by
//! one, or a negated comparison and its complement, are two spellings of one fix where the
//! compared values are integers (the common case for a bound), so such a pair is not a choice
//! the tests left open.

use super::*;

/// Whether lines `a` and `b` are one fix spelled two ways over integers: a negated comparison
/// and its complement (`not (x < n)` / `x >= n`, `!(a == b)` / `a != b`, Ruby's `unless x < n`
/// / `if x >= n`), or lines that differ only in one comparison's strictness and its integer
/// operand, in the direction that keeps the comparison's meaning: `x >= 18` / `x > 17`,
/// `x <= 5` / `x < 6`, `0 < x` / `1 <= x`. The integer must be a whole operand: `x > 17 * k`
/// is not `x >= 18 * k`.
pub fn same_over_integers(path: &str, a: &str, b: &str) -> bool {
    let lang = Lang::of(path);
    let (ta, tb) = (
        complemented(words(a, lang), lang),
        complemented(words(b, lang), lang),
    );
    if ta == tb {
        return true;
    }
    if ta.len() != tb.len() {
        return false;
    }
    let differ: Vec<usize> = (0..ta.len()).filter(|&i| ta[i].1 != tb[i].1).collect();
    let &[first, second] = differ.as_slice() else {
        return false;
    };
    if second != first + 1 {
        return false;
    }
    let (op, number) = match (ta[first].0, ta[second].0) {
        (Kind::Op, Kind::Number) => (first, second),
        (Kind::Number, Kind::Op) => (second, first),
        _ => return false,
    };
    let whole_operand = if op < number {
        ends_an_operand(ta.get(number + 1))
    } else {
        number == 0 || starts_an_operand(&ta[number - 1])
    };
    let bound_on_the_right = op < number;
    whole_operand
        && canonical(ta[op].1, ta[number].1, bound_on_the_right)
            .zip(canonical(tb[op].1, tb[number].1, bound_on_the_right))
            .is_some_and(|(x, y)| x == y)
}

/// `words` with each negated single comparison written as its complement: `not ( x < n )` and
/// `! ( x < n )` as `x >= n`; a Ruby line that opens with `unless x < n` as `if x >= n`.
/// A negation of more than one comparison (`!(a < b && c)`) is kept as it is.
fn complemented(words: Vec<(Kind, &str)>, lang: Lang) -> Vec<(Kind, &str)> {
    if lang == Lang::Ruby && words.first() == Some(&(Kind::Ident, "unless")) {
        let end = words
            .iter()
            .position(|w| *w == (Kind::Ident, "then"))
            .unwrap_or(words.len());
        if let Some(inner) = single_comparison_complemented(&words[1..end]) {
            let mut out = vec![(Kind::Ident, "if")];
            out.extend(inner);
            out.extend_from_slice(&words[end..]);
            return out;
        }
    }
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let negation = matches!(words[i], (Kind::Ident, "not") | (Kind::Op, "!"));
        if negation
            && words.get(i + 1) == Some(&(Kind::Punct, "("))
            && let Some(close) = closing(&words, i + 1)
            && let Some(inner) = single_comparison_complemented(&words[i + 2..close])
        {
            out.extend(inner);
            i = close + 1;
            continue;
        }
        out.push(words[i]);
        i += 1;
    }
    out
}

/// The index of the `)` that closes the `(` at `open`.
fn closing(words: &[(Kind, &str)], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, w) in words.iter().enumerate().skip(open) {
        match w {
            (Kind::Punct, "(" | "[" | "{") => depth += 1,
            (Kind::Punct, ")" | "]" | "}") => {
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

/// `words` with their one comparison complemented (`x < n` -> `x >= n`), or `None` when they
/// are not a single comparison: none, two, or one joined to others by a logical operator or
/// a conditional, at the top level.
fn single_comparison_complemented<'a>(words: &[(Kind, &'a str)]) -> Option<Vec<(Kind, &'a str)>> {
    let mut depth = 0;
    let mut comparison = None;
    for (i, w) in words.iter().enumerate() {
        match *w {
            (Kind::Punct, "(" | "[" | "{") => depth += 1,
            (Kind::Punct, ")" | "]" | "}") => depth -= 1,
            _ if depth > 0 => {}
            // A second comparison (`a < b < c`).
            (Kind::Op, op) if complement(op).is_some() && comparison.is_some() => return None,
            (Kind::Op, op) if complement(op).is_some() => comparison = Some(i),
            (Kind::Op, "&&" | "||" | "?" | "!" | "=") | (Kind::Punct, "," | ":" | ";") => {
                return None;
            }
            (Kind::Ident, "and" | "or" | "not" | "if" | "else") => return None,
            _ => {}
        }
    }
    let at = comparison?;
    let mut out = words.to_vec();
    out[at].1 = complement(words[at].1)?;
    Some(out)
}

/// The comparison that holds exactly where `op` does not, over integers.
fn complement(op: &str) -> Option<&'static str> {
    Some(match op {
        "<" => ">=",
        ">=" => "<",
        ">" => "<=",
        "<=" => ">",
        "==" => "!=",
        "!=" => "==",
        "===" => "!==",
        "!==" => "===",
        _ => return None,
    })
}

/// A comparison with an integer bound written inclusively (`x > 17` as `x >= 18`, `17 < x` as
/// `18 <= x`), or `None` when it is not one.
fn canonical(op: &str, number: &str, bound_on_the_right: bool) -> Option<(&'static str, i128)> {
    if !number.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: i128 = number.parse().ok()?;
    // `x > n` is `x >= n + 1`; with the bound on the left, `n < x` is `n + 1 <= x`.
    let inclusive = match (op, bound_on_the_right) {
        (">=", true) | ("<=", false) => (">=", n),
        ("<=", true) | (">=", false) => ("<=", n),
        (">", true) => (">=", n + 1),
        ("<", true) => ("<=", n - 1),
        ("<", false) => (">=", n + 1),
        (">", false) => ("<=", n - 1),
        _ => return None,
    };
    Some(inclusive)
}

/// Whether the token after a bound ends its operand: nothing, a closing bracket or separator,
/// or a logical operator (`x > 17 && y`), not arithmetic (`x > 17 * k`) or a member (`17.5`).
fn ends_an_operand(next: Option<&(Kind, &str)>) -> bool {
    match next {
        None => true,
        Some((Kind::Op, op)) => matches!(*op, "&&" | "||"),
        Some((Kind::Punct, p)) => matches!(*p, ")" | "]" | "}" | "{" | ":" | ";" | ","),
        Some((Kind::Ident, word)) => matches!(*word, "and" | "or" | "then" | "do"),
        Some(_) => false,
    }
}

/// Whether the token before a bound starts its operand: an opening bracket or separator, a
/// keyword that opens a condition, a logical operator or an assignment, not arithmetic
/// (`k * 17 < x`).
fn starts_an_operand(previous: &(Kind, &str)) -> bool {
    match previous {
        (Kind::Op, op) => matches!(*op, "&&" | "||" | "=" | ":=" | "!"),
        (Kind::Punct, p) => matches!(*p, "(" | "[" | "{" | "," | ";" | ":"),
        (Kind::Ident, word) => matches!(
            *word,
            "if" | "elif" | "while" | "unless" | "until" | "return" | "and" | "or" | "not"
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::same_over_integers;

    #[test]
    fn an_inclusive_comparison_and_its_bound_moved_by_one_are_one_fix() {
        for (a, b) in [
            ("if age >= 18:", "if age > 17:"),
            ("if (i <= 5) {", "if (i < 6) {"),
            ("while i <= 5 {", "while i < 6 {"),
            ("return 0 < x && y", "return 1 <= x && y"),
            ("if 10 >= x:", "if 11 > x:"),
        ] {
            let path = if a.ends_with(':') { "a.py" } else { "a.go" };
            assert!(same_over_integers(path, a, b), "{a} / {b}");
            assert!(same_over_integers(path, b, a), "{b} / {a}");
        }
    }

    #[test]
    fn a_negated_comparison_and_its_complement_are_one_fix() {
        for (path, a, b) in [
            ("a.py", "if not (total < 100):", "if total >= 100:"),
            ("a.py", "while x and not (i == n):", "while x and i != n:"),
            ("a.js", "if (!(a.length > max)) {", "if (a.length <= max) {"),
            ("a.js", "if (!(x === y)) {", "if (x !== y) {"),
            ("a.go", "if !(len(s) <= 2) {", "if len(s) > 2 {"),
            ("a.rb", "unless n < 0", "if n >= 0"),
            ("a.rb", "unless n < 0 then", "if n >= 0 then"),
            // Both rules at once: `not (x < 18)` is `x >= 18`, which is `x > 17`.
            ("a.py", "if not (x < 18):", "if x > 17:"),
        ] {
            assert!(same_over_integers(path, a, b), "{a} / {b}");
            assert!(same_over_integers(path, b, a), "{b} / {a}");
        }
    }

    #[test]
    fn other_pairs_are_distinct_fixes() {
        for (a, b) in [
            // The bound moved the wrong way.
            ("if age >= 18:", "if age > 19:"),
            // The comparison flipped, not made inclusive.
            ("if age < 18:", "if age > 17:"),
            // The bound is not a whole operand.
            ("if x >= 18 * k:", "if x > 17 * k:"),
            ("if k * 18 <= x:", "if k * 17 < x:"),
            // A float, and a change elsewhere on the line.
            ("if x >= 1.5:", "if x > 0.5:"),
            ("if x >= 18 and y:", "if x > 17 and z:"),
            // Only one token changed, or a name for a bound.
            ("if x >= 18:", "if x > 18:"),
            ("if x >= n:", "if x > m:"),
            // A negation of a comparison and its flip, not its complement.
            ("if not (x < n):", "if x > n:"),
            // A negation of more than one comparison.
            ("if not (x < n and y):", "if x >= n and y:"),
            ("if not (a < b < c):", "if a >= b < c:"),
            // The negation of a call that compares, not of a comparison.
            ("if not f(x < n):", "if f(x >= n):"),
        ] {
            assert!(!same_over_integers("a.py", a, b), "{a} / {b}");
        }
    }
}
