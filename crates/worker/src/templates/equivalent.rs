//! Whether two fixed lines mean the same over integers: `age >= 18` and `age > 17`.
//!
//! When two template fixes of one statement both pass the tests, the tests cannot tell them
//! apart and the landed one may be wrong. A comparison made inclusive and its bound moved by
//! one are two spellings of one fix where the compared values are integers (the common case
//! for a bound), so such a pair is not a choice the tests left open.

use super::*;

/// Whether lines `a` and `b` differ only in one comparison's strictness and its integer
/// operand, in the direction that keeps the comparison's meaning over integers:
/// `x >= 18` / `x > 17`, `x <= n` / `x < n + 1` (written `x < 6` for `x <= 5`), `0 < x` /
/// `1 <= x`. The integer must be a whole operand: `x > 17 * k` is not `x >= 18 * k`.
pub fn same_over_integers(path: &str, a: &str, b: &str) -> bool {
    let lang = Lang::of(path);
    let (ta, tb) = (words(a, lang), words(b, lang));
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

/// The line's tokens without spaces, each with its text.
fn words(line: &str, lang: Lang) -> Vec<(Kind, &str)> {
    tokens(line, lang)
        .into_iter()
        .filter(|t| t.kind != Kind::Space)
        .map(|t| (t.kind, &line[t.start..t.end]))
        .collect()
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
        ] {
            assert!(!same_over_integers("a.py", a, b), "{a} / {b}");
        }
    }
}
